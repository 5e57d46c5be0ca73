/* SPDX-License-Identifier: BSD-2-Clause */
/* The verifier's allocation accounting (src/state/alloc.c) and mem_peak. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "state/state.h"
#include "test.h"
#include "base/uapi.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })

static void test_counts(struct test_ctx *t)
{
	struct vet_env *env = calloc(1, sizeof(*env));
	size_t hdr, after_first;
	unsigned char *p, *q;

	if (!env) {
		CHECK(t, env != NULL);
		return;
	}
	vet_mem_init(&env->mem, 1000);
	CHECK_INT(t, env->mem.cur, 1000);
	p = vet_malloc(env, 100);
	CHECK(t, p != NULL);
	hdr = env->mem.cur - 1000 - 100;
	/* The header is small and keeps the caller's part aligned. */
	CHECK(t, hdr > 0 && hdr <= 32);
	CHECK(t, ((uintptr_t)p % _Alignof(max_align_t)) == 0);
	CHECK_INT(t, env->mem.peak, env->mem.cur);
	after_first = env->mem.cur;
	memset(p, 0x5a, 100);

	q = vet_calloc(env, 10, 30);
	CHECK(t, q != NULL);
	CHECK_INT(t, env->mem.cur, after_first + hdr + 300);
	CHECK(t, q && q[0] == 0 && q[299] == 0);
	vet_free(env, q);
	CHECK_INT(t, env->mem.cur, after_first);
	CHECK_INT(t, env->mem.peak, after_first + hdr + 300);

	/* Growing keeps the contents; shrinking lowers cur, not the peak. */
	p = vet_realloc(env, p, 4000);
	CHECK(t, p != NULL);
	if (p)
		CHECK(t, p[0] == 0x5a && p[99] == 0x5a);
	CHECK_INT(t, env->mem.cur, 1000 + hdr + 4000);
	p = vet_realloc(env, p, 8);
	CHECK_INT(t, env->mem.cur, 1000 + hdr + 8);
	CHECK_INT(t, env->mem.peak, 1000 + hdr + 4000);

	/* Overflowing requests fail and change nothing. */
	CHECK(t, vet_calloc(env, SIZE_MAX / 2, 4) == NULL);
	CHECK(t, vet_reallocarray(env, p, SIZE_MAX / 8, 16) == NULL);
	CHECK(t, vet_malloc(env, SIZE_MAX) == NULL);
	CHECK_INT(t, env->mem.cur, 1000 + hdr + 8);

	vet_free(env, p);
	vet_free(env, NULL);
	CHECK_INT(t, env->mem.cur, 1000);
	CHECK_INT(t, env->mem.allocs, 4);
	free(env);
}

/* A loop over the stack: checkpoints, pending paths, a grown stack. */
static struct bpfvet_program *loop_prog(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = {
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 6, 0, 0, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 10, 6, -8, 0),
		INSN(BPF_STX | BPF_MEM | BPF_DW, 10, 6, -64, 0),
		INSN(BPF_ALU64 | BPF_ADD | BPF_K, 6, 0, 0, 1),
		INSN(BPF_JMP | BPF_JLT | BPF_K, 6, 0, -3, 20),
		INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, 0),
		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0),
	};
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "loop", .prog_type = BPF_PROG_TYPE_XDP,
		.expected_attach_type = BPF_XDP, .insns = insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
	};
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	return p;
}

static void test_mem_peak(struct test_ctx *t)
{
	struct bpfvet_program *p = loop_prog(t);
	struct bpfvet_result a = { .sz = sizeof(a) }, b = { .sz = sizeof(b) };

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &a), 0);
	CHECK_INT(t, a.verdict, BPFVET_ACCEPTED);
	/* At least the environment and one state with its stack. */
	CHECK(t, a.mem_peak > sizeof(struct vet_env) + sizeof(struct vstate) +
			      sizeof(struct func_state));
	CHECK(t, a.mem_peak < 16u << 20);
	/* Counting is exact, not sampled: the same program, the same figure. */
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &b), 0);
	CHECK_INT(t, b.mem_peak, a.mem_peak);
	CHECK_INT(t, b.insns_processed, a.insns_processed);
	bpfvet_program__free(p);
}

/* A caller built against the header before mem_peak: the bytes after its
 * struct are not touched. */
static void test_old_result_size(struct test_ctx *t)
{
	struct bpfvet_program *p = loop_prog(t);
	struct bpfvet_result *r = malloc(sizeof(*r));
	size_t old = offsetof(struct bpfvet_result, mem_peak);
	unsigned char *tail;

	if (!p || !r) {
		CHECK(t, r != NULL);
		free(r);
		bpfvet_program__free(p);
		return;
	}
	memset(r, 0xab, sizeof(*r));
	r->sz = old;
	CHECK_INT(t, bpfvet_program__verify(p, NULL, r), 0);
	CHECK_INT(t, r->verdict, BPFVET_ACCEPTED);
	tail = (unsigned char *)r + old;
	for (size_t i = 0; i < sizeof(*r) - old; i++)
		CHECK_MSG(t, tail[i] == 0xab, "byte %zu after the old struct changed", i);
	free(r);
	bpfvet_program__free(p);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_run(&t, "alloc_counts", test_counts);
	test_run(&t, "alloc_mem_peak", test_mem_peak);
	test_run(&t, "alloc_old_result_size", test_old_result_size);
	return test_finish(&t);
}
