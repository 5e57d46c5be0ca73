/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What changed in the verifier between the kernels bpfvet targets, in one
 * table (kver.c): each behaviour with the first version that has it. The
 * verifier asks kver_has() instead of comparing versions where it stands.
 * Version 0 (unknown) is the newest target, Linux 6.18.
 */
#ifndef BPFVET_RULES_KVER_H
#define BPFVET_RULES_KVER_H

#include <stdbool.h>
#include <stdint.h>

enum kver_feature {
	/* Sign-extending loads and moves, signed division and modulo,
	 * unconditional byte swaps: the instructions of ISA v4. */
	KVER_ISA_V4,
	/* The may_goto instruction (BPF_JMP | BPF_JCOND). */
	KVER_MAY_GOTO,
	/* A pointer that may be NULL compared equal to one that is not
	 * is not NULL on that branch. */
	KVER_JEQ_INFER_NOT_NULL,
	/* Branches are decided and narrowed by the ranges of both operands;
	 * before, only against a constant, equality only between constants,
	 * and the "not equal" edge learnt nothing. */
	KVER_BRANCH_RANGES,
	/* "arg:ctx", "arg:nonnull", "arg:trusted"... decl tags on global
	 * functions' parameters; before, they are ignored. */
	KVER_ARG_TAGS,
	/* Global functions are verified after the main program, those that
	 * verified code calls; before, all of them, first. */
	KVER_LAZY_GLOBALS,
	/* Spilled scalars keep their links: a spill shares an id with its
	 * register, zeros and unbounded scalars spill too, a narrower fill
	 * keeps the value when it fits, and a branch narrows the spilled
	 * copies of a register as well as the registers. */
	KVER_SPILL_TRACKING,
	/* Static subprograms may be called while holding a bpf_spin_lock
	 * (and return holding it). */
	KVER_LOCKED_SUBPROG_CALLS,
	/* The exit of the main program checks locks, references and
	 * protected regions in one place, "BPF_EXIT instruction in main prog
	 * cannot be used inside ..."; before, "bpf_spin_unlock is missing".
	 * The records place it after 6.12. */
	KVER_EXIT_LEAK_MSGS,
	/* bpf_map_lookup_elem() of a constant key inside an array returns a
	 * pointer that is not NULL. */
	KVER_CONST_KEY_NONNULL,
	/* Callbacks (bpf_loop, bpf_for_each_map_elem) are walked as if
	 * called any number of times, until their states converge; before,
	 * once, inline, returning after the helper call. */
	KVER_CALLBACK_ITERATION,
	/* Any edge of the CFG may close a bounded loop; before, a plain
	 * instruction's or a call's fall-through into the loop was a
	 * back-edge. The records place it after 6.1. */
	KVER_ANY_BACK_EDGE,
	/* A tail call, or a call of a global function that may change the
	 * packet, invalidates packet pointers (6.13, in Debian's 6.12 as a
	 * stable fix). */
	KVER_CALLS_CHANGE_PKT,
	/* A loop is infinite when a state repeats exactly, and the log then
	 * prints both states; before, by the comparison that prunes. */
	KVER_EXACT_LOOP_CHECK,
	/* A 32-bit move of a scalar that fits shares its id. */
	KVER_MOV32_IDS,
	/* A helper's size argument that may be 0 where 0 is not allowed is
	 * "R%d invalid zero-sized read: u64=[..]"; before, the memory was
	 * checked for an access of 0 bytes. The records place it after 6.1. */
	KVER_ZERO_SIZE_MSG,
	KVER__COUNT,
};

/* kver: KERNEL_VERSION(a, b, c) of the target, 0 when unknown. */
bool kver_has(uint32_t kver, enum kver_feature f);
/* "ISA v4 (6.6)", for messages and docs. */
const char *kver_feature_name(enum kver_feature f);

#endif
