/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The map rules against the running kernel. Every program of the
 * tests/progs/maps_*.c objects is loaded alone with libbpf at log level 1,
 * as the selftests and veristat do; the kernel's verdict, processed
 * instructions, total and peak states and last message must equal both
 * bpfvet's and the checked-in fixture's (tests/fixtures/maps/expect.tsv,
 * which test_maps.c checks without a kernel). MAPS_FIXTURE_WRITE=1
 * rewrites the fixture instead of comparing with it. Needs root on Linux
 * 6.18; skips otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfvet.h"
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
	int err;

	if (!obj)
		return -errno;
	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), prog);

		bpf_program__set_autoload(p, me);
		if (me) {
			bpf_program__set_log_level(p, 1);
			bpf_program__set_log_buf(p, g_log, sizeof(g_log));
		}
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

static void check_row(struct test_ctx *t, const char *who, const struct mapsfix_row *want,
		      const struct mapsfix_row *got)
{
	CHECK_MSG(t, want->success == got->success && want->insns == got->insns &&
		     want->states == got->states && want->peak == got->peak &&
		     !strcmp(want->message, got->message),
		  "%s/%s: %s says %s %llu/%llu/%llu \"%s\", kernel %s %llu/%llu/%llu \"%s\"",
		  got->object, got->program, who, want->success ? "success" : "failure",
		  (unsigned long long)want->insns, (unsigned long long)want->states,
		  (unsigned long long)want->peak, want->message,
		  got->success ? "success" : "failure", (unsigned long long)got->insns,
		  (unsigned long long)got->states, (unsigned long long)got->peak, got->message);
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
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 64;
		struct mapsfix_row *grown = realloc(out->rows, cap * sizeof(*grown));

		if (!grown)
			return -ENOMEM;
		out->rows = grown;
		out->cap = cap;
	}
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
	struct results *out;	/* write mode: collected kernel rows */
} g_cur;

static void check_program(struct test_ctx *t)
{
	struct mapsfix_row k, v;
	const struct mapsfix_row *f;

	if (kernel_row(g_cur.path, g_cur.object, bpfvet_program__name(g_cur.prog), &k)) {
		CHECK_MSG(t, 0, "%s: libbpf cannot open it", g_cur.path);
		return;
	}
	bpfvet_row(t, g_cur.prog, g_cur.object, &v);
	check_row(t, "bpfvet", &v, &k);
	if (g_cur.out) {
		CHECK(t, add_row(g_cur.out, &k) == 0);
		return;
	}
	f = mapsfix_find(g_cur.fix, g_cur.nfix, g_cur.object, k.program);
	CHECK_MSG(t, f, "%s/%s: not in %s", g_cur.object, k.program, MAPSFIX_PATH);
	if (f)
		check_row(t, "the fixture", f, &k);
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
		test_run(t, case_name, check_program);
	}
	bpfvet_object__close(obj);
}

static const char *why_skip(void)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct utsname u;
	int fd;

	if (uname(&u) || strncmp(u.release, "6.18", 4))
		return "not Linux 6.18";
	fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, NULL, "GPL", ret0, 2, NULL);
	if (fd < 0)
		return "cannot load BPF programs";
	close(fd);
	return NULL;
}

int main(void)
{
	struct test_ctx t = { .name = "test_maps_kernel" };
	struct mapsfix_row *fix = NULL;
	struct results out = { 0 };
	bool write = getenv("MAPS_FIXTURE_WRITE") != NULL;
	const char *why;
	int n = 0;

	lu_quiet_libbpf();
	why = why_skip();
	if (why) {
		printf("SKIP test_maps_kernel: %s\n", why);
		return 0;
	}
	if (!write) {
		n = mapsfix_read(MAPSFIX_PATH, &fix);
		if (n <= 0) {
			printf("FAIL test_maps_kernel: %s: %d\n", MAPSFIX_PATH, n);
			return 1;
		}
	}
	g_cur.fix = fix;
	g_cur.nfix = n > 0 ? (size_t)n : 0;
	g_cur.out = write ? &out : NULL;
	for (size_t i = 0; i < mapsfix_nobjects; i++)
		run_object(&t, mapsfix_objects[i]);
	if (write && mapsfix_write(MAPSFIX_PATH, out.rows, out.n)) {
		printf("FAIL test_maps_kernel: cannot write %s\n", MAPSFIX_PATH);
		t.failed++;
	}
	free(out.rows);
	free(fix);
	return test_finish(&t);
}
