/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet selfcheck: the verifier's abstract states against concrete runs
 * (docs/selfcheck.md). The top layer: it runs the interpreter (interp/)
 * and, along each run, the verifier's walk guided by it (verifier.h:
 * verify_guided), and compares the two at every instruction; at prune
 * points it also asks the checkpoints a normal verification kept
 * (verify_keep) which of them would subsume the walk's state, and checks
 * that those contain the run's state too. It offers
 * bpfvet_program__selfcheck() (include/bpfvet.h).
 */
#ifndef BPFVET_SELFCHECK_H
#define BPFVET_SELFCHECK_H

#include <stddef.h>
#include <stdint.h>

#include "interp/interp.h"
#include "verifier/verifier.h"

/* contain.c: is the run's state inside an abstract state? */
enum contain_mode {
	/* The walk's own state: every register and stack byte it knows. */
	CONTAIN_WALK,
	/* A checkpoint that subsumes the walk's state: only what the
	 * equivalence looks at (live registers, precise scalars, slots
	 * that are not blank). */
	CONTAIN_CHECKPOINT,
	/* A joined walk's summary (--explore=join): as a checkpoint, but
	 * every scalar counts, precise or not (a summary is an invariant). */
	CONTAIN_SUMMARY,
	/* Or'ed with one of the above: the state is the caller's at a
	 * bpf_loop call that the walk is back at after a callback. The run
	 * is in the callback's next call already (a frame deeper) or after
	 * the loop; the top frame's R0-R5 are the helper's, not compared. */
	CONTAIN_AT_CALLBACK_CALL = 4,
};

struct contain_stats {
	uint64_t regs;		/* registers compared */
	uint64_t slots;		/* stack slots compared */
	uint64_t unchecked;	/* pointers of kinds the interpreter lacks */
};

/* 0 when every part of st that mode looks at contains the run's state;
 * -1 with the first difference in why (register or slot, the run's
 * value, the abstract one as the kernel's log prints it). The run's
 * frame base is st's frame 0: a global function's own walk starts at
 * the frame the run called it in. The callers' R0-R5 are not compared
 * (the run keeps only their R6-R10 at a call, and a helper that calls
 * back uses R1-R5 as its own). */
int contain_state(struct vet_env *env, const struct vstate *st, const struct interp *it,
		  int base, unsigned mode, struct contain_stats *cs, char *why,
		  size_t why_sz);

/* input.c: the i-th random input of a run series for a program type,
 * from seed: a packet of 14 to 256 bytes, Ethernet and often IPv4 and
 * TCP or UDP headers, the rest random. buf holds the packet. */
void selfcheck_input(uint64_t seed, uint64_t i, uint8_t *buf, uint32_t *len);

#endif
