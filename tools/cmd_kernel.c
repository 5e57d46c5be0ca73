/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet kernel OBJ.o... : the differential command. Every program is
 * loaded into the running kernel (the reference verifier) and verified by
 * bpfvet; one row per program shows both verdicts and statistics
 * side by side, veristat-style (table, csv or json).
 *
 * Exit status: 0 when every verdict agrees, 1 when some verdict differs
 * (bpfvet's "unsupported" counts as a difference), 2 on usage or load
 * errors. Programs the kernel refuses before verifying them are shown as
 * "refused" and never counted as rejections or differences.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpfvet.h"
#include "cli.h"
#include "kernel_cli.h"

struct kargs {
	const char **paths;
	int path_cnt;
	struct prog_filter filter;
	const char *type;
	enum out_fmt fmt;
	uint32_t log_level;
	uint32_t prog_flags;
	struct caps_args caps;
	size_t log_size;
	unsigned int time_limit;	/* --time-limit S: 0 for none */
	struct open_args open;
	bool log_diff;
	bool kernel_only;
	bool quiet;
};

static void kernel_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet kernel OBJ.o... [options]\n"
		"Loads every program into the running kernel and verifies it with bpfvet,\n"
		"then compares the verdicts and statistics.\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"                 (repeatable; !GLOB leaves out what it matches)\n"
		"  -t TYPE        program type for every program (xdp, sched_cls, ...)\n"
		"  -o FMT         output: table (default), csv or json\n"
		"  -l LEVEL       print both logs (1: failing path, 2: all; 4 is always on)\n"
		"  --log-diff     load both at level 2 and show the first line where the\n"
		"                 logs diverge (map and kernel addresses, kfunc ids and\n"
		"                 the verification time are masked)\n"
		"  -f, --flags N  extra BPF_F_* load flags for both (e.g. 0x84: RND_HI32 |\n"
		"                 REG_INVARIANTS, as the selftest loader)\n"
		"%s"
		"  --log-size N   first kernel log buffer size in bytes\n"
		"  --time-limit S interrupt a load the kernel has not decided in S\n"
		"                 seconds (verdict 'timeout'; for slow emulated kernels)\n"
		"  --kernel-only  only load into the kernel (reference data)\n"
		"  -q             no output, only the exit status\n"
		"bpfvet targets the running kernel: /sys/kernel/btf/vmlinux,\n"
		"/proc/config.gz or /boot/config-RELEASE and its release, unless set by:\n"
		"%s"
		"Exit status: 0 all verdicts agree, 1 some differ (or bpfvet says\n"
		"unsupported), 2 usage or load errors.\n", caps_args_usage, open_args_usage);
}

static const char *opt_value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc) {
		fprintf(stderr, "bpfvet kernel: option %s needs a value\n", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

static int parse_number(const char *opt, const char *v, unsigned long long max,
			unsigned long long *out)
{
	char *end;

	errno = 0;
	*out = strtoull(v, &end, 0);
	if (errno || end == v || *end || *out > max) {
		fprintf(stderr, "bpfvet kernel: bad value '%s' for %s\n", v, opt);
		return -EINVAL;
	}
	return 0;
}

static int parse_format(const char *v, enum out_fmt *fmt)
{
	if (!strcmp(v, "table"))
		*fmt = OUT_TABLE;
	else if (!strcmp(v, "csv"))
		*fmt = OUT_CSV;
	else if (!strcmp(v, "json"))
		*fmt = OUT_JSON;
	else {
		fprintf(stderr, "bpfvet kernel: unknown output format '%s'\n", v);
		return -EINVAL;
	}
	return 0;
}

static bool parse_switch(const char *s, struct kargs *a)
{
	if (caps_args_parse(s, &a->caps))
		return true;
	if (!strcmp(s, "--log-diff"))
		a->log_diff = true;
	else if (!strcmp(s, "--kernel-only"))
		a->kernel_only = true;
	else if (!strcmp(s, "-q"))
		a->quiet = true;
	else
		return false;
	return true;
}

static int parse_option(int argc, char **argv, int *i, void *args)
{
	struct kargs *a = args;
	const char *s = argv[*i], *v;
	unsigned long long n;

	if (parse_switch(s, a))
		return 0;
	switch (open_args_parse(argc, argv, i, &a->open)) {
	case 1:
		return 0;
	case -1:
		return -EINVAL;
	}
	if (strcmp(s, "-p") && strcmp(s, "-t") && strcmp(s, "-o") && strcmp(s, "-l") &&
	    strcmp(s, "-f") && strcmp(s, "--flags") && strcmp(s, "--log-size") &&
	    strcmp(s, "--time-limit")) {
		fprintf(stderr, "bpfvet kernel: bad option '%s'\n", s);
		return -EINVAL;
	}
	v = opt_value(argc, argv, i);
	if (!v)
		return -EINVAL;
	if (!strcmp(s, "-p"))
		return prog_filter_add(&a->filter, v) ? -EINVAL : 0;
	if (!strcmp(s, "-t"))
		a->type = v;
	else if (!strcmp(s, "-o"))
		return parse_format(v, &a->fmt);
	else if (!strcmp(s, "-l")) {
		if (parse_number(s, v, 7, &n))
			return -EINVAL;
		a->log_level = (uint32_t)n;
	} else if (!strcmp(s, "--log-size")) {
		if (parse_number(s, v, 1ull << 30, &n))
			return -EINVAL;
		a->log_size = (size_t)n;
	} else if (!strcmp(s, "--time-limit")) {
		if (parse_number(s, v, 86400, &n) || !n)
			return -EINVAL;
		a->time_limit = (unsigned int)n;
	} else {
		if (parse_number(s, v, UINT32_MAX, &n))
			return -EINVAL;
		a->prog_flags = (uint32_t)n;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct kargs *a)
{
	const struct obj_args_parser p = { parse_option, a, kernel_usage };
	int rc = obj_args_scan(argc, argv, &p, &a->paths, &a->path_cnt);

	if (rc)
		return rc;
	if (a->log_diff && a->kernel_only) {
		fprintf(stderr, "bpfvet kernel: --log-diff needs both sides, not --kernel-only\n");
		return -EINVAL;
	}
	/* A bad target option is a usage error of the whole run, told once,
	 * not a reason to verify each object for no target at all. */
	if (!a->kernel_only) {
		struct bpfvet_open_opts oo = { .sz = sizeof(oo) };
		char cfg[300];

		a->open.target_running = 1;
		if (open_args_apply(&a->open, &oo, cfg, sizeof(cfg)))
			return -EINVAL;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Running both verifiers                                              */
/* ------------------------------------------------------------------ */

/* ctx: the stream of the logs (log_stream). */
static void print_log(void *ctx, const char *text, size_t len)
{
	fwrite(text, 1, len, ctx);
}

/* With -o json stdout is one JSON document: the logs go to stderr. */
static FILE *log_stream(const struct kargs *a)
{
	return a->fmt == OUT_JSON ? stderr : stdout;
}

static void keep_log(void *ctx, const char *text, size_t len)
{
	logbuf_append(ctx, text, len);
}

static uint32_t level_for(const struct kargs *a)
{
	return a->log_diff ? BPFVET_LOG_LEVEL2 | BPFVET_LOG_STATS : a->log_level;
}

static void on_alarm(int sig)
{
	(void)sig;	/* only there to interrupt the load */
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The verifier stops with EAGAIN when a signal is pending: an alarm bounds
 * a load that an emulated kernel would take an hour to decide. */
static int load_in_time(const struct kargs *a, const struct bpfvet_program *prog,
			const struct bpfvet_kernel_opts *o, struct krow *row)
{
	struct sigaction sa = { .sa_handler = on_alarm };
	double start;
	int err;

	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		return -errno;
	start = now_s();
	alarm(a->time_limit);
	err = bpfvet_program__kernel_load(prog, o, &row->k);
	alarm(0);
	if (!err && row->k.err == -EAGAIN && now_s() - start >= a->time_limit) {
		row->timed_out = true;
		snprintf(row->k.error, sizeof(row->k.error),
			 "no verdict within %u s: the load was interrupted", a->time_limit);
	}
	return err;
}

static int run_kernel(const struct kargs *a, struct bpfvet_kernel *k,
		      const struct bpfvet_program *prog, struct krow *row,
		      struct logbuf *log)
{
	struct bpfvet_kernel_opts o = {
		.sz = sizeof(o), .kernel = k, .log_level = level_for(a),
		.prog_flags = a->prog_flags, .drop_caps = a->caps.drop_caps,
		.log_size = a->log_size,
	};

	if (a->log_diff) {
		o.log_fn = keep_log;
		o.log_ctx = log;
	} else if (a->log_level) {
		fprintf(log_stream(a), "Kernel log for %s/%s:\n", row->file, row->prog);
		o.log_fn = print_log;
		o.log_ctx = log_stream(a);
	}
	row->k.sz = sizeof(row->k);
	if (!a->time_limit)
		return bpfvet_program__kernel_load(prog, &o, &row->k);
	return load_in_time(a, prog, &o, row);
}

static int run_bpfvet(const struct kargs *a, const struct bpfvet_program *prog,
		      struct krow *row, struct logbuf *log)
{
	struct bpfvet_verify_opts o = {
		.sz = sizeof(o), .log_level = level_for(a), .prog_flags = a->prog_flags,
		.drop_caps = a->caps.drop_caps,
	};
	int err;

	if (a->log_diff) {
		o.log_fn = keep_log;
		o.log_ctx = log;
	} else if (a->log_level) {
		fprintf(log_stream(a), "bpfvet log for %s/%s:\n", row->file, row->prog);
		o.log_fn = print_log;
		o.log_ctx = log_stream(a);
	}
	row->v.sz = sizeof(row->v);
	row->have_v = true;
	err = bpfvet_program__verify(prog, &o, &row->v);
	/* The loader refused the program (a non-libbpf loader's problem of
	 * that program alone): a row, as on the kernel side. */
	return err == -ENOEXEC ? 0 : err;
}

static int run_prog(const struct kargs *a, struct bpfvet_kernel *k, const char *path,
		    const struct bpfvet_program *prog, const struct bpfvet_program *vprog,
		    struct rows *rows)
{
	struct logbuf klog = { 0 }, vlog = { 0 };
	struct krow *row = rows_add(rows, sizeof(*row));
	int err;

	if (!row)
		return -ENOMEM;
	row->file = strdup(rows_base_name(path));
	row->prog = strdup(bpfvet_program__name(prog));
	row->section = strdup(bpfvet_program__section(prog));
	row->type = bpfvet_prog_type_name(bpfvet_program__type(prog));
	err = row->file && row->prog && row->section ? run_kernel(a, k, prog, row, &klog) : -ENOMEM;
	if (err)
		fprintf(stderr, "bpfvet kernel: %s/%s: kernel load failed to run: %s\n",
			rows_base_name(path), bpfvet_program__name(prog), strerror(-err));
	if (!err && !a->kernel_only) {
		err = run_bpfvet(a, vprog, row, &vlog);
		if (err)
			fprintf(stderr, "bpfvet kernel: %s/%s: verification failed to run: %s\n",
				rows_base_name(path), bpfvet_program__name(prog), strerror(-err));
	}
	if (!err && a->log_diff)
		err = logdiff_compare(&klog, &vlog, &row->diff);
	if (!err && a->log_diff && !a->quiet && a->fmt == OUT_TABLE)
		printf("Log diff for %s/%s: %s\n", row->file, row->prog, row->diff);
	logbuf_free(&klog);
	logbuf_free(&vlog);
	if (err) {
		/* No verdict: the row would only mislead. */
		free(row->file);
		free(row->prog);
		free(row->section);
		free(row->diff);
		rows->cnt--;
	}
	return err;
}

static bool selected(const struct kargs *a, const struct bpfvet_program *p)
{
	return prog_filter_match(&a->filter, p);
}

/*
 * bpfvet's copy of the object, opened for the running kernel as its target
 * (CO-RE applied against its BTF, .kconfig filled). The kernel side keeps
 * the plain object: its loader applies CO-RE and externs itself. NULL when
 * that open fails: bpfvet then verifies the plain object.
 */
static struct bpfvet_object *open_for_bpfvet(struct kargs *a, const char *path)
{
	char errbuf[256] = "", cfg[300];
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .prog_type = a->type, .errbuf = errbuf,
		.errbuf_sz = sizeof(errbuf),
	};
	struct bpfvet_object *obj;
	int err;

	/* The running kernel is the target of what no option sets, its
	 * verifier rules included (parse_args set target_running). */
	if (a->kernel_only)
		return NULL;
	if (open_args_apply(&a->open, &oo, cfg, sizeof(cfg)) ||
	    open_args_share_target(&a->open, &oo))
		return NULL;
	oo.loader_drop_caps = caps_args_loader(&a->caps);
	err = bpfvet_object__open(path, &oo, &obj);
	if (!err)
		return obj;
	fprintf(stderr, "bpfvet kernel: %s: for bpfvet: %s\n", path,
		errbuf[0] ? errbuf : strerror(-err));
	return NULL;
}

static int run_object(struct kargs *a, struct bpfvet_kernel *k, const char *path,
		      struct rows *rows)
{
	char errbuf[256] = "";
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .prog_type = a->type, .errbuf = errbuf,
		.errbuf_sz = sizeof(errbuf),
	};
	struct bpfvet_object *obj, *vobj;
	int err;

	/* The kernel side loads by the same conventions as bpfvet's, so that
	 * its column shows what the object's own loader would get. */
	if (bpfvet_conventions_by_name(a->open.loader ? a->open.loader : "auto",
				       &oo.conventions)) {
		fprintf(stderr, "bpfvet kernel: unknown loader '%s'\n", a->open.loader);
		return -EINVAL;
	}
	oo.loader_drop_caps = caps_args_loader(&a->caps);
	/* The kernel applies CO-RE only with the object's BTF, which a
	 * loader without CAP_BPF cannot load: libbpf then relocates in
	 * userspace against the kernel BTF any user may read. */
	if ((oo.loader_drop_caps & BPFVET_CAP_BPF) && !access("/sys/kernel/btf/vmlinux", R_OK))
		oo.btf_custom_path = "/sys/kernel/btf/vmlinux";
	err = bpfvet_object__open(path, &oo, &obj);
	if (err) {
		fprintf(stderr, "bpfvet kernel: %s: %s\n", path, errbuf[0] ? errbuf : strerror(-err));
		return err;
	}
	vobj = open_for_bpfvet(a, path);
	if (vobj && bpfvet_object__prog_cnt(vobj) != bpfvet_object__prog_cnt(obj)) {
		bpfvet_object__close(vobj);
		vobj = NULL;
	}
	/* A program that cannot be run is reported and skipped; the others
	 * still get their rows, and the exit status says 2 in the end. */
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj) && err != -ENOMEM; i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);
		struct bpfvet_program *vp = vobj ? bpfvet_object__prog(vobj, i) : p;
		int rc = selected(a, p) ? run_prog(a, k, path, p, vp, rows) : 0;

		if (rc && !err)
			err = rc;
	}
	bpfvet_object__close(vobj);
	bpfvet_object__close(obj);
	return err;
}

static int exit_status(const struct kargs *a, const struct rows *rows)
{
	const struct krow *v = rows->v;

	if (a->kernel_only)
		return EXIT_ACCEPTED;
	for (size_t i = 0; i < rows->cnt; i++) {
		enum krow_match m = krow_match(&v[i]);

		if (m == MATCH_NO || m == MATCH_UNSUPPORTED)
			return EXIT_REJECTED;
	}
	return EXIT_ACCEPTED;
}

static void free_rows(struct rows *rows)
{
	struct krow *v = rows->v;

	for (size_t i = 0; i < rows->cnt; i++) {
		free(v[i].file);
		free(v[i].prog);
		free(v[i].section);
		free(v[i].diff);
	}
	free(v);
}

/* --unpriv needs kernel.unprivileged_bpf_disabled=0: root lowers 2 for
 * the run, restored before cmd_kernel returns, at exit or on a signal. */
static int open_unpriv(const struct kargs *a, struct bpfvet_unpriv_bpf **gp)
{
	char why[160];
	int st;

	*gp = NULL;
	if (!(a->caps.drop_caps & BPFVET_CAP_BPF))
		return 0;
	st = bpfvet_unpriv_bpf__open(gp, why, sizeof(why));
	if (st < 0) {
		fprintf(stderr, "bpfvet kernel: unprivileged_bpf_disabled: %s\n", strerror(-st));
		return st;
	}
	if (st == BPFVET_UNPRIV_LOCKED || st == BPFVET_UNPRIV_DISABLED || st == BPFVET_UNPRIV_UNKNOWN)
		fprintf(stderr, "bpfvet kernel: %s: the kernel refuses every unprivileged load "
			"(shown as refused)\n", why);
	else if (st == BPFVET_UNPRIV_OPENED && !a->quiet)
		fprintf(stderr, "bpfvet kernel: %s\n", why);
	return 0;
}

int cmd_kernel(int argc, char **argv)
{
	struct bpfvet_unpriv_bpf *guard = NULL;
	struct kargs a = { 0 };
	struct rows rows = { 0 };
	struct bpfvet_kernel *k = NULL;
	int err = 0, obj_err = 0, rc, status;

	rc = parse_args(argc, argv, &a);
	if (rc) {
		free(a.paths);
		prog_filter_free(&a.filter);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	if (bpfvet_kernel__new(&k)) {
		fprintf(stderr, "bpfvet kernel: out of memory\n");
		free(a.paths);
		prog_filter_free(&a.filter);
		return EXIT_USAGE;
	}
	err = open_unpriv(&a, &guard);
	/* An object that cannot be opened (externs for the static linker,
	 * say) is reported and the next one still runs, as in verify; the
	 * exit status says 2 in the end. */
	for (int i = 0; !err && i < a.path_cnt; i++) {
		rc = run_object(&a, k, a.paths[i], &rows);
		if (rc == -ENOMEM)
			err = rc;
		else if (rc && !obj_err)
			obj_err = rc;
	}
	if (!err)
		err = obj_err;
	rc = bpfvet_unpriv_bpf__restore(guard);
	if (rc) {
		fprintf(stderr, "bpfvet kernel: cannot restore kernel.unprivileged_bpf_disabled=2: "
			"%s\n", strerror(-rc));
		err = rc;
	}
	status = exit_status(&a, &rows);
	if (!a.quiet) {
		if (a.fmt == OUT_CSV)
			kout_csv(rows.v, rows.cnt, a.kernel_only, a.log_diff);
		else if (a.fmt == OUT_JSON)
			kout_json(rows.v, rows.cnt, a.kernel_only, a.log_diff);
		else
			kout_table(rows.v, rows.cnt, a.kernel_only);
	}
	free_rows(&rows);
	free(a.paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	bpfvet_kernel__free(k);
	return err ? EXIT_USAGE : status;
}
