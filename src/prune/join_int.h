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
/* Head values tracked for termination: r0-r9 and 64 stack slots. */
#define JOIN_LOCS (BPF_REG_FP + 64)

enum { THR_U64, THR_S64, THR_U32, THR_S32 };

/* Sorted constants per view (64/32-bit, unsigned/signed). */
struct join_thresholds {
	uint64_t *v[4];
	size_t n[4];
};

struct join_loop {
	uint32_t head;
	uint32_t end_rank;	/* the highest rank in the body */
	uint64_t *body;		/* a bit per instruction */
};

/* One pass from a loop head: what its trips did to the head's values. */
struct join_pass {
	/* A pass from the entries of a head whose trips have a summary of
	 * their own: one trip from each entry, which needs no bound. */
	bool from_entry;
	uint32_t backedges;	/* trips that came back */
	uint32_t growths;	/* back-edge arrivals that grew the summary */
	struct {
		uint32_t id;	/* the value's id at the head, 0: none */
		int8_t sign;	/* +1/-1: moved up/down on every trip so far */
		bool alive;
		struct bounds head;
	} loc[JOIN_LOCS];
};

struct join_disj {
	struct vstate st;
	uint64_t digest;	/* join_shape_digest() of st */
	bool queued;
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
	bool overflow;		/* all shapes taken: some paths went through */
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
	struct join_loop *loops;
	uint32_t nloops, loops_cap;
	uint32_t *loop_of;		/* per insn: 1 + its loop, 0 if no head */
	struct join_thresholds thr;
	/* Per insn: the slots of its frame some path from it may read
	 * (join_slots.c); NULL: all of them. */
	uint64_t *live_slots;
	/* Loop heads whose pass or trip is being walked, innermost last: a
	 * pass ends when the queue moves past its loop's body. */
	struct join_site **win;
	uint32_t nwin, win_cap;
	struct join_calls *calls;	/* call summaries (join_calls.c) */
};

/* sites.c */
int join_arrive(struct vet_env *env, uint32_t idx, bool force);

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
int join_collect_thresholds(struct vet_env *env, uint32_t from, uint32_t to,
			    struct join_thresholds *t);
void join_thresholds_free(struct vet_env *env, struct join_thresholds *t);

/* join_slots.c */
int join_slots_init(struct vet_env *env, struct join_walk *w);
void join_slots_free(struct vet_env *env, struct join_walk *w);
int join_drop_dead_slots(struct vet_env *env, const struct join_walk *w, struct vstate *st,
			 uint32_t insn);

#endif
