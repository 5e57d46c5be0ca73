/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The five views of a number (tnum, u64, s64, u32, s32 ranges) and how
 * they inform each other. The order of the deduction steps follows Linux
 * 6.18's reg_bounds_sync() because the printed states must be identical,
 * and several steps are not idempotent in combination.
 */
#include <stdio.h>
#include <string.h>

#include "scalar.h"

#include "scalar_impl.h"

void bounds_mark_unbounded(struct bounds *b)
{
	bounds_unbound64(b);
	bounds_unbound32(b);
}

void bounds_unbound64(struct bounds *b)
{
	b->smin = INT64_MIN;
	b->smax = INT64_MAX;
	b->umin = 0;
	b->umax = UINT64_MAX;
}

void bounds_unbound32(struct bounds *b)
{
	b->s32_min = INT32_MIN;
	b->s32_max = INT32_MAX;
	b->u32_min = 0;
	b->u32_max = UINT32_MAX;
}

void bounds_unknown(struct bounds *b)
{
	b->var_off = TNUM_UNKNOWN;
	bounds_mark_unbounded(b);
}

void bounds_const(struct bounds *b, uint64_t v)
{
	b->var_off = tnum_const(v);
	b->smin = b->smax = (int64_t)v;
	b->umin = b->umax = v;
	b->s32_min = b->s32_max = (int32_t)(uint32_t)v;
	b->u32_min = b->u32_max = (uint32_t)v;
}

void bounds_mark_const32(struct bounds *b, uint32_t v)
{
	b->var_off = tnum_const_subreg(b->var_off, v);
	b->s32_min = b->s32_max = (int32_t)v;
	b->u32_min = b->u32_max = v;
}

void bounds_const_subreg(struct bounds *b, uint32_t v)
{
	bounds_unknown(b);
	bounds_mark_const32(b, v);
}

bool bounds_is_const(const struct bounds *b)
{
	return tnum_is_const(b->var_off);
}

bool bounds_is_const32(const struct bounds *b)
{
	return tnum_subreg_is_const(b->var_off);
}

bool bounds_is_unknown(const struct bounds *b)
{
	return tnum_is_unknown(b->var_off) && b->smin == INT64_MIN &&
	       b->smax == INT64_MAX && b->umin == 0 &&
	       b->umax == UINT64_MAX && b->s32_min == INT32_MIN &&
	       b->s32_max == INT32_MAX && b->u32_min == 0 &&
	       b->u32_max == UINT32_MAX;
}

bool bounds_equal(const struct bounds *a, const struct bounds *b)
{
	return a->var_off.value == b->var_off.value &&
	       a->var_off.mask == b->var_off.mask && a->smin == b->smin &&
	       a->smax == b->smax && a->umin == b->umin &&
	       a->umax == b->umax && a->s32_min == b->s32_min &&
	       a->s32_max == b->s32_max && a->u32_min == b->u32_min &&
	       a->u32_max == b->u32_max;
}

bool bounds_within(const struct bounds *old, const struct bounds *cur)
{
	return old->umin <= cur->umin && old->umax >= cur->umax &&
	       old->smin <= cur->smin && old->smax >= cur->smax &&
	       old->u32_min <= cur->u32_min && old->u32_max >= cur->u32_max &&
	       old->s32_min <= cur->s32_min && old->s32_max >= cur->s32_max &&
	       tnum_in(old->var_off, cur->var_off);
}

void bounds_hull(struct bounds *into, const struct bounds *in)
{
	into->umin = in->umin < into->umin ? in->umin : into->umin;
	into->umax = in->umax > into->umax ? in->umax : into->umax;
	into->smin = in->smin < into->smin ? in->smin : into->smin;
	into->smax = in->smax > into->smax ? in->smax : into->smax;
	into->u32_min = in->u32_min < into->u32_min ? in->u32_min : into->u32_min;
	into->u32_max = in->u32_max > into->u32_max ? in->u32_max : into->u32_max;
	into->s32_min = in->s32_min < into->s32_min ? in->s32_min : into->s32_min;
	into->s32_max = in->s32_max > into->s32_max ? in->s32_max : into->s32_max;
	into->var_off = tnum_union(into->var_off, in->var_off);
	/* Every value of both inputs meets each constraint above, so the
	 * sync, which only drops values outside them, keeps them all. */
	bounds_sync(into);
}

/* ---- Ranges from var_off -------------------------------------------- */

void bounds_tighten32_from_tnum(struct bounds *b)
{
	struct tnum t = tnum_subreg(b->var_off);
	uint32_t v = (uint32_t)t.value, m = (uint32_t)t.mask;
	/* Signed extremes: sign bit set (if it may be) with every other
	 * unknown bit clear, and the reverse. */
	int32_t lo = (int32_t)(v | (m & UINT32_C(0x80000000)));
	int32_t hi = (int32_t)(v | (m & UINT32_C(0x7fffffff)));

	b->s32_min = max_s32(b->s32_min, lo);
	b->s32_max = min_s32(b->s32_max, hi);
	b->u32_min = max_u32(b->u32_min, v);
	b->u32_max = min_u32(b->u32_max, v | m);
}

/*
 * When the u64 range and the tnum have exactly one value in common the
 * kernel (6.18) turns the register into that constant. Three shapes:
 * the common value is umin, is the tnum's maximum, or lies strictly
 * inside the range. A dead state (no common value) can also come out as a
 * constant here; the kernel behaves the same.
 */
static void single_value64(struct bounds *b)
{
	struct tnum t = b->var_off;
	uint64_t tmax = t.value | t.mask;
	uint64_t next = tnum_step(t, b->umin);
	bool umin_in = tnum_contains(t, b->umin);

	if (umin_in && next > b->umax)
		bounds_const(b, b->umin);
	else if (!umin_in && next == tmax)
		bounds_const(b, tmax);
	else if (!umin_in && next <= b->umax && tnum_step(t, next) > b->umax)
		bounds_const(b, next);
}

static void tighten64_from_tnum(struct bounds *b)
{
	struct tnum t = b->var_off;
	int64_t lo = (int64_t)(t.value | (t.mask & (UINT64_C(1) << 63)));
	int64_t hi = (int64_t)(t.value | (t.mask & ~(UINT64_C(1) << 63)));

	b->smin = max_s64(b->smin, lo);
	b->smax = min_s64(b->smax, hi);
	b->umin = max_u64(b->umin, t.value);
	b->umax = min_u64(b->umax, t.value | t.mask);
	single_value64(b);
}

void bounds_tighten_from_tnum(struct bounds *b)
{
	bounds_tighten32_from_tnum(b);
	tighten64_from_tnum(b);
}

/* ---- Cross deduction between the ranges ------------------------------ */

static void clamp_s32(struct bounds *b, int32_t lo, int32_t hi)
{
	b->s32_min = max_s32(b->s32_min, lo);
	b->s32_max = min_s32(b->s32_max, hi);
}

static void clamp_u32(struct bounds *b, uint32_t lo, uint32_t hi)
{
	b->u32_min = max_u32(b->u32_min, lo);
	b->u32_max = min_u32(b->u32_max, hi);
}

/* 32-bit ranges from the 64-bit ones: the low halves of a 64-bit range
 * form a range themselves when the high halves do not change (or step by
 * one across the s32 sign boundary). */
static void deduce32_from64(struct bounds *b)
{
	uint64_t umin = b->umin, umax = b->umax;
	uint64_t smin = (uint64_t)b->smin, smax = (uint64_t)b->smax;

	if (umin >> 32 == umax >> 32) {
		clamp_u32(b, (uint32_t)umin, (uint32_t)umax);
		if ((int32_t)umin <= (int32_t)umax)
			clamp_s32(b, (int32_t)umin, (int32_t)umax);
	}
	if (b->smin >> 32 == b->smax >> 32) {
		if ((uint32_t)smin <= (uint32_t)smax)
			clamp_u32(b, (uint32_t)smin, (uint32_t)smax);
		if ((int32_t)smin <= (int32_t)smax)
			clamp_s32(b, (int32_t)smin, (int32_t)smax);
	}
	if ((uint32_t)(umin >> 32) + 1 == (uint32_t)(umax >> 32) &&
	    (int32_t)umin < 0 && (int32_t)umax >= 0)
		clamp_s32(b, (int32_t)umin, (int32_t)umax);
	if ((uint32_t)(smin >> 32) + 1 == (uint32_t)(smax >> 32) &&
	    (int32_t)smin < 0 && (int32_t)smax >= 0)
		clamp_s32(b, (int32_t)smin, (int32_t)smax);
}

/* Signed and unsigned 32-bit ranges agree where they do not wrap. */
static void deduce32_sign(struct bounds *b)
{
	if ((int32_t)b->u32_min <= (int32_t)b->u32_max)
		clamp_s32(b, (int32_t)b->u32_min, (int32_t)b->u32_max);

	if ((uint32_t)b->s32_min <= (uint32_t)b->s32_max) {
		clamp_u32(b, (uint32_t)b->s32_min, (uint32_t)b->s32_max);
	} else if (b->u32_max < (uint32_t)b->s32_min) {
		/* Unsigned range meets only the non-negative part. */
		b->s32_min = (int32_t)b->u32_min;
		b->u32_max = min_u32(b->u32_max, (uint32_t)b->s32_max);
	} else if ((uint32_t)b->s32_max < b->u32_min) {
		/* Unsigned range meets only the negative part. */
		b->s32_max = (int32_t)b->u32_max;
		b->u32_min = max_u32(b->u32_min, (uint32_t)b->s32_min);
	}
}

static void deduce64_sign(struct bounds *b)
{
	if ((int64_t)b->umin <= (int64_t)b->umax) {
		b->smin = max_s64(b->smin, (int64_t)b->umin);
		b->smax = min_s64(b->smax, (int64_t)b->umax);
	}
	if ((uint64_t)b->smin <= (uint64_t)b->smax) {
		b->umin = max_u64(b->umin, (uint64_t)b->smin);
		b->umax = min_u64(b->umax, (uint64_t)b->smax);
	} else if (b->umax < (uint64_t)b->smin) {
		b->smin = (int64_t)b->umin;
		b->umax = min_u64(b->umax, (uint64_t)b->smax);
	} else if ((uint64_t)b->smax < b->umin) {
		b->smax = (int64_t)b->umax;
		b->umin = max_u64(b->umin, (uint64_t)b->smin);
	}
}

static uint64_t with_low32(uint64_t x, uint32_t low)
{
	return (x & ~(uint64_t)UINT32_MAX) | low;
}

/* 64-bit ranges from the 32-bit ones: substitute the low halves of the
 * 64-bit bounds (valid because the substitution keeps each range
 * well-formed in its own domain). */
static void deduce64_from32(struct bounds *b)
{
	b->umin = max_u64(b->umin, with_low32(b->umin, b->u32_min));
	b->umax = min_u64(b->umax, with_low32(b->umax, b->u32_max));
	b->smin = max_s64(b->smin,
			  (int64_t)with_low32((uint64_t)b->smin, b->u32_min));
	b->smax = min_s64(b->smax,
			  (int64_t)with_low32((uint64_t)b->smax, b->u32_max));

	if ((uint32_t)b->s32_min <= (uint32_t)b->s32_max) {
		uint32_t lo = (uint32_t)b->s32_min, hi = (uint32_t)b->s32_max;

		b->umin = max_u64(b->umin, with_low32(b->umin, lo));
		b->umax = min_u64(b->umax, with_low32(b->umax, hi));
		b->smin = max_s64(b->smin,
				  (int64_t)with_low32((uint64_t)b->smin, lo));
		b->smax = min_s64(b->smax,
				  (int64_t)with_low32((uint64_t)b->smax, hi));
	}

	/* A value within [S32_MIN, S32_MAX] whose low half is non-negative
	 * cannot have all-ones high bits: it is the s32 range itself. */
	if (b->s32_min >= 0 && b->smin >= INT32_MIN && b->smax <= INT32_MAX) {
		b->smin = b->s32_min;
		b->smax = b->s32_max;
		b->umin = (uint64_t)b->s32_min;
		b->umax = (uint64_t)b->s32_max;
		b->var_off = tnum_intersect(b->var_off,
					    tnum_range(b->umin, b->umax));
	}
}

static void deduce(struct bounds *b)
{
	deduce32_from64(b);
	deduce32_sign(b);
	deduce64_sign(b);
	deduce64_from32(b);
}

/* Known bits from the unsigned ranges. */
static void tnum_from_ranges(struct bounds *b)
{
	struct tnum t64 = tnum_intersect(b->var_off,
					 tnum_range(b->umin, b->umax));
	struct tnum t32 = tnum_intersect(tnum_subreg(t64),
					 tnum_range(b->u32_min, b->u32_max));

	b->var_off = tnum_or(tnum_clear_subreg(t64), t32);
}

/* Every view says the same single value. */
static bool bounds_all_const(const struct bounds *b)
{
	uint64_t v = b->var_off.value;

	return !b->var_off.mask && b->umin == v && b->umax == v &&
	       b->smin == (int64_t)v && b->smax == (int64_t)v &&
	       b->u32_min == (uint32_t)v && b->u32_max == (uint32_t)v &&
	       b->s32_min == (int32_t)(uint32_t)v && b->s32_max == (int32_t)(uint32_t)v;
}

void bounds_sync(struct bounds *b)
{
	bounds_sync_memo(b, NULL);
}

static unsigned int memo_slot(const struct bounds *b)
{
	uint64_t w[8], h = 0;

	_Static_assert(sizeof(*b) == sizeof(w), "no padding in struct bounds");
	memcpy(w, b, sizeof(w));
	for (int i = 0; i < 8; i++)
		h = (h ^ w[i]) * 0x9e3779b97f4a7c15ull;
	return (unsigned int)(h >> 58);
}

void bounds_sync_memo(struct bounds *b, struct bounds_memo *m)
{
	unsigned int k;

	/* A constant and an unknown value are fixpoints of every step (tests/
	 * unit/test_scalar_cases.c checks it), and most values the ALU
	 * writes are one or the other: skip the dozens of steps. */
	if (bounds_all_const(b) || bounds_is_unknown(b))
		return;
	if (!m) {
		bounds_sync_steps(b);
		return;
	}
	_Static_assert(BOUNDS_MEMO_SLOTS == 64, "one valid bit per slot, six hash bits");
	k = memo_slot(b);
	if ((m->valid >> k & 1) && !memcmp(&m->slot[k].in, b, sizeof(*b))) {
		*b = m->slot[k].out;
		return;
	}
	m->slot[k].in = *b;
	bounds_sync_steps(b);
	m->slot[k].out = *b;
	m->valid |= 1ull << k;
}

void bounds_sync_steps(struct bounds *b)
{
	bounds_tighten_from_tnum(b);
	/* Three rounds, as the kernel does; deduce() depends on the bounds
	 * alone, so once a round changes nothing the next ones would not
	 * either. */
	for (int round = 0; round < 3; round++) {
		struct bounds before = *b;

		deduce(b);
		if (!memcmp(&before, b, sizeof(before)))
			break;
	}
	tnum_from_ranges(b);
	bounds_tighten_from_tnum(b);
}

/* ---- Invariants -------------------------------------------------------- */

static const char *violation(const struct bounds *b)
{
	if (b->umin > b->umax || b->smin > b->smax ||
	    b->u32_min > b->u32_max || b->s32_min > b->s32_max)
		return "range bounds violation";
	if (tnum_is_const(b->var_off)) {
		uint64_t v = b->var_off.value;

		if (b->umin != v || b->umax != v || b->smin != (int64_t)v ||
		    b->smax != (int64_t)v)
			return "const tnum out of sync with range bounds";
	}
	if (tnum_subreg_is_const(b->var_off)) {
		uint32_t v = (uint32_t)b->var_off.value;

		if (b->u32_min != v || b->u32_max != v ||
		    b->s32_min != (int32_t)v || b->s32_max != (int32_t)v)
			return "const subreg tnum out of sync with range bounds";
	}
	return NULL;
}

int bounds_check(const struct bounds *b, char *msg, size_t sz)
{
	const char *why = violation(b);

	if (!why)
		return 0;
	if (msg && sz)
		snprintf(msg, sz,
			 "%s u64=[0x%llx, 0x%llx] s64=[0x%llx, 0x%llx] "
			 "u32=[0x%x, 0x%x] s32=[0x%x, 0x%x] "
			 "var_off=(0x%llx, 0x%llx)",
			 why, (unsigned long long)b->umin,
			 (unsigned long long)b->umax,
			 (unsigned long long)b->smin,
			 (unsigned long long)b->smax, b->u32_min, b->u32_max,
			 (uint32_t)b->s32_min, (uint32_t)b->s32_max,
			 (unsigned long long)b->var_off.value,
			 (unsigned long long)b->var_off.mask);
	return -1;
}

int bounds_check_ctx(const struct bounds *b, const char *ctx, char *msg,
		     size_t sz)
{
	char detail[256];

	if (!bounds_check(b, detail, sizeof(detail)))
		return 0;
	if (msg && sz)
		snprintf(msg, sz,
			 "verifier bug: REG INVARIANTS VIOLATION (%s): %s",
			 ctx, detail);
	return -1;
}

/* ---- Width changes ----------------------------------------------------- */

void bounds_assign32_into64(struct bounds *b)
{
	b->umin = b->u32_min;
	b->umax = b->u32_max;
	if (b->s32_min >= 0 && b->s32_max >= 0) {
		b->smin = b->s32_min;
		b->smax = b->s32_max;
	} else {
		b->smin = 0;
		b->smax = UINT32_MAX;
	}
}

void bounds_zext32_raw(struct bounds *b)
{
	b->var_off = tnum_subreg(b->var_off);
	bounds_assign32_into64(b);
}

void bounds_zext32(struct bounds *b)
{
	bounds_zext32_memo(b, NULL);
}

void bounds_zext32_memo(struct bounds *b, struct bounds_memo *m)
{
	bounds_zext32_raw(b);
	bounds_sync_memo(b, m);
}

void bounds_truncate(struct bounds *b, int size)
{
	uint64_t keep;

	if (size >= 8)
		return;
	keep = (UINT64_C(1) << (size * 8)) - 1;
	b->var_off = tnum_cast(b->var_off, (uint8_t)size);
	if ((b->umin & ~keep) == (b->umax & ~keep)) {
		b->umin &= keep;
		b->umax &= keep;
	} else {
		b->umin = 0;
		b->umax = keep;
	}
	b->smin = (int64_t)b->umin;
	b->smax = (int64_t)b->umax;
	/* Below 32 bits the old 32-bit ranges say nothing about the result;
	 * at 32 bits they still hold. */
	if (size < 4)
		bounds_unbound32(b);
	bounds_sync(b);
}

/* Sign-extend the low `bits` of x. */
static int64_t sext_bits(uint64_t x, unsigned int bits)
{
	uint64_t sign = UINT64_C(1) << (bits - 1);
	uint64_t low = x & ((sign << 1) - 1);

	return (int64_t)((low ^ sign) - sign);
}

/* Smallest and largest signed values of a `bits`-wide field. */
static int64_t field_min(unsigned int bits)
{
	return -(int64_t)(UINT64_C(1) << (bits - 1));
}

static int64_t field_max(unsigned int bits)
{
	return (int64_t)((UINT64_C(1) << (bits - 1)) - 1);
}

/*
 * 6.18's first rule: when the s32 range already lies within the field's
 * signed range, the extension leaves the low 32 bits alone and the 64-bit
 * value is their signed value. The 32-bit ranges stay, s64 is the s32
 * range, var_off is dropped and rebuilt by the sync. Always applies to
 * (s32).
 */
static bool sext_within_s32(struct bounds *b, unsigned int bits)
{
	if (b->s32_min < field_min(bits) || b->s32_max > field_max(bits))
		return false;
	b->smin = b->s32_min;
	b->smax = b->s32_max;
	b->umin = 0;
	b->umax = UINT64_MAX;
	b->var_off = TNUM_UNKNOWN;
	bounds_sync(b);
	return true;
}

/* 6.12's rule: when smin and smax agree above the field and their
 * extended values have one sign, those are the new bounds. */
static bool sext_from_s64(struct bounds *b, unsigned int bits)
{
	int64_t a, c, lo, hi;

	if (((uint64_t)b->smin >> bits) != ((uint64_t)b->smax >> bits))
		return false;
	a = sext_bits((uint64_t)b->smin, bits);
	c = sext_bits((uint64_t)b->smax, bits);
	lo = a < c ? a : c;
	hi = a < c ? c : a;
	if ((lo >= 0) != (hi >= 0))
		return false;
	b->smin = lo;
	b->smax = hi;
	b->umin = (uint64_t)lo;
	b->umax = (uint64_t)hi;
	b->s32_min = (int32_t)lo;
	b->s32_max = (int32_t)hi;
	b->u32_min = (uint32_t)lo;
	b->u32_max = (uint32_t)hi;
	b->var_off = tnum_range((uint64_t)lo, (uint64_t)hi);
	return true;
}

void bounds_sext(struct bounds *b, int size)
{
	unsigned int bits = (unsigned int)size * 8;

	if (size >= 8)
		return;
	if (tnum_is_const(b->var_off)) {
		bounds_const(b, (uint64_t)sext_bits(b->var_off.value, bits));
		return;
	}
	if (sext_within_s32(b, bits) || sext_from_s64(b, bits))
		return;
	/* Otherwise: anything in the field's signed range. */
	b->smin = b->s32_min = (int32_t)field_min(bits);
	b->smax = b->s32_max = (int32_t)field_max(bits);
	b->umin = 0;
	b->umax = UINT64_MAX;
	b->u32_min = 0;
	b->u32_max = UINT32_MAX;
	b->var_off = TNUM_UNKNOWN;
}

static void sext32_inner(struct bounds *b, int size)
{
	unsigned int bits = (unsigned int)size * 8;
	int32_t a, c, lo, hi;

	if (tnum_is_const(b->var_off)) {
		/* Constant: the 64-bit views are left alone here, the
		 * following zero extension rebuilds them. */
		uint64_t v = (uint64_t)sext_bits(b->var_off.value, bits);

		b->var_off = tnum_const(v);
		b->s32_min = b->s32_max = (int32_t)v;
		b->u32_min = b->u32_max = (uint32_t)v;
		return;
	}
	if (((uint32_t)b->s32_min >> bits) == ((uint32_t)b->s32_max >> bits)) {
		a = (int32_t)sext_bits((uint32_t)b->s32_min, bits);
		c = (int32_t)sext_bits((uint32_t)b->s32_max, bits);
		lo = a < c ? a : c;
		hi = a < c ? c : a;
		if ((lo >= 0) == (hi >= 0)) {
			b->s32_min = lo;
			b->s32_max = hi;
			b->u32_min = (uint32_t)lo;
			b->u32_max = (uint32_t)hi;
			b->var_off = tnum_subreg(tnum_range((uint32_t)lo,
							    (uint32_t)hi));
			return;
		}
	}
	b->s32_min = (int32_t)field_min(bits);
	b->s32_max = (int32_t)field_max(bits);
	b->u32_min = 0;
	b->u32_max = UINT32_MAX;
	b->var_off = tnum_subreg(TNUM_UNKNOWN);
}

void bounds_sext32(struct bounds *b, int size)
{
	if (size < 4)
		sext32_inner(b, size);
	bounds_zext32(b);
}
