/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet explain OBJ.o... [-p GLOB] [-o text|json] [--why-slow]: why a
 * program is rejected (its error's source line, the branches that led
 * there, the slice of the checked value, where knowledge was lost, a
 * class and a hint), or with --why-slow where an accepted program's
 * verification spends its work. docs/explain.md describes the report
 * and every JSON field.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

#define EXPLAIN_SCHEMA "bpfvet-explain/1"

struct explain_args {
	struct prog_filter filter;
	const char *type;
	enum out_fmt fmt;
	bool why_slow;
	int top;
	struct caps_args caps;
	struct open_args open;
};

static void explain_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet explain OBJ.o... [-p GLOB] [-o text|json] [--why-slow] [options]\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"                 (repeatable; !GLOB leaves out what it matches)\n"
		"  -t TYPE        program type for every program\n"
		"  -o FORMAT      text (default) or json (one bpfvet-explain/1 document\n"
		"                 per program and line)\n"
		"  --why-slow     the source lines where the verifier worked most\n"
		"  --top N        lines in the --why-slow table (default 10)\n"
		"%s%s", caps_args_usage, open_args_usage);
}

static int explain_option(int argc, char **argv, int *i, void *args)
{
	struct explain_args *a = args;
	const char *s = argv[*i];

	if (!strcmp(s, "--why-slow")) {
		a->why_slow = true;
		return 0;
	}
	if (caps_args_parse(s, &a->caps))
		return 0;
	if ((!strcmp(s, "-p") || !strcmp(s, "-t") || !strcmp(s, "-o") || !strcmp(s, "--top")) &&
	    *i + 1 < argc) {
		const char *v = argv[++*i];

		if (s[1] == 't') {
			a->type = v;
			return 0;
		}
		if (s[1] == '-') {
			a->top = atoi(v);
			return a->top > 0 ? 0 : (fprintf(stderr, "bpfvet explain: bad --top\n"), -1);
		}
		if (s[1] == 'o') {
			if (!strcmp(v, "json"))
				a->fmt = OUT_JSON;
			else if (strcmp(v, "text")) {
				fprintf(stderr, "bpfvet explain: -o text or json\n");
				return -1;
			}
			return 0;
		}
		return prog_filter_add(&a->filter, v);
	}
	return open_args_last(argc, argv, i, &a->open, "explain");
}

/* ---- text ---- */

static void disasm(const struct bpfvet_program *p, uint32_t insn, char *buf, size_t sz)
{
	if (bpfvet_program__disasm(p, insn, buf, sz) < 0)
		snprintf(buf, sz, "?");
}

static void print_where(const struct bpfvet_explanation *e, uint32_t insn)
{
	struct bpfvet_source_line l;

	if (bpfvet_explanation__line(e, insn, &l))
		printf("insn %u", insn);
	else
		printf("insn %u, %s:%u: %s", insn, l.file ? l.file : "?", l.line,
		       l.text ? l.text : "");
}

static const char *role_name(enum bpfvet_slice_role r)
{
	static const char *const names[] = {
		"check", "def", "origin", "spill", "fill", "narrow", "arg",
	};

	return (unsigned int)r < sizeof(names) / sizeof(names[0]) ? names[r] : "?";
}

static const char *branch_name(enum bpfvet_branch b)
{
	return b == BPFVET_BRANCH_TAKEN ? "taken" : b == BPFVET_BRANCH_NOT_TAKEN ? "not taken" : "";
}

/* Decisions shown at most: the first few, and the last ones (nearest
 * the error); repeats of one decision in a row print once. */
#define DECISIONS_HEAD 4
#define DECISIONS_TAIL 16

static void print_run(const struct bpfvet_explanation *e, const struct bpfvet_path_step *s,
		      size_t times)
{
	printf("  %-9s ", branch_name(s->branch));
	print_where(e, s->insn);
	if (times > 1)
		printf("  (x%zu)", times);
	printf("\n");
}

/* The branch decisions from the entry to the error. */
static void print_decisions(const struct bpfvet_explanation *e)
{
	size_t n, runs = 0, run = 0;
	const struct bpfvet_path_step *path = bpfvet_explanation__path(e, &n);
	const struct bpfvet_path_step *prev = NULL;

	if (bpfvet_explanation__path_truncated(e))
		printf("path: its last %zu instructions (the beginning is cut)\n", n);
	else
		printf("path: %zu instructions from the entry\n", n);
	for (int pass = 0; pass < 2; pass++) {
		size_t times = 0;

		prev = NULL;
		run = 0;
		for (size_t i = 0; i <= n; i++) {
			const struct bpfvet_path_step *s = i < n ? &path[i] : NULL;

			if (s && !s->branch)
				continue;
			if (s && prev && s->insn == prev->insn && s->branch == prev->branch) {
				times++;
				continue;
			}
			if (prev && pass) {
				if (run < DECISIONS_HEAD || run + DECISIONS_TAIL >= runs)
					print_run(e, prev, times);
				else if (run == DECISIONS_HEAD)
					printf("  ... %zu more decisions ...\n",
					       runs - DECISIONS_HEAD - DECISIONS_TAIL);
			}
			if (prev)
				run++;
			prev = s;
			times = 1;
		}
		runs = run;
	}
	if (!runs)
		printf("  (no conditional branch on the way)\n");
}

static void print_slice(const struct bpfvet_explanation *e, const struct bpfvet_program *p)
{
	size_t n;
	const struct bpfvet_slice_item *s = bpfvet_explanation__slice(e, &n);
	char buf[256], what[16];

	if (!n)
		return;
	printf("slice of %s:\n", bpfvet_explanation__checked(e));
	for (size_t i = 0; i < n; i++) {
		struct bpfvet_source_line l;
		size_t times = 1;

		/* A loop's rounds repeat a step: once, with the last state. */
		while (i + 1 < n && s[i + 1].insn == s[i].insn && s[i + 1].role == s[i].role &&
		       s[i + 1].reg == s[i].reg && s[i].role != BPFVET_SLICE_CHECK) {
			i++;
			times++;
		}

		if (s[i].reg >= 0)
			snprintf(what, sizeof(what), "R%d", s[i].reg);
		else
			snprintf(what, sizeof(what), "fp%d", s[i].slot_off);
		disasm(p, s[i].insn, buf, sizeof(buf));
		printf("  %-6s %-5s %5u: %-32s", role_name(s[i].role), what, s[i].insn, buf);
		if (!bpfvet_explanation__line(e, s[i].insn, &l))
			printf(" ; %s:%u", l.file ? l.file : "?", l.line);
		if (s[i].state && s[i].state[0])
			printf("  %s", s[i].state);
		if (times > 1)
			printf("  (x%zu)", times);
		printf("\n");
	}
}

static void print_rejection(const struct bpfvet_explanation *e, const struct bpfvet_program *p)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);
	const struct bpfvet_loss *loss = bpfvet_explanation__loss(e);
	int64_t ei = bpfvet_explanation__error_insn(e);

	printf("error: %s\n", r->error);
	if (ei >= 0) {
		printf("  at ");
		print_where(e, (uint32_t)ei);
		printf("\n");
	}
	printf("class: %s\n", bpfvet_explain_class_name(bpfvet_explanation__class(e)));
	printf("hint: %s\n", bpfvet_explanation__hint(e));
	if (loss) {
		/* A helper's return was never known: nothing was lost. */
		printf("%s (%s) at ", strcmp(loss->kind, "helper-return") ? "knowledge lost" :
		       "never bounded", loss->kind);
		print_where(e, loss->insn);
		printf("\n  %s\n", loss->reason);
	}
	if (ei < 0 && !bpfvet_explanation__path(e, &(size_t){ 0 }))
		return;
	print_decisions(e);
	print_slice(e, p);
}

/* ---- per-line statistics ---- */

struct line_stats {
	const char *file, *text;
	uint32_t line;
	uint64_t visits, states, hits, misses, precise;
	uint32_t first_insn;
};

static int by_visits(const void *a, const void *b)
{
	const struct line_stats *x = a, *y = b;

	if (x->visits != y->visits)
		return x->visits < y->visits ? 1 : -1;
	return x->first_insn < y->first_insn ? -1 : x->first_insn > y->first_insn;
}

/* Sums the per-instruction work by source line; instructions without a
 * line are summed under line 0. */
static struct line_stats *lines_of(const struct bpfvet_explanation *e, size_t *cnt)
{
	size_t n, k = 0;
	const struct bpfvet_insn_stats *st = bpfvet_explanation__insn_stats(e, &n);
	struct line_stats *ls = calloc(n ? n : 1, sizeof(*ls));

	*cnt = 0;
	if (!ls)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		struct bpfvet_source_line l;
		size_t j;

		if (!st[i].visits && !st[i].states)
			continue;
		if (bpfvet_explanation__line(e, (uint32_t)i, &l))
			memset(&l, 0, sizeof(l));
		for (j = 0; j < k; j++)
			if (ls[j].line == l.line && ls[j].file == l.file)
				break;
		if (j == k) {
			ls[k].file = l.file;
			ls[k].text = l.text;
			ls[k].line = l.line;
			ls[k].first_insn = (uint32_t)i;
			k++;
		}
		ls[j].visits += st[i].visits;
		ls[j].states += st[i].states;
		ls[j].hits += st[i].prune_hits;
		ls[j].misses += st[i].prune_misses;
		ls[j].precise += st[i].precise_marks;
	}
	qsort(ls, k, sizeof(*ls), by_visits);
	*cnt = k;
	return ls;
}

static void print_why_slow(const struct bpfvet_explanation *e, int top)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);
	size_t n;
	struct line_stats *ls = lines_of(e, &n);

	printf("work: %llu insns processed, %llu states stored\n",
	       (unsigned long long)r->insns_processed, (unsigned long long)r->total_states);
	printf("  %9s %7s %7s %7s  %s\n", "visits", "states", "misses", "hits", "line");
	for (size_t i = 0; ls && i < n && i < (size_t)top; i++)
		printf("  %9llu %7llu %7llu %7llu  %s:%u: %s\n",
		       (unsigned long long)ls[i].visits, (unsigned long long)ls[i].states,
		       (unsigned long long)ls[i].misses, (unsigned long long)ls[i].hits,
		       ls[i].file ? ls[i].file : "?", ls[i].line, ls[i].text ? ls[i].text : "");
	free(ls);
}

static const char *verdict_name(const struct bpfvet_result *r)
{
	if (r->err == -ENOEXEC)
		return "refused";
	return r->verdict == BPFVET_ACCEPTED ? "accepted" :
	       r->verdict == BPFVET_REJECTED ? "rejected" : "unsupported";
}

static void print_text(const struct explain_args *a, const char *path,
		       const struct bpfvet_program *p, const struct bpfvet_explanation *e)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);

	printf("%s/%s: %s\n", rows_base_name(path), bpfvet_program__name(p), verdict_name(r));
	if (r->verdict != BPFVET_ACCEPTED)
		print_rejection(e, p);
	if (a->why_slow)
		print_why_slow(e, a->top);
}

/* ---- json ---- */

static void json_line(const struct bpfvet_explanation *e, int64_t insn)
{
	struct bpfvet_source_line l;

	if (insn < 0 || bpfvet_explanation__line(e, (uint32_t)insn, &l)) {
		printf("null");
		return;
	}
	printf("{\"file\":");
	rows_json_string(l.file ? l.file : "");
	printf(",\"line\":%u,\"col\":%u,\"text\":", l.line, l.col);
	rows_json_string(l.text ? l.text : "");
	printf("}");
}

static void json_where(const struct bpfvet_explanation *e, int64_t insn)
{
	printf("{\"insn\":%lld,\"line\":", (long long)insn);
	json_line(e, insn);
	printf("}");
}

static void json_path(const struct bpfvet_explanation *e)
{
	size_t n;
	const struct bpfvet_path_step *path = bpfvet_explanation__path(e, &n);

	printf(",\"path\":{\"truncated\":%s,\"steps\":[",
	       bpfvet_explanation__path_truncated(e) ? "true" : "false");
	for (size_t i = 0; i < n; i++) {
		struct bpfvet_source_line l;

		printf("%s{\"insn\":%u,\"frame\":%u,\"branch\":", i ? "," : "", path[i].insn,
		       path[i].frame);
		if (path[i].branch)
			rows_json_string(branch_name(path[i].branch));
		else
			printf("null");
		printf(",\"line\":");
		if (bpfvet_explanation__line(e, path[i].insn, &l))
			printf("null");
		else
			printf("%u", l.line);
		printf(",\"state\":");
		rows_json_string(path[i].state ? path[i].state : "");
		printf("}");
	}
	printf("]},\"decisions\":[");
	for (size_t i = 0, k = 0; i < n; i++) {
		if (!path[i].branch)
			continue;
		printf("%s{\"insn\":%u,\"taken\":%s,\"line\":", k++ ? "," : "", path[i].insn,
		       path[i].branch == BPFVET_BRANCH_TAKEN ? "true" : "false");
		json_line(e, path[i].insn);
		printf("}");
	}
	printf("]");
}

static void json_slice(const struct bpfvet_explanation *e)
{
	size_t n;
	const struct bpfvet_slice_item *s = bpfvet_explanation__slice(e, &n);

	printf(",\"slice\":[");
	for (size_t i = 0; i < n; i++) {
		printf("%s{\"insn\":%u,\"path_pos\":%u,\"frame\":%u,\"role\":\"%s\",",
		       i ? "," : "", s[i].insn, s[i].path_pos, s[i].frame, role_name(s[i].role));
		if (s[i].reg >= 0)
			printf("\"reg\":\"R%d\",\"slot\":null", s[i].reg);
		else
			printf("\"reg\":null,\"slot\":%d", s[i].slot_off);
		printf(",\"state\":");
		rows_json_string(s[i].state ? s[i].state : "");
		printf(",\"line\":");
		json_line(e, s[i].insn);
		printf("}");
	}
	printf("]");
}

static void json_loss(const struct bpfvet_explanation *e)
{
	const struct bpfvet_loss *l = bpfvet_explanation__loss(e);

	printf(",\"loss\":");
	if (!l) {
		printf("null");
		return;
	}
	printf("{\"insn\":%u,\"path_pos\":%u,\"kind\":\"%s\",\"reason\":", l->insn, l->path_pos,
	       l->kind);
	rows_json_string(l->reason);
	printf(",\"line\":");
	json_line(e, l->insn);
	printf("}");
}

static void json_hot(const struct bpfvet_explanation *e, int top)
{
	size_t n;
	struct line_stats *ls = lines_of(e, &n);

	printf(",\"hot_lines\":[");
	for (size_t i = 0; ls && i < n && i < (size_t)top; i++) {
		printf("%s{\"file\":", i ? "," : "");
		rows_json_string(ls[i].file ? ls[i].file : "");
		printf(",\"line\":%u,\"text\":", ls[i].line);
		rows_json_string(ls[i].text ? ls[i].text : "");
		printf(",\"visits\":%llu,\"states\":%llu,\"prune_hits\":%llu,\"prune_misses\":%llu,\"precise_marks\":%llu}",
		       (unsigned long long)ls[i].visits, (unsigned long long)ls[i].states,
		       (unsigned long long)ls[i].hits, (unsigned long long)ls[i].misses,
		       (unsigned long long)ls[i].precise);
	}
	printf("]");
	free(ls);
}

static void json_stats(const struct bpfvet_explanation *e)
{
	size_t n;
	const struct bpfvet_insn_stats *st = bpfvet_explanation__insn_stats(e, &n);

	printf(",\"insn_stats\":[");
	for (size_t i = 0; i < n; i++)
		printf("%s[%u,%u,%u,%u,%u]", i ? "," : "", st[i].visits, st[i].states,
		       st[i].prune_hits, st[i].prune_misses, st[i].precise_marks);
	printf("]");
}

static void print_json(const struct explain_args *a, const char *path,
		       const struct bpfvet_program *p, const struct bpfvet_explanation *e)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);
	const char *checked = bpfvet_explanation__checked(e);

	printf("{\"schema\":\"" EXPLAIN_SCHEMA "\",\"file\":");
	rows_json_string(rows_base_name(path));
	printf(",\"program\":");
	rows_json_string(bpfvet_program__name(p));
	printf(",\"verdict\":\"%s\",\"insns_processed\":%llu,\"total_states\":%llu",
	       verdict_name(r), (unsigned long long)r->insns_processed,
	       (unsigned long long)r->total_states);
	printf(",\"error\":");
	if (r->verdict == BPFVET_ACCEPTED) {
		printf("null");
	} else {
		printf("{\"message\":");
		rows_json_string(r->error);
		printf(",\"insn\":%lld,\"line\":", (long long)bpfvet_explanation__error_insn(e));
		json_line(e, bpfvet_explanation__error_insn(e));
		printf("}");
	}
	printf(",\"class\":\"%s\",\"hint\":",
	       bpfvet_explain_class_name(bpfvet_explanation__class(e)));
	rows_json_string(bpfvet_explanation__hint(e));
	printf(",\"checked\":");
	if (checked)
		rows_json_string(checked);
	else
		printf("null");
	printf(",\"root\":");
	if (bpfvet_explanation__root_insn(e) >= 0)
		json_where(e, bpfvet_explanation__root_insn(e));
	else
		printf("null");
	json_loss(e);
	json_path(e);
	json_slice(e);
	json_hot(e, a->top);
	json_stats(e);
	printf("}\n");
}

static int explain_prog(const struct explain_args *a, const char *path,
			const struct bpfvet_program *p)
{
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo),
		.drop_caps = a->caps.drop_caps,
	};
	struct bpfvet_explain_opts eo = { .sz = sizeof(eo), .verify = &vo };
	struct bpfvet_explanation *e;
	int err = bpfvet_program__explain(p, &eo, &e);

	if (err) {
		fprintf(stderr, "bpfvet: %s/%s: %s\n", rows_base_name(path),
			bpfvet_program__name(p), strerror(-err));
		return EXIT_USAGE;
	}
	if (a->fmt == OUT_JSON)
		print_json(a, path, p, e);
	else
		print_text(a, path, p, e);
	err = bpfvet_explanation__result(e)->verdict == BPFVET_ACCEPTED ? 0 : EXIT_REJECTED;
	bpfvet_explanation__free(e);
	return err;
}

static int explain_visit(void *ctx, const char *path, struct bpfvet_program *p, int nth)
{
	const struct explain_args *a = ctx;

	if (nth && a->fmt != OUT_JSON)
		printf("\n");
	return explain_prog(a, path, p);
}

int cmd_explain(int argc, char **argv)
{
	struct explain_args a = { .top = 10 };
	struct obj_args_parser parser = {
		.option = explain_option, .args = &a, .usage = explain_usage,
	};
	struct bpfvet_open_opts opts = { .sz = sizeof(opts) };
	const char **paths = NULL;
	int rc, n = 0, worst = 0;
	char cfg[300];

	rc = obj_args_scan(argc, argv, &parser, &paths, &n);
	if (rc) {
		free(paths);
		prog_filter_free(&a.filter);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	opts.prog_type = a.type;
	opts.loader_drop_caps = caps_args_loader(&a.caps);
	if (open_args_apply(&a.open, &opts, cfg, sizeof(cfg)) ||
	    open_args_share_target(&a.open, &opts)) {
		worst = EXIT_USAGE;
		goto out;
	}
	for (int i = 0; i < n; i++) {
		rc = prog_filter_each(&a.filter, paths[i], &opts, explain_visit, &a);
		if (rc > worst)
			worst = rc;
	}
out:
	free(paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	return worst;
}
