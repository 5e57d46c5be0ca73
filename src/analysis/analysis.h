/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The passes over a program before and beside the walk: subprograms and
 * the control-flow graph (prune points, jump points, strongly connected
 * components' inputs), register liveness, stack-slot liveness, stack
 * depth, the exception callback, the reachability of queued paths, and
 * what a call instruction calls. They use the state vocabulary
 * (state.h) and what it may use; pruning (prune.h) and the walk
 * (verifier.h) use them.
 */
#ifndef BPFVET_ANALYSIS_H
#define BPFVET_ANALYSIS_H

#include "state/state.h"

/* cfg.c */
int cfg_find_subprogs(struct vet_env *env);
int cfg_check_subprogs(struct vet_env *env);
int cfg_walk(struct vet_env *env);
int cfg_postorder(struct vet_env *env);
int insn_successors(const struct vet_env *env, uint32_t i, uint32_t succ[2]);
bool insn_is_pseudo_call(const struct bpfvet_insn *insn);
void cfg_propagate_pkt_changes(struct vet_env *env);

/* exccb.c: the exception callback, a second entry point */
int exccb_find_start(struct vet_env *env, int64_t *start);
void exccb_mark(struct vet_env *env, int64_t start);
uint32_t exccb_subprog(const struct vet_env *env);
bool exccb_default_added(const struct vet_env *env);

/* The subprogram that starts at insn_idx, or -1. */
int subprog_at(const struct vet_env *env, uint32_t insn_idx);

/* reach.c */
bool reach_enabled(const struct vet_env *env);
int reach_init(struct vet_env *env);
void reach_free(struct vet_env *env);
int reach_note_push(struct vet_env *env, const struct vstate *st, uint32_t insn_idx);
void reach_note_pop(struct vet_env *env);
bool reach_pending(const struct vet_env *env, uint32_t idx);
bool reach_is_join(const struct vet_env *env, uint32_t idx);
const uint32_t *reach_call_sites(const struct vet_env *env, int subprog, uint32_t *n);
uint32_t reach_take_orphans(struct vet_env *env, uint32_t **insns);
bool reach_may_loop(const struct vet_env *env, const struct vstate *st);
int evict_orphans(struct vet_env *env);

/* stack_live.c: stack-slot liveness */
int stack_live_init(struct vet_env *env);
void stack_live_free(struct vet_env *env);
void stack_live_reset_chain(struct vet_env *env);
int stack_live_begin_insn(struct vet_env *env);
int stack_live_commit_insn(struct vet_env *env);
int stack_live_read(struct vet_env *env, uint32_t frame, uint64_t mask);
void stack_live_write(struct vet_env *env, uint32_t frame, uint64_t mask);
int stack_live_update(struct vet_env *env);
void stack_live_query_init(struct vet_env *env, const struct vstate *st);
bool stack_slot_alive(struct vet_env *env, uint32_t frameno, int spi);

/* liveness.c */
int compute_live_registers(struct vet_env *env);
/* Number of arguments of a bpf-to-bpf or kfunc call, or -1 if unknown. */
int call_param_count(const struct vet_env *env, const struct bpfvet_insn *insn);

/* stackdepth.c */
int check_max_stack_depth(struct vet_env *env);

/* kfunc_table.c: what a kfunc call calls. With a target BTF, any kfunc
 * of the kernel's id sets (rules/kfunc_sets.h), typed by its prototype in
 * that BTF; without one, the few whose prototypes bpfvet knows by heart. */
enum kfunc_kind { KFUNC_PLAIN, KFUNC_ITER_NEW, KFUNC_ITER_NEXT, KFUNC_ITER_DESTROY,
		  KFUNC_THROW };

struct kfunc_desc {
	const char *name;	/* without the object's ___flavour suffix */
	enum kfunc_kind kind;
	uint32_t flags;		/* KF_* */
	const struct kfunc_set_row *row;	/* NULL: no set has it */
	const struct btf *btf;	/* the target BTF, NULL for the built-in ones */
	uint32_t func_id;	/* FUNC in btf */
	uint32_t proto_id;	/* its FUNC_PROTO */
	/* Iterator kfuncs: the struct bpf_iter_<kind> (an id in btf, or
	 * ITER_NUM without one) and how many stack slots it takes. */
	uint32_t iter_id;
	int iter_slots;
	int nargs;
};
/* 0, or -ENOENT when the call is not a kfunc bpfvet can type. */
int kfunc_describe(const struct vet_env *env, const struct bpfvet_insn *insn,
		   struct kfunc_desc *out);
/* Room for the answers of kfunc_describe(), one per extern of a program
 * with kfunc calls, once the target BTF is known (btf_ctx_init): the
 * walk and precision tracking ask again at every call they pass. */
int kfunc_memo_init(struct vet_env *env);
/* What the kernel checks of a kfunc call when it first sees it, before
 * the walk. */
int kfunc_check_add(struct vet_env *env, const struct bpfvet_insn *insn);
/* May the program's type call the kfunc of this id set row? */
bool kfunc_allowed(const struct vet_env *env, const struct kfunc_set_row *row);
bool kfunc_lock_allowed(const struct vet_env *env, const struct bpfvet_insn *insn);
bool kfunc_is_iter_next(const struct vet_env *env, const struct bpfvet_insn *insn);
bool kfunc_is_throw(const struct vet_env *env, const struct bpfvet_insn *insn);
/* Does the kfunc set a callback that runs later (workqueues, task works)? */
bool kfunc_is_async_cb(const struct vet_env *env, const struct bpfvet_insn *insn);
/* A kfunc that calls a callback before it returns (bpf_rbtree_add_impl's
 * `less`), which the walk then treats as a loop. */
bool kfunc_is_sync_callback(const struct vet_env *env, const struct bpfvet_insn *insn);

#endif
