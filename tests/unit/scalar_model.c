/* SPDX-License-Identifier: BSD-2-Clause */
#include "scalar_model.h"
#include "base/uapi.h"

static uint64_t div_u(uint64_t x, uint64_t y)
{
	return y ? x / y : 0;
}

static uint64_t mod_u(uint64_t x, uint64_t y)
{
	return y ? x % y : x;
}

/* Signed division truncating toward zero; INT_MIN / -1 wraps to INT_MIN
 * and INT_MIN % -1 is 0, as the ISA defines. */
static int64_t div_s64(int64_t x, int64_t y)
{
	if (!y)
		return 0;
	if (x == INT64_MIN && y == -1)
		return INT64_MIN;
	return x / y;
}

static int64_t mod_s64(int64_t x, int64_t y)
{
	if (!y)
		return x;
	if (y == -1)
		return 0;
	return x % y;
}

static int32_t div_s32(int32_t x, int32_t y)
{
	if (!y)
		return 0;
	if (x == INT32_MIN && y == -1)
		return INT32_MIN;
	return x / y;
}

static int32_t mod_s32(int32_t x, int32_t y)
{
	if (!y)
		return x;
	if (y == -1)
		return 0;
	return x % y;
}

static uint64_t alu64(uint64_t x, uint64_t y, uint8_t op, int16_t off)
{
	switch (op) {
	case BPF_ADD: return x + y;
	case BPF_SUB: return x - y;
	case BPF_MUL: return x * y;
	case BPF_DIV:
		return off ? (uint64_t)div_s64((int64_t)x, (int64_t)y)
			   : div_u(x, y);
	case BPF_MOD:
		return off ? (uint64_t)mod_s64((int64_t)x, (int64_t)y)
			   : mod_u(x, y);
	case BPF_OR: return x | y;
	case BPF_AND: return x & y;
	case BPF_XOR: return x ^ y;
	case BPF_LSH: return x << (y & 63);
	case BPF_RSH: return x >> (y & 63);
	case BPF_ARSH: {
		unsigned int n = (unsigned int)(y & 63);

		return (x >> 63) ? ~(~x >> n) : x >> n;
	}
	default: return 0;
	}
}

static uint32_t alu32v(uint32_t x, uint32_t y, uint8_t op, int16_t off)
{
	switch (op) {
	case BPF_ADD: return x + y;
	case BPF_SUB: return x - y;
	case BPF_MUL: return x * y;
	case BPF_DIV:
		return off ? (uint32_t)div_s32((int32_t)x, (int32_t)y)
			   : (uint32_t)div_u(x, y);
	case BPF_MOD:
		return off ? (uint32_t)mod_s32((int32_t)x, (int32_t)y)
			   : (uint32_t)mod_u(x, y);
	case BPF_OR: return x | y;
	case BPF_AND: return x & y;
	case BPF_XOR: return x ^ y;
	case BPF_LSH: return x << (y & 31);
	case BPF_RSH: return x >> (y & 31);
	case BPF_ARSH: {
		unsigned int n = y & 31;

		return (x >> 31) ? ~(~x >> n) : x >> n;
	}
	default: return 0;
	}
}

uint64_t model_alu(uint64_t x, uint64_t y, uint8_t op, bool alu32,
		   int16_t off)
{
	if (alu32)
		return alu32v((uint32_t)x, (uint32_t)y, op, off);
	return alu64(x, y, op, off);
}

uint64_t model_neg(uint64_t x, bool alu32)
{
	return alu32 ? (uint32_t)(0 - (uint32_t)x) : 0 - x;
}

uint64_t model_end(uint64_t x, int bits, bool to_be, bool bswap)
{
	if (!to_be && !bswap)
		return bits == 64 ? x : x & ((UINT64_C(1) << bits) - 1);
	switch (bits) {
	case 16: return __builtin_bswap16((uint16_t)x);
	case 32: return __builtin_bswap32((uint32_t)x);
	default: return __builtin_bswap64(x);
	}
}

uint64_t model_sext(uint64_t x, int size)
{
	unsigned int bits = (unsigned int)size * 8;
	uint64_t sign;

	if (bits >= 64)
		return x;
	sign = UINT64_C(1) << (bits - 1);
	x &= (sign << 1) - 1;
	return (x ^ sign) - sign;
}

bool model_cond(uint64_t x, uint64_t y, uint8_t op, bool is32)
{
	int64_t sx = (int64_t)x, sy = (int64_t)y;

	if (is32) {
		x = (uint32_t)x;
		y = (uint32_t)y;
		sx = (int32_t)(uint32_t)x;
		sy = (int32_t)(uint32_t)y;
	}
	switch (op) {
	case BPF_JEQ: return x == y;
	case BPF_JNE: return x != y;
	case BPF_JSET: return (x & y) != 0;
	case JMP_OP_NOT_SET: return (x & y) == 0;
	case BPF_JGT: return x > y;
	case BPF_JGE: return x >= y;
	case BPF_JLT: return x < y;
	case BPF_JLE: return x <= y;
	case BPF_JSGT: return sx > sy;
	case BPF_JSGE: return sx >= sy;
	case BPF_JSLT: return sx < sy;
	case BPF_JSLE: return sx <= sy;
	default: return false;
	}
}

bool model_has(const struct bounds *b, uint64_t x)
{
	return tnum_contains(b->var_off, x) && b->umin <= x && x <= b->umax &&
	       b->smin <= (int64_t)x && (int64_t)x <= b->smax &&
	       b->u32_min <= (uint32_t)x && (uint32_t)x <= b->u32_max &&
	       b->s32_min <= (int32_t)(uint32_t)x &&
	       (int32_t)(uint32_t)x <= b->s32_max;
}

uint64_t model_rand(struct model_rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void model_alpha(struct bounds *b, const uint64_t *v, int n)
{
	int i;

	bounds_const(b, v[0]);
	for (i = 1; i < n; i++) {
		uint64_t x = v[i];
		int64_t sx = (int64_t)x;
		uint32_t x32 = (uint32_t)x;
		int32_t s32 = (int32_t)x32;

		b->var_off = tnum_union(b->var_off, tnum_const(x));
		if (x < b->umin) b->umin = x;
		if (x > b->umax) b->umax = x;
		if (sx < b->smin) b->smin = sx;
		if (sx > b->smax) b->smax = sx;
		if (x32 < b->u32_min) b->u32_min = x32;
		if (x32 > b->u32_max) b->u32_max = x32;
		if (s32 < b->s32_min) b->s32_min = s32;
		if (s32 > b->s32_max) b->s32_max = s32;
	}
	bounds_sync(b);
}
