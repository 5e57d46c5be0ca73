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

/* kfunc_table.c: the kfuncs bpfvet models */
enum kfunc_kind { KFUNC_ITER_NEW, KFUNC_ITER_NEXT, KFUNC_ITER_DESTROY, KFUNC_THROW };

struct kfunc_desc {
	const char *name;
	enum kfunc_kind kind;
	enum iter_type iter;
	int nargs;
};
const struct kfunc_desc *kfunc_lookup(const struct vet_env *env,
				      const struct bpfvet_insn *insn);
bool kfunc_is_iter_next(const struct vet_env *env, const struct bpfvet_insn *insn);
bool kfunc_is_throw(const struct vet_env *env, const struct bpfvet_insn *insn);

#endif
