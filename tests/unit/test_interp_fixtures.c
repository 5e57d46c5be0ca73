/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interpreter fixtures (tests/fixtures/interp/FAMILY.txt.gz,
 * docs/interp-fixtures.md) without the kernel: every file parses as the
 * shared format says, and bpfvet accepts every recorded program, which
 * the running kernel accepted when it was recorded (the generator keeps
 * only those). A program bpfvet rejects is a disagreement with Linux and
 * fails the case with the program's index and bpfvet's message.
 *
 * Usage: test_interp_fixtures [FILE.txt.gz...]   (default: the three
 *        generated families and the crafted bpf_fib_lookup programs)
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <linux/bpf.h>

#include "bpfvet.h"
#include "test.h"

#define LINE_LEN 65536
#define MAX_MAPS 8

static const char *const default_files[] = {
	"tests/fixtures/interp/scalar.txt.gz",
	"tests/fixtures/interp/mem.txt.gz",
	"tests/fixtures/interp/branchy.txt.gz",
	"tests/fixtures/interp/fib.txt.gz",
};

struct fixture_prog {
	int index;
	uint32_t type;
	struct bpfvet_map_desc maps[MAX_MAPS];
	size_t nmaps;
	struct bpfvet_insn *insns;
	size_t ninsns;
	int runs;
};

struct file_state {
	struct test_ctx *t;
	const char *path;
	int lineno;
	bool in_prog;
	struct fixture_prog prog;
	int progs, runs, accepted;
	uint64_t sc_runs, sc_checked;	/* selfcheck's runs, followed to the end */
	int sc_bad;			/* programs with a violation */
};

static bool is_hex(const char *s, size_t *bytes)
{
	size_t n = strlen(s), i;

	if (!strcmp(s, "-")) {
		*bytes = 0;
		return true;
	}
	if (!n || n % 2)
		return false;
	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	*bytes = n / 2;
	return true;
}

static int hex_byte(const char *s)
{
	int v = 0, i;

	for (i = 0; i < 2; i++)
		v = v * 16 + (s[i] <= '9' ? s[i] - '0' : s[i] - 'a' + 10);
	return v;
}

#define BAD(st, ...)                                                         \
	do {                                                                 \
		test_fail((st)->t, (st)->path, (st)->lineno, __VA_ARGS__);   \
		return -EINVAL;                                              \
	} while (0)

static int parse_p(struct file_state *st, const char *line)
{
	char name[64];

	if (st->in_prog)
		BAD(st, "program not ended by '.'");
	memset(&st->prog, 0, sizeof(st->prog));
	if (sscanf(line, "p %d %63s", &st->prog.index, name) != 2 ||
	    bpfvet_prog_type_by_name(name, &st->prog.type))
		BAD(st, "bad program line: %.80s", line);
	if (st->prog.type != BPF_PROG_TYPE_SOCKET_FILTER &&
	    st->prog.type != BPF_PROG_TYPE_SCHED_CLS &&
	    st->prog.type != BPF_PROG_TYPE_XDP)
		BAD(st, "program type %s has no BPF_PROG_TEST_RUN here", name);
	st->in_prog = true;
	return 0;
}

static int parse_m(struct file_state *st, const char *line)
{
	struct bpfvet_map_desc *m;

	if (!st->in_prog || st->prog.ninsns || st->prog.nmaps == MAX_MAPS)
		BAD(st, "map line out of place");
	m = &st->prog.maps[st->prog.nmaps];
	*m = (struct bpfvet_map_desc){ .sz = sizeof(*m), .name = "m",
				       .inner_map_idx = -1 };
	if (sscanf(line, "m %u %u %u %u", &m->type, &m->key_size,
		   &m->value_size, &m->max_entries) != 4)
		BAD(st, "bad map line: %.80s", line);
	st->prog.nmaps++;
	return 0;
}

static int parse_c(struct file_state *st, const char *hex)
{
	size_t bytes, i;
	uint8_t *raw;

	if (!st->in_prog || st->prog.insns)
		BAD(st, "code line out of place");
	if (!is_hex(hex, &bytes) || !bytes || bytes % 8)
		BAD(st, "bad code line");
	raw = malloc(bytes);
	if (!raw)
		BAD(st, "out of memory");
	for (i = 0; i < bytes; i++)
		raw[i] = (uint8_t)hex_byte(hex + 2 * i);
	st->prog.insns = (struct bpfvet_insn *)raw;
	st->prog.ninsns = bytes / 8;
	return 0;
}

static size_t ctx_size(uint32_t type)
{
	return type == BPF_PROG_TYPE_XDP ? sizeof(struct xdp_md) :
		sizeof(struct __sk_buff);
}

static int parse_r(struct file_state *st, char *line)
{
	char *f[6], *save = NULL, *end;
	size_t n[6] = { 0 };
	unsigned long retval;
	int i;

	if (!st->in_prog || !st->prog.insns)
		BAD(st, "run line out of place");
	for (i = 0; i < 6; i++) {
		f[i] = strtok_r(i ? NULL : line, " ", &save);
		if (!f[i])
			BAD(st, "run line with %d fields", i);
	}
	if (strtok_r(NULL, " ", &save))
		BAD(st, "run line with extra fields");
	for (i = 1; i < 6; i++)
		if (i != 3 && !is_hex(f[i], &n[i]))
			BAD(st, "run field %d is not hex", i);
	errno = 0;
	retval = strtoul(f[3], &end, 10);
	if (errno || *end || retval > UINT32_MAX)
		BAD(st, "bad retval %s", f[3]);
	if (n[1] < 14 || !n[4])
		BAD(st, "packet of %zu bytes in, %zu out", n[1], n[4]);
	if (n[2] != n[5] || (n[2] && n[2] != ctx_size(st->prog.type)))
		BAD(st, "context of %zu bytes in, %zu out", n[2], n[5]);
	if (st->prog.type == BPF_PROG_TYPE_XDP && retval > 3)
		BAD(st, "xdp retval %lu", retval);
	st->prog.runs++;
	st->runs++;
	return 0;
}

/* bpfvet selfcheck on an accepted program: runs on random packets, each
 * compared with the verifier's states (INTERP_SELFCHECK_RUNS, default
 * 10; 0 leaves it out). Returns the violations. */
static uint64_t self_check(struct file_state *st, const struct bpfvet_program *prog)
{
	const char *env = getenv("INTERP_SELFCHECK_RUNS");
	struct bpfvet_selfcheck_opts so = {
		.sz = sizeof(so), .runs = env ? (uint32_t)strtoul(env, NULL, 10) : 10,
		.seed = (uint64_t)st->prog.index,
	};
	struct bpfvet_selfcheck_result sr = { .sz = sizeof(sr) };

	if (!so.runs)
		return 0;
	if (bpfvet_program__selfcheck(prog, &so, &sr)) {
		printf("%s: program %d: selfcheck did not run\n", st->path, st->prog.index);
		return 1;
	}
	st->sc_runs += sr.runs;
	st->sc_checked += sr.runs_checked;
	if (sr.violations)
		printf("%s: program %d: %s\n", st->path, st->prog.index, sr.violation);
	return sr.violations;
}

/* The program is complete: bpfvet must accept it as the kernel did, and
 * its states must hold the concrete runs. */
static int end_prog(struct file_state *st)
{
	struct fixture_prog *p = &st->prog;
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "interp", .prog_type = p->type,
		.insns = p->insns, .insn_cnt = p->ninsns, .maps = p->maps,
		.map_cnt = p->nmaps,
	};
	struct bpfvet_verify_opts vo = { .sz = sizeof(vo) };
	struct bpfvet_result res = { .sz = sizeof(res) };
	struct bpfvet_program *prog = NULL;
	int err;

	if (!st->in_prog || !p->insns || !p->runs)
		BAD(st, "program %d ends without code or runs", p->index);
	st->in_prog = false;
	st->progs++;
	err = bpfvet_program__from_insns(&o, &prog);
	if (!err)
		err = bpfvet_program__verify(prog, &vo, &res);
	if (!err && res.verdict == BPFVET_ACCEPTED && self_check(st, prog))
		st->sc_bad++;
	bpfvet_program__free(prog);
	free(p->insns);
	p->insns = NULL;
	if (err)
		BAD(st, "program %d: bpfvet could not verify it (%d)", p->index, err);
	if (res.verdict != BPFVET_ACCEPTED) {
		/* The harness keeps only a case's first failure: list all. */
		printf("%s: program %d: bpfvet: %s\n", st->path, p->index, res.error);
		BAD(st, "program %d: the kernel accepted it, bpfvet %s it: %s",
		    p->index, res.verdict == BPFVET_REJECTED ? "rejected" :
		    "does not support", res.error);
	}
	st->accepted++;
	return 0;
}

static int parse_line(struct file_state *st, char *line)
{
	size_t n = strlen(line);

	if (n && line[n - 1] == '\n')
		line[--n] = '\0';
	else if (n == LINE_LEN - 1)
		BAD(st, "line too long");
	if (st->lineno == 1 && line[0] != '#')
		BAD(st, "the first line does not name the kernel");
	switch (line[0]) {
	case '#':
		return 0;
	case 'p':
		return parse_p(st, line);
	case 'm':
		return parse_m(st, line);
	case 'c':
		return parse_c(st, line + 2);
	case 'r':
		return parse_r(st, line);
	case '.':
		return end_prog(st);
	default:
		BAD(st, "unknown line: %.40s", line);
	}
}

static void check_file(struct test_ctx *t, const char *path)
{
	struct file_state st = { .t = t, .path = path };
	gzFile in = gzopen(path, "rb");
	char *line = malloc(LINE_LEN);

	if (!in || !line) {
		test_fail(t, __FILE__, __LINE__, "cannot read %s", path);
		goto out;
	}
	/* Every problem is reported; a bad line does not stop the file. */
	while (gzgets(in, line, LINE_LEN)) {
		st.lineno++;
		parse_line(&st, line);
	}
	free(st.prog.insns);
	CHECK_MSG(t, !st.in_prog, "%s: the last program is not ended", path);
	CHECK_MSG(t, st.progs > 0, "%s: no programs", path);
	CHECK_MSG(t, !st.sc_bad, "%s: selfcheck found violations in %d programs", path,
		  st.sc_bad);
	CHECK_MSG(t, st.sc_checked > 0 || !st.sc_runs, "%s: no selfcheck run followed", path);
	printf("%s: %d programs, %d runs, %d accepted by bpfvet; selfcheck: %llu runs "
	       "(%llu followed to the end), %d programs with a violation\n",
	       path, st.progs, st.runs, st.accepted, (unsigned long long)st.sc_runs,
	       (unsigned long long)st.sc_checked, st.sc_bad);
out:
	if (in)
		gzclose(in);
	free(line);
}

/* One case per file, named after it (interp_fixtures:scalar.txt.gz),
 * with test_run()'s verdict lines. */
static void run_file(struct test_ctx *t, const char *path)
{
	const char *base = strrchr(path, '/');
	char name[160];

	snprintf(name, sizeof(name), "interp_fixtures:%s", base ? base + 1 : path);
	t->name = name;
	t->failures = 0;
	t->skip_why = NULL;
	check_file(t, path);
	if (t->failures) {
		t->failed++;
	} else {
		t->passed++;
		printf("PASS %s\n", name);
	}
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	int i;

	if (argc > 1) {
		for (i = 1; i < argc; i++)
			run_file(&t, argv[i]);
	} else {
		for (i = 0; i < (int)(sizeof(default_files) / sizeof(default_files[0])); i++)
			run_file(&t, default_files[i]);
	}
	return test_finish(&t);
}
