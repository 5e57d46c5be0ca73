/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loops under --explore=join: where the kernel walks a bounded loop trip
 * by trip, the joined walk iterates its head's summary to a fixpoint.
 *
 * - Loops are natural loops: a back edge (to an instruction no later in
 *   reverse post-order) and the instructions that reach its source
 *   without passing the head. A loop that is not (its body reaches back
 *   above its head) makes the program irreducible: no joining then.
 * - Widening: after a few growths, a bound that still grows jumps to the
 *   next constant the program compares with (a threshold), or to the
 *   type's extreme. Thresholds form a finite set, so heads converge.
 * - Termination: a fixpoint proves every trip safe, not that trips end.
 *   Each pass from a head names the head's values (scalar ids); a trip
 *   ends at the head again with some value moved by a constant through
 *   the kernel's own "+const" links. When every trip of the last pass
 *   moved one value the same way, without wrapping past the bounds the
 *   head's summary gives it, the trips are finitely many (sites.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

/* ---- Loops ------------------------------------------------------------ */

/* Each edge once: counted into start[to + 1] (fill NULL), or stored at
 * preds[start[to] + fill[to]++]. */
static void visit_edges(const struct vet_env *env, uint32_t *start, uint32_t *preds,
			uint32_t *fill)
{
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		uint32_t succ[2];
		int cnt = insn_successors(env, i, succ);

		for (int k = 0; k < cnt; k++) {
			uint32_t to = succ[k];

			if (to >= env->insn_cnt)
				continue;
			if (fill)
				preds[start[to] + fill[to]++] = i;
			else
				start[to + 1]++;
		}
	}
}

static int build_preds(struct vet_env *env, uint32_t **startp, uint32_t **predsp)
{
	uint32_t n = env->insn_cnt, *start = vet_calloc(env, n + 1, sizeof(*start)), *preds, *fill;

	if (!start)
		return -ENOMEM;
	visit_edges(env, start, NULL, NULL);
	for (uint32_t i = 0; i < n; i++)
		start[i + 1] += start[i];
	preds = vet_calloc(env, start[n] ? start[n] : 1, sizeof(*preds));
	fill = vet_calloc(env, n, sizeof(*fill));
	if (!preds || !fill) {
		vet_free(env, start);
		vet_free(env, preds);
		vet_free(env, fill);
		return -ENOMEM;
	}
	visit_edges(env, start, preds, fill);
	vet_free(env, fill);
	*startp = start;
	*predsp = preds;
	return 0;
}

bool join_is_back_edge(const struct vet_env *env, const struct join_walk *w, uint32_t from,
		       uint32_t to)
{
	return from < env->insn_cnt && env->aux[from].subprog == env->aux[to].subprog &&
	       w->rank[to] <= w->rank[from];
}

void *join_grow(struct vet_env *env, void *v, uint32_t cnt, uint32_t *cap, size_t size)
{
	uint32_t n;
	void *p;

	if (cnt < *cap)
		return v;
	n = *cap ? *cap * 2 : 8;
	p = vet_reallocarray(env, v, n, size);
	if (p)
		*cap = n;
	return p;
}

bool join_loop_contains(const struct join_loop *l, uint32_t insn)
{
	return l->body[insn / 64] & (1ull << (insn % 64));
}

static void body_add(struct join_loop *l, uint32_t insn)
{
	l->body[insn / 64] |= 1ull << (insn % 64);
}

static struct join_loop *loop_new(struct vet_env *env, struct join_walk *w, uint32_t head)
{
	struct join_loop *l, *v;

	if (w->loop_of[head])
		return &w->loops[w->loop_of[head] - 1];
	v = join_grow(env, w->loops, w->nloops, &w->loops_cap, sizeof(*v));
	if (!v)
		return NULL;
	w->loops = v;
	l = &w->loops[w->nloops++];
	memset(l, 0, sizeof(*l));
	l->head = head;
	l->body = vet_calloc(env, (env->insn_cnt + 63) / 64, sizeof(uint64_t));
	if (!l->body)
		return NULL;
	body_add(l, head);
	l->end_rank = w->rank[head];
	w->loop_of[head] = w->nloops;
	return l;
}

/* The body of the back edge latch -> head: backwards from the latch,
 * stopping at the head. Returns 1 when the flood escapes above the head
 * (an irreducible loop). */
static int flood_body(struct vet_env *env, struct join_walk *w, struct join_loop *l,
		      uint32_t latch, const uint32_t *start, const uint32_t *preds, uint32_t *stack)
{
	uint32_t sz = 0;

	if (join_loop_contains(l, latch))
		return 0;
	body_add(l, latch);
	stack[sz++] = latch;
	while (sz) {
		uint32_t v = stack[--sz];

		if (w->rank[v] < w->rank[l->head] || v == env->subprogs[env->aux[v].subprog].start)
			return 1;
		if (w->rank[v] > l->end_rank)
			l->end_rank = w->rank[v];
		for (uint32_t k = start[v]; k < start[v + 1]; k++) {
			uint32_t p = preds[k];

			/* Rank 0: code no path from the entry reaches. */
			if (!w->rank[p] || join_loop_contains(l, p))
				continue;
			body_add(l, p);
			stack[sz++] = p;
		}
	}
	return 0;
}

/* Returns 1 when the program has an irreducible loop. */
static int find_loops(struct vet_env *env, struct join_walk *w)
{
	uint32_t *start, *preds, *stack;
	int err = build_preds(env, &start, &preds), irreducible = 0;

	if (err)
		return err;
	stack = vet_calloc(env, env->insn_cnt, sizeof(*stack));
	w->loop_of = vet_calloc(env, env->insn_cnt, sizeof(*w->loop_of));
	w->preds = vet_calloc(env, env->insn_cnt, sizeof(*w->preds));
	if (!stack || !w->loop_of || !w->preds)
		err = -ENOMEM;
	for (uint32_t u = 0; !err && !irreducible && u < env->insn_cnt; u++) {
		uint32_t succ[2];
		int cnt = insn_successors(env, u, succ);

		for (int k = 0; !err && !irreducible && k < cnt; k++) {
			struct join_loop *l;

			if (!join_is_back_edge(env, w, u, succ[k]))
				continue;
			l = loop_new(env, w, succ[k]);
			if (!l)
				err = -ENOMEM;
			else if (u != succ[k])
				irreducible = flood_body(env, w, l, u, start, preds, stack);
		}
	}
	/* Where paths meet: two or more ways in. */
	for (uint32_t i = 0; !err && i < env->insn_cnt; i++)
		w->preds[i] = start[i + 1] - start[i] < 2 ? (uint8_t)(start[i + 1] - start[i]) : 2;
	vet_free(env, start);
	vet_free(env, preds);
	vet_free(env, stack);
	return err ? err : irreducible;
}

/* ---- Thresholds --------------------------------------------------------- */

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

static size_t uniq(uint64_t *v, size_t n)
{
	size_t m = 0;

	for (size_t i = 0; i < n; i++)
		if (!m || v[m - 1] != v[i])
			v[m++] = v[i];
	return m;
}

static bool is_cond_jump_k(const struct bpfvet_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && BPF_SRC(insn->code) == BPF_K &&
	       op != BPF_JA && op != BPF_CALL && op != BPF_EXIT && op != BPF_JCOND;
}

/* A constant loaded into a register (which a jump may compare with):
 * 64-bit immediates and moves of an immediate. */
static bool const_load(const struct bpfvet_insn *insn, int64_t *c)
{
	if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) && !insn->src_reg) {
		*c = (int64_t)(((uint64_t)(uint32_t)insn[1].imm << 32) | (uint32_t)insn->imm);
		return true;
	}
	if (insn->code == (BPF_ALU64 | BPF_MOV | BPF_K) || insn->code == (BPF_ALU | BPF_MOV | BPF_K)) {
		*c = insn->imm;
		return true;
	}
	return false;
}

static bool threshold_source(const struct vet_env *env, uint32_t i, int64_t *c)
{
	if (is_cond_jump_k(&env->insns[i])) {
		*c = env->insns[i].imm;
		return true;
	}
	return i + 1 < env->insn_cnt && const_load(&env->insns[i], c);
}

/* A loop's own thresholds: the constants its body's jumps compare with. */
static bool body_threshold(const struct vet_env *env, const struct join_loop *l, uint32_t i,
			   int64_t *c)
{
	if (!join_loop_contains(l, i) || !is_cond_jump_k(&env->insns[i]))
		return false;
	*c = env->insns[i].imm;
	return true;
}

static bool any_threshold(const struct vet_env *env, const struct join_loop *l, uint32_t i,
			  int64_t *c)
{
	(void)l;
	return threshold_source(env, i, c);
}

/* Every constant a conditional jump compares with or a register is set
 * to in instructions [from, to) (of loop l's body only, with l), and its
 * neighbours: the bounds a loop's counters (or a callee's arguments) can
 * stop at. */
static int collect_thresholds(struct vet_env *env, struct join_thresholds *t,
			      const struct join_loop *l, uint32_t from, uint32_t to)
{
	bool (*source)(const struct vet_env *, const struct join_loop *, uint32_t, int64_t *) =
		l ? body_threshold : any_threshold;
	size_t cap = 1, n = 1;
	int64_t c;

	for (uint32_t i = from; i < to; i++)
		cap += source(env, l, i, &c) * 3;
	for (int v = 0; v < 4; v++) {
		t->v[v] = vet_calloc(env, cap, sizeof(uint64_t));
		if (!t->v[v])
			return -ENOMEM;
	}
	for (uint32_t i = from; i < to; i++) {
		if (!source(env, l, i, &c))
			continue;
		for (int d = -1; d <= 1; d++) {
			/* Wraps at the extremes, as the values it stands for. */
			uint64_t x = (uint64_t)c + (uint64_t)(int64_t)d;

			t->v[THR_U64][n] = x;
			t->v[THR_S64][n] = x;
			t->v[THR_U32][n] = (uint32_t)x;
			t->v[THR_S32][n] = (uint64_t)(int64_t)(int32_t)(uint32_t)x;
			n++;
		}
	}
	for (int v = 0; v < 4; v++) {
		qsort(t->v[v], n, sizeof(uint64_t), v == THR_S64 || v == THR_S32 ? cmp_s64 : cmp_u64);
		t->n[v] = uniq(t->v[v], n);
	}
	return 0;
}

/* A callee's own constants (call summaries). */
int join_collect_thresholds(struct vet_env *env, uint32_t from, uint32_t to,
			    struct join_thresholds *t)
{
	t->next = NULL;
	return collect_thresholds(env, t, NULL, from, to);
}

void join_thresholds_free(struct vet_env *env, struct join_thresholds *t)
{
	for (int v = 0; v < 4; v++) {
		vet_free(env, t->v[v]);
		t->v[v] = NULL;
	}
}

static uint64_t thr_up_u(const struct join_thresholds *t, int v, uint64_t x, uint64_t top)
{
	size_t lo = 0, hi = t->n[v];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->v[v][mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n[v] && t->v[v][lo] <= top)
		return t->v[v][lo];
	return t->next ? thr_up_u(t->next, v, x, top) : top;
}

static uint64_t thr_down_u(const struct join_thresholds *t, int v, uint64_t x, uint64_t bottom)
{
	size_t lo = 0, hi = t->n[v];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (t->v[v][mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && t->v[v][lo - 1] >= bottom)
		return t->v[v][lo - 1];
	return t->next ? thr_down_u(t->next, v, x, bottom) : bottom;
}

static int64_t thr_up_s(const struct join_thresholds *t, int v, int64_t x, int64_t top)
{
	size_t lo = 0, hi = t->n[v];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((int64_t)t->v[v][mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < t->n[v] && (int64_t)t->v[v][lo] <= top)
		return (int64_t)t->v[v][lo];
	return t->next ? thr_up_s(t->next, v, x, top) : top;
}

static int64_t thr_down_s(const struct join_thresholds *t, int v, int64_t x, int64_t bottom)
{
	size_t lo = 0, hi = t->n[v];

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((int64_t)t->v[v][mid] <= x)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && (int64_t)t->v[v][lo - 1] >= bottom)
		return (int64_t)t->v[v][lo - 1];
	return t->next ? thr_down_s(t->next, v, x, bottom) : bottom;
}

/*
 * The tnum must hold the widened range too, or the sync would pull the
 * bounds back one bit at a time (a pass per bit). But the low bits that
 * every value shares stay known: a counter that steps by 16 from 0 keeps
 * its four low zero bits, and the sync then stops it at the multiple of
 * 16 below a threshold (the exit test `i != 400` takes 400 off the top of
 * [0, 400], and 399 down to 384). Every value of the hull lies in the
 * range and has those low bits, so the result holds it.
 */
static void align_ends(struct bounds *b, bool do_lo, bool do_hi, uint64_t keep_lo,
		       uint64_t keep_hi);

static struct tnum widen_tnum(struct tnum hull, uint64_t umin, uint64_t umax)
{
	struct tnum r = tnum_union(hull, tnum_range(umin, umax));
	uint64_t low = hull.mask ? (hull.mask & -hull.mask) - 1 : UINT64_MAX;

	r.mask &= ~low;
	r.value = (r.value & ~low) | (hull.value & low);
	return r;
}

/*
 * The widening of `into` by `in`: their hull, where each bound that grew
 * past into's goes on to the next threshold (t NULL: to the extreme).
 */
void join_widen_bounds(struct bounds *into, const struct bounds *in,
		       const struct join_thresholds *t)
{
	static const struct join_thresholds none;
	struct bounds old = *into, hull;

	if (!t)
		t = &none;
	bounds_hull(into, in);
	hull = *into;
	if (into->umax > old.umax)
		into->umax = thr_up_u(t, THR_U64, into->umax, UINT64_MAX);
	if (into->umin < old.umin)
		into->umin = thr_down_u(t, THR_U64, into->umin, 0);
	if (into->smax > old.smax)
		into->smax = thr_up_s(t, THR_S64, into->smax, INT64_MAX);
	if (into->smin < old.smin)
		into->smin = thr_down_s(t, THR_S64, into->smin, INT64_MIN);
	if (into->u32_max > old.u32_max)
		into->u32_max = (uint32_t)thr_up_u(t, THR_U32, into->u32_max, UINT32_MAX);
	if (into->u32_min < old.u32_min)
		into->u32_min = (uint32_t)thr_down_u(t, THR_U32, into->u32_min, 0);
	if (into->s32_max > old.s32_max)
		into->s32_max = (int32_t)thr_up_s(t, THR_S32, into->s32_max, INT32_MAX);
	if (into->s32_min < old.s32_min)
		into->s32_min = (int32_t)thr_down_s(t, THR_S32, into->s32_min, INT32_MIN);
	into->var_off = widen_tnum(into->var_off, into->umin, into->umax);
	bounds_sync(into);
	/* Only the ends the widening moved, and never inside the hull. */
	align_ends(into, into->umin < hull.umin, into->umax > hull.umax, hull.umin, hull.umax);
}

/*
 * Moves the unsigned range's ends in to the nearest values with the low
 * bits the tnum knows (the kernel's sync stops at the tnum's own
 * extremes): a counter stepping by 16 below 400 ends at 384, not 399.
 * Every value of the range and the tnum stays. Only the ends asked for
 * move, and not past keep_lo, keep_hi.
 */
static void align_ends(struct bounds *b, bool do_lo, bool do_hi, uint64_t keep_lo,
		       uint64_t keep_hi)
{
	uint64_t low = b->var_off.mask ? (b->var_off.mask & -b->var_off.mask) - 1 : 0;
	uint64_t v = b->var_off.value & low, lo = b->umin, hi = b->umax;

	if (!low)
		return;
	if (do_lo) {
		lo = (b->umin & ~low) | v;
		if (lo < b->umin && __builtin_add_overflow(lo, low + 1, &lo))
			lo = b->umin;
		lo = lo > keep_lo ? keep_lo : lo;
	}
	if (do_hi) {
		hi = (b->umax & ~low) | v;
		if (hi > b->umax && __builtin_sub_overflow(hi, low + 1, &hi))
			hi = b->umax;
		hi = hi < keep_hi ? keep_hi : hi;
	}
	if (lo > hi || (lo == b->umin && hi == b->umax))
		return;
	b->umin = lo;
	b->umax = hi;
	bounds_sync(b);
}

/* Both ends of b's unsigned range moved in to the tnum's low bits (a
 * trip's scalar before it joins the summary). */
void join_align_bounds(struct bounds *b)
{
	align_ends(b, true, true, UINT64_MAX, 0);
}

/* ---- Set-up --------------------------------------------------------------- */

/* Returns 1 when joining cannot handle the program's loops. */
int join_loops_init(struct vet_env *env, struct join_walk *w)
{
	int err = find_loops(env, w);

	return err;
}

/* The thresholds the loop headed at insn widens to: its own, then the
 * program's. Collected when first asked for: most loops converge before
 * they widen, and sorting every constant of a large program four ways
 * costs more than a small program's walk. */
int join_loop_thresholds(struct vet_env *env, struct join_walk *w, uint32_t head,
			 const struct join_thresholds **out)
{
	struct join_loop *l = &w->loops[w->loop_of[head] - 1];
	int err;

	if (!w->thr_ready) {
		err = collect_thresholds(env, &w->thr, NULL, 0, env->insn_cnt);
		if (err)
			return err;
		w->thr_ready = true;
	}
	if (!l->thr_ready) {
		err = collect_thresholds(env, &l->thr, l, 0, env->insn_cnt);
		if (err)
			return err;
		l->thr.next = &w->thr;
		l->thr_ready = true;
	}
	*out = &l->thr;
	return 0;
}

void join_loops_free(struct vet_env *env, struct join_walk *w)
{
	for (uint32_t i = 0; i < w->nloops; i++) {
		vet_free(env, w->loops[i].body);
		join_thresholds_free(env, &w->loops[i].thr);
	}
	vet_free(env, w->loops);
	vet_free(env, w->loop_of);
	vet_free(env, w->preds);
	join_thresholds_free(env, &w->thr);
}
