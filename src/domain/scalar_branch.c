/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conditional jumps on scalars: deciding the outcome from the bounds
 * (is_scalar_branch_taken in Linux 6.18) and narrowing both operands on
 * each edge (regs_refine_cond_op followed by a sync of both). The
 * operands are handled through the caller's pointers, in the kernel's
 * order, so that comparing a register with itself (a == b) gives the same
 * result as in the kernel.
 */
#include "scalar.h"
#include "scalar_impl.h"
#include "base/uapi.h"

uint8_t jmp_op_negate(uint8_t op)
{
	switch (op) {
	case BPF_JEQ: return BPF_JNE;
	case BPF_JNE: return BPF_JEQ;
	case BPF_JSET: return JMP_OP_NOT_SET;
	case JMP_OP_NOT_SET: return BPF_JSET;
	case BPF_JGE: return BPF_JLT;
	case BPF_JGT: return BPF_JLE;
	case BPF_JLE: return BPF_JGT;
	case BPF_JLT: return BPF_JGE;
	case BPF_JSGE: return BPF_JSLT;
	case BPF_JSGT: return BPF_JSLE;
	case BPF_JSLE: return BPF_JSGT;
	case BPF_JSLT: return BPF_JSGE;
	default: return 0;
	}
}

uint8_t jmp_op_swap(uint8_t op)
{
	switch (op) {
	case BPF_JGE: return BPF_JLE;
	case BPF_JGT: return BPF_JLT;
	case BPF_JLE: return BPF_JGE;
	case BPF_JLT: return BPF_JGT;
	case BPF_JSGE: return BPF_JSLE;
	case BPF_JSGT: return BPF_JSLT;
	case BPF_JSLE: return BPF_JSGE;
	case BPF_JSLT: return BPF_JSGT;
	default: return op;	/* JEQ, JNE, JSET, NOT_SET are symmetric */
	}
}

/* One operand's view at the comparison's width. */
struct view {
	struct tnum t;
	uint64_t umin, umax;
	int64_t smin, smax;
};

static struct view view_of(const struct bounds *b, bool is32)
{
	struct view v;

	if (is32) {
		v.t = tnum_subreg(b->var_off);
		v.umin = b->u32_min;
		v.umax = b->u32_max;
		v.smin = b->s32_min;
		v.smax = b->s32_max;
	} else {
		v.t = b->var_off;
		v.umin = b->umin;
		v.umax = b->umax;
		v.smin = b->smin;
		v.smax = b->smax;
	}
	return v;
}

static bool is_const_at(const struct bounds *b, bool is32)
{
	return is32 ? tnum_subreg_is_const(b->var_off)
		    : tnum_is_const(b->var_off);
}

static uint64_t const_at(const struct bounds *b, bool is32)
{
	return is32 ? (uint32_t)b->var_off.value : b->var_off.value;
}

/* The operand that is a constant at this width (b when both are), NULL
 * when neither is: a compare against a constant tells about the other. */
static const struct bounds *const_operand(const struct bounds *a,
					  const struct bounds *b, bool is32)
{
	if (is_const_at(b, is32))
		return b;
	if (is_const_at(a, is32))
		return a;
	return NULL;
}

/* The operand a compare against a constant refines (NULL when neither is
 * a constant), and the constant in *v. */
static struct bounds *refined_operand(struct bounds *a, struct bounds *b,
				      bool is32, uint64_t *v)
{
	const struct bounds *c = const_operand(a, b, is32);

	if (!c)
		return NULL;
	*v = const_at(c, is32);
	return c == a ? b : a;
}

/* a's var_off becomes f(var_off, v) at the compare's width (at 32 bits
 * only the low half changes). */
static void var_off_apply(struct bounds *a, struct tnum (*f)(struct tnum, struct tnum),
			  uint64_t v, bool is32)
{
	if (is32)
		a->var_off = tnum_with_subreg(a->var_off,
					      f(tnum_subreg(a->var_off), tnum_const(v)));
	else
		a->var_off = f(a->var_off, tnum_const(v));
}

/* Can a == b never hold? */
static bool never_equal(const struct bounds *a, const struct bounds *b,
			const struct view *x, const struct view *y, bool is32)
{
	if (!tnum_overlap(x->t, y->t))
		return true;
	if (x->umin > y->umax || x->umax < y->umin)
		return true;
	if (x->smin > y->smax || x->smax < y->smin)
		return true;
	/* A 64-bit compare can also use the low halves. */
	if (!is32 && (a->u32_min > b->u32_max || a->u32_max < b->u32_min ||
		      a->s32_min > b->s32_max || a->s32_max < b->s32_min))
		return true;
	return false;
}

static int jset_taken(const struct bounds *a, const struct bounds *b,
		      bool is32)
{
	const struct bounds *c = const_operand(a, b, is32);
	struct tnum t;
	uint64_t val;

	if (!c)
		return -1;
	if (c == a)
		a = b;
	t = is32 ? tnum_subreg(a->var_off) : a->var_off;
	val = const_at(c, is32);
	if (t.value & val)
		return 1;
	if (!((t.value | t.mask) & val))
		return 0;
	return -1;
}

int scalar_branch_taken(const struct bounds *a, const struct bounds *b,
			uint8_t op, bool is32)
{
	struct view x = view_of(a, is32), y = view_of(b, is32);
	int r;

	switch (op) {
	case BPF_JEQ:
	case BPF_JNE:
		if (tnum_is_const(x.t) && tnum_is_const(y.t))
			r = x.t.value == y.t.value;
		else if (never_equal(a, b, &x, &y, is32))
			r = 0;
		else
			return -1;
		return op == BPF_JEQ ? r : !r;
	case BPF_JSET:
		return jset_taken(a, b, is32);
	case JMP_OP_NOT_SET:
		r = jset_taken(a, b, is32);
		return r < 0 ? r : !r;
	case BPF_JGT:
		return x.umin > y.umax ? 1 : x.umax <= y.umin ? 0 : -1;
	case BPF_JGE:
		return x.umin >= y.umax ? 1 : x.umax < y.umin ? 0 : -1;
	case BPF_JLT:
		return x.umax < y.umin ? 1 : x.umin >= y.umax ? 0 : -1;
	case BPF_JLE:
		return x.umax <= y.umin ? 1 : x.umin > y.umax ? 0 : -1;
	case BPF_JSGT:
		return x.smin > y.smax ? 1 : x.smax <= y.smin ? 0 : -1;
	case BPF_JSGE:
		return x.smin >= y.smax ? 1 : x.smax < y.smin ? 0 : -1;
	case BPF_JSLT:
		return x.smax < y.smin ? 1 : x.smin >= y.smax ? 0 : -1;
	case BPF_JSLE:
		return x.smax <= y.smin ? 1 : x.smin > y.smax ? 0 : -1;
	default:
		return -1;
	}
}

int scalar_branch_taken_by_const(const struct bounds *a, const struct bounds *b,
				 uint8_t op, bool is32)
{
	struct view x = view_of(a, is32), y = view_of(b, is32);

	/* 6.1's selftests (deducing_bounds_from_non_const_9 and on) show
	 * that it did not decide with the constant on the left, yet it
	 * accepts libbpf-tools' log2 histograms (biolatency), which then take
	 * a dead branch here: whatever else lets 6.1 accept them is not
	 * modelled, so the constant may be on either side. */
	if (!tnum_is_const(y.t) && !tnum_is_const(x.t))
		return -1;
	if ((op == BPF_JEQ || op == BPF_JNE) &&
	    (!tnum_is_const(x.t) || !tnum_is_const(y.t)))
		return -1;
	return scalar_branch_taken(a, b, op, is32);
}

/* ---- Refinement ---------------------------------------------------------- */

static void refine_eq(struct bounds *a, struct bounds *b, bool is32)
{
	struct tnum t;

	if (is32) {
		a->u32_min = max_u32(a->u32_min, b->u32_min);
		a->u32_max = min_u32(a->u32_max, b->u32_max);
		a->s32_min = max_s32(a->s32_min, b->s32_min);
		a->s32_max = min_s32(a->s32_max, b->s32_max);
		b->u32_min = a->u32_min;
		b->u32_max = a->u32_max;
		b->s32_min = a->s32_min;
		b->s32_max = a->s32_max;
		t = tnum_intersect(tnum_subreg(a->var_off),
				   tnum_subreg(b->var_off));
		a->var_off = tnum_with_subreg(a->var_off, t);
		b->var_off = tnum_with_subreg(b->var_off, t);
		return;
	}
	a->umin = max_u64(a->umin, b->umin);
	a->umax = min_u64(a->umax, b->umax);
	a->smin = max_s64(a->smin, b->smin);
	a->smax = min_s64(a->smax, b->smax);
	b->umin = a->umin;
	b->umax = a->umax;
	b->smin = a->smin;
	b->smax = a->smax;
	a->var_off = tnum_intersect(a->var_off, b->var_off);
	b->var_off = a->var_off;
}

/* a != constant b: only an end of a's ranges equal to it can move. */
static void refine_ne(struct bounds *a, struct bounds *b, bool is32)
{
	uint64_t v;

	a = refined_operand(a, b, is32, &v);
	if (!a)
		return;
	/* Steps wrap like the kernel's (built with -fno-strict-overflow);
	 * wrapping only happens on an edge that cannot be taken. */
	if (is32) {
		if (a->u32_min == (uint32_t)v)
			a->u32_min++;
		if (a->u32_max == (uint32_t)v)
			a->u32_max--;
		if (a->s32_min == (int32_t)(uint32_t)v)
			a->s32_min = (int32_t)((uint32_t)a->s32_min + 1);
		if (a->s32_max == (int32_t)(uint32_t)v)
			a->s32_max = (int32_t)((uint32_t)a->s32_max - 1);
		return;
	}
	if (a->umin == v)
		a->umin++;
	if (a->umax == v)
		a->umax--;
	if (a->smin == (int64_t)v)
		a->smin = (int64_t)((uint64_t)a->smin + 1);
	if (a->smax == (int64_t)v)
		a->smax = (int64_t)((uint64_t)a->smax - 1);
}

static void refine_set(struct bounds *a, struct bounds *b, bool is32)
{
	uint64_t v;

	a = refined_operand(a, b, is32, &v);
	/* Only a single tested bit tells which bit is set. */
	if (!a || !v || (v & (v - 1)))
		return;
	var_off_apply(a, tnum_or, v, is32);
}

static void refine_not_set(struct bounds *a, struct bounds *b, bool is32)
{
	uint64_t v;

	a = refined_operand(a, b, is32, &v);
	if (!a)
		return;
	/* Ranges are dropped first so that a dead edge cannot produce
	 * contradicting views; the sync rebuilds them from the tnum. */
	bounds_mark_unbounded(a);
	var_off_apply(a, tnum_and, ~v, is32);
}

/* a <= b (strict: a < b) unsigned or signed, at 32 or 64 bits. */
static void refine_le(struct bounds *a, struct bounds *b, bool is32,
		      bool is_signed, bool strict)
{
	int k = strict ? 1 : 0;

	if (is32 && is_signed) {
		a->s32_max = min_s32(a->s32_max, (int32_t)((uint32_t)b->s32_max - (uint32_t)k));
		b->s32_min = max_s32((int32_t)((uint32_t)a->s32_min + (uint32_t)k), b->s32_min);
	} else if (is32) {
		a->u32_max = min_u32(a->u32_max, b->u32_max - (uint32_t)k);
		b->u32_min = max_u32(a->u32_min + (uint32_t)k, b->u32_min);
	} else if (is_signed) {
		a->smax = min_s64(a->smax, (int64_t)((uint64_t)b->smax - (uint64_t)k));
		b->smin = max_s64((int64_t)((uint64_t)a->smin + (uint64_t)k), b->smin);
	} else {
		a->umax = min_u64(a->umax, b->umax - (uint64_t)k);
		b->umin = max_u64(a->umin + (uint64_t)k, b->umin);
	}
}

static void refine(struct bounds *a, struct bounds *b, uint8_t op, bool is32)
{
	/* Greater-than forms are the mirrored less-than forms. */
	switch (op) {
	case BPF_JGE:
	case BPF_JGT:
	case BPF_JSGE:
	case BPF_JSGT: {
		struct bounds *tmp = a;

		a = b;
		b = tmp;
		op = jmp_op_swap(op);
		break;
	}
	default:
		break;
	}

	switch (op) {
	case BPF_JEQ:
		refine_eq(a, b, is32);
		break;
	case BPF_JNE:
		refine_ne(a, b, is32);
		break;
	case BPF_JSET:
		refine_set(a, b, is32);
		break;
	case JMP_OP_NOT_SET:
		refine_not_set(a, b, is32);
		break;
	case BPF_JLE:
		refine_le(a, b, is32, false, false);
		break;
	case BPF_JLT:
		refine_le(a, b, is32, false, true);
		break;
	case BPF_JSLE:
		refine_le(a, b, is32, true, false);
		break;
	case BPF_JSLT:
		refine_le(a, b, is32, true, true);
		break;
	default:
		break;
	}
}

void scalar_branch_refine(struct bounds *a, struct bounds *b, uint8_t op,
			  bool is32, struct bounds_memo *memo)
{
	refine(a, b, op, is32);
	bounds_sync_memo(a, memo);
	bounds_sync_memo(b, memo);
}
