/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lenient opens: what libbpf refuses (externs left for static linking, bad
 * map attributes) becomes warnings attached to the programs and maps they
 * spoil, the rest of the object stays usable, and malformed files still
 * fail.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader_util.h"

static struct bpfvet_object *open_lenient(struct test_ctx *t, const char *name,
					  bool lenient, char *err, size_t err_sz,
					  int want)
{
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts), .errbuf = err, .errbuf_sz = err_sz,
		.lenient = lenient,
	};
	struct bpfvet_object *obj = NULL;
	char path[256];

	test_prog_path(path, sizeof(path), name);
	CHECK_INT(t, bpfvet_object__open(path, &opts, &obj), want);
	return obj;
}

static size_t warning_idx(const struct bpfvet_object *obj, const char *text)
{
	size_t i;

	for (i = 0; i < bpfvet_object__warning_cnt(obj); i++)
		if (bpfvet_object__warning(obj, i) == text)
			return i;
	return (size_t)-1;
}

static void test_strict_fails(struct test_ctx *t)
{
	char err[256] = "";
	struct bpfvet_object *obj;

	obj = open_lenient(t, "loader_unlinked", false, err, sizeof(err), -ENOENT);
	CHECK(t, obj == NULL);
	CHECK_STR(t, err, "no BTF section for extern other_func");
}

static void test_warnings(struct test_ctx *t)
{
	char err[256] = "";
	struct bpfvet_object *obj;
	const struct bpfvet_map *m;

	obj = open_lenient(t, "loader_unlinked", true, err, sizeof(err), 0);
	if (!obj)
		return;
	CHECK_INT(t, bpfvet_object__warning_cnt(obj), 5);
	CHECK_STR(t, bpfvet_object__warning(obj, 0), "no BTF section for extern other_func");
	CHECK_STR(t, bpfvet_object__warning(obj, 1), "no BTF section for extern other_var");
	CHECK_STR(t, bpfvet_object__warning(obj, 2), "extern other_map is in unknown section .maps");
	CHECK_STR(t, bpfvet_object__warning(obj, 3),
		  "map other_map: extern map (left for the static linker)");
	CHECK_STR(t, bpfvet_object__warning(obj, 4), "map badpin: bad pinning 2");
	CHECK(t, bpfvet_object__warning(obj, 5) == NULL);
	/* The extern map has no definition here: only badpin is a map. */
	CHECK_INT(t, bpfvet_object__map_cnt(obj), 1);
	m = lu_map(t, obj, "badpin", NULL);
	if (m)
		CHECK_INT(t, warning_idx(obj, bpfvet_map__problem(m)), 4);
	CHECK_INT(t, warning_idx(obj, bpfvet_program__problem(lu_prog(t, obj, "uses_func"))), 0);
	CHECK_INT(t, warning_idx(obj, bpfvet_program__problem(lu_prog(t, obj, "uses_var"))), 1);
	CHECK_INT(t, warning_idx(obj, bpfvet_program__problem(lu_prog(t, obj, "uses_map"))), 2);
	CHECK(t, bpfvet_program__problem(lu_prog(t, obj, "uses_badpin")) == NULL);
	CHECK(t, bpfvet_program__problem(lu_prog(t, obj, "clean")) == NULL);
	bpfvet_object__close(obj);
}

/* The unresolved call keeps its compiled form and is not followed. */
static void test_unresolved_insns(struct test_ctx *t)
{
	char err[256] = "";
	struct bpfvet_object *obj;
	const struct bpfvet_program *p;
	const struct bpfvet_insn *in;
	size_t n, i, calls = 0;

	obj = open_lenient(t, "loader_unlinked", true, err, sizeof(err), 0);
	if (!obj)
		return;
	p = lu_prog(t, obj, "uses_func");
	in = p ? bpfvet_program__insns(p, &n) : NULL;
	for (i = 0; in && i < n; i++) {
		if (in[i].code != 0x85)
			continue;
		calls++;
		CHECK_INT(t, in[i].src_reg, 1);	/* BPF_PSEUDO_CALL */
		CHECK_INT(t, in[i].imm, -1);
	}
	CHECK_INT(t, calls, 1);
	CHECK_INT(t, p ? p->subprog_cnt : 0, 1);
	bpfvet_object__close(obj);
}

static void test_verify_refuses(struct test_ctx *t)
{
	char err[256] = "";
	struct bpfvet_result res = { .sz = sizeof(res) };
	struct bpfvet_object *obj;
	struct bpfvet_program *p;

	obj = open_lenient(t, "loader_unlinked", true, err, sizeof(err), 0);
	if (!obj)
		return;
	p = lu_prog(t, obj, "uses_var");
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &res), -ENOEXEC);
	CHECK_STR(t, res.error, "no BTF section for extern other_var");
	CHECK_INT(t, res.verdict, BPFVET_UNSUPPORTED);
	p = lu_prog(t, obj, "clean");
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_ACCEPTED);
	bpfvet_object__close(obj);
}

/* A clean object gets no warnings; malformed bytes still fail. */
static void test_clean_and_malformed(struct test_ctx *t)
{
	char err[256] = "", path[256];
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts), .errbuf = err, .errbuf_sz = sizeof(err),
		.lenient = true,
	};
	struct bpfvet_object *obj;
	size_t size = 0;
	void *buf;

	obj = open_lenient(t, "loader_relocs", true, err, sizeof(err), 0);
	CHECK_INT(t, bpfvet_object__warning_cnt(obj), 0);
	CHECK(t, bpfvet_object__warning(obj, 0) == NULL);
	bpfvet_object__close(obj);
	test_prog_path(path, sizeof(path), "loader_unlinked");
	buf = lu_read(path, &size);
	CHECK(t, buf != NULL);
	if (!buf)
		return;
	obj = (void *)1;
	CHECK_INT(t, bpfvet_object__open_mem(buf, size / 2, "cut", &opts, &obj), -EINVAL);
	CHECK(t, obj == NULL);
	CHECK_STR(t, err, "section headers lie outside the file (truncated?)");
	free(buf);
}

int main(void)
{
	struct test_ctx t = { 0 };

	lu_quiet_libbpf();
	RUN(&t, test_strict_fails);
	RUN(&t, test_warnings);
	RUN(&t, test_unresolved_insns);
	RUN(&t, test_verify_refuses);
	RUN(&t, test_clean_and_malformed);
	return test_finish(&t);
}
