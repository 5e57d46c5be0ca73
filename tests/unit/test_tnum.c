/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Soundness (and, where the operation is exact, exactness) of the tnum
 * operations:
 *  - exhaustively over every tnum of a small width W, embedded in 64-bit
 *    values in several ways (low bits, top bits, straddling bit 31/32,
 *    with the high bits all ones, sign-extended) so that carries, wrap
 *    around and sign handling of the real 64-bit code are exercised;
 *  - over random 64-bit tnums with random members.
 * Every check asks "is the concrete result a member of the abstract
 * result?". SCALAR_SOUND=full selects the large run (`make soundness`).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scalar_model.h"
#include "test.h"
#include "domain/tnum.h"

struct run {
	struct test_ctx *t;
	long checks;
	long failures;
	unsigned int width;	/* W */
	long random_rounds;
};

static void fail(struct run *r, const char *what, struct tnum a,
		 struct tnum b, uint64_t x, uint64_t y, struct tnum res,
		 uint64_t got)
{
	if (r->failures++ < 5)
		CHECK_MSG(r->t, false,
			  "%s: a=(%#llx;%#llx) b=(%#llx;%#llx) x=%#llx y=%#llx "
			  "-> %#llx not in (%#llx;%#llx)",
			  what, (unsigned long long)a.value,
			  (unsigned long long)a.mask,
			  (unsigned long long)b.value,
			  (unsigned long long)b.mask, (unsigned long long)x,
			  (unsigned long long)y, (unsigned long long)got,
			  (unsigned long long)res.value,
			  (unsigned long long)res.mask);
}

static void expect_in(struct run *r, const char *what, struct tnum a,
		      struct tnum b, uint64_t x, uint64_t y, struct tnum res,
		      uint64_t got)
{
	r->checks++;
	if (!tnum_contains(res, got))
		fail(r, what, a, b, x, y, res, got);
}

/* ---- Small tnums and their embeddings --------------------------------- */

/* A W-bit tnum and how it sits in a 64-bit value. */
struct emb {
	const char *name;
	unsigned int shift;	/* W bits moved up by this much */
	uint64_t fill;		/* known-one bits outside the W bits */
	bool sext;		/* replicate bit W-1 upwards */
};

static struct tnum embed(const struct emb *e, unsigned int w, uint64_t v,
			 uint64_t m)
{
	uint64_t high = ~((UINT64_C(1) << w) - 1);

	if (e->sext) {
		if (m >> (w - 1) & 1)
			m |= high;
		else if (v >> (w - 1) & 1)
			v |= high;
		return TNUM(v, m);
	}
	return TNUM((v << e->shift) | e->fill, m << e->shift);
}

/* Members of a W-bit tnum (v, m): every v | s with s a submask of m. */
static int members(uint64_t v, uint64_t m, uint64_t *out)
{
	uint64_t s = 0;
	int n = 0;

	do {
		out[n++] = v | s;
		s = (s - m) & m;
	} while (s);
	return n;
}

/* All W-bit tnums. */
static int all_tnums(unsigned int w, uint64_t (*vm)[2])
{
	uint64_t full = (UINT64_C(1) << w) - 1, m, v;
	int n = 0;

	for (m = 0; m <= full; m++) {
		uint64_t free_bits = full & ~m;

		v = 0;
		do {
			vm[n][0] = v;
			vm[n][1] = m;
			n++;
			v = (v - free_bits) & free_bits;
		} while (v);
	}
	return n;
}

typedef struct tnum (*binop)(struct tnum, struct tnum);

struct named_op {
	const char *name;
	binop abs;
	uint8_t op;	/* model_alu op */
};

static struct tnum t_add(struct tnum a, struct tnum b) { return tnum_add(a, b); }
static struct tnum t_sub(struct tnum a, struct tnum b) { return tnum_sub(a, b); }
static struct tnum t_mul(struct tnum a, struct tnum b) { return tnum_mul(a, b); }
static struct tnum t_and(struct tnum a, struct tnum b) { return tnum_and(a, b); }
static struct tnum t_or(struct tnum a, struct tnum b) { return tnum_or(a, b); }
static struct tnum t_xor(struct tnum a, struct tnum b) { return tnum_xor(a, b); }

static const struct named_op binops[] = {
	{ "add", t_add, 0x00 }, { "sub", t_sub, 0x10 }, { "mul", t_mul, 0x20 },
	{ "and", t_and, 0x50 }, { "or", t_or, 0x40 }, { "xor", t_xor, 0xa0 },
};

static const struct emb embs[] = {
	{ "low", 0, 0, false },
	{ "top", 0, 0, false },		/* shift set at run time: 64 - W */
	{ "mid32", 0, 0, false },	/* shift set at run time: 32 - W/2 */
	{ "ones", 0, 0, false },	/* high bits known one */
	{ "sext", 0, 0, true },
};

static void setup_embs(unsigned int w, struct emb *e)
{
	memcpy(e, embs, sizeof(embs));
	e[1].shift = 64 - w;
	e[2].shift = 32 - w / 2;
	e[3].fill = ~((UINT64_C(1) << w) - 1);
}

/* Sign-extended embedding of a W-bit value. */
static uint64_t sext_w(uint64_t x, unsigned int w)
{
	return (uint64_t)((int64_t)(x << (64 - w)) >> (64 - w));
}

static uint64_t emb_member(const struct emb *e, unsigned int w, uint64_t x)
{
	if (e->sext)
		return sext_w(x, w);
	return (x << e->shift) | e->fill;
}

static void exhaustive_binops(struct run *r)
{
	unsigned int w = r->width;
	int n_emb = (int)(sizeof(embs) / sizeof(embs[0]));
	uint64_t (*vm)[2] = malloc(sizeof(*vm) * 1000);
	uint64_t *ma = malloc(sizeof(uint64_t) << w);
	uint64_t *mb = malloc(sizeof(uint64_t) << w);
	struct emb e[5];
	int n, i, j, k, ea, eb, o;

	setup_embs(w, e);
	n = all_tnums(w, vm);
	for (ea = 0; ea < n_emb; ea++) {
		for (eb = 0; eb < n_emb; eb++) {
			/* every embedding with itself and with "low" */
			if (ea != eb && eb != 0 && ea != 0)
				continue;
			for (i = 0; i < n; i++) {
				struct tnum a = embed(&e[ea], w, vm[i][0], vm[i][1]);
				int na = members(vm[i][0], vm[i][1], ma);

				for (k = 0; k < na; k++)
					ma[k] = emb_member(&e[ea], w, ma[k]);
				for (j = 0; j < n; j++) {
					struct tnum b = embed(&e[eb], w, vm[j][0],
							      vm[j][1]);
					int nb = members(vm[j][0], vm[j][1], mb);
					int x, y;

					for (k = 0; k < nb; k++)
						mb[k] = emb_member(&e[eb], w, mb[k]);
					for (o = 0; o < 6; o++) {
						struct tnum res = binops[o].abs(a, b);

						for (x = 0; x < na; x++)
							for (y = 0; y < nb; y++)
								expect_in(r, binops[o].name, a, b,
									  ma[x], mb[y], res,
									  model_alu(ma[x], mb[y], binops[o].op,
										    false, 0));
					}
				}
			}
		}
	}
	free(vm);
	free(ma);
	free(mb);
}

/* Shifts, negation, casts, byte swaps and subregister helpers. */
static void exhaustive_unary(struct run *r)
{
	unsigned int w = r->width;
	uint64_t (*vm)[2] = malloc(sizeof(*vm) * 1000);
	uint64_t *ma = malloc(sizeof(uint64_t) << w);
	struct emb e[5];
	int n, i, k, ea, x;
	static const uint8_t sizes[] = { 1, 2, 4, 8 };
	static const int bits[] = { 16, 32, 64 };

	setup_embs(w, e);
	n = all_tnums(w, vm);
	for (ea = 0; ea < 5; ea++) {
		for (i = 0; i < n; i++) {
			struct tnum a = embed(&e[ea], w, vm[i][0], vm[i][1]);
			struct tnum none = TNUM(0, 0);
			int na = members(vm[i][0], vm[i][1], ma);

			for (k = 0; k < na; k++)
				ma[k] = emb_member(&e[ea], w, ma[k]);
			for (k = 0; k < 64; k++) {
				struct tnum l = tnum_lshift(a, (uint8_t)k);
				struct tnum rr = tnum_rshift(a, (uint8_t)k);
				struct tnum ar = tnum_arshift(a, (uint8_t)k, 64);
				struct tnum ar32 = tnum_arshift(a, (uint8_t)(k & 31), 32);

				for (x = 0; x < na; x++) {
					uint64_t v = ma[x];

					expect_in(r, "lshift", a, none, v, (uint64_t)k, l, v << k);
					expect_in(r, "rshift", a, none, v, (uint64_t)k, rr, v >> k);
					expect_in(r, "arshift", a, none, v, (uint64_t)k, ar,
						  model_alu(v, (uint64_t)k, 0xc0, false, 0));
					expect_in(r, "arshift32", a, none, v, (uint64_t)k, ar32,
						  model_alu(v, (uint64_t)(k & 31), 0xc0, true, 0));
				}
			}
			for (k = 0; k < 4; k++) {
				struct tnum c = tnum_cast(a, sizes[k]);

				for (x = 0; x < na; x++)
					expect_in(r, "cast", a, none, ma[x], sizes[k], c,
						  sizes[k] == 8 ? ma[x] :
						  ma[x] & ((UINT64_C(1) << (8 * sizes[k])) - 1));
			}
			for (k = 0; k < 3; k++) {
				struct tnum s = tnum_bswap(a, bits[k]);

				for (x = 0; x < na; x++)
					expect_in(r, "bswap", a, none, ma[x], (uint64_t)bits[k], s,
						  model_end(ma[x], bits[k], true, false));
			}
			for (x = 0; x < na; x++) {
				uint64_t v = ma[x];

				expect_in(r, "neg", a, none, v, 0, tnum_neg(a), 0 - v);
				expect_in(r, "subreg", a, none, v, 0, tnum_subreg(a),
					  (uint32_t)v);
				expect_in(r, "clear_subreg", a, none, v, 0,
					  tnum_clear_subreg(a), v & ~(uint64_t)UINT32_MAX);
				expect_in(r, "const_subreg", a, none, v, 0,
					  tnum_const_subreg(a, 0x1234),
					  (v & ~(uint64_t)UINT32_MAX) | 0x1234);
			}
		}
	}
	free(vm);
	free(ma);
}

static bool has_member(const uint64_t *m, int n, uint64_t v)
{
	int i;

	for (i = 0; i < n; i++)
		if (m[i] == v)
			return true;
	return false;
}

/*
 * Set operations and predicates, which are exact on tnums: in() is set
 * inclusion, overlap() is non-empty intersection, intersect() of
 * overlapping tnums is the intersection, union() contains both.
 */
static void exhaustive_sets(struct run *r)
{
	unsigned int w = r->width;
	uint64_t (*vm)[2] = malloc(sizeof(*vm) * 1000);
	uint64_t *ma = malloc(sizeof(uint64_t) << w);
	uint64_t *mb = malloc(sizeof(uint64_t) << w);
	struct emb e[5];
	int n, i, j, x, ea;

	setup_embs(w, e);
	n = all_tnums(w, vm);
	for (ea = 0; ea < 5; ea++) {
		for (i = 0; i < n; i++) {
			struct tnum a = embed(&e[ea], w, vm[i][0], vm[i][1]);
			int na = members(vm[i][0], vm[i][1], ma);

			for (x = 0; x < na; x++)
				ma[x] = emb_member(&e[ea], w, ma[x]);
			for (j = 0; j < n; j++) {
				struct tnum b = embed(&e[ea], w, vm[j][0], vm[j][1]);
				int nb = members(vm[j][0], vm[j][1], mb), common = 0;
				bool subset = true;
				struct tnum u = tnum_union(a, b), in;

				for (x = 0; x < nb; x++)
					mb[x] = emb_member(&e[ea], w, mb[x]);
				for (x = 0; x < nb; x++) {
					bool both = has_member(ma, na, mb[x]);

					subset &= both;
					common += both;
					expect_in(r, "union", a, b, 0, mb[x], u, mb[x]);
				}
				for (x = 0; x < na; x++)
					expect_in(r, "union", a, b, ma[x], 0, u, ma[x]);
				r->checks += 2;
				if (e[ea].sext) {
					/* The embedding's tnums hold more than the
					 * enumerated members: inclusion and overlap
					 * are only exact on the others. */
					continue;
				}
				if (tnum_in(a, b) != subset)
					fail(r, "in", a, b, 0, 0, a, 0);
				if (tnum_overlap(a, b) != (common > 0))
					fail(r, "overlap", a, b, 0, 0, a, 0);
				if (!common)
					continue;
				in = tnum_intersect(a, b);
				for (x = 0; x < nb; x++) {
					r->checks++;
					if (tnum_contains(in, mb[x]) !=
					    has_member(ma, na, mb[x]))
						fail(r, "intersect", a, b, 0, mb[x], in, mb[x]);
				}
			}
		}
	}
	free(vm);
	free(ma);
	free(mb);
}

/* tnum_range contains its range; tnum_step is the next member. */
static void exhaustive_range_step(struct run *r)
{
	static const uint64_t bases[] = {
		0, 0x7fffffe0, 0xffffffe0, 0x7fffffffffffffe0ULL,
		0xffffffffffffffc0ULL, 0x123456789abcde00ULL,
	};
	unsigned int w = r->width + 2;
	uint64_t span = UINT64_C(1) << w, lo, hi, z;
	uint64_t (*vm)[2] = malloc(sizeof(*vm) * 1000);
	uint64_t *ma = malloc(sizeof(uint64_t) << r->width);
	size_t bi;
	int n, i, na;

	for (bi = 0; bi < sizeof(bases) / sizeof(bases[0]); bi++) {
		for (lo = 0; lo < span; lo++) {
			for (hi = lo; hi < span; hi++) {
				struct tnum t = tnum_range(bases[bi] + lo,
							   bases[bi] + hi);

				r->checks += 2;
				if (!tnum_contains(t, bases[bi] + lo) ||
				    !tnum_contains(t, bases[bi] + hi))
					fail(r, "range", t, t, lo, hi, t, lo);
			}
		}
	}
	/* tnum_step against brute force, in the low and top embeddings. */
	n = all_tnums(r->width, vm);
	for (i = 0; i < n; i++) {
		unsigned int sh;

		for (sh = 0; sh <= 64 - r->width; sh += 64 - r->width) {
			struct tnum t = TNUM(vm[i][0] << sh, vm[i][1] << sh);
			uint64_t tmax = t.value | t.mask;

			na = members(vm[i][0], vm[i][1], ma);
			for (z = 0; z < (UINT64_C(1) << r->width); z++) {
				uint64_t zz = z << sh, want = tmax, got;
				int x;

				if (zz < t.value) {
					want = t.value;
				} else {
					for (x = 0; x < na; x++) {
						uint64_t m = ma[x] << sh;

						if (m > zz && m < want)
							want = m;
					}
				}
				got = tnum_step(t, zz);
				r->checks++;
				if (got != want)
					fail(r, "step", t, t, zz, want, t, got);
			}
		}
	}
	free(vm);
	free(ma);
}

/* ---- Random 64-bit tnums ---------------------------------------------- */

static struct tnum random_tnum(struct model_rng *g)
{
	uint64_t m = model_rand(g);
	int k = (int)(model_rand(g) % 5);

	while (k-- > 0)
		m &= model_rand(g);	/* from dense to sparse masks */
	if (model_rand(g) % 4 == 0)
		m &= model_rand(g) % 64 ? ~(uint64_t)0 >> (model_rand(g) % 64) : 0;
	return TNUM(model_rand(g) & ~m, m);
}

static uint64_t random_member(struct model_rng *g, struct tnum t)
{
	return t.value | (model_rand(g) & t.mask);
}

static void random_ops(struct run *r)
{
	struct model_rng g = { 0x5eed };
	long round;
	int k, o;

	for (round = 0; round < r->random_rounds; round++) {
		struct tnum a = random_tnum(&g), b = random_tnum(&g);
		uint8_t sh = (uint8_t)(model_rand(&g) % 64);
		struct tnum res[6];

		for (o = 0; o < 6; o++)
			res[o] = binops[o].abs(a, b);
		for (k = 0; k < 8; k++) {
			uint64_t x = random_member(&g, a), y = random_member(&g, b);

			for (o = 0; o < 6; o++)
				expect_in(r, binops[o].name, a, b, x, y, res[o],
					  model_alu(x, y, binops[o].op, false, 0));
			expect_in(r, "neg", a, b, x, y, tnum_neg(a), 0 - x);
			expect_in(r, "lshift", a, b, x, sh, tnum_lshift(a, sh), x << sh);
			expect_in(r, "rshift", a, b, x, sh, tnum_rshift(a, sh), x >> sh);
			expect_in(r, "arshift", a, b, x, sh, tnum_arshift(a, sh, 64),
				  model_alu(x, sh, 0xc0, false, 0));
			expect_in(r, "union", a, b, x, y, tnum_union(a, b), y);
			if (tnum_overlap(a, b)) {
				/* a common member: the known bits of both,
				 * anything where both are unknown */
				uint64_t c = a.value | b.value |
					     (x & a.mask & b.mask);

				expect_in(r, "intersect", a, b, c, c,
					  tnum_intersect(a, b), c);
			}
		}
	}
}

/* ---- Known values from the kernel ------------------------------------ */

static void test_kernel_examples(struct test_ctx *t)
{
	char buf[64];
	struct tnum m = tnum_mul(TNUM(0x1, 0xfe), tnum_const(6));

	/* `r4 |= 1; r4 *= 6` on a u8 prints var_off=(0x2; 0x7fc) on 6.18 */
	CHECK_INT(t, m.value, 0x2);
	CHECK_INT(t, m.mask, 0x7fc);
	m = tnum_mul(TNUM(0, 0xff), TNUM(0, 0xff));
	CHECK_INT(t, m.value, 0);
	CHECK_INT(t, m.mask, 0xffff);
	tnum_print(buf, sizeof(buf), TNUM(0, 0xff));
	CHECK_STR(t, buf, "(0x0; 0xff)");
	tnum_print(buf, sizeof(buf), TNUM(0xffffffffffffff00ULL, 0xff));
	CHECK_STR(t, buf, "(0xffffffffffffff00; 0xff)");
	m = tnum_range(0, 16);
	CHECK_INT(t, m.mask, 0x1f);
	m = tnum_range(5, UINT64_MAX);
	CHECK(t, tnum_is_unknown(m));
	m = tnum_bswap(TNUM(0x100, 0xfeff), 16);
	CHECK_INT(t, m.value, 0x1);
	CHECK_INT(t, m.mask, 0xfffe);
	/* tnum_step: members of (0; 0x11) are 0, 1, 16, 17 */
	CHECK_INT(t, tnum_step(TNUM(0, 0x11), 2), 16);
	CHECK_INT(t, tnum_step(TNUM(0, 0x11), 16), 17);
	CHECK_INT(t, tnum_step(TNUM(0, 0x11), 40), 17);
	CHECK_INT(t, tnum_step(TNUM(0x10, 0x1), 3), 16);
}

static void run_soundness(struct test_ctx *t)
{
	bool full = getenv("SCALAR_SOUND") && !strcmp(getenv("SCALAR_SOUND"), "full");
	struct run r = { t, 0, 0, full ? 5 : 4, full ? 400000 : 20000 };

	exhaustive_binops(&r);
	exhaustive_unary(&r);
	exhaustive_sets(&r);
	exhaustive_range_step(&r);
	random_ops(&r);
	printf("  tnum soundness: %ld checks (width %u exhaustive, %ld random "
	       "rounds), %ld violations\n",
	       r.checks, r.width, r.random_rounds, r.failures);
	CHECK(t, r.failures == 0);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_kernel_examples);
	RUN(&t, run_soundness);
	return test_finish(&t);
}
