/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Internal to ctx_*.c: contexts described as tables of rows. A row covers
 * the offsets [start, end) of one field (or of several fields that share
 * a rule, or part of a field) and says which loads and which stores may
 * begin there. An access is found by its first byte only, as the kernel's
 * switch statements do: how far it may extend is the rule's business.
 *
 * Checks common to every program type run before the row lookup: the
 * offset lies in the context's window and is a multiple of the access
 * size. Offsets that no row covers (padding, holes) are refused.
 */
#ifndef BPFVET_CTX_TABLE_H
#define BPFVET_CTX_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "ctx_rules.h"

enum ctx_rule_kind {
	CTX_DENY = 0,	/* never */
	CTX_ANY,	/* any size */
	CTX_EXACT,	/* size == width */
	CTX_NARROW,	/* size <= width: a whole field or a part of it */
	CTX_SPAN,	/* any size, ending inside the row (u32 arrays) */
};

/* Modifiers of a rule. */
enum {
	/* Also 8 bytes at once when they stay inside the row (two elements
	 * of a u32 array). */
	CTX_F_WIDE = 1u << 0,
	/* Also exactly 4 bytes (a 2-byte field in a 4-byte slot). */
	CTX_F_U32 = 1u << 1,
	/* At least 2 bytes. */
	CTX_F_MIN2 = 1u << 2,
	/* No sign-extending load (the field is a pointer). */
	CTX_F_NO_SX = 1u << 3,
	/* Only with CAP_BPF. */
	CTX_F_CAP_BPF = 1u << 4,
	/* Only at the row's first byte (the kernel matches the field's
	 * offset, not its range, so narrow loads cannot pick a later byte). */
	CTX_F_HEAD = 1u << 5,
};

struct ctx_rule {
	uint8_t kind;		/* enum ctx_rule_kind */
	uint8_t width;
	uint8_t flags;
	/* Expected attach types allowed (bit n for type n); 0: all. */
	uint64_t attach;
};

struct ctx_row {
	int32_t start, end;
	struct ctx_rule rd, wr;
	uint32_t reg_type;	/* what a load yields; 0 means scalar */
	const char *btf_struct;	/* for BTF pointers */
};

struct ctx_layout {
	const struct ctx_row *rows;
	size_t nrows;
	int lo, hi;		/* accesses must start in [lo, hi) */
};

#define CTX_AT(t)	(1ull << (t))

/* Shorthands for table rows. */
#define R_DENY		{ CTX_DENY, 0, 0, 0 }
#define R_ANY		{ CTX_ANY, 0, 0, 0 }
#define R_EXACT(w)	{ CTX_EXACT, (w), 0, 0 }
#define R_NARROW(w)	{ CTX_NARROW, (w), 0, 0 }
#define R_SPAN		{ CTX_SPAN, 0, 0, 0 }
#define R_RULE(k, w, f, a) { (k), (w), (f), (a) }

/* Evaluates one row's rule for the access; fills *out on success. */
bool ctx_row_check(const struct ctx_row *row, const struct ctx_query *q,
		   struct ctx_access *out);
/* Window and alignment checks, then the row under q->off. */
bool ctx_layout_check(const struct ctx_layout *l, const struct ctx_query *q,
		      struct ctx_access *out);
/* The row whose range holds `off`, or NULL. */
const struct ctx_row *ctx_layout_row(const struct ctx_layout *l, int off);
/* Window and alignment checks alone. */
bool ctx_window_ok(int lo, int hi, const struct ctx_query *q);

/* Families, one per file. Each returns false for types it does not know. */
bool ctx_skb_check(const struct ctx_query *q, struct ctx_access *out);
bool ctx_sock_check(const struct ctx_query *q, struct ctx_access *out);
/* The fields of struct bpf_sock whoever reads them (no attach rules). */
bool ctx_bpf_sock_check(const struct ctx_query *q, struct ctx_access *out);
bool ctx_cgroup_check(const struct ctx_query *q, struct ctx_access *out);
bool ctx_trace_check(const struct ctx_query *q, struct ctx_access *out);
bool ctx_misc_check(const struct ctx_query *q, struct ctx_access *out);

#endif
