/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ALU transfer functions on bounds, as Linux 6.18's
 * adjust_scalar_min_max_vals() computes them. Each operation updates the
 * 32-bit and the 64-bit ranges independently from the operands' ranges of
 * the same width, sets var_off from the tnum operation, then (for ALU32)
 * zero-extends and finally re-syncs all views. The bit-level details (which
 * bound gives up when, what is derived from what) decide the printed
 * state, so they follow the kernel closely.
 */
#include "scalar.h"
#include "scalar_impl.h"
#include "uapi.h"

/* ---- ADD / SUB ----------------------------------------------------------- */

static void add32(struct bounds *d, const struct bounds *s)
{
	int32_t lo, hi;
	uint32_t ulo, uhi;
	bool lo_wrap, hi_wrap;

	if (__builtin_add_overflow(d->s32_min, s->s32_min, &lo) ||
	    __builtin_add_overflow(d->s32_max, s->s32_max, &hi)) {
		d->s32_min = INT32_MIN;
		d->s32_max = INT32_MAX;
	} else {
		d->s32_min = lo;
		d->s32_max = hi;
	}
	/* Unsigned: fine when both ends wrap or neither does. */
	lo_wrap = __builtin_add_overflow(d->u32_min, s->u32_min, &ulo);
	hi_wrap = __builtin_add_overflow(d->u32_max, s->u32_max, &uhi);
	if (!lo_wrap && hi_wrap) {
		d->u32_min = 0;
		d->u32_max = UINT32_MAX;
	} else {
		d->u32_min = ulo;
		d->u32_max = uhi;
	}
}

static void add64(struct bounds *d, const struct bounds *s)
{
	int64_t lo, hi;
	uint64_t ulo, uhi;
	bool lo_wrap, hi_wrap;

	if (__builtin_add_overflow(d->smin, s->smin, &lo) ||
	    __builtin_add_overflow(d->smax, s->smax, &hi)) {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	} else {
		d->smin = lo;
		d->smax = hi;
	}
	lo_wrap = __builtin_add_overflow(d->umin, s->umin, &ulo);
	hi_wrap = __builtin_add_overflow(d->umax, s->umax, &uhi);
	if (!lo_wrap && hi_wrap) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	} else {
		d->umin = ulo;
		d->umax = uhi;
	}
}

static void sub32(struct bounds *d, const struct bounds *s)
{
	int32_t lo, hi;
	uint32_t ulo, uhi;
	bool lo_wrap, hi_wrap;

	if (__builtin_sub_overflow(d->s32_min, s->s32_max, &lo) ||
	    __builtin_sub_overflow(d->s32_max, s->s32_min, &hi)) {
		d->s32_min = INT32_MIN;
		d->s32_max = INT32_MAX;
	} else {
		d->s32_min = lo;
		d->s32_max = hi;
	}
	lo_wrap = __builtin_sub_overflow(d->u32_min, s->u32_max, &ulo);
	hi_wrap = __builtin_sub_overflow(d->u32_max, s->u32_min, &uhi);
	if (lo_wrap && !hi_wrap) {
		d->u32_min = 0;
		d->u32_max = UINT32_MAX;
	} else {
		d->u32_min = ulo;
		d->u32_max = uhi;
	}
}

static void sub64(struct bounds *d, const struct bounds *s)
{
	int64_t lo, hi;
	uint64_t ulo, uhi;
	bool lo_wrap, hi_wrap;

	if (__builtin_sub_overflow(d->smin, s->smax, &lo) ||
	    __builtin_sub_overflow(d->smax, s->smin, &hi)) {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	} else {
		d->smin = lo;
		d->smax = hi;
	}
	lo_wrap = __builtin_sub_overflow(d->umin, s->umax, &ulo);
	hi_wrap = __builtin_sub_overflow(d->umax, s->umin, &uhi);
	if (lo_wrap && !hi_wrap) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	} else {
		d->umin = ulo;
		d->umax = uhi;
	}
}

/* ---- MUL ----------------------------------------------------------------- */

static void mul32(struct bounds *d, const struct bounds *s)
{
	uint32_t ulo, uhi;
	int32_t p[4], lo, hi;
	int i;

	if (__builtin_mul_overflow(d->u32_max, s->u32_max, &uhi) ||
	    __builtin_mul_overflow(d->u32_min, s->u32_min, &ulo)) {
		d->u32_min = 0;
		d->u32_max = UINT32_MAX;
	} else {
		d->u32_min = ulo;
		d->u32_max = uhi;
	}
	/* Signed: the extremes are among the four corner products. */
	if (__builtin_mul_overflow(d->s32_min, s->s32_min, &p[0]) ||
	    __builtin_mul_overflow(d->s32_min, s->s32_max, &p[1]) ||
	    __builtin_mul_overflow(d->s32_max, s->s32_min, &p[2]) ||
	    __builtin_mul_overflow(d->s32_max, s->s32_max, &p[3])) {
		d->s32_min = INT32_MIN;
		d->s32_max = INT32_MAX;
		return;
	}
	lo = hi = p[0];
	for (i = 1; i < 4; i++) {
		lo = min_s32(lo, p[i]);
		hi = max_s32(hi, p[i]);
	}
	d->s32_min = lo;
	d->s32_max = hi;
}

static void mul64(struct bounds *d, const struct bounds *s)
{
	uint64_t ulo, uhi;
	int64_t p[4], lo, hi;
	int i;

	if (__builtin_mul_overflow(d->umax, s->umax, &uhi) ||
	    __builtin_mul_overflow(d->umin, s->umin, &ulo)) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	} else {
		d->umin = ulo;
		d->umax = uhi;
	}
	if (__builtin_mul_overflow(d->smin, s->smin, &p[0]) ||
	    __builtin_mul_overflow(d->smin, s->smax, &p[1]) ||
	    __builtin_mul_overflow(d->smax, s->smin, &p[2]) ||
	    __builtin_mul_overflow(d->smax, s->smax, &p[3])) {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
		return;
	}
	lo = hi = p[0];
	for (i = 1; i < 4; i++) {
		lo = min_s64(lo, p[i]);
		hi = max_s64(hi, p[i]);
	}
	d->smin = lo;
	d->smax = hi;
}

/* ---- Bitwise ----------------------------------------------------------- */

/* Signed 32-bit range equal to the unsigned one unless that crosses the
 * sign bit. */
static void s32_from_u32(struct bounds *d)
{
	if ((int32_t)d->u32_min <= (int32_t)d->u32_max) {
		d->s32_min = (int32_t)d->u32_min;
		d->s32_max = (int32_t)d->u32_max;
	} else {
		d->s32_min = INT32_MIN;
		d->s32_max = INT32_MAX;
	}
}

static void s64_from_u64(struct bounds *d)
{
	if ((int64_t)d->umin <= (int64_t)d->umax) {
		d->smin = (int64_t)d->umin;
		d->smax = (int64_t)d->umax;
	} else {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	}
}

/*
 * For AND/OR/XOR var_off already holds the result when these run. Two
 * constants give a constant; otherwise one unsigned bound comes from the
 * tnum and the other from the operands.
 */
static void and32(struct bounds *d, const struct bounds *s)
{
	struct tnum t = tnum_subreg(d->var_off);

	if (tnum_subreg_is_const(s->var_off) &&
	    tnum_subreg_is_const(d->var_off)) {
		bounds_mark_const32(d, (uint32_t)t.value);
		return;
	}
	d->u32_min = (uint32_t)t.value;
	d->u32_max = min_u32(d->u32_max, s->u32_max);
	s32_from_u32(d);
}

static void and64(struct bounds *d, const struct bounds *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		bounds_const(d, d->var_off.value);
		return;
	}
	d->umin = d->var_off.value;
	d->umax = min_u64(d->umax, s->umax);
	s64_from_u64(d);
	bounds_tighten_from_tnum(d);
}

static void or32(struct bounds *d, const struct bounds *s)
{
	struct tnum t = tnum_subreg(d->var_off);

	if (tnum_subreg_is_const(s->var_off) &&
	    tnum_subreg_is_const(d->var_off)) {
		bounds_mark_const32(d, (uint32_t)t.value);
		return;
	}
	d->u32_min = max_u32(d->u32_min, s->u32_min);
	d->u32_max = (uint32_t)(t.value | t.mask);
	s32_from_u32(d);
}

static void or64(struct bounds *d, const struct bounds *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		bounds_const(d, d->var_off.value);
		return;
	}
	d->umin = max_u64(d->umin, s->umin);
	d->umax = d->var_off.value | d->var_off.mask;
	s64_from_u64(d);
	bounds_tighten_from_tnum(d);
}

static void xor32(struct bounds *d, const struct bounds *s)
{
	struct tnum t = tnum_subreg(d->var_off);

	if (tnum_subreg_is_const(s->var_off) &&
	    tnum_subreg_is_const(d->var_off)) {
		bounds_mark_const32(d, (uint32_t)t.value);
		return;
	}
	d->u32_min = (uint32_t)t.value;
	d->u32_max = (uint32_t)(t.value | t.mask);
	s32_from_u32(d);
}

static void xor64(struct bounds *d, const struct bounds *s)
{
	if (tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		bounds_const(d, d->var_off.value);
		return;
	}
	d->umin = d->var_off.value;
	d->umax = d->var_off.value | d->var_off.mask;
	s64_from_u64(d);
	bounds_tighten_from_tnum(d);
}

/* ---- Shifts (amount known constant, below the width) ------------------- */

static void lsh32_ranges(struct bounds *d, uint64_t lo, uint64_t hi)
{
	d->s32_min = INT32_MIN;
	d->s32_max = INT32_MAX;
	/* Could the top bit be shifted out? Then nothing is known. */
	if (hi > 31 || d->u32_max > UINT64_C(1) << (31 - hi)) {
		d->u32_min = 0;
		d->u32_max = UINT32_MAX;
	} else {
		d->u32_min <<= lo;
		d->u32_max <<= hi;
	}
}

static void lsh64_ranges(struct bounds *d, uint64_t lo, uint64_t hi)
{
	/* x << 32 keeps the s32 range's sign: the compiler's sign-extension
	 * idiom (<<32 s>>32) relies on it. */
	if (lo == 32 && hi == 32) {
		d->smax = (int64_t)((uint64_t)(int64_t)d->s32_max << 32);
		d->smin = (int64_t)((uint64_t)(int64_t)d->s32_min << 32);
	} else {
		d->smin = INT64_MIN;
		d->smax = INT64_MAX;
	}
	if (d->umax > UINT64_C(1) << (63 - hi)) {
		d->umin = 0;
		d->umax = UINT64_MAX;
	} else {
		d->umin <<= lo;
		d->umax <<= hi;
	}
}

static void lsh32(struct bounds *d, const struct bounds *s)
{
	struct tnum sub = tnum_subreg(d->var_off);

	lsh32_ranges(d, s->u32_min, s->u32_max);
	d->var_off = tnum_subreg(tnum_lshift(sub, (uint8_t)s->u32_min));
	bounds_unbound64(d);
	bounds_tighten32_from_tnum(d);
}

static void lsh64(struct bounds *d, const struct bounds *s)
{
	/* The 64-bit rule reads the unshifted 32-bit ranges: first. */
	lsh64_ranges(d, s->umin, s->umax);
	lsh32_ranges(d, s->umin, s->umax);
	d->var_off = tnum_lshift(d->var_off, (uint8_t)s->umin);
	bounds_tighten_from_tnum(d);
}

static void rsh32(struct bounds *d, const struct bounds *s)
{
	struct tnum sub = tnum_subreg(d->var_off);

	d->s32_min = INT32_MIN;
	d->s32_max = INT32_MAX;
	d->var_off = tnum_rshift(sub, (uint8_t)s->u32_min);
	d->u32_min >>= s->u32_max;
	d->u32_max >>= s->u32_min;
	bounds_unbound64(d);
	bounds_tighten32_from_tnum(d);
}

static void rsh64(struct bounds *d, const struct bounds *s)
{
	d->smin = INT64_MIN;
	d->smax = INT64_MAX;
	d->var_off = tnum_rshift(d->var_off, (uint8_t)s->umin);
	d->umin >>= s->umax;
	d->umax >>= s->umin;
	bounds_unbound32(d);
	bounds_tighten_from_tnum(d);
}

static int32_t sar_s32(int32_t x, unsigned int n)
{
	return x < 0 ? ~(int32_t)(~(uint32_t)x >> n) : (int32_t)((uint32_t)x >> n);
}

static int64_t sar_s64(int64_t x, unsigned int n)
{
	return x < 0 ? ~(int64_t)(~(uint64_t)x >> n) : (int64_t)((uint64_t)x >> n);
}

static void arsh32(struct bounds *d, const struct bounds *s)
{
	unsigned int n = s->u32_min;

	d->s32_min = sar_s32(d->s32_min, n);
	d->s32_max = sar_s32(d->s32_max, n);
	d->var_off = tnum_arshift(tnum_subreg(d->var_off), (uint8_t)n, 32);
	d->u32_min = 0;
	d->u32_max = UINT32_MAX;
	bounds_unbound64(d);
	bounds_tighten32_from_tnum(d);
}

static void arsh64(struct bounds *d, const struct bounds *s)
{
	unsigned int n = (unsigned int)s->umin;

	d->smin = sar_s64(d->smin, n);
	d->smax = sar_s64(d->smax, n);
	d->var_off = tnum_arshift(d->var_off, (uint8_t)n, 64);
	d->umin = 0;
	d->umax = UINT64_MAX;
	bounds_unbound32(d);
	bounds_tighten_from_tnum(d);
}

/* ---- Dispatch ---------------------------------------------------------- */

/*
 * Which results the kernel computes at all. Shifts need a constant amount
 * below the width: "constant" is judged on the operation's width, the
 * limit on the full 64-bit umax (so a 32-bit shift by a register whose
 * high half is non-zero gives up). DIV and MOD are never tracked.
 */
static bool computable(const struct bounds *s, uint8_t op, bool alu32)
{
	bool is_const;

	switch (op) {
	case BPF_ADD:
	case BPF_SUB:
	case BPF_MUL:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		return true;
	case BPF_LSH:
	case BPF_RSH:
	case BPF_ARSH:
		if (alu32)
			is_const = tnum_subreg_is_const(s->var_off) &&
				   s->s32_min == s->s32_max &&
				   s->u32_min == s->u32_max;
		else
			is_const = tnum_is_const(s->var_off) &&
				   s->smin == s->smax && s->umin == s->umax;
		return is_const && s->umax < (alu32 ? 32u : 64u);
	default:
		return false;
	}
}

static void apply(struct bounds *d, const struct bounds *s, uint8_t op,
		  bool alu32)
{
	switch (op) {
	case BPF_ADD:
		add32(d, s);
		add64(d, s);
		d->var_off = tnum_add(d->var_off, s->var_off);
		break;
	case BPF_SUB:
		sub32(d, s);
		sub64(d, s);
		d->var_off = tnum_sub(d->var_off, s->var_off);
		break;
	case BPF_MUL:
		d->var_off = tnum_mul(d->var_off, s->var_off);
		mul32(d, s);
		mul64(d, s);
		break;
	case BPF_AND:
		d->var_off = tnum_and(d->var_off, s->var_off);
		and32(d, s);
		and64(d, s);
		break;
	case BPF_OR:
		d->var_off = tnum_or(d->var_off, s->var_off);
		or32(d, s);
		or64(d, s);
		break;
	case BPF_XOR:
		d->var_off = tnum_xor(d->var_off, s->var_off);
		xor32(d, s);
		xor64(d, s);
		break;
	case BPF_LSH:
		if (alu32)
			lsh32(d, s);
		else
			lsh64(d, s);
		break;
	case BPF_RSH:
		if (alu32)
			rsh32(d, s);
		else
			rsh64(d, s);
		break;
	case BPF_ARSH:
		if (alu32)
			arsh32(d, s);
		else
			arsh64(d, s);
		break;
	default:
		break;
	}
}

void scalar_alu(struct bounds *dst, const struct bounds *src, uint8_t op,
		bool alu32, int16_t off)
{
	/* The kernel works on a copy of the source: dst may alias it. */
	struct bounds s = *src;

	(void)off;	/* sdiv/smod are no more tracked than div/mod */
	if (!computable(&s, op, alu32)) {
		bounds_unknown(dst);
		return;
	}
	apply(dst, &s, op, alu32);
	if (alu32)
		bounds_zext32_raw(dst);
	bounds_sync(dst);
}

bool scalar_alu_fork(struct bounds *dst, const struct bounds *src,
		     uint8_t op, struct bounds *zero)
{
	bool alu32;

	if ((op != BPF_AND && op != BPF_OR) || !tnum_is_const(src->var_off))
		return false;
	if (dst->smin == -1 && dst->smax == 0)
		alu32 = false;
	else if (dst->s32_min == -1 && dst->s32_max == 0)
		alu32 = true;
	else
		return false;
	*zero = *dst;
	if (alu32) {
		bounds_mark_const32(zero, 0);
		bounds_mark_const32(dst, UINT32_MAX);
	} else {
		bounds_const(zero, 0);
		bounds_const(dst, UINT64_MAX);
	}
	return true;
}

void scalar_neg(struct bounds *dst, bool alu32)
{
	struct bounds x = *dst;

	/* 0 - x with SUB's range rules. */
	bounds_const(dst, 0);
	sub32(dst, &x);
	sub64(dst, &x);
	dst->var_off = tnum_neg(x.var_off);
	if (alu32)
		bounds_zext32_raw(dst);
	bounds_sync(dst);
}

void scalar_end(struct bounds *dst, int bits, bool to_be, bool bswap)
{
	/* The host (and the kernel's model) is little-endian: to-LE is a
	 * truncation, to-BE and bswap reverse the bytes. */
	if (!to_be && !bswap) {
		if (bits < 64)
			bounds_truncate(dst, bits / 8);
		return;
	}
	dst->var_off = tnum_bswap(dst->var_off, bits);
	bounds_mark_unbounded(dst);
	bounds_sync(dst);
}
