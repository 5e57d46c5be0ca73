/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What `bpfvet explain` needs from a walk, collected only when a caller
 * asks (env->trace is NULL otherwise, and every hook is one test of it):
 * per-instruction work counters, and the path being walked, one step per
 * instruction, truncated back when the walk resumes a queued branch, so
 * that when an error stops the walk the path holds exactly the failing
 * path from the entry. The trace never changes the walk: it reads the
 * state, never writes it, and its memory is not the verifier's (mem_peak
 * and every other figure stay as they are). state.h includes it after
 * struct reg_state.
 */
#ifndef BPFVET_TRACE_H
#define BPFVET_TRACE_H

#include <stdbool.h>
#include <stdint.h>

struct vet_env;
struct bpfvet_insn;

/* Work the walk did at one instruction, over every pass. */
struct trace_insn_stats {
	uint32_t visits;	/* processed (the kernel's insn_processed) */
	uint32_t states;	/* checkpoints stored here */
	uint32_t prune_hits;	/* paths that ended here, equal to a checkpoint */
	uint32_t prune_misses;	/* prune-point visits that matched none */
	uint32_t precise;	/* precision backtracking walked over it */
};

/* Registers a step may record: the values it wrote or read. */
#define TRACE_STEP_REGS 2

/* One instruction of the path. */
struct trace_step {
	uint32_t insn;
	uint8_t frame;		/* curframe when it ran */
	uint8_t post_frame;	/* curframe after it (calls, exits) */
	uint8_t nregs;		/* how many of regs[] are set */
	uint8_t regno[TRACE_STEP_REGS];
	/* The stack slot a load or store touched, when its pointer was a
	 * constant stack offset: frame and offset from that frame's fp. */
	bool slot_known;
	uint8_t slot_frame;
	int16_t slot_off;
	/* The registers after the instruction (for a conditional jump: after
	 * the branch this path followed), in post_frame. */
	struct trace_reg {
		struct reg_state r;
		char *text;	/* kernel-log rendering, filled at the end */
	} regs[TRACE_STEP_REGS];
};

/* Most steps kept: beyond them the oldest half is dropped, so that the
 * steps nearest the error stay (the path is then truncated). */
#define TRACE_PATH_MAX (1u << 17)

struct vet_trace {
	struct trace_insn_stats *stats;	/* one per instruction */
	uint32_t insn_cnt;
	/* The path's steps base..len-1: path[i] is step base + i. */
	struct trace_step *path;
	uint32_t len;		/* steps on the path from the entry */
	uint32_t base;		/* the oldest steps dropped */
	uint32_t cap;		/* allocated steps */
	bool truncated;		/* base > 0: the path's beginning is cut */
	bool oom;		/* no path kept at all */
	/* Where the walk stopped with an error, if it did. */
	bool walk_failed;
	uint32_t error_insn;
	uint32_t error_prev_insn;	/* the instruction processed before it */
	uint8_t error_frame;
	struct trace_reg error_regs[11];
	bool error_reg_set[11];
	/* The acquiring instruction of the first reference still held at
	 * the error, -1 when none: a leak's cause. */
	int64_t held_ref_insn;
};

/* Allocation, owned by the caller of the verifier. */
struct vet_trace *trace_new(uint32_t insn_cnt);
void trace_free(struct vet_trace *t);

/* Hooks of the walk; each does nothing when env->trace is NULL. */
void trace_pass_begin(struct vet_env *env);
void trace_state_stored(struct vet_env *env, uint32_t insn);
void trace_prune(struct vet_env *env, uint32_t insn, bool hit);
void trace_precise(struct vet_env *env, uint32_t insn);
void trace_do_visit(struct vet_env *env, uint32_t insn);
void trace_do_step_begin(struct vet_env *env, const struct bpfvet_insn *insn);
void trace_do_step_end(struct vet_env *env);

/* The three hooks of every processed instruction test env->trace here,
 * so that a walk without a trace pays no call for them (state.h includes
 * this file after struct vet_env). */
static inline void trace_visit(struct vet_env *env, uint32_t insn)
{
	if (env->trace)
		trace_do_visit(env, insn);
}

static inline void trace_step_begin(struct vet_env *env, const struct bpfvet_insn *insn)
{
	if (env->trace)
		trace_do_step_begin(env, insn);
}

static inline void trace_step_end(struct vet_env *env)
{
	if (env->trace)
		trace_do_step_end(env);
}
uint32_t trace_len(const struct vet_env *env);
/* Steps of the path kept in t->path. */
uint32_t trace_kept(const struct vet_trace *t);
void trace_rewind(struct vet_env *env, uint32_t len);
void trace_walk_failed(struct vet_env *env);
/* Renders the kept registers as the kernel's log prints them, while the
 * environment (BTF names, log format) is still there. */
void trace_render(struct vet_env *env);

#endif
