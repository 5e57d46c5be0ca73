/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * CO-RE relocations of tests/progs/core_crafted.c against the small target
 * BTF of core_target.c: the value each record leaves in its instruction,
 * poisoning, the failures libbpf reports (ambiguous flavors), and what
 * happens without a target BTF. The numbers follow from the two sets of
 * types; test_core_libbpf checks the same object against libbpf itself.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "loader/core.h"
#include "core_target.h"
#include "loader_util.h"

#define POISON INT64_MIN	/* "the instruction became call 0xbad2310" */

static char target[256];

static struct bpfvet_object *open_crafted(struct test_ctx *t, const char *btf,
					  bool lenient)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts o = {
		.sz = sizeof(o), .errbuf = err, .errbuf_sz = sizeof(err),
		.lenient = lenient, .btf_custom_path = btf,
	};
	struct bpfvet_object *obj = NULL;
	int rc;

	test_prog_path(path, sizeof(path), "core_crafted");
	rc = bpfvet_object__open(path, &o, &obj);
	CHECK_MSG(t, rc == 0, "open: %d %s", rc, err);
	return obj;
}

/* What the relocated instruction of record r now says. */
static int64_t relo_value(const struct bpfvet_program *p, size_t r)
{
	const struct bpfvet_insn *in = &p->insns[p->core_relos[r].insn_off];

	if (in->code == 0x85 && in->imm == 0xbad2310)
		return POISON;
	switch (in->code & 7) {
	case 0x04: case 0x07:		/* ALU, ALU64 */
		return in->imm;
	case 0x01: case 0x02: case 0x03:	/* LDX, ST, STX */
		return in->off;
	default:			/* LD_IMM64 */
		return (int64_t)((uint32_t)in[0].imm | (uint64_t)(uint32_t)in[1].imm << 32);
	}
}

/* The value left by the record of this kind whose local type is named
 * `type` and whose access string is `access`. */
static void check_value(struct test_ctx *t, const struct bpfvet_object *obj,
			const char *prog, uint32_t kind, const char *type,
			const char *access, int64_t want)
{
	const struct bpfvet_program *p = lu_prog(t, obj, prog);
	const struct btf *btf = obj->btf;
	size_t r, found = 0;

	if (!p)
		return;
	CHECK_MSG(t, !p->problem, "%s: %s", prog, p->problem);
	CHECK(t, !p->core_pending);
	for (r = 0; r < p->core_relo_cnt; r++) {
		const struct bpfvet_core_relo *cr = &p->core_relos[r];
		const struct btf_type *lt = btf__type_by_id(btf, cr->type_id);
		const char *name = lt ? btf__name_by_offset(btf, lt->name_off) : NULL;
		const char *acc = btf__name_by_offset(btf, cr->access_str_off);

		if (cr->kind != kind || !name || strcmp(name, type) || !acc ||
		    strcmp(acc, access))
			continue;
		found++;
		CHECK_MSG(t, relo_value(p, r) == want, "%s: %s %s %s: %lld, want %lld",
			  prog, core_kind_name(kind), type, access,
			  (long long)relo_value(p, r), (long long)want);
	}
	CHECK_MSG(t, found, "%s: no %s record for %s %s", prog, core_kind_name(kind),
		  type, access);
}

#define OFF CORE_FIELD_BYTE_OFFSET

static void test_fields(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_crafted(t, target, true);

	if (!obj)
		return;
	check_value(t, obj, "moved", OFF, "cr_point", "0:0", 12);
	check_value(t, obj, "moved", OFF, "cr_point", "0:1", 8);
	check_value(t, obj, "widened_unsigned", OFF, "cr_point", "0:2", 16);
	/* int -> long is not safe to read with a wider load */
	check_value(t, obj, "widened_signed", OFF, "cr_point", "0:3", POISON);
	check_value(t, obj, "missing", OFF, "cr_point", "0:4", POISON);
	check_value(t, obj, "exists", CORE_FIELD_EXISTS, "cr_point", "0:4", 0);
	check_value(t, obj, "exists", CORE_FIELD_EXISTS, "cr_point", "0:0", 1);
	check_value(t, obj, "exists", CORE_FIELD_BYTE_SIZE, "cr_point", "0:2", 8);
	check_value(t, obj, "exists", OFF, "cr_point", "0:3", 24);
	check_value(t, obj, "exists", CORE_FIELD_SIGNED, "cr_point", "0:3", 1);
	check_value(t, obj, "exists", CORE_FIELD_SIGNED, "cr_point", "0:2", 0);
	check_value(t, obj, "arrays", OFF, "cr_arr", "0:0:2", 12);
	check_value(t, obj, "arrays", OFF, "cr_arr", "0:1:1", 32);
	check_value(t, obj, "array_out_of_range", OFF, "cr_arr", "0:0:3", POISON);
	/* p[1].y: one 32-byte cr_point, then y at 8 */
	check_value(t, obj, "first_index", OFF, "cr_point", "1:1", 40);
	check_value(t, obj, "nested", OFF, "cr_nest", "0:0", 4);
	check_value(t, obj, "absent_type", OFF, "cr_none", "0:0", POISON);
	bpfvet_object__close(obj);
}

/* The unsigned field grew from 4 to 8 bytes: the load grows too. */
static void test_load_size(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_crafted(t, target, true);
	const struct bpfvet_program *p = obj ? lu_prog(t, obj, "widened_unsigned") : NULL;

	if (p && p->core_relo_cnt == 1)
		CHECK_INT(t, p->insns[p->core_relos[0].insn_off].code, 0x79);	/* LDX DW */
	bpfvet_object__close(obj);
}

static void test_bitfields(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_crafted(t, target, true);
	const struct bpfvet_program *p = obj ? lu_prog(t, obj, "bits") : NULL;
	int64_t a[6] = { 0 };
	size_t r, n = 0;

	if (!p)
		return;
	/* Record order inside each field: byte_off, byte_sz, lshift, signed,
	 * rshift (twice: one per branch). a: bits 37..39, b: 32..36, c:
	 * 40..46 signed; all read with a 4-byte load at offset 4. */
	for (r = 0; r < p->core_relo_cnt; r++) {
		if (p->core_relos[r].kind != CORE_FIELD_LSHIFT_U64)
			continue;
		if (n < 3)
			a[n++] = relo_value(p, r);
	}
	CHECK_INT(t, n, 3);
	CHECK_INT(t, a[0], 56);
	CHECK_INT(t, a[1], 59);
	CHECK_INT(t, a[2], 49);
	for (r = 0; r < p->core_relo_cnt; r++) {
		uint32_t k = p->core_relos[r].kind;

		if (k == CORE_FIELD_BYTE_OFFSET)
			CHECK_INT(t, relo_value(p, r), 4);
		if (k == CORE_FIELD_BYTE_SIZE)
			CHECK_INT(t, relo_value(p, r), 4);
	}
	bpfvet_object__close(obj);
}

static void test_types_enums(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_crafted(t, target, true);
	const struct bpfvet_program *p;
	int32_t local_id;

	if (!obj)
		return;
	/* cr_point is type 5 of the target, after the four integers. */
	check_value(t, obj, "types", CORE_TYPE_ID_TARGET, "cr_point", "0", 5);
	local_id = btf__find_by_name_kind(obj->btf, "cr_point", BTF_KIND_STRUCT);
	check_value(t, obj, "types", CORE_TYPE_ID_LOCAL, "cr_point", "0", local_id);
	check_value(t, obj, "types", CORE_TYPE_SIZE, "cr_point", "0", 32);
	check_value(t, obj, "types", CORE_TYPE_SIZE, "cr_point_t", "0", 32);
	check_value(t, obj, "types", CORE_TYPE_EXISTS, "cr_none", "0", 0);
	/* inner is anonymous-nested in the target; z is missing there */
	check_value(t, obj, "types", CORE_TYPE_MATCHES, "cr_nest", "0", 0);
	check_value(t, obj, "types", CORE_TYPE_MATCHES, "cr_point", "0", 0);
	check_value(t, obj, "types", CORE_TYPE_MATCHES, "cr_match", "0", 1);
	check_value(t, obj, "enums", CORE_ENUMVAL_VALUE, "cr_color", "1", 7);
	check_value(t, obj, "enums", CORE_ENUMVAL_EXISTS, "cr_color", "2", 0);
	check_value(t, obj, "enums", CORE_ENUMVAL_VALUE, "cr_big", "0", 0x300000005ll);
	check_value(t, obj, "enum_missing", CORE_ENUMVAL_VALUE, "cr_color", "2", POISON);
	p = lu_prog(t, obj, "enums");
	CHECK(t, p && p->core_relo_cnt == 3);
	bpfvet_object__close(obj);
}

/* Two flavors put `a` at different offsets: libbpf refuses. Records are
 * numbered within their section, as libbpf numbers them. */
#define AMBIGUOUS "program ambiguous: CO-RE relocation #11 at insn 0: field offset ambiguity: 0 != 32"

static void test_ambiguity(struct test_ctx *t)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts o = {
		.sz = sizeof(o), .errbuf = err, .errbuf_sz = sizeof(err),
		.btf_custom_path = target,
	};
	struct bpfvet_object *obj = open_crafted(t, target, true);
	const struct bpfvet_program *p = obj ? lu_prog(t, obj, "ambiguous") : NULL;

	if (p)
		CHECK_STR(t, p->problem,
			  AMBIGUOUS);
	if (p)
		CHECK_INT(t, bpfvet_program__verify(p, NULL, &(struct bpfvet_result){
			.sz = sizeof(struct bpfvet_result) }), -ENOEXEC);
	bpfvet_object__close(obj);
	/* A strict open fails on it. */
	test_prog_path(path, sizeof(path), "core_crafted");
	obj = (void *)1;
	CHECK_INT(t, bpfvet_object__open(path, &o, &obj), -EINVAL);
	CHECK(t, obj == NULL);
	CHECK_STR(t, err, AMBIGUOUS);
}

/* No target: records stay as compiled and the verifier says why. */
static void test_no_target(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_crafted(t, NULL, false);
	struct bpfvet_result res = { .sz = sizeof(res) };
	const struct bpfvet_program *p;

	if (!obj)
		return;
	p = lu_prog(t, obj, "moved");
	CHECK(t, p && p->core_pending);
	/* The compiler's offsets of x and y, 0 and 4, are left alone. */
	CHECK(t, p && p->core_relo_cnt == 2);
	if (p && p->core_relo_cnt == 2)
		CHECK_INT(t, relo_value(p, 0) + relo_value(p, 1), 4);
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_UNSUPPORTED);
	CHECK_STR(t, res.error, "bpfvet: unsupported: CO-RE relocation without target BTF");
	bpfvet_object__close(obj);
}

static void test_bad_target(struct test_ctx *t)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts o = {
		.sz = sizeof(o), .errbuf = err, .errbuf_sz = sizeof(err),
		.btf_custom_path = "/nonexistent/vmlinux",
	};
	struct bpfvet_object *obj = (void *)1;

	test_prog_path(path, sizeof(path), "core_crafted");
	CHECK_INT(t, bpfvet_object__open(path, &o, &obj), -ENOENT);
	CHECK(t, obj == NULL);
	CHECK_STR(t, err, "cannot read target BTF /nonexistent/vmlinux: No such file or directory");
	/* Not BTF at all: the object file of another test has no .BTF
	 * problem, but a text file is refused. */
	o.btf_custom_path = "Makefile";
	CHECK(t, bpfvet_object__open(path, &o, &obj) < 0);
	CHECK(t, strstr(err, "cannot read target BTF Makefile") == err);
}

/* A target opened once serves several objects: each relocates exactly as
 * with its own btf_custom_path, and keeps the target after the caller
 * and the other objects let go of it (ASan sees a use after free or a
 * leak otherwise). */
static void test_shared_target(struct test_ctx *t)
{
	char path[256], err[256] = "";
	struct bpfvet_target_opts to = {
		.sz = sizeof(to), .btf_path = target, .errbuf = err, .errbuf_sz = sizeof(err),
	};
	struct bpfvet_open_opts o = { .sz = sizeof(o), .lenient = true };
	struct bpfvet_object *own = open_crafted(t, target, true), *a = NULL, *b = NULL;
	const struct bpfvet_program *po, *pb;
	struct bpfvet_target *tg = NULL;

	CHECK_INT(t, bpfvet_target__open(&to, &tg), 0);
	o.target = tg;
	test_prog_path(path, sizeof(path), "core_crafted");
	CHECK_INT(t, bpfvet_object__open(path, &o, &a), 0);
	CHECK_INT(t, bpfvet_object__open(path, &o, &b), 0);
	bpfvet_target__close(tg);
	bpfvet_object__close(a);
	po = own ? lu_prog(t, own, "moved") : NULL;
	pb = b ? lu_prog(t, b, "moved") : NULL;
	CHECK(t, po && pb && po->core_relo_cnt == pb->core_relo_cnt);
	for (size_t r = 0; po && pb && r < po->core_relo_cnt; r++)
		CHECK_INT(t, relo_value(pb, r), relo_value(po, r));
	bpfvet_object__close(b);
	bpfvet_object__close(own);

	/* A target and a path together are refused; so is a target
	 * without a path, and a path that is not BTF. */
	CHECK_INT(t, bpfvet_target__open(&to, &tg), 0);
	o.target = tg;
	o.btf_custom_path = target;
	o.errbuf = err;
	o.errbuf_sz = sizeof(err);
	a = (void *)1;
	CHECK_INT(t, bpfvet_object__open(path, &o, &a), -EINVAL);
	CHECK(t, a == NULL);
	CHECK_STR(t, err, "both a target and a target BTF path");
	bpfvet_target__close(tg);
	to.btf_path = NULL;
	tg = (void *)1;
	CHECK_INT(t, bpfvet_target__open(&to, &tg), -EINVAL);
	CHECK(t, tg == NULL);
	CHECK_STR(t, err, "no target BTF path");
	to.btf_path = "/nonexistent/vmlinux";
	CHECK_INT(t, bpfvet_target__open(&to, &tg), -ENOENT);
	CHECK_STR(t, err, "cannot read target BTF /nonexistent/vmlinux: No such file or directory");
	CHECK_INT(t, bpfvet_target__open(NULL, &tg), -EINVAL);
	bpfvet_target__close(NULL);
}

static void test_essential_names(struct test_ctx *t)
{
	CHECK_INT(t, core_essential_len("task_struct"), 11);
	CHECK_INT(t, core_essential_len("task_struct___old"), 11);
	CHECK_INT(t, core_essential_len("a___b___c"), 5);	/* the last flavor */
	CHECK_INT(t, core_essential_len("a____b"), 6);		/* 4 underscores */
	CHECK_INT(t, core_essential_len("a___"), 4);		/* empty flavor */
	CHECK_INT(t, core_essential_len("___a"), 4);		/* nothing before */
	CHECK_INT(t, core_essential_len("x___y"), 1);
	CHECK_INT(t, core_essential_len(""), 0);
}

int main(void)
{
	struct test_ctx t = { 0 };
	char dir[] = "/tmp/bpfvet-core-XXXXXX";
	int err;

	lu_quiet_libbpf();
	if (!mkdtemp(dir)) {
		printf("FAIL test_core: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	err = core_target_write(dir, target, sizeof(target));
	if (err) {
		printf("FAIL test_core: cannot write the target BTF: %d\n", err);
		rmdir(dir);
		return 1;
	}
	RUN(&t, test_essential_names);
	RUN(&t, test_fields);
	RUN(&t, test_load_size);
	RUN(&t, test_bitfields);
	RUN(&t, test_types_enums);
	RUN(&t, test_ambiguity);
	RUN(&t, test_no_target);
	RUN(&t, test_bad_target);
	RUN(&t, test_shared_target);
	unlink(target);
	rmdir(dir);
	return test_finish(&t);
}
