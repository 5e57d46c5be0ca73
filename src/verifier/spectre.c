/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Unprivileged sanitation against Spectre v1 (the kernel's
 * sanitize_ptr_alu family). Without CAP_PERFMON, a pointer moved by a
 * register is later masked at run time to the window the verifier saw,
 * so the verifier insists that one window fits every path through the
 * instruction, that the result stays inside its object, and it walks
 * the paths a mispredicted branch or a truncated offset could take
 * (speculative states: they run but never prune a real one).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "verifier.h"

/* Why a pointer move cannot be masked; each has its own message. */
enum sanitize_reason {
	REASON_BOUNDS = -1,
	REASON_TYPE = -2,
	REASON_PATHS = -3,
	REASON_LIMIT = -4,
	REASON_STACK = -5,
};

/* Bits of insn_aux.alu_state: only their equality across paths matters. */
enum {
	ALU_SANITIZE_SRC = 1u << 0,
	ALU_SANITIZE_DST = 1u << 1,
	ALU_NEG_VALUE = 1u << 2,
	ALU_NON_POINTER = 1u << 3,
	ALU_IMMEDIATE = 1u << 4,
};

/* Immediate operands are rewritten, never masked. */
static bool skip_sanitation(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	return env->bypass_spec_v1 || BPF_SRC(insn->code) == BPF_K;
}

static bool sanitize_needed(uint8_t op)
{
	return op == BPF_ADD || op == BPF_SUB;
}

/* How far the pointer may move, in the direction the mask points. */
static int ptr_limit(const struct reg_state *ptr, uint32_t *limit, bool mask_to_left)
{
	uint32_t max, lim;

	switch (ptr->type) {
	case PTR_TO_STACK:
		/* The frame pointer itself is a valid start going left. */
		max = MAX_BPF_STACK + (mask_to_left ? 1 : 0);
		lim = -(uint32_t)(ptr->b.var_off.value + (uint64_t)(int64_t)ptr->off);
		break;
	case PTR_TO_MAP_VALUE:
		max = ptr->map_ptr->value_size;
		lim = (uint32_t)((mask_to_left ? (uint64_t)ptr->b.smin : ptr->b.umax) +
				 (uint64_t)(int64_t)ptr->off);
		break;
	default:
		return REASON_TYPE;
	}
	if (lim >= max)
		return REASON_LIMIT;
	*limit = lim;
	return 0;
}

/* One masking for the instruction, whichever path reaches it. */
static int record_alu_state(struct insn_aux *aux, uint32_t state, uint32_t limit)
{
	if (aux->alu_state && (aux->alu_state != state || aux->alu_limit != limit))
		return REASON_PATHS;
	aux->alu_state = state;
	aux->alu_limit = limit;
	return 0;
}

static int sanitize_err(struct vet_env *env, const struct bpfvet_insn *insn, int reason,
			bool off_is_dst)
{
	static const char tail[] = "pointer arithmetic with it prohibited for !root";
	const char *op = BPF_OP(insn->code) == BPF_ADD ? "add" : "sub";
	unsigned int d = insn->dst_reg, s = insn->src_reg;

	switch (reason) {
	case REASON_BOUNDS:
		verbose(env, "R%u has unknown scalar with mixed signed bounds, %s\n",
			off_is_dst ? d : s, tail);
		break;
	case REASON_TYPE:
		verbose(env, "R%u has pointer with unsupported alu operation, %s\n",
			off_is_dst ? s : d, tail);
		break;
	case REASON_PATHS:
		verbose(env, "R%u tried to %s from different maps, paths or scalars, %s\n",
			d, op, tail);
		break;
	case REASON_LIMIT:
		verbose(env, "R%u tried to %s beyond pointer bounds, %s\n", d, op, tail);
		break;
	case REASON_STACK:
		verbose(env, "R%u could not be pushed for speculative verification, %s\n",
			d, tail);
		break;
	default:
		verbose(env, "verifier internal error: unknown reason (%d)\n", reason);
		break;
	}
	return -EACCES;
}

/* The path where the masked offset is truncated to zero: dst keeps the
 * pointer unmoved and runs on from the next instruction. */
static int push_truncated(struct vet_env *env, const struct reg_state *ptr,
			  struct reg_state *dst)
{
	struct reg_state saved = *dst;
	bool blank32 = ptr == dst && env_has(env, KVER_SANITIZE_OFF_COPY);
	struct vstate *branch;

	*dst = *ptr;
	/* 6.18 has already blanked the moving pointer's 32-bit bounds
	 * (pointers carry none) when it pushes this path. */
	if (blank32) {
		dst->b.s32_min = INT32_MIN;
		dst->b.s32_max = INT32_MAX;
		dst->b.u32_min = 0;
		dst->b.u32_max = UINT32_MAX;
	}
	branch = push_stack(env, env->insn_idx + 1, env->insn_idx, true);
	*dst = saved;
	return branch ? 0 : REASON_STACK;
}

static int sanitize_begin(struct vet_env *env, const struct bpfvet_insn *insn,
			  const struct reg_state *ptr, const struct reg_state *off,
			  struct reg_state *dst, struct sanitize_info *info)
{
	bool off_is_imm = tnum_is_const(off->b.var_off);
	bool off_is_neg = off->b.smin < 0;
	uint8_t op = BPF_OP(insn->code);
	uint32_t state, limit;
	int err;

	if (!env->cur->speculative) {
		if (!off_is_imm && (off->b.smin < 0) != (off->b.smax < 0))
			return REASON_BOUNDS;
		info->mask_to_left = (op == BPF_ADD && off_is_neg) ||
				     (op == BPF_SUB && !off_is_neg);
		err = ptr_limit(ptr, &limit, info->mask_to_left);
		if (err)
			return err;
		state = (off_is_neg ? ALU_NEG_VALUE : 0) | (off_is_imm ? ALU_IMMEDIATE : 0) |
			(ptr == dst ? ALU_SANITIZE_SRC : ALU_SANITIZE_DST);
		/* Unknown offsets may mask differently on other paths:
		 * explore those instead of pruning them. */
		if (!off_is_imm)
			env->explore_alu_limits = true;
		info->alu_state = state;
		info->alu_limit = limit;
	}
	/* A known register offset becomes an immediate: nothing to truncate. */
	if (off_is_imm)
		return 0;
	return push_truncated(env, ptr, dst);
}

/*
 * Before the move. Up to 6.12 the kernel has already copied the pointer
 * into dst when the scalar sat there (scalar += ptr), so it looks at the
 * pointer as the offset too; later kernels look at the scalar, and never
 * take the offset for dst in their messages.
 */
int sanitize_ptr_alu(struct vet_env *env, const struct bpfvet_insn *insn,
		     const struct reg_state *ptr, const struct reg_state *off,
		     struct reg_state *dst, struct sanitize_info *info)
{
	bool aliased = off == dst && !env_has(env, KVER_SANITIZE_OFF_COPY);
	int err;

	*info = (struct sanitize_info){ 0 };
	info->off_is_dst = aliased;
	if (!sanitize_needed(BPF_OP(insn->code)) || skip_sanitation(env, insn))
		return 0;
	err = sanitize_begin(env, insn, ptr, aliased ? ptr : off, dst, info);
	return err < 0 ? sanitize_err(env, insn, err, aliased) : 0;
}

static int check_stack_ptr_arith(struct vet_env *env, uint32_t regno,
				 const struct reg_state *reg)
{
	int off = (int)(reg->off + (int64_t)reg->b.var_off.value);
	char tn[48];

	if (!tnum_is_const(reg->b.var_off)) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "R%u variable stack access prohibited for !root, var_off=%s off=%d\n",
			regno, tn, off);
		return -EACCES;
	}
	if (off >= 0 || off < -MAX_BPF_STACK) {
		verbose(env, "R%u stack pointer arithmetic goes out of range, prohibited for !root; off=%d\n",
			regno, off);
		return -EACCES;
	}
	return 0;
}

/* The result must stay inside its object for the mask to mean anything. */
static int sanitize_check_bounds(struct vet_env *env, const struct bpfvet_insn *insn,
				 const struct reg_state *dst)
{
	switch (dst->type) {
	case PTR_TO_STACK:
		return check_stack_ptr_arith(env, insn->dst_reg, dst);
	case PTR_TO_MAP_VALUE:
		if (check_map_value_access(env, insn->dst_reg, dst->off, 1, false, false)) {
			verbose(env, "R%u pointer arithmetic of map value goes out of range, prohibited for !root\n",
				insn->dst_reg);
			return -EACCES;
		}
		return 0;
	default:
		return 0;
	}
}

/* After the move: the window narrows to how far the pointer went. */
int sanitize_ptr_commit(struct vet_env *env, const struct bpfvet_insn *insn,
			struct reg_state *dst, const struct sanitize_info *info)
{
	uint32_t limit;
	int err;

	if (env->bypass_spec_v1)
		return 0;
	if (sanitize_check_bounds(env, insn, dst))
		return -EACCES;
	if (!sanitize_needed(BPF_OP(insn->code)) || skip_sanitation(env, insn) ||
	    env->cur->speculative)
		return 0;
	err = ptr_limit(dst, &limit, info->mask_to_left);
	if (!err)
		err = record_alu_state(&env->aux[env->insn_idx], info->alu_state,
				       (uint32_t)abs((int)(info->alu_limit - limit)));
	return err < 0 ? sanitize_err(env, insn, err, info->off_is_dst) : 0;
}

/* A scalar add or sub by register is masked too if another path moved a
 * pointer there. */
int sanitize_val_alu(struct vet_env *env, const struct bpfvet_insn *insn)
{
	int err;

	if (!sanitize_needed(BPF_OP(insn->code)) || skip_sanitation(env, insn))
		return 0;
	err = record_alu_state(&env->aux[env->insn_idx], ALU_NON_POINTER, 0);
	return err < 0 ? sanitize_err(env, insn, err, false) : 0;
}

/*
 * A branch decided one way is still mispredicted the other way: that
 * direction runs speculatively, with the compared registers unknown.
 */
int push_speculative_other(struct vet_env *env, const struct bpfvet_insn *insn,
			   uint32_t insn_idx, int pred)
{
	uint32_t next = pred == 1 ? insn_idx + 1 : insn_idx + (uint32_t)(int32_t)insn->off + 1;
	struct vstate *branch;
	struct reg_state *regs;

	if (env->bypass_spec_v1)
		return 0;
	branch = push_stack(env, next, insn_idx, true);
	if (!branch)
		return env->err ? env->err : -EFAULT;
	regs = branch->frame[branch->curframe]->regs;
	reg_mark_unknown(env, &regs[insn->dst_reg]);
	if (BPF_SRC(insn->code) == BPF_X)
		reg_mark_unknown(env, &regs[insn->src_reg]);
	return 0;
}

/* Errors a barrier can cure: a speculative path ends there instead. */
bool error_recoverable_with_nospec(int err)
{
	return err == -EPERM || err == -EACCES || err == -EINVAL;
}
