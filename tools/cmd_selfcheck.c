/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet selfcheck OBJ.o... [-p GLOB] [-n RUNS] [--seed S]: verifies each
 * program, then runs it on random packets in the interpreter and checks
 * that every abstract state the verifier held along each run contains the
 * run's (bpfvet_program__selfcheck(), docs/selfcheck.md). Exit 0 when
 * every program passed, 1 on a violation (it is printed: the run, the
 * instruction, the concrete and abstract values), 2 when a program is
 * rejected (its error printed), cannot be run, or on usage errors.
 * BPFVET_FAULT=NAME checks a verifier made unsound on purpose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

struct selfcheck_args {
	struct prog_filter filter;
	const char *type;
	uint32_t runs;
	uint64_t seed;
	struct caps_args caps;
	const char *fault;
	enum bpfvet_explore explore;
	struct open_args open;
	/* Totals over the programs: what a corpus measure adds up. */
	uint64_t progs, progs_checked, progs_rejected, progs_unrun;
	uint64_t runs_done, runs_followed, runs_unsupported, steps, prune_checks, violations;
};

static void selfcheck_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet selfcheck OBJ.o... [-p GLOB] [-n RUNS] [--seed S] [options]\n"
		"Verifies each program, then runs it on RUNS random packets (socket\n"
		"filters, tc and XDP programs) and checks each run against the states\n"
		"the verifier held on its path (docs/selfcheck.md).\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"  -t TYPE        program type for every program\n"
		"  -n RUNS        runs per program (default 100)\n"
		"  --seed S       the runs' seed (default 0): a report names (seed, run)\n"
		"  --explore=join check the joined walk's merged states instead: every\n"
		"                 run must lie in one of those at each place paths met\n"
		"%s%s"
		"Exit status: 0 no violation, 1 a violation, 2 a program rejected, not\n"
		"runnable, or errors. BPFVET_FAULT=NAME injects a fault (bpfvet_fault_name).\n",
		caps_args_usage, open_args_usage);
}

static int parse_num(const char *v, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long n = strtoull(v, &end, 0);

	if (!*v || *end || n > max) {
		fprintf(stderr, "bpfvet selfcheck: bad number '%s'\n", v);
		return -1;
	}
	*out = n;
	return 0;
}

static int selfcheck_option(int argc, char **argv, int *i, void *args)
{
	struct selfcheck_args *a = args;
	const char *s = argv[*i];
	uint64_t n;

	if (caps_args_parse(s, &a->caps))
		return 0;
	if (!parse_explore_flag(s, &a->explore))
		return 0;
	if ((!strcmp(s, "-p") || !strcmp(s, "-t") || !strcmp(s, "-n") || !strcmp(s, "--seed")) &&
	    *i + 1 < argc) {
		const char *v = argv[++*i];

		if (s[1] == 'p')
			return prog_filter_add(&a->filter, v);
		if (s[1] == 't') {
			a->type = v;
			return 0;
		}
		if (s[1] == 'n') {
			if (parse_num(v, 100000000, &n) || !n)
				return -1;
			a->runs = (uint32_t)n;
			return 0;
		}
		return parse_num(v, UINT64_MAX, &a->seed);
	}
	return open_args_last(argc, argv, i, &a->open, "selfcheck");
}

static int selfcheck_visit(void *ctx, const char *path, struct bpfvet_program *p, int nth)
{
	struct selfcheck_args *a = ctx;
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo), .drop_caps = a->caps.drop_caps, .fault = a->fault,
		.explore = a->explore,
	};
	struct bpfvet_selfcheck_opts so = {
		.sz = sizeof(so), .runs = a->runs, .seed = a->seed, .verify = &vo,
	};
	struct bpfvet_selfcheck_result res = { .sz = sizeof(res) };
	const char *name = bpfvet_program__name(p);
	int err = bpfvet_program__selfcheck(p, &so, &res);

	(void)nth;
	a->progs++;
	printf("%s/%s: ", rows_base_name(path), name);
	if (err) {
		a->progs_unrun++;
		printf("not checked: %s\n", err == -EOPNOTSUPP ?
		       "the interpreter does not run this program type" :
		       res.error[0] ? res.error : strerror(-err));
		return EXIT_USAGE;
	}
	if (res.verdict != BPFVET_ACCEPTED) {
		a->progs_rejected++;
		printf("%s: %s\n", res.verdict == BPFVET_REJECTED ? "rejected" : "unsupported",
		       res.error);
		return EXIT_USAGE;
	}
	a->progs_checked++;
	a->runs_done += res.runs;
	a->runs_followed += res.runs_checked;
	a->runs_unsupported += res.runs_unsupported;
	a->steps += res.steps;
	a->prune_checks += res.prune_checks;
	a->violations += res.violations;
	printf("%llu runs (%llu followed to the end, %llu need what the interpreter lacks), "
	       "%llu instructions and %llu checkpoints compared: ",
	       (unsigned long long)res.runs, (unsigned long long)res.runs_checked,
	       (unsigned long long)res.runs_unsupported, (unsigned long long)res.steps,
	       (unsigned long long)res.prune_checks);
	if (!res.violations) {
		printf("ok\n");
		return 0;
	}
	printf("%llu VIOLATIONS\n  first: %s\n", (unsigned long long)res.violations,
	       res.violation);
	return EXIT_REJECTED;
}

/* The last line: scripts/selfcheck-corpus.sh adds these up over shards. */
static void print_totals(const struct selfcheck_args *a)
{
	printf("selfcheck: %llu programs, %llu runs, %llu instructions compared; "
	       "%llu programs checked, %llu rejected, %llu not run; "
	       "%llu runs followed to the end, %llu need what the interpreter lacks; "
	       "%llu checkpoints compared; %llu violations\n",
	       (unsigned long long)a->progs, (unsigned long long)a->runs_done,
	       (unsigned long long)a->steps, (unsigned long long)a->progs_checked,
	       (unsigned long long)a->progs_rejected, (unsigned long long)a->progs_unrun,
	       (unsigned long long)a->runs_followed, (unsigned long long)a->runs_unsupported,
	       (unsigned long long)a->prune_checks, (unsigned long long)a->violations);
}

int cmd_selfcheck(int argc, char **argv)
{
	struct selfcheck_args a = { .runs = 100 };
	struct obj_args_parser parser = {
		.option = selfcheck_option, .args = &a, .usage = selfcheck_usage,
	};
	struct bpfvet_open_opts opts = { .sz = sizeof(opts) };
	const char **paths = NULL;
	int rc, n = 0, worst = 0;
	char cfg[300];

	rc = obj_args_scan(argc, argv, &parser, &paths, &n);
	if (rc || fault_env_get(&a.fault)) {
		free(paths);
		prog_filter_free(&a.filter);
		open_args_free(&a.open);
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
		rc = prog_filter_each(&a.filter, paths[i], &opts, selfcheck_visit, &a);
		/* A violation outranks a program that could not be checked. */
		if (rc == EXIT_REJECTED || (rc > worst && worst != EXIT_REJECTED))
			worst = rc;
	}
	print_totals(&a);
out:
	free(paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	return worst;
}
