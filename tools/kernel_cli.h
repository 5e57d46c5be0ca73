/* SPDX-License-Identifier: BSD-2-Clause */
/* Shared by the parts of `bpfvet kernel`: cmd_kernel.c (running),
 * kernel_out.c (table, csv, json) and logdiff.c (--log-diff). */
#ifndef BPFVET_KERNEL_CLI_H
#define BPFVET_KERNEL_CLI_H

#include <stdbool.h>
#include <stddef.h>

#include "bpfvet.h"

struct krow {
	char *file;
	char *prog;
	char *section;
	const char *type;
	struct bpfvet_kernel_result k;
	struct bpfvet_result v;
	bool have_v;		/* bpfvet ran (not --kernel-only) */
	bool timed_out;		/* --time-limit interrupted the kernel's load */
	char *diff;		/* --log-diff: where the logs diverge */
};

enum krow_match {
	MATCH_NONE,		/* --kernel-only: nothing to compare */
	MATCH_YES,
	MATCH_NO,
	MATCH_UNSUPPORTED,	/* bpfvet does not model something: a difference */
	MATCH_NA,		/* the kernel refused before verifying */
};

enum krow_match krow_match(const struct krow *r);

void kout_table(const struct krow *rows, size_t cnt, bool kernel_only);
void kout_csv(const struct krow *rows, size_t cnt, bool kernel_only, bool log_diff);
void kout_json(const struct krow *rows, size_t cnt, bool kernel_only, bool log_diff);

/* A growing, NUL-terminated text buffer; allocation failures are
 * remembered and reported by logdiff_compare(). */
struct logbuf {
	char *buf;
	size_t len, cap;
	bool oom;
};

void logbuf_append(struct logbuf *b, const char *text, size_t len);
void logbuf_free(struct logbuf *b);

/* Compares a kernel log with a bpfvet log line by line, after masking
 * what legitimately differs (kernel addresses, kfunc BTF ids, the
 * verification time) and dropping the kernel's CO-RE notes. *out gets
 * "identical (N lines)" or "line N: kernel '...' vs bpfvet '...'". */
int logdiff_compare(const struct logbuf *kernel, const struct logbuf *bpfvet, char **out);
/* The masked form of one line, for tests and callers: writes at most sz
 * bytes (NUL included). */
void logdiff_mask(const char *line, size_t len, char *out, size_t sz);

#endif
