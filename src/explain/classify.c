/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The class of a rejection and a hint. A verifier limit is named by its
 * message (complexity, the 512-byte stack, the jump sequence); a loss of
 * knowledge in a pattern compilers produce (loss.c) makes the compiler's
 * code the culprit; every other rejection is taken as the program's own
 * bug, with a hint chosen by the message's words.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

struct hint_rule {
	const char *words;	/* a substring of the message */
	const char *hint;
};

static const struct hint_rule limit_rules[] = {
	{ "is too large", "the walk went beyond the 1M processed instructions: split the program (subprograms, tail calls), bound loops tighter, or keep fewer values live so that states prune (bpfvet explain --why-slow shows where the work goes)" },
	{ "too complex", "too many branches were pending at once (8192): fewer conditionals in a row, or split the program" },
	{ "combined stack size", "the subprograms' stacks add up beyond 512 bytes along a call chain: move big buffers to a per-CPU array map" },
	{ "stack depth", "the stack is limited to 512 bytes: move big buffers to a per-CPU array map" },
	{ "the call stack of", "calls nest deeper than 8 frames: flatten the calls" },
};

static const struct hint_rule bug_rules[] = {
	{ "or_null", "the pointer may be NULL here: test it against 0 (if (!p) return ...) before using it" },
	{ "Unreleased reference", "a reference acquired on this path is never released: release it on every path that leaves, the error paths too" },
	{ "unbounded memory access", "the offset has no upper bound: compare it with the size right before the access, on the register used" },
	{ "min value is negative", "the offset may be negative: make it unsigned or test it against 0 before the access" },
	{ "unbounded min value", "the offset may be negative: make it unsigned or test it against 0 before the access" },
	{ "outside of the allowed memory range", "the offset may reach past the end: compare it with the size right before the access" },
	{ "invalid access to map value", "the access reaches past the map value: check the offset against the value size" },
	{ "invalid access to packet", "the packet access is not covered by a data + len <= data_end check" },
	{ "invalid access to memory", "the access reaches past the memory region: check the offset against its size" },
	{ "!read_ok", "a register is read before anything wrote it on this path (an uninitialised variable)" },
	{ "invalid read from stack", "stack bytes are read before anything wrote them on this path: initialise the variable or buffer" },
	{ "invalid indirect read from stack", "a helper reads stack bytes never written on this path: initialise the buffer (= {} or __builtin_memset)" },
	{ "leaks addr", "a kernel pointer would escape (into memory or the return value)" },
	{ "unknown func", "this helper does not exist for this program type or kernel" },
	{ "cannot call", "this function is not available to this program type" },
	{ "At program exit", "the return value is outside what this program type allows" },
	{ "expected=", "an argument has the wrong type: pass what the function expects" },
	{ "infinite loop", "the loop may run forever as the verifier sees it: give it a constant bound (bpf_for, may_goto)" },
	{ "back-edge", "the target kernel does not accept loops here" },
	{ "misaligned", "the access is not aligned to its size" },
	{ "cannot write into", "this memory is read-only" },
	{ "pointer arithmetic", "this arithmetic on a pointer is not allowed: compute an offset, then add it once" },
	{ "math between", "the pointer moves by a value the verifier cannot bound: bound it first" },
	{ "arg#", "a kfunc argument does not satisfy its contract" },
	{ "lock", "lock usage breaks the rules (held across calls or exits, or unbalanced)" },
};

static const struct hint_rule compiler_rules[] = {
	{ "link-broken", "the source checks the value, but the compiler's code checks a copy the verifier does not link to the register used: re-check the exact variable right before its use, give it a 64-bit type, or add barrier_var() so that the checked register is the one used" },
	{ "32-bit-op", "a 32-bit operation the compiler emitted lost the bounds: use 64-bit types (u64, long) for indexes and offsets, or re-check after the conversion" },
	{ "spill-fill", "the value went through the stack (register pressure) and came back without its bounds: re-check it after the reload, or keep fewer values live" },
	{ "arithmetic", "the verifier cannot bound this arithmetic: mask the result (& (N - 1)) or re-check it before the use" },
};

static const char *match(const struct hint_rule *rules, size_t n, const char *text, bool exact)
{
	for (size_t i = 0; i < n; i++)
		if (exact ? !strcmp(text, rules[i].words) : !!strstr(text, rules[i].words))
			return rules[i].hint;
	return NULL;
}

/* Losses that are the program's own: the root is still where the value
 * stopped being known, not the failing access. */
static const struct hint_rule bug_loss_rules[] = {
	{ "loop-widening", "the value grows round after round of a loop whose count the verifier does not know: bound it inside the loop (or mask it) right before its use" },
	{ "pruned-join", "one arm of a branch leaves the value unbounded and the arms join before its use: bound it on that arm too, or re-check it after the join" },
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* "invalid write to stack R10 off=-520 size=8": beyond the 512 bytes. */
static bool stack_too_deep(const char *msg)
{
	const char *p = strstr(msg, "stack");
	const char *off = p ? strstr(p, "off=") : NULL;

	return off && strtol(off + 4, NULL, 10) < -512;
}

/* "alloc_insn=N" of a leaked reference: where it was acquired. */
static int64_t alloc_insn(const char *msg)
{
	const char *p = strstr(msg, "alloc_insn=");

	return p ? strtol(p + 11, NULL, 10) : -1;
}

/* A step of the slice repeated round after round: a loop-carried value
 * (a counter) that the walk saw grow; its instruction, or -1. */
static int64_t loop_carried(const struct bpfvet_explanation *e)
{
	for (size_t i = 0; i + 2 < e->slice_cnt; i++) {
		const struct bpfvet_slice_item *a = &e->slice[i];

		if (a->role == BPFVET_SLICE_DEF && e->slice[i + 1].insn == a->insn &&
		    e->slice[i + 2].insn == a->insn)
			return a->insn;
	}
	return -1;
}

void explain_classify(struct bpfvet_explanation *e)
{
	const char *msg = e->res.error, *hint;

	e->root_insn = e->error_insn;
	if (e->res.err == -ENOEXEC) {
		e->cls = BPFVET_EXPLAIN_UNSUPPORTED;
		snprintf(e->hint, sizeof(e->hint), "the load is refused before the verifier runs: nothing was verified");
		return;
	}
	if (e->res.verdict == BPFVET_UNSUPPORTED) {
		e->cls = BPFVET_EXPLAIN_UNSUPPORTED;
		snprintf(e->hint, sizeof(e->hint), "bpfvet does not model this yet; the kernel's own verdict may differ");
		return;
	}
	hint = match(limit_rules, N(limit_rules), msg, false);
	if (hint || stack_too_deep(msg)) {
		e->cls = BPFVET_EXPLAIN_VERIFIER_LIMIT;
		snprintf(e->hint, sizeof(e->hint), "%s",
			 hint ? hint : "the stack is limited to 512 bytes: move big buffers to a per-CPU array map");
		return;
	}
	if (e->has_loss && (hint = match(compiler_rules, N(compiler_rules), e->loss.kind, true))) {
		e->cls = BPFVET_EXPLAIN_COMPILER;
		e->root_insn = e->loss.insn;
		snprintf(e->hint, sizeof(e->hint), "%s", hint);
		return;
	}
	e->cls = BPFVET_EXPLAIN_PROGRAM_BUG;
	if (alloc_insn(msg) >= 0 && alloc_insn(msg) < (int64_t)e->prog->insn_cnt)
		e->root_insn = alloc_insn(msg);
	else if (strstr(msg, "reference leak") && e->trace->held_ref_insn >= 0)
		e->root_insn = e->trace->held_ref_insn;
	hint = e->has_loss ? match(bug_loss_rules, N(bug_loss_rules), e->loss.kind, true) : NULL;
	if (hint) {
		e->root_insn = e->loss.insn;
		snprintf(e->hint, sizeof(e->hint), "%s", hint);
		return;
	}
	hint = match(bug_rules, N(bug_rules), msg, false);
	snprintf(e->hint, sizeof(e->hint), "%s",
		 hint ? hint : "the check failed as the message says: the path and the slice show the values it saw");
	if (loop_carried(e) >= 0) {
		size_t len = strlen(e->hint);

		snprintf(e->hint + len, sizeof(e->hint) - len,
			 "; the value grows round after round of a loop (insn %lld) whose count the verifier does not know: bound it inside the loop",
			 (long long)loop_carried(e));
	}
}
