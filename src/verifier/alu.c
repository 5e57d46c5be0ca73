/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ALU and ALU64 instructions: operand rules, register moves (with scalar
 * linking), scalar arithmetic through the number domain, and pointer
 * arithmetic with the kernel's restrictions and messages.
 */
#include <errno.h>
#include <stdio.h>

#include "verifier.h"

static const char *const alu_str[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
	"neg", "%=", "^=", "=", "s>>=", "endian", "?", "?",
};

static const char *alu_op_str(uint8_t op)
{
	return alu_str[op >> 4];
}

/* Number of significant bits of the largest value the scalar may hold. */
static int reg_width(const struct reg_state *reg)
{
	uint64_t v = reg->b.umax;
	int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

/* Before `dst = src`, give src an id so that both become linked. */
void assign_id_before_mov(struct vet_env *env, struct reg_state *src)
{
	/* src = base + const: a copy cannot join that link, it starts its own. */
	if (src->type == SCALAR_VALUE && (src->id & BPF_ADD_CONST)) {
		src->id = 0;
		src->off = 0;
	}
	if (src->type == SCALAR_VALUE && !src->id &&
	    !tnum_is_const(src->b.var_off))
		src->id = ++env->id_gen;
}

static void copy_reg(struct reg_state *dst, const struct reg_state *src)
{
	*dst = *src;
}

static int check_unary_reserved(struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);

	if (op == BPF_NEG) {
		if (BPF_SRC(insn->code) != BPF_K || insn->src_reg || insn->off ||
		    insn->imm) {
			verbose(env, "BPF_NEG uses reserved fields\n");
			return -EINVAL;
		}
		return 0;
	}
	if (insn->src_reg || insn->off ||
	    (insn->imm != 16 && insn->imm != 32 && insn->imm != 64) ||
	    (BPF_CLASS(insn->code) == BPF_ALU64 && BPF_SRC(insn->code) != BPF_TO_LE)) {
		verbose(env, "BPF_END uses reserved fields\n");
		return -EINVAL;
	}
	return 0;
}

/* Whether the kernel computes the result of NEG or END on a scalar; before
 * 6.13 it made both an unknown scalar (and dropped the id with it). */
static bool unary_is_tracked(struct vet_env *env, const struct bpfvet_insn *insn)
{
	if (BPF_OP(insn->code) == BPF_NEG)
		return env_has(env, KVER_NEG_TRACKING);
	return env_has(env, KVER_END_TRACKING);
}

/* A result that no longer equals its source's value leaves the source's
 * links: no id, and no "+const" offset either, which a later link would
 * add to its bounds (the kernel clears both, and accepts programs that a
 * stale offset would make bpfvet reject). */
static void unlink_scalar(struct reg_state *r)
{
	r->id = 0;
	r->off = 0;
}

/* BPF_END on a scalar. A swap that changes no value (le64) leaves the
 * register linked to its copies, id and constant offset alike, so that a
 * branch on either narrows both; every other swap breaks the link. */
static void swap_scalar(struct reg_state *dst, const struct bpfvet_insn *insn)
{
	bool to_be = BPF_SRC(insn->code) == BPF_TO_BE;
	bool bswap = BPF_CLASS(insn->code) == BPF_ALU64;

	scalar_end(&dst->b, insn->imm, to_be, bswap);
	if (!scalar_end_is_identity(insn->imm, to_be, bswap))
		unlink_scalar(dst);
}

static int check_unary(struct vet_env *env, const struct bpfvet_insn *insn)
{
	bool alu64 = BPF_CLASS(insn->code) == BPF_ALU64;
	struct reg_state *dst;
	int err;

	err = check_unary_reserved(env, insn);
	if (err)
		return err;
	err = check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	dst = &cur_regs(env)[insn->dst_reg];
	if (reg_is_pointer(env, dst)) {
		verbose(env, "R%u pointer arithmetic prohibited\n", insn->dst_reg);
		return -EACCES;
	}
	if (dst->type != SCALAR_VALUE || !unary_is_tracked(env, insn)) {
		/* A privileged pointer, or a result the target does not
		 * compute: just a number. */
		scratch_reg(env, insn->dst_reg);
		return check_reg_arg(env, insn->dst_reg, DST_OP);
	}
	err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
	if (err)
		return err;
	if (BPF_OP(insn->code) == BPF_NEG) {
		scalar_neg(&dst->b, !alu64);
		unlink_scalar(dst);
	} else {
		swap_scalar(dst, insn);
	}
	return 0;
}

static int check_mov_reserved(struct vet_env *env, const struct bpfvet_insn *insn)
{
	/* Sign-extending moves came with ISA v4, arena casts with 6.9. */
	if (insn->off && !env_has(env, KVER_ISA_V4))
		goto bad;
	if (insn->off == 1 && !env_has(env, KVER_ARENA))
		goto bad;
	if (BPF_SRC(insn->code) == BPF_K) {
		if (insn->src_reg || insn->off)
			goto bad;
		return 0;
	}
	if (BPF_CLASS(insn->code) == BPF_ALU) {
		if ((insn->off && insn->off != 8 && insn->off != 16) || insn->imm)
			goto bad;
		return 0;
	}
	if (insn->off == 1)
		return arena_check_cast(env, insn);
	if ((insn->off && insn->off != 8 && insn->off != 16 && insn->off != 32) ||
	    insn->imm)
		goto bad;
	return 0;
bad:
	verbose(env, "BPF_MOV uses reserved fields\n");
	return -EINVAL;
}

/* dst = (sN)src at 64 bits, or dst = src. */
static int mov64_reg(struct vet_env *env, const struct bpfvet_insn *insn,
		     struct reg_state *dst, struct reg_state *src)
{
	bool no_sext;

	if (insn->imm) {	/* addr_space_cast */
		arena_cast(env, insn, dst);
		return 0;
	}
	if (!insn->off) {
		assign_id_before_mov(env, src);
		copy_reg(dst, src);
		return 0;
	}
	if (reg_is_pointer(env, src)) {
		verbose(env, "R%u sign-extension part of pointer\n", insn->src_reg);
		return -EACCES;
	}
	if (src->type != SCALAR_VALUE) {
		reg_mark_unknown(env, dst);
		return 0;
	}
	no_sext = src->b.umax < (1ull << (insn->off - 1));
	if (no_sext)
		assign_id_before_mov(env, src);
	copy_reg(dst, src);
	if (!no_sext)
		unlink_scalar(dst);
	bounds_sext(&dst->b, insn->off >> 3);
	return 0;
}

/* w dst = (sN)w src, or w dst = w src; the result is zero-extended. */
static int mov32_reg(struct vet_env *env, const struct bpfvet_insn *insn,
		     struct reg_state *dst, struct reg_state *src)
{
	struct bounds_memo *memo;

	if (reg_is_pointer(env, src)) {
		verbose(env, "R%u partial copy of pointer\n", insn->src_reg);
		return -EACCES;
	}
	if (src->type != SCALAR_VALUE) {
		reg_mark_unknown(env, dst);
	} else if (!insn->off) {
		/* Before 6.8 a 32-bit copy was never linked to its source. */
		bool fits = reg_width(src) <= 32 && env_has(env, KVER_MOV32_IDS);

		if (fits)
			assign_id_before_mov(env, src);
		copy_reg(dst, src);
		if (!fits)
			unlink_scalar(dst);
	} else {
		bool no_sext = src->b.umax < (1ull << (insn->off - 1));

		if (no_sext)
			assign_id_before_mov(env, src);
		copy_reg(dst, src);
		if (!no_sext)
			unlink_scalar(dst);
		bounds_sext32(&dst->b, insn->off >> 3);
	}
	memo = env_bounds_memo(env);
	bounds_zext32_memo(&dst->b, memo);
	bounds_sync_memo(&dst->b, memo);
	return 0;
}

static int check_mov(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct reg_state *regs = cur_regs(env);
	struct reg_state *dst;
	int err;

	err = check_mov_reserved(env, insn);
	if (err)
		return err;
	err = check_src_dst_args(env, insn, BPF_SRC(insn->code) == BPF_X,
				 DST_OP_NO_MARK);
	if (err)
		return err;
	dst = &regs[insn->dst_reg];
	if (BPF_SRC(insn->code) == BPF_X) {
		if (BPF_CLASS(insn->code) == BPF_ALU64)
			return mov64_reg(env, insn, dst, &regs[insn->src_reg]);
		return mov32_reg(env, insn, dst, &regs[insn->src_reg]);
	}
	reg_mark_unknown(env, dst);
	if (BPF_CLASS(insn->code) == BPF_ALU64)
		reg_mark_known(dst, (uint64_t)(int64_t)insn->imm);
	else
		reg_mark_known(dst, (uint32_t)insn->imm);
	return 0;
}

static bool src_is_const(const struct reg_state *src, bool alu32)
{
	const struct bounds *b = &src->b;

	if (alu32)
		return tnum_subreg_is_const(b->var_off) &&
		       b->s32_min == b->s32_max && b->u32_min == b->u32_max;
	return tnum_is_const(b->var_off) && b->smin == b->smax &&
	       b->umin == b->umax;
}

/* Operations whose result the kernel computes; others give unknown. */
static bool result_computable(uint8_t op, bool alu32, const struct reg_state *src)
{
	switch (op) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_AND:
	case BPF_XOR:
	case BPF_OR:
	case BPF_MUL:
		return true;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		return src_is_const(src, alu32) && src->b.umax < (alu32 ? 32u : 64u);
	default:
		/* DIV and MOD results are not tracked (checked on 6.18). */
		return false;
	}
}

/*
 * AND/OR with a constant on a value that is exactly -1 or 0 splits the
 * path: the kernel re-runs the instruction with 0 on a queued path and
 * continues with -1, so that each result is a constant.
 */
static int maybe_fork_scalars(struct vet_env *env, const struct bpfvet_insn *insn,
			      struct reg_state *dst, const struct reg_state *src)
{
	bool wide = dst->b.smin == -1 && dst->b.smax == 0;
	struct bounds zero;
	struct vstate *branch;
	struct reg_state *r;

	if (!scalar_alu_fork(&dst->b, &src->b, BPF_OP(insn->code), &zero))
		return 0;
	if (wide) {
		dst->id = 0;
		dst->off = 0;
	}
	branch = push_stack(env, env->insn_idx, env->insn_idx, false);
	if (!branch)
		return env->err ? env->err : -ENOMEM;
	r = &branch->frame[branch->curframe]->regs[insn->dst_reg];
	r->b = zero;
	return 0;
}

/* An injected fault (fault.h): the result keeps the first operand's
 * bounds. */
static bool fault_keeps_bounds(const struct vet_env *env, uint8_t op)
{
	switch (env->fault) {
	case FAULT_BOUNDS_ADD: return op == BPF_ADD;
	case FAULT_BOUNDS_SUB: return op == BPF_SUB;
	case FAULT_BOUNDS_MUL: return op == BPF_MUL;
	case FAULT_BOUNDS_AND: return op == BPF_AND;
	default: return false;
	}
}

static int adjust_scalar(struct vet_env *env, const struct bpfvet_insn *insn,
			 struct reg_state *dst, const struct reg_state *src)
{
	bool alu32 = BPF_CLASS(insn->code) != BPF_ALU64;
	uint8_t op = BPF_OP(insn->code);
	int err;

	if ((op == BPF_AND || op == BPF_OR) && tnum_is_const(src->b.var_off)) {
		err = maybe_fork_scalars(env, insn, dst, src);
		if (err)
			return err;
	}
	if (!result_computable(op, alu32, src)) {
		reg_mark_unknown(env, dst);
		return 0;
	}
	err = sanitize_val_alu(env, insn);
	if (err)
		return err;
	if (!fault_keeps_bounds(env, op))
		scalar_alu(&dst->b, &src->b, op, alu32, insn->off, env_bounds_memo(env));
	return 0;
}

static bool sane_offset(struct vet_env *env, const struct reg_state *reg,
			uint32_t ptr_type)
{
	int64_t val = (int64_t)reg->b.var_off.value;
	char tb[64];

	if (tnum_is_const(reg->b.var_off) &&
	    (val >= BPF_MAX_VAR_OFF || val <= -BPF_MAX_VAR_OFF)) {
		verbose(env, "math between %s pointer and %lld is not allowed\n",
			reg_type_str(tb, sizeof(tb), ptr_type), (long long)val);
		return false;
	}
	if (reg->off >= BPF_MAX_VAR_OFF || reg->off <= -BPF_MAX_VAR_OFF) {
		verbose(env, "%s pointer offset %d is not allowed\n",
			reg_type_str(tb, sizeof(tb), ptr_type), reg->off);
		return false;
	}
	if (reg->b.smin == INT64_MIN) {
		verbose(env, "math between %s pointer and register with unbounded min value is not allowed\n",
			reg_type_str(tb, sizeof(tb), ptr_type));
		return false;
	}
	if (reg->b.smin >= BPF_MAX_VAR_OFF || reg->b.smin <= -BPF_MAX_VAR_OFF) {
		verbose(env, "value %lld makes %s pointer be out of bounds\n",
			(long long)reg->b.smin, reg_type_str(tb, sizeof(tb), ptr_type));
		return false;
	}
	return true;
}

static bool ptr_type_allows_math(uint32_t type, bool known, int64_t val,
				 uint8_t op)
{
	switch (base_type(type)) {
	case PTR_TO_CTX:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
	case PTR_TO_STACK:
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET:
	case PTR_TO_TP_BUFFER:
	case PTR_TO_BTF_ID:
	case PTR_TO_MEM:
	case PTR_TO_BUF:
	case PTR_TO_FUNC:
	case CONST_PTR_TO_DYNPTR:
		return true;
	case PTR_TO_FLOW_KEYS:
		if (known)
			return true;
		/* fallthrough */
	case CONST_PTR_TO_MAP:
		return known && val == 0 && op == BPF_ADD;
	default:
		return false;
	}
}

static bool add_overflows(int64_t a, int64_t b, int64_t *r)
{
	return __builtin_add_overflow(a, b, r);
}

static void ptr_add_var(struct reg_state *dst, const struct reg_state *ptr,
			const struct reg_state *off)
{
	struct bounds *d = &dst->b;
	const struct bounds *p = &ptr->b, *o = &off->b;

	if (add_overflows(p->smin, o->smin, &d->smin) ||
	    add_overflows(p->smax, o->smax, &d->smax)) {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	}
	if (__builtin_add_overflow(p->umin, o->umin, &d->umin) ||
	    __builtin_add_overflow(p->umax, o->umax, &d->umax)) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	}
	d->var_off = tnum_add(p->var_off, o->var_off);
}

static void ptr_sub_var(struct reg_state *dst, const struct reg_state *ptr,
			const struct reg_state *off)
{
	struct bounds *d = &dst->b;
	const struct bounds *p = &ptr->b, *o = &off->b;

	if (__builtin_sub_overflow(p->smin, o->smax, &d->smin) ||
	    __builtin_sub_overflow(p->smax, o->smin, &d->smax)) {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	}
	if (p->umin < o->umax) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	} else {
		d->umin = p->umin - o->umax;
		d->umax = p->umax - o->umin;
	}
	d->var_off = tnum_sub(p->var_off, o->var_off);
}

/* Keeps the pointer's variable part, moving only the fixed offset. From
 * 6.18, a packet pointer known to be at or beyond the packet's end (a
 * negative range) is no longer known to be anywhere once moved: its range
 * becomes 0 (`r=0` after `r1 += 8` on r=0xfffffffffffffffe). */
static void ptr_move_fixed(const struct vet_env *env, struct reg_state *dst,
			   const struct reg_state *ptr, int32_t new_off)
{
	dst->b.smin = ptr->b.smin;
	dst->b.smax = ptr->b.smax;
	dst->b.umin = ptr->b.umin;
	dst->b.umax = ptr->b.umax;
	dst->b.var_off = ptr->b.var_off;
	dst->off = new_off;
	dst->raw[0] = ptr->raw[0];
	dst->raw[1] = ptr->raw[1];
	if (reg_type_is_pkt(base_type(ptr->type)) && dst->range < 0 &&
	    env_has(env, KVER_PKT_END_MOVE_RANGE))
		dst->range = 0;
}

static int adjust_ptr(struct vet_env *env, const struct bpfvet_insn *insn,
		      const struct reg_state *ptr, const struct reg_state *off)
{
	struct reg_state *dst = &cur_regs(env)[insn->dst_reg];
	bool known = tnum_is_const(off->b.var_off);
	int64_t smin_val = off->b.smin;
	uint8_t op = BPF_OP(insn->code);
	uint32_t ptr_type = ptr->type;
	struct sanitize_info info;
	char tb[64];
	int err;

	if ((known && (off->b.smin != off->b.smax || off->b.umin != off->b.umax)) ||
	    off->b.smin > off->b.smax || off->b.umin > off->b.umax) {
		/* Offset with impossible bounds: a dead branch. */
		reg_mark_unknown(env, dst);
		return 0;
	}
	if (BPF_CLASS(insn->code) != BPF_ALU64) {
		if (op == BPF_SUB && env->allow_ptr_leaks) {
			reg_mark_unknown(env, dst);
			return 0;
		}
		verbose(env, "R%u 32-bit pointer arithmetic prohibited\n", insn->dst_reg);
		return -EACCES;
	}
	if (ptr_type & PTR_MAYBE_NULL) {
		verbose(env, "R%u pointer arithmetic on %s prohibited, null-check it first\n",
			insn->dst_reg, reg_type_name(env, tb, sizeof(tb), ptr_type));
		return -EACCES;
	}
	/* Read-only untrusted memory (walked from a kernel struct) stays
	 * what it is whatever the operation, as Linux 6.18 keeps it. */
	if (base_type(ptr_type) == PTR_TO_MEM && (ptr_type & PTR_UNTRUSTED)) {
		if (dst != ptr)
			*dst = *ptr;
		return 0;
	}
	if (!ptr_type_allows_math(ptr_type, known, smin_val, op)) {
		verbose(env, "R%u pointer arithmetic on %s prohibited\n",
			insn->dst_reg, reg_type_name(env, tb, sizeof(tb), ptr_type));
		return -EACCES;
	}
	dst->type = ptr_type;
	dst->id = ptr->id;
	if (!sane_offset(env, off, ptr_type) || !sane_offset(env, ptr, ptr_type))
		return -EINVAL;
	err = sanitize_ptr_alu(env, insn, ptr, off, dst, &info);
	if (err)
		return err;
	/* Pointers carry no 32-bit bounds. */
	dst->b.s32_min = INT32_MIN;
	dst->b.s32_max = INT32_MAX;
	dst->b.u32_min = 0;
	dst->b.u32_max = UINT32_MAX;

	switch (op) {
	case BPF_ADD:
		if (known && (int64_t)ptr->off + smin_val ==
			     (int64_t)(int32_t)(ptr->off + smin_val)) {
			ptr_move_fixed(env, dst, ptr, (int32_t)(ptr->off + smin_val));
			break;
		}
		ptr_add_var(dst, ptr, off);
		dst->off = ptr->off;
		dst->raw[0] = ptr->raw[0];
		dst->raw[1] = ptr->raw[1];
		if (reg_type_is_pkt(ptr_type)) {
			dst->id = ++env->id_gen;
			dst->raw[0] = dst->raw[1] = 0;
		}
		break;
	case BPF_SUB:
		if (dst == off) {
			verbose(env, "R%u tried to subtract pointer from scalar\n",
				insn->dst_reg);
			return -EACCES;
		}
		if (ptr_type == PTR_TO_STACK) {
			verbose(env, "R%u subtraction from stack pointer prohibited\n",
				insn->dst_reg);
			return -EACCES;
		}
		if (known && (int64_t)ptr->off - smin_val ==
			     (int64_t)(int32_t)(ptr->off - smin_val)) {
			ptr_move_fixed(env, dst, ptr, (int32_t)(ptr->off - smin_val));
			dst->id = ptr->id;
			break;
		}
		ptr_sub_var(dst, ptr, off);
		dst->off = ptr->off;
		dst->raw[0] = ptr->raw[0];
		dst->raw[1] = ptr->raw[1];
		if (reg_type_is_pkt(ptr_type)) {
			dst->id = ++env->id_gen;
			if (smin_val < 0)
				dst->raw[0] = dst->raw[1] = 0;
		}
		break;
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		verbose(env, "R%u bitwise operator %s on pointer prohibited\n",
			insn->dst_reg, alu_op_str(op));
		return -EACCES;
	default:
		verbose(env, "R%u pointer arithmetic with %s operator prohibited\n",
			insn->dst_reg, alu_op_str(op));
		return -EACCES;
	}
	if (!sane_offset(env, dst, ptr_type))
		return -EINVAL;
	bounds_sync_memo(&dst->b, env_bounds_memo(env));
	return sanitize_ptr_commit(env, insn, dst, &info);
}

/*
 * After a scalar add or sub of a constant, keep or break the "+const" link
 * of dst's id: dst = base + off, with off a signed 32-bit delta. A 32-bit
 * op links only a base that fits in 32 bits (the result is zero-extended,
 * so dst = (u32)(base + off) tracks base only then); a link is never
 * stacked on another one.
 */
static void update_add_const_link(struct vet_env *env, const struct bpfvet_insn *insn,
				  struct reg_state *dst, const struct reg_state *src,
				  bool base_fits32)
{
	bool alu32 = BPF_CLASS(insn->code) != BPF_ALU64;
	uint8_t op = BPF_OP(insn->code);
	int64_t val;
	int32_t off;

	/* Before 6.11 any arithmetic cut a scalar's links. */
	if (!env->bpf_capable || !env_has(env, KVER_LINKED_ADD_CONST) ||
	    (op != BPF_ADD && op != BPF_SUB) || !dst->id ||
	    !src_is_const(src, alu32) ||
	    (BPF_SRC(insn->code) == BPF_X && insn->src_reg == insn->dst_reg))
		goto clear;
	val = alu32 ? (int64_t)(int32_t)(uint32_t)src->b.var_off.value
		    : (int64_t)src->b.var_off.value;
	if (val < INT32_MIN || val > INT32_MAX || (alu32 && !base_fits32))
		goto clear;
	off = (int32_t)val;
	if (op == BPF_SUB) {
		if (off == INT32_MIN)
			goto clear;
		off = -off;
	}
	if (dst->id & BPF_ADD_CONST)
		goto clear;
	dst->id |= alu32 ? BPF_ADD_CONST32 : BPF_ADD_CONST64;
	dst->off = off;
	return;
clear:
	dst->id = 0;
	dst->off = 0;
}

static int adjust_reg(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct reg_state *regs = cur_regs(env);
	struct reg_state *dst = &regs[insn->dst_reg];
	struct reg_state *src, imm;
	uint8_t op = BPF_OP(insn->code);
	bool fits32;
	int err;

	if (arena_alu(env, dst, BPF_SRC(insn->code) == BPF_X ? &regs[insn->src_reg] : NULL))
		return 0;
	if (BPF_SRC(insn->code) == BPF_X) {
		src = &regs[insn->src_reg];
		if (src->type != SCALAR_VALUE) {
			if (dst->type != SCALAR_VALUE) {
				if (op == BPF_SUB && env->allow_ptr_leaks) {
					reg_mark_unknown(env, dst);
					return 0;
				}
				verbose(env, "R%u pointer %s pointer prohibited\n",
					insn->dst_reg, alu_op_str(op));
				return -EACCES;
			}
			err = mark_chain_precision(env, insn->dst_reg);
			if (err)
				return err;
			return adjust_ptr(env, insn, src, dst);
		}
		if (dst->type != SCALAR_VALUE) {
			err = mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
			return adjust_ptr(env, insn, dst, src);
		}
		if (dst->precise) {
			err = mark_chain_precision(env, insn->src_reg);
			if (err)
				return err;
		}
	} else {
		reg_mark_known(&imm, (uint64_t)(int64_t)insn->imm);
		imm.precise = false;
		src = &imm;
		if (dst->type != SCALAR_VALUE)
			return adjust_ptr(env, insn, dst, src);
	}
	fits32 = dst->b.umax <= UINT32_MAX;
	err = adjust_scalar(env, insn, dst, src);
	if (err)
		return err;
	update_add_const_link(env, insn, dst, src, fits32);
	return 0;
}

static int check_binary_reserved(struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);
	bool bad_off = (insn->off != 0 && insn->off != 1) ||
		       (insn->off == 1 && op != BPF_MOD && op != BPF_DIV) ||
		       (insn->off == 1 && !env_has(env, KVER_ISA_V4));

	if (BPF_SRC(insn->code) == BPF_X ? (insn->imm || bad_off) :
					   (insn->src_reg || bad_off)) {
		verbose(env, "BPF_ALU uses reserved fields\n");
		return -EINVAL;
	}
	return 0;
}

static int check_binary(struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);
	int err;

	err = check_binary_reserved(env, insn);
	if (err)
		return err;
	err = check_src_dst_args(env, insn, BPF_SRC(insn->code) == BPF_X, SRC_OP);
	if (err)
		return err;
	if ((op == BPF_MOD || op == BPF_DIV) && BPF_SRC(insn->code) == BPF_K &&
	    insn->imm == 0) {
		verbose(env, "div by zero\n");
		return -EINVAL;
	}
	if ((op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH) &&
	    BPF_SRC(insn->code) == BPF_K) {
		int size = BPF_CLASS(insn->code) == BPF_ALU64 ? 64 : 32;

		if (insn->imm < 0 || insn->imm >= size) {
			verbose(env, "invalid shift %d\n", insn->imm);
			return -EINVAL;
		}
	}
	err = check_reg_arg(env, insn->dst_reg, DST_OP_NO_MARK);
	if (err)
		return err;
	return adjust_reg(env, insn);
}

int check_alu_op(struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);
	int err;

	if (op == BPF_END || op == BPF_NEG)
		err = check_unary(env, insn);
	else if (op == BPF_MOV)
		err = check_mov(env, insn);
	else if (op > BPF_END) {
		verbose(env, "invalid BPF_ALU opcode %x\n", op);
		return -EINVAL;
	} else
		err = check_binary(env, insn);
	if (err)
		return err;
	return reg_bounds_sanity_check(env, &cur_regs(env)[insn->dst_reg], "alu");
}
