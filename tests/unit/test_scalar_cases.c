/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Behaviour of the number domain on cases observed on the live Linux
 * 6.18 kernel (each expected string was printed by the kernel at log
 * level 2 for the instruction sequence in the comment). These document
 * the 6.18-specific rules; tests/unit/test_scalar_kernel.c checks the
 * same behaviour statistically on 12,000 random programs.
 */
#include <stdio.h>
#include <string.h>

#include "domain/scalar.h"
#include "domain/scalar_impl.h"
#include "test.h"
#include "base/uapi.h"

struct sb {
	char s[320];
};

static const char *show(struct sb *buf, const struct bounds *b)
{
	scalar_print(buf->s, sizeof(buf->s), b);
	return buf->s;
}

/* An unknown value narrowed like a ctx load of `size` bytes. */
static struct bounds load(int size, bool sx)
{
	struct bounds b;

	bounds_unknown(&b);
	if (sx)
		bounds_sext(&b, size);
	else if (size < 8)
		bounds_truncate(&b, size);
	return b;
}

static void alu_k(struct bounds *d, uint8_t op, int32_t imm, bool alu32)
{
	struct bounds k;

	bounds_const(&k, (uint64_t)(int64_t)imm);
	scalar_alu(d, &k, op, alu32, 0, NULL);
}

/* The state on one edge of `if d OP imm` (taken: the condition holds). */
static struct bounds edge_k(const struct bounds *d, uint8_t op, int32_t imm,
			    bool is32, bool taken)
{
	struct bounds a = *d, k;

	bounds_const(&k, (uint64_t)(int64_t)imm);
	scalar_branch_refine(&a, &k, taken ? op : jmp_op_negate(op), is32, NULL);
	return a;
}

static void test_loads(struct test_ctx *t)
{
	struct sb s;
	struct bounds b;

	b = load(1, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=smin32=0,smax=umax=smax32=umax32=255,var_off=(0x0; 0xff))");
	b = load(4, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0,smax=umax=0xffffffff,var_off=(0x0; 0xffffffff))");
	b = load(1, true);
	CHECK_STR(t, show(&s, &b), "scalar(smin=smin32=-128,smax=smax32=127)");
	b = load(8, false);
	CHECK_STR(t, show(&s, &b), "scalar()");
}

static void test_alu(struct test_ctx *t)
{
	struct sb s;
	struct bounds b, c;

	/* r3 = u8; r3 *= -3 */
	b = load(1, false);
	alu_k(&b, BPF_MUL, -3, false);
	CHECK_STR(t, show(&s, &b), "scalar(smin=smin32=-765,smax=smax32=0)");
	/* r4 = u8; r4 |= 1; r4 *= 6 (tnum_mul of 6.18) */
	b = load(1, false);
	alu_k(&b, BPF_OR, 1, false);
	alu_k(&b, BPF_MUL, 6, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=umin=smin32=umin32=6,smax=umax=smax32=umax32=1530,var_off=(0x2; 0x7fc))");
	/* r9 = u64; r9 |= 0x100 */
	b = load(8, false);
	alu_k(&b, BPF_OR, 0x100, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0x8000000000000100,umin=umin32=256,smin32=0x80000100,var_off=(0x100; 0xfffffffffffffeff))");
	/* r7 = u32; r7 += 0x7fffffff */
	b = load(4, false);
	alu_k(&b, BPF_ADD, 0x7fffffff, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=umin=0x7fffffff,smax=umax=0x17ffffffe,var_off=(0x0; 0x1ffffffff))");
	/* w9 = 10; w9 /= 3: division is not tracked, not even zero-extended */
	bounds_const(&b, 10);
	alu_k(&b, BPF_DIV, 3, true);
	CHECK_STR(t, show(&s, &b), "scalar()");
	/* r2 = 0x100000003; w1 <<= w2: the amount's 64-bit umax counts */
	b = load(1, false);
	bounds_const(&c, 0x100000003ULL);
	scalar_alu(&b, &c, BPF_LSH, true, 0, NULL);
	CHECK_STR(t, show(&s, &b), "scalar()");
	b = load(1, false);
	bounds_const(&c, 3);
	scalar_alu(&b, &c, BPF_LSH, true, 0, NULL);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=smin32=0,smax=umax=smax32=umax32=2040,var_off=(0x0; 0x7f8))");
	/* r1 += r1 reads the old value of r1 */
	bounds_const(&b, 21);
	scalar_alu(&b, &b, BPF_ADD, false, 0, NULL);
	CHECK_STR(t, show(&s, &b), "42");
}

static void test_neg_end(struct test_ctx *t)
{
	struct sb s;
	struct bounds b;

	/* r9 = u8; r9 += 1; r9 = -r9 */
	b = load(1, false);
	alu_k(&b, BPF_ADD, 1, false);
	scalar_neg(&b, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=smin32=-256,smax=smax32=-1,umin=0xffffffffffffff00,umin32=0xffffff00,var_off=(0xffffffffffffff00; 0xff))");
	/* same with w9 += 1; w9 = -w9 */
	b = load(1, false);
	alu_k(&b, BPF_ADD, 1, true);
	scalar_neg(&b, true);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=umin=umin32=0xffffff00,smax=umax=0xffffffff,smin32=-256,smax32=-1,var_off=(0xffffff00; 0xff))");
	/* r1 = u16; r1 |= 0x100; r1 = be16 r1 */
	b = load(2, false);
	alu_k(&b, BPF_OR, 0x100, false);
	scalar_end(&b, 16, true, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=umin=smin32=umin32=1,smax=umax=smax32=umax32=0xffff,var_off=(0x1; 0xfffe))");
	/* ... r4 = be64 r4 */
	b = load(2, false);
	alu_k(&b, BPF_OR, 0x100, false);
	scalar_end(&b, 64, true, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0x8001000000000000,smax=0x7fff000000000000,umin=0x1000000000000,umax=0xffff000000000000,smin32=0,smax32=umax32=0,var_off=(0x1000000000000; 0xfffe000000000000))");
	/* r8 = u8; r8 += -5; r8 = le32 r8 (a truncation) */
	b = load(1, false);
	alu_k(&b, BPF_ADD, -5, false);
	scalar_end(&b, 32, false, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0,smax=umax=0xffffffff,smin32=-5,smax32=250,var_off=(0x0; 0xffffffff))");
	/* r9 = 5; r9 = be16 r9; r9 = -r9 */
	bounds_const(&b, 5);
	scalar_end(&b, 16, true, false);
	CHECK_STR(t, show(&s, &b), "1280");
	scalar_neg(&b, false);
	CHECK_STR(t, show(&s, &b), "-1280");
}

static void test_movsx(struct test_ctx *t)
{
	struct sb s;
	struct bounds b;

	/* r4 = u64; r4 &= -16; r4 = (s32)r4: s64 taken from s32 */
	b = load(8, false);
	alu_k(&b, BPF_AND, -16, false);
	bounds_sext(&b, 4);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0xffffffff80000000,smax=smax32=0x7ffffff0,umax=0xfffffffffffffff0,umax32=0xfffffff0)");
	/* r1 = u64; if w1 s> 5; if w1 s< -5; r3 = (s8)r1 */
	b = load(8, false);
	b = edge_k(&b, BPF_JSGT, 5, true, false);
	b = edge_k(&b, BPF_JSLT, -5, true, false);
	bounds_sext(&b, 1);
	CHECK_STR(t, show(&s, &b), "scalar(smin=smin32=-5,smax=smax32=5)");
	/* ... but the 32-bit movsx keeps 6.12's rule */
	b = load(1, true);
	b = edge_k(&b, BPF_JSGT, 5, false, false);
	b = edge_k(&b, BPF_JSLT, -5, false, false);
	bounds_sext32(&b, 1);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=0,smax=umax=0xffffffff,smin32=-128,smax32=127,var_off=(0x0; 0xffffffff))");
	/* r1 = u8; r1 &= 0x7f; r1 += 0x100; r1 = (s8)r1 */
	b = load(1, false);
	alu_k(&b, BPF_AND, 0x7f, false);
	alu_k(&b, BPF_ADD, 0x100, false);
	bounds_sext(&b, 1);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=smin32=0,smax=umax=smax32=umax32=127,var_off=(0x0; 0x7f))");
}

static void test_branches(struct test_ctx *t)
{
	struct sb s;
	struct bounds b, e, k;

	/* r1 &= 0x10; if r1 == 0: the other edge is the single value 16 */
	b = load(8, false);
	alu_k(&b, BPF_AND, 0x10, false);
	e = edge_k(&b, BPF_JEQ, 0, false, false);
	CHECK_STR(t, show(&s, &e), "16");
	/* r3 &= 0x11; if r3 < 2; if r3 < 10: the taken edge is dead, and
	 * 6.18 turns it into the constant 1 (no violation) */
	b = load(8, false);
	alu_k(&b, BPF_AND, 0x11, false);
	b = edge_k(&b, BPF_JLT, 2, false, false);
	CHECK_STR(t, show(&s, &b),
		  "scalar(smin=umin=smin32=umin32=2,smax=umax=smax32=umax32=17,var_off=(0x0; 0x11))");
	e = edge_k(&b, BPF_JLT, 10, false, true);
	CHECK_STR(t, show(&s, &e), "1");
	/* if r4 > r4 (one register): taken edge narrows both ends */
	b = load(8, false);
	scalar_branch_refine(&b, &b, BPF_JGT, false, NULL);
	CHECK_STR(t, show(&s, &b), "scalar(umin=1,umax=0xfffffffffffffffe)");
	/* if r4 & 0x4 on [0, 15] */
	b = load(8, false);
	alu_k(&b, BPF_AND, 15, false);
	e = edge_k(&b, BPF_JSET, 4, false, false);
	CHECK_STR(t, show(&s, &e),
		  "scalar(smin=smin32=0,smax=umax=smax32=umax32=11,var_off=(0x0; 0xb))");
	e = edge_k(&b, BPF_JSET, 4, false, true);
	CHECK_STR(t, show(&s, &e),
		  "scalar(smin=umin=smin32=umin32=4,smax=umax=smax32=umax32=15,var_off=(0x4; 0xb))");
	/* decided comparisons */
	bounds_const(&k, 0x10);
	CHECK_INT(t, scalar_branch_taken(&e, &k, BPF_JEQ, false), 0);
	CHECK_INT(t, scalar_branch_taken(&e, &k, BPF_JLT, false), 1);
	CHECK_INT(t, scalar_branch_taken(&e, &k, JMP_OP_NOT_SET, false), 1);
	CHECK_INT(t, jmp_op_negate(BPF_JSET), JMP_OP_NOT_SET);
	CHECK_INT(t, jmp_op_swap(BPF_JSGE), BPF_JSLE);
}

static void test_invariants(struct test_ctx *t)
{
	struct bounds b, k;
	char msg[512];

	/* r3 &= 0xffffffff00000011; if w3 < 2; if w3 < 10 */
	b = load(8, false);
	bounds_const(&k, 0xffffffff00000011ULL);
	scalar_alu(&b, &k, BPF_AND, false, 0, NULL);
	CHECK_INT(t, bounds_check(&b, msg, sizeof(msg)), 0);
	b = edge_k(&b, BPF_JLT, 2, true, false);
	b = edge_k(&b, BPF_JLT, 10, true, true);
	CHECK_INT(t, bounds_check_ctx(&b, "true_reg1", msg, sizeof(msg)), -1);
	CHECK_STR(t, msg,
		  "verifier bug: REG INVARIANTS VIOLATION (true_reg1): range bounds violation u64=[0x2, 0xffffffff00000001] s64=[0x8000000000000002, 0x7fffffff00000001] u32=[0x2, 0x1] s32=[0x2, 0x1] var_off=(0x0, 0xffffffff00000001)");
}

static void test_fork(struct test_ctx *t)
{
	struct sb s;
	struct bounds b, k, zero;

	/* r1 = u64; r1 s>>= 63; r1 &= 5: split into 0 and -1 first */
	b = load(8, false);
	alu_k(&b, BPF_ARSH, 63, false);
	CHECK_STR(t, show(&s, &b), "scalar(smin=smin32=-1,smax=smax32=0)");
	bounds_const(&k, 5);
	CHECK(t, scalar_alu_fork(&b, &k, BPF_AND, &zero));
	CHECK_STR(t, show(&s, &zero), "0");
	CHECK_STR(t, show(&s, &b), "-1");
	scalar_alu(&b, &k, BPF_AND, false, 0, NULL);
	CHECK_STR(t, show(&s, &b), "5");
	CHECK(t, !scalar_alu_fork(&b, &k, BPF_AND, &zero));
}

static void test_print(struct test_ctx *t)
{
	char buf[64];
	struct bounds b;

	scalar_print_const(buf, sizeof(buf), 32767);
	CHECK_STR(t, buf, "32767");
	scalar_print_const(buf, sizeof(buf), 32768);
	CHECK_STR(t, buf, "0x8000");
	scalar_print_const(buf, sizeof(buf), (uint64_t)-32768);
	CHECK_STR(t, buf, "-32768");
	scalar_print_const(buf, sizeof(buf), (uint64_t)-32769);
	CHECK_STR(t, buf, "0xffffffffffff7fff");
	bounds_unknown(&b);
	CHECK_INT(t, bounds_print(buf, sizeof(buf), &b), 0);
	CHECK_STR(t, buf, "");
	/* truncation keeps the full length in the return value */
	b = load(1, false);
	CHECK_INT(t, bounds_print(buf, 8, &b),
		  (int)strlen("smin=smin32=0,smax=umax=smax32=umax32=255,var_off=(0x0; 0xff)"));
	CHECK_STR(t, buf, "smin=sm");
}

/* bounds_sync() skips constant and unknown values: the kernel's steps
 * must leave both as they are. */
static void test_sync_fixpoints(struct test_ctx *t)
{
	uint64_t x = 0x9e3779b97f4a7c15ull;
	static const uint64_t edges[] = {
		0, 1, 0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
		0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull, ~0ull - 1,
		0xffffffff80000000ull, 0xffffffff7fffffffull,
	};
	struct bounds b, want;

	for (int i = 0; i < 4000; i++) {
		uint64_t v;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		v = i < (int)(sizeof(edges) / sizeof(edges[0])) ? edges[i] :
		    i % 3 ? x : x >> (x & 63);
		bounds_const(&b, v);
		want = b;
		bounds_sync_steps(&b);
		CHECK_MSG(t, !memcmp(&b, &want, sizeof(b)), "constant %#llx moved",
			  (unsigned long long)v);
	}
	bounds_unknown(&b);
	want = b;
	bounds_sync_steps(&b);
	CHECK(t, !memcmp(&b, &want, sizeof(b)));
	/* Not a fixpoint, so not skipped: an unknown u8. */
	bounds_unknown(&b);
	b.var_off = tnum_range(0, 255);
	bounds_sync(&b);
	CHECK(t, b.umax == 255 && b.smax == 255 && b.u32_max == 255 && b.s32_min == 0);
}

/* The memo answers what the sync computes, on hits, misses and slots
 * taken over by another value. */
static void test_sync_memo(struct test_ctx *t)
{
	static struct bounds_memo memo;
	uint64_t x = 0x2545f4914f6cdd1dull;
	struct bounds in[300];
	int n = (int)(sizeof(in) / sizeof(in[0])), hits = 0;

	for (int i = 0; i < n; i++) {
		uint64_t lo, hi;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		lo = x >> (x & 63);
		hi = lo + (x >> 40);
		bounds_unknown(&in[i]);
		in[i].umin = lo;
		in[i].umax = hi < lo ? UINT64_MAX : hi;
		if (i % 3 == 0)
			in[i].var_off = tnum_range(0, x & 0xffff);
		if (i % 5 == 0)
			in[i].s32_min = -(int32_t)(x & 0xff);
	}
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < n; i++) {
			struct bounds a = in[i], b = in[i];
			int k = (i * 7 + round * 13) % n;

			if (round == 2)
				a = b = in[k];
			hits += (memo.valid != 0);
			bounds_sync(&a);
			bounds_sync_memo(&b, &memo);
			CHECK_MSG(t, !memcmp(&a, &b, sizeof(a)), "round %d input %d", round, i);
		}
	}
	CHECK(t, hits > 0);
	/* A second sync of a value is answered from the memo: a marked
	 * answer comes back. */
	{
		struct bounds a = in[4], b = in[4];
		int slot = -1;

		bounds_sync_memo(&a, &memo);
		for (int k = 0; k < BOUNDS_MEMO_SLOTS; k++)
			if ((memo.valid >> k & 1) && !memcmp(&memo.slot[k].in, &in[4], sizeof(b)))
				slot = k;
		CHECK(t, slot >= 0);
		if (slot >= 0) {
			memo.slot[slot].out.umax = 12345;
			bounds_sync_memo(&b, &memo);
			CHECK_INT(t, b.umax, 12345);
		}
	}
	/* NULL: no memo, the plain sync. */
	{
		struct bounds a = in[1], b = in[1];

		bounds_sync(&a);
		bounds_sync_memo(&b, NULL);
		CHECK(t, !memcmp(&a, &b, sizeof(a)));
	}
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_loads);
	RUN(&t, test_alu);
	RUN(&t, test_neg_end);
	RUN(&t, test_movsx);
	RUN(&t, test_branches);
	RUN(&t, test_invariants);
	RUN(&t, test_fork);
	RUN(&t, test_print);
	RUN(&t, test_sync_fixpoints);
	RUN(&t, test_sync_memo);
	return test_finish(&t);
}
