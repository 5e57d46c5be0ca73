/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * State pruning: the cache of explored states at prune points and its
 * eviction, equivalence as subsumption (regsafe, stacksafe), precision
 * backtracking over the jump history, and loops (strongly connected
 * components, widening). Uses the passes of analysis.h and everything
 * below them; the walk (verifier.h) calls it at every prune point and
 * when a value must be precise.
 */
#ifndef BPFVET_PRUNE_H
#define BPFVET_PRUNE_H

#include "analysis/analysis.h"

/* equiv.c */
bool regsafe(const struct vet_env *env, const struct reg_state *o,
	     const struct reg_state *c, struct idmap *m, enum exact_level exact);
bool states_equal(struct vet_env *env, const struct vstate *old,
		  const struct vstate *cur, enum exact_level exact);
bool states_maybe_looping(const struct vstate *old, const struct vstate *cur);

/* join.c */
struct join_thresholds;
/* How a join treats growing bounds: NULL, the hull; otherwise widening
 * to the next of thresholds t (NULL t: to the extremes). */
struct join_widening {
	const struct join_thresholds *t;
};
/* How two states may join: JOIN_STACK_MOVES lets stack pointers of one
 * frame at different offsets join into a variable offset (loop heads);
 * JOIN_LOCKED is join.c's own (a lock held: ids are identities). */
enum { JOIN_STACK_MOVES = 1, JOIN_LOCKED = 2 };
bool join_shapes_equal(const struct vstate *a, const struct vstate *b, uint32_t how);
uint64_t join_shape_digest(const struct vstate *st);
int join_states(struct vet_env *env, struct vstate *into, const struct vstate *in,
		const struct join_widening *wd, uint32_t how, bool *changed);
/* join_states() for two states already of the same shape. */
int join_matching_states(struct vet_env *env, struct vstate *into, const struct vstate *in,
			 const struct join_widening *wd, bool *changed);

bool join_reg_joinable(const struct reg_state *a, const struct reg_state *b);
bool join_refold(struct reg_state *r, int32_t off);
bool join_reg_into(struct vet_env *env, const struct vstate *st, struct reg_state *into,
		   const struct reg_state *in, const struct join_widening *wd);

/* sites.c */
int join_init(struct vet_env *env);
void join_free(struct vet_env *env);
/* join_visit(): the path ended and a loop starts again; every pending
 * path goes too (they came from the loop's abandoned pass). */
#define JOIN_RESTARTED 3
int join_visit(struct vet_env *env, uint32_t idx);
/* 1: the summary resumed goes on from arrivals already counted. */
int join_resume(struct vet_env *env, uint32_t *prev_insn_idx);
int join_finish(struct vet_env *env);
int join_recover(struct vet_env *env, int err);
/* join_calls.c */
int join_call_reuse(struct vet_env *env, uint32_t sub, uint32_t callsite);
int join_call_enter(struct vet_env *env, uint32_t sub);
void join_call_leave(struct vet_env *env);

/* prune.c */
int is_state_visited(struct vet_env *env, uint32_t insn_idx);
void prune_drop_since(struct vet_env *env, uint64_t seq);
int push_jmp_history(struct vet_env *env, struct vstate *st, uint32_t flags,
		     uint64_t linked_regs);
int update_branch_counts(struct vet_env *env, struct vstate *st);
void free_explored_states(struct vet_env *env);
int init_explored_states(struct vet_env *env);

/* precision.c */
int mark_chain_precision(struct vet_env *env, int regno);
int mark_slot_precision(struct vet_env *env, uint32_t frameno, int spi);
int propagate_precision(struct vet_env *env, const struct vstate *old,
			struct vstate *cur, bool *changed);
void mark_all_scalars_imprecise(struct vstate *st);
int mark_all_precise_from(struct vet_env *env, struct vstate *st);
/* loops.c */
int compute_scc(struct vet_env *env);
int maybe_enter_scc(struct vet_env *env, struct vstate *st);
int maybe_exit_scc(struct vet_env *env, struct vstate *st);
int add_scc_backedge(struct vet_env *env, struct vstate *old, const struct vstate *cur);
bool incomplete_read_marks(const struct vet_env *env, const struct vstate *st);
void free_scc_visits(struct vet_env *env);
struct vstate *find_prev_entry(struct vet_env *env, struct vstate *st, uint32_t idx);
void widen_imprecise_scalars(struct vet_env *env, const struct vstate *old,
			     struct vstate *cur);

#endif
