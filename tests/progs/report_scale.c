// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet report's scale test (tests/cli/report.sh): a program of over
 * 100,000 instructions, written as repeated assembly (clang takes minutes
 * to unroll a C loop that large). Rounds of arithmetic, some of which
 * branch both ways (few enough for the kernel's 8192 pending jumps), then
 * a load through a scalar: rejected at the last instruction. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __naked __attribute__((naked))

/* 5 instructions, no branch. */
#define PLAIN ".rept 800\n r1 = r6\n r1 *= 3\n r6 += r1\n r6 ^= 5\n r6 &= 0xffff\n .endr\n"
/* 5 instructions, one conditional jump that either way may take. */
#define FORK ".rept 800\n r1 = r6\n r1 &= 7\n if r1 > 3 goto +1\n r6 += 1\n r6 += 2\n .endr\n"

SEC("socket") __naked int scale(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 0);"
		     PLAIN
		     PLAIN
		     FORK
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     FORK
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     FORK
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     FORK
		     PLAIN
		     PLAIN
		     PLAIN
		     PLAIN
		     "r0 = *(u64 *)(r6 + 0);"
		     "exit;");
}

char _license[] SEC("license") = "GPL";
