// SPDX-License-Identifier: BSD-2-Clause
/* Probes of the two rules by which the live build 6.18.44-fc-v1272's
 * verifier differs from the recorded reference 6.18.44-fc-v1098: a
 * callback-calling call is an SCC of its own (rule 1), and comparisons
 * against checkpoints of loops still being explored (RANGE_WITHIN) no
 * longer require equal stack slot types (rule 2). Figures the v1272
 * kernel gave (processed insns / total states / peak states), and what
 * bpfvet gives with the reference's rules:
 *   cb_call_scc            10/1/2   reference rules 10/1/1
 *   loop_misc_zero         33/3/5   reference rules 35/3/5
 *   loop_spill_misc        35/3/5   same (no prune: not a liveness rule)
 *   loop_zero_misc         35/3/5   same (old zero still refuses misc)
 *   loop_entry_misc_zero   23/2/3   reference rules 35/3/4
 * Their level-2 logs: tests/fixtures/logs/drift-v1272.txt. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __imm_ptr(name) [name] "i"(&name)
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"

char _license[] SEC("license") = "GPL";

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

static __naked __noinline __attribute__((used)) int noop_cb(void)
{
	asm volatile ("r0 = 0; exit;" ::: __clobber_all);
}

/* Rule 1: one bpf_loop call and no other loop. v1272 puts the call in an
 * SCC of its own ("  1   5: ... call bpf_loop" in the live registers,
 * "SCC enter (1)", "SCC backedge (1)" when the callback's return is
 * pruned, "SCC exit (1)"), and the kept back-edge counts in peak_states. */
SEC("socket")
__naked int cb_call_scc(void)
{
	asm volatile ("					\
	r1 = 2;						\
	r2 = %[noop_cb] ll;				\
	r3 = 0;						\
	r4 = 0;						\
	call %[bpf_loop];				\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_loop), __imm_ptr(noop_cb)
	: __clobber_all);
}

/* Rule 2: inside an iterator loop the first path back to l0 (a
 * checkpoint) leaves fp-16 misc, the second zero. The checkpoint is
 * finished but its loop still has back-edges pending, so the comparison
 * is RANGE_WITHIN: v1272 prunes ("5: safe"), the reference rules want
 * equal slot types and go round once more. */
SEC("raw_tp")
__naked int loop_misc_zero(void)
{
	asm volatile ("					\
	r1 = r10;					\
	r1 += -8;					\
	r2 = 0;						\
	r3 = 10;					\
	call %[bpf_iter_num_new];			\
l0_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_next];			\
	if r0 == 0 goto l2_%=;				\
	call %[bpf_get_prandom_u32];			\
	r1 = 0;						\
	r1 = 0;						\
	if r0 > 7 goto l3_%=;				\
	*(u32 *)(r10 - 16) = r0;			\
	*(u32 *)(r10 - 12) = r0;			\
	goto l1_%=;					\
l3_%=:	*(u64 *)(r10 - 16) = 0;				\
l1_%=:	r0 = 0;						\
	r0 = 0;						\
	goto l0_%=;					\
l2_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_destroy];			\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_iter_num_new), __imm(bpf_iter_num_next),
	  __imm(bpf_iter_num_destroy), __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Rule 2, which form: the first path spills a bounded scalar to fp-16
 * (never read), the second leaves it misc. v1272 does not prune: dead
 * slots are not skipped, the spill is compared as a scalar. */
SEC("raw_tp")
__naked int loop_spill_misc(void)
{
	asm volatile ("					\
	r1 = r10;					\
	r1 += -8;					\
	r2 = 0;						\
	r3 = 10;					\
	call %[bpf_iter_num_new];			\
l0_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_next];			\
	if r0 == 0 goto l2_%=;				\
	call %[bpf_get_prandom_u32];			\
	r1 = 0;						\
	r1 = 0;						\
	if r0 > 7 goto l3_%=;				\
	*(u64 *)(r10 - 16) = r0;			\
	goto l1_%=;					\
l3_%=:	*(u32 *)(r10 - 16) = r0;			\
	*(u32 *)(r10 - 12) = r0;			\
l1_%=:	r0 = 0;						\
	r0 = 0;						\
	goto l0_%=;					\
l2_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_destroy];			\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_iter_num_new), __imm(bpf_iter_num_next),
	  __imm(bpf_iter_num_destroy), __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Rule 2, which form: the first path leaves fp-16 zero (never read), the
 * second misc. v1272 does not prune: only an old misc slot takes a zero
 * one (as when not exact); the checkpoint is not cleaned either. */
SEC("raw_tp")
__naked int loop_zero_misc(void)
{
	asm volatile ("					\
	r1 = r10;					\
	r1 += -8;					\
	r2 = 0;						\
	r3 = 10;					\
	call %[bpf_iter_num_new];			\
l0_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_next];			\
	if r0 == 0 goto l2_%=;				\
	call %[bpf_get_prandom_u32];			\
	r1 = 0;						\
	r1 = 0;						\
	if r0 > 7 goto l3_%=;				\
	*(u64 *)(r10 - 16) = 0;				\
	goto l1_%=;					\
l3_%=:	*(u32 *)(r10 - 16) = r0;			\
	*(u32 *)(r10 - 12) = r0;			\
l1_%=:	r0 = 0;						\
	r0 = 0;						\
	goto l0_%=;					\
l2_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_destroy];			\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_iter_num_new), __imm(bpf_iter_num_next),
	  __imm(bpf_iter_num_destroy), __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Rule 2 at an unfinished checkpoint: fp-16 is misc when the loop is
 * entered and zero after one pass; iterator next() compares with its
 * entry state by RANGE_WITHIN too: v1272 "10: safe" at once. */
SEC("raw_tp")
__naked int loop_entry_misc_zero(void)
{
	asm volatile ("					\
	call %[bpf_get_prandom_u32];			\
	*(u32 *)(r10 - 16) = r0;			\
	*(u32 *)(r10 - 12) = r0;			\
	r1 = r10;					\
	r1 += -8;					\
	r2 = 0;						\
	r3 = 10;					\
	call %[bpf_iter_num_new];			\
l0_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_next];			\
	if r0 == 0 goto l2_%=;				\
	*(u64 *)(r10 - 16) = 0;				\
	goto l0_%=;					\
l2_%=:	r1 = r10;					\
	r1 += -8;					\
	call %[bpf_iter_num_destroy];			\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_iter_num_new), __imm(bpf_iter_num_next),
	  __imm(bpf_iter_num_destroy), __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Refers to the iterator kfuncs from C, for their BTF (the asm above
 * names them only). */
SEC("raw_tp")
int iter_btf_refs(void *ctx)
{
	struct bpf_iter_num it;

	bpf_iter_num_new(&it, 0, 1);
	bpf_iter_num_next(&it);
	bpf_iter_num_destroy(&it);
	return 0;
}
