/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The reference verdicts: what Linux said about one test, either measured
 * now by loading the program into the running kernel the way the selftest
 * loader does (live), or read from a file recorded earlier (recorded).
 */
#ifndef CONF_REFERENCE_H
#define CONF_REFERENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum kverdict {
	KV_NONE = 0,	/* nothing known */
	KV_SUCCESS,	/* loaded */
	KV_FAILURE,	/* the verifier rejected the test or an auxiliary program */
	KV_REFUSED,	/* the load failed before the verifier ran (libbpf, EPERM) */
	KV_SKIPPED,	/* the selftest loader would not run this test here */
};

const char *kverdict_name(enum kverdict v);
enum kverdict kverdict_parse(const char *s);

/* One kernel answer. Strings are owned. */
struct kref {
	enum kverdict verdict;
	int err;		/* negative errno of the load, 0 on success */
	char *stage;		/* verifier, pre-verifier, libbpf, auxiliary NAME, or the skip reason */
	char *error;		/* the last error line of the log, or why it was refused */
	int msg_match;		/* the kernel log against the __msg patterns: 1, 0, -1 unknown */
	char *log;		/* the whole test log (live only; NULL otherwise) */
	/* The test program's processed instructions (verified_insns of an
	 * accepted load, "processed N insns" of a rejection's log); -1 when
	 * unknown (a refusal, an auxiliary program's failure, not recorded). */
	long long insns;
};

void kref_free(struct kref *r);

/* ------------------------------------------------------------------ */
/* Live                                                                */
/* ------------------------------------------------------------------ */

/* Capabilities as the selftests name them: bit n = capability number n. */
#define KCAP(n) (1ull << (n))

struct live_test {
	const char *path;		/* the object file */
	const char *btf_custom_path;	/* __btf_path resolved, or NULL */
	const char *prog;		/* the test program */
	const char *const *aux;		/* auxiliary programs to load with it */
	size_t aux_cnt;
	bool unpriv;			/* create only maps an unprivileged user may */
	uint32_t log_level;
	uint32_t prog_flags;		/* added to the section's flags */
	uint32_t flags_named;		/* of those, named by a __flag */
	uint64_t caps_off;		/* effective capabilities to drop */
	uint64_t caps_on;		/* then to raise */
};

struct live_ctx;

/*
 * Checks that the running kernel loads BPF programs (root, or CAP_BPF),
 * and prepares a 2 MiB log buffer as the selftest loader uses. Returns
 * -EPERM (or another negative errno) when it does not; `why` says why.
 */
int live_open(struct live_ctx **ctxp, char *why, size_t why_sz);
void live_close(struct live_ctx *ctx);
/* The kernel's unprivileged_bpf_disabled sysctl (-1 if unreadable). */
int live_unpriv_disabled(void);
/* `uname -r`. */
const char *live_kernel_release(struct live_ctx *ctx);
/* A load not decided in this many seconds gets no verdict (skipped,
 * stage "time limit"); 0, the default, waits. */
void live_set_time_limit(struct live_ctx *ctx, unsigned int seconds);
/* The default test flags (CONF_DEFAULT_FLAGS) this kernel accepts. */
uint32_t live_default_flags(const struct live_ctx *ctx);
/* Whether the JIT is on (net.core.bpf_jit_enable != 0). */
bool live_jit_enabled(void);

/* Loads one test and fills `out` (including its log). Returns 0, or a
 * negative errno when the runner itself failed (no memory, capset). */
int live_run(struct live_ctx *ctx, const struct live_test *t, struct kref *out);

/* ------------------------------------------------------------------ */
/* Recorded                                                            */
/* ------------------------------------------------------------------ */

/*
 * The recorded file: CSV with a header line, `#` lines are comments.
 *   object,program,mode,verdict,errno,stage,msg_match,insns,error
 * (insns may be missing or empty: unknown)
 * object is the file name (verifier_and.bpf.o), mode priv or unpriv,
 * verdict one of kverdict_name(), msg_match yes, no or empty.
 * The csv of `bpfvet kernel -o csv` is read too (file_name, prog_name,
 * kernel_verdict, kernel_errno, kernel_stage, kernel_error; other columns
 * ignored): its per-program loads count as priv runs.
 */
struct recorded;

int recorded_load(const char *path, struct recorded **recp, char *err, size_t err_sz);
void recorded_free(struct recorded *rec);
/* The comment lines (without '#'), joined by newlines; "" when none. */
const char *recorded_comment(const struct recorded *rec);
/* Copies the answer for one test into `out`; false when not recorded. */
bool recorded_find(const struct recorded *rec, const char *object, const char *prog,
		   const char *mode, struct kref *out);
size_t recorded_count(const struct recorded *rec);

/* Writes one CSV field, quoted when needed. */
void csv_field(FILE *f, const char *s, bool last);
/* Splits one CSV line into at most `max` fields (in place). Returns the count. */
size_t csv_split(char *line, char **fields, size_t max);

#endif
