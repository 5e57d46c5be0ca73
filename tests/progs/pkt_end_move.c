// SPDX-License-Identifier: BSD-2-Clause
/* A packet pointer compared with the packet's end is known to be at it
 * (range -1) or beyond it (range -2) on one side; moved by a constant, it
 * is not known to be anywhere (range 0) on 6.18, where 6.12 kept the
 * range. A pointer with a positive range keeps it. The live 6.18.44
 * kernel's lines are in tests/fixtures/pkt/kernel-6.18-level2.txt; the
 * rule made test_cls_redirect's figures differ from the kernel's. */
#include <linux/bpf.h>

#define SEC(name) __attribute__((section(name), used))
#define __naked __attribute__((naked))

SEC("tc") __naked int beyond_end_add(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 76);"	/* skb->data */
		     "r3 = *(u32 *)(r1 + 80);"	/* skb->data_end */
		     "r1 = r2;"
		     "r1 += 8;"
		     "if r1 > r3 goto l0_%=;"
		     "r0 = 0;"
		     "exit;"
		     "l0_%=:"
		     "r1 += 8;"			/* range -2 -> 0 */
		     "r0 = 1;"
		     "exit;" ::: "memory");
}

SEC("tc") __naked int at_end_sub(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 76);"
		     "r3 = *(u32 *)(r1 + 80);"
		     "r1 = r2;"
		     "r1 += 8;"
		     "if r3 <= r1 goto l0_%=;"
		     "r1 += 4;"			/* range 9 kept */
		     "r1 -= 2;"
		     "r0 = 0;"
		     "exit;"
		     "l0_%=:"
		     "r4 = r1;"
		     "r4 -= 2;"			/* range -1 -> 0 */
		     "r1 += 8;"
		     "r0 = 1;"
		     "exit;" ::: "memory");
}

char _license[] SEC("license") = "GPL";
