// SPDX-License-Identifier: BSD-2-Clause
/* Global functions for bpfvet selfcheck (tests/cli/selfcheck.sh): a run
 * that calls one is followed into it and compared with the verifier's own
 * walk of that function, from its BTF prototype. Global functions
 * calling global functions, a static one in a global one, the callee's
 * stack and a context argument; and sc_fault, whose only scalar addition
 * is in its global function (what BPFVET_FAULT=bounds-add gets wrong
 * there, a run sees only inside the callee). Assembly, so that the
 * instruction counts the test asserts do not depend on the compiler. */
#include "sock_asm.h"

char _license[] SEC("license") = "GPL";

/* The low four bits, with bit 4 set above 7: a branch on the argument,
 * and a value on the callee's own stack. In C (as are the other global
 * functions): a naked function's parameters have no names in BTF, and
 * the kernel refuses such BTF, which makes every function static. */
__attribute__((noinline)) int sc_low(int x)
{
	volatile int v = x & 15;

	if (v > 7)
		v |= 16;
	return v;
}

static __attribute__((noinline)) int sc_shift(int x)
{
	return x >> 1;
}

/* A global function that calls a global and a static one: the run is
 * two and three calls deep, the walks one and two. */
__attribute__((noinline)) int sc_outer(int x)
{
	return sc_shift(sc_low(x));
}

/* The context, as the prototype says: skb->len. */
__attribute__((noinline)) int sc_len(struct __sk_buff *skb)
{
	return skb->len;
}

SEC("socket")
__naked int sc_global(void)
{
	asm volatile(
	"r6 = r1;"
	"call %[bpf_get_prandom_u32];"
	"r1 = r0;"
	"call sc_low;"
	"r1 = r0;"
	"call sc_outer;"
	"r1 = r6;"
	"call sc_len;"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* (x & 3) + 7: with bounds-add the verifier thinks it 0 to 3. */
__attribute__((noinline)) int sc_add8(int x)
{
	return (x & 3) + 7;
}

SEC("socket")
__naked int sc_fault(void)
{
	asm volatile(
	"call %[bpf_get_prandom_u32];"
	"r1 = r0;"
	"call sc_add8;"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}
