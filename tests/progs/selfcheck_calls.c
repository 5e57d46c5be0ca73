// SPDX-License-Identifier: BSD-2-Clause
/* Calls that bpfvet selfcheck follows a run through (tests/cli/selfcheck.sh):
 * a global function, compared with the verifier's own walk of it from
 * its BTF prototype (global functions calling global functions, a static
 * one in a global one, the callee's stack, a context argument), and
 * bpf_loop's callback, each of its calls (sc_loop). sc_fault's only
 * scalar addition is in its global function, sc_loop's before the call
 * in its callback: what BPFVET_FAULT=bounds-add gets wrong there, a run
 * sees only inside them. The programs' bodies are assembly and the
 * functions small C, so that the counts the test asserts stay put. */
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

/* bpf_loop: the callback adds its index to a sum on the caller's stack,
 * and stops the loop once the sum is over 4 (the fourth call of seven or
 * five, the last of one or three); it counts its calls through a global
 * function, a call from the callback's frame. */
struct sc_acc {
	__u64 sum;
	__u64 calls;
};

static int sc_step(__u64 i, void *ctx)
{
	struct sc_acc *a = ctx;

	a->sum += i;
	a->calls += sc_low(1);
	return a->sum > 4;
}

SEC("socket")
int sc_loop(struct __sk_buff *skb)
{
	struct sc_acc a = { .sum = bpf_get_prandom_u32() & 1 };
	long n = bpf_loop((bpf_get_prandom_u32() & 6) | 1, sc_step, &a, 0);

	return (int)(n + a.calls) & 1;
}
