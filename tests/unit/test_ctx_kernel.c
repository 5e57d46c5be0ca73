/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ctx access rules against Linux 6.18's verdicts. For every program
 * variant of ctx_fixture.c, every probed offset and every lane (ldx
 * 1/2/4/8, ldsx 1/2/4, stx and st 1/2/4/8) the kernel was given, at log
 * level 2, a three-instruction program:
 *     r2 = *(size *)(r1 + off)        (or a store through r1)
 *     r0 = 1                          (allowed by every return range)
 *     exit
 * and its verdict (for loads, with the type it gave R2) is recorded in
 * tests/fixtures/ctx/VARIANT.txt.
 *
 * Normal run: ctx_access_check()'s verdict must equal the recorded one in
 * every cell of every variant (no kernel needed; test_ctx.c holds the
 * same record to the rules in one case, plus what a record cannot show).
 * --live: probes the running kernel again and prints a DRIFT line for
 * every cell (or variant status) that differs from the record.
 * CTX_FIXTURE_WRITE=1: rewrites the records from the running kernel,
 * comparing the rules with it as it goes. Both need root on Linux 6.18.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "ctx_fixture.h"
#include "rules/ctx_rules.h"
#include "live.h"
#include "test.h"

#define LOG_SIZE (64u * 1024)
#define MAX_REPORTS 8

struct kenv {
	char *log;
	char release[65];
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

/* The kernel's verdicts (`whose`: recorded or live) against
 * ctx_access_check()'s. */
static void compare_rules(struct test_ctx *t, const struct ctxfix_grid *g,
			  const char *whose)
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
				printf("  %s %s off=%d: %s '%c'%s%s, rules '%c'\n",
				       g->v->name, lane->name, off, whose, k,
				       k >= '0' && k <= '9' ? " " : "",
				       k >= '0' && k <= '9' ? g->msgs[k - '0'] : "",
				       p);
		}
	}
	CHECK_MSG(t, reports == 0, "%s: %d verdicts differ from the rules",
		  g->v->name, reports);
}

/* Every cell of a verified variant holds a verdict: '?' would be a cell
 * the record misses, 'x' a refusal inside a variant that verifies. */
static void check_cells(struct test_ctx *t, const struct ctxfix_grid *g)
{
	for (int i = 0; !g->refused && i < g->noffs * CTXFIX_NLANES; i++)
		CHECK_MSG(t, g->cells[i] != '?' && g->cells[i] != 'x',
			  "%s: unexpected verdict '%c' at cell %d", g->v->name,
			  g->cells[i], i);
}

static void fixture_path(const struct ctxfix_variant *v, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s.txt", CTXFIX_DIR, v->name);
}

/* Reads the record of a variant; 0 or a negative errno (reason in err). */
static int read_record(const struct ctxfix_variant *v, struct ctxfix_grid *g,
		       char *err, size_t errsz)
{
	char path[256];
	int rc;

	if (ctxfix_grid_init(g, v)) {
		snprintf(err, errsz, "out of memory");
		return -ENOMEM;
	}
	fixture_path(v, path, sizeof(path));
	rc = ctxfix_read(path, g, err, errsz);
	if (rc)
		ctxfix_grid_free(g);
	return rc;
}

/* Normal run: the rules against the record of one variant. */
static void check_recorded(struct test_ctx *t)
{
	struct ctxfix_grid g;
	char err[256];

	if (read_record(g_env.v, &g, err, sizeof(err))) {
		CHECK_MSG(t, 0, "%s", err);
		return;
	}
	check_cells(t, &g);
	compare_rules(t, &g, "recorded");
	ctxfix_grid_free(&g);
}

/* CTX_FIXTURE_WRITE=1: the rules against the kernel, whose verdicts are
 * written as the new record. */
static void check_and_record(struct test_ctx *t)
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
	check_cells(t, &g);
	compare_rules(t, &g, "kernel");
	fixture_path(g.v, path, sizeof(path));
	CHECK_INT(t, ctxfix_write(path, &g, g_env.release), 0);
	ctxfix_grid_free(&g);
}

/* A verdict as a reader of the record would name it. */
static void describe(const struct ctxfix_grid *g, char c, char *buf, size_t sz)
{
	if (c >= '0' && c <= '9' && c - '0' < g->nmsgs) {
		snprintf(buf, sz, "\"%s\"", g->msgs[c - '0']);
		return;
	}
	switch (c) {
	case '.':
		snprintf(buf, sz, "'.' (invalid bpf_context access)");
		return;
	case 'w':
		snprintf(buf, sz, "'w' (store accepted)");
		return;
	case 'x':
		snprintf(buf, sz, "'x' (refused before verification)");
		return;
	}
	for (size_t i = 0; i < ctxfix_ntypes; i++) {
		if (ctxfix_types[i].letter == c) {
			snprintf(buf, sz, "'%c' (load gives %s)", c,
				 ctxfix_types[i].log_name);
			return;
		}
	}
	snprintf(buf, sz, "'%c'", c);
}

/* --live: one variant's live verdicts against its record. */
static void drift_variant(struct drift *d, const struct ctxfix_grid *rec,
			  const struct ctxfix_grid *live)
{
	char item[160], r[200], l[200];

	snprintf(item, sizeof(item), "ctx/%s", rec->v->name);
	if (rec->refused || live->refused) {
		snprintf(r, sizeof(r), rec->refused ? "refused errno=%d" : "verified",
			 rec->refused_errno);
		snprintf(l, sizeof(l), live->refused ? "refused errno=%d" : "verified",
			 live->refused_errno);
		if (strcmp(r, l))
			drift_field(d, item, "status", r, l);
		drift_item_end(d);
		return;
	}
	for (int li = 0; li < CTXFIX_NLANES; li++) {
		for (int i = 0; i < rec->noffs; i++) {
			int c = li * rec->noffs + i;

			describe(rec, rec->cells[c], r, sizeof(r));
			describe(live, live->cells[c], l, sizeof(l));
			if (strcmp(r, l)) {
				snprintf(item, sizeof(item), "ctx/%s %s off=%d",
					 rec->v->name, ctxfix_lanes[li].name,
					 ctxfix_off_at(rec->v, i));
				drift_field(d, item, "verdict", r, l);
			}
			drift_item_end(d);
		}
	}
}

static int run_live(void)
{
	struct drift d;
	char err[256];

	drift_init(&d, "test_ctx_kernel");
	for (size_t i = 0; i < ctxfix_nvariants; i++) {
		struct ctxfix_grid rec, live;

		if (read_record(&ctxfix_variants[i], &rec, err, sizeof(err))) {
			printf("FAIL test_ctx_kernel: --live: %s\n", err);
			return 1;
		}
		if (ctxfix_grid_init(&live, &ctxfix_variants[i])) {
			ctxfix_grid_free(&rec);
			printf("FAIL test_ctx_kernel: --live: out of memory\n");
			return 1;
		}
		probe_all(&live);
		drift_variant(&d, &rec, &live);
		ctxfix_grid_free(&live);
		ctxfix_grid_free(&rec);
	}
	drift_summary(&d);
	return 0;
}

static void run_variants(struct test_ctx *t, void (*fn)(struct test_ctx *t))
{
	char name[96];

	for (size_t i = 0; i < ctxfix_nvariants; i++) {
		g_env.v = &ctxfix_variants[i];
		snprintf(name, sizeof(name), "ctx_kernel_%s", g_env.v->name);
		test_run(t, name, fn);
	}
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	bool write = getenv("CTX_FIXTURE_WRITE") != NULL, live;
	char why[256];
	int rc;

	if (live_parse_args(argc, argv, NULL, &live))
		return 2;
	if (!live && !write) {
		run_variants(&t, check_recorded);
		return test_finish(&t);
	}
	if (!live_is_6_18(g_env.release, sizeof(g_env.release))) {
		test_skip_named("test_ctx_kernel", "the running kernel is %s, "
				"the record is of Linux 6.18", g_env.release);
		return 0;
	}
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named("test_ctx_kernel", "%s", why);
		return 0;
	}
	g_env.log = malloc(LOG_SIZE);
	if (!g_env.log) {
		printf("FAIL test_ctx_kernel: out of memory\n");
		return 1;
	}
	if (live) {
		rc = run_live();
	} else {
		run_variants(&t, check_and_record);
		rc = test_finish(&t);
	}
	free(g_env.log);
	return rc;
}
