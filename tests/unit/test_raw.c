/* SPDX-License-Identifier: BSD-2-Clause */
/* bpfvet_program__from_insns(): checked, copied raw programs. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loader/object.h"
#include "test.h"
#include "base/uapi.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define LD64(d, s, lo, hi) INSN(BPF_LD | BPF_IMM | BPF_DW, d, s, 0, lo), INSN(0, 0, 0, 0, hi)
#define MOV0(v) INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, v)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define CALL_PC(o) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, o)

static const struct bpfvet_map_desc two_maps[] = {
	{ .sz = sizeof(struct bpfvet_map_desc), .name = "vals", .type = BPF_MAP_TYPE_ARRAY,
	  .key_size = 4, .value_size = 16, .max_entries = 4, .inner_map_idx = -1 },
	{ .sz = sizeof(struct bpfvet_map_desc), .name = "outer", .type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	  .key_size = 4, .value_size = 4, .max_entries = 2, .flags = 0, .inner_map_idx = 0 },
};

static void test_raw_ok(struct test_ctx *t)
{
	struct bpfvet_insn insns[] = {
		LD64(1, BPF_PSEUDO_MAP_FD, 1, 0),
		LD64(2, BPF_PSEUDO_MAP_VALUE, 0, 8),
		CALL_PC(1),
		EXIT,
		MOV0(1),
		EXIT,
	};
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "rawprog", .prog_type = BPF_PROG_TYPE_XDP,
		.expected_attach_type = BPF_XDP, .insns = insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]), .maps = two_maps, .map_cnt = 2,
	};
	struct bpfvet_program *p = NULL;
	const struct bpfvet_map *maps;
	size_t cnt;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	if (!p)
		return;
	/* The caller's array may change afterwards. */
	insns[0].imm = 99;
	CHECK_STR(t, bpfvet_program__name(p), "rawprog");
	CHECK_STR(t, bpfvet_program__section(p), "");
	CHECK_INT(t, bpfvet_program__type(p), BPF_PROG_TYPE_XDP);
	CHECK_INT(t, bpfvet_program__expected_attach_type(p), BPF_XDP);
	CHECK_STR(t, p->raw_license, "GPL");
	CHECK(t, p->obj == NULL);
	CHECK_INT(t, bpfvet_program__insns(p, &cnt)[0].imm, 1);
	CHECK_INT(t, cnt, 8);
	CHECK_INT(t, p->insns[3].imm, 8);
	CHECK_INT(t, p->subprog_cnt, 2);
	if (p->subprog_cnt == 2) {
		CHECK_STR(t, p->subprogs[0].name, "rawprog");
		CHECK(t, p->subprogs[0].start == 0 && p->subprogs[0].len == 6);
		CHECK(t, p->subprogs[1].start == 6 && p->subprogs[1].len == 2);
		CHECK_STR(t, p->subprogs[1].name, "sub_6");
	}
	maps = prog_maps(p, &cnt);
	CHECK_INT(t, cnt, 2);
	if (cnt == 2) {
		CHECK_STR(t, bpfvet_map__name(&maps[0]), "vals");
		CHECK_INT(t, bpfvet_map__value_size(&maps[0]), 16);
		CHECK_INT(t, bpfvet_map__origin(&maps[1]), BPFVET_MAP_RAW);
		CHECK(t, bpfvet_map__inner(&maps[1]) == &maps[0]);
		CHECK(t, bpfvet_map__inner(&maps[0]) == NULL);
		CHECK(t, maps[0].name != two_maps[0].name);
	}
	bpfvet_program__free(p);
	bpfvet_program__free(NULL);
}

/* Runs from_insns on a variant of a valid program and checks the error. */
static void expect_fail(struct test_ctx *t, const struct bpfvet_raw_opts *o, int want,
			const char *msg)
{
	struct bpfvet_raw_opts c = *o;
	char err[128] = "";
	struct bpfvet_program *p = (void *)1;
	int rc;

	c.errbuf = err;
	c.errbuf_sz = sizeof(err);
	rc = bpfvet_program__from_insns(&c, &p);
	CHECK_MSG(t, rc == want && (p == NULL) == (want != 0) && (!msg || strstr(err, msg)),
		  "rc %d (want %d), \"%s\" (want \"%s\")", rc, want, err, msg ? msg : "");
	if (rc == 0)
		bpfvet_program__free(p);
}

static void test_raw_errors(struct test_ctx *t)
{
	static const struct bpfvet_insn ok[] = { LD64(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV0(0), EXIT };
	static const struct bpfvet_insn bad_idx[] = { LD64(1, BPF_PSEUDO_MAP_VALUE, 2, 0), EXIT };
	static const struct bpfvet_insn neg_idx[] = { LD64(1, BPF_PSEUDO_MAP_FD, -1, 0), EXIT };
	static const struct bpfvet_insn cut[] = { MOV0(0), EXIT,
		INSN(BPF_LD | BPF_IMM | BPF_DW, 1, 0, 0, 0) };
	struct bpfvet_map_desc m[2];
	const struct bpfvet_raw_opts base = {
		.sz = sizeof(base), .insns = ok, .insn_cnt = 3, .maps = m, .map_cnt = 2,
		.prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
	};
	struct bpfvet_raw_opts o;
	struct bpfvet_program *p;
	struct {
		struct bpfvet_raw_opts o;
		long extra;
	} big;

	memcpy(m, two_maps, sizeof(m));
	expect_fail(t, &base, 0, NULL);
	CHECK_INT(t, bpfvet_program__from_insns(NULL, &p), -EINVAL);
	CHECK_INT(t, bpfvet_program__from_insns(&base, NULL), -EINVAL);
	o = base, o.sz = 4;
	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), -EINVAL);
	memset(&big, 0, sizeof(big));
	big.o = base;
	big.o.sz = sizeof(big);
	big.extra = 1;
	CHECK_INT(t, bpfvet_program__from_insns(&big.o, &p), -EINVAL);
	big.extra = 0;
	CHECK_INT(t, bpfvet_program__from_insns(&big.o, &p), 0);
	bpfvet_program__free(p);

	o = base, o.insns = NULL;
	expect_fail(t, &o, -EINVAL, "no instructions");
	o = base, o.insn_cnt = 0;
	expect_fail(t, &o, -EINVAL, "no instructions");
	o = base, o.insn_cnt = 1000001;
	expect_fail(t, &o, -E2BIG, "1000001 instructions");
	o = base, o.insns = bad_idx, o.insn_cnt = 3;
	expect_fail(t, &o, -EINVAL, "insn 0: map index 2 out of range (2 maps)");
	o = base, o.insns = neg_idx, o.insn_cnt = 3;
	expect_fail(t, &o, -EINVAL, "map index -1 out of range");
	o = base, o.insns = cut, o.insn_cnt = 3;
	expect_fail(t, &o, -EINVAL, "insn 2: LD_IMM64 without its second half");
	o = base, o.maps = NULL;
	expect_fail(t, &o, -EINVAL, "maps is NULL");
	o = base, o.map_cnt = 0;
	expect_fail(t, &o, -EINVAL, "map index 0 out of range (0 maps)");
	o = base, o.prog_type = BPF_PROG_TYPE_MAX_;
	expect_fail(t, &o, -EINVAL, "unknown program type");
	o = base, o.expected_attach_type = 1000;
	expect_fail(t, &o, -EINVAL, "unknown attach type 1000");

	m[0].type = 0;
	expect_fail(t, &base, -EINVAL, "map 0: unknown map type 0");
	m[0].type = BPF_MAP_TYPE_ARRAY;
	m[1].inner_map_idx = 2;
	expect_fail(t, &base, -EINVAL, "map 1: inner map index 2 out of range");
	m[1].inner_map_idx = 1;
	expect_fail(t, &base, -EINVAL, "map 1: inner map index 1 out of range");
	m[1].inner_map_idx = -1;
	expect_fail(t, &base, -EINVAL, "map 1: a map-in-map needs an inner map");
	m[1].inner_map_idx = 0;
	m[0].inner_map_idx = 1;
	expect_fail(t, &base, -EINVAL, "map 0: only map-in-map types have inner maps");
	m[0].inner_map_idx = -1;
	m[0].name = "a_name_longer_than_15";
	expect_fail(t, &base, -EINVAL, "map 0: name longer than 15 characters");
	m[0].name = NULL;
	expect_fail(t, &base, 0, NULL);
	m[0].sz = 2;
	expect_fail(t, &base, -EINVAL, "map 0: bad descriptor size");
}

static void test_raw_defaults(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = { MOV0(0), EXIT };
	struct bpfvet_map_desc m = { .sz = sizeof(m), .type = BPF_MAP_TYPE_HASH, .key_size = 8,
				     .value_size = 8, .max_entries = 1, .inner_map_idx = -1 };
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .insns = insns, .insn_cnt = 2, .maps = &m, .map_cnt = 1,
		.license = "Dual MIT/GPL",
	};
	char small[8];
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	if (p) {
		CHECK_STR(t, p->name, "prog");
		CHECK_STR(t, p->raw_license, "Dual MIT/GPL");
		CHECK_STR(t, p->raw_maps[0].name, "map0");
		CHECK_INT(t, p->subprog_cnt, 1);
		bpfvet_program__free(p);
	}
	/* A short error buffer gets a truncated, terminated message. */
	o.errbuf = small;
	o.errbuf_sz = sizeof(small);
	o.insn_cnt = 0;
	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), -EINVAL);
	CHECK_STR(t, small, "no inst");
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_raw_ok);
	RUN(&t, test_raw_errors);
	RUN(&t, test_raw_defaults);
	return test_finish(&t);
}
