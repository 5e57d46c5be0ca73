/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loops. Before the walk, strongly connected components of the CFG mark
 * the instructions inside loops. During the walk, a checkpoint inside a
 * loop stays "incomplete" while paths that went around the loop (back-edges)
 * are pending: such checkpoints are compared without relying on precision
 * marks, and when the loop's entry state is finished, precision is
 * propagated over the recorded back-edges until nothing changes. Loops that
 * converge instead of unrolling (may_goto, iterators, callbacks) widen
 * imprecise scalars that differ between iterations.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prune.h"

#define MAX_BACKEDGE_ITERS 64

struct scc_callchain {
	uint32_t callsites[MAX_CALL_FRAMES - 1];
	uint32_t scc;
};

struct backedge {
	struct backedge *next;
	struct vstate state;
};

struct scc_visit {
	struct scc_visit *next;
	struct scc_callchain chain;
	struct vstate *entry_state;
	struct backedge *backedges;
	uint32_t num_backedges;
};

/* Tarjan's algorithm, iterative; components with two or more instructions
 * or a self-edge get ids, and under KRULE_CALLBACK_SCC a callback-calling
 * call too (an implicit loop). */
int compute_scc(struct vet_env *env)
{
	const bool callback_scc = env_rule(env, KRULE_CALLBACK_SCC);
	const uint32_t off_stack = UINT32_MAX;
	uint32_t n = env->insn_cnt, next_pre = 1, next_scc = 1;
	uint32_t *stack = vet_calloc(env, n, sizeof(*stack)), *pre = vet_calloc(env, n, sizeof(*pre));
	uint32_t *low = vet_calloc(env, n, sizeof(*low)), *dfs = vet_calloc(env, n, sizeof(*dfs));
	int err = 0;

	if (!stack || !pre || !low || !dfs) {
		err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t stack_sz = 0, dfs_sz = 1;

		if (pre[i])
			continue;
		dfs[0] = i;
		while (dfs_sz) {
			uint32_t w = dfs[dfs_sz - 1], succ[2], t;
			int cnt = insn_successors(env, w, succ);
			bool pushed = false, assign;

			if (!pre[w]) {
				low[w] = pre[w] = next_pre++;
				stack[stack_sz++] = w;
			}
			for (int j = 0; j < cnt; j++) {
				if (pre[succ[j]]) {
					if (low[succ[j]] < low[w])
						low[w] = low[succ[j]];
				} else {
					dfs[dfs_sz++] = succ[j];
					pushed = true;
					break;
				}
			}
			if (pushed)
				continue;
			if (low[w] < pre[w]) {
				dfs_sz--;
				continue;
			}
			assign = stack[stack_sz - 1] != w;
			for (int j = 0; j < cnt; j++)
				assign |= succ[j] == w;
			/* The target may see the callback's repeated runs as a
			 * loop closed at the call itself. */
			if (callback_scc)
				assign |= env->aux[w].calls_callback;
			do {
				t = stack[--stack_sz];
				low[t] = off_stack;
				if (assign)
					env->aux[t].scc = next_scc;
			} while (t != w);
			if (assign)
				next_scc++;
			dfs_sz--;
		}
	}
out:
	vet_free(env, stack);
	vet_free(env, pre);
	vet_free(env, low);
	vet_free(env, dfs);
	return err;
}

static bool scc_callchain(const struct vet_env *env, const struct vstate *st,
			  struct scc_callchain *c)
{
	memset(c, 0, sizeof(*c));
	for (uint32_t i = 0; i <= st->curframe; i++) {
		uint32_t ip = state_frame_ip(st, i), scc = env->aux[ip].scc;

		if (scc) {
			c->scc = scc;
			return true;
		}
		if (i == st->curframe)
			return false;
		c->callsites[i] = ip;
	}
	return false;
}

static struct scc_visit *visit_lookup(const struct vet_env *env, const struct scc_callchain *c)
{
	for (struct scc_visit *v = env->scc_visits; v; v = v->next)
		if (!memcmp(&v->chain, c, sizeof(*c)))
			return v;
	return NULL;
}

static void format_callchain(char *buf, size_t sz, const struct scc_callchain *c)
{
	size_t n = (size_t)snprintf(buf, sz, "(");

	for (size_t i = 0; i < MAX_CALL_FRAMES - 1 && c->callsites[i] && n < sz; i++)
		n += (size_t)snprintf(buf + n, sz - n, "%u,", c->callsites[i]);
	if (n < sz)
		snprintf(buf + n, sz - n, "%u)", c->scc);
}

static void log_scc(struct vet_env *env, const char *what, const struct scc_callchain *c)
{
	char buf[128];

	if (!(env->log.level & LOG_LEVEL2))
		return;
	format_callchain(buf, sizeof(buf), c);
	verbose(env, "SCC %s %s\n", what, buf);
}

int maybe_enter_scc(struct vet_env *env, struct vstate *st)
{
	struct scc_callchain c;
	struct scc_visit *v;

	if (!scc_callchain(env, st, &c))
		return 0;
	v = visit_lookup(env, &c);
	if (!v) {
		v = vet_calloc(env, 1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		v->chain = c;
		v->next = env->scc_visits;
		env->scc_visits = v;
	}
	if (!v->entry_state) {
		v->entry_state = st;
		log_scc(env, "enter", &c);
	}
	return 0;
}

static void free_backedges(struct vet_env *env, struct scc_visit *v)
{
	while (v->backedges) {
		struct backedge *b = v->backedges;

		v->backedges = b->next;
		state_clear(env, &b->state);
		vet_free(env, b);
	}
}

static int propagate_backedges(struct vet_env *env, struct scc_visit *v)
{
	bool changed;
	int rounds = 0, err;

	do {
		if (rounds++ > MAX_BACKEDGE_ITERS) {
			if (env->log.level & LOG_LEVEL2)
				verbose(env, "propagate_backedges: too many iterations\n");
			for (struct backedge *b = v->backedges; b; b = b->next) {
				err = mark_all_precise_from(env, &b->state);
				if (err)
					return err;
			}
			break;
		}
		changed = false;
		for (struct backedge *b = v->backedges; b; b = b->next) {
			err = propagate_precision(env, b->state.equal_state, &b->state, &changed);
			if (err)
				return err;
		}
	} while (changed);
	free_backedges(env, v);
	return 0;
}

int maybe_exit_scc(struct vet_env *env, struct vstate *st)
{
	struct scc_callchain c;
	struct scc_visit *v;

	if (!scc_callchain(env, st, &c))
		return 0;
	v = visit_lookup(env, &c);
	if (!v) {
		if (!st->speculative) {
			verbose(env, "verifier bug: scc exit: no visit info for call chain\n");
			return -EFAULT;
		}
		return 0;
	}
	if (v->entry_state != st)
		return 0;
	log_scc(env, "exit", &c);
	v->entry_state = NULL;
	env->stats.num_backedges -= v->num_backedges;
	v->num_backedges = 0;
	return propagate_backedges(env, v);
}

int add_scc_backedge(struct vet_env *env, struct vstate *old, const struct vstate *cur)
{
	struct scc_callchain c;
	struct scc_visit *v;
	struct backedge *b;
	uint64_t n;

	/* A callback-calling call closes a loop the CFG does not show: on
	 * Linux 6.18 such calls are in no SCC and their loop hits keep no
	 * back-edge (later 6.18.y kernels give them one). */
	if (!scc_callchain(env, old, &c) && env->aux[old->insn_idx].calls_callback)
		return 0;
	if (!scc_callchain(env, old, &c) || !(v = visit_lookup(env, &c))) {
		verbose(env, "verifier bug: add backedge: no SCC in verification path\n");
		return -EFAULT;
	}
	b = vet_calloc(env, 1, sizeof(*b));
	if (!b || state_copy(env, &b->state, cur)) {
		if (b)
			state_clear(env, &b->state);
		vet_free(env, b);
		return -ENOMEM;
	}
	b->state.equal_state = old;
	b->state.insn_idx = old->insn_idx;
	log_scc(env, "backedge", &c);
	b->next = v->backedges;
	v->backedges = b;
	v->num_backedges++;
	env->stats.num_backedges++;
	n = env->stats.explored_states_size + env->stats.free_list_size + env->stats.num_backedges;
	if (n > env->stats.peak_states)
		env->stats.peak_states = n;
	return 0;
}

bool incomplete_read_marks(const struct vet_env *env, const struct vstate *st)
{
	struct scc_callchain c;
	const struct scc_visit *v;

	if (!scc_callchain(env, st, &c))
		return false;
	v = visit_lookup(env, &c);
	return v && v->backedges;
}

void free_scc_visits(struct vet_env *env)
{
	while (env->scc_visits) {
		struct scc_visit *v = env->scc_visits;

		env->scc_visits = v->next;
		free_backedges(env, v);
		vet_free(env, v);
	}
}

struct vstate *find_prev_entry(struct vet_env *env, struct vstate *st, uint32_t idx)
{
	const struct vstate *cur = env->cur;
	uint32_t callsite;

	if (!st || !env->explored)
		return NULL;
	callsite = (uint32_t)cur->frame[cur->curframe]->callsite;
	for (struct state_list *sl = env->explored[(idx ^ callsite) % env->insn_cnt]; sl;
	     sl = sl->next) {
		struct vstate *old = &sl->state;

		if (old->insn_idx == idx && old->branches && state_same_callsites(old, st) &&
		    old->dfs_depth < st->dfs_depth)
			return old;
	}
	return NULL;
}

static void maybe_widen_reg(struct vet_env *env, const struct reg_state *o,
			    struct reg_state *c)
{
	if (o->type != SCALAR_VALUE || c->type != SCALAR_VALUE)
		return;
	if (o->precise || c->precise || regsafe(env, o, c, &env->idmap, EXACT))
		return;
	reg_mark_unknown(env, c);
}

void widen_imprecise_scalars(struct vet_env *env, const struct vstate *old,
			     struct vstate *cur)
{
	/* Without precision tracking every scalar counts as precise, and
	 * precise scalars are never widened. */
	if (env->opts_off & (BPFVET_NO_WIDEN | BPFVET_NO_PRECISION))
		return;
	env->idmap.tmp_id_gen = env->id_gen;
	env->idmap.cnt = 0;
	for (int fr = (int)old->curframe; fr >= 0; fr--) {
		const struct func_state *fo = old->frame[fr];
		struct func_state *fc = cur->frame[fr];
		int slots = fo->allocated_stack < fc->allocated_stack ? fo->allocated_stack :
									  fc->allocated_stack;

		for (int i = 0; i < MAX_BPF_REG; i++)
			maybe_widen_reg(env, &fo->regs[i], &fc->regs[i]);
		for (int i = 0; i < slots / BPF_REG_SIZE; i++) {
			if (stack_slot_at(fo, i)->slot_type[BPF_REG_SIZE - 1] != STACK_SPILL ||
			    stack_slot_at(fc, i)->slot_type[BPF_REG_SIZE - 1] != STACK_SPILL)
				continue;
			maybe_widen_reg(env, &stack_slot_at(fo, i)->spilled_ptr, &stack_slot_at(fc, i)->spilled_ptr);
		}
	}
}
