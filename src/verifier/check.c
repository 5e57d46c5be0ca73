/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The symbolic walk: starting from the entry state, simulate instructions
 * one at a time, fork at conditional jumps (the other side is queued on a
 * stack of pending paths), and finish a path at exit or when state pruning
 * finds an equivalent, already verified state. Depth-first and LIFO, as
 * the kernel does, so that counts and logs match.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "verifier.h"

/* A new pending path goes on top, into the unpacked window. */
static void link_pending(struct vet_env *env, struct stack_elem *elem)
{
	elem->next = env->head;
	if (env->head)
		env->head->prev = elem;
	env->head = elem;
	env->stack_size++;
	if (!env->unpacked_cnt++)
		env->pack_edge = elem;
}

struct vstate *push_stack(struct vet_env *env, uint32_t insn_idx,
			  uint32_t prev_insn_idx, bool speculative)
{
	struct stack_elem *elem = vet_calloc(env, 1, sizeof(*elem));

	if (!elem) {
		env->err = -ENOMEM;
		return NULL;
	}
	elem->insn_idx = insn_idx;
	elem->prev_insn_idx = prev_insn_idx;
	elem->log_pos = (uint32_t)log_pos(&env->log);
	elem->trace_len = trace_len(env);
	link_pending(env, elem);
	if (state_copy(env, &elem->st, env->cur)) {
		env->err = -ENOMEM;
		return NULL;
	}
	elem->st.speculative |= speculative;
	if (env->stack_size > COMPLEXITY_LIMIT_JMP_SEQ) {
		verbose(env, "The sequence of %u jumps is too complex.\n",
			env->stack_size);
		env->err = -E2BIG;
		return NULL;
	}
	if (elem->st.parent)
		elem->st.parent->branches++;
	if (reach_note_push(env, &elem->st, insn_idx)) {
		env->err = -ENOMEM;
		return NULL;
	}
	return &elem->st;
}

/* A pending path that starts from scratch (async callbacks): one empty
 * frame, set up by the caller. */
struct vstate *push_fresh_stack(struct vet_env *env, uint32_t insn_idx,
				uint32_t prev_insn_idx)
{
	struct stack_elem *elem = vet_calloc(env, 1, sizeof(*elem));

	if (!elem) {
		env->err = -ENOMEM;
		return NULL;
	}
	elem->insn_idx = insn_idx;
	elem->prev_insn_idx = prev_insn_idx;
	elem->log_pos = (uint32_t)log_pos(&env->log);
	elem->trace_len = trace_len(env);
	link_pending(env, elem);
	if (env->stack_size > COMPLEXITY_LIMIT_JMP_SEQ) {
		verbose(env, "The sequence of %u jumps is too complex for async cb.\n",
			env->stack_size);
		env->err = -E2BIG;
		return NULL;
	}
	elem->st.branches = 1;
	elem->st.in_sleepable = false;
	elem->st.frame[0] = vet_calloc(env, 1, sizeof(*elem->st.frame[0]));
	if (!elem->st.frame[0]) {
		env->err = -ENOMEM;
		return NULL;
	}
	if (reach_note_push(env, &elem->st, insn_idx)) {
		env->err = -ENOMEM;
		return NULL;
	}
	return &elem->st;
}

/* How many of the newest pending paths stay unpacked. Depth-first, the
 * newest are resumed soon (packing them would be wasted time), while the
 * older ones wait: only those are packed, once each. */
#define PACK_WINDOW 256

/* Packs the paths that fell out of the window. Called between
 * instructions: nothing writes to a queued path until it resumes. */
static int pack_old_paths(struct vet_env *env)
{
	while (env->unpacked_cnt > PACK_WINDOW) {
		struct stack_elem *e = env->pack_edge;
		int err = state_pack(env, &e->st, &e->packed);

		if (err)
			return err;
		env->pack_edge = e->prev;
		env->unpacked_cnt--;
	}
	return 0;
}

/* Resumes the most recent pending path. Returns -ENOENT when none is left. */
static int pop_stack(struct vet_env *env, uint32_t *prev_insn_idx,
		     uint32_t *insn_idx, bool pop_log)
{
	struct stack_elem *head = env->head;
	int err = 0;

	if (!head)
		return -ENOENT;
	/* The pending state becomes the current one: its frames, stacks and
	 * history change owner instead of being copied and freed. */
	if (!head->packed && !--env->unpacked_cnt)
		env->pack_edge = NULL;
	env->head = head->next;
	if (env->head)
		env->head->prev = NULL;
	env->stack_size--;
	state_clear(env, env->cur);
	*env->cur = head->st;
	env->segment_gen++;
	if (head->packed) {
		err = state_unpack(env, env->cur, head->packed);
		vet_free(env, head->packed);
	}
	/* The walk writes to the current state's stack in place. */
	if (!err)
		err = state_own_stacks(env, env->cur);
	if (pop_log)
		log_rewind(&env->log, head->log_pos);
	trace_rewind(env, head->trace_len);
	*insn_idx = head->insn_idx;
	*prev_insn_idx = head->prev_insn_idx;
	vet_free(env, head);
	reach_note_pop(env);
	return err;
}

/* A pending path dropped unresumed, packed or not. */
static void pending_free(struct vet_env *env, struct stack_elem *e)
{
	if (e->packed)
		state_packed_release(env, &e->st, e->packed, 0);
	state_clear(env, &e->st);
	vet_free(env, e->packed);
	vet_free(env, e);
}

void free_pending_paths(struct vet_env *env)
{
	while (env->head) {
		struct stack_elem *e = env->head;

		env->head = e->next;
		pending_free(env, e);
	}
	env->stack_size = 0;
	env->unpacked_cnt = 0;
	env->pack_edge = NULL;
}

static int check_reserved_call(struct vet_env *env, const struct bpfvet_insn *insn)
{
	if (BPF_SRC(insn->code) != BPF_K ||
	    (insn->src_reg != BPF_PSEUDO_KFUNC_CALL && insn->off != 0) ||
	    (insn->src_reg != 0 && insn->src_reg != BPF_PSEUDO_CALL &&
	     insn->src_reg != BPF_PSEUDO_KFUNC_CALL) ||
	    insn->dst_reg != 0 || BPF_CLASS(insn->code) == BPF_JMP32) {
		verbose(env, "BPF_CALL uses reserved fields\n");
		return -EINVAL;
	}
	return 0;
}

static int do_call(struct vet_env *env, const struct bpfvet_insn *insn)
{
	int err = check_reserved_call(env, insn);

	if (err)
		return err;
	if (env->cur->active_locks) {
		if ((insn->src_reg == 0 && insn->imm != HELPER_SPIN_UNLOCK) ||
		    (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !kfunc_lock_allowed(env, insn)) ||
		    (insn->src_reg == BPF_PSEUDO_CALL &&
		     !env_has(env, KVER_LOCKED_SUBPROG_CALLS))) {
			verbose(env, "function calls are not allowed while holding a lock\n");
			return -EINVAL;
		}
	}
	if (insn->src_reg == BPF_PSEUDO_CALL)
		err = check_func_call(env, insn, &env->insn_idx);
	else if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
		err = check_kfunc_call(env, insn, &env->insn_idx);
	else
		err = check_helper_call(env, insn, &env->insn_idx);
	if (err)
		return err;
	scratch_reg(env, BPF_REG_0);
	return 0;
}

/* Back to the caller: the callee's stack liveness is final, then the
 * frame goes and insn_idx becomes the return point. */
static int leave_subprog(struct vet_env *env)
{
	int err = stack_live_update(env);

	if (!err)
		err = prepare_func_exit(env, &env->insn_idx);
	stack_live_reset_chain(env);
	return err;
}

/*
 * As Linux 6.18 does: a tail call made from a subprogram may succeed,
 * and the program it enters then returns to this subprogram's caller
 * with its own R0; if it fails, execution falls through. The fall-through
 * is queued and the current path leaves the subprogram with an unknown R0.
 */
static int exit_by_tail_call(struct vet_env *env)
{
	if (!push_stack(env, env->insn_idx + 1, env->insn_idx, false))
		return env->err ? env->err : -ENOMEM;
	reg_mark_unknown(env, &cur_regs(env)[BPF_REG_0]);
	return leave_subprog(env);
}

static bool is_subprog_tail_call(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	return insn->src_reg == 0 && insn->imm == HELPER_TAIL_CALL && env->cur->curframe;
}

static int do_ja(struct vet_env *env, const struct bpfvet_insn *insn)
{
	bool jmp64 = BPF_CLASS(insn->code) == BPF_JMP;

	if (BPF_SRC(insn->code) != BPF_K || insn->src_reg || insn->dst_reg ||
	    (jmp64 && insn->imm) || (!jmp64 && insn->off)) {
		verbose(env, "BPF_JA uses reserved fields\n");
		return -EINVAL;
	}
	env->insn_idx += (jmp64 ? insn->off : insn->imm) + 1;
	return 0;
}

/*
 * Leaving the program (exit of the main frame, tail call, LD_ABS/IND) must
 * not leak references or leave a lock or protected region open.
 */
int check_resource_leak(struct vet_env *env, bool check_lock, const char *prefix)
{
	return check_exit_leak(env, false, check_lock, prefix);
}

/* The same, where an exception exit (bpf_throw) from any frame leaves
 * the whole program. */
int check_exit_leak(struct vet_env *env, bool exception_exit, bool check_lock,
		    const char *prefix)
{
	struct vstate *st = env->cur;
	int err;

	if (check_lock && st->active_locks) {
		verbose(env, "%s cannot be used inside bpf_spin_lock-ed region\n", prefix);
		return -EINVAL;
	}
	err = check_reference_leak(env, exception_exit);
	if (err) {
		verbose(env, "%s would lead to reference leak\n", prefix);
		return err;
	}
	if (check_lock && st->active_irq_id) {
		verbose(env, "%s cannot be used inside bpf_local_irq_save-ed region\n", prefix);
		return -EINVAL;
	}
	if (check_lock && st->active_rcu_lock) {
		verbose(env, "%s cannot be used inside bpf_rcu_read_lock-ed region\n", prefix);
		return -EINVAL;
	}
	if (check_lock && st->active_preempt_locks) {
		verbose(env, "%s cannot be used inside bpf_preempt_disable-ed region\n", prefix);
		return -EINVAL;
	}
	return 0;
}

/* Prints each reference still held; the main frame may not keep any. */
int check_reference_leak(struct vet_env *env, bool exception_exit)
{
	struct vstate *st = env->cur;
	bool lingering = false;

	if (!exception_exit && cur_frame(env)->frameno)
		return 0;
	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		if (st->refs[i].kind != REF_TYPE_PTR)
			continue;
		verbose(env, "Unreleased reference id=%u alloc_insn=%d\n",
			st->refs[i].id, st->refs[i].insn_idx);
		lingering = true;
	}
	return lingering ? -EINVAL : 0;
}

/*
 * Before the one resource check (KVER_MSG_RESOURCE_LEAK), BPF_EXIT asked
 * for each resource in turn, locks first, in words of its own; a leaked
 * reference said no more than its "Unreleased reference" lines.
 */
static int check_exit_resources_old(struct vet_env *env, bool main_exit)
{
	struct vstate *st = env->cur;
	uint32_t n = st->active_preempt_locks;

	/* Without subprogram calls under a lock, a lock held at any exit
	 * was taken in that frame. */
	if ((main_exit || !env_has(env, KVER_LOCKED_SUBPROG_CALLS)) && st->active_locks) {
		verbose(env, "bpf_spin_unlock is missing\n");
		return -EINVAL;
	}
	if (main_exit && st->active_rcu_lock) {
		verbose(env, "bpf_rcu_read_unlock is missing\n");
		return -EINVAL;
	}
	if (main_exit && n) {
		verbose(env, "%u bpf_preempt_enable%s\n", n,
			n > 1 ? "(s) are missing" : " is missing");
		return -EINVAL;
	}
	return check_reference_leak(env, false);
}

/* bpf_throw before the one resource check: the regions first, then the
 * "Unreleased reference" lines alone. */
static int check_throw_resources_old(struct vet_env *env)
{
	const struct vstate *st = env->cur;
	const char *region = st->active_locks ? "bpf_spin_lock" :
			     st->active_rcu_lock ? "bpf_rcu_read_lock" :
			     st->active_preempt_locks ? "bpf_preempt_disable" : NULL;

	if (region) {
		verbose(env, "bpf_throw cannot be used inside %s-ed region\n", region);
		return -EINVAL;
	}
	return check_reference_leak(env, true);
}

static int check_exit_resources(struct vet_env *env, bool main_exit)
{
	if (!env_has(env, KVER_MSG_RESOURCE_LEAK))
		return check_exit_resources_old(env, main_exit);
	return check_resource_leak(env, main_exit, "BPF_EXIT instruction in main prog");
}

enum exit_action { EXIT_CONTINUE, EXIT_PATH_DONE };

static int do_exit(struct vet_env *env, const struct bpfvet_insn *insn,
		   enum exit_action *action)
{
	struct vstate *st = env->cur;
	int err;

	if (BPF_SRC(insn->code) != BPF_K || insn->imm || insn->src_reg ||
	    insn->dst_reg || BPF_CLASS(insn->code) == BPF_JMP32) {
		verbose(env, "BPF_EXIT uses reserved fields\n");
		return -EINVAL;
	}
	err = check_exit_resources(env, st->curframe == 0);
	if (err)
		return err;
	if (st->curframe) {
		err = leave_subprog(env);
		if (err)
			return err;
		*action = EXIT_CONTINUE;
		return 0;
	}
	err = check_return_code(env, BPF_REG_0, "R0");
	if (err)
		return err;
	*action = EXIT_PATH_DONE;
	return 0;
}

static int do_store_imm(struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint32_t dst_type;
	int err;

	if (BPF_MODE(insn->code) != BPF_MEM || insn->src_reg != 0) {
		verbose(env, "BPF_ST uses reserved fields\n");
		return -EINVAL;
	}
	err = check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	dst_type = cur_regs(env)[insn->dst_reg].type;
	if (dst_type == PTR_TO_CTX && !env_has(env, KVER_ST_INTO_CTX)) {
		verbose(env, "BPF_ST stores into R%u ctx is not allowed\n", insn->dst_reg);
		return -EACCES;
	}
	err = check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off,
			       bpf_size_bytes(insn->code), ACCESS_WRITE, -1,
			       false, false);
	if (err)
		return err;
	return save_aux_ptr_type(env, dst_type, false);
}

/* Simulates one instruction; *path_done is set when the path ended. */
static int do_insn(struct vet_env *env, const struct bpfvet_insn *insn,
		   bool *path_done, bool *print_from)
{
	uint8_t cls = BPF_CLASS(insn->code);
	enum exit_action act;
	int err;

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		return check_alu_op(env, insn);
	case BPF_LDX:
		return check_load_mem(env, insn);
	case BPF_STX:
		if (BPF_MODE(insn->code) == BPF_ATOMIC)
			return check_atomic(env, insn);
		if (BPF_MODE(insn->code) != BPF_MEM || insn->imm) {
			verbose(env, "BPF_STX uses reserved fields\n");
			return -EINVAL;
		}
		return check_store_reg(env, insn);
	case BPF_ST:
		return do_store_imm(env, insn);
	case BPF_LD:
		if (BPF_MODE(insn->code) == BPF_ABS || BPF_MODE(insn->code) == BPF_IND)
			return check_ld_abs(env, insn);
		err = check_ld_imm(env, insn);
		if (!err)
			env->insn_idx++;
		return err;
	default:
		break;
	}
	/* Jump class. */
	env->stats.jmps_processed++;
	switch (BPF_OP(insn->code)) {
	case BPF_CALL:
		err = do_call(env, insn);
		if (err == 1) {
			/* --explore=join: a call summary took the path on. */
			*path_done = true;
			return 0;
		}
		if (!err && is_subprog_tail_call(env, insn)) {
			err = exit_by_tail_call(env);
			/* insn_idx is the caller's return point already; the
			 * kernel logs no "from" line here (not a BPF_EXIT). */
			env->insn_idx--;
			return err;
		}
		if (err || !kfunc_is_throw(env, insn))
			return err;
		/* bpf_throw leaves the program from any frame; no return
		 * value to check, the exception callback provides it. */
		if (env_has(env, KVER_MSG_RESOURCE_LEAK))
			err = check_exit_leak(env, true, true, "bpf_throw");
		else
			err = check_throw_resources_old(env);
		if (!err)
			*path_done = true;
		return err;
	case BPF_JA:
		err = do_ja(env, insn);
		/* do_ja already moved insn_idx to the target. */
		env->insn_idx--;
		return err;
	case BPF_EXIT:
		err = do_exit(env, insn, &act);
		if (err)
			return err;
		if (act == EXIT_PATH_DONE)
			*path_done = true;
		else
			*print_from = true;
		/* prepare_func_exit set insn_idx to the return point already. */
		if (act == EXIT_CONTINUE)
			env->insn_idx--;
		return 0;
	default:
		return check_cond_jmp_op(env, insn, &env->insn_idx);
	}
}

static void print_insn_line(struct vet_env *env)
{
	char text[256];

	if (env->scratched_regs || env->scratched_slots)
		print_insn_state(env);
	print_line_info(env, env->insn_idx);
	env->prev_log_pos = log_pos(&env->log);
	if (disasm_prog_insn(env->prog, env->insn_idx, !env->allow_ptr_leaks, text, sizeof(text)) < 0)
		text[0] = 0;
	verbose(env, "%u: %s\n", env->insn_idx, text);
	env->prev_insn_print_len = log_pos(&env->log) - env->prev_log_pos - 1;
	env->prev_log_pos = log_pos(&env->log);
}

/* Drops the most recent pending path unexplored (a guided walk). */
static void drop_pending_head(struct vet_env *env)
{
	struct stack_elem *head = env->head;

	if (!head->packed && !--env->unpacked_cnt)
		env->pack_edge = NULL;
	env->head = head->next;
	if (env->head)
		env->head->prev = NULL;
	pending_free(env, head);
	env->stack_size--;
}

/* Drops the path queued before the most recent one. */
static void drop_second_pending(struct vet_env *env)
{
	struct stack_elem *head = env->head;

	env->head = head->next;
	env->head->prev = NULL;
	drop_pending_head(env);
	head->next = env->head;
	if (env->head)
		env->head->prev = head;
	env->head = head;
}

/* A guided walk after an instruction (guide.h): keeps the path to where
 * the concrete run went. Paths the instruction queued are all there is
 * pending (the others were dropped before), the newest first. *resume:
 * the run went to a queued one, now at the head, which finish_path()
 * resumes; *path_done: the walk ends here (the run ended, or left the
 * verifier's paths). */
static void guide_follow(struct vet_env *env, uint32_t at, bool *path_done, bool *resume)
{
	struct vet_guide *g = env->guide;
	int64_t want = g->replaying ? g->replay_want : g->next(g->ctx, env);
	/* A jump to insn 0 leaves insn_idx at -1 until the increment. */
	int64_t cur_next = (uint32_t)(env->insn_idx + 1);

	*resume = false;
	g->replaying = false;
	/* The instruction forked its operand (r &= K of a 0 or -1, say) and
	 * queued the other value at itself: when this path's state does not
	 * hold the run's, the run took the other value. The instruction is
	 * walked again on that fork, the run having run it already. */
	if (!*path_done && env->head && env->head->insn_idx == at && g->fits &&
	    !env->head->st.speculative && !g->fits(g->ctx, env, env->cur)) {
		while (env->head->next)
			drop_second_pending(env);
		g->replaying = true;
		g->replay_want = want;
		*resume = true;
		return;
	}
	if (!*path_done && want == cur_next) {
		/* A queued path to the same place (a jump by 0): the run's
		 * values tell which of the two it took. */
		if (env->head && env->head->insn_idx == want && g->fits &&
		    !g->fits(g->ctx, env, env->cur) && g->fits(g->ctx, env, &env->head->st)) {
			while (env->head->next)
				drop_second_pending(env);
			*resume = true;
			return;
		}
		while (env->head)
			drop_pending_head(env);
		return;
	}
	while (env->head && (int64_t)env->head->insn_idx != want)
		drop_pending_head(env);
	if (env->head && !env->head->st.speculative) {
		*resume = true;
		return;
	}
	if (!*path_done || want != GUIDE_END) {
		g->diverged = true;
		g->diverged_at = at;
		g->diverged_to = want;
	}
	while (env->head)
		drop_pending_head(env);
	*path_done = true;
}

/* A guided walk before an instruction: the guide compares. */
static int guide_visit(struct vet_env *env, bool *path_done)
{
	struct vet_guide *g = env->guide;
	int rc;

	/* A fork walked again: the guide saw this instruction already. */
	if (g->replaying)
		return 0;
	rc = g->visit(g->ctx, env);
	g->steps++;
	if (rc > 0) {
		g->stopped = true;
		*path_done = true;
		return 0;
	}
	return rc;
}

/* Called when a path ends: account branches and resume the next one.
 * *again: the joined walk resumes a summary that goes on from arrivals
 * already counted at its instruction (join_resume()). */
static int finish_path(struct vet_env *env, uint32_t *prev_insn_idx, bool *done, bool *again)
{
	bool pop_log = !(env->log.level & LOG_LEVEL2);
	int err;

	scratch_all(env);
	/* A guided walk stores no checkpoint, and leaves paths midway (in a
	 * loop, say): nothing to account. */
	err = env->guide ? 0 : update_branch_counts(env, env->cur);
	if (err)
		return err;
	err = stack_live_update(env);
	if (!err)
		err = evict_orphans(env);
	if (err)
		return err;
	err = pop_stack(env, prev_insn_idx, &env->insn_idx, pop_log);
	if (err == -ENOENT && env->join) {
		err = join_resume(env, prev_insn_idx);
		*again = err == 1;
		if (err == 1)
			err = 0;
	}
	stack_live_reset_chain(env);
	if (err == -ENOENT) {
		*done = true;
		return 0;
	}
	return err;
}

int do_check(struct vet_env *env)
{
	bool print_from = false, again = false;
	uint32_t prev_insn_idx = (uint32_t)-1;
	bool done = false;
	int err;

	while (!done) {
		const struct bpfvet_insn *insn;
		bool path_done = false;
		int joined;

		env->prev_insn_idx = prev_insn_idx;
		if (env->insn_idx >= env->insn_cnt) {
			verbose(env, "invalid insn idx %u insn_cnt %u\n",
				env->insn_idx, env->insn_cnt);
			return -EFAULT;
		}
		insn = &env->insns[env->insn_idx];
		if (!again)
			trace_visit(env, env->insn_idx);
		/* A summary resumed goes on from the arrivals that made
		 * it, which were counted. */
		if (!again && ++env->stats.insn_processed > COMPLEXITY_LIMIT_INSNS) {
			verbose(env, "BPF program is too large. Processed %llu insn\n",
				(unsigned long long)env->stats.insn_processed);
			return -E2BIG;
		}
		again = false;
		env->cur->last_insn_idx = env->prev_insn_idx;
		env->cur->insn_idx = env->insn_idx;
		env->cur_hist_idx = -1;
		joined = env->join ? join_visit(env, env->insn_idx) : 0;
		if (joined < 0)
			return joined;
		if (joined == JOIN_RESTARTED) {
			free_pending_paths(env);
			joined = 1;
		}
		if (joined == 1) {
			if (log_enabled(&env->log))
				verbose(env, "%u: joined\n", env->insn_idx);
			err = finish_path(env, &prev_insn_idx, &done, &again);
			if (err)
				return err;
			print_from = true;
			continue;
		}
		if (env->aux[env->insn_idx].prune_point &&
		    (!env->join || joined == 2)) {
			err = is_state_visited(env, env->insn_idx);
			if (err < 0)
				return err;
			if (err == 1) {
				if (log_enabled(&env->log)) {
					if (print_from)
						verbose(env, "\nfrom %u to %u%s: safe\n",
							env->prev_insn_idx, env->insn_idx,
							env->cur->speculative ?
							" (speculative execution)" : "");
					else
						verbose(env, "%u: safe\n", env->insn_idx);
				}
				err = finish_path(env, &prev_insn_idx, &done, &again);
				if (err)
					return err;
				print_from = true;
				continue;
			}
		}
		if (env->aux[env->insn_idx].jmp_point) {
			err = push_jmp_history(env, env->cur, 0, 0);
			if (err)
				return err;
		}
		if ((env->log.level & LOG_LEVEL2) && print_from) {
			verbose(env, "\nfrom %u to %u%s:", env->prev_insn_idx,
				env->insn_idx,
				env->cur->speculative ? " (speculative execution)" : "");
			print_state(env, env->cur);
			print_from = false;
		}
		if (log_enabled(&env->log)) {
			if (env->log.level & LOG_LEVEL2)
				log_flush_lines(&env->log);
			print_insn_line(env);
		}
		env->aux[env->insn_idx].seen = true;
		prev_insn_idx = env->insn_idx;
		if (env->guide) {
			err = guide_visit(env, &path_done);
			if (err)
				return err;
			if (path_done) {
				while (env->head)
					drop_pending_head(env);
				err = finish_path(env, &prev_insn_idx, &done, &again);
				if (err)
					return err;
				continue;
			}
		}
		trace_step_begin(env, insn);
		if (env->cur->speculative && env->aux[env->insn_idx].nospec) {
			/* A barrier stands here: speculation goes no further. */
			path_done = true;
		} else {
			err = stack_live_begin_insn(env);
			if (!err)
				err = do_insn(env, insn, &path_done, &print_from);
			if (!err)
				err = stack_live_commit_insn(env);
			if (!err)
				trace_step_end(env);
			if (err && env->cur->speculative && error_recoverable_with_nospec(err) &&
			    env_has(env, KVER_NOSPEC_FALLBACK)) {
				env->aux[env->insn_idx].nospec = true;
				env->aux[env->insn_idx].alu_state = 0;
				path_done = true;
				err = 0;
			}
		}
		if (err && env->join && !join_recover(env, err)) {
			/* The loop this path came from starts again. */
			free_pending_paths(env);
			path_done = true;
			err = 0;
		}
		if (err)
			return err;
		if (env->guide) {
			bool resume;

			guide_follow(env, prev_insn_idx, &path_done, &resume);
			if (resume) {
				err = finish_path(env, &prev_insn_idx, &done, &again);
				if (err)
					return err;
				print_from = true;
				continue;
			}
		}
		if (path_done) {
			err = finish_path(env, &prev_insn_idx, &done, &again);
			if (err)
				return err;
			print_from = true;
			continue;
		}
		err = pack_old_paths(env);
		if (err)
			return err;
		env->insn_idx++;
	}
	return join_finish(env);
}
