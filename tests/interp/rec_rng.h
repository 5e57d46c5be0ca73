/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The recorders' random numbers (record_corpus, record_fib): xorshift64,
 * seeded from the command line, so that a fixture is recorded again
 * byte for byte.
 */
#ifndef BPFVET_REC_RNG_H
#define BPFVET_REC_RNG_H

#include <stdint.h>

struct rng {
	uint64_t s;
};

static inline uint64_t rng_next(struct rng *r)
{
	r->s ^= r->s << 13;
	r->s ^= r->s >> 7;
	r->s ^= r->s << 17;
	return r->s;
}

static inline uint32_t rng_below(struct rng *r, uint32_t n)
{
	return (uint32_t)(rng_next(r) % n);
}

#endif
