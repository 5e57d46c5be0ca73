/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Faults injected on purpose (bpfvet_verify_opts.fault, BPFVET_FAULT in
 * the CLI): each makes one part of the verifier unsound in a known way,
 * so that a checker of the verifier (`bpfvet selfcheck`, which runs the
 * program on concrete inputs against the states the walk recorded) can
 * be shown to catch it. Never set in a normal verification; each test of
 * it is one comparison with FAULT_NONE. state.h includes this file.
 */
#ifndef BPFVET_FAULT_H
#define BPFVET_FAULT_H

enum vet_fault {
	FAULT_NONE = 0,
	/* The number domain: the result's bounds are the first operand's. */
	FAULT_BOUNDS_ADD,
	FAULT_BOUNDS_SUB,
	FAULT_BOUNDS_MUL,
	FAULT_BOUNDS_AND,
	/* Branch refinement: "r > K" taken learns r > K + 1; "r == K" is
	 * refined with the two branches swapped. */
	FAULT_BRANCH_JGT,
	FAULT_BRANCH_JEQ,
	/* Equivalence: any scalar is within any old one; spilled scalars are
	 * not compared; a packet pointer's old range is not compared. */
	FAULT_REGSAFE_SCALAR,
	FAULT_STACKSAFE_SPILL,
	FAULT_REGSAFE_PKT_RANGE,
	/* Liveness: a conditional jump reads no register. */
	FAULT_LIVE_JMP,
	/* Precision: nothing is marked precise; or backtracking an ALU
	 * operation does not reach its source register. */
	FAULT_PRECISE_NONE,
	FAULT_PRECISE_ALU,
	/* Joining (--explore=join): a site keeps its first path's scalar
	 * bounds, whatever arrives later. */
	FAULT_JOIN_HULL,
	FAULT_CNT
};

/* 0 and the fault for a name (NULL or "" is FAULT_NONE), or -EINVAL. */
int fault_by_name(const char *name, enum vet_fault *fault);
const char *fault_name(enum vet_fault fault);
const char *fault_about(enum vet_fault fault);

#endif
