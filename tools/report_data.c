/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The data of one program's report, as one JSON object inside a
 * <script type="application/json"> that the page's script parses: the
 * disassembly, the source lines (each distinct one once, and per
 * instruction its index), the work per instruction as one flat array of
 * five counts each, the failing path as (insn, branch) pairs, the last
 * state the path printed at its instructions, the slice, and where each
 * function (the entry and its subprograms) begins. Arrays of
 * numbers rather than objects keep a 100,000-instruction program's page
 * at a few megabytes. docs/report.md lists the fields.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/* States shown for the path's instructions come from its last steps: the
 * ones nearest the error, and a bounded part of the page. */
#define STATE_STEPS 4000

/* Distinct source lines in first-seen order, found again by a hash of
 * (file name, line). */
struct line_table {
	struct bpfvet_source_line *lines;
	size_t cnt;
	uint32_t *slots;	/* index + 1; 0 is empty */
	size_t mask;
	const char **files;
	size_t file_cnt;
};

static uint64_t line_hash(const struct bpfvet_source_line *l)
{
	uint64_t h = 1469598103934665603ull;

	for (const char *p = l->file ? l->file : ""; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ull;
	return (h ^ l->line) * 1099511628211ull;
}

static bool same_line(const struct bpfvet_source_line *a, const struct bpfvet_source_line *b)
{
	return a->line == b->line && !strcmp(a->file ? a->file : "", b->file ? b->file : "");
}

static int table_init(struct line_table *t, size_t n)
{
	size_t cap = 16;

	while (cap < 2 * n)
		cap *= 2;
	memset(t, 0, sizeof(*t));
	t->lines = calloc(n ? n : 1, sizeof(*t->lines));
	t->slots = calloc(cap, sizeof(*t->slots));
	t->files = calloc(n ? n : 1, sizeof(*t->files));
	t->mask = cap - 1;
	return t->lines && t->slots && t->files ? 0 : -ENOMEM;
}

static void table_free(struct line_table *t)
{
	free(t->lines);
	free(t->slots);
	free(t->files);
}

/* The line's index, added when new. */
static uint32_t table_add(struct line_table *t, const struct bpfvet_source_line *l)
{
	size_t s = line_hash(l) & t->mask;

	for (; t->slots[s]; s = (s + 1) & t->mask)
		if (same_line(&t->lines[t->slots[s] - 1], l))
			return t->slots[s] - 1;
	t->lines[t->cnt] = *l;
	t->slots[s] = (uint32_t)++t->cnt;
	return (uint32_t)t->cnt - 1;
}

static size_t file_index(struct line_table *t, const char *file)
{
	file = file ? file : "";
	for (size_t i = 0; i < t->file_cnt; i++)
		if (!strcmp(t->files[i], file))
			return i;
	t->files[t->file_cnt] = file;
	return t->file_cnt++;
}

static void write_text(FILE *f, const struct bpfvet_program *p, size_t n)
{
	char buf[512];
	bool second = false;

	fputs("\"text\":[", f);
	for (size_t i = 0; i < n; i++) {
		int rc = second ? 0 : bpfvet_program__disasm(p, i, buf, sizeof(buf));

		if (i)
			fputc(',', f);
		if (second) {
			fputs("null", f);
		} else {
			report_json_string(f, rc == -EINVAL ? "?" : buf);
		}
		second = rc == 2;
	}
	fputc(']', f);
}

/* "lines" and "insnLine" (-1 where line_info says nothing). */
static int write_lines(FILE *f, const struct bpfvet_explanation *e, size_t n)
{
	struct line_table t = { 0 };
	int32_t *of = calloc(n ? n : 1, sizeof(*of));

	if (!of || table_init(&t, n)) {
		free(of);
		table_free(&t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct bpfvet_source_line l;

		of[i] = bpfvet_explanation__line(e, (uint32_t)i, &l) ? -1 :
			(int32_t)table_add(&t, &l);
	}
	fputs(",\"lines\":[", f);
	for (size_t i = 0; i < t.cnt; i++) {
		fprintf(f, "%s[%zu,%u,", i ? "," : "", file_index(&t, t.lines[i].file),
			t.lines[i].line);
		report_json_string(f, t.lines[i].text ? t.lines[i].text : "");
		fputc(']', f);
	}
	fputs("],\"files\":[", f);
	for (size_t i = 0; i < t.file_cnt; i++) {
		fputs(i ? "," : "", f);
		report_json_string(f, t.files[i]);
	}
	fputs("],\"insnLine\":[", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%d", i ? "," : "", of[i]);
	fputc(']', f);
	free(of);
	table_free(&t);
	return 0;
}

static void write_stats(FILE *f, const struct bpfvet_insn_stats *st, size_t n)
{
	fputs(",\"stats\":[", f);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s%u,%u,%u,%u,%u", i ? "," : "", st[i].visits, st[i].states,
			st[i].prune_hits, st[i].prune_misses, st[i].precise_marks);
	fputc(']', f);
}

/* The path as flat (insn, branch) pairs, then the last state printed at
 * each instruction of its last STATE_STEPS steps. */
static int write_path(FILE *f, const struct bpfvet_explanation *e, size_t n)
{
	size_t cnt;
	const struct bpfvet_path_step *s = bpfvet_explanation__path(e, &cnt);
	unsigned char *seen = calloc(n ? n : 1, 1);
	bool first = true;

	if (!seen)
		return -ENOMEM;
	fputs(",\"path\":[", f);
	for (size_t i = 0; i < cnt; i++)
		fprintf(f, "%s%u,%d", i ? "," : "", s[i].insn, (int)s[i].branch);
	fprintf(f, "],\"pathTruncated\":%s,\"states\":[",
		bpfvet_explanation__path_truncated(e) ? "true" : "false");
	for (size_t i = cnt; i-- > 0 && cnt - i <= STATE_STEPS;) {
		if (s[i].insn >= n || seen[s[i].insn] || !s[i].state || !s[i].state[0])
			continue;
		seen[s[i].insn] = 1;
		fprintf(f, "%s[%u,", first ? "" : ",", s[i].insn);
		report_json_string(f, s[i].state);
		fputc(']', f);
		first = false;
	}
	fputc(']', f);
	free(seen);
	return 0;
}

static void write_slice(FILE *f, const struct bpfvet_explanation *e)
{
	size_t cnt;
	const struct bpfvet_slice_item *s = bpfvet_explanation__slice(e, &cnt);
	char what[24];

	fputs(",\"slice\":[", f);
	for (size_t i = 0; i < cnt; i++) {
		if (s[i].reg >= 0)
			snprintf(what, sizeof(what), "R%d", s[i].reg);
		else
			snprintf(what, sizeof(what), "fp%d", s[i].slot_off);
		fprintf(f, "%s[%u,%d,\"%s\",", i ? "," : "", s[i].insn, (int)s[i].role, what);
		report_json_string(f, s[i].state ? s[i].state : "");
		fputc(']', f);
	}
	fputc(']', f);
}

/* The functions, as [first insn, insn count, name, global 0/1]. */
static void write_funcs(FILE *f, const struct bpfvet_program *p)
{
	struct bpfvet_func fn;

	fputs(",\"funcs\":[", f);
	for (size_t i = 0; !bpfvet_program__func(p, i, &fn); i++) {
		fprintf(f, "%s[%u,%u,", i ? "," : "", fn.insn_off, fn.insn_cnt);
		report_json_string(f, fn.name);
		fprintf(f, ",%d]", fn.global ? 1 : 0);
	}
	fputc(']', f);
}

int report_data(FILE *f, const struct report_prog *rp)
{
	const struct bpfvet_explanation *e = rp->e;
	const struct bpfvet_loss *loss = bpfvet_explanation__loss(e);
	size_t n;
	const struct bpfvet_insn_stats *st = bpfvet_explanation__insn_stats(e, &n);
	int err;

	fputs("<script type=\"application/json\" class=\"data\">{", f);
	write_text(f, rp->prog, n);
	err = write_lines(f, e, n);
	if (err)
		return err;
	write_stats(f, st, n);
	err = write_path(f, e, n);
	if (err)
		return err;
	write_slice(f, e);
	write_funcs(f, rp->prog);
	fprintf(f, ",\"error\":%lld,\"root\":%lld,\"loss\":%lld}</script>\n",
		(long long)bpfvet_explanation__error_insn(e),
		(long long)bpfvet_explanation__root_insn(e), loss ? (long long)loss->insn : -1ll);
	return 0;
}
