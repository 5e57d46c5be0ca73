// SPDX-License-Identifier: BSD-2-Clause
/* Small programs for the pruning and precision log test
 * (tests/cli/logs_prune.sh, tests/fixtures/logs/prune.list): loops,
 * branches that meet again, spills and fills, and precision that has to be
 * traced back through the stack and through both sides of a branch. Each
 * is one asm block, so the instructions do not depend on the compiler. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"

char _license[] SEC("license") = "GPL";

/* A counted loop: the counter is precise (it bounds the loop), the other
 * register is not, so the states of later iterations differ only there. */
SEC("socket")
__naked int counted_loop(void)
{
	asm volatile ("					\
	call %[bpf_get_prandom_u32];			\
	r6 = r0;					\
	r7 = 0;						\
l0_%=:	r7 += 1;					\
	r6 += 3;					\
	if r7 < 6 goto l0_%=;				\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Two branches write different constants to a stack slot that is later
 * used as an offset into the stack: the slot becomes precise, traced back
 * through the fill and the spill into both branches. */
SEC("socket")
__naked int spill_fill_precise(void)
{
	asm volatile ("					\
	call %[bpf_get_prandom_u32];			\
	r1 = 8;						\
	if r0 > 100 goto l0_%=;				\
	r1 = 16;					\
l0_%=:	*(u64 *)(r10 - 8) = r1;				\
	r2 = 0;						\
	*(u64 *)(r10 - 16) = r2;			\
	*(u64 *)(r10 - 24) = r2;			\
	r3 = *(u64 *)(r10 - 8);				\
	r4 = r10;					\
	r4 += -24;					\
	r4 += r3;					\
	r0 = *(u64 *)(r4 + 0);				\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* Branches that meet again with equal and with different scalars: the
 * second path is pruned where nothing precise differs. */
SEC("socket")
__naked int diamond_prune(void)
{
	asm volatile ("					\
	call %[bpf_get_prandom_u32];			\
	r6 = r0;					\
	r7 = 1;						\
	if r6 > 10 goto l0_%=;				\
	r7 = 2;						\
l0_%=:	r8 = 0;						\
	if r6 > 20 goto l1_%=;				\
	r8 = 8;						\
l1_%=:	r1 = r10;					\
	r1 += -16;					\
	r1 += r8;					\
	r2 = 0;						\
	*(u64 *)(r1 + 0) = r2;				\
	r0 = r7;					\
	exit;						\
"	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* A value checked against a bound in a loop body, with a spilled copy
 * that is filled again after the loop: prune points inside the loop and
 * precision through the spill. */
SEC("socket")
__naked int loop_spill(void)
{
	asm volatile ("					\
	call %[bpf_get_prandom_u32];			\
	r0 &= 7;					\
	*(u64 *)(r10 - 8) = r0;				\
	r6 = 0;						\
l0_%=:	r6 += 1;					\
	if r6 > 3 goto l1_%=;				\
	goto l0_%=;					\
l1_%=:	r1 = *(u64 *)(r10 - 8);				\
	r2 = r10;					\
	r2 += -16;					\
	r2 += r1;					\
	r3 = 0;						\
	*(u8 *)(r2 + 0) = r3;				\
	r0 = 0;						\
	exit;						\
"	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}
