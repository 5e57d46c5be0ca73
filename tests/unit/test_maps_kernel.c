/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The map rules against Linux 6.18's answers for every program of the
 * tests/progs/maps_*.c objects: verdict, processed instructions, total and
 * peak states and last message, as the kernel gave them to a program
 * loaded alone with libbpf at log level 1 (as the selftests and veristat
 * do), recorded in tests/fixtures/maps/expect.tsv.
 *
 * Normal run: bpfvet's row for each program must equal the recorded one
 * (no kernel needed; test_maps.c checks the same record from the map
 * fields' side).
 * --live: loads every program into the running kernel and prints a DRIFT
 * line for each field where it differs from the record (see live.h).
 * MAPS_FIXTURE_WRITE=1: rewrites the record from the running kernel,
 * comparing bpfvet with the kernel as it goes. Both need root on 6.18.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfvet.h"
#include "live.h"
#include "loader_util.h"
#include "maps_fixture.h"
#include "test.h"

#define LOG_SIZE (1u << 20)

static char g_log[LOG_SIZE];

struct results {
	struct mapsfix_row *rows;
	size_t n, cap;
};

static bool starts_with(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/*
 * Statistics and message from a level-1 log. The message is the last line
 * before "processed ..."; a message printed without a newline (6.18's
 * tail call check) shares that line.
 */
static void parse_log(const char *log, struct mapsfix_row *r)
{
	char line[512], prev[256] = "";
	const char *p = log;

	while (*p) {
		size_t len = strcspn(p, "\n");
		const char *stats;
		unsigned long long insns, states, peak;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (p[len] == '\n');
		stats = strstr(line, "processed ");
		if (stats && sscanf(stats, "processed %llu insns (limit %*u) max_states_per_insn %*u total_states %llu peak_states %llu",
				    &insns, &states, &peak) == 3) {
			r->insns = insns;
			r->states = states;
			r->peak = peak;
			if (stats > line)
				snprintf(r->message, sizeof(r->message), "%.*s",
					 (int)(stats - line), line);
			else
				snprintf(r->message, sizeof(r->message), "%s", prev);
			continue;
		}
		if (line[0] && !starts_with(line, "verification time") &&
		    !starts_with(line, "stack depth"))
			snprintf(prev, sizeof(prev), "%s", line);
	}
}

/* Loads one program of an object alone; fills the kernel's row. */
static int kernel_row(const char *path, const char *object, const char *prog,
		      struct mapsfix_row *r)
{
	struct bpf_object *obj = bpf_object__open(path);
	struct bpf_program *p;
	bool found = false;
	int err;

	if (!obj)
		return -errno;
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, me);
		if (me) {
			found = true;
			bpf_program__set_log_level(p, 1);
			bpf_program__set_log_buf(p, g_log, sizeof(g_log));
		}
	}
	if (!found) {
		bpf_object__close(obj);
		return -ENOENT;
	}
	g_log[0] = '\0';
	err = bpf_object__load(obj);
	memset(r, 0, sizeof(*r));
	snprintf(r->object, sizeof(r->object), "%s", object);
	snprintf(r->program, sizeof(r->program), "%s", prog);
	r->success = !err;
	parse_log(g_log, r);
	if (r->success)
		r->message[0] = '\0';
	bpf_object__close(obj);
	return 0;
}

static void format_row(const struct mapsfix_row *r, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s %llu/%llu/%llu \"%s\"", r->success ? "success" : "failure",
		 (unsigned long long)r->insns, (unsigned long long)r->states,
		 (unsigned long long)r->peak, r->message);
}

static bool same_row(const struct mapsfix_row *a, const struct mapsfix_row *b)
{
	return a->success == b->success && a->insns == b->insns && a->states == b->states &&
	       a->peak == b->peak && !strcmp(a->message, b->message);
}

/* bpfvet's row against the record's or the kernel's (`whose`). */
static void check_row(struct test_ctx *t, const struct mapsfix_row *ours,
		      const char *whose, const struct mapsfix_row *want)
{
	char a[400], b[400];

	format_row(ours, a, sizeof(a));
	format_row(want, b, sizeof(b));
	CHECK_MSG(t, same_row(ours, want), "%s/%s: bpfvet says %s, %s %s", want->object,
		  want->program, a, whose, b);
}

/* The kernel's row against the record's, field by field. */
static void drift_row(struct drift *d, const struct mapsfix_row *rec,
		      const struct mapsfix_row *live)
{
	char item[160];

	snprintf(item, sizeof(item), "maps/%s/%s", live->object, live->program);
	if (rec->success != live->success)
		drift_field(d, item, "verdict", rec->success ? "success" : "failure",
			    live->success ? "success" : "failure");
	drift_num(d, item, "insns", (long long)rec->insns, (long long)live->insns);
	drift_num(d, item, "total_states", (long long)rec->states, (long long)live->states);
	drift_num(d, item, "peak_states", (long long)rec->peak, (long long)live->peak);
	drift_str(d, item, "message", rec->message, live->message);
	drift_item_end(d);
}

/* Level 1, as the kernel was asked: a silent rejection then ends on the
 * failing instruction's line. The log itself is not kept. */
static void discard_log(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	(void)text;
	(void)len;
}

static const struct bpfvet_verify_opts level1 = {
	.sz = sizeof(level1),
	.log_level = BPFVET_LOG_LEVEL1,
	.log_fn = discard_log,
};

static void bpfvet_row(struct test_ctx *t, const struct bpfvet_program *prog,
		       const char *object, struct mapsfix_row *r)
{
	struct bpfvet_result res = { .sz = sizeof(res) };
	int err = bpfvet_program__verify(prog, &level1, &res);

	CHECK_MSG(t, err == 0, "%s/%s: verify: %d", object, bpfvet_program__name(prog), err);
	memset(r, 0, sizeof(*r));
	snprintf(r->object, sizeof(r->object), "%s", object);
	snprintf(r->program, sizeof(r->program), "%s", bpfvet_program__name(prog));
	r->success = res.verdict == BPFVET_ACCEPTED;
	r->insns = res.insns_processed;
	r->states = res.total_states;
	r->peak = res.peak_states;
	snprintf(r->message, sizeof(r->message), "%s",
		 res.verdict == BPFVET_UNSUPPORTED ? "(bpfvet: unsupported)" : res.error);
}

static int add_row(struct results *out, const struct mapsfix_row *r)
{
	if (test_grow(&out->rows, out->n, &out->cap, sizeof(*out->rows)))
		return -ENOMEM;
	out->rows[out->n++] = *r;
	return 0;
}

/* The program under test, for test_run's callback. */
static struct {
	const char *object;
	char path[256];
	const struct bpfvet_program *prog;
	const struct mapsfix_row *fix;
	size_t nfix;
	bool *used;		/* fix[i] was compared */
	struct results *out;	/* write mode: collected kernel rows */
} g_cur;

/* Normal run: bpfvet against the record. */
static void check_recorded(struct test_ctx *t)
{
	const char *name = bpfvet_program__name(g_cur.prog);
	const struct mapsfix_row *f = mapsfix_find(g_cur.fix, g_cur.nfix, g_cur.object, name);
	struct mapsfix_row v;

	CHECK_MSG(t, f, "%s/%s: not in %s", g_cur.object, name, MAPSFIX_PATH);
	if (!f)
		return;
	g_cur.used[f - g_cur.fix] = true;
	bpfvet_row(t, g_cur.prog, g_cur.object, &v);
	check_row(t, &v, "recorded", f);
}

/* MAPS_FIXTURE_WRITE=1: bpfvet against the kernel, whose row is kept. */
static void check_and_record(struct test_ctx *t)
{
	struct mapsfix_row k, v;
	int err = kernel_row(g_cur.path, g_cur.object, bpfvet_program__name(g_cur.prog), &k);

	CHECK_MSG(t, !err, "%s/%s: libbpf cannot load it alone: %s", g_cur.object,
		  bpfvet_program__name(g_cur.prog), strerror(-err));
	if (err)
		return;
	bpfvet_row(t, g_cur.prog, g_cur.object, &v);
	check_row(t, &v, "the kernel", &k);
	CHECK(t, add_row(g_cur.out, &k) == 0);
}

static void run_object(struct test_ctx *t, const char *name)
{
	struct bpfvet_object *obj = lu_open(t, name, NULL);
	char case_name[160];

	g_cur.object = name;
	test_prog_path(g_cur.path, sizeof(g_cur.path), name);
	for (size_t i = 0; obj && i < bpfvet_object__prog_cnt(obj); i++) {
		g_cur.prog = bpfvet_object__prog(obj, i);
		snprintf(case_name, sizeof(case_name), "maps_kernel %s/%s", name,
			 bpfvet_program__name(g_cur.prog));
		test_run(t, case_name, g_cur.out ? check_and_record : check_recorded);
	}
	bpfvet_object__close(obj);
}

/* Every recorded row belongs to a program that was compared: --live asks
 * the kernel about the rows, so a stale row would drift forever. */
static void record_complete(struct test_ctx *t)
{
	for (size_t i = 0; i < g_cur.nfix; i++)
		CHECK_MSG(t, g_cur.used[i], "%s/%s: recorded, but no such program",
			  g_cur.fix[i].object, g_cur.fix[i].program);
}

static int run_recorded(void)
{
	struct test_ctx t = { 0 };
	struct mapsfix_row *fix = NULL;
	int n = mapsfix_read(MAPSFIX_PATH, &fix);

	if (n <= 0) {
		printf("FAIL test_maps_kernel: %s: %s\n", MAPSFIX_PATH,
		       n ? strerror(-n) : "no rows");
		return 1;
	}
	g_cur.fix = fix;
	g_cur.nfix = (size_t)n;
	g_cur.used = calloc((size_t)n, sizeof(*g_cur.used));
	if (!g_cur.used) {
		free(fix);
		printf("FAIL test_maps_kernel: out of memory\n");
		return 1;
	}
	for (size_t i = 0; i < mapsfix_nobjects; i++)
		run_object(&t, mapsfix_objects[i]);
	test_run(&t, "maps_kernel_record_complete", record_complete);
	free(g_cur.used);
	free(fix);
	return test_finish(&t);
}

static int run_write(void)
{
	struct test_ctx t = { 0 };
	struct results out = { 0 };
	char release[65];

	g_cur.out = &out;
	for (size_t i = 0; i < mapsfix_nobjects; i++)
		run_object(&t, mapsfix_objects[i]);
	live_is_6_18(release, sizeof(release));
	if (mapsfix_write(MAPSFIX_PATH, out.rows, out.n, release)) {
		printf("FAIL test_maps_kernel: cannot write %s\n", MAPSFIX_PATH);
		t.failed++;
	} else {
		printf("# wrote %zu rows to %s\n", out.n, MAPSFIX_PATH);
	}
	free(out.rows);
	return test_finish(&t);
}

/* --live: the kernel's row for every recorded program, against the
 * record. Programs are found by name with libbpf, not with bpfvet. */
static int run_live(void)
{
	struct mapsfix_row *fix = NULL, k;
	struct drift d;
	char path[256], item[160], what[300];
	int n = mapsfix_read(MAPSFIX_PATH, &fix);

	if (n <= 0) {
		printf("FAIL test_maps_kernel: --live: %s: %s\n", MAPSFIX_PATH,
		       n ? strerror(-n) : "no rows");
		return 1;
	}
	drift_init(&d, "test_maps_kernel");
	for (int i = 0; i < n; i++) {
		const struct mapsfix_row *f = &fix[i];
		int err;

		test_prog_path(path, sizeof(path), f->object);
		err = kernel_row(path, f->object, f->program, &k);
		if (err) {
			snprintf(item, sizeof(item), "maps/%s/%s", f->object, f->program);
			snprintf(what, sizeof(what), "%s (%s)",
				 err == -ENOENT ? "no such program" : "cannot open", path);
			drift_field(&d, item, "program", "present", what);
			drift_item_end(&d);
			continue;
		}
		drift_row(&d, f, &k);
	}
	drift_summary(&d);
	free(fix);
	return 0;
}

/* Why the kernel cannot be asked here, or NULL. */
static const char *why_not_live(char *why, size_t sz)
{
	char release[65];

	if (!live_is_6_18(release, sizeof(release))) {
		snprintf(why, sz, "the running kernel is %s, the record is of Linux 6.18",
			 release);
		return why;
	}
	return live_bpf_usable(why, sz) ? NULL : why;
}

int main(int argc, char **argv)
{
	bool write = getenv("MAPS_FIXTURE_WRITE") != NULL, live;
	char why[256];

	if (live_parse_args(argc, argv, NULL, &live))
		return 2;
	lu_quiet_libbpf();
	if (!live && !write)
		return run_recorded();
	if (why_not_live(why, sizeof(why))) {
		test_skip_named("test_maps_kernel", "%s", why);
		return 0;
	}
	return live ? run_live() : run_write();
}
