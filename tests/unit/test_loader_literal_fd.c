/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * LD_IMM64 of a map written by hand, with no relocation: the loader keeps
 * the literal descriptor and marks the instruction, and the verifier
 * reports it as the kernel does for a descriptor that is not a map.
 */
#include <errno.h>
#include <string.h>

#include "loader_util.h"

struct log_buf {
	char text[4096];
	size_t len;
};

static void collect(void *ctx, const char *text, size_t len)
{
	struct log_buf *lb = ctx;

	if (lb->len + len < sizeof(lb->text)) {
		memcpy(lb->text + lb->len, text, len);
		lb->len += len;
		lb->text[lb->len] = '\0';
	}
}

static void test_flags(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_literal_fd", NULL);
	const struct bpfvet_program *p;

	if (!obj)
		return;
	p = lu_prog(t, obj, "fd_seven");
	if (p) {
		CHECK(t, p->insn_flags != NULL);
		CHECK(t, prog_insn_flag(p, 0, INSN_F_LITERAL_FD));
		CHECK(t, !prog_insn_flag(p, 2, INSN_F_LITERAL_FD));
		CHECK_INT(t, p->insns[0].imm, 7);
		CHECK_INT(t, p->insns[0].src_reg, 1);
	}
	p = lu_prog(t, obj, "relocated");
	if (p) {
		CHECK(t, p->insn_flags == NULL);
		CHECK_INT(t, p->insns[0].src_reg, 1);
		CHECK_INT(t, p->insns[0].imm, 0);	/* map index of `real` */
	}
	bpfvet_object__close(obj);
}

static void check_verdict(struct test_ctx *t, const struct bpfvet_object *obj,
			  const char *name, int err, const char *msg)
{
	struct log_buf lb = { .len = 0 };
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo), .log_level = 1, .log_fn = collect, .log_ctx = &lb,
	};
	struct bpfvet_result res = { .sz = sizeof(res) };
	const struct bpfvet_program *p = lu_prog(t, obj, name);

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__verify(p, &vo, &res), 0);
	CHECK_INT(t, res.err, err);
	CHECK_STR(t, res.error, msg);
	CHECK(t, strstr(lb.text, msg) != NULL);
	CHECK_INT(t, res.insns_processed, err ? 0 : 3);
}

static void test_verdicts(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_literal_fd", NULL);

	if (!obj)
		return;
	check_verdict(t, obj, "fd_zero", -EINVAL, "fd 0 is not pointing to valid bpf_map");
	check_verdict(t, obj, "fd_seven", -EBADF, "fd 7 is not pointing to valid bpf_map");
	check_verdict(t, obj, "relocated", 0, "");
	bpfvet_object__close(obj);
}

/* Dump prints the literal where a map address would be. */
static void test_disasm(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_literal_fd", NULL);
	const struct bpfvet_program *p;
	char buf[128];

	if (!obj)
		return;
	p = lu_prog(t, obj, "fd_seven");
	CHECK_INT(t, bpfvet_program__disasm(p, 0, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0x7");
	p = lu_prog(t, obj, "relocated");
	CHECK_INT(t, bpfvet_program__disasm(p, 0, buf, sizeof(buf)), 2);
	CHECK(t, strstr(buf, "0x7") == NULL);
	bpfvet_object__close(obj);
}

int main(void)
{
	struct test_ctx t = { 0 };

	lu_quiet_libbpf();
	RUN(&t, test_flags);
	RUN(&t, test_verdicts);
	RUN(&t, test_disasm);
	return test_finish(&t);
}
