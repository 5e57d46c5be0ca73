// SPDX-License-Identifier: BSD-2-Clause
/* Linked scalars of one base, one by a 64-bit "+const" (r7 = r0 - 88)
 * and one by a 32-bit one (w8 = w0 - 24): a branch on one does not narrow
 * the other, whose upper half it does not know (the live 6.18.44 kernel's
 * lines in tests/fixtures/links/kernel-6.18-level2.txt; found by bpfvet
 * selfcheck on random branchy programs). Then the same with two links of
 * one width, which do narrow each other. */
#include "sock_asm.h"

SEC("socket") __naked int widths_differ(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r2 &= 0x3f;"
		     "r0 = r2;"
		     "r8 = r0;"
		     "w8 += -24;"
		     "r7 = r0;"
		     "r7 += -88;"
		     "if w8 > 32 goto l0_%=;"
		     "*(u64 *)(r10 - 8) = r7;"
		     "l0_%=:"
		     "r0 = 0;"
		     "exit;" ::: __clobber_all);
}

SEC("socket") __naked int widths_same(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 0);"
		     "r2 &= 0x3f;"
		     "r0 = r2;"
		     "r8 = r0;"
		     "r8 += -24;"
		     "r7 = r0;"
		     "r7 += -88;"
		     "if r8 > 32 goto l0_%=;"
		     "*(u64 *)(r10 - 8) = r7;"
		     "l0_%=:"
		     "r0 = 0;"
		     "exit;" ::: __clobber_all);
}

char _license[] SEC("license") = "GPL";
