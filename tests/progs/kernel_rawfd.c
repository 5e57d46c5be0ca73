// SPDX-License-Identifier: BSD-2-Clause
/* A map reference written by hand, with no relocation: the fd in the
 * instruction (0) goes to the kernel as it is, as libbpf passes it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("socket")
__attribute__((naked)) void raw_fd(void)
{
	asm volatile (
		"r2 = 0;"
		"*(u64 *)(r10 - 8) = r2;"
		"r2 = r10;"
		"r2 += -8;"
		/* ld_imm64 r1, BPF_PSEUDO_MAP_FD, imm 0 */
		".8byte 0x1118;"
		".8byte 0;"
		"call 3;"		/* bpf_map_delete_elem */
		"exit;"
		::: "memory");
}

char LICENSE[] SEC("license") = "GPL";
