/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Concrete semantics of the BPF instructions the number domain models
 * (what the CPU computes), and the membership test of the abstract
 * values. Shared by the soundness tests.
 */
#ifndef BPFVET_SCALAR_MODEL_H
#define BPFVET_SCALAR_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "domain/scalar.h"

/* dst OP src for a BPF_OP() code, as the BPF ISA defines it (division by
 * zero gives 0, modulo by zero leaves dst; ALU32 zero-extends). Shift
 * amounts are masked to the width like x86 does (the domain only claims
 * anything for amounts below the width). */
uint64_t model_alu(uint64_t x, uint64_t y, uint8_t op, bool alu32,
		   int16_t off);
uint64_t model_neg(uint64_t x, bool alu32);
uint64_t model_end(uint64_t x, int bits, bool to_be, bool bswap);
/* Sign-extend the low `size` bytes (to 64 bits). */
uint64_t model_sext(uint64_t x, int size);
/* Does `x OP y` hold (JMP_OP_NOT_SET allowed)? */
bool model_cond(uint64_t x, uint64_t y, uint8_t op, bool is32);
/* Is x in every view of b? */
bool model_has(const struct bounds *b, uint64_t x);

/* Deterministic generator (splitmix64). */
struct model_rng {
	uint64_t s;
};
uint64_t model_rand(struct model_rng *r);

/* Abstraction of a finite set: the tightest tnum and ranges holding
 * every value, then bounds_sync(). n > 0. */
void model_alpha(struct bounds *b, const uint64_t *v, int n);

#endif
