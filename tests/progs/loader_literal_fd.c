// SPDX-License-Identifier: BSD-2-Clause
/* Map loads written by hand with a literal file descriptor and no
 * relocation, as some verifier selftests do, next to a relocated one. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, long);
	__uint(max_entries, 1);
} real SEC(".maps");

/* r1 = map fd N; the second half of LD_IMM64 is zero. */
#define LD_MAP_FD(n) ((unsigned long long)(n) << 32 | 0x1118)

SEC("socket")
__attribute__((naked)) int fd_zero(void)
{
	asm volatile ("r2 = 0;"
		      "*(u64 *)(r10 - 8) = r2;"
		      "r2 = r10;"
		      "r2 += -8;"
		      ".8byte %[ld];"
		      ".8byte 0;"
		      "call %[del];"
		      "exit;"
		      :
		      : [ld] "i"(LD_MAP_FD(0)), [del] "i"(BPF_FUNC_map_delete_elem)
		      : "memory");
}

SEC("socket")
__attribute__((naked)) int fd_seven(void)
{
	asm volatile (".8byte %[ld];"
		      ".8byte 0;"
		      "r0 = 0;"
		      "exit;"
		      :
		      : [ld] "i"(LD_MAP_FD(7))
		      : "memory");
}

SEC("socket")
__attribute__((naked)) int relocated(void)
{
	asm volatile ("r1 = %[real] ll;"
		      "r0 = 0;"
		      "exit;"
		      :
		      : [real] "i"(&real)
		      : "memory");
}

char LICENSE[] SEC("license") = "GPL";
