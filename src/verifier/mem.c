/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loads, stores and atomics: alignment, then per pointer kind the region
 * checks (map values and keys, memory, packets, context, stack, sockets),
 * and the type of the loaded value. The kernel's check_mem_access().
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rules/rules.h"
#include "verifier.h"

static int check_alignment(struct vet_env *env, const struct reg_state *reg,
			   int off, int size, bool strict_once)
{
	bool strict = env->strict_alignment || strict_once;
	const char *desc = "";
	struct tnum reg_off;
	char tn[48];
	int ip_align = 0;

	switch (reg->type) {
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		ip_align = 2;
		break;
	case PTR_TO_FLOW_KEYS: desc = "flow keys "; break;
	case PTR_TO_MAP_KEY: desc = "key "; break;
	case PTR_TO_MAP_VALUE: desc = "value "; break;
	case PTR_TO_CTX: desc = "context "; break;
	case PTR_TO_STACK:
		desc = "stack ";
		/* Spill tracking relies on aligned stack accesses. */
		strict = true;
		break;
	case PTR_TO_SOCKET: desc = "sock "; break;
	case PTR_TO_SOCK_COMMON: desc = "sock_common "; break;
	case PTR_TO_TCP_SOCK: desc = "tcp_sock "; break;
	case PTR_TO_XDP_SOCK: desc = "xdp_sock "; break;
	case PTR_TO_ARENA:
		return 0;
	default:
		break;
	}
	if (!strict || size == 1)
		return 0;
	reg_off = tnum_add(reg->b.var_off, tnum_const((uint64_t)(int64_t)(ip_align + reg->off + off)));
	if (tnum_is_aligned(reg_off, (uint64_t)size))
		return 0;
	if (env_has(env, KVER_MSG_CONST_TNUM_NUMBER))
		tnum_str(tn, sizeof(tn), reg->b.var_off);
	else
		tnum_print(tn, sizeof(tn), reg->b.var_off);
	if (ip_align)
		verbose(env, "misaligned packet access off %d+%s+%d+%d size %d\n",
			ip_align, tn, reg->off, off, size);
	else
		verbose(env, "misaligned %saccess off %s+%d+%d size %d\n", desc, tn,
			reg->off, off, size);
	return -EACCES;
}

static int region_error(struct vet_env *env, uint32_t regno, int off, int size,
			uint32_t limit, bool zero_ok)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool size_ok = size > 0 || (size == 0 && zero_ok);

	if (off >= 0 && size_ok && (uint64_t)off + (uint64_t)size <= limit)
		return 0;
	switch (base_type(reg->type)) {
	case PTR_TO_MAP_KEY:
		verbose(env, "invalid access to map key, key_size=%u off=%d size=%d\n",
			limit, off, size);
		break;
	case PTR_TO_MAP_VALUE:
		verbose(env, "invalid access to map value, value_size=%u off=%d size=%d\n",
			limit, off, size);
		break;
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET_END:
		verbose(env, "invalid access to packet, off=%d size=%d, R%u(id=%u,off=%d,r=%u)\n",
			off, size, regno, reg->id, off, limit);
		break;
	default:
		verbose(env, "invalid access to memory, mem_size=%u off=%d size=%d\n",
			limit, off, size);
	}
	return -EACCES;
}

int check_mem_region(struct vet_env *env, uint32_t regno, int off, int size,
		     uint32_t limit, bool zero_ok)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int64_t smin = reg->b.smin;
	int err;

	if (smin < 0 && (smin == INT64_MIN ||
			 (int64_t)off + smin != (int64_t)(int32_t)(off + smin) ||
			 smin + off < 0)) {
		verbose(env, "R%u min value is negative, either use unsigned index or do a if (index >=0) check.\n",
			regno);
		return -EACCES;
	}
	err = region_error(env, regno, (int)(smin + off), size, limit, zero_ok);
	if (err) {
		verbose(env, "R%u min value is outside of the allowed memory range\n", regno);
		return err;
	}
	if (reg->b.umax >= BPF_MAX_VAR_OFF) {
		verbose(env, "R%u unbounded memory access, make sure to bounds check any such access\n",
			regno);
		return -EACCES;
	}
	err = region_error(env, regno, (int)(reg->b.umax + (uint64_t)off), size, limit,
			   zero_ok);
	if (err) {
		verbose(env, "R%u max value is outside of the allowed memory range\n", regno);
		return err;
	}
	return 0;
}

int check_packet_access(struct vet_env *env, uint32_t regno, int off, int size,
			bool zero_ok)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (reg->b.smin < 0) {
		verbose(env, "R%u min value is negative, either use unsigned index or do a if (index >=0) check.\n",
			regno);
		return -EACCES;
	}
	err = reg->range < 0 ? -EINVAL :
	      region_error(env, regno, off, size, (uint32_t)reg->range, zero_ok);
	if (err) {
		verbose(env, "R%u offset is outside of the packet\n", regno);
		return err;
	}
	return 0;
}

bool may_access_direct_pkt_data(struct vet_env *env, enum access_type t)
{
	switch (env->prog_type) {
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_CGROUP_SKB:
		if (t == ACCESS_WRITE)
			return false;
		/* fallthrough */
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return true;
	default:
		return false;
	}
}

/* Unmodified pointer required: ctx and friends must not carry offsets. */
int check_ptr_off_reg(struct vet_env *env, const struct reg_state *reg,
		      uint32_t regno, bool fixed_off_ok)
{
	char tb[64], tn[48];

	if (reg->off < 0) {
		verbose(env, "negative offset %s ptr R%u off=%d disallowed\n",
			reg_type_name(env, tb, sizeof(tb), reg->type), regno, reg->off);
		return -EACCES;
	}
	if (!fixed_off_ok && reg->off) {
		verbose(env, "dereference of modified %s ptr R%u off=%d disallowed\n",
			reg_type_name(env, tb, sizeof(tb), reg->type), regno, reg->off);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off) || reg->b.var_off.value) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "variable %s access var_off=%s disallowed\n",
			reg_type_str(tb, sizeof(tb), reg->type), tn);
		return -EACCES;
	}
	return 0;
}

static bool leaks_pointer(struct vet_env *env, enum access_type t, int value_regno)
{
	return t == ACCESS_WRITE && value_regno >= 0 &&
	       reg_is_pointer(env, &cur_regs(env)[value_regno]);
}

static void load_unknown(struct vet_env *env, int value_regno)
{
	if (value_regno >= 0)
		reg_mark_unknown(env, &cur_regs(env)[value_regno]);
}

static int access_map_value(struct vet_env *env, uint32_t insn_idx, uint32_t regno, int off,
			    int size, enum access_type t, int value_regno, bool is_ldsx)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	const struct bpfvet_map *map = reg->map_ptr;
	const struct map_field *kptr = NULL;
	int err;

	if (leaks_pointer(env, t, value_regno)) {
		verbose(env, "R%d leaks addr into map\n", value_regno);
		return -EACCES;
	}
	if (t == ACCESS_WRITE && (map->flags & BPF_F_RDONLY_PROG)) {
		verbose(env, "write into map forbidden, value_size=%u off=%d size=%d\n",
			map->value_size, off, size);
		return -EACCES;
	}
	if (t == ACCESS_READ && (map->flags & BPF_F_WRONLY_PROG)) {
		verbose(env, "read from map forbidden, value_size=%u off=%d size=%d\n",
			map->value_size, off, size);
		return -EACCES;
	}
	err = check_map_value_access(env, regno, off, size, false, true);
	if (err)
		return err;
	if (tnum_is_const(reg->b.var_off))
		kptr = map_field_at(env, map, (uint32_t)off + (uint32_t)reg->b.var_off.value,
				    FIELD_KPTR | FIELD_UPTR);
	if (kptr)
		return check_map_kptr_access(env, insn_idx, value_regno, kptr);
	if (t != ACCESS_READ || value_regno < 0)
		return 0;
	if (tnum_is_const(reg->b.var_off) && map_is_frozen_rdonly(map) &&
	    map_const_known(map, off + (int)reg->b.var_off.value, size)) {
		uint64_t val;

		err = map_read_const(env, map, off + (int)reg->b.var_off.value, size,
				     is_ldsx, &val);
		if (err)
			return err;
		reg_mark_known(&cur_regs(env)[value_regno], val);
		return 0;
	}
	load_unknown(env, value_regno);
	return 0;
}

static int access_mem(struct vet_env *env, uint32_t regno, int off, int size,
		      enum access_type t, int value_regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool rdonly = reg->type & MEM_RDONLY;
	char tb[64];
	int err;

	if (type_may_be_null(reg->type)) {
		verbose(env, "R%u invalid mem access '%s'\n", regno,
			reg_type_str(tb, sizeof(tb), reg->type));
		return -EACCES;
	}
	if (t == ACCESS_WRITE && rdonly) {
		verbose(env, "R%u cannot write into %s\n", regno,
			reg_type_str(tb, sizeof(tb), reg->type));
		return -EACCES;
	}
	if (leaks_pointer(env, t, value_regno)) {
		verbose(env, "R%d leaks addr into mem\n", value_regno);
		return -EACCES;
	}
	/* Untrusted memory (pointers walked from kernel structs) is read
	 * with fault handling, at any offset. */
	if (reg->type & PTR_UNTRUSTED) {
		load_unknown(env, value_regno);
		return 0;
	}
	err = check_mem_region(env, regno, off, size, reg->mem_size, false);
	if (!err && value_regno >= 0 && (t == ACCESS_READ || rdonly))
		load_unknown(env, value_regno);
	return err;
}

/* Context fields that later kernels appended: from `off` on, a context
 * of an older target ends. */
static const struct {
	uint32_t prog_type;
	int off;
	enum kver_feature since;
} newer_ctx_fields[] = {
	{ BPF_PROG_TYPE_SOCK_OPS, 216, KVER_SOCK_OPS_HWTSTAMP },	/* skb_hwtstamp */
};

/* Does the target's context have the field at `off`? */
static bool ctx_field_in_target(const struct vet_env *env, int off)
{
	for (size_t i = 0; i < sizeof(newer_ctx_fields) / sizeof(newer_ctx_fields[0]); i++)
		if (env->prog_type == newer_ctx_fields[i].prog_type &&
		    off >= newer_ctx_fields[i].off && !env_has(env, newer_ctx_fields[i].since))
			return false;
	return true;
}

static int access_ctx(struct vet_env *env, uint32_t regno, int off, int size,
		      enum access_type t, int value_regno, bool is_ldsx)
{
	struct ctx_access info = { .reg_type = SCALAR_VALUE, .is_ldsx = is_ldsx };
	const struct reg_state *reg = &cur_regs(env)[regno];
	struct reg_state *dst;
	int err;

	if (leaks_pointer(env, t, value_regno)) {
		verbose(env, "R%d leaks addr into ctx\n", value_regno);
		return -EACCES;
	}
	err = check_ptr_off_reg(env, reg, regno, false);
	if (err)
		return err;
	if (btf_ctx_applies(env))
		return check_btf_ctx_access(env, off, size, t, value_regno);
	if (!ctx_field_in_target(env, off) ||
	    !ctx_is_valid_access(env, off, size, t == ACCESS_WRITE, &info)) {
		verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
		return -EACCES;
	}
	if (t != ACCESS_READ || value_regno < 0)
		return 0;
	dst = &cur_regs(env)[value_regno];
	if (info.reg_type == SCALAR_VALUE) {
		reg_mark_unknown(env, dst);
		return 0;
	}
	reg_mark_ptr(dst, info.reg_type);
	if (type_may_be_null(info.reg_type))
		dst->id = ++env->id_gen;
	if (base_type(info.reg_type) == PTR_TO_BTF_ID)
		btf_ptr_set_struct(env, dst, info.btf_struct);
	return 0;
}

static int access_stack(struct vet_env *env, uint32_t regno, int off, int size,
			enum access_type t, int value_regno, uint32_t insn_idx)
{
	int err = check_stack_bounds(env, regno, off, size, t);

	if (err)
		return err;
	if (t == ACCESS_READ)
		return check_stack_read(env, regno, off, size, value_regno);
	return check_stack_write(env, regno, off, size, value_regno, insn_idx);
}

static int access_pkt(struct vet_env *env, uint32_t regno, int off, int size,
		      enum access_type t, int value_regno)
{
	int err;

	if (t == ACCESS_WRITE && !may_access_direct_pkt_data(env, t)) {
		verbose(env, "cannot write into packet\n");
		return -EACCES;
	}
	if (leaks_pointer(env, t, value_regno)) {
		verbose(env, "R%d leaks addr into packet\n", value_regno);
		return -EACCES;
	}
	err = check_packet_access(env, regno, off, size, false);
	if (!err && t == ACCESS_READ)
		load_unknown(env, value_regno);
	return err;
}

static int access_flow_keys(struct vet_env *env, int off, int size,
			    enum access_type t, int value_regno)
{
	if (leaks_pointer(env, t, value_regno)) {
		verbose(env, "R%d leaks addr into flow keys\n", value_regno);
		return -EACCES;
	}
	if (size < 0 || off < 0 || (uint64_t)off + (uint64_t)size > FLOW_KEYS_SIZE) {
		verbose(env, "invalid access to flow keys off=%d size=%d\n", off, size);
		return -EACCES;
	}
	if (t == ACCESS_READ)
		load_unknown(env, value_regno);
	return 0;
}

static int access_tp_buffer(struct vet_env *env, uint32_t regno, int off, int size,
			    enum access_type t, int value_regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	char tn[48];

	if (off < 0) {
		verbose(env, "R%u invalid tracepoint buffer access: off=%d, size=%d\n",
			regno, off, size);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off) || reg->b.var_off.value) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "R%u invalid variable buffer offset: off=%d, var_off=%s\n",
			regno, off, tn);
		return -EACCES;
	}
	if ((uint32_t)(off + size) > env->max_tp_access)
		env->max_tp_access = (uint32_t)(off + size);
	if (t == ACCESS_READ)
		load_unknown(env, value_regno);
	return 0;
}

/* A sign-extending load whose value may have its sign bit set gives
 * another value than the spill it fills from: it leaves that spill's
 * links, id and +const offset (6.18; the 6.12 source kept them). */
static void unlink_if_extended(const struct vet_env *env, struct reg_state *r, int size)
{
	uint64_t umax = r->b.umax;
	int width = umax ? 64 - __builtin_clzll(umax) : 0;

	if (env_has(env, KVER_LDSX_UNLINK) && width >= size * 8) {
		r->id = 0;
		r->off = 0;
	}
}

int check_mem_access(struct vet_env *env, uint32_t insn_idx, uint32_t regno,
		     int off, int size, enum access_type t, int value_regno,
		     bool strict_alignment_once, bool is_ldsx)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	uint32_t type = reg->type;
	char tb[64];
	int err;

	err = check_alignment(env, reg, off, size, strict_alignment_once);
	if (err)
		return err;
	off += reg->off;

	if (type == PTR_TO_MAP_KEY) {
		if (t == ACCESS_WRITE) {
			verbose(env, "write to change key R%u not allowed\n", regno);
			return -EACCES;
		}
		err = check_mem_region(env, regno, off, size, reg->map_ptr->key_size, false);
		if (!err)
			load_unknown(env, value_regno);
	} else if (type == PTR_TO_MAP_VALUE) {
		err = access_map_value(env, insn_idx, regno, off, size, t, value_regno, is_ldsx);
	} else if (base_type(type) == PTR_TO_MEM) {
		err = access_mem(env, regno, off, size, t, value_regno);
	} else if (type == PTR_TO_CTX) {
		err = access_ctx(env, regno, off, size, t, value_regno, is_ldsx);
	} else if (type == PTR_TO_STACK) {
		err = access_stack(env, regno, off, size, t, value_regno, insn_idx);
	} else if (reg_type_is_pkt(type)) {
		err = access_pkt(env, regno, off, size, t, value_regno);
	} else if (type == PTR_TO_FLOW_KEYS) {
		err = access_flow_keys(env, off, size, t, value_regno);
	} else if (reg_type_is_sk_pointer(type) && type == base_type(type)) {
		if (t == ACCESS_WRITE) {
			verbose(env, "R%u cannot write into %s\n", regno,
				reg_type_str(tb, sizeof(tb), type));
			return -EACCES;
		}
		err = check_sock_access(env, insn_idx, regno, off, size);
		if (!err)
			load_unknown(env, value_regno);
	} else if (type == PTR_TO_TP_BUFFER) {
		err = access_tp_buffer(env, regno, off, size, t, value_regno);
	} else if (base_type(type) == PTR_TO_BTF_ID && !type_may_be_null(type)) {
		err = check_ptr_to_btf_access(env, regno, off, size, t, value_regno);
	} else if (base_type(type) == PTR_TO_BUF) {
		err = check_buf_access(env, regno, off, size, t, value_regno);
	} else if (type == CONST_PTR_TO_MAP) {
		err = check_ptr_to_map_access(env, regno, off, size, t, value_regno);
	} else if (type == PTR_TO_ARENA) {
		if (t == ACCESS_READ)
			load_unknown(env, value_regno);
	} else {
		verbose(env, "R%u invalid mem access '%s'\n", regno,
			reg_type_str(tb, sizeof(tb), type));
		return -EACCES;
	}
	if (!err && size < BPF_REG_SIZE && value_regno >= 0 && t == ACCESS_READ &&
	    cur_regs(env)[value_regno].type == SCALAR_VALUE) {
		struct bounds *b = &cur_regs(env)[value_regno].b;

		if (is_ldsx) {
			unlink_if_extended(env, &cur_regs(env)[value_regno], size);
			bounds_sext(b, size);
		} else {
			bounds_truncate(b, size);
		}
	}
	return err;
}

static bool ptr_type_mismatch_ok(uint32_t t)
{
	switch (base_type(t)) {
	case PTR_TO_CTX:
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
	case PTR_TO_XDP_SOCK:
	case PTR_TO_BTF_ID:
	case PTR_TO_ARENA:
		return false;
	default:
		return true;
	}
}

int save_aux_ptr_type(struct vet_env *env, uint32_t type, bool allow_trust_mismatch)
{
	uint32_t *prev = &env->aux[env->insn_idx].ptr_type;

	if (*prev == NOT_INIT) {
		*prev = type;
		return 0;
	}
	if (type == *prev || (ptr_type_mismatch_ok(type) && ptr_type_mismatch_ok(*prev)))
		return 0;
	if (allow_trust_mismatch && base_type(type) == PTR_TO_BTF_ID &&
	    base_type(*prev) == PTR_TO_BTF_ID) {
		*prev = PTR_TO_BTF_ID | PTR_UNTRUSTED;
		return 0;
	}
	verbose(env, "same insn cannot be used with different pointers\n");
	return -EINVAL;
}

int check_load_mem_strict(struct vet_env *env, const struct bpfvet_insn *insn,
			  bool strict)
{
	bool is_ldsx = BPF_MODE(insn->code) == BPF_MEMSX;
	uint32_t src_type;
	int err;

	err = check_src_dst_args(env, insn, true, DST_OP_NO_MARK);
	if (err)
		return err;
	src_type = cur_regs(env)[insn->src_reg].type;
	err = check_mem_access(env, env->insn_idx, insn->src_reg, insn->off,
			       bpf_size_bytes(insn->code), ACCESS_READ, insn->dst_reg,
			       strict, is_ldsx);
	if (!err)
		err = save_aux_ptr_type(env, src_type, true);
	if (!err)
		err = reg_bounds_sanity_check(env, &cur_regs(env)[insn->dst_reg], "ldx");
	return err;
}

int check_load_mem(struct vet_env *env, const struct bpfvet_insn *insn)
{
	return check_load_mem_strict(env, insn, false);
}

int check_store_reg_strict(struct vet_env *env, const struct bpfvet_insn *insn,
			   bool strict)
{
	uint32_t dst_type;
	int err;

	err = check_src_dst_args(env, insn, true, SRC_OP);
	if (err)
		return err;
	dst_type = cur_regs(env)[insn->dst_reg].type;
	err = check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off,
			       bpf_size_bytes(insn->code), ACCESS_WRITE, insn->src_reg,
			       strict, false);
	if (err)
		return err;
	return save_aux_ptr_type(env, dst_type, false);
}

int check_store_reg(struct vet_env *env, const struct bpfvet_insn *insn)
{
	return check_store_reg_strict(env, insn, false);
}

int check_ptr_alignment_strict(struct vet_env *env, const struct reg_state *reg, int size)
{
	return check_alignment(env, reg, 0, size, true);
}
