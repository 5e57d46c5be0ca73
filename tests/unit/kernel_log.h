/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test support: reading the instruction lines out of a Linux 6.18 verifier
 * log written at log level 2.
 *
 * Two kinds of line carry an instruction's disassembly:
 *  - trace lines, "IDX: (xx) text", optionally followed by the state delta
 *    "<spaces>; R0=... R10=fp0". The kernel removes the newline after the
 *    instruction and pads with spaces so that ';' lands at the 0-based
 *    column roundup(max(L + 5, 40), 8) - 2, where L is the length of
 *    "IDX: (xx) text";
 *  - rows of the "Live regs before insn:" table, printed once per
 *    instruction before verification starts: "[%3d ]%3d: <map> text", an
 *    SCC number (or 4 spaces) for instructions inside loops, the index, a
 *    10-character map of the live registers r0..r9, then the text,
 *    optionally followed by "<spaces>; zext" aligned relative to the start
 *    of the text: ';' at roundup(max(T + 4, 40), 8) - 1 for text length T.
 * Precision backtracking also quotes instructions, at the end of
 * "mark_precise: frame0: regs=r1 stack= before IDX: (xx) text" lines.
 * Other lines ("IDX: R1=ctx() ...", "from 3 to 5: ...", messages) are not
 * instruction lines. Disassembly never contains ';', which is what makes
 * the split unambiguous.
 */
#ifndef BPFVET_TEST_KERNEL_LOG_H
#define BPFVET_TEST_KERNEL_LOG_H

#include <stdbool.h>
#include <stddef.h>

enum klog_kind {
	KLOG_OTHER,
	KLOG_TRACE,	/* "IDX: (xx) text[   ; state]" */
	KLOG_LIVE,	/* "[SCC ] IDX: 0123...... (xx) text[   ; zext]" */
	KLOG_PRECISE,	/* "mark_precise: ... before IDX: (xx) text" */
};

struct klog_insn {
	enum klog_kind kind;
	unsigned long idx;
	const char *text;	/* points into the line; not NUL-terminated */
	size_t text_len;
	const char *state;	/* text after "; " (state, "zext"), or NULL */
	size_t state_len;
	/* Lines with a state/note: the padding before ';' follows the
	 * kernel's alignment rule. Always true otherwise. */
	bool pad_ok;
	/* Live rows: the 10-character register liveness map, and the SCC
	 * number (0 when the instruction is in no loop). */
	const char *live;
	unsigned long scc;
};

/* Column of ';' after a trace line of `len` characters. */
size_t klog_state_column(size_t len);
/* Column of ';' in a live row, relative to the start of the text. */
size_t klog_live_note_column(size_t text_len);

/* Classifies one line (without its newline) and, for instruction lines,
 * fills *out. Returns the kind. */
enum klog_kind klog_parse_line(const char *line, size_t len,
			       struct klog_insn *out);

/*
 * Iterates over the lines of a NUL-terminated log: returns false at the
 * end; otherwise points `line` at the next line, stores its length
 * (without the newline) in `len` and advances `cursor`.
 */
bool klog_next_line(const char **cursor, const char **line, size_t *len);

/* The next "Rn=state" token of a state text ("R1=scalar(...) R10=fp0"):
 * tokens end at a space outside parentheses. Copies it NUL-terminated
 * into tok (truncated to tok_sz - 1) and moves *s past it; false at the
 * end of the text. */
bool klog_next_token(const char **s, char *tok, size_t tok_sz);

#endif
