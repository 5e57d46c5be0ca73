/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet report OBJ.o... [-p GLOB] -o FILE.html: explains every program
 * and writes one self-contained HTML page (docs/report.md): verdicts,
 * errors, classes and hints, the listing grouped by source line with a
 * heatmap of the verifier's work, the failing path, slice and loss point.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bpfvet.h"
#include "cli.h"
#include "report.h"

struct report_args {
	struct prog_filter filter;
	const char *type;
	const char *out;
	struct caps_args caps;
	struct open_args open;
};

/* What one run wrote, for the summary on stderr. */
struct report_run {
	const struct report_args *args;
	FILE *f;
	int next_id;
	int worst;
};

static void report_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet report OBJ.o... -o FILE.html [-p GLOB] [options]\n"
		"  -o FILE        the page to write (- for stdout)\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"                 (repeatable; !GLOB leaves out what it matches)\n"
		"  -t TYPE        program type for every program\n"
		"%s%s", caps_args_usage, open_args_usage);
}

static int report_option(int argc, char **argv, int *i, void *args)
{
	struct report_args *a = args;
	const char *s = argv[*i];

	if (caps_args_parse(s, &a->caps))
		return 0;
	if ((!strcmp(s, "-p") || !strcmp(s, "-t") || !strcmp(s, "-o")) && *i + 1 < argc) {
		const char *v = argv[++*i];

		if (s[1] == 't')
			a->type = v;
		else if (s[1] == 'o')
			a->out = v;
		else
			return prog_filter_add(&a->filter, v);
		return 0;
	}
	return open_args_last(argc, argv, i, &a->open, "report");
}

static int report_one(const struct report_args *a, struct report_run *run, const char *path,
		      const struct bpfvet_program *p)
{
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo),
		.drop_caps = a->caps.drop_caps,
	};
	struct bpfvet_explain_opts eo = { .sz = sizeof(eo), .verify = &vo };
	struct bpfvet_explanation *e = NULL;
	struct report_prog rp = {
		.id = run->next_id++, .file = rows_base_name(path), .prog = p,
	};
	int rc;

	rp.err = bpfvet_program__explain(p, &eo, &e);
	if (rp.err && rp.err != -ENOEXEC) {
		fprintf(stderr, "bpfvet: %s/%s: %s\n", rp.file, bpfvet_program__name(p),
			strerror(-rp.err));
		return EXIT_USAGE;
	}
	rp.e = e;
	rc = report_program(run->f, &rp);
	if (!rc && (!e || bpfvet_explanation__result(e)->verdict != BPFVET_ACCEPTED))
		rc = EXIT_REJECTED;
	else if (rc) {
		fprintf(stderr, "bpfvet: %s/%s: %s\n", rp.file, bpfvet_program__name(p),
			strerror(-rc));
		rc = EXIT_USAGE;
	}
	bpfvet_explanation__free(e);
	return rc;
}

static int report_visit(void *ctx, const char *path, struct bpfvet_program *p, int nth)
{
	struct report_run *run = ctx;

	(void)nth;
	return report_one(run->args, run, path, p);
}

/* The page's title: the objects' names. */
static void page_title(const char **paths, int n, char *buf, size_t sz)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; i < n && len + 1 < sz; i++)
		len += (size_t)snprintf(buf + len, sz - len, "%s%s", i ? " " : "",
					rows_base_name(paths[i]));
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* Writes the page; the worst exit status of its programs. */
static int write_page(const struct report_args *a, const struct bpfvet_open_opts *opts,
		      const char **paths, int n)
{
	struct report_run run = { .args = a, .f = strcmp(a->out, "-") ? fopen(a->out, "w") : stdout };
	struct timespec t0;
	char title[512];
	long size;
	int bad;

	if (!run.f) {
		fprintf(stderr, "bpfvet: %s: %s\n", a->out, strerror(errno));
		return EXIT_USAGE;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	page_title(paths, n, title, sizeof(title));
	report_begin(run.f, title);
	for (int i = 0; i < n; i++) {
		int rc = prog_filter_each(&a->filter, paths[i], opts, report_visit, &run);

		if (rc > run.worst)
			run.worst = rc;
	}
	report_end(run.f);
	size = ftell(run.f);
	bad = ferror(run.f);
	if (run.f == stdout)
		return bad ? EXIT_USAGE : run.worst;
	if (fclose(run.f) || bad) {
		fprintf(stderr, "bpfvet: %s: write error\n", a->out);
		return EXIT_USAGE;
	}
	fprintf(stderr, "bpfvet: wrote %s: %d programs, %ld KiB in %.2f s\n", a->out,
		run.next_id, size / 1024, seconds_since(&t0));
	return run.worst;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { 0 };
	struct obj_args_parser parser = {
		.option = report_option, .args = &a, .usage = report_usage,
	};
	struct bpfvet_open_opts opts = { .sz = sizeof(opts) };
	const char **paths = NULL;
	int rc, n = 0, worst = EXIT_USAGE;
	char cfg[300];

	rc = obj_args_scan(argc, argv, &parser, &paths, &n);
	if (rc || !a.out) {
		if (!rc)
			fprintf(stderr, "bpfvet report: -o FILE.html is required\n");
		free(paths);
		prog_filter_free(&a.filter);
		open_args_free(&a.open);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	opts.prog_type = a.type;
	opts.loader_drop_caps = caps_args_loader(&a.caps);
	if (!open_args_apply(&a.open, &opts, cfg, sizeof(cfg)) &&
	    !open_args_share_target(&a.open, &opts))
		worst = write_page(&a, &opts, paths, n);
	free(paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	return worst;
}
