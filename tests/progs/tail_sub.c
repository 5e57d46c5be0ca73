// SPDX-License-Identifier: BSD-2-Clause
/* Tail calls made from subprograms (tests/cli/tail_sub.sh): Linux 6.18
 * lets such a call return to the subprogram's caller with the called
 * program's R0, and queues the fall-through. Precision asked for in the
 * caller after the return is traced back through that exit. */
#include "sock_asm.h"

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, int);
} jmp_table SEC(".maps");

/* Keeps the caller's r6 (callee-saved) and tail calls with ctx. */
static __naked __attribute__((noinline, used)) int tail_sub(void)
{
	asm volatile (
	"r2 = %[jmp_table] ll;"
	"r3 = 1;"
	"call %[bpf_tail_call];"
	"r0 = 7;"
	"exit;"
	:
	: __imm_addr(jmp_table), __imm(bpf_tail_call)
	: __clobber_all);
}

/* r6, set before the call, indexes the stack after it: precise, traced
 * back through both returns of tail_sub (the tail call and the exit). */
SEC("tc")
__naked int precise_across_tail_exit(void)
{
	asm volatile (
	"r7 = r1;"
	"call %[bpf_get_prandom_u32];"
	"r6 = r0;"
	"r6 &= 8;"
	"r1 = 0;"
	"*(u64 *)(r10 - 8) = r1;"
	"*(u64 *)(r10 - 16) = r1;"
	"r1 = r7;"
	"call tail_sub;"
	"r2 = r10;"
	"r2 += -16;"
	"r2 += r6;"
	"r0 = *(u64 *)(r2 + 0);"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* The value returned through the tail call is unknown: a caller that
 * trusts it as an offset is refused (the fall-through returns 7, which
 * alone would pass)... */
SEC("tc")
__naked int r0_unknown_after_tail_exit(void)
{
	asm volatile (
	"r2 = 0;"
	"*(u64 *)(r10 - 8) = r2;"
	"call tail_sub;"
	"r2 = r10;"
	"r2 += -8;"
	"r2 += r0;"
	"r0 = *(u8 *)(r2 + 0);"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* ...and one that bounds it first passes. */
SEC("tc")
__naked int r0_bounded_after_tail_exit(void)
{
	asm volatile (
	"r2 = 0;"
	"*(u64 *)(r10 - 8) = r2;"
	"call tail_sub;"
	"r2 = r10;"
	"r2 += -8;"
	"if r0 > 7 goto 1f;"
	"r2 += r0;"
	"r0 = *(u8 *)(r2 + 0);"
	"1: r0 = 0;"
	"exit;"
	::: __clobber_all);
}

char _license[] SEC("license") = "GPL";
