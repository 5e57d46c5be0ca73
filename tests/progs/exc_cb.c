// SPDX-License-Identifier: BSD-2-Clause
/* Exception callbacks: the global function named by the decl tag
 * "exception_callback:NAME" on a program is verified although nothing
 * calls it, may take one scalar only, may not be called directly nor
 * reach a tail call; bpf_throw leaves the program from any frame but not
 * from a callback. Expected verdicts and messages are the Linux 6.18
 * verifier's (tests/cli/exccb.sh). */
#include "sock_asm.h"

#define __exception_cb(name) __attribute__((btf_decl_tag("exception_callback:" #name)))

extern void bpf_throw(__u64 cookie) __ksym;

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} jmp_table SEC(".maps");

/* Callbacks with parameters are in C: the kernel wants their names in
 * BTF, which clang leaves out for naked functions. */
__attribute__((noinline)) int exc_cb_ok(__u64 cookie)
{
	return cookie + 1;
}

__attribute__((noinline)) int exc_cb_two_args(__u64 a, __u64 b)
{
	return a + b;
}

/* A tail call in dead code still makes the subprogram one that has it. */
static __naked __attribute__((noinline, used)) int tail_sub(void)
{
	asm volatile (
	"r2 = 0;"
	"if r2 == 0 goto 1f;"
	"r2 = %[jmp_table] ll;"
	"r3 = 0;"
	"call %[bpf_tail_call];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm_addr(jmp_table), __imm(bpf_tail_call)
	: __clobber_all);
}

__attribute__((noinline)) int exc_cb_tail(__u64 cookie)
{
	return tail_sub() + cookie;
}

/* In its own body, the one frame of its call chain, the tail call passes. */
__attribute__((noinline)) int exc_cb_own_tail(__u64 cookie)
{
	asm volatile (
	"r2 = 0;"
	"if r2 == 0 goto 1f;"
	"r2 = %[jmp_table] ll;"
	"r3 = 0;"
	"call %[bpf_tail_call];"
	"1:"
	:
	: __imm_addr(jmp_table), __imm(bpf_tail_call)
	: __clobber_all);
	return cookie;
}

/* Nothing calls the callback: still reachable, and verified. */
SEC("tc")
__exception_cb(exc_cb_ok)
__naked int cb_unreachable(void)
{
	asm volatile (
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

SEC("tc")
__exception_cb(exc_cb_ok)
__naked int throw_with_cb(void)
{
	asm volatile (
	"r1 = 7;"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw)
	: __clobber_all);
}

/* Without a callback the cookie is the program's return value. In C, so
 * that the object's BTF describes bpf_throw. */
SEC("tc")
int throw_default(struct __sk_buff *ctx)
{
	bpf_throw(7);
	return 0;
}

static __naked __attribute__((noinline, used)) int throw_sub(void)
{
	asm volatile (
	"r1 = 1;"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw)
	: __clobber_all);
}

/* Thrown from a subprogram: the whole program ends there. */
SEC("tc")
__exception_cb(exc_cb_ok)
__naked int throw_in_subprog(void)
{
	asm volatile (
	"call throw_sub;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* A reference held by the caller leaks when a subprogram throws. */
SEC("tc")
__exception_cb(exc_cb_ok)
__naked int throw_leaks_ref(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 1f;"
	"r6 = r0;"
	"call throw_sub;"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

SEC("tc")
__exception_cb(exc_cb_ok)
__naked int call_cb_directly(void)
{
	asm volatile (
	"r1 = 1;"
	"call exc_cb_ok;"
	"exit;"
	::: __clobber_all);
}

SEC("tc")
__exception_cb(exc_cb_two_args)
__naked int cb_two_args(void)
{
	asm volatile (
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

SEC("tc")
__exception_cb(exc_cb_tail)
__naked int cb_tail_call(void)
{
	asm volatile (
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

SEC("tc")
__exception_cb(exc_cb_own_tail)
__naked int cb_own_tail_call(void)
{
	asm volatile (
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

static __naked __attribute__((noinline, used)) int loop_cb_tail(void)
{
	asm volatile (
	"call tail_sub;"
	"r0 = 0;"
	"exit;"
	::: __clobber_all);
}

/* bpf_loop callbacks may not reach a tail call either, */
SEC("tc")
__naked int tail_in_loop_cb_sub(void)
{
	asm volatile (
	"r1 = 1;"
	"r2 = loop_cb_tail ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_loop];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_loop)
	: __clobber_all);
}

/* nor hold one. */
SEC("tc")
__naked int tail_in_loop_cb(void)
{
	asm volatile (
	"r1 = 1;"
	"r2 = tail_sub ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_loop];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_loop)
	: __clobber_all);
}

static __naked __attribute__((noinline, used)) int loop_cb_throws(void)
{
	asm volatile (
	"r1 = 0;"
	"call %[bpf_throw];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_throw)
	: __clobber_all);
}

/* Callbacks may not throw. */
SEC("tc")
__naked int throw_in_loop_cb(void)
{
	asm volatile (
	"r1 = 1;"
	"r2 = loop_cb_throws ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_loop];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_loop)
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
