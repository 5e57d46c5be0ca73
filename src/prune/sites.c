/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Join sites (--explore=join): where two or more control-flow edges meet
 * outside any loop, the paths that arrive are merged instead of each
 * walking the rest of the program. A path that reaches a site joins its
 * state into the site's summary (one per shape: join.c) and ends there;
 * the summary is walked on once every path that can still reach it has
 * arrived.
 *
 * Order. The walk stays depth-first between sites, as the kernel's, so
 * that loops keep the kernel's checkpoints, loop detection and precision.
 * Summaries wait in a queue ordered by reverse post-order (of the call
 * sites, then of the instruction): the walk resumes the first one only
 * when no path is pending. A site's forward predecessors come before it
 * in that order, so it is walked once per change, after they have all
 * arrived. Soundness does not rest on the order: a summary that changes
 * after its walk is queued again.
 *
 * Checkpoints upstream. A path inside a loop may end at a site, its
 * continuation walked later. The kernel's checkpoints on that path must
 * then not forget what the continuation reads: the arrival marks every
 * scalar precise along the path's checkpoints and every stack slot read
 * at the site.
 */
#include <errno.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

/* ---- Order ----------------------------------------------------------- */

/* True post-order by an explicit DFS, successor by successor, from each
 * subprogram's entry; ranks count from the entry. */
static int compute_ranks(struct vet_env *env, struct join_walk *w)
{
	uint32_t n = env->insn_cnt;
	uint32_t *stack = vet_calloc(env, n, sizeof(*stack));
	uint8_t *next = vet_calloc(env, n, 1), *seen = vet_calloc(env, n, 1);
	int err = 0;

	if (!stack || !next || !seen) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t sp = 0; sp < env->subprog_cnt; sp++) {
		uint32_t start = env->subprogs[sp].start, sz = 0, done = 0;

		stack[sz++] = start;
		seen[start] = 1;
		while (sz) {
			uint32_t top = stack[sz - 1], succ[2];
			int cnt = insn_successors(env, top, succ);

			if (next[top] < cnt) {
				uint32_t s = succ[next[top]++];

				if (s < n && !seen[s]) {
					seen[s] = 1;
					stack[sz++] = s;
				}
				continue;
			}
			w->rank[top] = n - done++;
			sz--;
		}
	}
out:
	vet_free(env, stack);
	vet_free(env, next);
	vet_free(env, seen);
	return err;
}

static uint32_t entry_key(const struct join_entry *e, uint32_t i)
{
	return i < e->site->curframe ? e->site->key[i] : e->last_key;
}

static int key_cmp(const struct join_entry *a, const struct join_entry *b)
{
	uint32_t n = a->site->curframe < b->site->curframe ? a->site->curframe : b->site->curframe;

	for (uint32_t i = 0; i <= n; i++) {
		uint32_t x = entry_key(a, i), y = entry_key(b, i);

		if (x != y)
			return x < y ? -1 : 1;
	}
	if (a->site->curframe != b->site->curframe)
		return a->site->curframe < b->site->curframe ? -1 : 1;
	return 0;
}

/* Equal keys: first come, first served; but the trips of a head walked
 * trip by trip go newest first, depth-first as the kernel's, so that a
 * trip's descendants finish before its siblings start. */
static bool entry_less(const struct join_entry *a, const struct join_entry *b)
{
	int c = key_cmp(a, b);

	if (c)
		return c < 0;
	if (a->site == b->site && a->site->exact)
		return a->seq > b->seq;
	return a->seq < b->seq;
}

static void heap_swap(struct join_entry *h, uint32_t i, uint32_t j)
{
	struct join_entry t = h[i];

	h[i] = h[j];
	h[j] = t;
}

/* Queues summary d of site s. A loop head grown by a trip waits for the
 * whole body (key past its highest rank): inner work settles first. */
static int heap_push(struct vet_env *env, struct join_walk *w, struct join_site *s, uint32_t d,
		     bool back_edge)
{
	uint32_t i, key = back_edge ? 2 * s->loop->end_rank + 1 : s->key[s->curframe];
	struct join_entry *h = join_grow(env, w->heap, w->heap_cnt, &w->heap_cap, sizeof(*h));

	if (!h)
		return -ENOMEM;
	w->heap = h;
	i = w->heap_cnt++;
	w->heap[i] = (struct join_entry){ s, d, key, w->seq++ };
	while (i && entry_less(&w->heap[i], &w->heap[(i - 1) / 2])) {
		heap_swap(w->heap, i, (i - 1) / 2);
		i = (i - 1) / 2;
	}
	s->disj[d]->queued = true;
	return 0;
}

/* Moves entry i down to its place among its descendants. */
static void heap_sift_down(struct join_walk *w, uint32_t i)
{
	for (;;) {
		uint32_t l = 2 * i + 1, r = l + 1, m = i;

		if (l < w->heap_cnt && entry_less(&w->heap[l], &w->heap[m]))
			m = l;
		if (r < w->heap_cnt && entry_less(&w->heap[r], &w->heap[m]))
			m = r;
		if (m == i)
			return;
		heap_swap(w->heap, i, m);
		i = m;
	}
}

static struct join_entry heap_pop(struct join_walk *w)
{
	struct join_entry top = w->heap[0];

	w->heap[0] = w->heap[--w->heap_cnt];
	heap_sift_down(w, 0);
	return top;
}

/* ---- Sites ----------------------------------------------------------- */

static uint32_t chain_hash(const struct vstate *st, uint32_t insn, uint32_t n)
{
	uint32_t h = insn;

	for (uint32_t i = 1; i <= st->curframe; i++)
		h = h * 31 + (uint32_t)st->frame[i]->callsite;
	return h % n;
}

static bool site_matches(const struct join_site *s, const struct vstate *st, uint32_t insn)
{
	if (s->insn != insn || s->curframe != st->curframe)
		return false;
	for (uint32_t i = 1; i <= st->curframe; i++)
		if (s->callsites[i] != st->frame[i]->callsite)
			return false;
	return true;
}

static bool site_in_loop(const struct join_site *s, const struct join_site *t);

/* A site is first reached from a pass or trip of each loop around it
 * (a loop's head dominates its body): it joins their lists then. */
static int note_body_site(struct vet_env *env, struct join_walk *w, struct join_site *t)
{
	for (uint32_t i = 0; i < w->nwin; i++) {
		struct join_site *h = w->win[i], **v;

		if (!site_in_loop(h, t))
			continue;
		v = join_grow(env, h->body, h->nbody, &h->body_cap, sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->body = v;
		h->body[h->nbody++] = t;
	}
	return 0;
}

static struct join_site *site_get(struct vet_env *env, struct join_walk *w,
				  const struct vstate *st, uint32_t insn)
{
	struct join_site **b = &w->buckets[chain_hash(st, insn, env->insn_cnt)], *s;

	for (s = *b; s; s = s->next)
		if (site_matches(s, st, insn))
			return s;
	s = vet_calloc(env, 1, sizeof(*s));
	if (!s)
		return NULL;
	s->insn = insn;
	s->curframe = st->curframe;
	for (uint32_t i = 0; i <= st->curframe; i++) {
		s->callsites[i] = st->frame[i]->callsite;
		s->key[i] = 2 * (i < st->curframe ? w->rank[st->frame[i + 1]->callsite] : w->rank[insn]);
	}
	if (w->loop_of[insn])
		s->loop = &w->loops[w->loop_of[insn] - 1];
	s->exact = s->loop && (env->opts_off & BPFVET_NO_LOOP_WIDEN);
	s->next = *b;
	*b = s;
	s->all_next = w->all;
	w->all = s;
	env->stats.join_sites++;
	return note_body_site(env, w, s) ? NULL : s;
}

static void site_clear(struct vet_env *env, struct join_site *s)
{
	for (uint32_t d = 0; d < s->ndisj; d++) {
		state_clear(env, &s->disj[d]->st);
		vet_free(env, s->disj[d]);
	}
	vet_free(env, s->disj);
	s->disj = NULL;
	s->ndisj = 0;
	s->cap = 0;
	s->trip = NULL;
	s->nfinished = 0;
	if (s->entry) {
		state_clear(env, s->entry);
		vet_free(env, s->entry);
		s->entry = NULL;
	}
	vet_free(env, s->pass);
	s->pass = NULL;
	s->growths = 0;
}

/* A summary stands alone: no checkpoint above it, no history behind it. */
static void make_summary(struct vstate *st, uint32_t insn)
{
	st->parent = NULL;
	st->branches = 0;
	st->jmp_history_cnt = 0;
	st->insn_idx = insn;
	st->first_insn_idx = insn;
	st->equal_state = NULL;
	st->cleaned = false;
}

static int add_disjunct(struct vet_env *env, struct join_walk *w, struct join_site *s,
			const struct vstate *src, bool back_edge)
{
	struct join_disj *d, **v;
	int err;

	v = join_grow(env, s->disj, s->ndisj, &s->cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	s->disj = v;
	d = vet_calloc(env, 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->disj[s->ndisj++] = d;
	err = state_copy(env, &d->st, src);
	if (err)
		return err;
	make_summary(&d->st, s->insn);
	d->digest = join_shape_digest(&d->st);
	return heap_push(env, w, s, s->ndisj - 1, back_edge);
}

/* ---- Loop heads: passes and termination ---------------------------- */

/* Is site t inside the loop headed by site s (the same call chain up to
 * s's frame, and there an instruction or call of the body)? */
static bool site_in_loop(const struct join_site *s, const struct join_site *t)
{
	uint32_t ip;

	if (t == s || t->curframe < s->curframe)
		return false;
	for (uint32_t i = 0; i <= s->curframe; i++)
		if (t->callsites[i] != s->callsites[i])
			return false;
	ip = t->curframe == s->curframe ? t->insn : (uint32_t)t->callsites[s->curframe + 1];
	return join_loop_contains(s->loop, ip);
}

/* A new pass from a loop head: the body's sites start afresh, so that
 * the pass walks every trip from this summary, with this pass's names
 * for the head's values. A site still queued is left as it is. */
static void reset_body(struct vet_env *env, const struct join_site *s)
{
	for (uint32_t i = 0; i < s->nbody; i++) {
		struct join_site *t = s->body[i];
		bool queued = false;

		if (!t->ndisj)
			continue;
		for (uint32_t d = 0; d < t->ndisj; d++)
			queued |= t->disj[d]->queued;
		if (!queued)
			site_clear(env, t);
	}
}

static struct reg_state *loc_value(struct func_state *f, int k)
{
	struct stack_slot *sl;

	if (k < BPF_REG_FP)
		return &f->regs[k];
	if (k - BPF_REG_FP >= f->allocated_stack / BPF_REG_SIZE)
		return NULL;
	sl = stack_slot_at(f, k - BPF_REG_FP);
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (sl->slot_type[i] != STACK_SPILL)
			return NULL;
	return &sl->spilled_ptr;
}

/* Names each unnamed value of the loop's frame (a fresh scalar id) and
 * records the head's values for the pass. */
static int start_pass(struct vet_env *env, struct join_site *s, bool from_entry)
{
	struct func_state *f = env->cur->frame[env->cur->curframe];

	if (!s->pass)
		s->pass = vet_calloc(env, 1, sizeof(*s->pass));
	if (!s->pass)
		return -ENOMEM;
	memset(s->pass, 0, sizeof(*s->pass));
	s->pass->from_entry = from_entry;
	for (int k = 0; k < JOIN_LOCS; k++) {
		struct reg_state *r = loc_value(f, k);

		if (!r || r->type != SCALAR_VALUE || (r->id & BPF_ADD_CONST))
			continue;
		if (!r->id && !tnum_is_const(r->b.var_off)) {
			if (k >= BPF_REG_FP && frame_own_slot(env, f, k - BPF_REG_FP))
				return -ENOMEM;
			r = loc_value(f, k);
			r->id = ++env->id_gen;
		}
		s->pass->loc[k].id = r->id;
		s->pass->loc[k].alive = r->id != 0;
		s->pass->loc[k].head = r->b;
	}
	return 0;
}

/* Did location k move by a constant from the head, without wrapping? */
static int trip_step(const struct join_pass *p, int k, const struct reg_state *v)
{
	const struct bounds *h = &p->loc[k].head;
	int64_t d;

	if (!v || v->type != SCALAR_VALUE || !(v->id & BPF_ADD_CONST) ||
	    (v->id & ~BPF_ADD_CONST) != p->loc[k].id || !v->off)
		return 0;
	d = v->off;
	if (v->id & BPF_ADD_CONST32) {
		if (h->umax > UINT32_MAX)
			return 0;
		if (d > 0 ? h->u32_max > UINT32_MAX - (uint64_t)d : h->u32_min < (uint64_t)-d)
			return 0;
	} else if (d > 0 ? h->umax > UINT64_MAX - (uint64_t)d : h->umin < (uint64_t)-d) {
		return 0;
	}
	return d > 0 ? 1 : -1;
}

static void note_trip(struct join_pass *p, struct vstate *cur)
{
	struct func_state *f = cur->frame[cur->curframe];

	p->backedges++;
	for (int k = 0; k < JOIN_LOCS; k++) {
		int step;

		if (!p->loc[k].alive)
			continue;
		step = trip_step(p, k, loc_value(f, k));
		if (!step || (p->loc[k].sign && p->loc[k].sign != step))
			p->loc[k].alive = false;
		else
			p->loc[k].sign = (int8_t)step;
	}
}

static bool pass_terminates(const struct join_pass *p)
{
	if (!p || !p->backedges || p->from_entry)
		return true;
	for (int k = 0; k < JOIN_LOCS; k++)
		if (p->loc[k].alive && p->loc[k].sign)
			return true;
	return false;
}

/* ---- The walk's side --------------------------------------------------- */

/* Registers no continuation reads are unreadable in a summary: they
 * then join with anything. */
static void drop_dead_regs(struct vet_env *env, struct vstate *st)
{
	if (env->opts_off & BPFVET_NO_LIVENESS)
		return;
	for (uint32_t fr = 0; fr <= st->curframe; fr++) {
		uint16_t live = env->aux[state_frame_ip(st, fr)].live_regs_before;

		for (int r = 0; r < BPF_REG_FP; r++)
			if (!(live & (1u << r)))
				reg_mark_not_init(&st->frame[fr]->regs[r]);
	}
}

/* The path's checkpoints (where all shapes of a site were taken) cannot
 * see what the continuation from a site will read: assume everything. */
static int protect_checkpoints(struct vet_env *env)
{
	struct vstate *cur = env->cur;
	int err;

	if (!cur->parent)
		return 0;
	err = mark_all_precise_from(env, cur);
	for (uint32_t fr = 0; !err && fr <= cur->curframe; fr++)
		err = stack_live_read(env, fr, ~0ull);
	return err;
}

static int join_into(struct vet_env *env, struct join_walk *w, struct join_site *s,
		     uint32_t d, bool back_edge)
{
	struct join_widening wd = { (env->opts_off & BPFVET_NO_THRESHOLDS) ? NULL : &w->thr };
	bool widen = back_edge && s->growths >= JOIN_WIDEN_AFTER;
	bool changed;
	int err = join_matching_states(env, &s->disj[d]->st, env->cur, widen ? &wd : NULL,
					&changed);

	if (err)
		return err;
	/* A register unreadable on one side is unreadable in the join. */
	if (changed)
		s->disj[d]->digest = join_shape_digest(&s->disj[d]->st);
	if (changed && back_edge) {
		env->stats.join_loop_joins++;
		s->growths++;
		if (s->pass)
			s->pass->growths++;
	}
	if (changed && !s->disj[d]->queued)
		err = heap_push(env, w, s, d, back_edge);
	return err ? err : 1;
}

/* A trip that moved a pointer: an interval cannot tie the pointer to
 * the counter that bounds the loop, only the trips walked one by one can
 * (the kernel's way). */
static bool pointer_differs(const struct reg_state *x, const struct reg_state *y)
{
	return x->type != SCALAR_VALUE && x->type != NOT_INIT &&
	       (x->off != y->off || !bounds_equal(&x->b, &y->b));
}

static bool pointer_moved(const struct vstate *sum, const struct vstate *cur)
{
	const struct func_state *a = sum->frame[sum->curframe], *b = cur->frame[cur->curframe];
	int slots = a->allocated_stack < b->allocated_stack ? a->allocated_stack : b->allocated_stack;

	for (int r = 0; r < BPF_REG_FP; r++)
		if (pointer_differs(&a->regs[r], &b->regs[r]))
			return true;
	for (int k = 0; k < slots / BPF_REG_SIZE; k++)
		if (stack_slot_at(a, k)->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL &&
		    pointer_differs(&stack_slot_at(a, k)->spilled_ptr,
				    &stack_slot_at(b, k)->spilled_ptr))
			return true;
	return false;
}

/* Keeps the join of the head's forward arrivals (shapes that differ
 * leave the first one: the head then has no entry to start again from). */
static int note_entry(struct vet_env *env, struct join_site *s)
{
	bool changed;
	int err;

	if (s->entry) {
		err = join_states(env, s->entry, env->cur, NULL, &changed);
		if (err == 1)
			s->no_restart = true;
		return err < 0 ? err : 0;
	}
	s->entry = vet_calloc(env, 1, sizeof(*s->entry));
	if (!s->entry)
		return -ENOMEM;
	err = state_copy(env, s->entry, env->cur);
	if (!err)
		make_summary(s->entry, s->insn);
	return err;
}

/* Ancestors a returning trip is compared with for an endless loop. */
#define TRIP_LOOP_DEPTH 64
/* A finished trip leaves the ring of those compared with: nothing reads
 * its state any more (its descendants are finished too). */
static void remember_finished(struct vet_env *env, struct join_site *s, struct join_disj *d)
{
	struct join_disj **slot = &s->finished[s->nfinished++ % TRIP_PRUNE_MAX];

	/* The self-check reads every trip (join_keep). */
	if (s->nfinished > TRIP_PRUNE_MAX && !env->keep_states)
		state_clear(env, &(*slot)->st);
	*slot = d;
}

static void finish_trips(struct vet_env *env, struct join_site *s, struct join_disj *d)
{
	while (d && d->walked && !d->pending && !d->finished) {
		d->finished = true;
		remember_finished(env, s, d);
		d = d->parent;
		if (d)
			d->pending--;
	}
}

static uint64_t width_of(const struct reg_state *r)
{
	return r->type == SCALAR_VALUE ? r->b.umax - r->b.umin : 0;
}

/* Trips one after another that widened some value: past this many, the
 * trips are taken to widen without end. Trips walked one by one are
 * meant to follow exact values; values that keep widening instead (paths
 * merged inside the body) may never meet the loop's exit. */
#define TRIP_WIDEN_RUN 32

static bool is_const_scalar(const struct reg_state *r)
{
	return r->type == SCALAR_VALUE && tnum_is_const(r->b.var_off);
}

/* Does trip b only widen values of its parent trip a? A trip that steps
 * an exact value (a counter) makes progress, whatever else widens (a
 * sum, say). */
static bool trip_widens(const struct vstate *a, const struct vstate *b)
{
	const struct func_state *fa = a->frame[a->curframe], *fb = b->frame[b->curframe];
	bool widens = false;

	if (a->curframe != b->curframe)
		return false;
	for (int r = 0; r < BPF_REG_FP; r++) {
		const struct reg_state *x = &fa->regs[r], *y = &fb->regs[r];

		if (is_const_scalar(x) && is_const_scalar(y) &&
		    x->b.var_off.value != y->b.var_off.value)
			return false;
		widens |= width_of(y) > width_of(x);
	}
	return widens;
}

static int add_trip(struct vet_env *env, struct join_walk *w, struct join_site *s,
		    bool back_edge, uint32_t run)
{
	struct join_disj *parent = back_edge ? s->trip : NULL;
	int err = add_disjunct(env, w, s, env->cur, back_edge);

	if (err)
		return err;
	s->disj[s->ndisj - 1]->parent = parent;
	s->disj[s->ndisj - 1]->widen_run = run;
	if (parent)
		parent->pending++;
	return 1;
}

/*
 * An arrival at a head walked trip by trip. As in the kernel's walk, a
 * trip that comes back exactly to the state of a trip it descends from
 * loops forever, and a trip inside one whose every continuation was
 * walked (finished) needs no walk of its own. An unfinished trip proves
 * nothing: it may lead back here.
 */
static int visit_trip(struct vet_env *env, struct join_walk *w, struct join_site *s,
		      bool back_edge)
{
	struct join_disj *a = back_edge ? s->trip : NULL;
	uint32_t checked = 0;
	uint32_t run = a && trip_widens(&a->st, env->cur) ? a->widen_run + 1 : 0;

	if (run >= TRIP_WIDEN_RUN) {
		verbose(env, "join: the trips of the loop at insn %u widen without end\n", s->insn);
		return -E2BIG;
	}
	for (int depth = 0; a && depth < TRIP_LOOP_DEPTH; depth++, a = a->parent) {
		if (states_maybe_looping(&a->st, env->cur) &&
		    states_equal(env, &a->st, env->cur, EXACT)) {
			verbose(env, "join: a trip of the loop at insn %u comes back to where it started\n",
				s->insn);
			return -EINVAL;
		}
	}
	for (; checked < TRIP_PRUNE_MAX && checked < s->nfinished; checked++) {
		const struct join_disj *f = s->finished[(s->nfinished - 1 - checked) % TRIP_PRUNE_MAX];

		if (states_equal(env, &f->st, env->cur, RANGE_WITHIN)) {
			return 1;
		}
	}
	return add_trip(env, w, s, back_edge, run);
}

/* Would a trip joined with the head's entries lose a register that the
 * entries lack and the trip sets (say, by a call in the loop)? */
static bool entry_lacks(const struct vstate *entry, const struct vstate *trip)
{
	const struct func_state *a = entry->frame[entry->curframe];
	const struct func_state *b = trip->frame[trip->curframe];

	for (int r = 0; r < BPF_REG_FP; r++)
		if (a->regs[r].type == NOT_INIT && b->regs[r].type != NOT_INIT)
			return true;
	return false;
}

static int go_trip_by_trip(struct vet_env *env, struct join_walk *w, struct join_site *s,
			   bool back_edge)
{
	s->exact = true;
	return add_trip(env, w, s, back_edge, 0);
}

/* A loop head keeps one summary: its passes are then one sequence. When
 * the first trip back sets a register its entries lack, the trips get a
 * summary of their own (summary 1; the entries' is walked one trip per
 * entry): merged with the entries, that register would be unreadable. A
 * head that cannot keep them (shapes differ, or a pointer moves) is
 * walked trip by trip: every arrival is queued as it is, and its trips
 * end by the program's own bounds (or at the complexity limit). */
static int visit_head(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	bool back_edge = join_is_back_edge(env, w, env->prev_insn_idx, s->insn);
	uint32_t d;

	if (s->exact)
		return visit_trip(env, w, s, back_edge);
	/* The entries a merged loop starts again from (a head walked trip
	 * by trip never does). */
	if (!back_edge) {
		int err = note_entry(env, s);

		if (err)
			return err;
	}
	if (!s->ndisj) {
		int err = add_disjunct(env, w, s, env->cur, back_edge);

		return err ? err : 1;
	}
	d = back_edge && s->ndisj > 1 ? 1 : 0;
	if (!join_shapes_equal(&s->disj[d]->st, env->cur) ||
	    (back_edge && pointer_moved(&s->disj[d]->st, env->cur)))
		return go_trip_by_trip(env, w, s, back_edge);
	if (back_edge && s->pass)
		note_trip(s->pass, env->cur);
	if (back_edge && s->ndisj == 1 && entry_lacks(&s->disj[0]->st, env->cur)) {
		int err = add_disjunct(env, w, s, env->cur, true);

		if (!err && s->pass)
			s->pass->growths++;
		return err ? err : 1;
	}
	return join_into(env, w, s, d, back_edge);
}

/*
 * Called before the walk simulates insn idx. Returns 1 when the path
 * ended by joining a site, 0 when the walk goes on (no site here), 2
 * when it goes on past a site with all its shapes taken (the kernel's
 * checkpoints then prune there), or a negative errno.
 */
int join_visit(struct vet_env *env, uint32_t idx)
{
	struct join_walk *w = env->join;

	if (w->resumed_at == idx) {
		w->resumed_at = -1;
		return 0;
	}
	w->resumed_at = -1;
	if (!w->loop_of[idx] && w->preds[idx] < 2)
		return 0;
	/* Without merging where paths meet, the kernel's checkpoints prune
	 * there. */
	if (!w->loop_of[idx] && (env->opts_off & BPFVET_NO_JOIN_POINTS))
		return 2;
	return join_arrive(env, idx, false);
}

/* The current path arrives at site idx: joins a summary there (1), or,
 * all shapes taken and not forced, goes on past it (2). */
int join_arrive(struct vet_env *env, uint32_t idx, bool force)
{
	struct join_walk *w = env->join;
	struct join_site *s = site_get(env, w, env->cur, idx);
	uint64_t digest;
	int err;

	if (!s)
		return -ENOMEM;
	err = protect_checkpoints(env);
	if (err)
		return err;
	drop_dead_regs(env, env->cur);
	err = join_drop_dead_slots(env, w, env->cur, idx);
	if (err)
		return err;
	env->stats.join_arrivals++;
	if (s->loop)
		return visit_head(env, w, s);
	digest = join_shape_digest(env->cur);
	for (uint32_t d = 0; d < s->ndisj; d++) {
		if (s->disj[d]->spent || s->disj[d]->digest != digest ||
		    !join_shapes_equal(&s->disj[d]->st, env->cur))
			continue;
		return join_into(env, w, s, d, false);
	}
	if (s->ndisj >= JOIN_DISJ_MAX && !force) {
		s->overflow = true;
		return 2;
	}
	err = add_disjunct(env, w, s, env->cur, false);
	return err ? err : 1;
}

/* Drops the queued summaries of head s and of its loop's body. */
static void dequeue_loop(struct join_walk *w, const struct join_site *s)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < w->heap_cnt; i++) {
		struct join_entry *e = &w->heap[i];

		if (e->site == s || site_in_loop(s, e->site)) {
			e->site->disj[e->disj]->queued = false;
			continue;
		}
		w->heap[n++] = *e;
	}
	w->heap_cnt = n;
	/* Re-establish the heap order over what is left. */
	for (uint32_t i = n / 2; i-- > 0;)
		heap_sift_down(w, i);
}

/*
 * A merged loop failed (its last pass proved no bound on its trips, or a
 * check inside it failed on the merged values): the loop starts again
 * from its entry, trip by trip. What the merged passes sent past the loop
 * stays where it arrived: it over-approximates, so it costs precision
 * at worst. Returns 0, or -ENOENT when the head cannot start again.
 */
static int restart_trip_by_trip(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	struct vstate *entry = s->entry;
	int err;

	if (!entry || s->no_restart || s->exact)
		return -ENOENT;
	/* Windows inside s's (and s's own, if still open) go with it. */
	for (uint32_t i = w->nwin; i-- > 0;) {
		if (w->win[i] == s) {
			w->nwin = i;
			break;
		}
	}
	dequeue_loop(w, s);
	join_calls_forget_unconfirmed(env);
	reset_body(env, s);
	s->entry = NULL;
	site_clear(env, s);
	s->entry = entry;
	s->exact = true;
	err = add_disjunct(env, w, s, entry, false);
	return err < 0 ? err : 0;
}

/* The innermost loop head being walked by merged passes. */
static struct join_site *innermost_merged(const struct join_walk *w)
{
	for (uint32_t i = w->nwin; i-- > 0;)
		if (!w->win[i]->exact && w->win[i]->growths)
			return w->win[i];
	return NULL;
}

/*
 * A check failed on the current path. When the path comes from merged
 * trips of a loop, the loop starts again trip by trip instead; returns 0
 * then (the caller drops the path and those pending), else err.
 */
int join_recover(struct vet_env *env, int err)
{
	struct join_walk *w = env->join;
	struct join_site *s;

	if (!w || env->unsupported || (err != -EACCES && err != -EINVAL))
		return err;
	s = innermost_merged(w);
	if (!s || restart_trip_by_trip(env, w, s))
		return err;
	verbose(env, "join: the loop at insn %u starts again, trip by trip\n", s->insn);
	return 0;
}

/* The pass or trip of loop head s is over: its body's work is done. */
static int close_window(struct vet_env *env, struct join_site *s)
{
	if (s->exact) {
		if (s->trip) {
			s->trip->walked = true;
			finish_trips(env, s, s->trip);
			s->trip = NULL;
		}
		return 0;
	}
	/* A pass that grew the summary is followed by another. */
	if (!s->pass || s->pass->growths || pass_terminates(s->pass))
		return 0;
	verbose(env, "join: no value moves the same way on every trip of the loop at insn %u\n",
		s->insn);
	return restart_trip_by_trip(env, env->join, s) ? -EINVAL : 0;
}

/* Closes the windows the queue has moved past (all of them when it is
 * empty). Closing one may queue work again (a loop starting over). */
static int close_windows(struct vet_env *env, struct join_walk *w)
{
	while (w->nwin) {
		struct join_site *s = w->win[w->nwin - 1];
		struct join_entry end = { s, 0, 2 * s->loop->end_rank + 1, 0 };
		int err;

		if (w->heap_cnt && key_cmp(&w->heap[0], &end) < 0)
			break;
		w->nwin--;
		err = close_window(env, s);
		if (err)
			return err;
	}
	return 0;
}

static int open_window(struct vet_env *env, struct join_walk *w, struct join_site *s,
		       struct join_disj *d)
{
	struct join_site **v = join_grow(env, w->win, w->nwin, &w->win_cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	w->win = v;
	w->win[w->nwin++] = s;
	if (s->exact) {
		s->trip = d;
		return 0;
	}
	return start_pass(env, s, s->ndisj > 1 && d == s->disj[0]);
}

/* Resumes the first queued summary as the current state. Returns
 * -ENOENT when none is queued. */
int join_resume(struct vet_env *env, uint32_t *prev_insn_idx)
{
	struct join_walk *w = env->join;
	struct join_entry e;
	struct join_disj *d;
	int err;

	if (!w)
		return -ENOENT;
	err = close_windows(env, w);
	if (err)
		return err;
	if (!w->heap_cnt)
		return -ENOENT;
	e = heap_pop(w);
	d = e.site->disj[e.disj];
	d->queued = false;
	if (e.site->loop)
		reset_body(env, e.site);
	state_clear(env, env->cur);
	err = state_copy(env, env->cur, &d->st);
	if (err)
		return err;
	/* Outside every loop its arrivals are in (the queue's order): the
	 * summary's memory goes back for the next ones. The self-check reads
	 * every summary. */
	if (!e.site->loop && !w->nwin && !env->keep_states) {
		state_clear(env, &d->st);
		d->spent = true;
	}
	env->cur->branches = 1;
	if (e.site->loop) {
		err = open_window(env, w, e.site, d);
		if (err)
			return err;
	}
	env->segment_gen++;
	env->insn_idx = e.site->insn;
	*prev_insn_idx = e.site->insn;
	w->resumed_at = e.site->insn;
	env->stats.join_resumes++;
	return 0;
}

/* At the end of the walk: did the last pass of every loop prove that its
 * trips end? close_window() decided it for each final pass, and a loop
 * that started again left no pass behind; this is the backstop that
 * keeps an unproven loop from being accepted if that bookkeeping ever
 * missed one. */
int join_finish(struct vet_env *env)
{
	struct join_walk *w = env->join;

	if (!w)
		return 0;
	for (struct join_site *s = w->all; s; s = s->all_next) {
		if (!s->loop || s->exact || pass_terminates(s->pass))
			continue;
		verbose(env, "join: no value moves the same way on every trip of the loop at insn %u\n",
			s->insn);
		return -EINVAL;
	}
	return 0;
}

/* Where the walk stays the kernel's: loops the kernel bounds by other
 * means (iterators, callbacks, may_goto) keep their own convergence. */
static bool joinable_program(const struct vet_env *env)
{
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];
		bool kfunc = insn->code == (BPF_JMP | BPF_CALL) &&
			     insn->src_reg == BPF_PSEUDO_KFUNC_CALL;

		if (env->aux[i].calls_callback || insn->code == (BPF_JMP | BPF_JCOND) ||
		    (kfunc && (kfunc_is_iter_next(env, insn) || kfunc_is_sync_callback(env, insn))))
			return false;
	}
	return true;
}

int join_init(struct vet_env *env)
{
	struct join_walk *w;
	int err;

	if (!env->join_mode)
		return 0;
	if (!joinable_program(env)) {
		env->join_mode = false;
		return 0;
	}
	w = vet_calloc(env, 1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	env->join = w;
	/* The beyond-kernel checkpoint placements assume the depth-first
	 * order and its checkpoints everywhere: not used with sites. */
	env->opts_on = 0;
	w->resumed_at = -1;
	w->rank = vet_calloc(env, env->insn_cnt, sizeof(*w->rank));
	w->buckets = vet_calloc(env, env->insn_cnt, sizeof(*w->buckets));
	if (!w->rank || !w->buckets)
		return -ENOMEM;
	err = compute_ranks(env, w);
	if (!err)
		err = join_slots_init(env, w);
	if (!err)
		err = join_loops_init(env, w);
	if (!err)
		err = join_calls_init(env, w);
	if (err == 1) {
		/* An irreducible loop: the kernel's walk. */
		join_free(env);
		env->join_mode = false;
		return 0;
	}
	return err;
}

/* bpfvet selfcheck: the summaries and trips of every site where paths
 * were merged without overflow (a site past JOIN_DISJ_MAX shapes let
 * paths through unmerged) go to the kept states, tagged. */
static int join_keep(struct vet_env *env, struct join_site *s)
{
	for (uint32_t d = 0; d < s->ndisj && !s->overflow; d++) {
		struct state_list *sl;

		if (!s->disj[d]->st.frame[0])
			continue;
		sl = vet_calloc(env, 1, sizeof(*sl));
		if (!sl)
			return -ENOMEM;
		sl->state = s->disj[d]->st;
		memset(&s->disj[d]->st, 0, sizeof(s->disj[d]->st));
		sl->state.insn_idx = s->insn;
		sl->summary = true;
		sl->next = env->kept;
		env->kept = sl;
	}
	return 0;
}

void join_free(struct vet_env *env)
{
	struct join_walk *w = env->join;
	struct join_site *s, *next;

	if (!w)
		return;
	for (s = w->all; env->keep_states && s; s = s->all_next) {
		if (join_keep(env, s)) {
			/* verify_keep() reports it: a partial record would
			 * check runs against fewer states than were merged. */
			env->err = -ENOMEM;
			break;
		}
	}
	for (s = w->all; s; s = next) {
		next = s->all_next;
		site_clear(env, s);
		vet_free(env, s->body);
		vet_free(env, s);
	}
	join_calls_free(env, w);
	join_loops_free(env, w);
	join_slots_free(env, w);
	vet_free(env, w->buckets);
	vet_free(env, w->rank);
	vet_free(env, w->heap);
	vet_free(env, w->win);
	vet_free(env, w);
	env->join = NULL;
}
