/* SPDX-License-Identifier: BSD-2-Clause */
/* bpfvet_program__explain() on raw programs: the error, the path, the
 * slice, the loss point, the class and the work per instruction. */
#include <errno.h>
#include <string.h>

#include "bpfvet.h"
#include "test.h"
#include "base/uapi.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

static struct bpfvet_program *raw(struct test_ctx *t, const struct bpfvet_insn *insns,
				  size_t cnt)
{
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "p", .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
		.insns = insns, .insn_cnt = cnt,
	};
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	return p;
}

/* The check is on r6, the access through a copy the multiplication
 * unlinked: the link broke at insn 3. */
static void test_explain_link(struct test_ctx *t)
{
	const struct bpfvet_insn insns[] = {
		INSN(BPF_LDX | BPF_MEM | BPF_W, 6, 1, 0, 0),		/* r6 = skb->len */
		INSN(BPF_ST | BPF_MEM | BPF_DW, 10, 0, -8, 0),		/* *(u64 *)(r10 -8) = 0 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 2, 6, 0, 0),		/* r2 = r6 */
		INSN(BPF_ALU64 | BPF_MUL | BPF_K, 2, 0, 0, 1),		/* r2 *= 1 */
		INSN(BPF_JMP | BPF_JGT | BPF_K, 6, 0, 5, 7),		/* if r6 > 7 goto 10 */
		INSN(BPF_ALU64 | BPF_MOV | BPF_X, 1, 10, 0, 0),	/* r1 = r10 */
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 1, 0, 0, -8),	/* r1 += -8 */
		INSN(BPF_ALU64 | BPF_ADD | BPF_X, 1, 2, 0, 0),		/* r1 += r2 */
		INSN(BPF_LDX | BPF_MEM | BPF_B, 0, 1, 0, 0),		/* r0 = *(u8 *)(r1 +0) */
		EXIT,
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		EXIT,
	};
	struct bpfvet_program *p = raw(t, insns, sizeof(insns) / sizeof(insns[0]));
	struct bpfvet_explain_opts eo = { .sz = sizeof(eo) };
	struct bpfvet_explanation *e = NULL;
	const struct bpfvet_path_step *path;
	const struct bpfvet_slice_item *sl;
	const struct bpfvet_insn_stats *st;
	const struct bpfvet_loss *loss;
	struct bpfvet_source_line line;
	uint64_t visits = 0;
	size_t n;

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__explain(p, &eo, &e), 0);
	if (!e) {
		bpfvet_program__free(p);
		return;
	}
	CHECK_INT(t, bpfvet_explanation__result(e)->verdict, BPFVET_REJECTED);
	CHECK_INT(t, bpfvet_explanation__error_insn(e), 8);
	CHECK_STR(t, bpfvet_explanation__checked(e), "R1");
	CHECK_INT(t, bpfvet_explanation__class(e), BPFVET_EXPLAIN_COMPILER);
	CHECK_INT(t, bpfvet_explanation__root_insn(e), 3);
	loss = bpfvet_explanation__loss(e);
	CHECK(t, loss != NULL);
	if (loss) {
		CHECK_INT(t, loss->insn, 3);
		CHECK_STR(t, loss->kind, "link-broken");
	}
	path = bpfvet_explanation__path(e, &n);
	CHECK_INT(t, n, 9);
	if (n == 9) {
		CHECK_INT(t, path[4].insn, 4);
		CHECK_INT(t, path[4].branch, BPFVET_BRANCH_NOT_TAKEN);
		CHECK_INT(t, path[8].insn, 8);
		CHECK_STR(t, path[3].state, "R2=scalar(smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff))");
	}
	sl = bpfvet_explanation__slice(e, &n);
	CHECK(t, n >= 2);
	if (n >= 2) {
		CHECK_INT(t, sl[n - 1].role, BPFVET_SLICE_CHECK);
		CHECK_INT(t, sl[n - 1].insn, 8);
		CHECK_INT(t, sl[0].insn, 0);
		CHECK_INT(t, sl[0].role, BPFVET_SLICE_ORIGIN);
	}
	st = bpfvet_explanation__insn_stats(e, &n);
	CHECK_INT(t, n, 12);
	for (size_t i = 0; i < n; i++)
		visits += st[i].visits;
	CHECK_INT(t, visits, bpfvet_explanation__result(e)->insns_processed);
	/* A raw program has no line_info. */
	CHECK_INT(t, bpfvet_explanation__line(e, 8, &line), -ENOENT);
	bpfvet_explanation__free(e);
	bpfvet_program__free(p);
}

/* Accepted: nothing to explain, the work is there. */
static void test_explain_accepted(struct test_ctx *t)
{
	const struct bpfvet_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		EXIT,
	};
	struct bpfvet_program *p = raw(t, insns, 2);
	struct bpfvet_explanation *e = NULL;
	size_t n;

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__explain(p, NULL, &e), 0);
	if (e) {
		CHECK_INT(t, bpfvet_explanation__class(e), BPFVET_EXPLAIN_NONE);
		CHECK_INT(t, bpfvet_explanation__error_insn(e), -1);
		CHECK(t, bpfvet_explanation__loss(e) == NULL);
		bpfvet_explanation__path(e, &n);
		CHECK_INT(t, n, 0);
		CHECK_INT(t, bpfvet_explanation__insn_stats(e, &n)[1].visits, 1);
		bpfvet_explanation__free(e);
	}
	CHECK_INT(t, bpfvet_program__explain(NULL, NULL, &e), -EINVAL);
	bpfvet_program__free(p);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_explain_link);
	RUN(&t, test_explain_accepted);
	return test_finish(&t);
}
