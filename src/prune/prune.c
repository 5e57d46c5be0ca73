/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * State pruning: at prune points, compare the current state with stored
 * checkpoints for the same instruction and call sites; if one subsumes it,
 * the path is finished. Otherwise maybe store a new checkpoint (frequency
 * heuristics), and evict checkpoints that keep missing. The counters
 * (total_states, peak_states, max_states_per_insn) follow the kernel's
 * definitions exactly.
 */
#include <errno.h>
#include <string.h>
#include <stddef.h>
#include <stdlib.h>

#include "prune.h"

static struct state_list *list_of(struct vstate *st)
{
	return (struct state_list *)((char *)st - offsetof(struct state_list, state));
}

/* The bucket mixes the instruction with the top frame's call site. */
static struct state_list **bucket_at(struct vet_env *env, uint32_t idx, int callsite)
{
	return &env->explored[(idx ^ (uint32_t)callsite) % env->insn_cnt];
}

static struct state_list **bucket(struct vet_env *env, uint32_t idx)
{
	const struct vstate *cur = env->cur;

	return bucket_at(env, idx, cur->frame[cur->curframe]->callsite);
}

static void update_peak_states(struct vet_env *env)
{
	struct verifier_stats *s = &env->stats;
	uint64_t n = s->explored_states_size + s->free_list_size + s->num_backedges;

	if (n > s->peak_states)
		s->peak_states = n;
}

static void free_state_list(struct vet_env *env, struct state_list *sl)
{
	if (env->keep_states && sl->state.frame[0]) {
		sl->next = env->kept;
		env->kept = sl;
		return;
	}
	state_clear(env, &sl->state);
	vet_free(env, sl);
}

/* Evicted checkpoints are freed once nothing can walk to them. */
static void maybe_free_state(struct vet_env *env, struct state_list *sl)
{
	struct state_list **pp;

	if (!sl->in_free_list || sl->state.branches || incomplete_read_marks(env, &sl->state))
		return;
	for (pp = &env->free_list; *pp; pp = &(*pp)->next) {
		if (*pp == sl) {
			*pp = sl->next;
			free_state_list(env, sl);
			env->stats.free_list_size--;
			return;
		}
	}
}

int update_branch_counts(struct vet_env *env, struct vstate *st)
{
	struct state_list *sl = NULL;
	int err;

	while (st) {
		struct vstate *parent;

		if (--st->branches)
			break;
		err = env->join ? 0 : maybe_exit_scc(env, st);
		if (err)
			return err;
		parent = st->parent;
		if (sl)
			maybe_free_state(env, sl);
		sl = parent ? list_of(parent) : NULL;
		st = parent;
	}
	return 0;
}

/* Wipes slot s of a finished checkpoint's frame, making it `clean`. Its
 * page may be shared with other states: only a slot that is not clean
 * yet takes a copy. */
static int clean_slot(struct vet_env *env, struct func_state *f, int s,
		      const struct stack_slot *clean)
{
	int err;

	if (!memcmp(stack_slot_at(f, s), clean, sizeof(*clean)))
		return 0;
	err = frame_own_slot(env, f, s);
	if (!err)
		*stack_slot_at(f, s) = *clean;
	return err;
}

/* Wipes what no continuation of a finished checkpoint can read. */
static int clean_state(struct vet_env *env, struct vstate *st)
{
	struct stack_slot clean;

	reg_mark_not_init(&clean.spilled_ptr);
	memset(clean.slot_type, STACK_INVALID, sizeof(clean.slot_type));
	st->cleaned = true;
	stack_live_query_init(env, st);
	for (uint32_t fr = 0; fr <= st->curframe; fr++) {
		struct func_state *f = st->frame[fr];
		uint16_t live = env->aux[state_frame_ip(st, fr)].live_regs_before;

		if (!(env->opts_off & BPFVET_NO_LIVENESS))
			for (int r = 0; r < BPF_REG_FP; r++)
				if (!(live & (1u << r)))
					reg_mark_not_init(&f->regs[r]);
		for (int s = 0; s < f->allocated_stack / BPF_REG_SIZE; s++) {
			int err = stack_slot_alive(env, fr, s) ? 0 : clean_slot(env, f, s, &clean);

			if (err)
				return err;
		}
	}
	return 0;
}

static int clean_live_states(struct vet_env *env, uint32_t idx, const struct vstate *cur)
{
	for (struct state_list *sl = *bucket(env, idx); sl; sl = sl->next) {
		struct vstate *st = &sl->state;
		int err;

		if (st->branches || st->insn_idx != idx || !state_same_callsites(st, cur) ||
		    st->cleaned || incomplete_read_marks(env, st))
			continue;
		err = clean_state(env, st);
		if (err)
			return err;
	}
	return 0;
}

enum visit { VISIT_MISS, VISIT_HIT, VISIT_LOOP_HIT };

static int report_infinite_loop(struct vet_env *env, uint32_t idx, const struct vstate *old)
{
	const struct vstate *cur = env->cur;

	print_line_info(env, idx);
	verbose(env, "infinite loop detected at insn %u\n", idx);
	if (!env_has(env, KVER_EXACT_LOOP_CHECK))
		return -EINVAL;
	log_hold_error(&env->log);
	verbose(env, "cur state:");
	print_frame(env, cur, cur->frame[cur->curframe], true);
	verbose(env, "old state:");
	print_frame(env, old, old->frame[cur->curframe], true);
	return -EINVAL;
}

/*
 * A stored state still being explored at this instruction is an ancestor:
 * the path closed a loop. Returns a visit outcome, or a negative errno;
 * *throttle tells whether checkpointing should slow down.
 */
static int visit_unfinished(struct vet_env *env, uint32_t idx, struct vstate *old,
			    bool force, bool *throttle)
{
	struct vstate *cur = env->cur;
	const struct func_state *of = old->frame[old->curframe];

	*throttle = false;
	if (of->in_async_callback_fn &&
	    of->async_entry_cnt != cur->frame[cur->curframe]->async_entry_cnt)
		goto heuristics;
	if (env->aux[idx].is_iter_next) {
		if (states_equal(env, old, cur, RANGE_WITHIN) && iter_arg_active(env, cur))
			return VISIT_LOOP_HIT;
		goto heuristics;
	}
	if (env->insns[idx].code == (BPF_JMP | BPF_JCOND) &&
	    old->may_goto_depth != cur->may_goto_depth &&
	    states_equal(env, old, cur, RANGE_WITHIN))
		return VISIT_LOOP_HIT;
	if (env->aux[idx].calls_callback) {
		if (states_equal(env, old, cur, RANGE_WITHIN))
			return VISIT_LOOP_HIT;
		goto heuristics;
	}
	/* Before 6.7 a loop was infinite by the loose comparison. */
	if (states_maybe_looping(old, cur) &&
	    states_equal(env, old, cur, env_has(env, KVER_EXACT_LOOP_CHECK) ? EXACT : NOT_EXACT) &&
	    !iter_depths_differ(old, cur) && old->may_goto_depth == cur->may_goto_depth &&
	    old->callback_unroll_depth == cur->callback_unroll_depth)
		return report_infinite_loop(env, idx, old);
heuristics:
	if (!force && env->stats.jmps_processed - env->stats.prev_jmps_processed < 20 &&
	    env->stats.insn_processed - env->stats.prev_insn_processed < 100)
		*throttle = true;
	return VISIT_MISS;
}

static int on_hit(struct vet_env *env, struct state_list *sl, bool loop)
{
	int err = 0;

	sl->hit_cnt++;
	trace_prune(env, env->insn_idx, true);
	if (env->aux[env->insn_idx].jmp_point)
		err = push_jmp_history(env, env->cur, 0, 0);
	if (!err)
		err = propagate_precision(env, &sl->state, env->cur, NULL);
	if (!err && loop)
		err = add_scc_backedge(env, &sl->state, env->cur);
	return err ? err : 1;
}

static void evict(struct vet_env *env, struct state_list **pp, struct state_list *sl)
{
	*pp = sl->next;
	sl->in_free_list = true;
	sl->next = env->free_list;
	env->free_list = sl;
	env->stats.explored_states_size--;
	env->stats.free_list_size++;
	maybe_free_state(env, sl);
}

static int add_checkpoint(struct vet_env *env, uint32_t idx)
{
	struct state_list *sl = vet_calloc(env, 1, sizeof(*sl));
	struct state_list **head;
	struct vstate *cur = env->cur;
	int err;

	if (!sl)
		return -ENOMEM;
	env->stats.total_states++;
	sl->seq = env->stats.total_states;
	trace_state_stored(env, idx);
	env->stats.explored_states_size++;
	update_peak_states(env);
	env->stats.prev_jmps_processed = env->stats.jmps_processed;
	env->stats.prev_insn_processed = env->stats.insn_processed;
	if (env->bpf_capable)
		mark_all_scalars_imprecise(cur);
	err = state_copy(env, &sl->state, cur);
	if (err) {
		free_state_list(env, sl);
		return err;
	}
	sl->state.insn_idx = idx;
	state_share_pages(env, &sl->state);
	err = maybe_enter_scc(env, &sl->state);
	if (err) {
		free_state_list(env, sl);
		return err;
	}
	cur->parent = &sl->state;
	cur->first_insn_idx = idx;
	cur->dfs_depth = sl->state.dfs_depth + 1;
	cur->jmp_history_cnt = 0;
	env->segment_gen++;
	/* The writes so far are the checkpoint's; 6.1 marks anew from here. */
	for (uint32_t i = 0; i <= cur->curframe; i++) {
		cur->frame[i]->written_regs = 0;
		cur->frame[i]->written_slots = 0;
	}
	env->cur_hist_idx = -1;
	head = bucket(env, idx);
	sl->next = *head;
	*head = sl;
	return 0;
}

/*
 * Beyond the kernel: a checkpoint no later state can reach is not stored
 * (reach.c), nor, optionally, one where no two paths meet: a path that
 * went through no join since the last checkpoint carries the state it
 * had there. Inside loops the kernel's placement stays, for its loop
 * detection and convergence; forced checkpoints stay too (iterator
 * next() finds its loop's entry state there).
 */
static bool checkpoint_useful(const struct vet_env *env, uint32_t idx)
{
	if (!(env->opts_on & (BPFVET_USEFUL_CHECKPOINTS | BPFVET_JOIN_CHECKPOINTS)) ||
	    env->aux[idx].force_checkpoint || reach_may_loop(env, env->cur))
		return true;
	if ((env->opts_on & BPFVET_JOIN_CHECKPOINTS) && !reach_is_join(env, idx))
		return false;
	return !(env->opts_on & BPFVET_USEFUL_CHECKPOINTS) || reach_pending(env, idx);
}

static void evict_orphans_at(struct vet_env *env, struct state_list **pp, uint32_t idx)
{
	struct state_list *sl;

	while ((sl = *pp)) {
		if (sl->state.insn_idx == idx && !reach_may_loop(env, &sl->state)) {
			evict(env, pp, sl);
			continue;
		}
		pp = &sl->next;
	}
}

/*
 * Beyond the kernel: when a path ends, the checkpoints at instructions
 * only it could still reach are evicted (loops aside). Called before the
 * next queued path resumes.
 */
int evict_orphans(struct vet_env *env)
{
	uint32_t *insns, n;

	if (!(env->opts_on & BPFVET_EVICT_UNREACHABLE))
		return 0;
	n = reach_take_orphans(env, &insns);
	for (uint32_t k = 0; k < n; k++) {
		int subprog = env->aux[insns[k]].subprog;
		uint32_t ncalls;
		const uint32_t *calls = reach_call_sites(env, subprog, &ncalls);

		/* Main frames and global functions verified alone: no call site. */
		evict_orphans_at(env, bucket_at(env, insns[k], -1), insns[k]);
		for (uint32_t c = 0; c < ncalls; c++)
			evict_orphans_at(env, bucket_at(env, insns[k], (int)calls[c]), insns[k]);
	}
	vet_free(env, insns);
	return 0;
}

int is_state_visited(struct vet_env *env, uint32_t idx)
{
	struct vstate *cur = env->cur;
	const struct verifier_stats *s = &env->stats;
	bool force = env->test_state_freq || env->aux[idx].force_checkpoint ||
		     cur->jmp_history_cnt > 40 || (env->opts_on & BPFVET_CHECKPOINT_EVERY);
	bool add = force || (s->jmps_processed - s->prev_jmps_processed >= 2 &&
			     s->insn_processed - s->prev_insn_processed >= 8) ||
		   ((env->opts_on & BPFVET_EAGER_CHECKPOINTS) && !reach_may_loop(env, cur));
	struct state_list **pp, *sl;
	uint64_t states_cnt = 0;
	int ret;

	if (env->opts_off & BPFVET_NO_PRUNE)
		return 0;
	ret = clean_live_states(env, idx, cur);
	if (ret)
		return ret;
	pp = bucket(env, idx);
	while ((sl = *pp)) {
		bool loop = false, throttle;
		int n;

		states_cnt++;
		if (sl->state.insn_idx != idx || sl->stale)
			goto next;
		if (sl->state.branches) {
			ret = visit_unfinished(env, idx, &sl->state, force, &throttle);
			if (ret < 0)
				return ret;
			if (ret == VISIT_LOOP_HIT)
				return on_hit(env, sl, true);
			if (throttle)
				add = false;
		} else {
			loop = incomplete_read_marks(env, &sl->state);
			if (states_equal(env, &sl->state, cur, loop ? RANGE_WITHIN : NOT_EXACT))
				return on_hit(env, sl, loop);
		}
		if (add)
			sl->miss_cnt++;
		n = env->aux[idx].force_checkpoint && sl->state.branches > 0 ? 64 : 3;
		if (!(env->opts_off & BPFVET_NO_EVICT) &&
		    sl->miss_cnt > sl->hit_cnt * (uint32_t)n + (uint32_t)n) {
			evict(env, pp, sl);
			continue;
		}
next:
		pp = &sl->next;
	}
	trace_prune(env, idx, false);
	if (env->stats.max_states_per_insn < states_cnt)
		env->stats.max_states_per_insn = states_cnt;
	if (!env->bpf_capable && states_cnt > COMPLEXITY_LIMIT_STATES)
		return 0;
	if (!add || !checkpoint_useful(env, idx))
		return 0;
	ret = add_checkpoint(env, idx);
	return ret < 0 ? ret : 0;
}

/* The checkpoints made after the first `seq` ones prune no more: their
 * continuations ended where a joined walk has since dropped what they
 * brought (sites.c, a loop started again trip by trip). */
void prune_drop_since(struct vet_env *env, uint64_t seq)
{
	for (uint32_t i = 0; env->explored && i < env->insn_cnt; i++)
		for (struct state_list *sl = env->explored[i]; sl; sl = sl->next)
			if (sl->seq > seq)
				sl->stale = true;
}

int init_explored_states(struct vet_env *env)
{
	env->explored = vet_calloc(env, env->insn_cnt, sizeof(*env->explored));
	return env->explored ? 0 : -ENOMEM;
}

void free_explored_states(struct vet_env *env)
{
	struct state_list *sl, *next;

	if (env->explored) {
		for (uint32_t i = 0; i < env->insn_cnt; i++) {
			for (sl = env->explored[i]; sl; sl = next) {
				next = sl->next;
				free_state_list(env, sl);
			}
		}
		vet_free(env, env->explored);
		env->explored = NULL;
	}
	for (sl = env->free_list; sl; sl = next) {
		next = sl->next;
		free_state_list(env, sl);
	}
	env->free_list = NULL;
	free_scc_visits(env);
}
