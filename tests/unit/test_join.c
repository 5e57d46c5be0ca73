/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The join of single values in --explore=join (issue 23): bounds_hull()
 * (domain/scalar.h), join_widen_bounds() and join_align_bounds()
 * (prune/join_int.h).
 *
 * The hull and the widening are checked on random abstract values built
 * from concrete sets, as test_scalar_sound.c builds them: every value of
 * either input must be a value of the result, in the four ranges and the
 * tnum. (The join of whole states is test_join_states.c's.)
 */
#include <stdlib.h>
#include <string.h>

#include "scalar_model.h"
#include "test.h"
#include "base/uapi.h"
#include "loader/object.h"
#include "prune/join_int.h"
#include "prune/prune.h"
#include "state/state.h"

#define ROUNDS 20000
#define MAX_SET 8

/* ---- Random abstract values ------------------------------------------------ */

static const uint8_t jmp_ops[] = {
	BPF_JEQ, BPF_JNE, BPF_JSET, JMP_OP_NOT_SET, BPF_JGT, BPF_JGE,
	BPF_JLT, BPF_JLE, BPF_JSGT, BPF_JSGE, BPF_JSLT, BPF_JSLE,
};

/* A base near an edge of one of the four views, or a random word cut by
 * a shift: where the views disagree most. */
static uint64_t pick_base(struct model_rng *g)
{
	static const uint64_t edges[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
		0x7fffffffffffffffULL, 0x8000000000000000ULL, UINT64_MAX,
		0xffffffff80000000ULL,
	};
	uint64_t v = model_rand(g);

	switch (model_rand(g) % 4) {
	case 0: return edges[model_rand(g) % 10] + (model_rand(g) % 32) - 16;
	case 1: return v >> (model_rand(g) % 64);
	case 2: return (uint64_t)((int64_t)v >> (model_rand(g) % 64));
	default: return v;
	}
}

/* Up to MAX_SET values around a base, abstracted (model_alpha), then
 * sometimes narrowed by a comparison with a constant, as a branch would.
 * m receives the values the abstraction still holds; returns how many. */
static int random_value(struct model_rng *g, struct bounds *b, uint64_t *m)
{
	uint64_t set[MAX_SET], base = pick_base(g), spread;
	int n = 1 + (int)(model_rand(g) % MAX_SET), k = 0;

	spread = model_rand(g) % 3 == 0 ? model_rand(g) :
		 (UINT64_C(1) << (model_rand(g) % 40)) - 1;
	for (int i = 0; i < n; i++)
		set[i] = model_rand(g) % 2 ? base + (model_rand(g) & spread)
					   : base ^ (model_rand(g) & spread);
	model_alpha(b, set, n);
	if (model_rand(g) % 2) {
		struct bounds c;

		bounds_const(&c, set[model_rand(g) % n] + (model_rand(g) % 3) - 1);
		scalar_branch_refine(b, &c, jmp_ops[model_rand(g) % 12],
				     model_rand(g) % 4 == 0, NULL);
	}
	for (int i = 0; i < n; i++)
		if (model_has(b, set[i]))
			m[k++] = set[i];
	return k;
}

struct tally {
	struct test_ctx *t;
	long checks;
	long failures;
};

static void miss(struct tally *y, const char *what, const struct bounds *a,
		 const struct bounds *b, const struct bounds *res, uint64_t x)
{
	char sa[320], sb[320], sr[320];

	if (y->failures++ >= 5)
		return;
	scalar_print(sa, sizeof(sa), a);
	scalar_print(sb, sizeof(sb), b);
	scalar_print(sr, sizeof(sr), res);
	CHECK_MSG(y->t, false, "%s: a=%s b=%s -> %s (x=%#llx)", what, sa, sb, sr,
		  (unsigned long long)x);
}

/* Every listed value is a value of res. */
static void holds_all(struct tally *y, const char *what, const struct bounds *a,
		      const struct bounds *b, const struct bounds *res, const uint64_t *m,
		      int n)
{
	for (int i = 0; i < n; i++) {
		y->checks++;
		if (!model_has(res, m[i]))
			miss(y, what, a, b, res, m[i]);
	}
}

/* Values to compare two results on: the inputs' members, their
 * neighbours, each view's bounds of both results, and random words. */
static int probes(struct model_rng *g, const uint64_t *ma, int na, const uint64_t *mb,
		  int nb, const struct bounds *r1, const struct bounds *r2, uint64_t *p)
{
	const struct bounds *rs[2] = { r1, r2 };
	int n = 0;

	for (int i = 0; i < na; i++) {
		p[n++] = ma[i];
		p[n++] = ma[i] + 1;
		p[n++] = ma[i] - 1;
	}
	for (int i = 0; i < nb; i++) {
		p[n++] = mb[i];
		p[n++] = mb[i] + 1;
		p[n++] = mb[i] - 1;
	}
	for (int i = 0; i < 2; i++) {
		const struct bounds *r = rs[i];

		p[n++] = r->umin;
		p[n++] = r->umax;
		p[n++] = (uint64_t)r->smin;
		p[n++] = (uint64_t)r->smax;
		p[n++] = (r->umin & ~0xffffffffULL) | r->u32_min;
		p[n++] = (r->umin & ~0xffffffffULL) | r->u32_max;
		p[n++] = (r->umin & ~0xffffffffULL) | (uint32_t)r->s32_min;
		p[n++] = (r->umin & ~0xffffffffULL) | (uint32_t)r->s32_max;
		p[n++] = r->var_off.value;
		p[n++] = r->var_off.value | r->var_off.mask;
	}
	for (int i = 0; i < 8; i++)
		p[n++] = model_rand(g);
	return n;
}

#define MAX_PROBES (6 * MAX_SET + 20 + 8)

/* ---- bounds_hull ---------------------------------------------------------- */

static void check_hull_pair(struct tally *y, struct model_rng *g, const struct bounds *a,
			    const uint64_t *ma, int na, const struct bounds *b,
			    const uint64_t *mb, int nb)
{
	struct bounds ab = *a, ba = *b, aa = *a;
	uint64_t p[MAX_PROBES];
	int np;

	bounds_hull(&ab, b);
	bounds_hull(&ba, a);
	holds_all(y, "hull holds a", a, b, &ab, ma, na);
	holds_all(y, "hull holds b", a, b, &ab, mb, nb);
	holds_all(y, "hull(b,a) holds a", b, a, &ba, ma, na);
	holds_all(y, "hull(b,a) holds b", b, a, &ba, mb, nb);
	/* The same values whichever side it starts from. */
	np = probes(g, ma, na, mb, nb, &ab, &ba, p);
	for (int i = 0; i < np; i++) {
		y->checks++;
		if (model_has(&ab, p[i]) != model_has(&ba, p[i]))
			miss(y, "hull not commutative", a, b, &ab, p[i]);
	}
	/* A value joined with itself stays what it was (inputs are synced:
	 * model_alpha and the refinement sync). */
	bounds_sync(&aa);
	{
		struct bounds h = aa;

		bounds_hull(&h, &aa);
		y->checks++;
		if (!bounds_equal(&h, &aa))
			miss(y, "hull(a,a) != a", &aa, &aa, &h, 0);
	}
}

static void test_hull_random(struct test_ctx *t)
{
	struct model_rng g = { 0x10117 };
	struct tally y = { t, 0, 0 };
	uint64_t ma[MAX_SET], mb[MAX_SET];
	struct bounds a, b;

	for (long i = 0; i < ROUNDS; i++) {
		int na = random_value(&g, &a, ma), nb = random_value(&g, &b, mb);

		if (na && nb)
			check_hull_pair(&y, &g, &a, ma, na, &b, mb, nb);
	}
	printf("  bounds_hull: %ld checks, %ld violations\n", y.checks, y.failures);
	CHECK(t, y.checks > ROUNDS);
	CHECK_INT(t, y.failures, 0);
}

/* Hand-picked pairs: the hull of each view separately, and the tnum
 * union, on values whose views differ. */
static void test_hull_cases(struct test_ctx *t)
{
	struct bounds a, b;
	uint64_t v[2];

	bounds_const(&a, 3);
	bounds_const(&b, 10);
	bounds_hull(&a, &b);
	CHECK_INT(t, a.umin, 3);
	CHECK_INT(t, a.umax, 10);
	CHECK_INT(t, a.smin, 3);
	CHECK_INT(t, a.smax, 10);
	CHECK(t, model_has(&a, 3) && model_has(&a, 10) && !model_has(&a, 11));
	/* -1 and 1: the signed hull is [-1, 1], the unsigned one everything
	 * from 1 up, and the tnum union keeps bit 0 set: 0 is out. */
	bounds_const(&a, UINT64_MAX);
	bounds_const(&b, 1);
	bounds_hull(&a, &b);
	CHECK(t, model_has(&a, 1) && model_has(&a, UINT64_MAX));
	CHECK_INT(t, a.smin, -1);
	CHECK_INT(t, a.smax, 1);
	CHECK(t, a.umin == 1 && a.umax == UINT64_MAX);
	CHECK(t, !model_has(&a, 0));
	/* The unknown value absorbs anything. */
	bounds_unknown(&a);
	bounds_const(&b, 42);
	bounds_hull(&b, &a);
	CHECK(t, bounds_is_unknown(&b));
	/* 32-bit views: 0xffffffff and 0x1_0000_0000 differ in every 32-bit
	 * bit, and the hull keeps both. */
	v[0] = 0xffffffffULL;
	v[1] = 0x100000000ULL;
	bounds_const(&a, v[0]);
	bounds_const(&b, v[1]);
	bounds_hull(&a, &b);
	CHECK(t, model_has(&a, v[0]) && model_has(&a, v[1]));
	CHECK_INT(t, a.u32_min, 0);
	CHECK_INT(t, a.u32_max, 0xffffffffu);
}

/* ---- join_widen_bounds ---------------------------------------------------- */

static int cmp_u(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static int cmp_s(const void *x, const void *y)
{
	int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;

	return a < b ? -1 : a > b;
}

static size_t dedup(uint64_t *v, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < n; i++)
		if (!k || v[k - 1] != v[i])
			v[k++] = v[i];
	return k;
}

#define MAX_THR 24

struct thr_store {
	uint64_t v[4][MAX_THR];
	struct join_thresholds t;
};

/* Thresholds as join_int.h lays them out: each constant in the four
 * views (32-bit ones truncated, the signed one sign-extended), each view
 * sorted in its own order. */
static void make_thresholds(struct thr_store *s, const uint64_t *c, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		s->v[THR_U64][i] = c[i];
		s->v[THR_S64][i] = c[i];
		s->v[THR_U32][i] = (uint32_t)c[i];
		s->v[THR_S32][i] = (uint64_t)(int64_t)(int32_t)(uint32_t)c[i];
	}
	for (int v = 0; v < 4; v++) {
		qsort(s->v[v], n, sizeof(uint64_t),
		      v == THR_S64 || v == THR_S32 ? cmp_s : cmp_u);
		s->t.v[v] = s->v[v];
		s->t.n[v] = dedup(s->v[v], n);
	}
}

/* The smallest threshold of an unsigned view at or above x, else top. */
static uint64_t next_up_u(const struct join_thresholds *t, int view, uint64_t x, uint64_t top)
{
	for (size_t i = 0; t && i < t->n[view]; i++)
		if (t->v[view][i] >= x && t->v[view][i] <= top)
			return t->v[view][i];
	return top;
}

static uint64_t next_down_u(const struct join_thresholds *t, int view, uint64_t x)
{
	for (size_t i = t ? t->n[view] : 0; i > 0; i--)
		if (t->v[view][i - 1] <= x)
			return t->v[view][i - 1];
	return 0;
}

static int64_t next_up_s(const struct join_thresholds *t, int view, int64_t x, int64_t top)
{
	for (size_t i = 0; t && i < t->n[view]; i++)
		if ((int64_t)t->v[view][i] >= x && (int64_t)t->v[view][i] <= top)
			return (int64_t)t->v[view][i];
	return top;
}

static int64_t next_down_s(const struct join_thresholds *t, int view, int64_t x, int64_t bottom)
{
	for (size_t i = t ? t->n[view] : 0; i > 0; i--)
		if ((int64_t)t->v[view][i - 1] <= x && (int64_t)t->v[view][i - 1] >= bottom)
			return (int64_t)t->v[view][i - 1];
	return bottom;
}

/* Grown bounds of the random widenings: on their view's next threshold
 * or extreme, or short of it (the sync after the widening keeps only
 * what the tnum and the other views allow). */
struct landing {
	long grown, landed, short_of;
};

/* One view's grown bound `got`, between the hull's `hull` and the view's
 * next threshold `next` (unsigned comparisons after `flip`, which maps the
 * signed order onto the unsigned one). False: past it, or below the
 * hull. */
static bool land_one(struct landing *l, uint64_t got, uint64_t hull, uint64_t next,
		     bool up, uint64_t flip)
{
	got ^= flip;
	hull ^= flip;
	next ^= flip;
	l->grown++;
	if (up ? got > next || got < hull : got < next || got > hull)
		return false;
	if (got == next)
		l->landed++;
	else
		l->short_of++;
	return true;
}

/*
 * Each bound of w that grew past old's (w = old widened by another value,
 * hull = their hull) goes on to the next threshold of its view, or the
 * view's extreme when none is left, and never past it. Returns false on
 * a violation, with *why set to the view.
 */
static bool check_landing(struct landing *l, const struct join_thresholds *t,
			  const struct bounds *old, const struct bounds *hull,
			  const struct bounds *w, const char **why)
{
	const uint64_t s64 = 1ULL << 63, s32 = 1ULL << 31;

	*why = "umax";
	if (w->umax > old->umax &&
	    !land_one(l, w->umax, hull->umax, next_up_u(t, THR_U64, hull->umax, UINT64_MAX),
		      true, 0))
		return false;
	*why = "umin";
	if (w->umin < old->umin &&
	    !land_one(l, w->umin, hull->umin, next_down_u(t, THR_U64, hull->umin), false, 0))
		return false;
	*why = "smax";
	if (w->smax > old->smax &&
	    !land_one(l, (uint64_t)w->smax, (uint64_t)hull->smax,
		      (uint64_t)next_up_s(t, THR_S64, hull->smax, INT64_MAX), true, s64))
		return false;
	*why = "smin";
	if (w->smin < old->smin &&
	    !land_one(l, (uint64_t)w->smin, (uint64_t)hull->smin,
		      (uint64_t)next_down_s(t, THR_S64, hull->smin, INT64_MIN), false, s64))
		return false;
	*why = "u32_max";
	if (w->u32_max > old->u32_max &&
	    !land_one(l, w->u32_max, hull->u32_max,
		      next_up_u(t, THR_U32, hull->u32_max, UINT32_MAX), true, 0))
		return false;
	*why = "u32_min";
	if (w->u32_min < old->u32_min &&
	    !land_one(l, w->u32_min, hull->u32_min, next_down_u(t, THR_U32, hull->u32_min),
		      false, 0))
		return false;
	*why = "s32_max";
	if (w->s32_max > old->s32_max &&
	    !land_one(l, (uint32_t)w->s32_max, (uint32_t)hull->s32_max,
		      (uint32_t)next_up_s(t, THR_S32, hull->s32_max, INT32_MAX), true, s32))
		return false;
	*why = "s32_min";
	if (w->s32_min < old->s32_min &&
	    !land_one(l, (uint32_t)w->s32_min, (uint32_t)hull->s32_min,
		      (uint32_t)next_down_s(t, THR_S32, hull->s32_min, INT32_MIN), false, s32))
		return false;
	return true;
}

static void check_widen_pair(struct tally *y, struct landing *l,
			     const struct join_thresholds *t, const struct bounds *a,
			     const uint64_t *ma, int na, const struct bounds *b,
			     const uint64_t *mb, int nb)
{
	struct bounds hull = *a, w = *a;
	const char *why = NULL;

	bounds_hull(&hull, b);
	join_widen_bounds(&w, b, t);
	holds_all(y, t ? "widen(thr) holds a" : "widen holds a", a, b, &w, ma, na);
	holds_all(y, t ? "widen(thr) holds b" : "widen holds b", a, b, &w, mb, nb);
	y->checks++;
	if (!bounds_within(&w, &hull))
		miss(y, t ? "widen(thr) does not contain the hull" :
			    "widen does not contain the hull", a, b, &w, 0);
	y->checks++;
	if (!check_landing(l, t, a, &hull, &w, &why))
		miss(y, why, a, b, &w, 0);
}

static void test_widen_random(struct test_ctx *t)
{
	struct model_rng g = { 0x31d3 };
	struct tally y = { t, 0, 0 };
	struct landing l = { 0, 0, 0 };
	uint64_t ma[MAX_SET], mb[MAX_SET], c[MAX_THR];
	struct thr_store *s = calloc(1, sizeof(*s));
	struct bounds a, b;

	CHECK(t, s != NULL);
	if (!s)
		return;
	for (long i = 0; i < ROUNDS; i++) {
		int na = random_value(&g, &a, ma), nb = random_value(&g, &b, mb);
		size_t n = 1;

		if (!na || !nb)
			continue;
		/* Thresholds as a program's comparisons give them (each
		 * constant and its neighbours), near the values or not. */
		c[0] = 0;
		while (n + 3 <= MAX_THR && model_rand(&g) % 5) {
			uint64_t k = model_rand(&g) % 2 ? mb[model_rand(&g) % nb] +
							     (model_rand(&g) % 64)
							: pick_base(&g);

			c[n++] = k - 1;
			c[n++] = k;
			c[n++] = k + 1;
		}
		make_thresholds(s, c, n);
		check_widen_pair(&y, &l, NULL, &a, ma, na, &b, mb, nb);
		check_widen_pair(&y, &l, &s->t, &a, ma, na, &b, mb, nb);
	}
	printf("  join_widen_bounds: %ld checks, %ld violations; of %ld grown bounds "
	       "%ld on the next threshold or extreme, %ld short of it after the sync\n",
	       y.checks, y.failures, l.grown, l.landed, l.short_of);
	CHECK(t, y.checks > ROUNDS);
	CHECK_INT(t, y.failures, 0);
	free(s);
}

static void set_of(struct bounds *b, uint64_t x, uint64_t y)
{
	uint64_t v[2] = { x, y };

	model_alpha(b, v, 2);
}

/* Widenings whose tnums leave room for the threshold: the grown bound
 * lands on it. (Where the tnum allows less, the sync keeps the bound at
 * the tnum's limit, as the random test counts.) */
static void test_widen_cases(struct test_ctx *t)
{
	struct thr_store *s = calloc(1, sizeof(*s));
	const uint64_t c[] = { 0, 39, 40, 41, 149, 150, 151 };
	struct bounds a, b, none;

	CHECK(t, s != NULL);
	if (!s)
		return;
	make_thresholds(s, c, 7);
	/* {0, 16} grown by 33: hull [0, 33], tnum (0; 0x31) up to 49; the
	 * upper bounds go on to 39, the next threshold. */
	set_of(&a, 0, 16);
	set_of(&b, 33, 33);
	none = a;
	join_widen_bounds(&a, &b, &s->t);
	CHECK_INT(t, a.umax, 39);
	CHECK_INT(t, a.smax, 39);
	CHECK_INT(t, a.u32_max, 39);
	CHECK_INT(t, a.s32_max, 39);
	CHECK_INT(t, a.umin, 0);
	/* Without thresholds they go at least as far. */
	join_widen_bounds(&none, &b, NULL);
	CHECK(t, none.umax >= a.umax && bounds_within(&none, &a));
	/* Grown again, past 39: on to 40. */
	set_of(&b, 40, 40);
	join_widen_bounds(&a, &b, &s->t);
	CHECK_INT(t, a.umax, 40);
	/* Nothing grew: nothing moves. */
	set_of(&b, 1, 32);
	none = a;
	join_widen_bounds(&a, &b, &s->t);
	CHECK(t, bounds_equal(&a, &none));
	/* {256, 511} grown down by 192: hull [192, 511], tnum (0; 0x1ff);
	 * the lower bounds go down to 151, the next threshold below. */
	set_of(&a, 0x100, 0x1ff);
	set_of(&b, 0xc0, 0xc0);
	join_widen_bounds(&a, &b, &s->t);
	CHECK_INT(t, a.umin, 151);
	CHECK_INT(t, a.smin, 151);
	CHECK_INT(t, a.umax, 0x1ff);
	/* Signed: {-16, 0} grown down by -33 goes to the extreme, as no
	 * threshold is below; the unsigned view is everything. */
	set_of(&a, (uint64_t)-16, 0);
	set_of(&b, (uint64_t)-33, (uint64_t)-33);
	join_widen_bounds(&a, &b, &s->t);
	CHECK(t, model_has(&a, (uint64_t)-33) && model_has(&a, (uint64_t)-16) &&
		 model_has(&a, 0));
	CHECK(t, a.smin <= -33 && a.smax == 0);
	free(s);
}

/* Moving a range's ends in to the tnum's low bits keeps every value:
 * random values, and a counter stepping by 16. */
static void test_align(struct test_ctx *t)
{
	struct model_rng g = { 0x5a17 };
	struct tally y = { t, 0, 0 };
	uint64_t m[MAX_SET];
	struct bounds b, orig;
	long moved = 0;

	for (long i = 0; i < ROUNDS; i++) {
		int n = random_value(&g, &b, m);

		orig = b;
		join_align_bounds(&b);
		moved += !bounds_equal(&b, &orig);
		holds_all(&y, "align holds every value", &orig, &orig, &b, m, n);
		y.checks++;
		if (!bounds_within(&orig, &b)) {
			y.failures++;
			CHECK_MSG(t, false, "align grew the range, round %ld", i);
		}
	}
	printf("  join_align_bounds: %ld checks, %ld violations, %ld ranges moved in\n",
	       y.checks, y.failures, moved);
	CHECK_INT(t, y.failures, 0);
	CHECK(t, moved > 0);
	/* Four low zero bits; a range up to 399 ends at 384. */
	set_of(&b, 0, 0x1f0);
	b.umax = b.smax = 399;
	b.u32_max = b.s32_max = 399;
	join_align_bounds(&b);
	CHECK_INT(t, b.umax, 384);
	CHECK_INT(t, b.umin, 0);
}

/* A counter stepping by 16 widened to the exit test's 399 stops at 384,
 * the last value it can take below it: its low bits stay known. */
static void test_widen_aligned(struct test_ctx *t)
{
	struct thr_store *s = calloc(1, sizeof(*s));
	const uint64_t c[] = { 0, 399, 400, 401 };
	struct bounds a, b;

	CHECK(t, s != NULL);
	if (!s)
		return;
	make_thresholds(s, c, 4);
	set_of(&a, 0, 16);
	set_of(&b, 32, 32);
	join_widen_bounds(&a, &b, &s->t);
	CHECK_INT(t, a.umax, 384);
	CHECK_INT(t, a.var_off.value & 15, 0);
	CHECK_INT(t, a.var_off.mask & 15, 0);
	CHECK(t, model_has(&a, 0) && model_has(&a, 16) && model_has(&a, 32));
	free(s);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_hull_random);
	RUN(&t, test_hull_cases);
	RUN(&t, test_widen_random);
	RUN(&t, test_widen_cases);
	RUN(&t, test_align);
	RUN(&t, test_widen_aligned);
	return test_finish(&t);
}
