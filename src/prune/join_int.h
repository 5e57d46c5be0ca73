/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Inside --explore=join: the sites, their summaries and the loops
 * (sites.c, join_loops.c). Nothing outside src/prune/ sees these.
 */
#ifndef BPFVET_JOIN_INT_H
#define BPFVET_JOIN_INT_H

#include "prune.h"

#define JOIN_DISJ_MAX 32
/* Finished trips a new trip is compared with, newest first. */
#define TRIP_PRUNE_MAX 64
/* Back-edge growths of a loop head before it widens. */
#define JOIN_WIDEN_AFTER 2
/* The values of a loop's frame that join_deltas() follows: r0-r9 and
 * the 64 stack slots. */
#define JOIN_LOCS (BPF_REG_FP + 64)

enum { THR_U64, THR_S64, THR_U32, THR_S32 };

/* Sorted constants per view (64/32-bit, unsigned/signed), and those to
 * try when none of these lies beyond a bound (NULL: the extremes). */
struct join_thresholds {
	uint64_t *v[4];
	size_t n[4];
	const struct join_thresholds *next;
};

struct join_loop {
	uint32_t head;
	uint32_t end_rank;	/* the highest rank in the body */
	uint64_t *body;		/* a bit per instruction */
	uint32_t *order;	/* the body's instructions by rank */
	uint32_t norder;
	/* The constants the body's own jumps compare with: where its
	 * counters stop, tried before the program's (join_walk.thr), once
	 * thr_ready (join_loop_thresholds()). */
	struct join_thresholds thr;
	bool thr_ready;
	/* The registers of every state the current facts' walk walked from
	 * the head (join_deltas.c): valid when gen is join_walk.fact_gen;
	 * scalar, a bit per register that held a scalar in all of them. */
	uint32_t head_gen;
	uint16_t head_scalar;
	struct bounds head_regs[BPF_REG_FP];
};

/* What a value at a loop's back edge is, as a function of the values at
 * its head (join_deltas.c): the head's value of location `loc` plus a
 * number in [lo, hi], in 64 bits, or in the low 32 bits zero-extended. */
struct join_delta {
	bool sym;		/* false: no such relation */
	bool w32;
	uint8_t loc;
	int64_t lo, hi;
	bool offset_use;	/* the value reaches a pointer or a call */
};

/* How a head value moved on the trips of a pass, and how a second one
 * moves with it: each trip adds one number of [a, b] to location loc
 * (a scalar, or the offset of a pointer) and exactly d to the counter
 * ctr. After k trips from an entry, loc is its entry value plus a
 * number of [a*k, b*k], and k is (ctr - entry ctr) / d. */
enum { REL_U64, REL_U32, REL_S64 };
struct join_rel {
	uint8_t loc, ctr;
	uint8_t view;		/* REL_*: how the counter is read */
	int64_t a, b, d;
};
#define JOIN_REL_MAX 8

/* What the walk saw at one instruction of a loop body during the current
 * passes (join_deltas.c): where memory accesses and calls reached into the
 * stack of the frame that runs the instruction, and the values an add or
 * a subtraction of a register took. */
enum {
	FACT_STACK = 1,		/* the base was such a stack pointer */
	FACT_NONSTACK = 2,	/* the base was something else */
	FACT_SRC_PTR = 4,	/* the added register was a pointer */
	FACT_SRC_SET = 8,	/* src holds the added register's values */
	FACT_DST_PTR = 16,	/* the register added to was a pointer */
	FACT_DST_SET = 32,	/* dst holds the values it was added to */
};
struct join_fact {
	uint32_t gen;		/* join_walk.fact_gen when recorded */
	uint8_t flags;
	int64_t off_lo, off_hi;	/* stack offsets of the base (or lowest argument) */
	struct bounds src, dst;
};

/* One pass from a loop head: what its trips did to the head's values. */
struct join_pass {
	/* A pass from the entries of a head whose trips have a summary of
	 * their own: one trip from each entry, which needs no bound. */
	bool from_entry;
	/* The walk skipped a continuation it had walked before this pass
	 * began (a kernel checkpoint, an older trip): what the pass saw of
	 * the body is incomplete, and join_deltas() proves nothing. */
	bool tainted;
	/* The body's deltas bound the trips (set when the pass ends). */
	bool deltas_terminate;
	uint32_t rel_used;	/* relations (bits of site->rel) applied */
	/* The head's values as the pass starts: kind (HEAD_*) and bounds;
	 * and the hull of the values the trips came back with (arrived:
	 * some did; lost: one held no scalar there). */
	struct {
		uint8_t kind;
		bool moved;	/* a pointer a trip brought back elsewhere */
		bool arrived, lost;
		struct bounds b, back;
	} head[JOIN_LOCS];
	uint32_t backedges;	/* trips that came back */
	uint32_t growths;	/* back-edge arrivals that grew the summary */
};

struct join_disj {
	struct vstate st;
	uint64_t digest;	/* join_shape_digest() of st */
	bool queued;
	/* Made or grown by an arrival since its last walk: its next walk
	 * goes on from those arrivals, each counted as it came. */
	bool paid;
	/* Walked outside every loop, its state freed: a later arrival (rare,
	 * the queue's order sees to it) makes a summary of its own. */
	bool spent;
	/* A trip of a head walked trip by trip: the trip it came from, its
	 * trips not finished yet, whether its own walk is over, and whether
	 * everything it leads to is (then a later trip may prune on it). */
	struct join_disj *parent;
	uint32_t pending;
	bool walked;
	bool finished;
	uint32_t widen_run;	/* trips in a row that widened a value */
	uint32_t gen;		/* join_walk.fact_gen when its walk began */
};

/* A path that left a merged loop during a pass, held back until the pass
 * proves to be the last (sites.c): joined with others leaving at the same
 * instruction from the same one. */
struct join_held {
	uint32_t insn, prev;
	struct vstate st;
};

struct join_site {
	struct join_site *next;		/* in its bucket */
	struct join_site *all_next;	/* in the walk's list */
	uint32_t insn;
	uint32_t curframe;
	int callsites[MAX_CALL_FRAMES];	/* [i]: frame i's call site */
	uint32_t key[MAX_CALL_FRAMES];	/* ranks: call sites, then insn */
	const struct join_loop *loop;	/* a loop head's, or NULL */
	struct join_pass *pass;		/* a loop head's current pass */
	uint32_t growths;		/* a loop head's, over all passes */
	/* A loop head walked trip by trip: each arrival its own summary. */
	bool exact;
	struct join_disj *trip;		/* the trip being walked */
	struct join_disj *finished[TRIP_PRUNE_MAX];	/* newest trips done */
	uint32_t nfinished;
	/* A loop head's forward arrivals, joined: where it starts again
	 * trip by trip when a merged pass fails. */
	struct vstate *entry;
	bool no_restart;
	/* stats.total_states when its first summary was made: the kernel
	 * checkpoints made since go if the loop starts again. */
	uint64_t merge_ckpts;
	bool overflow;		/* all shapes taken: some paths went through */
	/* bpfvet selfcheck: summaries the walk walked and then cleared (a
	 * pass or trip of a loop around it started afresh), kept until the
	 * end (join_free()). */
	struct state_list *stash;
	/* A loop head's relations between a value and a counter, found by
	 * join_deltas() at the end of a pass and applied in the next. */
	struct join_rel rel[JOIN_REL_MAX];
	uint32_t nrel;
	uint32_t rel_changes;	/* passes a relation in use failed */
	bool guessed;		/* join_trip_by_trip_wins() was asked */
	/* A loop whose merged pass proved no bound: its values stay apart
	 * only path by path (a counter stepped by 3 or 7 that exits at some
	 * sums only), so its trips are walked as the kernel walks them, with
	 * the kernel's checkpoints where paths meet in its body. */
	bool kernel_like;
	/* A merged loop head's exits from its current pass. */
	struct join_held *held;
	uint32_t nheld, held_cap;
	/* The summary of the last merge that ended (NULL: none): a head
	 * inside another loop starts its next merge, in the outer loop's next
	 * pass, from it joined with the new entries, and needs fewer passes. */
	struct vstate *seed;
	/* A merged loop head's entries of another shape than its summary's,
	 * one per shape: merged in turn, after the current one. */
	struct join_held *deferred;
	uint32_t ndeferred, deferred_cap;
	/* A loop head's body sites (created while it was being walked). */
	struct join_site **body;
	uint32_t nbody, body_cap;
	uint32_t ndisj, cap;
	struct join_disj **disj;
};

struct join_entry {
	struct join_site *site;
	uint32_t disj;
	uint32_t last_key;		/* the last frame's key */
	uint64_t seq;
};

struct join_walk {
	uint32_t *rank;			/* reverse post-order, per subprogram */
	uint8_t *preds;			/* CFG predecessors, saturated at 2 */
	struct join_site **buckets;	/* by insn and call sites */
	struct join_site *all;
	struct join_entry *heap;
	uint32_t heap_cnt, heap_cap;
	uint64_t seq;
	/* The instruction a summary was just resumed at: not an arrival. */
	int64_t resumed_at;
	/* The site whose summary the walk last resumed: every pending path
	 * comes from it. */
	struct join_site *origin;
	struct join_loop *loops;
	uint32_t nloops, loops_cap;
	uint32_t *loop_of;		/* per insn: 1 + its loop, 0 if no head */
	struct join_thresholds thr;
	bool thr_ready;
	/* Per insn: the slots of its frame some path from it may read
	 * (join_slots.c); NULL: all of them. */
	uint64_t *live_slots;
	/* Loop heads whose pass or trip is being walked, innermost last: a
	 * pass ends when the queue moves past its loop's body. */
	struct join_site **win;
	uint32_t nwin, win_cap;
	struct join_calls *calls;	/* call summaries (join_calls.c) */
	/* What merged passes saw of loop bodies: a fact per body instruction
	 * (fact_idx[insn] - 1; 0: in no body), current when its gen is
	 * fact_gen, which grows when a merged pass opens outside any other. */
	struct join_fact *facts;
	uint32_t *fact_idx;
	uint32_t fact_gen;
};

/* sites.c */
int join_arrive(struct vet_env *env, uint32_t idx, bool force);
uint32_t join_chain_hash(const struct vstate *st, uint32_t seed, uint32_t n);
bool join_chain_equal(const int *callsites, uint32_t curframe, const struct vstate *st);

/* join_calls.c */
int join_calls_init(struct vet_env *env, struct join_walk *w);
void join_calls_free(struct vet_env *env, struct join_walk *w);
void join_calls_forget_unconfirmed(struct vet_env *env);

/* join_loops.c */
/* Array v (cnt used of *cap, elements of size bytes) with room for one
 * more: v itself, or a larger copy (*cap updated), or NULL. */
void *join_grow(struct vet_env *env, void *v, uint32_t cnt, uint32_t *cap, size_t size);
int join_loops_init(struct vet_env *env, struct join_walk *w);
void join_loops_free(struct vet_env *env, struct join_walk *w);
bool join_is_back_edge(const struct vet_env *env, const struct join_walk *w, uint32_t from,
		       uint32_t to);
bool join_loop_contains(const struct join_loop *l, uint32_t insn);
void join_widen_bounds(struct bounds *into, const struct bounds *in,
		       const struct join_thresholds *t);
int join_loop_thresholds(struct vet_env *env, struct join_walk *w, uint32_t head,
			 const struct join_thresholds **out);
int join_collect_thresholds(struct vet_env *env, uint32_t from, uint32_t to,
			    struct join_thresholds *t);
void join_thresholds_free(struct vet_env *env, struct join_thresholds *t);

/* join.c: kinds of stack slot */
bool join_slot_plain(const struct stack_slot *s);
bool join_slot_invalid(const struct stack_slot *s);
bool join_slot_invalidate(struct stack_slot *s);

/* join_slots.c */
int join_slots_init(struct vet_env *env, struct join_walk *w);
void join_slots_free(struct vet_env *env, struct join_walk *w);
int join_drop_dead_slots(struct vet_env *env, const struct join_walk *w, struct vstate *st,
			 uint32_t insn);
void join_align_bounds(struct bounds *b);

/* join_facts.c */
int join_facts_init(struct vet_env *env, struct join_walk *w);
void join_facts_free(struct vet_env *env, struct join_walk *w);
void join_fact_record(struct vet_env *env, struct join_walk *w, uint32_t idx);

/* join_deltas.c */
enum { HEAD_NONE, HEAD_SCALAR, HEAD_FOLDABLE, HEAD_POINTER };
int join_deltas(struct vet_env *env, const struct join_walk *w, const struct join_site *s,
		struct join_delta *out);
bool join_delta_terminates(const struct join_pass *p, const struct join_delta *d, int k);
uint32_t join_rels_find(const struct join_pass *p, const struct join_delta *d,
			struct join_rel *rel, uint32_t max);
bool join_rel_holds(const struct join_pass *p, const struct join_delta *d,
		    const struct join_rel *r);
bool join_rel_narrow(struct vet_env *env, const struct join_rel *r, const struct vstate *entry,
		     struct vstate *st, int64_t kmin);
/* The head's side (sites.c). Location k (r0-r9, then stack slots) of a
 * frame, when it holds a register's value. */
struct reg_state *join_loc(struct func_state *f, int k);
void join_note_head(struct join_pass *p, int k, const struct reg_state *r);
bool join_pointer_moved(const struct vstate *sum, const struct vstate *cur);
void join_align_trip(struct join_pass *p, const struct vstate *sum, struct vstate *cur);
void join_note_back(struct join_pass *p, struct vstate *cur);
void join_narrow(struct vet_env *env, struct join_site *s, struct vstate *st, int64_t kmin);
bool join_trip_by_trip_wins(struct vet_env *env, const struct join_walk *w,
			    struct join_site *s, const struct vstate *sum);
int join_pass_review(struct vet_env *env, const struct join_walk *w, struct join_site *s);

#endif
