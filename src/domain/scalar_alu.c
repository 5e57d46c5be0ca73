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
#include "base/uapi.h"

/* ---- Spans --------------------------------------------------------------- */

/*
 * Most rules are the same at both widths, so they are written once on a
 * span: one width's four bounds, signed ones sign-extended and unsigned
 * ones zero-extended to 64 bits. At 32 bits the 64-bit arithmetic of
 * ADD/SUB/MUL cannot overflow, and a result outside the 32-bit range is
 * exactly a 32-bit overflow.
 */
struct span {
	int64_t smin, smax;
	uint64_t umin, umax;
};

static struct span span_of(const struct bounds *b, bool w32)
{
	if (w32)
		return (struct span){ b->s32_min, b->s32_max, b->u32_min, b->u32_max };
	return (struct span){ b->smin, b->smax, b->umin, b->umax };
}

static void span_store(struct bounds *b, const struct span *r, bool w32)
{
	if (w32) {
		b->s32_min = (int32_t)r->smin;
		b->s32_max = (int32_t)r->smax;
		b->u32_min = (uint32_t)r->umin;
		b->u32_max = (uint32_t)r->umax;
	} else {
		b->smin = r->smin;
		b->smax = r->smax;
		b->umin = r->umin;
		b->umax = r->umax;
	}
}

static void span_unbound_signed(struct span *d, bool w32)
{
	d->smin = w32 ? INT32_MIN : INT64_MIN;
	d->smax = w32 ? INT32_MAX : INT64_MAX;
}

static void span_unbound_unsigned(struct span *d, bool w32)
{
	d->umin = 0;
	d->umax = w32 ? UINT32_MAX : UINT64_MAX;
}

/* ---- ADD / SUB / MUL ---------------------------------------------------- */

/* a op b in *r; true when it leaves the width's signed range. */
static bool signed_overflows(uint8_t op, int64_t a, int64_t b, bool w32, int64_t *r)
{
	bool ovf;

	if (op == BPF_ADD)
		ovf = __builtin_add_overflow(a, b, r);
	else if (op == BPF_SUB)
		ovf = __builtin_sub_overflow(a, b, r);
	else
		ovf = __builtin_mul_overflow(a, b, r);
	return ovf || (w32 && *r != (int32_t)*r);
}

/* a op b wrapped to the width in *r; true when it wrapped. */
static bool unsigned_wraps(uint8_t op, uint64_t a, uint64_t b, bool w32, uint64_t *r)
{
	bool wrap;

	if (op == BPF_ADD)
		wrap = __builtin_add_overflow(a, b, r);
	else if (op == BPF_SUB)
		wrap = __builtin_sub_overflow(a, b, r);
	else
		wrap = __builtin_mul_overflow(a, b, r);
	if (w32) {
		wrap = wrap || *r > UINT32_MAX;
		*r = (uint32_t)*r;
	}
	return wrap;
}

/* ADD pairs like ends (min + min, max + max), SUB opposite ones
 * (min - max, max - min). */
static void addsub_span(struct span *d, const struct span *s, uint8_t op, bool w32)
{
	bool sub = op == BPF_SUB;
	int64_t lo, hi;
	uint64_t ulo, uhi;
	bool lo_wrap, hi_wrap;

	if (signed_overflows(op, d->smin, sub ? s->smax : s->smin, w32, &lo) ||
	    signed_overflows(op, d->smax, sub ? s->smin : s->smax, w32, &hi)) {
		span_unbound_signed(d, w32);
	} else {
		d->smin = lo;
		d->smax = hi;
	}
	/* Unsigned: fine when both ends wrap or neither does; the kernel
	 * tests the one mixed case each operation can produce. */
	lo_wrap = unsigned_wraps(op, d->umin, sub ? s->umax : s->umin, w32, &ulo);
	hi_wrap = unsigned_wraps(op, d->umax, sub ? s->umin : s->umax, w32, &uhi);
	if (sub ? lo_wrap && !hi_wrap : !lo_wrap && hi_wrap) {
		span_unbound_unsigned(d, w32);
	} else {
		d->umin = ulo;
		d->umax = uhi;
	}
}

static void mul_span(struct span *d, const struct span *s, bool w32)
{
	uint64_t ulo, uhi;
	int64_t p[4], lo, hi;
	int i;

	if (unsigned_wraps(BPF_MUL, d->umax, s->umax, w32, &uhi) ||
	    unsigned_wraps(BPF_MUL, d->umin, s->umin, w32, &ulo)) {
		span_unbound_unsigned(d, w32);
	} else {
		d->umin = ulo;
		d->umax = uhi;
	}
	/* Signed: the extremes are among the four corner products. */
	if (signed_overflows(BPF_MUL, d->smin, s->smin, w32, &p[0]) ||
	    signed_overflows(BPF_MUL, d->smin, s->smax, w32, &p[1]) ||
	    signed_overflows(BPF_MUL, d->smax, s->smin, w32, &p[2]) ||
	    signed_overflows(BPF_MUL, d->smax, s->smax, w32, &p[3])) {
		span_unbound_signed(d, w32);
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

/* ADD, SUB or MUL: the 32-bit ranges from the operands' 32-bit ranges,
 * then the 64-bit ones from the 64-bit ones (the two never read each
 * other). */
static void arith_both_widths(struct bounds *d, const struct bounds *s, uint8_t op)
{
	static const bool w32s[] = { true, false };

	for (int i = 0; i < 2; i++) {
		bool w32 = w32s[i];
		struct span a = span_of(d, w32), b = span_of(s, w32);

		if (op == BPF_MUL)
			mul_span(&a, &b, w32);
		else
			addsub_span(&a, &b, op, w32);
		span_store(d, &a, w32);
	}
}

/* ---- Bitwise ----------------------------------------------------------- */

/*
 * AND, OR and XOR at one width; var_off already holds the result. Two
 * constants give a constant; otherwise one unsigned bound comes from the
 * tnum and the other from the operands (or the tnum), and the signed range
 * equals the unsigned one unless that crosses the sign bit.
 */
static void bitwise_width(struct bounds *d, const struct bounds *s, uint8_t op, bool w32)
{
	struct tnum t = w32 ? tnum_subreg(d->var_off) : d->var_off;
	struct span a = span_of(d, w32), b = span_of(s, w32);
	int64_t lo, hi;

	if (w32 ? tnum_subreg_is_const(s->var_off) && tnum_subreg_is_const(d->var_off)
		: tnum_is_const(s->var_off) && tnum_is_const(d->var_off)) {
		if (w32)
			bounds_mark_const32(d, (uint32_t)t.value);
		else
			bounds_const(d, t.value);
		return;
	}
	a.umin = op == BPF_OR ? max_u64(a.umin, b.umin) : t.value;
	a.umax = op == BPF_AND ? min_u64(a.umax, b.umax) : t.value | t.mask;
	lo = w32 ? (int32_t)a.umin : (int64_t)a.umin;
	hi = w32 ? (int32_t)a.umax : (int64_t)a.umax;
	if (lo <= hi) {
		a.smin = lo;
		a.smax = hi;
	} else {
		span_unbound_signed(&a, w32);
	}
	span_store(d, &a, w32);
	if (!w32)
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
		arith_both_widths(d, s, BPF_ADD);
		d->var_off = tnum_add(d->var_off, s->var_off);
		break;
	case BPF_SUB:
		arith_both_widths(d, s, BPF_SUB);
		d->var_off = tnum_sub(d->var_off, s->var_off);
		break;
	case BPF_MUL:
		d->var_off = tnum_mul(d->var_off, s->var_off);
		arith_both_widths(d, s, BPF_MUL);
		break;
	case BPF_AND:
		d->var_off = tnum_and(d->var_off, s->var_off);
		bitwise_width(d, s, BPF_AND, true);
		bitwise_width(d, s, BPF_AND, false);
		break;
	case BPF_OR:
		d->var_off = tnum_or(d->var_off, s->var_off);
		bitwise_width(d, s, BPF_OR, true);
		bitwise_width(d, s, BPF_OR, false);
		break;
	case BPF_XOR:
		d->var_off = tnum_xor(d->var_off, s->var_off);
		bitwise_width(d, s, BPF_XOR, true);
		bitwise_width(d, s, BPF_XOR, false);
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
		bool alu32, int16_t off, struct bounds_memo *memo)
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
	bounds_sync_memo(dst, memo);
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
	arith_both_widths(dst, &x, BPF_SUB);
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

bool scalar_end_is_identity(int bits, bool to_be, bool bswap)
{
	/* le16 and le32 truncate even a value that fits: they are not
	 * no-ops by the instruction, whatever the register holds. */
	return !to_be && !bswap && bits == 64;
}
