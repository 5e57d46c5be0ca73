/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet [verify] OBJ.o... : verify every program and report one row per
 * program, veristat-style (table, csv or json). Exit 0 when all programs
 * are accepted, 1 when any is rejected, 2 on usage or load errors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

enum field {
	F_FILE, F_PROG, F_SECTION, F_TYPE, F_VERDICT, F_DURATION, F_INSNS, F_STATES,
	F_PEAK, F_MAX_PER_INSN, F_MARK_READ, F_MEM_PEAK, F_DISTINCT, F_ERROR,
	F_EXPLORE, F_JOIN_VERDICT, F_JOIN_INSNS, F_EXACT_INSNS, F_JOIN_SITES, F_JOIN_ARRIVALS,
	F_JOIN_CALL_REUSES, F_FALLBACK, F_MAX,
};

/* csv name (veristat's), accepted aliases, table header. */
static const struct {
	const char *csv;
	const char *alias;
	const char *header;
} fields[F_MAX] = {
	[F_FILE] = { "file_name", "file", "File" },
	[F_PROG] = { "prog_name", "prog", "Program" },
	[F_SECTION] = { "section", "section", "Section" },
	[F_TYPE] = { "prog_type", "type", "Type" },
	[F_VERDICT] = { "verdict", "verdict", "Verdict" },
	[F_DURATION] = { "duration", "duration", "Duration (us)" },
	[F_INSNS] = { "total_insns", "insns", "Insns" },
	[F_STATES] = { "total_states", "states", "States" },
	[F_PEAK] = { "peak_states", "peak", "Peak states" },
	[F_MAX_PER_INSN] = { "max_states_per_insn", "max_states", "Max states per insn" },
	[F_MARK_READ] = { "mark_read", "mark_read", "Mark read" },
	[F_MEM_PEAK] = { "mem_peak", "mem", "Peak mem (KiB)" },
	[F_DISTINCT] = { "distinct_insns", "distinct", "Distinct insns" },
	[F_ERROR] = { "error", "error", "Error" },
	[F_EXPLORE] = { "explore", "explore", "Explore" },
	[F_JOIN_VERDICT] = { "join_verdict", "join_verdict", "Join verdict" },
	[F_JOIN_INSNS] = { "join_insns", "join_insns", "Join insns" },
	[F_EXACT_INSNS] = { "exact_insns", "exact_insns", "Exact insns" },
	[F_JOIN_SITES] = { "join_sites", "join_sites", "Join sites" },
	[F_JOIN_ARRIVALS] = { "join_arrivals", "join_arrivals", "Joined paths" },
	[F_JOIN_CALL_REUSES] = { "join_call_reuses", "join_call_reuses", "Summarized calls" },
	[F_FALLBACK] = { "fallback", "fallback", "Fallback" },
};

struct row {
	char *file;
	char *prog;
	char *section;
	const char *type;
	struct bpfvet_result res;
};

struct verify_args {
	const char **paths;
	int path_cnt;
	struct prog_filter filter;
	const char *type;
	uint32_t log_level;
	uint32_t prog_flags;
	struct caps_args caps;
	const char *fault;	/* BPFVET_FAULT */
	struct prune_switches prune;
	enum out_fmt fmt;
	bool sel[F_MAX];
	bool quiet;
	struct open_args open;
	/* --target A,B,...: one verdict column per target (matrix.c). */
	char *target_list;
	const char *targets[MATRIX_MAX_TARGETS];
	int target_cnt;
};

static void verify_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet [verify] OBJ.o... [options]\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"                 (repeatable; !GLOB leaves out what it matches)\n"
		"  -t TYPE        program type for every program (xdp, sched_cls, ...)\n"
		"  -l LEVEL       print the verifier log (1: failing path, 2: all, |4: stats)\n"
		"  -o FMT         output: table (default), csv or json\n"
		"  -e FIELDS      comma-separated fields: file_name, prog_name, section,\n"
		"                 prog_type,\n"
		"                 verdict, duration, total_insns, total_states, peak_states,\n"
		"                 max_states_per_insn, mark_read, mem_peak (KiB),\n"
		"                 distinct_insns (processed at least once), error;\n"
		"                 with --explore=join: explore, join_verdict, join_insns,\n"
		"                 exact_insns, join_sites, join_arrivals, join_call_reuses,\n"
		"                 fallback\n"
		"  -f FLAGS       BPF_F_* program load flags (number)\n"
		"%s"
		"Pruning techniques (each can be switched off; see 'bpfvet ablate'):\n"
		"  --no-prune  --no-liveness  --no-stack-liveness  --no-precision\n"
		"  --no-widen  --no-evict\n"
		"Pruning beyond the kernel's (never changes a verdict, except that a\n"
		"program too complex for the kernel may pass):\n"
		"  --prune=kernel|max  the kernel's placement (default), or the three:\n"
		"  --useful-checkpoints  only where a queued path can still arrive\n"
		"  --evict-unreachable   drop checkpoints no queued path can reach\n"
		"  --join-checkpoints    only where paths join\n"
		"  and further:\n"
		"  --eager-checkpoints   outside loops, wherever the others allow\n"
		"  --checkpoint=every    at every prune point, loops included\n"
		"Exploration (docs/pruning.md):\n"
		"  --explore=kernel  path by path, as the kernel (default)\n"
		"  --explore=join    merge the states of paths where they meet and iterate\n"
		"                 loops to a fixpoint. A rejection is tried again with loops\n"
		"                 trip by trip, then by the kernel's exact walk, whose\n"
		"                 verdict and message are then final. The joined walks use\n"
		"                 none of the placements beyond the kernel's. Not applied\n"
		"                 (-e explore says kernel) to unprivileged loads, --no-prune,\n"
		"                 iterators, callbacks, may_goto and irreducible loops.\n"
		"  Its parts, each can be switched off (with --explore=join):\n"
		"  --no-join-points  no merging where paths meet outside loops\n"
		"  --no-loop-widen   loops walked trip by trip, each trip its own summary\n"
		"  --no-thresholds   widening goes straight to the type's extremes\n"
		"  --no-call-summaries  every call walks its callee (no call summaries)\n"
		"  --no-call-widen   callees walked with each call's own arguments\n"
		"  --no-stack-fold   stack pointers that a loop moves are not merged\n"
		"  --no-nested-deltas  an outer loop's trips do not sum up inner loops\n"
		"  --no-fallback     no exact walk after the joined walks reject\n"
		"  -q             no table, only the exit status\n"
		"%s"
		"  --target A,B,...  one verdict column per target (6.1,6.12,6.18: will the\n"
		"                 programs load on each?); with -e error, their errors\n"
		"Exit status: 0 all accepted, 1 some rejected or unsupported, 2 errors.\n",
		caps_args_usage, open_args_usage);
}

static int parse_fields(const char *list, bool *sel)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	memset(sel, 0, sizeof(bool) * F_MAX);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int f;

		for (f = 0; f < F_MAX; f++)
			if (!strcmp(tok, fields[f].csv) || !strcmp(tok, fields[f].alias))
				break;
		if (f == F_MAX) {
			fprintf(stderr, "bpfvet: unknown field '%s'\n", tok);
			err = -EINVAL;
			break;
		}
		sel[f] = true;
	}
	free(copy);
	return err;
}

static void default_fields(bool *sel)
{
	static const enum field def[] = {
		F_FILE, F_PROG, F_VERDICT, F_DURATION, F_INSNS, F_STATES, F_PEAK,
	};

	memset(sel, 0, sizeof(bool) * F_MAX);
	for (size_t i = 0; i < sizeof(def) / sizeof(def[0]); i++)
		sel[def[i]] = true;
}

static const char *opt_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "bpfvet: option %s needs a value\n", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

static int parse_target_list(struct verify_args *a, const char *list)
{
	char *save = NULL, *tok;

	free(a->target_list);
	a->target_list = strdup(list);
	a->target_cnt = 0;
	if (!a->target_list)
		return -ENOMEM;
	for (tok = strtok_r(a->target_list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (a->target_cnt == MATRIX_MAX_TARGETS) {
			fprintf(stderr, "bpfvet: --target takes at most %d targets\n",
				MATRIX_MAX_TARGETS);
			return -EINVAL;
		}
		a->targets[a->target_cnt++] = tok;
	}
	return 0;
}

static int parse_option(int argc, char **argv, int *i, void *args)
{
	struct verify_args *a = args;
	const char *s = argv[*i], *v;

	if (caps_args_parse(s, &a->caps))
		return 0;
	if (!parse_technique_flag(s, &a->prune))
		return 0;
	if (!strcmp(s, "-q")) {
		a->quiet = true;
		return 0;
	}
	if (!strcmp(s, "--target") && *i + 1 < argc && strchr(argv[*i + 1], ','))
		return parse_target_list(a, argv[++*i]);
	switch (open_args_parse(argc, argv, i, &a->open)) {
	case 1:
		return 0;
	case -1:
		return -EINVAL;
	default:
		break;
	}
	if (strcmp(s, "-p") && strcmp(s, "-t") && strcmp(s, "-l") && strcmp(s, "-o") &&
	    strcmp(s, "-e") && strcmp(s, "-f")) {
		fprintf(stderr, "bpfvet: bad option '%s'\n", s);
		return -EINVAL;
	}
	v = opt_value(argc, argv, i);
	if (!v)
		return -EINVAL;
	switch (s[1]) {
	case 'p': return prog_filter_add(&a->filter, v) ? -EINVAL : 0;
	case 't': a->type = v; return 0;
	case 'l': a->log_level = (uint32_t)strtoul(v, NULL, 0); return 0;
	case 'f': a->prog_flags = (uint32_t)strtoul(v, NULL, 0); return 0;
	case 'e': return parse_fields(v, a->sel);
	default: break;
	}
	if (!strcmp(v, "table"))
		a->fmt = OUT_TABLE;
	else if (!strcmp(v, "csv"))
		a->fmt = OUT_CSV;
	else if (!strcmp(v, "json"))
		a->fmt = OUT_JSON;
	else {
		fprintf(stderr, "bpfvet: unknown output format '%s'\n", v);
		return -EINVAL;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct verify_args *a)
{
	const struct obj_args_parser p = { parse_option, a, verify_usage };

	default_fields(a->sel);
	return obj_args_scan(argc, argv, &p, &a->paths, &a->path_cnt);
}

/* ctx: the stream of the log; stderr with -o json, whose stdout is one
 * JSON document. */
static void write_log(void *ctx, const char *text, size_t len)
{
	fwrite(text, 1, len, ctx);
}

/* A program that needs a target BTF the run does not have: say how to
 * give one. */
static void hint_target_btf(struct bpfvet_result *res)
{
	static const char hint[] = " (give one with --btf FILE)";
	size_t n = strlen(res->error);

	if (n >= 18 && !strcmp(res->error + n - 18, "without target BTF") &&
	    n + sizeof(hint) <= sizeof(res->error))
		memcpy(res->error + n, hint, sizeof(hint));
}

static int verify_prog(const struct verify_args *a, const char *path,
		       const struct bpfvet_program *prog, struct rows *rows)
{
	struct bpfvet_verify_opts opts = {
		.sz = sizeof(opts),
		.log_level = a->log_level,
		.log_fn = write_log,
		.log_ctx = a->fmt == OUT_JSON ? stderr : stdout,
		.prog_flags = a->prog_flags,
		.drop_caps = a->caps.drop_caps,
		.disable = a->prune.disable,
		.enable = a->prune.enable,
		.fault = a->fault,
		.explore = a->prune.explore,
	};
	struct row *row = rows_add(rows, sizeof(*row));
	int err;

	if (!row)
		return -ENOMEM;
	row->file = strdup(rows_base_name(path));
	row->prog = strdup(bpfvet_program__name(prog));
	row->section = strdup(bpfvet_program__section(prog));
	row->type = bpfvet_prog_type_name(bpfvet_program__type(prog));
	row->res.sz = sizeof(row->res);
	if (!row->file || !row->prog || !row->section)
		return -ENOMEM;
	if (a->log_level)
		fprintf(a->fmt == OUT_JSON ? stderr : stdout, "Log for %s/%s:\n", row->file,
			row->prog);
	err = bpfvet_program__verify(prog, &opts, &row->res);
	if (!err)
		hint_target_btf(&row->res);
	if (err == -ENOEXEC)
		return 0;	/* refused by the loader: a row of its own */
	if (err)
		fprintf(stderr, "bpfvet: %s/%s: verification failed to run: %s\n",
			row->file, row->prog, strerror(-err));
	return err;
}

static int verify_object(const struct verify_args *a, struct open_args *open,
			 const char *path, struct rows *rows)
{
	char errbuf[256] = "", cfg[300];
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .prog_type = a->type, .errbuf = errbuf,
		.errbuf_sz = sizeof(errbuf),
	};
	struct bpfvet_object *obj;
	int err;

	if (open_args_apply(open, &oo, cfg, sizeof(cfg)) || open_args_share_target(open, &oo))
		return -EINVAL;
	oo.loader_drop_caps = caps_args_loader(&a->caps);
	err = bpfvet_object__open(path, &oo, &obj);
	if (err) {
		fprintf(stderr, "bpfvet: %s: %s\n", path, errbuf[0] ? errbuf : strerror(-err));
		return err;
	}
	for (size_t i = 0; i < bpfvet_object__warning_cnt(obj); i++)
		fprintf(stderr, "bpfvet: %s: warning: %s\n", path, bpfvet_object__warning(obj, i));
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (!prog_filter_match(&a->filter, p))
			continue;
		err = verify_prog(a, path, p, rows);
		if (err)
			break;
	}
	bpfvet_object__close(obj);
	return err;
}

static const struct row *row_at(const struct rows *rows, size_t i)
{
	return (const struct row *)rows->v + i;
}

/* "refused": the loader could not prepare the program (an extern nothing
 * resolves, a bad map), which a non-libbpf loader reports for that
 * program alone; its problem is the error. */
static const char *verdict_str(const struct bpfvet_result *r)
{
	if (r->err == -ENOEXEC)
		return "refused";
	return r->verdict == BPFVET_ACCEPTED ? "success" :
	       r->verdict == BPFVET_REJECTED ? "failure" : "unsupported";
}

static bool is_numeric(enum field f)
{
	return (f >= F_DURATION && f <= F_DISTINCT) || (f >= F_JOIN_INSNS && f <= F_JOIN_CALL_REUSES);
}

static void cell(const struct row *r, enum field f, char *buf, size_t sz)
{
	const struct bpfvet_result *s = &r->res;

	/* A refused program never reached the verifier: no figures, "-" in
	 * a table, an empty csv cell and null in JSON. */
	if (s->err == -ENOEXEC && is_numeric(f)) {
		buf[0] = '\0';
		return;
	}
	switch (f) {
	case F_FILE: snprintf(buf, sz, "%s", r->file); break;
	case F_PROG: snprintf(buf, sz, "%s", r->prog); break;
	case F_SECTION: snprintf(buf, sz, "%s", r->section); break;
	case F_TYPE: snprintf(buf, sz, "%s", r->type ? r->type : "unknown"); break;
	case F_VERDICT: snprintf(buf, sz, "%s", verdict_str(s)); break;
	case F_DURATION: snprintf(buf, sz, "%llu", (unsigned long long)(s->duration_ns / 1000)); break;
	case F_INSNS: snprintf(buf, sz, "%llu", (unsigned long long)s->insns_processed); break;
	case F_STATES: snprintf(buf, sz, "%llu", (unsigned long long)s->total_states); break;
	case F_PEAK: snprintf(buf, sz, "%llu", (unsigned long long)s->peak_states); break;
	case F_MAX_PER_INSN: snprintf(buf, sz, "%llu", (unsigned long long)s->max_states_per_insn); break;
	case F_MARK_READ: snprintf(buf, sz, "%llu", (unsigned long long)s->mark_read); break;
	case F_MEM_PEAK: snprintf(buf, sz, "%llu", (unsigned long long)(s->mem_peak + 1023) / 1024); break;
	case F_DISTINCT: snprintf(buf, sz, "%llu", (unsigned long long)s->insns_distinct); break;
	case F_ERROR: snprintf(buf, sz, "%s", s->error); break;
	case F_EXPLORE: snprintf(buf, sz, "%s", explore_name(s->explore)); break;
	case F_JOIN_VERDICT:
		snprintf(buf, sz, "%s", s->explore != BPFVET_EXPLORE_JOIN ? "" :
			 s->join_verdict == BPFVET_ACCEPTED ? "success" :
			 s->join_verdict == BPFVET_REJECTED ? "failure" : "unsupported");
		break;
	case F_JOIN_INSNS: snprintf(buf, sz, "%llu", (unsigned long long)s->join_insns); break;
	case F_EXACT_INSNS: snprintf(buf, sz, "%llu", (unsigned long long)s->exact_insns); break;
	case F_JOIN_SITES: snprintf(buf, sz, "%llu", (unsigned long long)s->join_sites); break;
	case F_JOIN_ARRIVALS: snprintf(buf, sz, "%llu", (unsigned long long)s->join_arrivals); break;
	case F_JOIN_CALL_REUSES:
		snprintf(buf, sz, "%llu", (unsigned long long)s->join_call_reuses);
		break;
	case F_FALLBACK: snprintf(buf, sz, "%s", s->fallback ? "yes" : "no"); break;
	default: buf[0] = 0;
	}
}

static void print_table(const struct verify_args *a, const struct rows *rows)
{
	size_t width[F_MAX] = { 0 };
	char buf[512];
	int f;

	for (f = 0; f < F_MAX; f++) {
		if (!a->sel[f])
			continue;
		width[f] = strlen(fields[f].header);
		for (size_t i = 0; i < rows->cnt; i++) {
			cell(row_at(rows, i), (enum field)f, buf, sizeof(buf));
			if (strlen(buf) > width[f])
				width[f] = strlen(buf);
		}
	}
	for (f = 0; f < F_MAX; f++)
		if (a->sel[f])
			printf("%-*s  ", (int)width[f], fields[f].header);
	printf("\n");
	for (f = 0; f < F_MAX; f++)
		if (a->sel[f])
			printf("%.*s  ", (int)width[f],
			       "--------------------------------------------------------------------------------------------------------------------------------");
	printf("\n");
	for (size_t i = 0; i < rows->cnt; i++) {
		for (f = 0; f < F_MAX; f++) {
			if (!a->sel[f])
				continue;
			cell(row_at(rows, i), (enum field)f, buf, sizeof(buf));
			if (is_numeric((enum field)f) && !buf[0])
				snprintf(buf, sizeof(buf), "-");
			printf(is_numeric((enum field)f) ? "%*s  " : "%-*s  ", (int)width[f], buf);
		}
		printf("\n");
	}
}

static void print_csv(const struct verify_args *a, const struct rows *rows)
{
	char buf[512];
	bool first = true;

	for (int f = 0; f < F_MAX; f++) {
		if (!a->sel[f])
			continue;
		printf("%s%s", first ? "" : ",", fields[f].csv);
		first = false;
	}
	printf("\n");
	for (size_t i = 0; i < rows->cnt; i++) {
		first = true;
		for (int f = 0; f < F_MAX; f++) {
			if (!a->sel[f])
				continue;
			cell(row_at(rows, i), (enum field)f, buf, sizeof(buf));
			if (!first)
				putchar(',');
			rows_csv_value(buf);
			first = false;
		}
		printf("\n");
	}
}

static void print_json(const struct verify_args *a, const struct rows *rows)
{
	char buf[512];

	rows_json_open_fields(JSON_SCHEMA_VERIFY);
	rows_json_open_list("programs");
	for (size_t i = 0; i < rows->cnt; i++) {
		bool first = true;

		rows_json_row_start(!i);
		printf("{");
		for (int f = 0; f < F_MAX; f++) {
			if (!a->sel[f])
				continue;
			cell(row_at(rows, i), (enum field)f, buf, sizeof(buf));
			printf("%s\"%s\": ", first ? "" : ", ", fields[f].csv);
			if (is_numeric((enum field)f))
				printf("%s", buf[0] ? buf : "null");
			else
				rows_json_string(buf);
			first = false;
		}
		printf("}");
	}
	rows_json_close();
}

static void rows_free(struct rows *rows)
{
	for (size_t i = 0; i < rows->cnt; i++) {
		free(row_at(rows, i)->file);
		free(row_at(rows, i)->prog);
		free(row_at(rows, i)->section);
	}
	free(rows->v);
	rows->v = NULL;
	rows->cnt = rows->cap = 0;
}

/* Every object for one target; non-zero if some object failed. */
static int verify_all(const struct verify_args *a, struct open_args *open, struct rows *rows)
{
	int err = 0;

	for (int i = 0; i < a->path_cnt; i++) {
		int rc = verify_object(a, open, a->paths[i], rows);

		if (rc)
			err = rc;
	}
	return err;
}

static int status_of(const struct rows *rows)
{
	for (size_t i = 0; i < rows->cnt; i++)
		if (row_at(rows, i)->res.verdict != BPFVET_ACCEPTED)
			return EXIT_REJECTED;
	return EXIT_ACCEPTED;
}

/* The matrix row of (file, prog), added after the others if new. */
static struct matrix_row *matrix_row_of(struct rows *mrows, const struct row *r)
{
	struct matrix_row *m;

	for (size_t i = 0; i < mrows->cnt; i++) {
		m = (struct matrix_row *)mrows->v + i;
		if (!strcmp(m->file, r->file) && !strcmp(m->prog, r->prog))
			return m;
	}
	m = rows_add(mrows, sizeof(*m));
	if (m) {
		m->file = r->file;
		m->prog = r->prog;
	}
	return m;
}

/* --target A,B,...: each target's run with its own profile, then one
 * row per program. Options other than --target apply to every run. */
static int run_matrix(struct verify_args *a, int *status)
{
	struct rows per[MATRIX_MAX_TARGETS] = { 0 }, mrows = { 0 };
	int err = 0;

	*status = EXIT_ACCEPTED;
	for (int t = 0; t < a->target_cnt && !err; t++) {
		struct open_args open = a->open;

		open.target = NULL;
		open.target_path = NULL;
		open.target_err = 0;
		open.profile = target_profile_load(a->targets[t]);
		if (!open.profile) {
			err = -EINVAL;
			break;
		}
		if (verify_all(a, &open, &per[t]))
			err = -EINVAL;
		open_args_free(&open);
		if (status_of(&per[t]) != EXIT_ACCEPTED)
			*status = EXIT_REJECTED;
	}
	for (int t = 0; t < a->target_cnt && !err; t++) {
		for (size_t i = 0; i < per[t].cnt; i++) {
			const struct row *r = row_at(&per[t], i);
			struct matrix_row *m = matrix_row_of(&mrows, r);

			if (!m) {
				err = -ENOMEM;
				break;
			}
			m->verdict[t] = verdict_str(&r->res);
			m->error[t] = r->res.error[0] ? r->res.error : NULL;
		}
	}
	if (!err && !a->quiet) {
		struct matrix m = {
			.targets = a->targets, .target_cnt = a->target_cnt,
			.rows = mrows.v, .cnt = mrows.cnt, .errors = a->sel[F_ERROR],
		};

		matrix_print(&m, a->fmt);
	}
	free(mrows.v);
	for (int t = 0; t < a->target_cnt; t++)
		rows_free(&per[t]);
	return err;
}

static void print_rows(const struct verify_args *a, const struct rows *rows)
{
	if (a->quiet)
		return;
	if (a->fmt == OUT_CSV)
		print_csv(a, rows);
	else if (a->fmt == OUT_JSON)
		print_json(a, rows);
	else
		print_table(a, rows);
}

/* The target options are read per object; a bad one is a usage error
 * of the whole run, told before any table is printed. */
static int check_open_args(const struct open_args *open)
{
	struct bpfvet_open_opts oo = { .sz = sizeof(oo) };
	char cfg[300];

	return open_args_apply(open, &oo, cfg, sizeof(cfg)) ? -EINVAL : 0;
}

int cmd_verify(int argc, char **argv)
{
	struct verify_args a = { 0 };
	struct rows rows = { 0 };
	int err, status = EXIT_ACCEPTED, rc;

	rc = parse_args(argc, argv, &a);
	if (!rc && a.target_cnt > 1 && a.open.profile) {
		fprintf(stderr, "bpfvet: --target with several targets: give them in one --target\n");
		rc = -EINVAL;
	}
	if (!rc && technique_check(&a.prune))
		rc = -EINVAL;
	if (!rc && a.target_cnt <= 1)
		rc = check_open_args(&a.open);
	if (!rc && fault_env_get(&a.fault))
		rc = -EINVAL;
	if (rc) {
		err = rc > 0 ? 0 : EXIT_USAGE;
		goto out;
	}
	if (a.target_cnt > 1) {
		err = run_matrix(&a, &status);
	} else {
		err = verify_all(&a, &a.open, &rows);
		status = status_of(&rows);
		print_rows(&a, &rows);
	}
	err = err ? EXIT_USAGE : status;
out:
	rows_free(&rows);
	free(a.paths);
	free(a.target_list);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	return err;
}
