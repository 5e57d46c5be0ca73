/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Calls to helper functions: availability for the program type, argument
 * types and the memory they describe, references released and acquired,
 * and the type of R0 afterwards. The kernel's check_helper_call().
 */
#include <errno.h>
#include <string.h>

#include "rules/rules.h"
#include "verifier.h"

/* Register types accepted for each argument type, in the kernel's order
 * (the order matters: it is printed in "expected=" messages). */
static const uint32_t mem_types[] = {
	PTR_TO_STACK, PTR_TO_PACKET, PTR_TO_PACKET_META, PTR_TO_MAP_KEY,
	PTR_TO_MAP_VALUE, PTR_TO_MEM, PTR_TO_MEM | MEM_RINGBUF, PTR_TO_BUF,
	PTR_TO_BTF_ID | PTR_TRUSTED, 0,
};
/* Map keys and values before 6.2 (KVER_MAP_ARG_ANY_MEM). */
static const uint32_t map_key_value_types[] = {
	PTR_TO_STACK, PTR_TO_PACKET, PTR_TO_PACKET_META, PTR_TO_MAP_KEY, PTR_TO_MAP_VALUE, 0,
};
static const uint32_t sock_types[] = {
	PTR_TO_SOCK_COMMON, PTR_TO_SOCKET, PTR_TO_TCP_SOCK, PTR_TO_XDP_SOCK, 0,
};
static const uint32_t btf_sock_common_types[] = {
	PTR_TO_SOCK_COMMON, PTR_TO_SOCKET, PTR_TO_TCP_SOCK, PTR_TO_XDP_SOCK,
	PTR_TO_BTF_ID, PTR_TO_BTF_ID | PTR_TRUSTED, 0,
};
static const uint32_t spin_lock_types[] = { PTR_TO_MAP_VALUE, PTR_TO_BTF_ID | MEM_ALLOC, 0 };
static const uint32_t fullsock_types[] = { PTR_TO_SOCKET, 0 };
static const uint32_t scalar_types[] = { SCALAR_VALUE, 0 };
static const uint32_t context_types[] = { PTR_TO_CTX, 0 };
static const uint32_t ringbuf_mem_types[] = { PTR_TO_MEM | MEM_RINGBUF, 0 };
static const uint32_t const_map_ptr_types[] = { CONST_PTR_TO_MAP, 0 };
static const uint32_t btf_ptr_types[] = {
	PTR_TO_BTF_ID, PTR_TO_BTF_ID | PTR_TRUSTED, PTR_TO_BTF_ID | MEM_RCU, 0,
};
static const uint32_t percpu_btf_ptr_types[] = {
	PTR_TO_BTF_ID | MEM_PERCPU, PTR_TO_BTF_ID | MEM_PERCPU | MEM_RCU,
	PTR_TO_BTF_ID | MEM_PERCPU | PTR_TRUSTED, 0,
};
static const uint32_t func_ptr_types[] = { PTR_TO_FUNC, 0 };
static const uint32_t stack_ptr_types[] = { PTR_TO_STACK, 0 };
static const uint32_t map_value_types[] = { PTR_TO_MAP_VALUE, 0 };
static const uint32_t kptr_xchg_dest_types[] = { PTR_TO_MAP_VALUE, PTR_TO_BTF_ID | MEM_ALLOC, 0 };
static const uint32_t dynptr_types[] = { PTR_TO_STACK, CONST_PTR_TO_DYNPTR, 0 };

static const uint32_t *compatible_types(uint32_t arg_type)
{
	switch (base_type(arg_type)) {
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
	case ARG_PTR_TO_MEM:
		return mem_types;
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		return scalar_types;
	case ARG_CONST_MAP_PTR: return const_map_ptr_types;
	case ARG_PTR_TO_CTX: return context_types;
	case ARG_PTR_TO_SOCK_COMMON: return sock_types;
	case ARG_PTR_TO_BTF_ID_SOCK_COMMON: return btf_sock_common_types;
	case ARG_PTR_TO_SOCKET: return fullsock_types;
	case ARG_PTR_TO_BTF_ID: return btf_ptr_types;
	case ARG_PTR_TO_SPIN_LOCK: return spin_lock_types;
	case ARG_PTR_TO_RINGBUF_MEM: return ringbuf_mem_types;
	case ARG_PTR_TO_PERCPU_BTF_ID: return percpu_btf_ptr_types;
	case ARG_PTR_TO_FUNC: return func_ptr_types;
	case ARG_PTR_TO_STACK: return stack_ptr_types;
	case ARG_PTR_TO_CONST_STR: return map_value_types;
	case ARG_PTR_TO_TIMER: return map_value_types;
	case ARG_KPTR_XCHG_DEST: return kptr_xchg_dest_types;
	case ARG_PTR_TO_DYNPTR: return dynptr_types;
	default: return NULL;
	}
}

/* compatible_types() for the target: older kernels took less. */
static const uint32_t *target_compatible_types(const struct vet_env *env, uint32_t arg_type)
{
	uint32_t base = base_type(arg_type);

	if ((base == ARG_PTR_TO_MAP_KEY || base == ARG_PTR_TO_MAP_VALUE) &&
	    !env_has(env, KVER_MAP_ARG_ANY_MEM))
		return map_key_value_types;
	return compatible_types(arg_type);
}

/*
 * The lists 6.1 printed after "expected=", where they differ from those
 * above (before KVER_MSG_ARG_TYPE_LISTS): no trusted or RCU pointers,
 * map keys and values from the stack, packets and maps only. Which types
 * an argument accepts is compatible_types()'s business; these are words.
 */
static const uint32_t mem_types_old[] = {
	PTR_TO_STACK, PTR_TO_PACKET, PTR_TO_PACKET_META, PTR_TO_MAP_KEY,
	PTR_TO_MAP_VALUE, PTR_TO_MEM, PTR_TO_MEM | MEM_RINGBUF, PTR_TO_BUF, 0,
};
static const uint32_t btf_sock_common_types_old[] = {
	PTR_TO_SOCK_COMMON, PTR_TO_SOCKET, PTR_TO_TCP_SOCK, PTR_TO_XDP_SOCK, PTR_TO_BTF_ID, 0,
};
static const uint32_t btf_ptr_types_old[] = { PTR_TO_BTF_ID, 0 };
static const uint32_t percpu_btf_ptr_types_old[] = { PTR_TO_BTF_ID | MEM_PERCPU, 0 };

static const uint32_t *expected_types(const struct vet_env *env, uint32_t arg_type)
{
	if (env_has(env, KVER_MSG_ARG_TYPE_LISTS))
		return compatible_types(arg_type);
	switch (base_type(arg_type)) {
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
		return map_key_value_types;
	case ARG_PTR_TO_MEM: return mem_types_old;
	case ARG_PTR_TO_BTF_ID_SOCK_COMMON: return btf_sock_common_types_old;
	case ARG_PTR_TO_BTF_ID: return btf_ptr_types_old;
	case ARG_PTR_TO_PERCPU_BTF_ID: return percpu_btf_ptr_types_old;
	case ARG_PTR_TO_SPIN_LOCK:
	case ARG_KPTR_XCHG_DEST:
		return map_value_types;
	default: return compatible_types(arg_type);
	}
}

static void print_expected(struct vet_env *env, uint32_t regno, uint32_t type,
			   uint32_t arg_type)
{
	const uint32_t *want = expected_types(env, arg_type);
	char tb[64];
	int i;

	verbose(env, "R%u type=%s expected=", regno, reg_type_name(env, tb, sizeof(tb), type));
	for (i = 0; want[i + 1]; i++)
		verbose(env, "%s, ", reg_type_name(env, tb, sizeof(tb), want[i]));
	verbose(env, "%s\n", reg_type_name(env, tb, sizeof(tb), want[i]));
}

int check_reg_type(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		   const struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const uint32_t *ok = target_compatible_types(env, arg_type);
	uint32_t type = reg->type;
	char tb[64];
	int i;

	if (!ok) {
		verbose(env, "verifier internal error: unsupported arg type %u\n", arg_type);
		return -EFAULT;
	}
	if (arg_type & MEM_RDONLY)
		type &= ~MEM_RDONLY;
	if (arg_type & PTR_MAYBE_NULL)
		type &= ~PTR_MAYBE_NULL;
	if (base_type(arg_type) == ARG_PTR_TO_MEM)
		type &= ~(DYNPTR_TYPE_LOCAL | DYNPTR_TYPE_RINGBUF | DYNPTR_TYPE_SKB |
			  DYNPTR_TYPE_XDP | DYNPTR_TYPE_SKB_META);
	/* bpf_kptr_xchg stashes the program's own objects too. */
	if (meta->func_id == HELPER_KPTR_XCHG && (type & MEM_ALLOC) && regno == BPF_REG_2)
		type &= ~(MEM_ALLOC | MEM_PERCPU);
	for (i = 0; ok[i]; i++)
		if (type == ok[i])
			break;
	if (!ok[i] && !(ok == scalar_types && type == SCALAR_VALUE)) {
		print_expected(env, regno, reg->type, arg_type);
		return -EACCES;
	}
	if (base_type(reg->type) != PTR_TO_BTF_ID)
		return 0;
	if (ok == mem_types) {
		if (!(arg_type & MEM_RDONLY)) {
			verbose(env, "%s() may write into memory pointed by R%u type=%s\n",
				helper_name((uint32_t)meta->func_id), regno,
				reg_type_str(tb, sizeof(tb), reg->type));
			return -EACCES;
		}
		return 0;
	}
	return check_btf_arg_type(env, regno, arg_type, meta);
}

int check_func_arg_reg_off(struct vet_env *env, const struct reg_state *reg,
			   uint32_t regno, uint32_t arg_type)
{
	if (arg_type & OBJ_RELEASE) {
		if (base_type(arg_type) == ARG_PTR_TO_DYNPTR && reg->type == PTR_TO_STACK)
			return 0;
		if (reg->off && env_has(env, KVER_MSG_RELEASE_OFF)) {
			verbose(env, "R%u must have zero offset when passed to release func or trusted arg to kfunc\n",
				regno);
			return -EINVAL;
		}
		return check_ptr_off_reg(env, reg, regno, false);
	}
	switch (reg->type) {
	case PTR_TO_STACK:
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
	case PTR_TO_MEM | MEM_RDONLY:
	case PTR_TO_MEM | MEM_RINGBUF:
	case PTR_TO_BUF:
	case PTR_TO_BUF | MEM_RDONLY:
	case PTR_TO_ARENA:
	case SCALAR_VALUE:
		return 0;
	case PTR_TO_BTF_ID:
	case PTR_TO_BTF_ID | MEM_ALLOC:
	case PTR_TO_BTF_ID | PTR_TRUSTED:
	case PTR_TO_BTF_ID | MEM_RCU:
	case PTR_TO_BTF_ID | MEM_ALLOC | NON_OWN_REF:
	case PTR_TO_BTF_ID | MEM_ALLOC | NON_OWN_REF | MEM_RCU:
		return check_ptr_off_reg(env, reg, regno, true);
	default:
		return check_ptr_off_reg(env, reg, regno, false);
	}
}

/* Memory of `size` bytes at the register, read or written by a helper. */
int check_helper_mem_access(struct vet_env *env, uint32_t regno, int size,
			    enum access_type t, bool zero_ok, bool raw,
			    bool *raw_done)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	char tb[64];

	if (raw_done)
		*raw_done = false;
	switch (base_type(reg->type)) {
	case PTR_TO_PACKET:
	case PTR_TO_PACKET_META:
		return check_packet_access(env, regno, reg->off, size, zero_ok);
	case PTR_TO_MAP_KEY:
		if (t == ACCESS_WRITE) {
			verbose(env, "R%u cannot write into %s\n", regno,
				reg_type_str(tb, sizeof(tb), reg->type));
			return -EACCES;
		}
		return check_mem_region(env, regno, reg->off, size,
					reg->map_ptr->key_size, false);
	case PTR_TO_MAP_VALUE:
		if (t == ACCESS_WRITE && (reg->map_ptr->flags & BPF_F_RDONLY_PROG)) {
			verbose(env, "write into map forbidden, value_size=%u off=%d size=%d\n",
				reg->map_ptr->value_size, reg->off, size);
			return -EACCES;
		}
		if (t == ACCESS_READ && (reg->map_ptr->flags & BPF_F_WRONLY_PROG)) {
			verbose(env, "read from map forbidden, value_size=%u off=%d size=%d\n",
				reg->map_ptr->value_size, reg->off, size);
			return -EACCES;
		}
		return check_map_value_access(env, regno, reg->off, size, zero_ok, false);
	case PTR_TO_MEM:
		if ((reg->type & MEM_RDONLY) && t == ACCESS_WRITE) {
			verbose(env, "R%u cannot write into %s\n", regno,
				reg_type_str(tb, sizeof(tb), reg->type));
			return -EACCES;
		}
		return check_mem_region(env, regno, reg->off, size, reg->mem_size, zero_ok);
	case PTR_TO_STACK:
		/* Older kernels checked every helper access as a write. */
		if (!env_has(env, KVER_HELPER_READ_KEEPS_STACK))
			t = ACCESS_WRITE;
		return check_stack_range_init(env, regno, reg->off, size, zero_ok, t,
					      raw, raw_done);
	case PTR_TO_BTF_ID:
		return check_ptr_to_btf_access(env, regno, reg->off, size, ACCESS_READ, -1);
	case PTR_TO_BUF:
		return check_buf_region(env, regno, reg->off, size, t);
	case PTR_TO_CTX:
		if (!ctx_has_conversion(env)) {
			if (size == 0)
				return zero_ok ? 0 : -EACCES;
			return check_mem_access(env, env->insn_idx, regno, size - 1, 1, t,
						-1, false, false);
		}
		/* fallthrough */
	default:
		if (zero_ok && size == 0 && reg_is_null_scalar(reg))
			return 0;
		verbose(env, "R%u type=%s ", regno, reg_type_str(tb, sizeof(tb), reg->type));
		verbose(env, "expected=%s\n", reg_type_str(tb, sizeof(tb), PTR_TO_STACK));
		return -EACCES;
	}
}

static int note_raw(struct call_meta *meta, uint32_t regno, int size, bool raw_done)
{
	if (raw_done) {
		meta->raw_regno = (int)regno;
		meta->raw_size = size;
	}
	return 0;
}

static int check_mem_size_reg(struct vet_env *env, uint32_t regno,
			      enum access_type t, bool zero_ok, struct call_meta *meta)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	bool raw = meta->raw_mode && tnum_is_const(reg->b.var_off);
	bool raw_done;
	int err;

	meta->msize_max_value = reg->b.umax;
	if (reg->b.smin < 0) {
		verbose(env, "R%u min value is negative, either use unsigned or 'var &= const'\n",
			regno);
		return -EACCES;
	}
	/* Before, a size that may be 0 was checked as an access of 0 bytes
	 * to the memory, with that memory's own message. */
	if (reg->b.umin == 0 && !env_has(env, KVER_ZERO_SIZE_MSG)) {
		err = check_helper_mem_access(env, regno - 1, 0, t, zero_ok, raw, &raw_done);
		if (err)
			return err;
	} else if (reg->b.umin == 0 && !zero_ok) {
		verbose(env, "R%u invalid zero-sized read: u64=[%lld,%lld]\n", regno,
			(long long)reg->b.umin, (long long)reg->b.umax);
		return -EACCES;
	}
	if (reg->b.umax >= BPF_MAX_VAR_SIZ) {
		verbose(env, "R%u unbounded memory access, use 'var &= const' or 'if (var < const)'\n",
			regno);
		return -EACCES;
	}
	err = check_helper_mem_access(env, regno - 1, (int)reg->b.umax, t, zero_ok, raw,
				      &raw_done);
	if (err)
		return err;
	note_raw(meta, regno - 1, (int)reg->b.umax, raw_done);
	return mark_chain_precision(env, (int)regno);
}

int check_mem_size_pair(struct vet_env *env, uint32_t size_regno, enum access_type t)
{
	struct call_meta meta;

	memset(&meta, 0, sizeof(meta));
	return check_mem_size_reg(env, size_regno, t, true, &meta);
}

static enum access_type arg_access(uint32_t arg_type)
{
	return (arg_type & MEM_WRITE) ? ACCESS_WRITE : ACCESS_READ;
}

/* `arg_type` is the argument's type after map-specific resolution: a
 * sockmap's value is a socket, not memory. */
static int check_arg_by_kind(struct vet_env *env, uint32_t arg, uint32_t arg_type,
			     struct call_meta *meta, const struct helper_proto *fn)
{
	uint32_t regno = BPF_REG_1 + arg;
	struct reg_state *reg = &cur_regs(env)[regno];
	bool raw_done;
	int err = 0;

	switch (base_type(arg_type)) {
	case ARG_CONST_MAP_PTR:
		if (meta->map_ptr && (meta->map_ptr != reg->map_ptr ||
				      meta->map_uid != reg->map_uid)) {
			verbose(env, "timer pointer in R1 map_uid=%u doesn't match map pointer in R2 map_uid=%u\n",
				meta->map_uid, reg->map_uid);
			return -EINVAL;
		}
		meta->map_ptr = reg->map_ptr;
		meta->map_uid = reg->map_uid;
		meta->map_meta = reg->map_meta;
		return 0;
	case ARG_PTR_TO_MAP_KEY:
		if (!meta->map_ptr) {
			verbose(env, "invalid map_ptr to access map->key\n");
			return -EACCES;
		}
		err = check_helper_mem_access(env, regno, (int)meta->map_ptr->key_size,
					      ACCESS_READ, false, false, NULL);
		if (err || !map_lookup_may_be_non_null(meta->map_ptr) ||
		    !env_has(env, KVER_CONST_KEY_NONNULL))
			return err;
		err = stack_const_key(env, reg, meta->map_ptr->key_size, &meta->const_map_key);
		if (err < 0) {
			meta->const_map_key = -1;
			if (err != -EOPNOTSUPP)
				return err;
		}
		return 0;
	case ARG_PTR_TO_MAP_VALUE:
		if ((arg_type & PTR_MAYBE_NULL) && reg_is_null_scalar(reg))
			return 0;
		if (!meta->map_ptr) {
			verbose(env, "invalid map_ptr to access map->value\n");
			return -EACCES;
		}
		meta->raw_mode = arg_type & MEM_UNINIT;
		err = check_helper_mem_access(env, regno, (int)meta->map_ptr->value_size,
					      arg_access(arg_type), false, meta->raw_mode,
					      &raw_done);
		if (!err)
			note_raw(meta, regno, (int)meta->map_ptr->value_size, raw_done);
		return err;
	case ARG_PTR_TO_FUNC:
		meta->subprogno = reg->subprogno;
		return 0;
	case ARG_PTR_TO_MEM:
		meta->raw_mode = arg_type & MEM_UNINIT;
		if (!(arg_type & MEM_FIXED_SIZE))
			return 0;
		err = check_helper_mem_access(env, regno, (int)fn->arg_size[arg],
					      arg_access(arg_type), false, meta->raw_mode,
					      &raw_done);
		if (!err)
			note_raw(meta, regno, (int)fn->arg_size[arg], raw_done);
		if (!err && (arg_type & MEM_ALIGNED))
			err = check_ptr_alignment_strict(env, reg, (int)fn->arg_size[arg]);
		return err;
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
		return check_mem_size_reg(env, regno, arg_access(fn->arg_type[arg - 1]),
					  base_type(arg_type) == ARG_CONST_SIZE_OR_ZERO, meta);
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		if (!tnum_is_const(reg->b.var_off)) {
			verbose(env, "R%u is not a known constant'\n", regno);
			return -EACCES;
		}
		meta->mem_size = reg->b.var_off.value;
		return mark_chain_precision(env, (int)regno);
	case ARG_PTR_TO_SPIN_LOCK:
	case ARG_PTR_TO_TIMER:
	case ARG_PTR_TO_CONST_STR:
	case ARG_KPTR_XCHG_DEST:
	case ARG_PTR_TO_DYNPTR:
	case ARG_PTR_TO_PERCPU_BTF_ID:
		return check_special_arg(env, regno, arg_type, meta);
	default:
		return 0;
	}
}

/*
 * A dynptr on the stack passed to be released (bpf_ringbuf_submit_dynptr):
 * only one that a helper created, and so owns a reference, may be.
 * Before dynptrs carried ids (6.3) bpfvet creates none, so a slot that
 * holds none is refused as the kernel refuses it, and one that does is
 * beyond bpfvet.
 */
static int release_stack_dynptr(struct vet_env *env, const struct reg_state *reg,
				uint32_t regno)
{
	const struct func_state *f = env->cur->frame[reg->frameno];
	int spi;

	if (dynptr_modelled(env))
		return dynptr_check_owned(env, regno);
	spi = iter_slot_spi(env, f, reg, 2, true);
	if (spi == -EINVAL)	/* the kernel's offset messages are not modelled */
		return unsupported(env, "dynptr argument");
	if (spi >= 0 && stack_slot_at(f, spi)->slot_type[BPF_REG_SIZE - 1] == STACK_DYNPTR)
		return unsupported(env, "dynptr argument");
	verbose(env, "arg %u is an unacquired reference\n", regno);
	return -EINVAL;
}

static int check_func_arg(struct vet_env *env, uint32_t arg, struct call_meta *meta,
			  const struct helper_proto *fn)
{
	uint32_t regno = BPF_REG_1 + arg, arg_type = fn->arg_type[arg];
	struct reg_state *reg;
	int err;

	if (arg_type == ARG_DONTCARE)
		return 0;
	err = check_reg_arg(env, regno, SRC_OP);
	if (err)
		return err;
	reg = &cur_regs(env)[regno];
	if (arg_type == ARG_ANYTHING) {
		if (reg_is_pointer(env, reg)) {
			verbose(env, "R%u leaks addr into helper function\n", regno);
			return -EACCES;
		}
		return 0;
	}
	if (reg_type_is_pkt(reg->type) &&
	    !(may_access_direct_pkt_data(env, ACCESS_READ) && meta->pkt_access)) {
		verbose(env, "helper access to the packet is not allowed\n");
		return -EACCES;
	}
	if (base_type(arg_type) == ARG_PTR_TO_MAP_VALUE) {
		err = resolve_map_arg_type(env, meta->map_ptr, meta->func_id, &arg_type);
		if (err)
			return err;
	}
	if (reg_is_null_scalar(reg) && (arg_type & PTR_MAYBE_NULL)) {
		err = mark_chain_precision(env, (int)regno);
		if (err)
			return err;
	} else {
		err = check_reg_type(env, regno, arg_type, meta);
		if (!err)
			err = check_func_arg_reg_off(env, reg, regno, arg_type);
		if (err)
			return err;
	}
	if ((arg_type & OBJ_RELEASE) && base_type(arg_type) == ARG_PTR_TO_DYNPTR) {
		/* Only a dynptr on the stack can be owned; the one a callback
		 * receives (CONST_PTR_TO_DYNPTR) belongs to the helper. */
		if (reg->type != PTR_TO_STACK) {
			if (env_has(env, KVER_CONST_DYNPTR_ARGS))
				verbose(env, "cannot release unowned const bpf_dynptr\n");
			else
				verbose(env, "arg %u is an unacquired reference\n", regno);
			return -EINVAL;
		}
		err = release_stack_dynptr(env, reg, regno);
		if (err)
			return err;
		meta->release_regno = regno;
	} else if (arg_type & OBJ_RELEASE) {
		if (!reg->ref_obj_id && !reg_is_null_scalar(reg)) {
			verbose(env, "R%u must be referenced when passed to release function\n",
				regno);
			return -EINVAL;
		}
		meta->release_regno = regno;
	}
	if (reg->ref_obj_id && base_type(arg_type) != ARG_KPTR_XCHG_DEST)
		meta->ref_obj_id = reg->ref_obj_id;
	return check_arg_by_kind(env, arg, arg_type, meta, fn);
}

/* Invalidates every copy of a released reference. */
struct release_ctx {
	struct vet_env *env;
	uint32_t ref_obj_id;
};

static void invalidate_ref(struct reg_state *reg, void *arg)
{
	const struct release_ctx *c = arg;

	if (reg->ref_obj_id != c->ref_obj_id)
		return;
	if (c->env->allow_ptr_leaks)
		reg_mark_unknown(c->env, reg);
	else
		reg_mark_not_init(reg);
}

int release_reference(struct vet_env *env, uint32_t ref_obj_id)
{
	struct release_ctx c = { env, ref_obj_id };
	struct vstate *st = env->cur;

	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		if (st->refs[i].id == ref_obj_id && st->refs[i].kind == REF_TYPE_PTR) {
			ref_remove(st, i);
			for_each_reg(st, invalidate_ref, &c);
			return 0;
		}
	}
	return -EINVAL;
}

/* A per-CPU object bpf_kptr_xchg stashes inside an RCU section stays
 * readable, unowned, until the section ends. */
static void invalidate_stashed(struct reg_state *reg, void *arg)
{
	const struct release_ctx *c = arg;

	if (reg->ref_obj_id == c->ref_obj_id && in_rcu_cs(c->env) &&
	    (reg->type & MEM_ALLOC) && (reg->type & MEM_PERCPU)) {
		reg->ref_obj_id = 0;
		reg->type = (reg->type & ~MEM_ALLOC) | MEM_RCU;
		return;
	}
	invalidate_ref(reg, arg);
}

static int release_stashed(struct vet_env *env, uint32_t ref_obj_id)
{
	struct release_ctx c = { env, ref_obj_id };
	struct vstate *st = env->cur;

	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		if (st->refs[i].id == ref_obj_id && st->refs[i].kind == REF_TYPE_PTR) {
			ref_remove(st, i);
			for_each_reg(st, invalidate_stashed, &c);
			return 0;
		}
	}
	return -EINVAL;
}

static void invalidate_pkt(struct reg_state *reg, void *arg)
{
	struct vet_env *env = arg;

	if (!reg_type_is_pkt(reg->type) && reg->type != PTR_TO_PACKET_END &&
	    !(base_type(reg->type) == PTR_TO_MEM &&
	      (reg->type & (DYNPTR_TYPE_SKB | DYNPTR_TYPE_XDP | DYNPTR_TYPE_SKB_META))))
		return;
	if (env->allow_ptr_leaks)
		reg_mark_unknown(env, reg);
	else
		reg_mark_not_init(reg);
}

void clear_all_pkt_pointers(struct vet_env *env)
{
	for_each_reg(env->cur, invalidate_pkt, env);
}

static int set_return_reg(struct vet_env *env, const struct helper_proto *fn,
			  const struct call_meta *meta)
{
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];
	uint32_t flag = fn->ret_type & ~BASE_TYPE_MASK;

	switch (base_type(fn->ret_type)) {
	case RET_INTEGER:
		reg_mark_unknown(env, r0);
		return 0;
	case RET_VOID:
		r0->type = NOT_INIT;
		return 0;
	case RET_PTR_TO_MAP_VALUE:
		if (!meta->map_ptr) {
			verbose(env, "kernel subsystem misconfigured verifier\n");
			return -EINVAL;
		}
		/* An array element at a known index always exists. */
		if (meta->func_id == HELPER_MAP_LOOKUP_ELEM &&
		    map_lookup_may_be_non_null(meta->map_ptr) && meta->const_map_key >= 0 &&
		    meta->const_map_key < (int64_t)meta->map_ptr->max_entries)
			flag &= ~PTR_MAYBE_NULL;
		reg_mark_ptr(r0, PTR_TO_MAP_VALUE | flag);
		r0->map_ptr = meta->map_ptr;
		r0->map_uid = meta->map_uid;
		r0->map_meta = meta->map_meta;
		if (!(flag & PTR_MAYBE_NULL) && map_has_spin_lock(env, meta->map_ptr))
			r0->id = ++env->id_gen;
		return 0;
	case RET_PTR_TO_SOCKET:
		reg_mark_ptr(r0, PTR_TO_SOCKET | flag);
		return 0;
	case RET_PTR_TO_SOCK_COMMON:
		reg_mark_ptr(r0, PTR_TO_SOCK_COMMON | flag);
		return 0;
	case RET_PTR_TO_TCP_SOCK:
		reg_mark_ptr(r0, PTR_TO_TCP_SOCK | flag);
		return 0;
	case RET_PTR_TO_MEM:
		reg_mark_ptr(r0, PTR_TO_MEM | flag);
		r0->mem_size = (uint32_t)meta->mem_size;
		return 0;
	case RET_PTR_TO_MEM_OR_BTF_ID:
		return set_percpu_return_reg(env, fn, meta, r0);
	default:
		if (fn->id == HELPER_KPTR_XCHG)
			return kptr_xchg_return(env, meta->kptr_field, r0);
		return set_btf_return_reg(env, fn, r0);
	}
}

static void refine_retval(struct vet_env *env, const struct helper_proto *fn,
			  const struct call_meta *meta)
{
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];

	if (base_type(fn->ret_type) != RET_INTEGER)
		return;
	if (fn->ret_may_be_negative_size) {
		r0->b.smax = (int64_t)meta->msize_max_value;
		r0->b.s32_max = (int32_t)meta->msize_max_value;
		r0->b.smin = -4095;
		r0->b.s32_min = -4095;
		bounds_sync(&r0->b);
	} else if (fn->ret_cpu_id) {
		r0->b.umax = env->nr_cpu_ids - 1;
		r0->b.u32_max = env->nr_cpu_ids - 1;
		bounds_sync(&r0->b);
	}
}

/* A zero flags argument lets the kernel inline bpf_loop; it makes R4 precise
 * while deciding so, which the state comparisons then see. */
static int loop_flags_zero(struct vet_env *env, bool *zero)
{
	*zero = reg_is_null_scalar(&cur_regs(env)[BPF_REG_4]);
	return *zero ? mark_chain_precision(env, BPF_REG_4) : 0;
}

static int update_loop_inline_state(struct vet_env *env, uint32_t subprogno)
{
	struct insn_aux *aux = &env->aux[env->insn_idx];
	bool zero;
	int err;

	if (!aux->loop_inline_seen) {
		aux->loop_inline_seen = true;
		aux->loop_inline_cb = subprogno;
		err = loop_flags_zero(env, &zero);
		aux->loop_inline_fit = zero;
		return err;
	}
	if (!aux->loop_inline_fit)
		return 0;
	err = loop_flags_zero(env, &zero);
	aux->loop_inline_fit = zero && aux->loop_inline_cb == subprogno;
	return err;
}

static int check_helper_specials(struct vet_env *env, const struct bpfvet_insn *insn,
				 uint32_t *insn_idx, const struct call_meta *meta)
{
	struct reg_state *regs = cur_regs(env);
	int err;

	switch (meta->func_id) {
	case HELPER_TAIL_CALL:
		return check_resource_leak(env, true, "tail_call");
	case HELPER_GET_LOCAL_STORAGE:
		if (!reg_is_null_scalar(&regs[BPF_REG_2])) {
			verbose(env, "get_local_storage() doesn't support non-zero flags\n");
			return -EINVAL;
		}
		return mark_chain_precision(env, BPF_REG_2);
	case HELPER_LOOP:
		err = update_loop_inline_state(env, (uint32_t)meta->subprogno);
		if (!err && !env_has(env, KVER_CALLBACK_ITERATION))
			return push_callback_call(env, insn, *insn_idx, meta->subprogno,
						  CB_LOOP);
		if (!err)
			err = mark_chain_precision(env, BPF_REG_1);
		if (err)
			return err;
		if (cur_frame(env)->callback_depth < regs[BPF_REG_1].b.umax)
			return push_callback_call(env, insn, *insn_idx, meta->subprogno,
						  CB_LOOP);
		cur_frame(env)->callback_depth = 0;
		if (env->log.level & LOG_LEVEL2)
			verbose(env, "frame%u bpf_loop iteration limit reached\n",
				env->cur->curframe);
		return 0;
	case HELPER_FOR_EACH_MAP_ELEM:
		return push_callback_call(env, insn, *insn_idx, meta->subprogno,
					  CB_MAP_ELEM);
	case HELPER_TIMER_SET_CALLBACK:
		return push_callback_call(env, insn, *insn_idx, meta->subprogno, CB_TIMER);
	case HELPER_FIND_VMA:
		return push_callback_call(env, insn, *insn_idx, meta->subprogno,
					  CB_FIND_VMA);
	case HELPER_USER_RINGBUF_DRAIN:
		return push_callback_call(env, insn, *insn_idx, meta->subprogno,
					  CB_USER_RINGBUF);
	case FN_snprintf:
		return check_snprintf_call(env);
	case FN_dynptr_from_mem:
		if (regs[BPF_REG_1].type != PTR_TO_MAP_VALUE) {
			char tb[64];

			verbose(env, "Unsupported reg type %s for bpf_dynptr_from_mem data\n",
				reg_type_name(env, tb, sizeof(tb), regs[BPF_REG_1].type));
			return -EACCES;
		}
		return 0;
	default:
		return check_helper_special_rules(env, meta->func_id);
	}
}

static int check_availability(struct vet_env *env, int32_t func_id,
			      const struct helper_proto **fnp)
{
	const struct helper_proto *fn;

	if (func_id < 0 || func_id >= HELPER_ID_MAX) {
		verbose(env, "invalid func %s#%d\n", helper_name_or_unknown((uint32_t)func_id),
			func_id);
		return -EINVAL;
	}
	/* Each struct_ops type offers its own helpers; bpfvet knows those
	 * of tcp_congestion_ops and bpf_dummy_ops. */
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS && !struct_ops_helpers_known(env))
		return unsupported(env, "helpers of this struct_ops type");
	fn = helper_proto_for(env, (uint32_t)func_id);
	if (!fn) {
		verbose(env, "%s %s#%d\n", env_has(env, KVER_MSG_HELPER_NOT_OFFERED) ?
			"program of this type cannot use helper" : "unknown func",
			helper_name_or_unknown((uint32_t)func_id), func_id);
		return -EINVAL;
	}
	if (!env->gpl && fn->gpl_only) {
		verbose(env, "cannot call GPL-restricted function from non-GPL compatible program\n");
		return -EINVAL;
	}
	if (fn->has_allowed_hook) {
		int err = check_helper_allowed(env, fn);

		if (err)
			return err;
	}
	if (!(env->prog_flags & BPF_F_SLEEPABLE) && fn->might_sleep) {
		verbose(env, "helper call might sleep in a non-sleepable prog\n");
		return -EINVAL;
	}
	if (env->cur->active_rcu_lock && fn->might_sleep) {
		verbose(env, "sleepable helper %s#%d in rcu_read_lock region\n",
			helper_name_or_unknown((uint32_t)func_id), func_id);
		return -EINVAL;
	}
	if (env->cur->active_preempt_locks && fn->might_sleep) {
		verbose(env, "sleepable helper %s#%d in non-preemptible region\n",
			helper_name_or_unknown((uint32_t)func_id), func_id);
		return -EINVAL;
	}
	if (env->cur->active_irq_id && fn->might_sleep) {
		verbose(env, "sleepable helper %s#%d in IRQ-disabled region\n",
			helper_name_or_unknown((uint32_t)func_id), func_id);
		return -EINVAL;
	}
	*fnp = fn;
	return 0;
}

static int release_arg(struct vet_env *env, const struct helper_proto *fn,
		       const struct call_meta *meta)
{
	struct reg_state *reg = &cur_regs(env)[meta->release_regno];
	int err = -EINVAL;

	if (base_type(fn->arg_type[meta->release_regno - BPF_REG_1]) == ARG_PTR_TO_DYNPTR)
		err = dynptr_release(env, meta->release_regno);
	else if (meta->func_id == HELPER_KPTR_XCHG && meta->ref_obj_id)
		err = release_stashed(env, meta->ref_obj_id);
	else if (meta->ref_obj_id)
		err = release_reference(env, meta->ref_obj_id);
	else if (reg_is_null_scalar(reg))
		err = 0;
	if (err)
		verbose(env, "func %s#%d reference has not been acquired before\n",
			helper_name_or_unknown((uint32_t)meta->func_id), meta->func_id);
	return err;
}

int check_helper_call(struct vet_env *env, const struct bpfvet_insn *insn,
		      uint32_t *insn_idx)
{
	const struct helper_proto *fn;
	struct call_meta meta;
	struct reg_state *regs;
	int err;

	err = check_availability(env, insn->imm, &fn);
	if (err)
		return err;
	memset(&meta, 0, sizeof(meta));
	meta.func_id = insn->imm;
	meta.pkt_access = fn->pkt_access;
	meta.raw_regno = -1;
	meta.const_map_key = -1;
	for (uint32_t i = 0; i < 5; i++) {
		err = check_func_arg(env, i, &meta, fn);
		if (err)
			return err;
	}
	err = record_func_map(env, meta.map_ptr, meta.func_id);
	if (!err)
		err = record_func_key(env, meta.map_ptr, meta.func_id);
	if (err)
		return err;
	/* Output buffers on the stack are now initialised. */
	for (int i = 0; meta.raw_regno >= 0 && i < meta.raw_size; i++) {
		err = check_mem_access(env, *insn_idx, (uint32_t)meta.raw_regno, i, 1,
				       ACCESS_WRITE, -1, false, false);
		if (err)
			return err;
	}
	if (meta.release_regno) {
		err = release_arg(env, fn, &meta);
		if (err)
			return err;
	}
	err = check_helper_specials(env, insn, insn_idx, &meta);
	if (err)
		return err;
	clobber_caller_saved(env);
	regs = cur_regs(env);
	err = set_return_reg(env, fn, &meta);
	if (err)
		return err;
	if (type_may_be_null(regs[BPF_REG_0].type))
		regs[BPF_REG_0].id = ++env->id_gen;
	if (meta.func_id == FN_dynptr_data) {
		/* The slice lives as long as the dynptr and its reservation. */
		regs[BPF_REG_0].dynptr_id = meta.dynptr.id;
		regs[BPF_REG_0].ref_obj_id = meta.dynptr.ref_obj_id;
	} else if (helper_is_ptr_cast(meta.func_id)) {
		regs[BPF_REG_0].ref_obj_id = meta.ref_obj_id;
	} else if (helper_acquires(fn, meta.map_ptr)) {
		uint32_t id = ++env->id_gen;

		err = ref_acquire(env, REF_TYPE_PTR, id, NULL);
		if (err)
			return err;
		regs[BPF_REG_0].id = id;
		regs[BPF_REG_0].ref_obj_id = id;
	}
	refine_retval(env, fn, &meta);
	/* The kernel checks the map against the helper only now, after R0. */
	err = check_map_func_compatibility(env, meta.map_ptr, meta.func_id);
	if (err)
		return err;
	/* Writing through an skb dynptr, or one of its metadata, may
	 * reallocate the packet. */
	if ((helper_changes_pkt_data(meta.func_id) ||
	     (meta.func_id == FN_dynptr_write &&
	      ((uint32_t)meta.dynptr.kind == DYNPTR_TYPE_SKB ||
	       (uint32_t)meta.dynptr.kind == DYNPTR_TYPE_SKB_META))) &&
	    (meta.func_id != HELPER_TAIL_CALL || env_has(env, KVER_CALLS_CHANGE_PKT)))
		clear_all_pkt_pointers(env);
	if (env->inline_cb.pending)
		return enter_inline_callback(env, insn_idx);
	return 0;
}
