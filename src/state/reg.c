/* SPDX-License-Identifier: BSD-2-Clause */
/* Register states: constructors, classification and the kernel's type names. */
#include <stdio.h>
#include <string.h>

#include "state.h"

static const char *const base_names[REG_TYPE_BASE_MAX] = {
	[NOT_INIT] = "?",
	[SCALAR_VALUE] = "scalar",
	[PTR_TO_CTX] = "ctx",
	[CONST_PTR_TO_MAP] = "map_ptr",
	[PTR_TO_MAP_VALUE] = "map_value",
	[PTR_TO_MAP_KEY] = "map_key",
	[PTR_TO_STACK] = "fp",
	[PTR_TO_PACKET_META] = "pkt_meta",
	[PTR_TO_PACKET] = "pkt",
	[PTR_TO_PACKET_END] = "pkt_end",
	[PTR_TO_FLOW_KEYS] = "flow_keys",
	[PTR_TO_SOCKET] = "sock",
	[PTR_TO_SOCK_COMMON] = "sock_common",
	[PTR_TO_TCP_SOCK] = "tcp_sock",
	[PTR_TO_TP_BUFFER] = "tp_buffer",
	[PTR_TO_XDP_SOCK] = "xdp_sock",
	[PTR_TO_BTF_ID] = "ptr_",
	[PTR_TO_MEM] = "mem",
	[PTR_TO_ARENA] = "arena",
	[PTR_TO_BUF] = "buf",
	[PTR_TO_FUNC] = "func",
	[CONST_PTR_TO_DYNPTR] = "dynptr_ptr",
};

const char *reg_type_str(char *buf, size_t sz, uint32_t type)
{
	uint32_t base = base_type(type);
	const char *name = base < REG_TYPE_BASE_MAX && base_names[base] ?
			   base_names[base] : "?";
	const char *null_sfx = "";

	if (type & PTR_MAYBE_NULL)
		null_sfx = base == PTR_TO_BTF_ID ? "or_null_" : "_or_null";
	snprintf(buf, sz, "%s%s%s%s%s%s%s%s%s",
		 type & MEM_RDONLY ? "rdonly_" : "",
		 type & MEM_RINGBUF ? "ringbuf_" : "",
		 type & MEM_USER ? "user_" : "",
		 type & MEM_PERCPU ? "percpu_" : "",
		 type & MEM_RCU ? "rcu_" : "",
		 type & PTR_UNTRUSTED ? "untrusted_" : "",
		 type & PTR_TRUSTED ? "trusted_" : "",
		 name, null_sfx);
	return buf;
}

const char *reg_type_name(const struct vet_env *env, char *buf, size_t sz, uint32_t type)
{
	char rest[64];

	if (env_has(env, KVER_MSG_RINGBUF_NAME) || !(type & MEM_RINGBUF))
		return reg_type_str(buf, sz, type);
	reg_type_str(rest, sizeof(rest), type & ~(MEM_RINGBUF | MEM_RDONLY));
	snprintf(buf, sz, "%salloc_%s", type & MEM_RDONLY ? "rdonly_" : "", rest);
	return buf;
}

/* Clears everything that describes the object pointed to. */
static void reg_clear_identity(struct reg_state *reg)
{
	reg->off = 0;
	memset(reg->raw, 0, sizeof(reg->raw));
	reg->id = 0;
	reg->ref_obj_id = 0;
	reg->frameno = 0;
}

void reg_mark_not_init(struct reg_state *reg)
{
	memset(reg, 0, sizeof(*reg));
	reg->type = NOT_INIT;
	bounds_unknown(&reg->b);
}

void reg_mark_unknown_imprecise(struct reg_state *reg)
{
	reg_clear_identity(reg);
	reg->type = SCALAR_VALUE;
	reg->precise = false;
	bounds_unknown(&reg->b);
}

void reg_mark_unknown(const struct vet_env *env, struct reg_state *reg)
{
	reg_mark_unknown_imprecise(reg);
	/* Unprivileged programs get no precision tracking: every scalar is
	 * compared by range, as if precise. */
	reg->precise = !env->bpf_capable;
}

void reg_set_known(struct reg_state *reg, uint64_t v)
{
	reg_clear_identity(reg);
	bounds_const(&reg->b, v);
}

void reg_mark_known(struct reg_state *reg, uint64_t v)
{
	reg_set_known(reg, v);
	reg->type = SCALAR_VALUE;
}

void reg_mark_ptr(struct reg_state *reg, uint32_t type)
{
	reg_set_known(reg, 0);
	reg->type = type;
	reg->precise = false;
}

void frame_init(const struct vet_env *env, struct func_state *f, int callsite,
		uint32_t frameno, uint32_t subprogno)
{
	(void)env;
	for (int i = 0; i < MAX_BPF_REG; i++) {
		reg_mark_not_init(&f->regs[i]);
		f->regs[i].subreg_def = -1;
	}
	reg_mark_ptr(&f->regs[BPF_REG_FP], PTR_TO_STACK);
	f->regs[BPF_REG_FP].frameno = frameno;
	f->callsite = callsite;
	f->frameno = frameno;
	f->subprogno = subprogno;
}

bool reg_is_pointer(const struct vet_env *env, const struct reg_state *reg)
{
	if (env->allow_ptr_leaks)
		return false;
	return reg->type != SCALAR_VALUE;
}

bool reg_type_is_pkt(uint32_t type)
{
	type = base_type(type);
	return type == PTR_TO_PACKET || type == PTR_TO_PACKET_META;
}

bool reg_is_const(const struct reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_is_const(reg->b.var_off);
}

bool reg_is_null_scalar(const struct reg_state *reg)
{
	return reg->type == SCALAR_VALUE && tnum_equals_const(reg->b.var_off, 0);
}

bool reg_type_is_map(uint32_t type)
{
	switch (base_type(type)) {
	case CONST_PTR_TO_MAP:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
		return true;
	default:
		return false;
	}
}

/* Exact types: a maybe-NULL socket pointer is not dereferenceable. */
bool reg_type_is_sk_pointer(uint32_t type)
{
	switch (type) {
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
	case PTR_TO_XDP_SOCK:
		return true;
	default:
		return false;
	}
}

/* Pointer types that may be saved to the stack and restored intact. */
bool reg_type_is_spillable(uint32_t type)
{
	switch (base_type(type)) {
	case PTR_TO_MAP_VALUE:
	case PTR_TO_STACK:
	case PTR_TO_CTX:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
	case PTR_TO_FLOW_KEYS:
	case CONST_PTR_TO_MAP:
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
	case PTR_TO_XDP_SOCK:
	case PTR_TO_BTF_ID:
	case PTR_TO_BUF:
	case PTR_TO_MEM:
	case PTR_TO_FUNC:
	case PTR_TO_MAP_KEY:
	case PTR_TO_ARENA:
		return true;
	default:
		return false;
	}
}

struct bounds_memo *env_bounds_memo(struct vet_env *env)
{
	if (!env->bounds_memo) {
		env->bounds_memo = vet_malloc(env, sizeof(*env->bounds_memo));
		if (env->bounds_memo)
			env->bounds_memo->valid = 0;
	}
	return env->bounds_memo;
}
