/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the recorders (record_corpus, record_fib) share: their random
 * numbers, xorshift64 seeded from the command line, so that a fixture is
 * recorded again byte for byte; and the hex fields of the fixture format
 * (docs/interp-fixtures.md).
 */
#ifndef BPFVET_REC_COMMON_H
#define BPFVET_REC_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <zlib.h>

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

/* A field of bytes: '-' when there are none to give (NULL), nothing
 * when there are zero of them. */
static inline void rec_hex(gzFile out, const void *p, size_t n)
{
	const uint8_t *b = p;

	if (!p) {
		gzputs(out, "-");
		return;
	}
	for (size_t i = 0; i < n; i++)
		gzprintf(out, "%02x", b[i]);
}

#endif
