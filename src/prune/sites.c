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

/* A call chain's hash, from seed (the instruction of a site, 0 for a
 * call's record in join_calls.c), into n buckets. */
uint32_t join_chain_hash(const struct vstate *st, uint32_t seed, uint32_t n)
{
	uint32_t h = seed;

	for (uint32_t i = 1; i <= st->curframe; i++)
		h = h * 31 + (uint32_t)st->frame[i]->callsite;
	return h % n;
}

/* Is st's call chain the one recorded in callsites (curframe frames)? */
bool join_chain_equal(const int *callsites, uint32_t curframe, const struct vstate *st)
{
	if (curframe != st->curframe)
		return false;
	for (uint32_t i = 1; i <= st->curframe; i++)
		if (callsites[i] != st->frame[i]->callsite)
			return false;
	return true;
}

static bool site_matches(const struct join_site *s, const struct vstate *st, uint32_t insn)
{
	return s->insn == insn && join_chain_equal(s->callsites, s->curframe, st);
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
	struct join_site **b = &w->buckets[join_chain_hash(st, insn, env->insn_cnt)], *s;

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

static void drop_list(struct vet_env *env, struct join_held **v, uint32_t *n, uint32_t *cap)
{
	for (uint32_t i = 0; i < *n; i++)
		state_clear(env, &(*v)[i].st);
	vet_free(env, *v);
	*v = NULL;
	*n = 0;
	*cap = 0;
}

static void drop_held(struct vet_env *env, struct join_site *s)
{
	drop_list(env, &s->held, &s->nheld, &s->held_cap);
}

/* bpfvet selfcheck: the summaries of s that were walked go to s->stash
 * (join_keep() then hands them over). */
static void stash_summaries(struct vet_env *env, struct join_site *s)
{
	for (uint32_t d = 0; d < s->ndisj; d++) {
		struct state_list *sl;

		if (!s->disj[d]->st.frame[0] || s->disj[d]->queued)
			continue;
		sl = vet_calloc(env, 1, sizeof(*sl));
		if (!sl) {
			/* verify_keep() reports it. */
			env->err = -ENOMEM;
			return;
		}
		sl->state = s->disj[d]->st;
		memset(&s->disj[d]->st, 0, sizeof(s->disj[d]->st));
		sl->state.insn_idx = s->insn;
		sl->summary = true;
		sl->next = s->stash;
		s->stash = sl;
	}
}

static void site_clear(struct vet_env *env, struct join_site *s)
{
	if (env->keep_states)
		stash_summaries(env, s);
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
	drop_held(env, s);
	drop_list(env, &s->deferred, &s->ndeferred, &s->deferred_cap);
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
	if (!s->ndisj)
		s->merge_ckpts = env->stats.total_states;
	d = vet_calloc(env, 1, sizeof(*d));
	if (!d)
		return -ENOMEM;
	s->disj[s->ndisj++] = d;
	err = state_copy(env, &d->st, src);
	if (err)
		return err;
	make_summary(&d->st, s->insn);
	d->digest = join_shape_digest(&d->st);
	d->paid = true;
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




/* Records the head's values as the pass starts: join_deltas() reads
 * the trips' moves relative to them. */
static int start_pass(struct vet_env *env, struct join_site *s, bool from_entry)
{
	struct func_state *f = env->cur->frame[env->cur->curframe];

	if (!s->pass)
		s->pass = vet_calloc(env, 1, sizeof(*s->pass));
	if (!s->pass)
		return -ENOMEM;
	memset(s->pass, 0, sizeof(*s->pass));
	s->pass->from_entry = from_entry;
	for (int k = 0; k < JOIN_LOCS; k++)
		join_note_head(s->pass, k, join_loc(f, k));
	return 0;
}

/* Are the trips of the pass finitely many? A pass in which no trip came
 * back, or one trip from each entry, needs no bound; otherwise a value
 * must move one way on every trip within the summary's bounds
 * (join_deltas.c). */
static bool pass_terminates(const struct join_pass *p)
{
	return !p || !p->backedges || p->from_entry || p->deltas_terminate;
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
	struct join_widening wd = { NULL };
	bool widen = back_edge && s->growths >= JOIN_WIDEN_AFTER;
	bool changed;
	int err = 0;

	if (widen && !(env->opts_off & BPFVET_NO_THRESHOLDS))
		err = join_loop_thresholds(env, w, s->insn, &wd.t);
	if (!err)
		err = join_matching_states(env, &s->disj[d]->st, env->cur, widen ? &wd : NULL,
					   &changed);
	if (err)
		return err;
	/* The walk from the summary goes on from this arrival too. */
	if (changed || s->disj[d]->queued)
		s->disj[d]->paid = true;
	/* A register unreadable on one side is unreadable in the join. */
	if (changed)
		s->disj[d]->digest = join_shape_digest(&s->disj[d]->st);
	if (changed && back_edge) {
		env->stats.join_loop_joins++;
		s->growths++;
		if (s->pass)
			s->pass->growths++;
		join_narrow(env, s, &s->disj[d]->st, 0);
	}
	if (changed && !s->disj[d]->queued)
		err = heap_push(env, w, s, d, back_edge);
	return err ? err : 1;
}








/* How states join at a loop head: stack pointers that the trips move
 * may fold into a variable offset (join.c), as pointers into map values
 * do everywhere. */
static uint32_t head_how(const struct vet_env *env)
{
	return (env->opts_off & BPFVET_NO_STACK_FOLD) ? 0 : JOIN_STACK_MOVES;
}

/* Keeps the join of the head's forward arrivals (shapes that differ
 * leave the first one: the head then has no entry to start again from). */
static int note_entry(struct vet_env *env, struct join_site *s, bool *changed)
{
	int err;

	*changed = true;
	if (s->entry) {
		err = join_states(env, s->entry, env->cur, NULL, head_how(env), changed);
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

/* The walk ends a path at site t without walking on, because a state it
 * walked before the current facts began covers it (a kernel checkpoint,
 * an older trip): the merged passes whose bodies hold t miss what that
 * walk saw, and their deltas prove nothing. */
static void taint_passes(struct join_walk *w, const struct join_site *t)
{
	for (uint32_t i = 0; i < w->nwin; i++) {
		struct join_site *h = w->win[i];

		if (!h->exact && h->pass && (h == t || site_in_loop(h, t)))
			h->pass->tainted = true;
	}
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
			if (f->gen != w->fact_gen)
				taint_passes(w, s);
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

/* A head going trip by trip: its waiting entries become trips too. */
static int flush_deferred(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	int err = 0;

	for (uint32_t i = 0; !err && i < s->ndeferred; i++)
		err = add_disjunct(env, w, s, &s->deferred[i].st, false);
	drop_list(env, &s->deferred, &s->ndeferred, &s->deferred_cap);
	return err;
}

static int go_trip_by_trip(struct vet_env *env, struct join_walk *w, struct join_site *s,
			   bool back_edge)
{
	int err;

	s->exact = true;
	err = flush_deferred(env, w, s);
	return err ? err : add_trip(env, w, s, back_edge, 0);
}

static int restart_trip_by_trip(struct vet_env *env, struct join_walk *w, struct join_site *s);

/* A merged head whose arrivals can no longer be merged goes trip by trip
 * from here on: the summary already walked covers what came before. Not
 * when this pass narrowed values by a relation: the pass had to end to
 * prove it, so the loop starts again from its entries, and the paths of
 * the pass (all pending ones) are dropped. */
static int leave_merged(struct vet_env *env, struct join_walk *w, struct join_site *s,
			bool back_edge)
{
	int err;

	if (!s->pass || !s->pass->rel_used)
		return go_trip_by_trip(env, w, s, back_edge);
	err = restart_trip_by_trip(env, w, s);
	if (err)
		return err == -ENOENT ? -EFAULT : err;
	verbose(env, "join: the loop at insn %u starts again, trip by trip\n", s->insn);
	return JOIN_RESTARTED;
}

/* Keeps the current path's state in list v (joined with one of the same
 * instruction, edge and shape); the path ends there. */
static int keep_path(struct vet_env *env, struct join_held **v, uint32_t *n, uint32_t *cap,
		     uint32_t idx)
{
	struct join_held *e;
	bool changed;
	int err;

	for (uint32_t i = 0; i < *n; i++) {
		if ((*v)[i].insn != idx || (*v)[i].prev != env->prev_insn_idx)
			continue;
		err = join_states(env, &(*v)[i].st, env->cur, NULL, 0, &changed);
		if (err <= 0)
			return err ? err : 1;
	}
	e = join_grow(env, *v, *n, cap, sizeof(*e));
	if (!e)
		return -ENOMEM;
	*v = e;
	e = &(*v)[*n];
	memset(e, 0, sizeof(*e));
	err = state_copy(env, &e->st, env->cur);
	if (err)
		return err;
	make_summary(&e->st, idx);
	e->insn = idx;
	e->prev = env->prev_insn_idx;
	(*n)++;
	return 1;
}

/* The first entry of a new merge of s joins the summary of its last one,
 * when of the same shape: the summary a pass of the outer loop left, which
 * usually holds most of what this pass's will (the entries, s->entry,
 * stay the real ones: relations read them). Sound as any larger summary
 * is; it saves the passes that would grow it again. */
static int start_from_seed(struct vet_env *env, struct join_site *s)
{
	bool changed;
	int err;

	if (!s->seed || s->ndisj != 1)
		return 0;
	err = join_states(env, &s->disj[0]->st, s->seed, NULL, head_how(env), &changed);
	if (err < 0)
		return err;
	if (!err && changed)
		s->disj[0]->digest = join_shape_digest(&s->disj[0]->st);
	return 0;
}

static int keep_seed(struct vet_env *env, struct join_site *s)
{
	if (s->ndisj != 1 || s->exact)
		return 0;
	if (!s->seed)
		s->seed = vet_calloc(env, 1, sizeof(*s->seed));
	else
		state_clear(env, s->seed);
	if (!s->seed)
		return -ENOMEM;
	return state_copy(env, s->seed, &s->disj[0]->st);
}

/* A loop head keeps one summary: its passes are then one sequence. When
 * the first trip back sets a register its entries lack, the trips get a
 * summary of their own (summary 1; the entries' is walked one trip per
 * entry): merged with the entries, that register would be unreadable.
 * Entries of another shape wait their turn (s->deferred). A head that
 * cannot keep its trips (one comes back in another shape, moves a stack
 * or packet pointer, or trip by trip looks cheaper) is walked trip by
 * trip: every arrival is queued as it is, and its trips end by the
 * program's own bounds (or at the complexity limit). Before a trip that
 * came back joins the summary, the relations narrow it and its pointers'
 * offsets align with the summary's (join_deltas.c). */
static int visit_head(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	bool back_edge = join_is_back_edge(env, w, env->prev_insn_idx, s->insn);
	bool entry_changed = false;
	uint32_t d;
	int err;

	if (s->exact)
		return visit_trip(env, w, s, back_edge);
	/* An entry of another shape waits for the current one's merge. */
	if (!back_edge && s->ndisj && !join_shapes_equal(&s->disj[0]->st, env->cur, head_how(env)) &&
	    s->ndeferred < JOIN_DISJ_MAX)
		return keep_path(env, &s->deferred, &s->ndeferred, &s->deferred_cap, s->insn);
	/* The entries a merged loop starts again from (a head walked trip
	 * by trip never does). */
	if (!back_edge) {
		err = note_entry(env, s, &entry_changed);
		if (err)
			return err;
	}
	if (!s->ndisj) {
		err = add_disjunct(env, w, s, env->cur, back_edge);
		if (!err && !back_edge)
			err = start_from_seed(env, s);
		return err ? err : 1;
	}
	d = back_edge && s->ndisj > 1 ? 1 : 0;
	if (!join_shapes_equal(&s->disj[d]->st, env->cur, head_how(env)) ||
	    (back_edge && join_pointer_moved(&s->disj[d]->st, env->cur)) ||
	    (back_edge && join_trip_by_trip_wins(env, w, s, &s->disj[d]->st)))
		return leave_merged(env, w, s, back_edge);
	if (back_edge && s->pass) {
		s->pass->backedges++;
		join_note_back(s->pass, env->cur);
	}
	if (back_edge && s->ndisj == 1 && entry_lacks(&s->disj[0]->st, env->cur)) {
		err = add_disjunct(env, w, s, env->cur, true);
		if (!err && s->pass)
			s->pass->growths++;
		return err ? err : 1;
	}
	if (back_edge) {
		join_narrow(env, s, env->cur, 1);
		join_align_trip(s->pass, &s->disj[d]->st, env->cur);
	}
	err = join_into(env, w, s, d, back_edge);
	/* The relations read the entries: new ones need another pass. */
	if (err == 1 && entry_changed && s->nrel && !s->disj[0]->queued)
		err = heap_push(env, w, s, 0, false);
	return err ? err : 1;
}

/* The kernel's checkpoints prune here: what the open passes saw of
 * their bodies is incomplete. */
static void taint_all(struct join_walk *w)
{
	for (uint32_t i = 0; i < w->nwin; i++)
		if (w->win[i]->pass)
			w->win[i]->pass->tainted = true;
}

/* Is idx inside the body of the innermost loop being walked, a loop
 * walked as the kernel walks it (join_site.kernel_like)? */
static bool in_kernel_loop(const struct vet_env *env, const struct join_walk *w, uint32_t idx)
{
	const struct join_site *h = w->nwin ? w->win[w->nwin - 1] : NULL;

	return h && h->exact && h->kernel_like && h->curframe == env->cur->curframe &&
	       join_loop_contains(h->loop, idx);
}

static int visit_site(struct vet_env *env, struct join_walk *w, uint32_t idx)
{
	if (w->resumed_at == idx) {
		w->resumed_at = -1;
		return 0;
	}
	w->resumed_at = -1;
	if (!w->loop_of[idx] && w->preds[idx] < 2)
		return 0;
	/* Without merging where paths meet, the kernel's checkpoints prune
	 * there. */
	if (!w->loop_of[idx] && (env->opts_off & BPFVET_NO_JOIN_POINTS)) {
		taint_all(w);
		return 2;
	}
	if (!w->loop_of[idx] && in_kernel_loop(env, w, idx)) {
		taint_all(w);
		return 2;
	}
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
		    !join_shapes_equal(&s->disj[d]->st, env->cur, 0))
			continue;
		return join_into(env, w, s, d, false);
	}
	if (s->ndisj >= JOIN_DISJ_MAX && !force) {
		s->overflow = true;
		taint_passes(w, s);
		return 2;
	}
	err = add_disjunct(env, w, s, env->cur, false);
	return err ? err : 1;
}

/*
 * Exits of merged loops. A pass that turns out not to be the last (its
 * summary grew, or the loop starts again trip by trip) is walked again
 * from a larger summary, whose walk covers every exit of this one: what
 * leaves the loop during a pass is therefore held back, and walked on
 * only when the pass proves to be the last. The rest of the program is
 * then walked once per loop, not once per pass, and never from the values
 * of a pass that failed.
 */

/* The outermost merged loop that the path, which started in its pass,
 * leaves at idx (by insn idx of the loop's frame outside its body), or
 * NULL. Windows nest, so the loops left are the innermost ones. */
static struct join_site *exited_pass(const struct vet_env *env, const struct join_walk *w,
				     uint32_t idx)
{
	const struct vstate *st = env->cur;
	struct join_site *out = NULL;

	for (uint32_t i = w->nwin; i-- > 0;) {
		struct join_site *h = w->win[i];

		if (!w->origin || (w->origin != h && !site_in_loop(h, w->origin)))
			break;
		if (h->curframe < st->curframe)
			break;
		if (h->curframe == st->curframe) {
			for (uint32_t f = 1; f <= h->curframe; f++)
				if (h->callsites[f] != st->frame[f]->callsite)
					return out;
			if (join_loop_contains(h->loop, idx))
				break;
		}
		if (!h->exact && h->pass && h->ndisj == 1 && h->entry)
			out = h;
	}
	return out;
}

/* Holds the path leaving h's pass at idx; the path ends here. */
static int hold_exit(struct vet_env *env, struct join_site *h, uint32_t idx)
{
	int err = protect_checkpoints(env);

	if (err)
		return err;
	drop_dead_regs(env, env->cur);
	return keep_path(env, &h->held, &h->nheld, &h->held_cap, idx);
}

/* The last pass of h is over: its exits arrive where they left, as the
 * paths would have (a site joins them; elsewhere the instruction becomes
 * a site of its own for them). */
static int release_held(struct vet_env *env, struct join_walk *w, struct join_site *h)
{
	int err = 0;

	for (uint32_t i = 0; !err && i < h->nheld; i++) {
		struct join_held *e = &h->held[i];
		int ret;

		state_clear(env, env->cur);
		err = state_copy(env, env->cur, &e->st);
		if (err)
			break;
		env->prev_insn_idx = e->prev;
		env->insn_idx = e->insn;
		w->resumed_at = -1;
		ret = visit_site(env, w, e->insn);
		/* An outer loop that started again took this one with it. */
		if (ret == JOIN_RESTARTED)
			return 0;
		if (ret == 0 || ret == 2) {
			struct join_site *t = site_get(env, w, env->cur, e->insn);

			/* Not where paths meet: only these arrive, and the
			 * self-check cannot hold other runs to them. */
			if (t && !w->loop_of[e->insn] && w->preds[e->insn] < 2)
				t->overflow = true;
			ret = t ? add_disjunct(env, w, t, env->cur, false) : -ENOMEM;
		}
		if (ret < 0)
			err = ret;
	}
	drop_held(env, h);
	return err;
}

/* Is a pass of a merged loop being walked? */
static bool merged_open(const struct join_walk *w)
{
	for (uint32_t i = 0; i < w->nwin; i++)
		if (!w->win[i]->exact)
			return true;
	return false;
}

/*
 * Called before the walk simulates insn idx. Returns 1 when the path
 * ended by joining a site, 0 when the walk goes on (no site here), 2
 * when it goes on past a site with all its shapes taken (the kernel's
 * checkpoints then prune there), JOIN_RESTARTED when the path ended and
 * a loop starts again (every pending path goes), or a negative errno.
 * While a merged pass runs, what the walk sees at each instruction it
 * simulates is recorded for join_deltas().
 */
int join_visit(struct vet_env *env, uint32_t idx)
{
	struct join_walk *w = env->join;
	struct join_site *h = w->resumed_at == idx ? NULL : exited_pass(env, w, idx);
	int ret = h ? hold_exit(env, h, idx) : visit_site(env, w, idx);

	if ((ret == 0 || ret == 2) && merged_open(w))
		join_fact_record(env, w, idx);
	return ret;
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
	struct join_held *deferred;
	uint32_t ndeferred;
	int err;

	if (!entry || s->no_restart || s->exact)
		return -ENOENT;
	/* Kernel checkpoints made since the merge began (in the body's
	 * kernel-like loops, at sites past their shapes) ended their paths
	 * at this head's summaries, which go now: they must not prune the
	 * trips, whose continuations they would claim without walking. */
	prune_drop_since(env, s->merge_ckpts);
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
	deferred = s->deferred;
	ndeferred = s->ndeferred;
	s->deferred = NULL;
	s->ndeferred = s->deferred_cap = 0;
	site_clear(env, s);
	s->entry = entry;
	s->deferred = deferred;
	s->ndeferred = s->deferred_cap = ndeferred;
	s->exact = true;
	err = add_disjunct(env, w, s, entry, false);
	/* The entries were walked before: this walk is new work. */
	if (!err)
		s->disj[s->ndisj - 1]->paid = false;
	if (!err)
		err = flush_deferred(env, w, s);
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

/* The end of a merged pass of s (join_pass_review()). Returns 1 when a
 * relation it applied failed (the summary is queued again: its pass
 * proved nothing), 2 when a pointer moved that nothing ties, 0
 * otherwise, or a negative errno. */
static int end_pass(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	int err = join_pass_review(env, w, s);

	if (err != 1)
		return err;
	verbose(env, "join: a value of the loop at insn %u moved otherwise than its counter\n",
		s->insn);
	if (!s->disj[0]->queued)
		err = heap_push(env, w, s, 0, true);
	return err ? err : 1;
}

/* The merge of s is over: the entries that waited, of the next shape,
 * start a merge of their own (those of other shapes wait on). */
static int next_shape(struct vet_env *env, struct join_walk *w, struct join_site *s)
{
	struct join_held *deferred = s->deferred, next;
	uint32_t n = s->ndeferred;
	int err;

	if (!n)
		return 0;
	s->deferred = NULL;
	s->ndeferred = s->deferred_cap = 0;
	site_clear(env, s);
	next = deferred[0];
	s->deferred = deferred;
	s->deferred_cap = n;
	s->ndeferred = n - 1;
	memmove(deferred, deferred + 1, (n - 1) * sizeof(*deferred));
	s->guessed = false;
	s->entry = vet_calloc(env, 1, sizeof(*s->entry));
	err = s->entry ? state_copy(env, s->entry, &next.st) : -ENOMEM;
	if (!err)
		err = add_disjunct(env, w, s, &next.st, false);
	state_clear(env, &next.st);
	return err;
}

static bool summary_queued(const struct join_site *s)
{
	for (uint32_t d = 0; d < s->ndisj; d++)
		if (s->disj[d]->queued)
			return true;
	return false;
}

/* The pass or trip of loop head s is over: its body's work is done. */
static int close_window(struct vet_env *env, struct join_site *s)
{
	int err;

	if (s->exact) {
		if (s->trip) {
			s->trip->walked = true;
			finish_trips(env, s, s->trip);
			s->trip = NULL;
		}
		/* Gone trip by trip during a pass: the pass stays walked. */
		return release_held(env, env->join, s);
	}
	if (!s->pass)
		return 0;
	err = end_pass(env, env->join, s);
	if (err < 0)
		return err;
	if (err == 2)
		return restart_trip_by_trip(env, env->join, s) ? -EINVAL : 0;
	/* A pass that grew the summary is followed by another, and so is one
	 * that must be walked again (err 1): its exits go. */
	if (err || s->pass->growths || summary_queued(s)) {
		drop_held(env, s);
		return 0;
	}
	if (pass_terminates(s->pass)) {
		err = release_held(env, env->join, s);
		if (!err)
			err = keep_seed(env, s);
		return err ? err : next_shape(env, env->join, s);
	}
	verbose(env, "join: no value moves the same way on every trip of the loop at insn %u\n",
		s->insn);
	s->kernel_like = true;
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
	/* Facts start afresh with a merged pass outside any other. */
	if (!s->exact && !merged_open(w))
		w->fact_gen++;
	w->win[w->nwin++] = s;
	if (s->exact) {
		s->trip = d;
		d->gen = w->fact_gen;
		return 0;
	}
	return start_pass(env, s, s->ndisj > 1 && d == s->disj[0]);
}

/* Resumes the first queued summary as the current state. Returns
 * -ENOENT when none is queued, 1 when the walk from it goes on from the
 * arrivals that made or grew it (each counted as it came: do_check()
 * does not count the instruction again), 0 when it walks the summary
 * again with no new arrival (a loop started again, a pass retried). */
int join_resume(struct vet_env *env, uint32_t *prev_insn_idx)
{
	struct join_walk *w = env->join;
	struct join_entry e;
	struct join_disj *d;
	bool paid;
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
	paid = d->paid;
	d->paid = false;
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
	w->origin = e.site;
	env->stats.join_resumes++;
	return paid;
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
		if (s->nheld || s->ndeferred) {
			verbose(env, "join: paths at the loop at insn %u were never walked\n", s->insn);
			return -EFAULT;
		}
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
	if (!err)
		err = join_facts_init(env, w);
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
	while (s->stash) {
		struct state_list *sl = s->stash;

		s->stash = sl->next;
		if (s->overflow) {
			state_clear(env, &sl->state);
			vet_free(env, sl);
			continue;
		}
		sl->next = env->kept;
		env->kept = sl;
	}
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
		while (s->stash) {
			struct state_list *sl = s->stash;

			s->stash = sl->next;
			state_clear(env, &sl->state);
			vet_free(env, sl);
		}
		if (s->seed) {
			state_clear(env, s->seed);
			vet_free(env, s->seed);
		}
		vet_free(env, s->body);
		vet_free(env, s);
	}
	join_calls_free(env, w);
	join_facts_free(env, w);
	join_loops_free(env, w);
	join_slots_free(env, w);
	vet_free(env, w->buckets);
	vet_free(env, w->rank);
	vet_free(env, w->heap);
	vet_free(env, w->win);
	vet_free(env, w);
	env->join = NULL;
}
