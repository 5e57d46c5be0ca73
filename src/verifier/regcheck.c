/* SPDX-License-Identifier: BSD-2-Clause */
/* Operand access rules shared by every instruction: readable sources,
 * writable destinations, the read-only frame pointer. */
#include <errno.h>

#include "verifier.h"

int check_reg_arg(struct vet_env *env, uint32_t regno, enum reg_arg_type t)
{
	struct reg_state *reg;

	if (regno >= MAX_BPF_REG) {
		verbose(env, "R%u is invalid\n", regno);
		return -EINVAL;
	}
	scratch_reg(env, (int)regno);
	reg = &cur_regs(env)[regno];
	if (t == SRC_OP) {
		if (reg->type == NOT_INIT) {
			verbose(env, "R%u !read_ok\n", regno);
			return -EACCES;
		}
		return 0;
	}
	if (regno == BPF_REG_FP) {
		verbose(env, "frame pointer is read only\n");
		return -EACCES;
	}
	if (t == DST_OP)
		reg_mark_unknown(env, reg);
	cur_frame(env)->written_regs |= (uint16_t)(1u << regno);
	return 0;
}

/* The kernel's invariant check after every bounds update. */
int reg_bounds_sanity_check(struct vet_env *env, struct reg_state *reg,
			    const char *ctx)
{
	char msg[256];

	if (!bounds_check(&reg->b, msg, sizeof(msg)))
		return 0;
	verbose(env, "REG INVARIANTS VIOLATION (%s): %s\n", ctx, msg);
	if (env->test_reg_invariants)
		return -EFAULT;
	/* Keep the known bits, forget the ranges that contradict them. */
	{
		struct tnum keep = reg->b.var_off;

		bounds_unknown(&reg->b);
		reg->b.var_off = keep;
	}
	return 0;
}

int check_src_dst_args(struct vet_env *env, const struct bpfvet_insn *insn,
		       bool reads_src, enum reg_arg_type dst_t)
{
	int err;

	if (reads_src) {
		err = check_reg_arg(env, insn->src_reg, SRC_OP);
		if (err)
			return err;
	}
	return check_reg_arg(env, insn->dst_reg, dst_t);
}

/* After a helper, kfunc or LD_ABS call: R0-R5 hold nothing readable, and
 * were written since the last checkpoint (6.1's "_w" marks). */
void clobber_caller_saved(struct vet_env *env)
{
	struct reg_state *regs = cur_regs(env);

	for (int r = BPF_REG_0; r <= BPF_REG_5; r++) {
		reg_mark_not_init(&regs[r]);
		scratch_reg(env, r);
	}
	cur_frame(env)->written_regs |= 0x3f;
}
