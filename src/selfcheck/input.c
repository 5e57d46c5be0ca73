/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Random packets for concrete runs: mostly Ethernet + IPv4 + TCP or UDP
 * with random fields, so that programs that parse headers take their
 * deeper paths, and sometimes anything at all. Deterministic in (seed,
 * i): a run is reproduced from the two numbers a report gives.
 */
#include <string.h>

#include "selfcheck.h"

static uint64_t mix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* IPv4 (20 bytes, no options) then TCP (20) or UDP (8) from byte 14. */
static void headers(uint64_t *s, uint8_t *buf, uint32_t len)
{
	bool tcp = mix(s) & 1;
	uint32_t l4 = tcp ? 20 : 8;

	if (len < 14 + 20 + l4)
		return;
	put16(buf + 12, 0x0800);
	buf[14] = 0x45;
	put16(buf + 16, (uint16_t)(len - 14));
	buf[14 + 8] = 64;
	buf[14 + 9] = tcp ? 6 : 17;
	if (!tcp)
		put16(buf + 14 + 20 + 4, (uint16_t)(len - 34));
	else
		buf[14 + 20 + 12] = 0x50;
	/* Common ports, now and then. */
	if (mix(s) % 3 == 0)
		put16(buf + 14 + 20 + 2, (uint16_t)(mix(s) & 1 ? 80 : 53));
}

void selfcheck_input(uint64_t seed, uint64_t i, uint8_t *buf, uint32_t *len)
{
	uint64_t s = seed * 0x100000001b3ull ^ i;

	*len = 14 + (uint32_t)(mix(&s) % (256 - 14 + 1));
	for (uint32_t k = 0; k < *len; k += 8) {
		uint64_t r = mix(&s);

		memcpy(buf + k, &r, *len - k < 8 ? *len - k : 8);
	}
	if (mix(&s) % 4)
		headers(&s, buf, *len);
}
