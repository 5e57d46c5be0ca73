/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A walk guided by one concrete run (bpfvet selfcheck): instead of every
 * path, the verifier follows the instructions that the run executes,
 * with pruning off, and tells its guide each step. Before an instruction
 * the guide sees the abstract state the walk holds there (and compares
 * it with the run's concrete one); after it, the guide says where the run
 * went, and the walk keeps the path that goes there and drops the others.
 * Where the run goes somewhere the verifier found no path to, the walk
 * stops and says so: the verifier thought that branch impossible. The
 * walk makes no call to a guide unless env->guide is set. state.h
 * includes this file.
 */
#ifndef BPFVET_GUIDE_H
#define BPFVET_GUIDE_H

#include <stdbool.h>
#include <stdint.h>

struct vet_env;
struct vstate;

/* guide->next's answer when the concrete run ended at that instruction
 * (its exit, or a tail call, after which nothing is compared). */
#define GUIDE_END (-1)

struct vet_guide {
	/* Before each instruction, at env->insn_idx with env->cur. 0: go
	 * on. >0: stop here (the guide saw enough); the walk ends as if the
	 * path did. <0: an error, which ends the verification. */
	int (*visit)(void *ctx, struct vet_env *env);
	/* After the instruction: the index of the instruction the run
	 * executes next, or GUIDE_END. */
	int64_t (*next)(void *ctx, struct vet_env *env);
	/* Optional: whether a path's state st holds the run's, to choose
	 * between two paths to the same instruction (a jump by 0). */
	bool (*fits)(void *ctx, struct vet_env *env, const struct vstate *st);
	void *ctx;
	/* The function whose walk the run follows: 0, the main program; a
	 * global function's index, the walk the verifier makes of it on its
	 * own, from its BTF prototype (a run that calls it, followed into
	 * it). */
	uint32_t subprog;
	/* Set by the walk. */
	bool replaying;		/* re-walking a fork of the last instruction */
	int64_t replay_want;	/* where the run went after it */
	bool stopped;		/* visit said stop */
	bool diverged;		/* the run left the verifier's paths */
	uint32_t diverged_at;	/* after this instruction ... */
	int64_t diverged_to;	/* ... the run went there (or GUIDE_END) */
	uint64_t steps;		/* instructions walked */
};

#endif
