/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Soundness of the bounds domain: for every transfer function, every
 * concrete result of the operation applied to members of the abstract
 * inputs must be a member of the abstract result (all five views);
 * refinement must keep every pair that satisfies the condition;
 * scalar_branch_taken() must never claim an outcome some pair
 * contradicts; bounds_sync() must keep every member.
 *
 * Inputs:
 *  - small families: the images of 2^W values under several embeddings
 *    into 64 bits (low, sign-extended, around 2^31, 2^32, 2^63, top bits,
 *    bits spread over the word). Abstract values are the abstraction of
 *    every sub-tnum and every interval (in u64, s64, u32 and s32 order) of
 *    the image, plus tnum/interval combinations that are not tight, the
 *    way the kernel's states often are. Members are enumerated exactly
 *    within the image.
 *  - random 64-bit samples: random small sets around random structure,
 *    narrowed by random comparisons.
 * SCALAR_SOUND=full selects the large run (`make soundness`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalar_model.h"
#include "test.h"
#include "base/uapi.h"

#define MAX_IMG 64
#define MAX_VALS 2048

struct run {
	struct test_ctx *t;
	long checks;
	long failures;
	bool full;
};

struct family {
	const char *name;
	uint64_t img[MAX_IMG];
	int n_img;
	struct bounds *val;
	int n_val;
};

static void report(struct run *r, const char *what, const struct bounds *a,
		   const struct bounds *b, uint64_t x, uint64_t y,
		   const struct bounds *res, uint64_t got)
{
	char sa[320], sb[320], sr[320];

	if (r->failures++ >= 5)
		return;
	scalar_print(sa, sizeof(sa), a);
	scalar_print(sb, sizeof(sb), b);
	scalar_print(sr, sizeof(sr), res);
	CHECK_MSG(r->t, false, "%s: a=%s b=%s x=%#llx y=%#llx -> %#llx not in %s",
		  what, sa, sb, (unsigned long long)x, (unsigned long long)y,
		  (unsigned long long)got, sr);
}

static void expect(struct run *r, const char *what, const struct bounds *a,
		   const struct bounds *b, uint64_t x, uint64_t y,
		   const struct bounds *res, uint64_t got)
{
	r->checks++;
	if (!model_has(res, got))
		report(r, what, a, b, x, y, res, got);
}

/* ---- Families ------------------------------------------------------------- */

static uint64_t sext_w(uint64_t x, unsigned int w)
{
	return (uint64_t)((int64_t)(x << (64 - w)) >> (64 - w));
}

static void make_image(struct family *f, int kind, unsigned int w)
{
	static const char *const names[] = {
		"low", "sext", "s32edge", "u32edge", "s64edge", "top",
		"spread", "neg32",
	};
	uint64_t n = UINT64_C(1) << w, half = n / 2, i;

	f->name = names[kind];
	f->n_img = (int)n;
	for (i = 0; i < n; i++) {
		uint64_t v;

		switch (kind) {
		case 0: v = i; break;
		case 1: v = sext_w(i, w); break;
		case 2: v = 0x80000000ULL - half + i; break;
		case 3: v = 0x100000000ULL - half + i; break;
		case 4: v = 0x8000000000000000ULL - half + i; break;
		case 5: v = i << (64 - w); break;
		case 6: {
			/* bit k of i goes to positions 0, 31, 32, 63, 7, ... */
			static const int pos[] = { 0, 31, 32, 63, 7, 15 };
			unsigned int k;

			v = 0;
			for (k = 0; k < w; k++)
				v |= ((i >> k) & 1) << pos[k];
			break;
		}
		default: v = 0xffffffff80000000ULL - half + i; break;
		}
		f->img[i] = v;
	}
}

static void add_val(struct family *f, const struct bounds *b)
{
	int i;

	for (i = 0; i < f->n_val; i++)
		if (bounds_equal(&f->val[i], b))
			return;
	if (f->n_val < MAX_VALS)
		f->val[f->n_val++] = *b;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_s64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = (uint32_t)*(const uint64_t *)a;
	uint32_t y = (uint32_t)*(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_s32(const void *a, const void *b)
{
	int32_t x = (int32_t)(uint32_t)*(const uint64_t *)a;
	int32_t y = (int32_t)(uint32_t)*(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Abstract values: sub-tnums of the index space, intervals in four
 * orders, and some non-tight combinations of the two. */
static void make_values(struct family *f, unsigned int w, bool combos)
{
	int (*cmps[4])(const void *, const void *) = {
		cmp_u64, cmp_s64, cmp_u32, cmp_s32,
	};
	uint64_t full = (UINT64_C(1) << w) - 1, m, v, sorted[MAX_IMG];
	uint64_t set[MAX_IMG];
	struct bounds tn[256];
	int n_tn = 0, o, lo, hi, k, first_interval;

	f->n_val = 0;
	for (m = 0; m <= full; m++) {
		uint64_t free_bits = full & ~m;

		v = 0;
		do {
			uint64_t s = 0;
			int n = 0;

			do {
				set[n++] = f->img[v | s];
				s = (s - m) & m;
			} while (s);
			model_alpha(&tn[n_tn], set, n);
			add_val(f, &tn[n_tn]);
			n_tn++;
			v = (v - free_bits) & free_bits;
		} while (v);
	}
	first_interval = f->n_val;
	for (o = 0; o < 4; o++) {
		memcpy(sorted, f->img, sizeof(uint64_t) * (size_t)f->n_img);
		qsort(sorted, (size_t)f->n_img, sizeof(uint64_t), cmps[o]);
		for (lo = 0; lo < f->n_img; lo++)
			for (hi = lo; hi < f->n_img; hi++) {
				struct bounds b;

				model_alpha(&b, sorted + lo, hi - lo + 1);
				add_val(f, &b);
			}
	}
	if (!combos)
		return;
	/* Meet of a tnum-shaped and an interval-shaped value, not synced
	 * to tightness first: var_off from one, ranges from the other. */
	for (k = 0; k < n_tn; k++) {
		int j = first_interval + (k * 7919) % (f->n_val - first_interval);
		struct bounds b = f->val[j];
		int x, any = 0;

		b.var_off = tnum_intersect(b.var_off, tn[k].var_off);
		if (!tnum_overlap(f->val[j].var_off, tn[k].var_off))
			continue;
		bounds_sync(&b);
		for (x = 0; x < f->n_img; x++)
			any |= model_has(&b, f->img[x]);
		if (any && !bounds_check(&b, NULL, 0))
			add_val(f, &b);
	}
}

/* Members of b within the image. */
static int members(const struct family *f, const struct bounds *b,
		   uint64_t *out)
{
	int i, n = 0;

	for (i = 0; i < f->n_img; i++)
		if (model_has(b, f->img[i]))
			out[n++] = f->img[i];
	return n;
}

/* ---- Checks on one pair / one value ------------------------------------ */

static const uint8_t alu_ops[] = {
	BPF_ADD, BPF_SUB, BPF_MUL, BPF_AND, BPF_OR, BPF_XOR,
	BPF_LSH, BPF_RSH, BPF_ARSH, BPF_DIV, BPF_MOD,
};

static void check_alu(struct run *r, const struct bounds *a, const uint64_t *ma,
		      int na, const struct bounds *b, const uint64_t *mb, int nb,
		      uint8_t op, bool alu32, int16_t off)
{
	struct bounds res = *a, zero, zero_in;
	bool forked;
	int x, y;

	forked = scalar_alu_fork(&res, b, op, &zero);
	if (forked) {
		/* The two halves must cover the input. */
		for (x = 0; x < na; x++) {
			r->checks++;
			if (!model_has(&res, ma[x]) && !model_has(&zero, ma[x]))
				report(r, "fork", a, b, ma[x], 0, &res, ma[x]);
		}
		zero_in = zero;
		scalar_alu(&zero, b, op, alu32, off, NULL);
	}
	scalar_alu(&res, b, op, alu32, off, NULL);
	for (x = 0; x < na; x++) {
		/* After a fork each member went down one of the paths. */
		const struct bounds *out =
			forked && model_has(&zero_in, ma[x]) ? &zero : &res;

		for (y = 0; y < nb; y++)
			expect(r, "alu", a, b, ma[x], mb[y], out,
			       model_alu(ma[x], mb[y], op, alu32, off));
	}
}

static void check_branch(struct run *r, const struct bounds *a,
			 const uint64_t *ma, int na, const struct bounds *b,
			 const uint64_t *mb, int nb, uint8_t op, bool is32)
{
	struct bounds ra = *a, rb = *b;
	int taken = scalar_branch_taken(a, b, op, is32), x, y;

	scalar_branch_refine(&ra, &rb, op, is32, NULL);
	for (x = 0; x < na; x++) {
		for (y = 0; y < nb; y++) {
			bool holds = model_cond(ma[x], mb[y], op, is32);

			r->checks++;
			if (taken >= 0 && holds != taken)
				report(r, "branch_taken", a, b, ma[x], mb[y], a,
				       (uint64_t)taken);
			if (!holds)
				continue;
			expect(r, "refine a", a, b, ma[x], mb[y], &ra, ma[x]);
			expect(r, "refine b", a, b, ma[x], mb[y], &rb, mb[y]);
		}
	}
}

/* `if rX OP rX`: one register on both sides. */
static void check_branch_self(struct run *r, const struct bounds *a,
			      const uint64_t *ma, int na, uint8_t op, bool is32)
{
	struct bounds ra = *a;
	int taken = scalar_branch_taken(a, a, op, is32), x;

	scalar_branch_refine(&ra, &ra, op, is32, NULL);
	for (x = 0; x < na; x++) {
		bool holds = model_cond(ma[x], ma[x], op, is32);

		r->checks++;
		if (taken >= 0 && holds != taken)
			report(r, "branch_taken self", a, a, ma[x], ma[x], a,
			       (uint64_t)taken);
		if (holds)
			expect(r, "refine self", a, a, ma[x], ma[x], &ra, ma[x]);
	}
}

static void check_unary(struct run *r, const struct bounds *a,
			const uint64_t *ma, int na)
{
	static const int bits[] = { 16, 32, 64 };
	struct bounds res;
	int x, k, mode;

	for (k = 0; k < 2; k++) {
		res = *a;
		scalar_neg(&res, k);
		for (x = 0; x < na; x++)
			expect(r, "neg", a, a, ma[x], 0, &res, model_neg(ma[x], k));
	}
	for (mode = 0; mode < 3; mode++) {
		for (k = 0; k < 3; k++) {
			bool to_be = mode == 1, bswap = mode == 2;

			res = *a;
			scalar_end(&res, bits[k], to_be, bswap);
			for (x = 0; x < na; x++)
				expect(r, "end", a, a, ma[x], (uint64_t)bits[k], &res,
				       model_end(ma[x], bits[k], to_be, bswap));
		}
	}
	for (k = 1; k <= 4; k *= 2) {
		res = *a;
		bounds_sext(&res, k);
		for (x = 0; x < na; x++)
			expect(r, "sext", a, a, ma[x], (uint64_t)k, &res,
			       model_sext(ma[x], k));
		res = *a;
		bounds_truncate(&res, k);
		for (x = 0; x < na; x++)
			expect(r, "truncate", a, a, ma[x], (uint64_t)k, &res,
			       ma[x] & ((UINT64_C(1) << (8 * k)) - 1));
		if (k == 4)
			continue;
		res = *a;
		bounds_sext32(&res, k);
		for (x = 0; x < na; x++)
			expect(r, "sext32", a, a, ma[x], (uint64_t)k, &res,
			       (uint32_t)model_sext(ma[x], k));
	}
	res = *a;
	bounds_zext32(&res);
	for (x = 0; x < na; x++)
		expect(r, "zext32", a, a, ma[x], 0, &res, (uint32_t)ma[x]);
}

/* Mixed views (var_off of one value, ranges of another): sync keeps
 * every member of the mix. */
static void check_sync_mix(struct run *r, const struct family *f,
			   const struct bounds *a, const struct bounds *b)
{
	struct bounds mix = *a, res;
	int x;

	mix.umin = b->umin;
	mix.umax = b->umax;
	mix.s32_min = b->s32_min;
	mix.s32_max = b->s32_max;
	res = mix;
	bounds_sync(&res);
	for (x = 0; x < f->n_img; x++)
		if (model_has(&mix, f->img[x]))
			expect(r, "sync", &mix, b, f->img[x], 0, &res, f->img[x]);
	/* bounds_within: cur within old means no new members */
	if (bounds_within(a, b))
		for (x = 0; x < f->n_img; x++)
			if (model_has(b, f->img[x]))
				expect(r, "within", a, b, f->img[x], 0, a, f->img[x]);
}

/* ---- Driving the families ------------------------------------------------ */

static const uint8_t jmp_ops[] = {
	BPF_JEQ, BPF_JNE, BPF_JSET, JMP_OP_NOT_SET, BPF_JGT, BPF_JGE,
	BPF_JLT, BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE,
};

static void check_pairs(struct run *r, const struct family *fa,
			const struct family *fb, int stride)
{
	uint64_t ma[MAX_IMG], mb[MAX_IMG];
	int i, j, o, w;

	for (i = 0; i < fa->n_val; i++) {
		int na = members(fa, &fa->val[i], ma);

		for (j = (i % stride); j < fb->n_val; j += stride) {
			int nb = members(fb, &fb->val[j], mb);

			for (w = 0; w < 2; w++) {
				for (o = 0; o < 6; o++)
					check_alu(r, &fa->val[i], ma, na, &fb->val[j],
						  mb, nb, alu_ops[o], w, 0);
				for (o = 0; o < 12; o++)
					check_branch(r, &fa->val[i], ma, na,
						     &fb->val[j], mb, nb, jmp_ops[o], w);
			}
			if (fa == fb)
				check_sync_mix(r, fa, &fa->val[i], &fb->val[j]);
		}
	}
}

/* Shifts by constants (and by non-constants), division and modulo,
 * unary operations, self-comparisons. */
static void check_singles(struct run *r, const struct family *f,
			  const struct family *low)
{
	uint64_t ma[MAX_IMG], mb[MAX_IMG];
	int i, j, o, w, k;

	for (i = 0; i < f->n_val; i++) {
		int na = members(f, &f->val[i], ma);

		check_unary(r, &f->val[i], ma, na);
		for (w = 0; w < 2; w++) {
			for (o = 0; o < 12; o++)
				check_branch_self(r, &f->val[i], ma, na, jmp_ops[o], w);
			for (k = 0; k < 66; k += (k < 8 || k > 28) ? 1 : 7) {
				struct bounds c;
				uint64_t kv = (uint64_t)k;

				bounds_const(&c, kv);
				for (o = 6; o < 9; o++)
					check_alu(r, &f->val[i], ma, na, &c, &kv, 1,
						  alu_ops[o], w, 0);
			}
			/* non-constant amounts, div and mod by ranges */
			for (j = 0; j < low->n_val; j += 17) {
				int nb = members(low, &low->val[j], mb);

				for (o = 6; o < 11; o++) {
					check_alu(r, &f->val[i], ma, na, &low->val[j],
						  mb, nb, alu_ops[o], w, 0);
					if (o >= 9)
						check_alu(r, &f->val[i], ma, na,
							  &low->val[j], mb, nb,
							  alu_ops[o], w, 1);
				}
			}
		}
	}
}

static void run_families(struct run *r, unsigned int w, int n_kinds,
			 int stride, bool combos)
{
	struct family *f = calloc((size_t)n_kinds, sizeof(*f));
	int k;

	for (k = 0; k < n_kinds; k++) {
		f[k].val = malloc(sizeof(struct bounds) * MAX_VALS);
		make_image(&f[k], k, w);
		make_values(&f[k], w, combos);
	}
	for (k = 0; k < n_kinds; k++) {
		check_pairs(r, &f[k], &f[k], stride);
		if (k)
			check_pairs(r, &f[k], &f[0], stride > 1 ? stride * 2 : 1);
		check_singles(r, &f[k], &f[0]);
	}
	for (k = 0; k < n_kinds; k++)
		free(f[k].val);
	free(f);
}

/* ---- Random 64-bit samples ---------------------------------------------- */

static uint64_t random_base(struct model_rng *g)
{
	static const uint64_t edges[] = {
		0, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, UINT64_MAX,
		0xffffffff80000000ULL, 0xffff,
	};
	uint64_t v = model_rand(g);

	switch (model_rand(g) % 4) {
	case 0: return edges[model_rand(g) % 10] + (model_rand(g) % 64) - 32;
	case 1: return v >> (model_rand(g) % 64);
	case 2: return (uint64_t)((int64_t)v >> (model_rand(g) % 64));
	default: return v;
	}
}

/* A random set around a random base, its abstraction, then narrowed by a
 * random comparison with a constant; members are the set's survivors. */
static int random_value(struct model_rng *g, struct bounds *b, uint64_t *m)
{
	uint64_t set[8], base = random_base(g), spread;
	int n = 1 + (int)(model_rand(g) % 8), i, k = 0;
	struct bounds c;
	uint8_t op;

	spread = model_rand(g) % 3 == 0 ? model_rand(g) :
		 (UINT64_C(1) << (model_rand(g) % 40)) - 1;
	for (i = 0; i < n; i++)
		set[i] = model_rand(g) % 2 ? base + (model_rand(g) & spread)
					   : base ^ (model_rand(g) & spread);
	model_alpha(b, set, n);
	if (model_rand(g) % 2) {
		op = jmp_ops[model_rand(g) % 12];
		bounds_const(&c, set[model_rand(g) % n] +
				 (uint64_t)(model_rand(g) % 3) - 1);
		scalar_branch_refine(b, &c, op, model_rand(g) % 4 == 0, NULL);
	}
	for (i = 0; i < n; i++)
		if (model_has(b, set[i]))
			m[k++] = set[i];
	return k;
}

static void run_random(struct run *r, long rounds)
{
	struct model_rng g = { 0xb0b5 };
	uint64_t ma[8], mb[8];
	struct bounds a, b, c;
	long i;
	int o, w, na, nb;

	for (i = 0; i < rounds; i++) {
		na = random_value(&g, &a, ma);
		nb = random_value(&g, &b, mb);
		if (!na || !nb)
			continue;
		for (w = 0; w < 2; w++) {
			for (o = 0; o < 6; o++)
				check_alu(r, &a, ma, na, &b, mb, nb, alu_ops[o], w, 0);
			for (o = 0; o < 12; o++)
				check_branch(r, &a, ma, na, &b, mb, nb, jmp_ops[o], w);
			bounds_const(&c, mb[0] & 63);
			for (o = 6; o < 9; o++)
				check_alu(r, &a, ma, na, &c, mb, 1, alu_ops[o], w, 0);
			/* against a constant, as the K forms do */
			bounds_const(&c, mb[0]);
			for (o = 0; o < 12; o++)
				check_branch(r, &a, ma, na, &c, mb, 1, jmp_ops[o], w);
		}
		if (i % 8 == 0)
			check_unary(r, &a, ma, na);
	}
}

static void test_soundness(struct test_ctx *t)
{
	bool full = getenv("SCALAR_SOUND") && !strcmp(getenv("SCALAR_SOUND"), "full");
	struct run r = { t, 0, 0, full };
	long families;

	if (full) {
		/* every pair of abstract values at W=3 and W=4 */
		run_families(&r, 3, 8, 1, true);
		run_families(&r, 4, 8, 1, true);
	} else {
		/* every pair of abstract values at W=3 */
		run_families(&r, 3, 8, 1, true);
	}
	families = r.checks;
	run_random(&r, full ? 400000 : 15000);
	printf("  bounds soundness: %ld checks (%ld on small-width families, "
	       "%ld on random 64-bit values), %ld violations\n",
	       r.checks, families, r.checks - families, r.failures);
	CHECK(t, r.failures == 0);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_soundness);
	return test_finish(&t);
}
