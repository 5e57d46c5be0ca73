/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet ablate OBJ.o... : verify every program once with all pruning
 * techniques, then once with each technique switched off, and report
 * processed instructions, states and time relative to the full
 * configuration, with geometric means over the programs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

#define MAX_CONFIGS 16

enum fmt { FMT_TABLE, FMT_CSV, FMT_JSON };

struct ablate_args {
	struct prog_filter filter;
	const char *type;
	enum fmt fmt;
	struct caps_args caps;
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
};

static int config_cnt(void)
{
	int n = 1;

	for (const struct technique *t = techniques; t->flag; t++)
		n++;
	return n;
}

static const char *config_name(int c)
{
	return c ? techniques[c - 1].name : "full";
}

static struct bpfvet_verify_opts config_opts(int c, uint32_t drop_caps)
{
	struct bpfvet_verify_opts o = { .sz = sizeof(o), .drop_caps = drop_caps };

	if (c && techniques[c - 1].on)
		o.enable = techniques[c - 1].bit;
	else if (c)
		o.disable = techniques[c - 1].bit;
	return o;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet ablate OBJ.o... [-p GLOB] [-t TYPE] [-o table|csv|json]\n"
		"Verifies each program with the kernel's pruning (full), then with each of\n"
		"its techniques switched off and each beyond-kernel one switched on (and\n"
		"all of them: prune-max), and reports instructions, states and time\n"
		"relative to the full configuration.\n%s", caps_args_usage);
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

	if (a->fmt == FMT_CSV) {
		printf("%s,%s,%s,%s,%llu,%llu,%llu,%llu,%.3f,%.3f,%.3f\n", file, prog,
		       config_name(c), verdict_str(r->verdict),
		       (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states,
		       (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt);
	} else if (a->fmt == FMT_JSON) {
		rows_json_row_start(*first_json);
		printf("{\"file_name\": ");
		rows_json_string(file);
		printf(", \"prog_name\": ");
		rows_json_string(prog);
		printf(", \"config\": \"%s\", "
		       "\"verdict\": \"%s\", \"total_insns\": %llu, \"total_states\": %llu, "
		       "\"peak_states\": %llu, \"duration\": %llu, \"insns_ratio\": %.3f, "
		       "\"peak_ratio\": %.3f, \"time_ratio\": %.3f}",
		       config_name(c),
		       verdict_str(r->verdict), (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states, (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt);
		*first_json = false;
	} else {
		printf("%-24.24s %-32.32s %-18s %-11s %9llu %8llu %8llu %9llu %7.2f %7.2f %7.2f\n",
		       file, prog, config_name(c), verdict_str(r->verdict),
		       (unsigned long long)r->insns_processed,
		       (unsigned long long)r->total_states,
		       (unsigned long long)r->peak_states,
		       (unsigned long long)(r->duration_ns / 1000), ri, rp, rt);
	}
}

static void account(struct summary *s, int c, const struct bpfvet_result *r,
		    const struct bpfvet_result *full)
{
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
	int configs = config_cnt();

	for (int c = 0; c < configs; c++) {
		struct bpfvet_verify_opts o = config_opts(c, a->caps.drop_caps);
		struct bpfvet_result *out = c ? &r : &full;
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
		print_row(a, file, bpfvet_program__name(p), c, out, &full, first_json);
		if (c)
			account(s, c, out, &full);
	}
	return 0;
}

static int ablate_object(const struct ablate_args *a, const char *path, struct summary *s,
			 bool *first_json)
{
	char errbuf[256] = "";
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .prog_type = a->type, .errbuf = errbuf,
		.errbuf_sz = sizeof(errbuf),
	};
	const char *file = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	struct bpfvet_object *obj;
	int err;

	oo.loader_drop_caps = caps_args_loader(&a->caps);
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
static void ablate_json_open(void)
{
	rows_json_open_fields(JSON_SCHEMA_ABLATE);
	printf(", \"configs\": [");
	for (int c = 0; c < config_cnt(); c++)
		printf("%s\"%s\"", c ? ", " : "", config_name(c));
	printf("]");
	rows_json_open_list("runs");
}

static void print_summary(const struct ablate_args *a, const struct summary *s)
{
	FILE *f = a->fmt == FMT_TABLE ? stdout : stderr;

	fprintf(f, "\nGeometric means relative to the full configuration (accepted programs):\n");
	fprintf(f, "%-18s %8s %8s %8s %9s %9s %9s %16s\n", "config", "programs", "insns",
		"peak", "time", "limit", "past limit", "verdict changes");
	for (int c = 1; c < config_cnt(); c++) {
		int n = s->n[c];

		fprintf(f, "%-18s %8d %8.3f %8.3f %9.3f %9d %9d %16d\n", config_name(c), n,
			n ? exp(s->log_insns[c] / n) : 0.0, n ? exp(s->log_peak[c] / n) : 0.0,
			n ? exp(s->log_time[c] / n) : 0.0, s->limit_hits[c],
			s->limit_passes[c], s->verdict_changes[c]);
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
		if (s[0] == '-') {
			fprintf(stderr, "bpfvet ablate: bad option '%s'\n", s);
			return -EINVAL;
		}
		(*paths)[(*n)++] = s;
	}
	if (!*n) {
		usage(stderr);
		return -EINVAL;
	}
	return 0;
}

int cmd_ablate(int argc, char **argv)
{
	struct ablate_args a = { 0 };
	struct summary *s = calloc(1, sizeof(*s));
	const char **paths = NULL;
	bool first_json = true;
	int n = 0, rc, err = 0;

	if (!s)
		return EXIT_USAGE;
	rc = parse(argc, argv, &a, &paths, &n);
	if (rc) {
		free(paths);
		prog_filter_free(&a.filter);
		free(s);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	if (a.fmt == FMT_CSV)
		printf("file_name,prog_name,config,verdict,total_insns,total_states,peak_states,duration,insns_ratio,peak_ratio,time_ratio\n");
	else if (a.fmt == FMT_JSON)
		ablate_json_open();
	else
		printf("%-24s %-32s %-18s %-11s %9s %8s %8s %9s %7s %7s %7s\n", "File", "Program",
		       "Config", "Verdict", "Insns", "States", "Peak", "Time(us)", "xInsns",
		       "xPeak", "xTime");
	for (int i = 0; i < n && !err; i++)
		err = ablate_object(&a, paths[i], s, &first_json);
	if (a.fmt == FMT_JSON)
		rows_json_close();
	print_summary(&a, s);
	free(paths);
	prog_filter_free(&a.filter);
	free(s);
	return err ? EXIT_USAGE : 0;
}
