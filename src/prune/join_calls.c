/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Call summaries (--explore=join): a static subprogram walked once for
 * arguments A answers every later call whose arguments lie inside A.
 *
 * The kernel walks a callee again at every call, in the caller's
 * context; test_verif_scale1 calls the same hash 90 times. In join mode
 * a call's walk is recorded under its call chain: the arguments it was
 * walked with (the entry) and the R0 of every path that came back (the
 * exits). A later call, from any chain at the same depth, whose
 * arguments lie inside a recorded entry (regsafe, RANGE_WITHIN) is not
 * walked: each exit's R0 goes to the return point, where the returns
 * meet as at any site.
 *
 * Why that is sound. With no argument pointing into a caller's stack
 * (and no packet data changed, no reference, lock or RCU section in
 * play), a callee can touch its callers only by narrowing what they
 * already know: packet ranges, null checks and linked scalars, through
 * ids it shares with them. Leaving those out over-approximates. Its R0
 * depends on its arguments only, and the exits of a walk from A cover
 * every run from arguments inside A. The exits are only read once the
 * walk from A is over: no pending path or queued summary is left inside
 * its chain (entries are confirmed then). A loop that starts again
 * drops pending work, so unconfirmed entries are forgotten.
 *
 * Generalized entries. Calls with other constants (a hash of field 1,
 * 2, 3...) would each need a walk. From the second call on, the callee
 * is walked with the join of its arguments (widened after a few
 * growths, as loop heads are), which also covers the call itself; the
 * next calls then fall inside it. A check that the wider arguments fail
 * fails the joined walk, and verify.c's second joined walk takes every
 * call with its own arguments.
 */
#include <errno.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

#define CALL_ARGS 5
/* Distinct R0 shapes a summary keeps: past that it is not used. */
#define CALL_EXITS_MAX 8

struct join_entry_args {
	struct reg_state arg[CALL_ARGS];
};

struct join_call {
	struct join_call *next;		/* in its bucket */
	struct join_call *same_sub;	/* the subprogram's other chains */
	struct join_call *parent;	/* the chain it was called from */
	uint32_t subprog;
	uint32_t frameno;		/* the callee's frame */
	int callsites[MAX_CALL_FRAMES];
	struct join_entry_args *entries;
	uint32_t nentries, entries_cap;
	uint32_t confirmed;		/* entries whose walk is over */
	struct reg_state exits[CALL_EXITS_MAX];
	uint32_t nexits;
	bool unusable;
};

/* Per subprogram: the join of the arguments it was walked with. */
struct join_callee {
	struct join_call *calls;
	struct join_entry_args gen;
	bool has_gen;
	uint32_t growths;
	/* The constants of the callee's own body: where its arguments widen
	 * to (another function's constants would only make them creep). */
	struct join_thresholds thr;
	bool has_thr;
};

struct join_calls {
	struct join_call **buckets;
	uint32_t nbuckets;
	struct join_callee *callees;
};

static bool calls_enabled(const struct vet_env *env)
{
	return env->join && env->join->calls && !(env->opts_off & BPFVET_NO_CALL_SUMMARIES);
}

int join_calls_init(struct vet_env *env, struct join_walk *w)
{
	struct join_calls *c;

	if (env->opts_off & BPFVET_NO_CALL_SUMMARIES)
		return 0;
	c = vet_calloc(env, 1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	w->calls = c;
	c->nbuckets = env->insn_cnt;
	c->buckets = vet_calloc(env, c->nbuckets, sizeof(*c->buckets));
	c->callees = vet_calloc(env, env->subprog_cnt, sizeof(*c->callees));
	if (!c->buckets || !c->callees)
		return -ENOMEM;
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];
		int sub;

		if (!insn_is_pseudo_call(insn) || i + 1 >= env->insn_cnt)
			continue;
		sub = subprog_at(env, i + 1 + (uint32_t)insn->imm);
		/* The return point of a walked callee: its returns meet there. */
		if (sub >= 0 && !env->subprogs[sub].is_global && !w->loop_of[i + 1])
			w->preds[i + 1] = 2;
	}
	return 0;
}

void join_calls_free(struct vet_env *env, struct join_walk *w)
{
	struct join_calls *c = w->calls;

	if (!c)
		return;
	for (uint32_t b = 0; b < c->nbuckets; b++) {
		struct join_call *r, *next;

		for (r = c->buckets[b]; r; r = next) {
			next = r->next;
			vet_free(env, r->entries);
			vet_free(env, r);
		}
	}
	vet_free(env, c->buckets);
	for (uint32_t i = 0; c->callees && i < env->subprog_cnt; i++)
		join_thresholds_free(env, &c->callees[i].thr);
	vet_free(env, c->callees);
	vet_free(env, c);
	w->calls = NULL;
}

/* ---- Records by call chain ------------------------------------------ */

/* The record of the chain st is in (its top frame a callee). */
static struct join_call *record_get(struct vet_env *env, struct join_calls *c,
				    const struct vstate *st, uint32_t sub)
{
	struct join_call **b = &c->buckets[join_chain_hash(st, 0, c->nbuckets)], *r;

	for (r = *b; r; r = r->next)
		if (join_chain_equal(r->callsites, r->frameno, st))
			return r;
	r = vet_calloc(env, 1, sizeof(*r));
	if (!r)
		return NULL;
	r->subprog = sub;
	r->frameno = st->curframe;
	for (uint32_t i = 1; i <= st->curframe; i++)
		r->callsites[i] = st->frame[i]->callsite;
	r->next = *b;
	*b = r;
	r->same_sub = c->callees[sub].calls;
	c->callees[sub].calls = r;
	return r;
}

/* Is the walk at st inside record r's chain? */
static bool inside(const struct join_call *jc, const struct join_call *r)
{
	for (; jc; jc = jc->parent)
		if (jc == r)
			return true;
	return false;
}

/* Is any path or summary still to be walked inside r's chain? */
static bool work_pending(const struct vet_env *env, const struct join_call *r)
{
	const struct join_walk *w = env->join;

	if (inside(env->cur->jcall, r))
		return true;
	for (const struct stack_elem *e = env->head; e; e = e->next)
		if (inside(e->st.jcall, r))
			return true;
	for (uint32_t i = 0; i < w->heap_cnt; i++) {
		const struct join_entry *h = &w->heap[i];

		if (inside(h->site->disj[h->disj]->st.jcall, r))
			return true;
	}
	return false;
}

/* A loop starts again and drops pending work: entries whose walk was
 * not confirmed over may have lost some of their exits. */
void join_calls_forget_unconfirmed(struct vet_env *env)
{
	struct join_calls *c = env->join ? env->join->calls : NULL;

	if (!c)
		return;
	for (uint32_t b = 0; b < c->nbuckets; b++)
		for (struct join_call *r = c->buckets[b]; r; r = r->next)
			if (r->confirmed < r->nentries)
				r->unusable = true;
}

/* ---- Arguments --------------------------------------------------------- */

static bool safe_state(const struct vstate *st)
{
	return !st->acquired_refs && !st->active_locks && !st->active_preempt_locks &&
	       !st->active_irq_id && !st->active_rcu_lock && !st->speculative;
}

/* Arguments a callee may read its callers' state through, or that a
 * summary could not hand back as they were. */
static bool summarizable(const struct vet_env *env, const struct vstate *st, uint32_t sub)
{
	const struct func_state *f = st->frame[st->curframe];

	if (!safe_state(st) || env->subprogs[sub].changes_pkt_data)
		return false;
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++) {
		const struct reg_state *a = &f->regs[r];

		if (a->type == NOT_INIT || a->type == SCALAR_VALUE)
			continue;
		if (base_type(a->type) == PTR_TO_STACK || a->ref_obj_id)
			return false;
	}
	return true;
}

static uint16_t live_args(const struct vet_env *env, uint32_t sub)
{
	return env->aux[env->subprogs[sub].start].live_regs_before;
}

/* Do the (callee) registers regs lie inside entry e? */
static bool args_within(struct vet_env *env, const struct join_entry_args *e,
			const struct reg_state *regs, uint16_t live)
{
	env->idmap.tmp_id_gen = env->id_gen;
	env->idmap.cnt = 0;
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++) {
		const struct reg_state *o = &e->arg[r - 1];
		struct reg_state c = regs[r];

		if (!(live & (1u << r)))
			continue;
		/* An offset into a map value is one number: fixed plus variable. */
		if (c.type == o->type && c.off != o->off)
			join_refold(&c, o->off);
		if (!regsafe(env, o, &c, &env->idmap, RANGE_WITHIN)) {
			return false;
		}
	}
	return true;
}

static bool same_value(const struct reg_state *a, const struct reg_state *b)
{
	return a->type == b->type && a->off == b->off && a->range == b->range &&
	       bounds_equal(&a->b, &b->b);
}

static void take_args(struct join_entry_args *e, const struct func_state *f)
{
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
		e->arg[r - 1] = f->regs[r];
}

/* Scalars widen, and packet pointers, whose accesses are checked against
 * the packet's end anyway. A pointer into an object of fixed size would
 * widen past its end: such calls keep their own arguments. */
static bool widenable(const struct reg_state *x, const struct reg_state *a)
{
	if (!join_reg_joinable(x, a))
		return false;
	return x->type == SCALAR_VALUE || x->type == NOT_INIT || a->type == NOT_INIT ||
	       reg_type_is_pkt(x->type) || same_value(x, a);
}

/* Generalizes the callee's arguments with those of earlier walks: the
 * join, widened after a few growths. Arguments that cannot be widened
 * keep this call to itself. */
static int generalize(struct vet_env *env, uint32_t sub, struct func_state *f, uint16_t live)
{
	struct join_callee *ce = &env->join->calls->callees[sub];
	struct join_widening wd = { (env->opts_off & BPFVET_NO_THRESHOLDS) ? NULL : &ce->thr };
	struct join_entry_args g = ce->gen;
	bool grew = false, widened = false;

	if (!ce->has_thr && ce->growths >= JOIN_WIDEN_AFTER) {
		int err = join_collect_thresholds(env, env->subprogs[sub].start,
						  env->subprogs[sub].end, &ce->thr);

		if (err)
			return err;
		ce->has_thr = true;
	}

	for (int r = BPF_REG_1; r <= BPF_REG_5; r++) {
		if ((live & (1u << r)) && !widenable(&g.arg[r - 1], &f->regs[r])) {
			take_args(&ce->gen, f);
			ce->growths = 0;
			return 0;
		}
	}
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
		if (live & (1u << r))
			grew |= join_reg_into(env, env->cur, &g.arg[r - 1], &f->regs[r],
					      ce->growths >= JOIN_WIDEN_AFTER ? &wd : NULL);
	ce->growths += grew;
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++) {
		struct reg_state *a = &f->regs[r];

		if (!(live & (1u << r)) || same_value(a, &g.arg[r - 1]))
			continue;
		*a = g.arg[r - 1];
		/* A wider value is linked to nothing of the caller's. */
		if (a->type == SCALAR_VALUE) {
			a->id = 0;
			a->off = 0;
		} else if (a->id) {
			a->id = ++env->id_gen;
		}
		widened = true;
	}
	env->stats.join_call_widens += widened;
	take_args(&ce->gen, f);
	return 0;
}

/* ---- The walk's side --------------------------------------------------- */

/*
 * The callee's frame was just set up (check_func_call): records the
 * entry under the new chain, after generalizing its arguments.
 */
int join_call_enter(struct vet_env *env, uint32_t sub)
{
	struct join_calls *c;
	struct join_callee *ce;
	struct join_call *r;
	struct func_state *f;
	struct join_entry_args *v;
	uint16_t live;

	if (!calls_enabled(env))
		return 0;
	c = env->join->calls;
	ce = &c->callees[sub];
	f = env->cur->frame[env->cur->curframe];
	r = record_get(env, c, env->cur, sub);
	if (!r)
		return -ENOMEM;
	r->parent = env->cur->jcall;
	env->cur->jcall = r;
	if (!summarizable(env, env->cur, sub)) {
		r->unusable = true;
		return 0;
	}
	live = live_args(env, sub);
	if (!ce->has_gen) {
		take_args(&ce->gen, f);
		ce->has_gen = true;
	} else if (!(env->opts_off & BPFVET_NO_CALL_WIDEN)) {
		int err = generalize(env, sub, f, live);

		if (err)
			return err;
	}
	v = join_grow(env, r->entries, r->nentries, &r->entries_cap, sizeof(*v));
	if (!v)
		return -ENOMEM;
	r->entries = v;
	take_args(&r->entries[r->nentries++], f);
	return 0;
}

/* One more exit: scalars join into one R0, pointers keep their shapes. */
static void add_exit(struct join_call *r, const struct reg_state *r0)
{
	struct reg_state x = *r0;

	if (x.type == SCALAR_VALUE) {
		x.id = 0;
		x.off = 0;
	}
	for (uint32_t i = 0; i < r->nexits; i++) {
		struct reg_state *y = &r->exits[i];

		if (y->type != x.type)
			continue;
		if (x.type == SCALAR_VALUE) {
			bounds_hull(&y->b, &x.b);
			y->precise |= x.precise;
			return;
		}
		if (!memcmp(y, &x, sizeof(x)))
			return;
	}
	if (r->nexits == CALL_EXITS_MAX) {
		r->unusable = true;
		return;
	}
	r->exits[r->nexits++] = x;
}

/* The callee returns (prepare_func_exit, before its frame goes). */
void join_call_leave(struct vet_env *env)
{
	struct join_call *r;

	if (!calls_enabled(env) || !env->cur->jcall)
		return;
	r = env->cur->jcall;
	env->cur->jcall = r->parent;
	if (r->frameno != env->cur->curframe) {
		r->unusable = true;
		return;
	}
	if (!safe_state(env->cur) || env->cur->frame[r->frameno]->regs[BPF_REG_0].ref_obj_id)
		r->unusable = true;
	else
		add_exit(r, &env->cur->frame[r->frameno]->regs[BPF_REG_0]);
}

/* A record whose walk from arguments like these is over. */
static struct join_call *find_summary(struct vet_env *env, uint32_t sub, uint32_t frameno,
				      const struct reg_state *regs)
{
	uint16_t live = live_args(env, sub);

	for (struct join_call *r = env->join->calls->callees[sub].calls; r; r = r->same_sub) {
		if (r->unusable || r->frameno != frameno || !r->nentries)
			continue;
		if (r->confirmed < r->nentries && !work_pending(env, r))
			r->confirmed = r->nentries;
		for (uint32_t i = 0; i < r->confirmed; i++)
			if (args_within(env, &r->entries[i], regs, live))
				return r;
	}
	return NULL;
}

/*
 * A call of static subprogram sub at callsite, its arguments checked:
 * returns 1 when a summary answered it (every exit went to the return
 * point; the path ends), 0 when the callee is to be walked.
 */
int join_call_reuse(struct vet_env *env, uint32_t sub, uint32_t callsite)
{
	struct vstate *st = env->cur;
	struct func_state *caller = st->frame[st->curframe];
	uint32_t ret = callsite + 1;
	struct join_call *r;

	if (!calls_enabled(env) || st->curframe + 1 >= MAX_CALL_FRAMES ||
	    !summarizable(env, st, sub) || env->join->preds[ret] < 2 || env->join->loop_of[ret])
		return 0;
	/* The caller's registers stand for the callee's: same args. */
	r = find_summary(env, sub, st->curframe + 1, caller->regs);
	if (!r)
		return 0;
	for (int i = BPF_REG_1; i <= BPF_REG_5; i++)
		reg_mark_not_init(&caller->regs[i]);
	caller->written_regs |= 1;
	st->insn_idx = ret;
	env->stats.join_call_reuses++;
	for (uint32_t i = 0; i < r->nexits; i++) {
		struct reg_state *r0 = &caller->regs[BPF_REG_0];
		int err;

		*r0 = r->exits[i];
		/* Whatever shared an id with it was the callee's. */
		if (r0->type != SCALAR_VALUE && r0->id)
			r0->id = ++env->id_gen;
		err = join_arrive(env, ret, true);
		if (err < 0)
			return err;
	}
	return 1;
}
