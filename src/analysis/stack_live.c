/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stack-slot liveness, the Linux 6.18 way: reads and full 8-byte writes of
 * stack slots are recorded during the walk against (call chain,
 * instruction) pairs, and a backward data-flow fixpoint turns them into
 * "slots that may still be read from here". Finished checkpoints forget
 * the slots that no continuation reads, so that more states compare equal.
 *
 * Per call chain ("instance") and per frame reachable from it, each
 * instruction keeps four slot masks: may_read (union over visits),
 * must_write (intersection over visits), must_write_acc (written on every
 * path to the subprogram's exit) and live_before (the result). A callee's
 * entry masks flow into the call instruction of its caller's instance.
 *
 * The fixpoint revisits only instructions whose inputs changed (their own
 * masks, or a successor's result): a dirty bit per instruction, kept in
 * post-order position, and swept in that order. A sweep changes exactly
 * what a full round over the subprogram would change, in the same order,
 * so results, log lines and the round count are those of full rounds;
 * the work is proportional to what changed, not to the subprogram's size.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"

#define LIVE_BUCKETS 256

struct callchain {
	uint32_t callsites[MAX_CALL_FRAMES];	/* [curframe] = subprog start */
	uint32_t sp_starts[MAX_CALL_FRAMES];
	uint32_t curframe;
};

struct slot_masks {
	uint64_t may_read;
	uint64_t must_write;
	uint64_t must_write_acc;
	uint64_t live_before;
};

struct live_instance {
	struct live_instance *next;
	struct callchain cc;
	uint32_t insn_cnt;
	uint32_t sub;			/* the subprogram of cc's last frame */
	uint64_t *dirty[MAX_CALL_FRAMES];	/* by post-order position */
	bool updated;
	bool must_write_dropped;
	struct slot_masks *frames[MAX_CALL_FRAMES];
	bool *must_write_set;
};

/* The control-flow graph as the fixpoint walks it, built once. */
struct live_graph {
	uint32_t *pred_start;	/* insn_cnt + 1: preds[pred_start[i] ..] */
	uint32_t *preds;
	uint32_t *pos;		/* post-order position in its subprogram */
};

#define NO_POS UINT32_MAX

struct stack_live {
	struct live_graph g;
	bool graph_ready;
	struct live_instance *buckets[LIVE_BUCKETS];
	struct live_instance *cur;
	uint64_t write_acc[MAX_CALL_FRAMES];
	uint32_t write_insn;
	struct live_instance *query[MAX_CALL_FRAMES];
	uint32_t query_curframe;
	uint32_t query_insn;
};

static bool disabled(const struct vet_env *env)
{
	return (env->opts_off & BPFVET_NO_STACK_LIVENESS) || env->join;
}

static void graph_free(struct vet_env *env, struct live_graph *g)
{
	vet_free(env, g->pred_start);
	vet_free(env, g->preds);
	vet_free(env, g->pos);
	memset(g, 0, sizeof(*g));
}

/* Predecessors and post-order positions of the instructions the
 * post-order reaches (the others are never updated). */
static int graph_build(struct vet_env *env, struct live_graph *g)
{
	uint32_t n = env->insn_cnt, total = 0;

	g->pred_start = vet_calloc(env, n + 1, sizeof(*g->pred_start));
	g->pos = vet_calloc(env, n + 1, sizeof(*g->pos));
	if (!g->pred_start || !g->pos)
		goto nomem;
	for (uint32_t i = 0; i < n; i++)
		g->pos[i] = NO_POS;
	for (uint32_t sp = 0; sp < env->subprog_cnt; sp++) {
		uint32_t from = env->subprogs[sp].postorder_start;

		for (uint32_t k = from; k < env->subprogs[sp + 1].postorder_start; k++)
			g->pos[env->postorder[k]] = k - from;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t succ[2];
		int cnt = g->pos[i] == NO_POS ? 0 : insn_successors(env, i, succ);

		for (int k = 0; k < cnt; k++)
			if (succ[k] < n && g->pos[succ[k]] != NO_POS) {
				g->pred_start[succ[k]]++;
				total++;
			}
	}
	g->preds = vet_calloc(env, total ? total : 1, sizeof(*g->preds));
	if (!g->preds)
		goto nomem;
	/* Counts to end offsets, then fill backwards to start offsets. */
	for (uint32_t i = 0, sum = 0; i <= n; i++) {
		sum += g->pred_start[i];
		g->pred_start[i] = sum;
	}
	for (uint32_t i = n; i-- > 0;) {
		uint32_t succ[2];
		int cnt = g->pos[i] == NO_POS ? 0 : insn_successors(env, i, succ);

		for (int k = cnt; k-- > 0;)
			if (succ[k] < n && g->pos[succ[k]] != NO_POS)
				g->preds[--g->pred_start[succ[k]]] = i;
	}
	return 0;
nomem:
	graph_free(env, g);
	return -ENOMEM;
}

static int graph_ready(struct vet_env *env)
{
	struct stack_live *sl = env->slive;

	if (sl->graph_ready)
		return 0;
	if (!env->postorder)
		return -EFAULT;
	if (graph_build(env, &sl->g))
		return -ENOMEM;
	sl->graph_ready = true;
	return 0;
}

int stack_live_init(struct vet_env *env)
{
	env->slive = vet_calloc(env, 1, sizeof(*env->slive));
	return env->slive ? 0 : -ENOMEM;
}

void stack_live_free(struct vet_env *env)
{
	if (!env->slive)
		return;
	for (int b = 0; b < LIVE_BUCKETS; b++) {
		while (env->slive->buckets[b]) {
			struct live_instance *in = env->slive->buckets[b];

			env->slive->buckets[b] = in->next;
			for (int f = 0; f < MAX_CALL_FRAMES; f++) {
				vet_free(env, in->frames[f]);
				vet_free(env, in->dirty[f]);
			}
			vet_free(env, in->must_write_set);
			vet_free(env, in);
		}
	}
	graph_free(env, &env->slive->g);
	vet_free(env, env->slive);
	env->slive = NULL;
}

static void compute_callchain(const struct vet_env *env, const struct vstate *st,
			      uint32_t frameno, struct callchain *cc)
{
	memset(cc, 0, sizeof(*cc));
	for (uint32_t i = 0; i <= frameno; i++) {
		cc->sp_starts[i] = env->subprogs[st->frame[i]->subprogno].start;
		if (i < st->curframe)
			cc->callsites[i] = (uint32_t)st->frame[i + 1]->callsite;
	}
	cc->curframe = frameno;
	cc->callsites[frameno] = cc->sp_starts[frameno];
}

static uint32_t hash_callchain(const struct callchain *cc)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i <= cc->curframe; i++)
		h = (h ^ cc->callsites[i]) * 16777619u;
	return h % LIVE_BUCKETS;
}

static bool same_chain(const struct callchain *a, const struct callchain *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (uint32_t i = 0; i <= a->curframe; i++)
		if (a->callsites[i] != b->callsites[i])
			return false;
	return true;
}

static struct live_instance *find_instance(struct vet_env *env, const struct callchain *cc)
{
	uint32_t b = hash_callchain(cc);
	struct live_instance *in;
	int sub;

	for (in = env->slive->buckets[b]; in; in = in->next)
		if (same_chain(&in->cc, cc))
			return in;
	sub = subprog_at(env, cc->sp_starts[cc->curframe]);
	if (sub < 0 || graph_ready(env))
		return NULL;
	in = vet_calloc(env, 1, sizeof(*in));
	if (!in)
		return NULL;
	in->insn_cnt = env->subprogs[sub].end - env->subprogs[sub].start;
	in->must_write_set = vet_calloc(env, in->insn_cnt ? in->insn_cnt : 1, sizeof(bool));
	if (!in->must_write_set) {
		vet_free(env, in);
		return NULL;
	}
	in->cc = *cc;
	in->sub = (uint32_t)sub;
	in->next = env->slive->buckets[b];
	env->slive->buckets[b] = in;
	return in;
}

static struct live_instance *instance_of(struct vet_env *env, const struct vstate *st,
					 uint32_t frameno)
{
	struct callchain cc;

	compute_callchain(env, st, frameno, &cc);
	return find_instance(env, &cc);
}

static uint32_t rel(const struct live_instance *in, uint32_t insn)
{
	return insn - in->cc.sp_starts[in->cc.curframe];
}

static struct slot_masks *masks_at(const struct live_instance *in, uint32_t frame,
				   uint32_t insn)
{
	return in->frames[frame] ? &in->frames[frame][rel(in, insn)] : NULL;
}

static struct slot_masks *masks_alloc(struct vet_env *env, struct live_instance *in,
				      uint32_t frame, uint32_t insn)
{
	if (!in->frames[frame]) {
		in->dirty[frame] = vet_calloc(env, in->insn_cnt / 64 + 1, sizeof(uint64_t));
		in->frames[frame] = vet_calloc(env, in->insn_cnt ? in->insn_cnt : 1,
					   sizeof(struct slot_masks));
		if (!in->frames[frame] || !in->dirty[frame]) {
			vet_free(env, in->frames[frame]);
			vet_free(env, in->dirty[frame]);
			in->frames[frame] = NULL;
			in->dirty[frame] = NULL;
			return NULL;
		}
	}
	return masks_at(in, frame, insn);
}

/* insn's inputs changed: the next update recomputes it. */
static void mark_dirty(struct vet_env *env, struct live_instance *in, uint32_t frame,
		       uint32_t insn)
{
	uint32_t p = env->slive->g.pos[insn];

	if (p != NO_POS && in->dirty[frame])
		in->dirty[frame][p / 64] |= 1ull << (p % 64);
}

static int current_instance(struct vet_env *env)
{
	if (env->slive->cur)
		return 0;
	env->slive->cur = instance_of(env, env->cur, env->cur->curframe);
	return env->slive->cur ? 0 : -ENOMEM;
}

void stack_live_reset_chain(struct vet_env *env)
{
	if (env->slive)
		env->slive->cur = NULL;
}

static int mark_read(struct vet_env *env, struct live_instance *in, uint32_t frame,
		     uint32_t insn, uint64_t mask)
{
	struct slot_masks *m = masks_alloc(env, in, frame, insn);
	uint64_t nr;

	if (!m)
		return -ENOMEM;
	nr = m->may_read | mask;
	if (nr != m->may_read)
		mark_dirty(env, in, frame, insn);
	if (nr != m->may_read && (nr | m->live_before) != m->live_before)
		in->updated = true;
	m->may_read = nr;
	return 0;
}

int stack_live_read(struct vet_env *env, uint32_t frame, uint64_t mask)
{
	int err;

	if (disabled(env) || !mask)
		return 0;
	err = current_instance(env);
	return err ? err : mark_read(env, env->slive->cur, frame, env->insn_idx, mask);
}

void stack_live_write(struct vet_env *env, uint32_t frame, uint64_t mask)
{
	if (!disabled(env))
		env->slive->write_acc[frame] |= mask;
}

static void reset_writes(struct stack_live *sl, uint32_t insn)
{
	sl->write_insn = insn;
	memset(sl->write_acc, 0, sizeof(sl->write_acc));
}

int stack_live_begin_insn(struct vet_env *env)
{
	int err;

	if (disabled(env))
		return 0;
	err = current_instance(env);
	if (!err)
		reset_writes(env->slive, env->insn_idx);
	return err;
}

static int commit_writes(struct vet_env *env, struct live_instance *in)
{
	struct stack_live *sl = env->slive;
	uint32_t idx;

	if (!in || sl->write_insn < in->cc.sp_starts[in->cc.curframe])
		return 0;
	idx = rel(in, sl->write_insn);
	if (idx >= in->insn_cnt)
		return 0;
	for (uint32_t f = 0; f <= in->cc.curframe; f++) {
		uint64_t mask = sl->write_acc[f], old;
		struct slot_masks *m;

		if (!mask && !in->must_write_set[idx])
			continue;
		m = masks_alloc(env, in, f, sl->write_insn);
		if (!m)
			return -ENOMEM;
		old = m->must_write;
		if (in->must_write_set[idx])
			mask &= old;
		if (old != mask) {
			m->must_write = mask;
			in->updated = true;
			mark_dirty(env, in, f, sl->write_insn);
		}
		if (old & ~mask)
			in->must_write_dropped = true;
	}
	in->must_write_set[idx] = true;
	sl->write_insn = 0;
	return 0;
}

int stack_live_commit_insn(struct vet_env *env)
{
	if (disabled(env))
		return 0;
	return commit_writes(env, env->slive->cur);
}

static void fmt_chain(char *buf, size_t sz, const struct callchain *cc)
{
	size_t n = (size_t)snprintf(buf, sz, "(");

	for (uint32_t i = 0; i <= cc->curframe && n < sz; i++)
		n += (size_t)snprintf(buf + n, sz - n, "%s%u", i ? "," : "", cc->callsites[i]);
	if (n < sz)
		snprintf(buf + n, sz - n, ")");
}

static void fmt_slots(char *buf, size_t sz, uint64_t mask)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 64 && n < sz; i++)
		if (mask & (1ull << i))
			n += (size_t)snprintf(buf + n, sz - n, "%s%d", n ? "," : "", -(i + 1) * 8);
}

static void log_change(struct vet_env *env, const struct callchain *cc, const char *what,
		       uint32_t frame, uint32_t insn, uint64_t old, uint64_t new)
{
	uint64_t changed = old ^ new;
	char chain[96], slots[512];

	if (!changed)
		return;
	fmt_chain(chain, sizeof(chain), cc);
	verbose(env, "%s frame %u insn %u ", chain, frame, insn);
	if (new & changed) {
		fmt_slots(slots, sizeof(slots), new & changed);
		verbose(env, "+%s %s ", what, slots);
	}
	if (~new & changed) {
		fmt_slots(slots, sizeof(slots), ~new & changed);
		verbose(env, "-%s %s", what, slots);
	}
	verbose(env, "\n");
}

static bool update_insn(struct vet_env *env, struct live_instance *in, uint32_t frame,
			uint32_t insn)
{
	uint32_t succ[2];
	int n = insn_successors(env, insn, succ);
	struct slot_masks *m;
	uint64_t after = 0, acc = UINT64_MAX, before;
	bool changed;

	if (!n)
		return false;
	m = masks_at(in, frame, insn);
	for (int s = 0; s < n; s++) {
		const struct slot_masks *sm = masks_at(in, frame, succ[s]);

		after |= sm->live_before;
		acc &= sm->must_write_acc;
	}
	acc |= m->must_write;
	before = (after & ~m->must_write) | m->may_read;
	changed = before != m->live_before || acc != m->must_write_acc;
	if ((env->log.level & LOG_LEVEL2) &&
	    (m->may_read || m->must_write || insn == in->cc.sp_starts[in->cc.curframe] ||
	     env->aux[insn].prune_point)) {
		log_change(env, &in->cc, "live", frame, insn, m->live_before, before);
		log_change(env, &in->cc, "written", frame, insn, m->must_write_acc, acc);
	}
	m->live_before = before;
	m->must_write_acc = acc;
	return changed;
}

/* Marks of a callee's entry become the call instruction's in the caller. */
static int propagate_to_caller(struct vet_env *env, struct live_instance *in)
{
	struct callchain cc = in->cc;
	uint32_t start = cc.sp_starts[cc.curframe], callsite;
	struct live_instance *outer;

	cc.callsites[cc.curframe] = 0;
	cc.sp_starts[cc.curframe] = 0;
	cc.curframe--;
	cc.callsites[cc.curframe] = cc.sp_starts[cc.curframe];
	outer = find_instance(env, &cc);
	if (!outer)
		return -ENOMEM;
	callsite = in->cc.callsites[in->cc.curframe - 1];
	reset_writes(env->slive, callsite);
	for (uint32_t f = 0; f < in->cc.curframe; f++) {
		const struct slot_masks *m = masks_at(in, f, start);
		int err;

		if (!m)
			continue;
		env->slive->write_acc[f] |= m->must_write_acc;
		err = mark_read(env, outer, f, callsite, m->live_before);
		if (err)
			return err;
	}
	return commit_writes(env, outer);
}

/* How many instructions of the instance's subprogram the post-order
 * holds: the positions its dirty bits take. */
static uint32_t postorder_len(const struct vet_env *env, const struct live_instance *in)
{
	return env->subprogs[in->sub + 1].postorder_start - env->subprogs[in->sub].postorder_start;
}

/* After must_write_acc was forgotten: every instruction again. */
static void dirty_all(const struct vet_env *env, struct live_instance *in)
{
	uint32_t len = postorder_len(env, in);

	for (uint32_t f = 0; f <= in->cc.curframe; f++) {
		if (!in->frames[f])
			continue;
		for (uint32_t i = 0; i < in->insn_cnt; i++)
			in->frames[f][i].must_write_acc = 0;
		for (uint32_t p = 0; p < len; p++)
			in->dirty[f][p / 64] |= 1ull << (p % 64);
	}
}

/* One sweep over frame f's dirty instructions in post-order: those
 * behind one that changed are dirty again (those ahead in this sweep, as
 * a full round would see them; the others in the next). */
static bool sweep_frame(struct vet_env *env, struct live_instance *in, uint32_t f)
{
	const struct live_graph *g = &env->slive->g;
	const uint32_t *order = env->postorder + env->subprogs[in->sub].postorder_start;
	uint32_t len = postorder_len(env, in);
	uint64_t *dirty = in->dirty[f];
	bool changed = false;

	for (uint32_t w = 0; w * 64 < len; w++) {
		/* Bits behind the sweep in this word wait for the next one. */
		uint64_t ahead = UINT64_MAX;

		while (dirty[w] & ahead) {
			uint32_t bit = (uint32_t)__builtin_ctzll(dirty[w] & ahead);
			uint32_t p = w * 64 + bit, insn = order[p];

			dirty[w] &= ~(1ull << bit);
			ahead = bit == 63 ? 0 : ~0ull << (bit + 1);
			if (!update_insn(env, in, f, insn))
				continue;
			changed = true;
			for (uint32_t k = g->pred_start[insn]; k < g->pred_start[insn + 1]; k++)
				mark_dirty(env, in, f, g->preds[k]);
		}
	}
	return changed;
}

static int update_instance(struct vet_env *env, struct live_instance *in)
{
	char chain[96];
	int rounds = 1;
	bool changed;

	if (in->must_write_dropped)
		dirty_all(env, in);
	do {
		changed = false;
		for (uint32_t f = 0; f <= in->cc.curframe; f++)
			if (in->frames[f])
				changed |= sweep_frame(env, in, f);
		rounds += changed;
	} while (changed);
	if (env->log.level & LOG_LEVEL2) {
		fmt_chain(chain, sizeof(chain), &in->cc);
		verbose(env, "%s live stack update done in %d iterations\n", chain, rounds);
	}
	return in->cc.curframe ? propagate_to_caller(env, in) : 0;
}

int stack_live_update(struct vet_env *env)
{
	if (disabled(env))
		return 0;
	env->slive->cur = NULL;
	for (int f = (int)env->cur->curframe; f >= 0; f--) {
		struct live_instance *in = instance_of(env, env->cur, (uint32_t)f);
		int err;

		if (!in)
			return -ENOMEM;
		if (!in->updated)
			continue;
		err = update_instance(env, in);
		if (err)
			return err;
		in->updated = false;
		in->must_write_dropped = false;
	}
	return 0;
}

void stack_live_query_init(struct vet_env *env, const struct vstate *st)
{
	struct stack_live *sl = env->slive;

	if (disabled(env))
		return;
	memset(sl->query, 0, sizeof(sl->query));
	for (uint32_t f = 0; f <= st->curframe; f++)
		sl->query[f] = instance_of(env, st, f);
	sl->query_curframe = st->curframe;
	sl->query_insn = st->insn_idx;
}

static bool live_before(const struct live_instance *in, uint32_t insn, uint32_t frame,
			int spi)
{
	const struct slot_masks *m = in ? masks_at(in, frame, insn) : NULL;

	return m && (m->live_before & (1ull << spi));
}

bool stack_slot_alive(struct vet_env *env, uint32_t frameno, int spi)
{
	const struct stack_live *sl = env->slive;
	const struct live_instance *top;

	if (disabled(env) || spi >= 64 || !sl->query[sl->query_curframe])
		return true;
	top = sl->query[sl->query_curframe];
	if (live_before(top, sl->query_insn, frameno, spi))
		return true;
	for (uint32_t i = frameno; i < sl->query_curframe; i++) {
		uint32_t callsite = top->cc.callsites[i];

		if (live_before(sl->query[i], env->aux[callsite].calls_callback ? callsite :
					    callsite + 1, frameno, spi))
			return true;
	}
	return false;
}
