/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tristate numbers: a 64-bit value where each bit is known 0, known 1 or
 * unknown. `mask` has a 1 for every unknown bit; `value` holds the known
 * bits (and 0 in unknown positions). A tnum denotes the set of integers
 * that agree with `value` on every known bit.
 */
#ifndef BPFVET_TNUM_H
#define BPFVET_TNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tnum {
	uint64_t value;
	uint64_t mask;
};

#define TNUM(v, m) ((struct tnum){ .value = (v), .mask = (m) })
#define TNUM_UNKNOWN TNUM(0, UINT64_MAX)

struct tnum tnum_const(uint64_t v);
/* Smallest tnum containing every value in [min, max] (unsigned). */
struct tnum tnum_range(uint64_t min, uint64_t max);
struct tnum tnum_lshift(struct tnum a, uint8_t shift);
struct tnum tnum_rshift(struct tnum a, uint8_t shift);
/* Arithmetic shift on a 32- or 64-bit value (bitness 32 or 64). */
struct tnum tnum_arshift(struct tnum a, uint8_t shift, uint8_t bitness);
struct tnum tnum_add(struct tnum a, struct tnum b);
struct tnum tnum_sub(struct tnum a, struct tnum b);
struct tnum tnum_neg(struct tnum a);
struct tnum tnum_and(struct tnum a, struct tnum b);
struct tnum tnum_or(struct tnum a, struct tnum b);
struct tnum tnum_xor(struct tnum a, struct tnum b);
struct tnum tnum_mul(struct tnum a, struct tnum b);
/* Values in both a and b (a and b must overlap). */
struct tnum tnum_intersect(struct tnum a, struct tnum b);
/* Smallest tnum containing both a and b. */
struct tnum tnum_union(struct tnum a, struct tnum b);
bool tnum_overlap(struct tnum a, struct tnum b);
/* Truncate to the low `size` bytes (zero-extended). */
struct tnum tnum_cast(struct tnum a, uint8_t size);
bool tnum_is_aligned(struct tnum a, uint64_t size);
/* Is every value of b also a value of a? */
bool tnum_in(struct tnum a, struct tnum b);
/* Low 32 bits (zero-extended), high 32 bits cleared, low replaced. */
struct tnum tnum_subreg(struct tnum a);
struct tnum tnum_clear_subreg(struct tnum a);
struct tnum tnum_with_subreg(struct tnum reg, struct tnum subreg);
struct tnum tnum_const_subreg(struct tnum a, uint32_t value);
/* Is v a member of a? */
bool tnum_contains(struct tnum a, uint64_t v);
/*
 * Smallest member of a greater than z; a's largest member when z is at or
 * above it, a's smallest when z is below it (the kernel's tnum_step).
 */
uint64_t tnum_step(struct tnum a, uint64_t z);
/* Byte swap of the low `bits` (16, 32, 64) bits, zero-extended. */
struct tnum tnum_bswap(struct tnum a, int bits);
/* "(0x..; 0x..)" as the kernel prints var_off. Returns snprintf's result. */
int tnum_print(char *buf, size_t sz, struct tnum a);

static inline bool tnum_is_const(struct tnum a)
{
	return !a.mask;
}

static inline bool tnum_equals_const(struct tnum a, uint64_t v)
{
	return tnum_is_const(a) && a.value == v;
}

static inline bool tnum_is_unknown(struct tnum a)
{
	return !~a.mask;
}

static inline bool tnum_subreg_is_const(struct tnum a)
{
	return !(uint32_t)a.mask;
}

#endif
