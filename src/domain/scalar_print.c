/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Bounds in the kernel's log format (print_scalar_ranges and the scalar
 * part of print_reg_state in Linux 6.18's kernel/bpf/log.c).
 *
 * Numbers: unsigned ones in decimal up to 65535, signed ones in decimal
 * within [-32768, 32767], hex otherwise. A signed 32-bit bound that goes
 * to hex is shown as its unsigned 32-bit pattern (sign-extending it would
 * read as a different number). Fields at their natural extreme are left
 * out; a field is merged into an earlier one of the same parity (min with
 * min, max with max) when the printed number and the sign agree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "scalar.h"

/* Appends like snprintf into a fixed buffer, tracking the full length. */
struct out {
	char *buf;
	size_t sz;
	size_t len;
};

static void emit(struct out *o, const char *s)
{
	size_t n = strlen(s);

	if (o->len < o->sz) {
		size_t room = o->sz - o->len - 1;

		memcpy(o->buf + o->len, s, n < room ? n : room);
		o->buf[o->len + (n < room ? n : room)] = '\0';
	}
	o->len += n;
}

static bool snum_is_decimal(int64_t v)
{
	return v >= -32768 && v <= 32767;
}

static void fmt_unum(char *tmp, size_t sz, uint64_t v)
{
	if (v <= 65535)
		snprintf(tmp, sz, "%" PRIu64, v);
	else
		snprintf(tmp, sz, "0x%" PRIx64, v);
}

static void fmt_snum(char *tmp, size_t sz, int64_t v)
{
	if (snum_is_decimal(v))
		snprintf(tmp, sz, "%" PRId64, v);
	else
		snprintf(tmp, sz, "0x%" PRIx64, (uint64_t)v);
}

int scalar_print_const(char *buf, size_t sz, uint64_t v)
{
	char tmp[32];

	fmt_snum(tmp, sizeof(tmp), (int64_t)v);
	return snprintf(buf, sz, "%s", tmp);
}

struct field {
	const char *name;
	uint64_t val;
	bool omit;
	bool is_signed;
};

/* A 32-bit signed bound as the kernel stores it for printing. */
static uint64_t s32_print_val(int32_t v)
{
	return snum_is_decimal(v) ? (uint64_t)(int64_t)v : (uint64_t)(uint32_t)v;
}

static void print_ranges(struct out *o, const struct bounds *b,
			 const char **sep)
{
	struct field f[8] = {
		{ "smin", (uint64_t)b->smin, b->smin == INT64_MIN, true },
		{ "smax", (uint64_t)b->smax, b->smax == INT64_MAX, true },
		{ "umin", b->umin, b->umin == 0, false },
		{ "umax", b->umax, b->umax == UINT64_MAX, false },
		{ "smin32", s32_print_val(b->s32_min), b->s32_min == INT32_MIN,
		  true },
		{ "smax32", s32_print_val(b->s32_max), b->s32_max == INT32_MAX,
		  true },
		{ "umin32", b->u32_min, b->u32_min == 0, false },
		{ "umax32", b->u32_max, b->u32_max == UINT32_MAX, false },
	};
	char tmp[32];
	int i, j;

	for (i = 0; i < 8; i++) {
		bool neg;

		if (f[i].omit)
			continue;
		neg = f[i].is_signed && (int64_t)f[i].val < 0;
		emit(o, *sep);
		*sep = ",";
		emit(o, f[i].name);
		emit(o, "=");
		for (j = i + 2; j < 8; j += 2) {
			bool neg2 = f[j].is_signed && (int64_t)f[j].val < 0;

			if (f[j].omit || f[j].val != f[i].val || neg2 != neg)
				continue;
			f[j].omit = true;
			emit(o, f[j].name);
			emit(o, "=");
		}
		if (f[i].is_signed)
			fmt_snum(tmp, sizeof(tmp), (int64_t)f[i].val);
		else
			fmt_unum(tmp, sizeof(tmp), f[i].val);
		emit(o, tmp);
	}
}

int bounds_print(char *buf, size_t sz, const struct bounds *b)
{
	struct out o = { buf, sz, 0 };
	const char *sep = "";

	if (sz)
		buf[0] = '\0';
	print_ranges(&o, b, &sep);
	if (!tnum_is_unknown(b->var_off)) {
		char tmp[48];

		tnum_print(tmp, sizeof(tmp), b->var_off);
		emit(&o, sep);
		emit(&o, "var_off=");
		emit(&o, tmp);
	}
	return (int)o.len;
}

int scalar_print(char *buf, size_t sz, const struct bounds *b)
{
	char inner[320];

	if (tnum_is_const(b->var_off))
		return scalar_print_const(buf, sz, b->var_off.value);
	bounds_print(inner, sizeof(inner), b);
	return snprintf(buf, sz, "scalar(%s)", inner);
}
