/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Counts and the markdown report of a conformance run. The report depends
 * only on the rows (no times, no dates) and lists everything sorted, so
 * that two runs with the same verdicts write the same file.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotations.h"
#include "runner.h"

static const char *const cause_names[CAUSE_CNT] = {
	[CAUSE_PASS] = "agree",
	[CAUSE_UNSUPPORTED] = "unsupported feature",
	[CAUSE_FALSE_REJECT] = "kernel accepts, bpfvet rejects",
	[CAUSE_FALSE_ACCEPT] = "kernel rejects, bpfvet accepts",
	[CAUSE_COMPLEXITY] = "complexity limit",
	[CAUSE_BPFVET_ERROR] = "bpfvet error",
	[CAUSE_FALSE_REFUSAL] = "bpfvet refuses the load",
	[CAUSE_NOT_COMPARED] = "not compared",
};

const char *cause_name(enum cause c)
{
	return (unsigned)c < CAUSE_CNT ? cause_names[c] : "?";
}

const char *bv_name(enum bv_verdict v)
{
	switch (v) {
	case BV_SUCCESS: return "success";
	case BV_FAILURE: return "failure";
	case BV_UNSUPPORTED: return "unsupported";
	case BV_ERROR: return "error";
	case BV_REFUSED: return "refused";
	default: return "-";
	}
}

char *msg_shape(const char *msg)
{
	char *out = malloc(strlen(msg ? msg : "") + 1), *o = out;

	if (!out)
		return NULL;
	for (const char *s = msg ? msg : ""; *s;) {
		if (isdigit((unsigned char)*s)) {
			*o++ = 'N';
			while (isdigit((unsigned char)*s))
				s++;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

/* ------------------------------------------------------------------ */
/* Counting                                                            */
/* ------------------------------------------------------------------ */

static void count_skip(const struct row *r, struct summary *s)
{
	if (!strncmp(r->skip, "arch", 4))
		s->skipped_arch++;
	else if (!strncmp(r->skip, "unprivileged_bpf_disabled", 25))
		s->skipped_unpriv++;
	else
		s->skipped_other++;
}

static void count_annotation(const struct row *r, struct summary *s)
{
	s->unsupported_all += r->bv == BV_UNSUPPORTED;
	if (r->bv == BV_SUCCESS || r->bv == BV_FAILURE) {
		bool agree = (r->bv == BV_FAILURE) == r->expect_failure;

		s->ann_runs++;
		s->ann_agree += agree;
		if (r->mode == CONF_UNPRIV) {
			s->ann_runs_unpriv++;
			s->ann_agree_unpriv += agree;
		}
		if (r->bv_msg_match >= 0) {
			s->ann_msgs++;
			s->ann_msgs_ok += r->bv_msg_match == 1;
		}
	}
}

static void count_compared(const struct row *r, struct summary *s)
{
	int m = r->mode == CONF_UNPRIV;

	s->compared++;
	s->mode_compared[m]++;
	s->mode_passed[m] += r->cause == CAUSE_PASS;
	s->mode_failed[m] += r->cause != CAUSE_PASS;
	if (r->cause == CAUSE_PASS && r->kernel.insns >= 0 && r->bv_test_insns >= 0) {
		s->mode_insns_known[m]++;
		s->mode_insns_same[m] += r->kernel.insns == r->bv_test_insns;
	}
	s->kern_ann_agree += (r->kernel.verdict == KV_FAILURE) == r->expect_failure;
	if (r->msg_cnt && r->kernel.msg_match >= 0) {
		s->kern_msgs++;
		s->kern_msgs_ok += r->kernel.msg_match == 1;
	}
	if (r->cause != CAUSE_PASS) {
		s->failed++;
		return;
	}
	s->passed++;
	if (r->kernel.verdict != KV_FAILURE)
		return;
	s->both_reject++;
	s->both_reject_msg_same += r->msg_same == 1;
	s->mode_both_reject[m]++;
	s->mode_msg_same[m] += r->msg_same == 1;
	if (r->bv_msg_match >= 0) {
		s->both_reject_with_msgs++;
		s->both_reject_msgs_ok += r->bv_msg_match == 1;
	}
}

static void count_scope(const struct row *r, struct summary *s)
{
	for (int b = 0; b < SCOPE_CNT; b++) {
		if (!(r->scope & (1u << b)))
			continue;
		s->scope_compared[b]++;
		if (r->cause != CAUSE_PASS)
			continue;
		s->scope_passed[b]++;
		if (r->kernel.verdict == KV_FAILURE) {
			s->scope_both_reject[b]++;
			s->scope_msg_same[b] += r->msg_same == 1;
		}
	}
}

void summary_compute(const struct row *rows, size_t cnt, struct summary *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < cnt; i++) {
		const struct row *r = &rows[i];

		s->runs++;
		if (r->mode == CONF_PRIV)
			s->runs_priv++;
		else
			s->runs_unpriv++;
		s->by_cause[r->cause]++;
		count_annotation(r, s);
		if (r->skip)
			count_skip(r, s);
		else if (r->kernel.verdict == KV_REFUSED) {
			s->refused++;
			s->refused_both += r->bv == BV_REFUSED;
		}
		else if (r->kernel.verdict == KV_NONE)
			s->no_ref++;
		if (r->cause != CAUSE_NOT_COMPARED) {
			count_compared(r, s);
			count_scope(r, s);
		}
	}
}

/* ------------------------------------------------------------------ */
/* Grouping                                                            */
/* ------------------------------------------------------------------ */

struct item {
	char *group;		/* the subgroup key (feature, message shape, ...) */
	const struct row *row;
};

struct group_count {
	const char *group;
	size_t n;
};

static int item_cmp(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = strcmp(x->group, y->group);

	if (c)
		return c;
	c = strcmp(x->row->object, y->row->object);
	if (c)
		return c;
	c = strcmp(x->row->prog, y->row->prog);
	return c ? c : x->row->mode - y->row->mode;
}

static int count_cmp(const void *a, const void *b)
{
	const struct group_count *x = a, *y = b;

	if (x->n != y->n)
		return x->n < y->n ? 1 : -1;
	return strcmp(x->group, y->group);
}

/* Not a cause: every row where bpfvet said unsupported, kernel verdict or not. */
#define SECTION_UNSUPPORTED_ALL CAUSE_CNT

/* The subgroup of a divergent row, or NULL when it is not in `c`. */
static char *group_of(const struct row *r, enum cause c)
{
	char *k;

	if (c == SECTION_UNSUPPORTED_ALL) {
		const char *f = r->bv_error ? strstr(r->bv_error, "unsupported: ") : NULL;

		if (r->bv != BV_UNSUPPORTED)
			return NULL;
		return f ? strdup(f + 13) : r->feature ? strdup(r->feature) :
		       strdup(r->bv_error ? r->bv_error : "");
	}
	if (c == CAUSE_PASS) {
		/* the message section: rejections whose texts differ */
		if (r->cause != CAUSE_PASS || r->msg_same != 0)
			return NULL;
		return msg_shape(r->kernel_msg);
	}
	if (r->cause != c)
		return NULL;
	switch (c) {
	case CAUSE_UNSUPPORTED:
		return strdup(r->feature);
	case CAUSE_FALSE_REJECT:
	case CAUSE_BPFVET_ERROR:
	case CAUSE_FALSE_REFUSAL:
		return msg_shape(r->bv_error);
	case CAUSE_FALSE_ACCEPT:
		return msg_shape(r->kernel_msg);
	case CAUSE_COMPLEXITY:
		k = msg_shape(r->bv == BV_FAILURE ? r->bv_error : r->kernel_msg);
		return k;
	default:
		if (r->skip)
			return strdup(r->skip);
		return r->kernel_msg && r->kernel_msg[0] ?
		       msg_shape(r->kernel_msg) : strdup(r->kernel.stage ? r->kernel.stage : "?");
	}
}

struct groups {
	struct item *items;
	size_t cnt;
	struct group_count *counts;
	size_t ncounts;
};

static void groups_free(struct groups *g)
{
	for (size_t i = 0; i < g->cnt; i++)
		free(g->items[i].group);
	free(g->items);
	free(g->counts);
	memset(g, 0, sizeof(*g));
}

static int groups_build(const struct row *rows, size_t cnt, enum cause c, struct groups *g)
{
	memset(g, 0, sizeof(*g));
	g->items = calloc(cnt ? cnt : 1, sizeof(*g->items));
	g->counts = calloc(cnt ? cnt : 1, sizeof(*g->counts));
	if (!g->items || !g->counts)
		return -ENOMEM;
	for (size_t i = 0; i < cnt; i++) {
		char *k;

		if ((int)c == SECTION_UNSUPPORTED_ALL ? rows[i].bv != BV_UNSUPPORTED :
		    rows[i].cause != c)
			continue;
		k = group_of(&rows[i], c);
		if (!k && (c != CAUSE_PASS || rows[i].msg_same == 0))
			return -ENOMEM;
		if (!k)
			continue;
		g->items[g->cnt].group = k;
		g->items[g->cnt++].row = &rows[i];
	}
	qsort(g->items, g->cnt, sizeof(*g->items), item_cmp);
	for (size_t i = 0; i < g->cnt; i++) {
		if (!g->ncounts || strcmp(g->counts[g->ncounts - 1].group, g->items[i].group))
			g->counts[g->ncounts++].group = g->items[i].group;
		g->counts[g->ncounts - 1].n++;
	}
	qsort(g->counts, g->ncounts, sizeof(*g->counts), count_cmp);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Markdown                                                            */
/* ------------------------------------------------------------------ */

/* Inline code that survives a table cell. */
static void md_code(FILE *f, const char *s)
{
	if (!s || !*s) {
		fputs("(no message)", f);
		return;
	}
	fputc('`', f);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '`')
			fputc('\'', f);
		else if (*s == '\n')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
	fputc('`', f);
}

static void md_prog(FILE *f, const struct row *r)
{
	size_t n = strlen(r->object);

	if (n > 6 && !strcmp(r->object + n - 6, ".bpf.o"))
		n -= 6;
	fprintf(f, "`%.*s/%s`%s", (int)n, r->object, r->prog,
		r->mode == CONF_UNPRIV ? " (unpriv)" : "");
}

static void md_pct_row(FILE *f, const char *what, size_t n, size_t of)
{
	fprintf(f, "| %s | %zu of %zu | %.1f%% |\n", what, n, of,
		of ? 100.0 * (double)n / (double)of : 0.0);
}

static void write_summary(FILE *f, const struct summary *s)
{
	fprintf(f, "## Summary\n\n| | count | share |\n|---|---:|---:|\n");
	fprintf(f, "| objects | %zu | |\n", s->objects);
	fprintf(f, "| programs | %zu | |\n", s->programs);
	fprintf(f, "| auxiliary programs (loaded with the tests, not tests) | %zu | |\n",
		s->aux_programs);
	if (s->bad_specs)
		fprintf(f, "| programs whose annotations the selftest loader refuses | %zu | |\n",
			s->bad_specs);
	fprintf(f, "| test runs (program and mode) | %zu: %zu priv, %zu unpriv | |\n", s->runs,
		s->runs_priv, s->runs_unpriv);
	fprintf(f, "| skipped: not for x86_64 | %zu | |\n", s->skipped_arch);
	fprintf(f, "| skipped: unprivileged BPF disabled | %zu | |\n", s->skipped_unpriv);
	if (s->skipped_other)
		fprintf(f, "| skipped: other | %zu | |\n", s->skipped_other);
	fprintf(f, "| kernel refused to load (no verdict) | %zu | bpfvet refuses %zu of them |\n",
		s->refused, s->refused_both);
	if (s->no_ref)
		fprintf(f, "| no kernel verdict recorded | %zu | |\n", s->no_ref);
	md_pct_row(f, "**bpfvet agrees with the kernel**", s->passed, s->compared);
	md_pct_row(f, "... privileged runs", s->mode_passed[0], s->mode_compared[0]);
	md_pct_row(f, "... unprivileged runs", s->mode_passed[1], s->mode_compared[1]);
	md_pct_row(f, "privileged runs: same instruction count as the kernel (where recorded)",
		   s->mode_insns_same[0], s->mode_insns_known[0]);
	md_pct_row(f, "unprivileged runs: same instruction count as the kernel (where recorded)",
		   s->mode_insns_same[1], s->mode_insns_known[1]);
	md_pct_row(f, "rejections: same first error message as the kernel", s->both_reject_msg_same,
		   s->both_reject);
	md_pct_row(f, "... privileged runs", s->mode_msg_same[0], s->mode_both_reject[0]);
	md_pct_row(f, "... unprivileged runs", s->mode_msg_same[1], s->mode_both_reject[1]);
	md_pct_row(f, "rejections: bpfvet's log satisfies `__msg`", s->both_reject_msgs_ok,
		   s->both_reject_with_msgs);
	md_pct_row(f, "bpfvet agrees with the annotation (verdicts it reached)", s->ann_agree,
		   s->ann_runs);
	md_pct_row(f, "... of them unprivileged runs", s->ann_agree_unpriv,
		   s->ann_runs_unpriv);
	md_pct_row(f, "bpfvet's log satisfies `__msg` (verdicts it reached)", s->ann_msgs_ok,
		   s->ann_msgs);
	md_pct_row(f, "the kernel agrees with the annotation (verdict)", s->kern_ann_agree,
		   s->compared);
	md_pct_row(f, "the kernel's log satisfies `__msg`", s->kern_msgs_ok, s->kern_msgs);
	fprintf(f, "\nunprivileged runs: %zu passed, %zu failed\n", s->mode_passed[1],
		s->mode_failed[1]);
	fprintf(f, "\nprivileged runs: %zu passed, %zu failed\n\n", s->mode_passed[0],
		s->mode_failed[0]);
}

/* The figures two issues state their acceptance on (scope.h). */
static void write_scope(FILE *f, const struct summary *s)
{
	static const char *const what[SCOPE_CNT] = {
		"issue 5: no helper calls beyond map lookups, no subprograms",
		"issue 6: no BTF-typed kernel objects",
	};

	fprintf(f, "## In-scope figures\n\n"
		"Test runs with a kernel verdict, restricted to programs whose features are in\n"
		"an issue's scope. Each program is classified from its instructions after\n"
		"loading and from its type (`tests/conformance/scope.c`):\n\n"
		"- **issue 5**: every call is `bpf_map_lookup_elem` (no other helper, no kfunc,\n"
		"  no bpf-to-bpf call, no `callx`, no `ld_imm64` of a function: no\n"
		"  subprograms), and the program is in the issue 6 subset too;\n"
		"- **issue 6**: no kfunc call (`src_reg` 2), no typed ksym (`ld_imm64` with\n"
		"  `BPF_PSEUDO_BTF_ID`), no reference to an arena map, no helper that takes or\n"
		"  returns a BTF-typed pointer or a dynptr (`bpf_skc_to_*`,\n"
		"  `bpf_get_current_task_btf`, `bpf_per_cpu_ptr`, `bpf_this_cpu_ptr`,\n"
		"  `bpf_d_path`, `bpf_find_vma`, `bpf_kptr_xchg`, task, inode and cgroup\n"
		"  storage, `bpf_sock_from_file`, `bpf_task_pt_regs`, `bpf_*_btf`,\n"
		"  `bpf_ima_*`, the dynptr helpers, `bpf_user_ringbuf_drain`), and a program\n"
		"  type whose context is not BTF-typed (not tracing, LSM, struct_ops,\n"
		"  freplace or netfilter). Iterators are kfuncs or tracing programs.\n\n"
		"A verdict agrees when it equals the kernel's (bpfvet's `unsupported` counts\n"
		"as a disagreement); the message figure counts the rejections by both where\n"
		"bpfvet's message is one of the kernel's error lines.\n\n"
		"| subset | runs compared | same verdict | share | same first message | share |\n"
		"|---|---:|---:|---:|---:|---:|\n");
	for (int b = 0; b < SCOPE_CNT; b++) {
		size_t n = s->scope_compared[b], rej = s->scope_both_reject[b];

		fprintf(f, "| %s | %zu | %zu | %.1f%% | %zu of %zu | %.1f%% |\n", what[b], n,
			s->scope_passed[b],
			n ? 100.0 * (double)s->scope_passed[b] / (double)n : 0.0,
			s->scope_msg_same[b], rej,
			rej ? 100.0 * (double)s->scope_msg_same[b] / (double)rej : 0.0);
	}
	fputc('\n', f);
}

static void write_cause_table(FILE *f, const struct summary *s, size_t msg_diff)
{
	fprintf(f, "## Divergences by cause\n\n| cause | test runs |\n|---|---:|\n");
	for (int c = CAUSE_UNSUPPORTED; c < CAUSE_NOT_COMPARED; c++)
		fprintf(f, "| %s | %zu |\n", cause_name((enum cause)c), s->by_cause[c]);
	fprintf(f, "| message text differs (both reject) | %zu |\n", msg_diff);
	fprintf(f, "| not compared (no kernel verdict) | %zu |\n\n",
		s->by_cause[CAUSE_NOT_COMPARED]);
}

static void write_group_counts(FILE *f, const char *title, const char *col,
			       const struct groups *g)
{
	if (!g->cnt)
		return;
	fprintf(f, "### %s (%zu)\n\n| %s | test runs |\n|---|---:|\n", title, g->cnt, col);
	for (size_t i = 0; i < g->ncounts; i++) {
		fprintf(f, "| ");
		md_code(f, g->counts[i].group);
		fprintf(f, " | %zu |\n", g->counts[i].n);
	}
	fprintf(f, "\n");
}

/* One line per test: program, then the two messages where they matter. */
static void write_item(FILE *f, enum cause c, const struct row *r)
{
	fprintf(f, "- ");
	md_prog(f, r);
	if (c == CAUSE_PASS) {
		fprintf(f, ": kernel ");
		md_code(f, r->kernel_msg);
		fprintf(f, ", bpfvet ");
		md_code(f, r->bv_error);
	} else if (c == CAUSE_FALSE_REJECT || c == CAUSE_COMPLEXITY || c == CAUSE_BPFVET_ERROR ||
		   c == CAUSE_FALSE_REFUSAL) {
		if (r->bv_aux)
			fprintf(f, " (auxiliary `%s`)", r->bv_aux);
		if (r->bv == BV_FAILURE || r->bv == BV_ERROR || r->bv == BV_REFUSED) {
			fprintf(f, ": ");
			md_code(f, r->bv_error);
		}
		if (c == CAUSE_COMPLEXITY && r->kernel.verdict == KV_FAILURE) {
			fprintf(f, ": kernel ");
			md_code(f, r->kernel_msg);
		}
	} else if (c == CAUSE_NOT_COMPARED && r->bv != BV_NOT_RUN) {
		/* What bpfvet says where the kernel cannot. */
		fprintf(f, ": bpfvet %s", bv_name(r->bv));
		if (r->bv != BV_SUCCESS) {
			fprintf(f, " ");
			md_code(f, r->bv_error);
		}
	}
	fprintf(f, "\n");
}

static void write_listing(FILE *f, enum cause c, const char *title, const struct groups *g)
{
	const char *cur = NULL;

	size_t quiet = 0;

	if (!g->cnt || (int)c == SECTION_UNSUPPORTED_ALL)
		return;
	fprintf(f, "### %s (%zu)\n", title, g->cnt);
	for (size_t i = 0; i < g->cnt; i++) {
		/* Runs the selftest loader itself skips here are only counted. */
		if (c == CAUSE_NOT_COMPARED && g->items[i].row->skip &&
		    !strncmp(g->items[i].row->skip, "unprivileged_bpf_disabled", 25)) {
			quiet++;
			continue;
		}
		if (!cur || strcmp(cur, g->items[i].group)) {
			size_t n = 0;

			cur = g->items[i].group;
			for (size_t j = i; j < g->cnt && !strcmp(g->items[j].group, cur); j++)
				n++;
			fprintf(f, "\n#### ");
			md_code(f, cur);
			fprintf(f, " (%zu)\n\n", n);
		}
		write_item(f, c, g->items[i].row);
	}
	if (quiet)
		fprintf(f, "\n%zu unprivileged runs skipped because unprivileged BPF is disabled "
			"are not listed.\n", quiet);
	fprintf(f, "\n");
}

static const struct {
	enum cause c;
	const char *title;
	const char *col;
} sections[] = {
	{ CAUSE_UNSUPPORTED, "Unsupported features", "feature (bpfvet: unsupported: ...)" },
	{ (enum cause)SECTION_UNSUPPORTED_ALL,
	  "Unsupported features in every bpfvet run, with or without a kernel verdict",
	  "feature" },
	{ CAUSE_FALSE_REJECT, "Kernel accepts, bpfvet rejects", "bpfvet's message (digits as N)" },
	{ CAUSE_FALSE_ACCEPT, "Kernel rejects, bpfvet accepts", "the kernel's message (digits as N)" },
	{ CAUSE_COMPLEXITY, "Complexity limits", "the message (digits as N)" },
	{ CAUSE_BPFVET_ERROR, "bpfvet errors", "bpfvet's error" },
	{ CAUSE_FALSE_REFUSAL, "The kernel verifies, bpfvet refuses the load", "bpfvet's reason" },
	{ CAUSE_PASS, "Both reject, with different messages", "the kernel's message (digits as N)" },
	{ CAUSE_NOT_COMPARED, "Not compared", "why" },
};

#define NSECT (sizeof(sections) / sizeof(sections[0]))

static void write_header(FILE *f, const struct report_info *info)
{
	fprintf(f, "# Conformance with Linux on the selftest corpus\n\n");
	fprintf(f, "Generated by `make conformance` from `build/corpus/verifier/*.bpf.o`; do not edit.\n");
	fprintf(f, "How tests are run and compared: `tests/conformance/README.md`.\n\n");
	fprintf(f, "Reference: %s.\n", info->reference);
	if (info->reference_note && info->reference_note[0]) {
		fprintf(f, "\n");
		for (const char *s = info->reference_note; *s;) {
			size_t n = strcspn(s, "\n");

			fprintf(f, "> %.*s\n", (int)n, s);
			s += n;
			if (*s)
				s++;
		}
	}
	if (info->unpriv_note && info->unpriv_note[0])
		fprintf(f, "\n%s\n", info->unpriv_note);
	fprintf(f, "\n");
}

int report_write(const char *path, const struct row *rows, size_t cnt,
		 const struct summary *s, const struct report_info *info)
{
	struct groups g[NSECT];
	FILE *f;
	int err = 0;

	memset(g, 0, sizeof(g));
	for (size_t i = 0; i < NSECT && !err; i++)
		err = groups_build(rows, cnt, sections[i].c, &g[i]);
	if (err)
		goto out;
	f = fopen(path, "w");
	if (!f) {
		err = -errno;
		fprintf(stderr, "conformance-runner: %s: %s\n", path, strerror(errno));
		goto out;
	}
	write_header(f, info);
	write_summary(f, s);
	write_scope(f, s);
	for (size_t i = 0; i < NSECT; i++)
		if (sections[i].c == CAUSE_PASS)
			write_cause_table(f, s, g[i].cnt);
	for (size_t i = 0; i < NSECT; i++)
		write_group_counts(f, sections[i].title, sections[i].col, &g[i]);
	fprintf(f, "## Every divergent test\n\n");
	for (size_t i = 0; i < NSECT; i++)
		write_listing(f, sections[i].c, sections[i].title, &g[i]);
	if (fclose(f))
		err = -errno;
out:
	for (size_t i = 0; i < NSECT; i++)
		groups_free(&g[i]);
	return err;
}
