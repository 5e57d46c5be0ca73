/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet ablate OBJ.o... : verify every program once with all pruning
 * techniques, then once with each technique switched off (or, beyond the
 * kernel's, on), then with --explore=join and without each of its parts,
 * and report processed instructions, states and time relative to the full
 * configuration, with geometric means over the programs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

#define MAX_CONFIGS 32

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

struct ablate_args {
	struct prog_filter filter;
	const char *type;
	enum fmt fmt;
	struct caps_args caps;
	struct open_args open;		/* the target, as verify's */
	/* --explore=kernel|join: that walk's rows only, beside full. */
	bool only_set;
	enum bpfvet_explore only;
	/* The rows in their order: full (NULL), then the techniques. */
	const struct technique *cfg[MAX_CONFIGS];
	int ncfg;
};

/* Geometric-mean accumulators per configuration. */
struct summary {
	double log_insns[MAX_CONFIGS];
	double log_peak[MAX_CONFIGS];
	double log_time[MAX_CONFIGS];
	int n[MAX_CONFIGS];
	int verdict_changes[MAX_CONFIGS];
	int limit_hits[MAX_CONFIGS];
	int limit_passes[MAX_CONFIGS];	/* accepted where the full one hit the limit */
	int fallbacks[MAX_CONFIGS];	/* join rows: the exact walk ran */
};

/* full, then each technique of the walk --explore= chose (all without). */
static int select_configs(struct ablate_args *a)
{
	a->cfg[a->ncfg++] = NULL;
	for (const struct technique *t = techniques; t->flag; t++) {
		if (a->only_set && t->explore != a->only)
			continue;
		if (a->ncfg == MAX_CONFIGS) {
			fprintf(stderr, "bpfvet ablate: more than %d configurations\n", MAX_CONFIGS);
			return -E2BIG;
		}
		a->cfg[a->ncfg++] = t;
	}
	return 0;
}

static const char *config_name(const struct ablate_args *a, int c)
{
	return a->cfg[c] ? a->cfg[c]->name : "full";
}

/* A join row runs --explore=join, with its one part switched off. */
static struct bpfvet_verify_opts config_opts(const struct ablate_args *a, int c)
{
	const struct technique *t = a->cfg[c];
	struct bpfvet_verify_opts o = { .sz = sizeof(o), .drop_caps = a->caps.drop_caps };

	if (!t)
		return o;
	o.explore = t->explore;
	if (t->on)
		o.enable = t->bit;
	else
		o.disable = t->bit;
	return o;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet ablate OBJ.o... [-p GLOB] [-t TYPE] [-o table|csv|json]\n"
		"                     [--explore=kernel|join]\n"
		"Verifies each program with the kernel's pruning (full), then with each of\n"
		"its techniques switched off and each beyond-kernel one switched on (and\n"
		"all of them: prune-max), then with --explore=join (explore-join) and\n"
		"without each of its parts (join-no-*), and reports instructions, states\n"
		"and time relative to the full configuration. Each program is verified\n"
		"once more before its rows, untimed, so that every row is timed warm.\n"
		"  --explore=kernel  only the kernel's walk's rows (full and its techniques)\n"
		"  --explore=join    only full and the join rows\n"
		"The Walk column says which walks ran: kernel, join, or join+exact (the\n"
		"joined walks rejected and the kernel's exact walk decided: a fallback).\n"
		"%s%s", caps_args_usage, open_args_usage);
}

static const char *verdict_str(enum bpfvet_verdict v)
{
	return v == BPFVET_ACCEPTED ? "success" : v == BPFVET_REJECTED ? "failure" :
	       "unsupported";
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? (double)a / (double)b : 0.0;
}

static const char *walk_str(const struct bpfvet_result *r)
{
	if (r->explore != BPFVET_EXPLORE_JOIN)
		return "kernel";
	return r->fallback ? "join+exact" : "join";
}

static bool hit_limit(const struct bpfvet_result *r)
{
	return strstr(r->error, "BPF program is too large") ||
	       strstr(r->error, "jumps is too complex");
}

static void print_row(const struct ablate_args *a, const char *file, const char *prog,
		      int c, const struct bpfvet_result *r, const struct bpfvet_result *full,
		      bool *first_json)
{
	double ri = ratio(r->insns_processed, full->insns_processed);
	double rp = ratio(r->peak_states, full->peak_states);
	double rt = ratio(r->duration_ns, full->duration_ns);
	const char *explore = explore_name(r->explore);
	const char *fallback = r->fallback ? "yes" : "no";

	if (a->fmt == FMT_CSV) {
		printf("%s,%s,%s,%s,%llu,%llu,%llu,%llu,%.3f,%.3f,%.3f,%s,%s\n", file, prog,
		       config_name(a, c), verdict_str(r->verdict),
		       (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states,
		       (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt, explore, fallback);
	} else if (a->fmt == FMT_JSON) {
		rows_json_row_start(*first_json);
		printf("{\"file_name\": ");
		rows_json_string(file);
		printf(", \"prog_name\": ");
		rows_json_string(prog);
		printf(", \"config\": \"%s\", "
		       "\"verdict\": \"%s\", \"total_insns\": %llu, \"total_states\": %llu, "
		       "\"peak_states\": %llu, \"duration\": %llu, \"insns_ratio\": %.3f, "
		       "\"peak_ratio\": %.3f, \"time_ratio\": %.3f, \"explore\": \"%s\", "
		       "\"fallback\": \"%s\"}",
		       config_name(a, c),
		       verdict_str(r->verdict), (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states, (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt, explore, fallback);
		*first_json = false;
	} else {
		printf("%-24.24s %-32.32s %-19s %-11s %-10s %9llu %8llu %8llu %9llu %8.3f %8.3f "
		       "%8.3f\n",
		       file, prog, config_name(a, c), verdict_str(r->verdict), walk_str(r),
		       (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states,
		       (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt);
	}
}

static void account(struct summary *s, int c, const struct bpfvet_result *r,
		    const struct bpfvet_result *full)
{
	s->fallbacks[c] += r->fallback;
	if (r->verdict != full->verdict) {
		if (hit_limit(full) && r->verdict == BPFVET_ACCEPTED)
			s->limit_passes[c]++;
		else if (hit_limit(r))
			s->limit_hits[c]++;
		else
			s->verdict_changes[c]++;
		return;
	}
	if (full->verdict != BPFVET_ACCEPTED || !full->insns_processed || !r->insns_processed)
		return;
	s->log_insns[c] += log(ratio(r->insns_processed, full->insns_processed));
	s->log_peak[c] += log(ratio(r->peak_states ? r->peak_states : 1,
				    full->peak_states ? full->peak_states : 1));
	s->log_time[c] += log(ratio(r->duration_ns ? r->duration_ns : 1,
				    full->duration_ns ? full->duration_ns : 1));
	s->n[c]++;
}

static int ablate_prog(const struct ablate_args *a, const char *file,
		       const struct bpfvet_program *p, struct summary *s, bool *first_json)
{
	struct bpfvet_result full = { .sz = sizeof(full) }, r = { .sz = sizeof(r) };

	/* c = -1: full once untimed. A process's first verification pays
	 * for what the later ones find warm (the allocator's chunks, caches
	 * of the target), which made full look slower than every other row
	 * (loop1: 205 ms against about 32). */
	for (int c = -1; c < a->ncfg; c++) {
		struct bpfvet_verify_opts o = config_opts(a, c < 0 ? 0 : c);
		struct bpfvet_result *out = c > 0 ? &r : &full;
		int err = bpfvet_program__verify(p, &o, out);

		/* Refused by its loader: no verification to ablate, and no
		 * reason to stop the others. */
		if (err == -ENOEXEC) {
			fprintf(stderr, "bpfvet ablate: %s/%s: refused: %s\n", file,
				bpfvet_program__name(p), out->error);
			return 0;
		}
		if (err) {
			fprintf(stderr, "bpfvet: %s/%s: %s\n", file, bpfvet_program__name(p),
				strerror(-err));
			return err;
		}
		if (c < 0)
			continue;
		print_row(a, file, bpfvet_program__name(p), c, out, &full, first_json);
		if (c)
			account(s, c, out, &full);
	}
	return 0;
}

/* base: the target's options, the same for every object. */
static int ablate_object(const struct ablate_args *a, const struct bpfvet_open_opts *base,
			 const char *path, struct summary *s, bool *first_json)
{
	char errbuf[256] = "";
	struct bpfvet_open_opts oo = *base;
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct bpfvet_object *obj;
	int err;

	oo.errbuf = errbuf;
	oo.errbuf_sz = sizeof(errbuf);
	err = bpfvet_object__open(path, &oo, &obj);
	if (err) {
		fprintf(stderr, "bpfvet: %s: %s\n", path, errbuf[0] ? errbuf : strerror(-err));
		return err;
	}
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj) && !err; i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (!prog_filter_match(&a->filter, p))
			continue;
		err = ablate_prog(a, file, p, s, first_json);
	}
	bpfvet_object__close(obj);
	return err;
}

/* The configurations in their order, then the runs. */
static void ablate_json_open(const struct ablate_args *a)
{
	rows_json_open_fields(JSON_SCHEMA_ABLATE);
	printf(", \"configs\": [");
	for (int c = 0; c < a->ncfg; c++)
		printf("%s\"%s\"", c ? ", " : "", config_name(a, c));
	printf("]");
	rows_json_open_list("runs");
}

static void print_summary(const struct ablate_args *a, const struct summary *s)
{
	FILE *f = a->fmt == FMT_TABLE ? stdout : stderr;

	fprintf(f, "\nGeometric means relative to the full configuration (accepted programs):\n");
	fprintf(f, "%-19s %8s %8s %8s %9s %9s %10s %16s %9s\n", "config", "programs", "insns",
		"peak", "time", "limit", "past limit", "verdict changes", "fallbacks");
	for (int c = 1; c < a->ncfg; c++) {
		int n = s->n[c];

		fprintf(f, "%-19s %8d %8.3f %8.3f %9.3f %9d %10d %16d %9d\n", config_name(a, c), n,
			n ? exp(s->log_insns[c] / n) : 0.0, n ? exp(s->log_peak[c] / n) : 0.0,
			n ? exp(s->log_time[c] / n) : 0.0, s->limit_hits[c],
			s->limit_passes[c], s->verdict_changes[c], s->fallbacks[c]);
	}
}

static int parse(int argc, char **argv, struct ablate_args *a, const char ***paths, int *n)
{
	*paths = calloc((size_t)argc, sizeof(**paths));
	if (!*paths)
		return -ENOMEM;
	for (int i = 1; i < argc; i++) {
		const char *s = argv[i];

		if (!strcmp(s, "-h") || !strcmp(s, "--help")) {
			usage(stdout);
			return 1;
		}
		if ((!strcmp(s, "-p") || !strcmp(s, "-t") || !strcmp(s, "-o")) && i + 1 < argc) {
			const char *v = argv[++i];

			if (s[1] == 'p') {
				if (prog_filter_add(&a->filter, v))
					return -EINVAL;
			} else if (s[1] == 't')
				a->type = v;
			else if (!strcmp(v, "csv"))
				a->fmt = FMT_CSV;
			else if (!strcmp(v, "json"))
				a->fmt = FMT_JSON;
			else if (!strcmp(v, "table"))
				a->fmt = FMT_TABLE;
			else
				return -EINVAL;
			continue;
		}
		if (caps_args_parse(s, &a->caps))
			continue;
		if (!strcmp(s, "--explore=kernel") || !strcmp(s, "--explore=join")) {
			a->only_set = true;
			a->only = s[10] == 'j' ? BPFVET_EXPLORE_JOIN : BPFVET_EXPLORE_KERNEL;
			continue;
		}
		if (s[0] == '-') {
			if (open_args_last(argc, argv, &i, &a->open, "ablate"))
				return -EINVAL;
			continue;
		}
		(*paths)[(*n)++] = s;
	}
	if (!*n) {
		usage(stderr);
		return -EINVAL;
	}
	return select_configs(a);
}

int cmd_ablate(int argc, char **argv)
{
	struct ablate_args a = { 0 };
	struct summary *s = calloc(1, sizeof(*s));
	struct bpfvet_open_opts oo = { .sz = sizeof(oo) };
	const char **paths = NULL;
	bool first_json = true;
	int n = 0, rc, err = 0;
	char cfg[300];

	if (!s)
		return EXIT_USAGE;
	rc = parse(argc, argv, &a, &paths, &n);
	/* A bad target option is a usage error, told before any row. */
	if (!rc && (open_args_apply(&a.open, &oo, cfg, sizeof(cfg)) ||
		    open_args_share_target(&a.open, &oo)))
		rc = -EINVAL;
	if (rc) {
		free(paths);
		prog_filter_free(&a.filter);
		open_args_free(&a.open);
		free(s);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	oo.prog_type = a.type;
	oo.loader_drop_caps = caps_args_loader(&a.caps);
	if (a.fmt == FMT_CSV)
		printf("file_name,prog_name,config,verdict,total_insns,total_states,peak_states,duration,insns_ratio,peak_ratio,time_ratio,explore,fallback\n");
	else if (a.fmt == FMT_JSON)
		ablate_json_open(&a);
	else
		printf("%-24s %-32s %-19s %-11s %-10s %9s %8s %8s %9s %8s %8s %8s\n", "File",
		       "Program", "Config", "Verdict", "Walk", "Insns", "States", "Peak", "Time(us)",
		       "xInsns", "xPeak", "xTime");
	for (int i = 0; i < n && !err; i++)
		err = ablate_object(&a, &oo, paths[i], s, &first_json);
	if (a.fmt == FMT_JSON)
		rows_json_close();
	print_summary(&a, s);
	free(paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	free(s);
	return err ? EXIT_USAGE : 0;
}
