/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared between the conformance runner and its report writer: one row per
 * test run (a program in one mode) with the three verdicts (annotation,
 * kernel, bpfvet) and why they differ.
 */
#ifndef CONF_RUNNER_H
#define CONF_RUNNER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfvet.h"
#include "reference.h"
#include "scope.h"

/* Why a row is what it is. The order is the report's order. */
enum cause {
	CAUSE_PASS = 0,		/* bpfvet's verdict equals the kernel's */
	CAUSE_UNSUPPORTED,	/* bpfvet: unsupported: FEATURE */
	CAUSE_FALSE_REJECT,	/* the kernel accepts, bpfvet rejects */
	CAUSE_FALSE_ACCEPT,	/* the kernel rejects, bpfvet accepts */
	CAUSE_COMPLEXITY,	/* one side hit a processing limit, the other did not */
	CAUSE_BPFVET_ERROR,	/* bpfvet could not run (open failure, no memory) */
	CAUSE_FALSE_REFUSAL,	/* the kernel verifies, bpfvet refuses the load */
	CAUSE_NOT_COMPARED,	/* no kernel verdict: refused, skipped, not recorded */
	CAUSE_CNT,
};

/* bpfvet's side of a row. */
/* BV_REFUSED: the load would fail before the verifier (bpfvet's
 * BPFVET_UNSUPPORTED with -ENOEXEC), as the kernel's own refusals. */
enum bv_verdict { BV_NOT_RUN = 0, BV_SUCCESS, BV_FAILURE, BV_UNSUPPORTED, BV_ERROR, BV_REFUSED };

struct row {
	char *object;		/* file name, e.g. verifier_and.bpf.o */
	char *prog;
	int mode;		/* CONF_PRIV or CONF_UNPRIV */
	bool expect_failure;	/* the annotation */
	size_t msg_cnt;		/* __msg / __not_msg patterns for this mode */
	char *skip;		/* why the test loader would not run it, or NULL */

	struct kref kernel;
	char *kernel_msg;	/* the first line of kernel.error: what is shown */

	enum bv_verdict bv;
	char *bv_error;		/* bpfvet's message (last error line) */
	char *bv_aux;		/* the auxiliary program that failed, or NULL */
	int bv_msg_match;	/* bpfvet's log against the patterns: 1, 0, -1 n/a */
	char *bv_msg_detail;	/* the first pattern that failed */
	uint64_t bv_ns;
	uint64_t bv_insns;
	long long bv_test_insns;	/* the test program's alone, -1 if not verified */

	enum cause cause;
	char *feature;		/* CAUSE_UNSUPPORTED: the feature */
	int msg_same;		/* both rejected: bpfvet's message is one of the
				 * kernel's error lines (1/0), else -1 */
	unsigned int scope;	/* SCOPE_* subsets (scope.h) */
};

/* Counts for the summary, filled by summary_compute(). */
struct summary {
	size_t objects;
	size_t programs;	/* programs in the objects (auxiliary ones included) */
	size_t aux_programs;
	size_t bad_specs;	/* annotations the selftest loader would refuse too */
	size_t runs;		/* rows */
	size_t runs_priv, runs_unpriv;
	size_t skipped_arch, skipped_unpriv, skipped_other;
	size_t refused;		/* kernel refused to load (not a verdict) */
	size_t refused_both;	/* ... and bpfvet refuses it too */
	size_t no_ref;		/* no kernel verdict known */
	size_t compared;	/* rows with a kernel verdict */
	size_t passed, failed;
	/* The same per mode, [0] privileged and [1] unprivileged runs: the
	 * floor (tests/conformance/floor) counts the privileged ones. */
	size_t mode_compared[2], mode_passed[2], mode_failed[2];
	/* Agreeing runs whose kernel count is known, and those where bpfvet
	 * processed as many instructions. */
	size_t mode_insns_known[2], mode_insns_same[2];
	size_t by_cause[CAUSE_CNT];
	size_t both_reject;	/* passed rejections */
	size_t both_reject_msg_same;
	size_t mode_both_reject[2], mode_msg_same[2];	/* the same, per mode */
	size_t both_reject_with_msgs;	/* ... that have __msg patterns */
	size_t both_reject_msgs_ok;	/* ... which bpfvet's log satisfies */
	size_t ann_runs;	/* rows where bpfvet gave a verdict (not unsupported) */
	size_t ann_agree;	/* bpfvet verdict == annotation */
	size_t ann_runs_unpriv;	/* the same, unprivileged rows only */
	size_t ann_agree_unpriv;
	size_t unsupported_all;	/* rows where bpfvet said unsupported, compared or not */
	size_t ann_msgs;	/* rows with patterns where bpfvet ran */
	size_t ann_msgs_ok;
	size_t kern_ann_agree;	/* kernel verdict == annotation (compared rows) */
	size_t kern_msgs;	/* compared rows with patterns and a known kernel msg match */
	size_t kern_msgs_ok;
	/* The in-scope subsets (scope.h), by bit index: compared rows, those
	 * that agree, rejections by both, with the same first message. */
	size_t scope_compared[SCOPE_CNT], scope_passed[SCOPE_CNT];
	size_t scope_both_reject[SCOPE_CNT], scope_msg_same[SCOPE_CNT];
};

struct report_info {
	const char *reference;	/* "live Linux 6.18.44" or "recorded file X" */
	const char *reference_note;
	const char *unpriv_note;
	const char *caps_note;
};

const char *cause_name(enum cause c);
const char *bv_name(enum bv_verdict v);
void summary_compute(const struct row *rows, size_t cnt, struct summary *s);
/* Normalises a message for grouping: digit runs become N. Caller frees. */
char *msg_shape(const char *msg);

/* The report: docs/conformance.md. Deterministic: depends only on rows. */
int report_write(const char *path, const struct row *rows, size_t cnt,
		 const struct summary *s, const struct report_info *info);

#endif
