/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Differential test of the ctx access rules against the running kernel.
 * For every program variant of ctx_fixture.c, every probed offset and every
 * lane (ldx 1/2/4/8, ldsx 1/2/4, stx and st 1/2/4/8) a three-instruction
 * program is loaded at log level 2:
 *     r2 = *(size *)(r1 + off)        (or a store through r1)
 *     r0 = 1                          (allowed by every return range)
 *     exit
 * The kernel's verdict (and for loads the type it gives R2) must equal
 * ctx_access_check()'s, and the checked-in fixture must still describe the
 * kernel. CTX_FIXTURE_WRITE=1 rewrites the fixtures instead of comparing
 * with them. Needs root on Linux 6.18; skips otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "ctx_fixture.h"
#include "ctx_rules.h"
#include "test.h"

#define LOG_SIZE (64u * 1024)
#define MAX_REPORTS 8

struct kenv {
	char *log;
	char release[65];
	bool write_fixtures;
	const struct ctxfix_variant *v;	/* the variant under test */
};

static struct kenv g_env;

static uint8_t size_code(int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

/* The probe program for a lane at `off`; returns its length. */
static int build_probe(struct bpf_insn *insns, const struct ctxfix_lane *lane,
		       int off)
{
	int n = 0;

	memset(insns, 0, 4 * sizeof(*insns));
	switch (lane->kind) {
	case CTXFIX_LDX:
	case CTXFIX_LDSX:
		insns[n].code = BPF_LDX | size_code(lane->size) |
				(lane->kind == CTXFIX_LDX ? BPF_MEM : 0x80);
		insns[n].dst_reg = 2;
		insns[n].src_reg = 1;
		insns[n++].off = (int16_t)off;
		break;
	case CTXFIX_STX:
		insns[n].code = BPF_ALU64 | BPF_MOV | BPF_K;
		insns[n++].dst_reg = 2;
		insns[n].code = BPF_STX | BPF_MEM | size_code(lane->size);
		insns[n].dst_reg = 1;
		insns[n].src_reg = 2;
		insns[n++].off = (int16_t)off;
		break;
	case CTXFIX_ST:
		insns[n].code = BPF_ST | BPF_MEM | size_code(lane->size);
		insns[n].dst_reg = 1;
		insns[n++].off = (int16_t)off;
		break;
	}
	insns[n].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[n++].imm = 1;
	insns[n++].code = BPF_JMP | BPF_EXIT;
	return n;
}

static int load(const struct ctxfix_variant *v, const struct bpf_insn *insns,
		int cnt, char *log)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = v->attach,
		    .prog_flags = v->prog_flags,
		    .log_buf = log, .log_size = LOG_SIZE, .log_level = 2);
	int fd;

	log[0] = 0;
	fd = bpf_prog_load(v->prog_type, NULL, "GPL", insns, cnt, &opts);
	if (fd >= 0)
		close(fd);
	return fd < 0 ? -errno : 0;
}

/* Type letter of R2 in the trace line of instruction 0, or '?'. */
static char loaded_type(const char *log)
{
	const char *line = strstr(log, "\n0: (");
	const char *end, *r2, *name;

	if (!line)
		return '?';
	end = strchr(line + 1, '\n');
	r2 = strstr(line, " R2=");
	if (!r2 || (end && r2 > end))
		return '?';
	name = r2 + 4;
	char c = ctxfix_letter_of_log_name(name, strcspn(name, "( \n"));
	return c ? c : '?';
}

/* The last message line before the "processed ..." summary. */
static void last_message(const char *log, char *buf, size_t sz)
{
	const char *stop = strstr(log, "\nprocessed ");
	const char *p = stop ? stop : log + strlen(log);
	const char *start;

	while (p > log && p[-1] == '\n')
		p--;
	start = p;
	while (start > log && start[-1] != '\n')
		start--;
	snprintf(buf, sz, "%.*s", (int)(p - start), start);
}

static char probe(struct ctxfix_grid *g, const struct ctxfix_lane *lane,
		  int off)
{
	struct bpf_insn insns[4];
	char want[80], msg[CTXFIX_MSG_LEN];
	int cnt = build_probe(insns, lane, off);
	int err = load(g->v, insns, cnt, g_env.log);

	if (!err)
		return lane->kind == CTXFIX_STX || lane->kind == CTXFIX_ST
			       ? 'w'
			       : loaded_type(g_env.log);
	if (!g_env.log[0])
		return 'x';
	snprintf(want, sizeof(want), "\ninvalid bpf_context access off=%d size=%d\n",
		 off, lane->size);
	if (strstr(g_env.log, want))
		return '.';
	last_message(g_env.log, msg, sizeof(msg));
	return ctxfix_grid_msg(g, msg);
}

/* Loads "r0 = 1; exit": a failure with an empty log means the kernel
 * refuses the variant before verifying anything. */
static bool variant_refused(struct ctxfix_grid *g)
{
	struct bpf_insn insns[2] = { { 0 } };
	int err;

	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[0].imm = 1;
	insns[1].code = BPF_JMP | BPF_EXIT;
	err = load(g->v, insns, 2, g_env.log);
	if (!err || g_env.log[0])
		return false;
	g->refused = true;
	g->refused_errno = -err;
	return true;
}

static void probe_all(struct ctxfix_grid *g)
{
	if (variant_refused(g))
		return;
	for (int li = 0; li < CTXFIX_NLANES; li++)
		for (int i = 0; i < g->noffs; i++)
			g->cells[li * g->noffs + i] =
				probe(g, &ctxfix_lanes[li], ctxfix_off_at(g->v, i));
}

/* Kernel verdicts against ctx_access_check(). */
static void compare_rules(struct test_ctx *t, const struct ctxfix_grid *g)
{
	int reports = 0;

	if (g->refused)
		return;
	for (int li = 0; li < CTXFIX_NLANES; li++) {
		const struct ctxfix_lane *lane = &ctxfix_lanes[li];

		for (int i = 0; i < g->noffs; i++) {
			int off = ctxfix_off_at(g->v, i);
			char k = g->cells[li * g->noffs + i];
			char p = ctxfix_predict(g->v, lane, off);

			if (k == p)
				continue;
			if (reports++ < MAX_REPORTS)
				printf("  %s %s off=%d: kernel '%c'%s%s, rules '%c'\n",
				       g->v->name, lane->name, off, k,
				       k >= '0' && k <= '9' ? " " : "",
				       k >= '0' && k <= '9' ? g->msgs[k - '0'] : "",
				       p);
		}
	}
	CHECK_MSG(t, reports == 0, "%d verdicts differ from the rules", reports);
}

/* Kernel verdicts against the checked-in fixture. */
static void compare_fixture(struct test_ctx *t, const struct ctxfix_grid *g,
			    const char *path)
{
	struct ctxfix_grid f;
	char err[256];
	size_t n = (size_t)g->noffs * CTXFIX_NLANES;

	if (ctxfix_grid_init(&f, g->v)) {
		CHECK_MSG(t, 0, "out of memory");
		return;
	}
	if (ctxfix_read(path, &f, err, sizeof(err))) {
		CHECK_MSG(t, 0, "%s", err);
	} else {
		CHECK_MSG(t, f.refused == g->refused, "%s: refused %d, kernel %d",
			  path, f.refused, g->refused);
		CHECK_MSG(t, g->refused || !memcmp(f.cells, g->cells, n),
			  "%s no longer matches the kernel", path);
		CHECK_INT(t, f.nmsgs, g->nmsgs);
		for (int i = 0; i < f.nmsgs && i < g->nmsgs; i++)
			CHECK_STR(t, f.msgs[i], g->msgs[i]);
	}
	ctxfix_grid_free(&f);
}

static void run_variant(struct test_ctx *t)
{
	struct ctxfix_grid g;
	char path[256];

	if (ctxfix_grid_init(&g, g_env.v)) {
		CHECK_MSG(t, 0, "out of memory");
		return;
	}
	probe_all(&g);
	if (g.refused)
		printf("  %s: refused before verification (errno %d)\n",
		       g.v->name, g.refused_errno);
	for (int i = 0; !g.refused && i < g.noffs * CTXFIX_NLANES; i++)
		CHECK_MSG(t, g.cells[i] != '?' && g.cells[i] != 'x',
			  "unexpected verdict '%c' at cell %d", g.cells[i], i);
	compare_rules(t, &g);
	snprintf(path, sizeof(path), "%s/%s.txt", CTXFIX_DIR, g.v->name);
	if (g_env.write_fixtures)
		CHECK_INT(t, ctxfix_write(path, &g, g_env.release), 0);
	else
		compare_fixture(t, &g, path);
	ctxfix_grid_free(&g);
}

static bool kernel_usable(char *why, size_t sz)
{
	struct utsname u;
	struct bpf_insn insns[2] = { { 0 } };
	int fd;

	if (uname(&u) || strncmp(u.release, "6.18", 4) != 0 ||
	    (u.release[4] != '.' && u.release[4] != '-' && u.release[4])) {
		snprintf(why, sz, "kernel is not Linux 6.18");
		return false;
	}
	snprintf(g_env.release, sizeof(g_env.release), "%s", u.release);
	insns[0].code = BPF_ALU64 | BPF_MOV | BPF_K;
	insns[1].code = BPF_JMP | BPF_EXIT;
	fd = bpf_prog_load(BPF_PROG_TYPE_SCHED_CLS, NULL, "GPL", insns, 2, NULL);
	if (fd < 0) {
		snprintf(why, sz, "cannot load privileged BPF programs: %s",
			 strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

int main(void)
{
	struct test_ctx t = { 0 };
	char why[128], name[96];

	if (!kernel_usable(why, sizeof(why))) {
		printf("SKIP test_ctx_kernel: %s\n", why);
		return 0;
	}
	g_env.log = malloc(LOG_SIZE);
	if (!g_env.log) {
		printf("FAIL test_ctx_kernel: out of memory\n");
		return 1;
	}
	g_env.write_fixtures = getenv("CTX_FIXTURE_WRITE") != NULL;
	for (size_t i = 0; i < ctxfix_nvariants; i++) {
		g_env.v = &ctxfix_variants[i];
		snprintf(name, sizeof(name), "ctx_kernel_%s", g_env.v->name);
		test_run(&t, name, run_variant);
	}
	free(g_env.log);
	return test_finish(&t);
}
