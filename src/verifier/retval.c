/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What R0 may hold when a program (or callback) exits: initialised, no
 * pointer leak, and within the return range of the program type.
 */
#include <errno.h>
#include <stdint.h>

#include "verifier.h"

struct retval_rule {
	bool check;
	struct retval_range range;
	bool is32;
};

static struct retval_rule rule(int32_t lo, int32_t hi)
{
	return (struct retval_rule){ .check = true, .range = { lo, hi } };
}

/* LSM hooks' ranges come from the hook's BTF prototype, which needs the
 * kernel's BTF; without it every value is allowed. */
static struct retval_rule lsm_retval_rule(const struct vet_env *env)
{
	struct retval_rule r = { .check = false };

	if (!env->attach.proto_id)
		return r;
	if (env->expected_attach_type == BPF_LSM_CGROUP)
		return btf_attach_returns_void(env) ? rule(1, 1) : rule(0, 1);
	/* Before 6.12 an LSM program returned any scalar. */
	if (!env_has(env, KVER_LSM_RETVAL_RANGE))
		return r;
	if (btf_lsm_retval_range(env, &r.range))
		r.check = r.is32 = true;
	return r;
}

static struct retval_rule prog_retval_rule(const struct vet_env *env)
{
	const struct retval_rule none = { .check = false };
	uint32_t at = env->expected_attach_type;

	switch (env->prog_type) {
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		switch (at) {
		case BPF_CGROUP_UDP4_RECVMSG:
		case BPF_CGROUP_UDP6_RECVMSG:
		case BPF_CGROUP_UNIX_RECVMSG:
		case BPF_CGROUP_INET4_GETPEERNAME:
		case BPF_CGROUP_INET6_GETPEERNAME:
		case BPF_CGROUP_UNIX_GETPEERNAME:
		case BPF_CGROUP_INET4_GETSOCKNAME:
		case BPF_CGROUP_INET6_GETSOCKNAME:
		case BPF_CGROUP_UNIX_GETSOCKNAME:
			return rule(1, 1);
		case BPF_CGROUP_INET4_BIND:
		case BPF_CGROUP_INET6_BIND:
			return rule(0, 3);
		default:
			return rule(0, 1);
		}
	case BPF_PROG_TYPE_CGROUP_SKB:
		return at == BPF_CGROUP_INET_EGRESS ? rule(0, 3) : rule(0, 1);
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_SOCK_OPS:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return rule(0, 1);
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return none;
	case BPF_PROG_TYPE_TRACING:
		switch (at) {
		case BPF_TRACE_FENTRY:
		case BPF_TRACE_FEXIT:
			return rule(0, 0);
		case BPF_TRACE_ITER:
			return rule(0, 1);
		default:
			return none;
		}
	case BPF_PROG_TYPE_KPROBE:
		if (at == BPF_TRACE_KPROBE_SESSION || at == BPF_TRACE_UPROBE_SESSION)
			return rule(0, 1);
		return none;
	case BPF_PROG_TYPE_SK_LOOKUP:
		return rule(0, 1);	/* SK_DROP .. SK_PASS */
	case BPF_PROG_TYPE_NETFILTER:
		return rule(0, 1);	/* NF_DROP .. NF_ACCEPT */
	case BPF_PROG_TYPE_LSM:
		return lsm_retval_rule(env);
	default:
		return none;
	}
}

/* Before KVER_MSG_RETVAL_BOUNDS: the value and the range as tnums, the
 * range as the smallest tnum that holds it. */
static void print_invalid_tnum(struct vet_env *env, const struct reg_state *reg,
			       struct retval_range range, const char *ctx,
			       const char *reg_name)
{
	char tn[48];

	verbose(env, "%s the register %s ", ctx, reg_name);
	if (tnum_is_unknown(reg->b.var_off)) {
		verbose(env, "has unknown scalar value");
	} else {
		tnum_print(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "has value %s", tn);
	}
	tnum_print(tn, sizeof(tn), tnum_range((uint64_t)(int64_t)range.minval,
					      (uint64_t)(int64_t)range.maxval));
	verbose(env, " should have been in %s\n", tn);
}

void print_invalid_scalar(struct vet_env *env, const struct reg_state *reg,
				 struct retval_range range, const char *ctx,
				 const char *reg_name)
{
	bool unknown = true;

	if (!env_has(env, KVER_MSG_RETVAL_BOUNDS)) {
		print_invalid_tnum(env, reg, range, ctx, reg_name);
		return;
	}
	verbose(env, "%s the register %s has", ctx, reg_name);
	if (reg->b.smin > INT64_MIN) {
		verbose(env, " smin=%lld", (long long)reg->b.smin);
		unknown = false;
	}
	if (reg->b.smax < INT64_MAX) {
		verbose(env, " smax=%lld", (long long)reg->b.smax);
		unknown = false;
	}
	if (unknown)
		verbose(env, " unknown scalar value");
	verbose(env, " should have been in [%d, %d]\n", range.minval, range.maxval);
}

bool retval_within(struct retval_range r, const struct reg_state *reg, bool is32)
{
	if (is32)
		return r.minval <= reg->b.s32_min && reg->b.s32_max <= r.maxval;
	return r.minval <= reg->b.smin && reg->b.smax <= r.maxval;
}

int enforce_retval(struct vet_env *env, int regno, struct retval_range range,
		   bool is32, const char *ctx, const char *reg_name)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	char tb[64];
	int err;

	if (reg->type != SCALAR_VALUE) {
		verbose(env, "%s the register R%d is not a known value (%s)\n", ctx, regno,
			reg_type_str(tb, sizeof(tb), reg->type));
		return -EINVAL;
	}
	err = mark_chain_precision(env, regno);
	if (err)
		return err;
	if (!retval_within(range, reg, is32)) {
		print_invalid_scalar(env, reg, range, ctx, reg_name);
		return -EINVAL;
	}
	return 0;
}

int check_return_code(struct vet_env *env, int regno, const char *reg_name)
{
	struct func_state *frame = env->cur->frame[0];
	bool is_subprog = frame->subprogno != 0;
	struct retval_rule r;
	struct reg_state *reg;
	char tb[64];
	int err;

	/* Programs on void LSM hooks return nothing: R0 is not read. */
	if ((!is_subprog || frame->in_exception_callback_fn) &&
	    env->prog_type == BPF_PROG_TYPE_LSM && env->expected_attach_type != BPF_LSM_CGROUP &&
	    btf_attach_returns_void(env))
		return 0;
	/* A struct_ops member that returns void: R0 is not read. */
	if ((!is_subprog || frame->in_exception_callback_fn) &&
	    env->prog_type == BPF_PROG_TYPE_STRUCT_OPS) {
		err = struct_ops_check_return(env, regno, frame->in_exception_callback_fn);
		if (err)
			return err < 0 ? err : 0;
	}
	err = check_reg_arg(env, (uint32_t)regno, SRC_OP);
	if (err)
		return err;
	reg = &cur_regs(env)[regno];
	if (reg_is_pointer(env, reg)) {
		verbose(env, "R%d leaks addr as return value\n", regno);
		return -EACCES;
	}
	if (frame->in_async_callback_fn)
		return enforce_retval(env, regno, frame->callback_ret_range, false,
				      env_has(env, KVER_MSG_RETVAL_BOUNDS) ?
				      "At async callback return" : "At async callback", reg_name);
	if (is_subprog && !frame->in_exception_callback_fn) {
		if (reg->type != SCALAR_VALUE) {
			verbose(env, "At subprogram exit the register R%d is not a scalar value (%s)\n",
				regno, reg_type_str(tb, sizeof(tb), reg->type));
			return -EINVAL;
		}
		return 0;
	}
	r = prog_retval_rule(env);
	if (!r.check)
		return 0;
	return enforce_retval(env, regno, r.range, r.is32, "At program exit", reg_name);
}
