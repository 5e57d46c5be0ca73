/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which instructions a queued path can still arrive at (--prune=max).
 *
 * A checkpoint only pays off if some later state reaches its instruction.
 * Depth-first, later states descend from the queued paths or from the
 * current one, and the current one comes back only around a loop. So a
 * checkpoint outside loops is worth storing only where a queued path can
 * arrive, and once the last such path is finished it can go.
 *
 * Each queued path floods the control-flow graph from where it resumes
 * (and from the call sites it returns to), marking instructions with its
 * depth on the queue and a serial. A mark is valid while that queue slot
 * still holds that path. Floods stop at validly marked instructions: the
 * older path that marked them is still queued, so it reaches everything
 * beyond them and stays queued longer than the new one (the queue is a
 * stack). The marks are thus exact for "some queued path reaches it",
 * up to the graph being a superset of the feasible paths (calls enter
 * their callee, returns go back to every call site).
 *
 * If flooding gets too costly (budget below), every instruction counts
 * as reachable from then on: checkpoints are then stored as usual.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

struct reach_flood {
	uint32_t serial;
	uint32_t cnt, cap;
	uint32_t *insns;	/* what this path's flood marked */
};

struct reach {
	uint32_t *mark_depth;	/* per insn, 0: unmarked */
	uint32_t *mark_serial;
	struct reach_flood *floods;	/* by queue depth, 1-based */
	uint32_t floods_cap;
	/* The flood of the path being walked, taken from the queue when it
	 * resumed: its instructions may be orphaned when it ends. */
	struct reach_flood cur;
	uint32_t *work;
	uint32_t work_cap;
	/* Pseudo-call sites by callee: callees' checkpoints are filed under
	 * their call site too (prune.c buckets). */
	uint32_t *calls_start;	/* per subprogram, into calls */
	uint32_t *calls;
	uint8_t *preds;		/* predecessors per insn, saturating at 2 */
	uint32_t serial_gen;
	uint64_t budget;
	bool gave_up;
};

bool reach_enabled(const struct vet_env *env)
{
	return env->opts_on & (BPFVET_USEFUL_CHECKPOINTS | BPFVET_EVICT_UNREACHABLE |
			       BPFVET_JOIN_CHECKPOINTS);
}

/* The subprogram a pseudo call enters, or -1. */
static int callee_of(const struct vet_env *env, uint32_t i)
{
	int64_t t = (int64_t)i + env->insns[i].imm + 1;
	int sp;

	if (!insn_is_pseudo_call(&env->insns[i]) || t < 0 || t >= env->insn_cnt)
		return -1;
	sp = env->aux[t].subprog;
	return sp >= 0 && (uint32_t)sp < env->subprog_cnt &&
	       env->subprogs[sp].start == (uint32_t)t ? sp : -1;
}

/* Call sites grouped by callee: counted, then placed (one pass each). */
static int index_call_sites(struct vet_env *env, struct reach *r)
{
	uint32_t n = env->subprog_cnt, *next;

	r->calls_start = vet_calloc(env, n + 1, sizeof(*r->calls_start));
	next = vet_calloc(env, n + 1, sizeof(*next));
	if (!r->calls_start || !next) {
		vet_free(env, next);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		int sp = callee_of(env, i);

		if (sp >= 0)
			r->calls_start[sp + 1]++;
	}
	for (uint32_t sp = 0; sp < n; sp++)
		r->calls_start[sp + 1] += r->calls_start[sp];
	memcpy(next, r->calls_start, (n + 1) * sizeof(*next));
	r->calls = vet_calloc(env, r->calls_start[n] + 1, sizeof(*r->calls));
	if (r->calls) {
		for (uint32_t i = 0; i < env->insn_cnt; i++) {
			int sp = callee_of(env, i);

			if (sp >= 0)
				r->calls[next[sp]++] = i;
		}
	}
	vet_free(env, next);
	return r->calls ? 0 : -ENOMEM;
}

/* The call sites of a subprogram (none for the main program). */
const uint32_t *reach_call_sites(const struct vet_env *env, int subprog, uint32_t *n)
{
	const struct reach *r = env->reach;

	*n = r->calls_start[subprog + 1] - r->calls_start[subprog];
	return r->calls + r->calls_start[subprog];
}

static int count_preds(struct vet_env *env, struct reach *r);

int reach_init(struct vet_env *env)
{
	struct reach *r;

	if (!reach_enabled(env) || (env->opts_off & BPFVET_NO_PRUNE))
		return 0;
	r = vet_calloc(env, 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	env->reach = r;
	r->mark_depth = vet_calloc(env, env->insn_cnt, sizeof(*r->mark_depth));
	r->mark_serial = vet_calloc(env, env->insn_cnt, sizeof(*r->mark_serial));
	r->work_cap = env->insn_cnt * 3 + 2 * MAX_CALL_FRAMES + 1;
	r->work = vet_calloc(env, r->work_cap, sizeof(*r->work));
	if (!r->mark_depth || !r->mark_serial || !r->work)
		return -ENOMEM;
	if (index_call_sites(env, r) || count_preds(env, r))
		return -ENOMEM;
	/* Floods cost a few visits per instruction on most programs; a
	 * program that needs far more falls back to storing everywhere. */
	r->budget = (uint64_t)env->insn_cnt * 64 + (1u << 20);
	return 0;
}

static void flood_free(struct vet_env *env, struct reach_flood *f)
{
	vet_free(env, f->insns);
	memset(f, 0, sizeof(*f));
}

void reach_free(struct vet_env *env)
{
	struct reach *r = env->reach;

	if (!r)
		return;
	for (uint32_t d = 0; d < r->floods_cap; d++)
		flood_free(env, &r->floods[d]);
	flood_free(env, &r->cur);
	vet_free(env, r->floods);
	vet_free(env, r->mark_depth);
	vet_free(env, r->mark_serial);
	vet_free(env, r->work);
	vet_free(env, r->calls_start);
	vet_free(env, r->calls);
	vet_free(env, r->preds);
	vet_free(env, r);
	env->reach = NULL;
}

static bool mark_valid(const struct vet_env *env, const struct reach *r, uint32_t i)
{
	uint32_t d = r->mark_depth[i];

	return d && d <= env->stack_size && d < r->floods_cap &&
	       r->floods[d].serial == r->mark_serial[i];
}

static int grow_floods(struct vet_env *env, struct reach *r, uint32_t depth)
{
	uint32_t cap = r->floods_cap ? r->floods_cap : 64;
	struct reach_flood *n;

	while (cap <= depth)
		cap *= 2;
	n = vet_reallocarray(env, r->floods, cap, sizeof(*n));
	if (!n)
		return -ENOMEM;
	/* Fresh slots hold no flood: serial 0 never validates a mark. */
	memset(n + r->floods_cap, 0, (cap - r->floods_cap) * sizeof(*n));
	r->floods = n;
	r->floods_cap = cap;
	return 0;
}

/* Successors for flooding: a call also enters its callee; an exit has
 * none (the caller's flood already continues after the call). */
static int flood_successors(const struct vet_env *env, uint32_t i, uint32_t succ[3])
{
	const struct bpfvet_insn *insn = &env->insns[i];
	int n = insn_successors(env, i, succ);

	if (insn_is_pseudo_call(insn))
		succ[n++] = (uint32_t)((int64_t)i + insn->imm + 1);
	return n;
}

static int count_preds(struct vet_env *env, struct reach *r)
{
	r->preds = vet_calloc(env, env->insn_cnt, 1);
	if (!r->preds)
		return -ENOMEM;
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		uint32_t succ[3];
		int n = flood_successors(env, i, succ);

		for (int k = 0; k < n; k++)
			if (succ[k] < env->insn_cnt && r->preds[succ[k]] < 2)
				r->preds[succ[k]]++;
	}
	return 0;
}

/* Whether paths can meet at idx (two ways in): elsewhere a state equals
 * what it was at the last such instruction, up to liveness. */
bool reach_is_join(const struct vet_env *env, uint32_t idx)
{
	return !env->reach || env->reach->preds[idx] >= 2;
}

static int flood_record(struct vet_env *env, struct reach_flood *f, uint32_t i)
{
	if (f->cnt == f->cap) {
		uint32_t cap = f->cap ? f->cap * 2 : 16;
		uint32_t *n = vet_reallocarray(env, f->insns, cap, sizeof(*n));

		if (!n)
			return -ENOMEM;
		f->insns = n;
		f->cap = cap;
	}
	f->insns[f->cnt++] = i;
	return 0;
}

static int flood(struct vet_env *env, struct reach *r, uint32_t depth,
		 const uint32_t *seeds, uint32_t nseeds)
{
	struct reach_flood *f = &r->floods[depth];
	uint32_t top = 0;
	int err;

	for (uint32_t k = 0; k < nseeds; k++)
		if (seeds[k] < env->insn_cnt)
			r->work[top++] = seeds[k];
	while (top) {
		uint32_t i = r->work[--top], succ[3];
		int n;

		if (mark_valid(env, r, i))
			continue;
		if (!r->budget--) {
			r->gave_up = true;
			return 0;
		}
		r->mark_depth[i] = depth;
		r->mark_serial[i] = f->serial;
		err = flood_record(env, f, i);
		if (err)
			return err;
		n = flood_successors(env, i, succ);
		/* Each instruction is pushed at most once per predecessor. */
		for (int k = 0; k < n; k++)
			if (succ[k] < env->insn_cnt && !mark_valid(env, r, succ[k]) &&
			    top < r->work_cap)
				r->work[top++] = succ[k];
	}
	return 0;
}

/* The path just queued at depth env->stack_size resumes at insn_idx in
 * state st; it may also return to each of its call sites. */
int reach_note_push(struct vet_env *env, const struct vstate *st, uint32_t insn_idx)
{
	struct reach *r = env->reach;
	uint32_t depth = env->stack_size, seeds[2 * MAX_CALL_FRAMES + 1], n = 0;
	int err;

	if (!r || r->gave_up)
		return 0;
	if (depth >= r->floods_cap) {
		err = grow_floods(env, r, depth);
		if (err)
			return err;
	}
	flood_free(env, &r->floods[depth]);
	r->floods[depth].serial = ++r->serial_gen;
	seeds[n++] = insn_idx;
	/* A callback frame goes back to its call instruction, others past it. */
	for (uint32_t fr = 1; fr <= st->curframe && st->frame[fr]; fr++) {
		seeds[n++] = (uint32_t)st->frame[fr]->callsite;
		seeds[n++] = (uint32_t)st->frame[fr]->callsite + 1;
	}
	return flood(env, r, depth, seeds, n);
}

/* The path queued at depth env->stack_size + 1 resumed: its flood now
 * describes the current path. */
void reach_note_pop(struct vet_env *env)
{
	struct reach *r = env->reach;
	uint32_t depth = env->stack_size + 1;

	if (!r)
		return;
	flood_free(env, &r->cur);
	if (depth < r->floods_cap) {
		r->cur = r->floods[depth];
		memset(&r->floods[depth], 0, sizeof(r->floods[depth]));
	}
}

bool reach_pending(const struct vet_env *env, uint32_t idx)
{
	const struct reach *r = env->reach;

	return !r || r->gave_up || mark_valid(env, r, idx);
}

/* Instructions the finished current path's flood marked that no queued
 * path reaches any more; the list is handed over and emptied. */
uint32_t reach_take_orphans(struct vet_env *env, uint32_t **insns)
{
	struct reach *r = env->reach;
	uint32_t n = 0;

	*insns = NULL;
	if (!r || r->gave_up || !r->cur.cnt)
		return 0;
	for (uint32_t k = 0; k < r->cur.cnt; k++) {
		uint32_t i = r->cur.insns[k];

		if (!mark_valid(env, r, i)) {
			r->cur.insns[n++] = i;
			r->mark_depth[i] = 0;
		}
	}
	*insns = r->cur.insns;
	memset(&r->cur, 0, sizeof(r->cur));
	return n;
}

/* Whether the walk can come back to this state's instruction on its own
 * path: a loop around it or around one of its calls, or a callback that
 * is called again. */
bool reach_may_loop(const struct vet_env *env, const struct vstate *st)
{
	for (uint32_t fr = 0; fr <= st->curframe; fr++) {
		uint32_t ip = state_frame_ip(st, fr);

		if (env->aux[ip].scc || env->aux[ip].calls_callback || env->aux[ip].is_iter_next)
			return true;
		if (st->frame[fr]->in_callback_fn)
			return true;
	}
	return false;
}
