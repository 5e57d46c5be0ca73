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

	/* Messages: how a behaviour the recorded kernels share is worded
	 * (tests/conformance/kernel-6.1.csv, kernel-6.12.csv). */
	/* Leaving the program names the resource left held after one
	 * check of them all, "BPF_EXIT instruction in main prog would lead
	 * to reference leak"; before, each exit point had its own words:
	 * "bpf_spin_unlock is missing", the "Unreleased reference" lines
	 * alone, "BPF_LD_[ABS|IND] cannot be mixed with socket references". */
	KVER_MSG_RESOURCE_LEAK,
	/* A return value out of its range is told by bounds, "has smin=0
	 * smax=3 should have been in [0, 1]"; before, by tnums, "has value
	 * (0x0; 0x3) should have been in (0x0; 0x1)", and the async
	 * callback's exit was "At async callback". */
	KVER_MSG_RETVAL_BOUNDS,
	/* A helper the program type does not offer: "program of this type
	 * cannot use helper NAME#ID"; before, "unknown func NAME#ID". */
	KVER_MSG_HELPER_NOT_OFFERED,
	/* A helper's access to the stack out of bounds is a "read from" or
	 * "write to" it; before, an "indirect access to" it, and a read of
	 * what was never written an "invalid indirect read from stack". */
	KVER_MSG_HELPER_ACCESS_KIND,
	/* "invalid variable-offset ... stack R2 var_off=(...) off=0 size=8";
	 * before, without "off=". */
	KVER_MSG_VAR_OFF_STACK_OFF,
	/* A misaligned access prints a constant offset as a number, "off
	 * 0+0+-4"; before, as a tnum, "off (0x0; 0x0)+0+-4". */
	KVER_MSG_CONST_TNUM_NUMBER,
	/* "Caller passes invalid args into func#1 ('foo')"; before, the
	 * subprogram had no name in it. */
	KVER_MSG_SUBPROG_NAMED,
	/* "infinite loop detected at insn N" is followed by the current and
	 * the old state ("cur state: ...", "old state: ..."); before, alone. */
	KVER_MSG_LOOP_STATES,
	/* A helper's size that may be zero where zero is not allowed: "R2
	 * invalid zero-sized read: u64=[0,4]"; before, the memory was
	 * checked for zero bytes and its own message said why ("invalid
	 * zero-sized read", "R1 min value is outside of the allowed memory
	 * range"). */
	KVER_MSG_ZERO_SIZE_BOUNDS,
	/* The types a helper's argument is listed to take ("R1 type=scalar
	 * expected=..."): trusted and RCU pointers, any memory for map keys
	 * and values; before, 6.1's shorter lists. Words only: what is
	 * accepted is not versioned here. */
	KVER_MSG_ARG_TYPE_LISTS,
	/* The combined stack of a call chain counts each frame rounded up
	 * to 16 bytes; before, to 32 and at least 32 ("combined stack size
	 * of 2 calls is 576" where 6.12 says 544). */
	KVER_STACK_ROUND_16,
	/* A subprogram may be called while a bpf_spin_lock is held, and the
	 * lock must be released by the main frame's exit; before, any call
	 * under a lock was "function calls are not allowed while holding a
	 * lock" and every frame's exit "bpf_spin_unlock is missing". */
	KVER_LOCK_SUBPROG_CALLS,
	/* BPF_ST may store an immediate into the context; before, "BPF_ST
	 * stores into R1 ctx is not allowed". */
	KVER_ST_INTO_CTX,
	/* Ring buffer memory is "ringbuf_mem"; before, "alloc_mem". */
	KVER_MSG_RINGBUF_NAME,
	/* A released pointer with an offset: "R1 must have zero offset when
	 * passed to release func or trusted arg to kfunc"; before, the
	 * generic "dereference of modified alloc_mem ptr R1 off=8
	 * disallowed". */
	KVER_MSG_RELEASE_OFF,
	/* Global functions are verified after the main program, those it
	 * calls; before, all of them first ("Validating foo() func#1..."),
	 * so that their errors came before the main program's. */
	KVER_LAZY_GLOBAL_SUBPROGS,
	/* A call back into a function on the walked path (recursion) is
	 * left to the walk, which bounds the call depth; before, the CFG
	 * check refused it as "back-edge from insn 7 to 3" even where
	 * loops were allowed. */
	KVER_CALL_CYCLES_IN_CFG,
	KVER__COUNT,
};

/* kver: KERNEL_VERSION(a, b, c) of the target, 0 when unknown. */
bool kver_has(uint32_t kver, enum kver_feature f);
/* "ISA v4 (6.6)", for messages and docs. */
const char *kver_feature_name(enum kver_feature f);

#endif
