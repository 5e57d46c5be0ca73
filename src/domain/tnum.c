/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tristate numbers. Every function returns a tnum that contains all the
 * results of applying the operation to members of its operands; where the
 * kernel's verifier uses a particular (not necessarily tightest) rule we
 * follow it, because the printed var_off must match the kernel's.
 */
#include <stdio.h>

#include "tnum.h"

struct tnum tnum_const(uint64_t v)
{
	return TNUM(v, 0);
}

/* Number of significant bits of x (0 for 0). */
static unsigned int bit_length(uint64_t x)
{
	return x ? 64 - (unsigned int)__builtin_clzll(x) : 0;
}

/* All ones below bit n (n <= 64). */
static uint64_t low_bits(unsigned int n)
{
	return n >= 64 ? UINT64_MAX : (UINT64_C(1) << n) - 1;
}

struct tnum tnum_range(uint64_t min, uint64_t max)
{
	/* Bits above the highest bit where min and max differ are shared
	 * by the whole range; everything at or below it can vary. */
	uint64_t varying = low_bits(bit_length(min ^ max));

	return TNUM(min & ~varying, varying);
}

struct tnum tnum_lshift(struct tnum a, uint8_t shift)
{
	if (shift >= 64)
		return TNUM(0, 0);
	return TNUM(a.value << shift, a.mask << shift);
}

struct tnum tnum_rshift(struct tnum a, uint8_t shift)
{
	if (shift >= 64)
		return TNUM(0, 0);
	return TNUM(a.value >> shift, a.mask >> shift);
}

/* Arithmetic right shift of a 64-bit pattern (sign bit replicated). */
static uint64_t sar64(uint64_t x, unsigned int n)
{
	if (n >= 64)
		n = 63;
	if (!(x >> 63))
		return x >> n;
	return ~(~x >> n);
}

static uint32_t sar32(uint32_t x, unsigned int n)
{
	if (n >= 32)
		n = 31;
	if (!(x >> 31))
		return x >> n;
	return ~(~x >> n);
}

struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t bitness)
{
	/* An unknown sign bit stays unknown in every replicated position,
	 * a known one replicates into value; shifting mask and value
	 * separately does exactly that. */
	if (bitness == 32)
		return TNUM(sar32((uint32_t)a.value, shift),
			    sar32((uint32_t)a.mask, shift));
	return TNUM(sar64(a.value, shift), sar64(a.mask, shift));
}

struct tnum tnum_add(struct tnum a, struct tnum b)
{
	uint64_t low = a.value + b.value;	/* all unknown bits 0 */
	uint64_t high = low + a.mask + b.mask;	/* all unknown bits 1 */
	/* A bit can differ between the two extremes only where a carry
	 * chain may or may not pass; those and the operands' unknown bits
	 * are unknown in the sum. */
	uint64_t unknown = (low ^ high) | a.mask | b.mask;

	return TNUM(low & ~unknown, unknown);
}

struct tnum tnum_sub(struct tnum a, struct tnum b)
{
	uint64_t diff = a.value - b.value;
	uint64_t most = diff + a.mask;	/* largest minuend, smallest subtrahend */
	uint64_t least = diff - b.mask;	/* and the other way round */
	uint64_t unknown = (most ^ least) | a.mask | b.mask;

	return TNUM(diff & ~unknown, unknown);
}

struct tnum tnum_neg(struct tnum a)
{
	return tnum_sub(TNUM(0, 0), a);
}

struct tnum tnum_and(struct tnum a, struct tnum b)
{
	uint64_t ones = a.value & b.value;
	uint64_t maybe = (a.value | a.mask) & (b.value | b.mask);

	return TNUM(ones, maybe & ~ones);
}

struct tnum tnum_or(struct tnum a, struct tnum b)
{
	uint64_t ones = a.value | b.value;

	return TNUM(ones, (a.mask | b.mask) & ~ones);
}

struct tnum tnum_xor(struct tnum a, struct tnum b)
{
	uint64_t unknown = a.mask | b.mask;

	return TNUM((a.value ^ b.value) & ~unknown, unknown);
}

/*
 * Long multiplication over a's bits, as Linux 6.18 does it: a known-one
 * multiplier bit adds the shifted multiplicand, an unknown one yields
 * "either the sum so far or the sum plus the multiplicand" (the union of
 * both), a known-zero bit adds nothing.
 */
struct tnum tnum_mul(struct tnum a, struct tnum b)
{
	struct tnum acc = TNUM(0, 0);

	while (a.value | a.mask) {
		if (a.value & 1)
			acc = tnum_add(acc, b);
		else if (a.mask & 1)
			acc = tnum_union(acc, tnum_add(acc, b));
		a = tnum_rshift(a, 1);
		b = tnum_lshift(b, 1);
	}
	return acc;
}

struct tnum tnum_intersect(struct tnum a, struct tnum b)
{
	uint64_t unknown = a.mask & b.mask;

	return TNUM((a.value | b.value) & ~unknown, unknown);
}

struct tnum tnum_union(struct tnum a, struct tnum b)
{
	uint64_t unknown = (a.value ^ b.value) | a.mask | b.mask;

	return TNUM(a.value & b.value & ~unknown, unknown);
}

bool tnum_overlap(struct tnum a, struct tnum b)
{
	uint64_t known = ~a.mask & ~b.mask;

	return !((a.value ^ b.value) & known);
}

struct tnum tnum_cast(struct tnum a, uint8_t size)
{
	uint64_t keep = size >= 8 ? UINT64_MAX : low_bits(size * 8u);

	return TNUM(a.value & keep, a.mask & keep);
}

bool tnum_is_aligned(struct tnum a, uint64_t size)
{
	if (!size)
		return true;
	return !((a.value | a.mask) & (size - 1));
}

bool tnum_in(struct tnum a, struct tnum b)
{
	if (b.mask & ~a.mask)
		return false;
	return (b.value & ~a.mask) == a.value;
}

struct tnum tnum_subreg(struct tnum a)
{
	return tnum_cast(a, 4);
}

struct tnum tnum_clear_subreg(struct tnum a)
{
	uint64_t high = ~(uint64_t)UINT32_MAX;

	return TNUM(a.value & high, a.mask & high);
}

struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg)
{
	return tnum_or(tnum_clear_subreg(reg), tnum_subreg(subreg));
}

struct tnum tnum_const_subreg(struct tnum a, uint32_t value)
{
	return tnum_with_subreg(a, tnum_const(value));
}

bool tnum_contains(struct tnum a, uint64_t v)
{
	return (v & ~a.mask) == a.value;
}

/*
 * Smallest member of a that is >= y. Members are value plus a submask of
 * mask. Start from y with a's known bits forced; the highest bit where
 * that differs from y is a known bit and decides the direction.
 */
static bool least_member_at_least(struct tnum a, uint64_t y, uint64_t *out)
{
	uint64_t x = a.value | (y & a.mask);
	uint64_t diff = x ^ y, below, up;
	unsigned int h;

	if (!diff) {
		*out = y;
		return true;
	}
	h = bit_length(diff) - 1;
	below = low_bits(h);
	if (x & (UINT64_C(1) << h)) {
		/* Already above y at bit h: clear the unknown bits below. */
		*out = (x & ~below) | (a.value & below);
		return true;
	}
	/* Below y at bit h: set the lowest unknown zero bit above h. */
	up = a.mask & ~x & ~low_bits(h + 1);
	if (!up)
		return false;
	up &= -up;
	*out = (x & ~(up | (up - 1))) | up | (a.value & (up - 1));
	return true;
}

uint64_t tnum_step(struct tnum a, uint64_t z)
{
	uint64_t tmax = a.value | a.mask, next;

	if (z >= tmax)
		return tmax;
	if (z < a.value)
		return a.value;
	if (!least_member_at_least(a, z + 1, &next))
		return tmax;	/* cannot happen: tmax > z is a member */
	return next;
}

static uint64_t swap_bytes(uint64_t x, int bits)
{
	switch (bits) {
	case 16:
		return __builtin_bswap16((uint16_t)x);
	case 32:
		return __builtin_bswap32((uint32_t)x);
	default:
		return __builtin_bswap64(x);
	}
}

struct tnum tnum_bswap(struct tnum a, int bits)
{
	return TNUM(swap_bytes(a.value, bits), swap_bytes(a.mask, bits));
}

int tnum_print(char *buf, size_t sz, struct tnum a)
{
	/* The kernel's %#llx prints zero as 0x0, glibc's as 0. */
	return snprintf(buf, sz, "(0x%llx; 0x%llx)",
			(unsigned long long)a.value,
			(unsigned long long)a.mask);
}
