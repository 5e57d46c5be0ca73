// SPDX-License-Identifier: BSD-2-Clause
/* The life of a socket pointer: NULL checks, references taken by the
 * lookup helpers and dropped by bpf_sk_release, casts that share the
 * reference, leaks, copies through the stack, and helper arguments that
 * take any socket. Expected verdicts and messages are the Linux 6.18
 * verifier's (tests/cli/sock.sh). */
#include "sock_asm.h"

struct {
	__uint(type, BPF_MAP_TYPE_SK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, long);
} sk_stg SEC(".maps");

#define SKB_SK __imm_const(skb_sk, offsetof(struct __sk_buff, sk))

SEC("tc")
__naked void lookup_release(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

SEC("tc")
__naked void lookup_leak(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm_tuple
	: __clobber_all);
}

/* Only the NULL branch may skip the release. */
SEC("tc")
__naked void lookup_leak_non_null(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 != 0 goto 1f;"
	"exit;"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm_tuple
	: __clobber_all);
}

SEC("tc")
__naked void release_or_null(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

/* A released socket's copies are gone too. */
SEC("tc")
__naked void release_twice(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 1f;"
	"r6 = r0;"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

/* bpf_sk_fullsock and bpf_tcp_sock hand out the same socket under another
 * type: releasing the original ends them as well. */
SEC("tc")
__naked void fullsock_after_release(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 2f;"
	"r6 = r0;"
	"r1 = r0;"
	"call %[bpf_sk_fullsock];"
	"r7 = r0;"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"if r7 == 0 goto 2f;"
	"r0 = *(u32 *)(r7 + 4);"
	"2: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm(bpf_sk_fullsock),
	  __imm_tuple
	: __clobber_all);
}

/* ... and releasing the cast releases the original. */
SEC("tc")
__naked void release_through_tcp_sock(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 2f;"
	"r6 = r0;"
	"r1 = r0;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"r0 = 0;"
	"exit;"
	"1: r1 = r6;"
	"call %[bpf_sk_release];"
	"2: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm(bpf_tcp_sock),
	  __imm_tuple
	: __clobber_all);
}

SEC("tc")
__naked void use_after_release_through_cast(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"if r0 == 0 goto 2f;"
	"r6 = r0;"
	"r1 = r0;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"r0 = *(u32 *)(r6 + 4);"
	"r0 = 0;"
	"exit;"
	"1: r1 = r6;"
	"call %[bpf_sk_release];"
	"2: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm(bpf_tcp_sock),
	  __imm_tuple
	: __clobber_all);
}

/* bpf_skc_lookup_tcp gives a referenced sock_common. */
SEC("tc")
__naked void skc_lookup_release(void)
{
	asm volatile (
	"r2 = 0;"
	"*(u32 *)(r10 - 8) = r2;"
	"*(u64 *)(r10 - 16) = r2;"
	"*(u64 *)(r10 - 24) = r2;"
	"*(u64 *)(r10 - 32) = r2;"
	"*(u64 *)(r10 - 40) = r2;"
	"*(u64 *)(r10 - 48) = r2;"
	"r2 = r10;"
	"r2 += -48;"
	"r3 = %[sizeof_bpf_sock_tuple];"
	"r4 = 0;"
	"r5 = 0;"
	"call %[bpf_skc_lookup_tcp];"
	"if r0 == 0 goto 1f;"
	"r6 = r0;"
	"r1 = *(u32 *)(r0 + 4);"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_skc_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

/* The listener of a request socket is not a reference of the program. */
SEC("tc")
__naked void release_listener(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_get_listener_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: SKB_SK, __imm(bpf_get_listener_sock), __imm(bpf_sk_release)
	: __clobber_all);
}

SEC("tc")
__naked void release_skb_sk(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: SKB_SK, __imm(bpf_sk_release)
	: __clobber_all);
}

/* Each load of skb->sk is a new pointer: checking one says nothing of
 * the other, while a copy shares the check. */
SEC("tc")
__naked void skb_sk_copy_checked(void)
{
	asm volatile (
	"r2 = *(u64 *)(r1 + %[skb_sk]);"
	"r3 = r2;"
	"if r2 == 0 goto 1f;"
	"r0 = *(u32 *)(r3 + 4);"
	"1: r0 = 0;"
	"exit;"
	:
	: SKB_SK
	: __clobber_all);
}

SEC("tc")
__naked void skb_sk_reload_unchecked(void)
{
	asm volatile (
	"r2 = *(u64 *)(r1 + %[skb_sk]);"
	"r3 = *(u64 *)(r1 + %[skb_sk]);"
	"if r2 == 0 goto 1f;"
	"r0 = *(u32 *)(r3 + 4);"
	"1: r0 = 0;"
	"exit;"
	:
	: SKB_SK
	: __clobber_all);
}

/* A reference kept on the stack is still a reference. */
SEC("tc")
__naked void spill_fill_release(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"*(u64 *)(r10 - 56) = r0;"
	"r6 = *(u64 *)(r10 - 56);"
	"if r6 == 0 goto 1f;"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

SEC("tc")
__naked void spill_leak(void)
{
	asm volatile (
	SK_LOOKUP_TCP
	"*(u64 *)(r10 - 56) = r0;"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm_tuple
	: __clobber_all);
}

/* Two sockets compared with each other. */
SEC("tc")
__naked void compare_two_sockets(void)
{
	asm volatile (
	"r9 = r1;"
	SK_LOOKUP_TCP
	"r6 = r0;"
	"r1 = r9;"
	SK_LOOKUP_TCP
	"r7 = r0;"
	"if r6 == r7 goto 1f;"
	"1: if r6 == 0 goto 2f;"
	"r1 = r6;"
	"call %[bpf_sk_release];"
	"2: if r7 == 0 goto 3f;"
	"r1 = r7;"
	"call %[bpf_sk_release];"
	"3: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_sk_lookup_tcp), __imm(bpf_sk_release), __imm_tuple
	: __clobber_all);
}

/* Socket local storage takes any socket pointer, NULL included. */
SEC("tc")
__naked void sk_storage_of_skb_sk(void)
{
	asm volatile (
	"r2 = *(u64 *)(r1 + %[skb_sk]);"
	"r1 = %[sk_stg] ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_sk_storage_get];"
	"r0 = 0;"
	"exit;"
	:
	: SKB_SK, __imm_addr(sk_stg), __imm(bpf_sk_storage_get)
	: __clobber_all);
}

SEC("tc")
__naked void sk_storage_of_tcp_sock(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r2 = r0;"
	"r1 = %[sk_stg] ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_sk_storage_get];"
	"1: r0 = 0;"
	"exit;"
	:
	: SKB_SK, __imm_addr(sk_stg), __imm(bpf_sk_storage_get), __imm(bpf_tcp_sock)
	: __clobber_all);
}

/* bpf_tcp_sock wants a socket, not a scalar. */
SEC("tc")
__naked void tcp_sock_of_scalar(void)
{
	asm volatile (
	"r1 = 0;"
	"call %[bpf_tcp_sock];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_tcp_sock)
	: __clobber_all);
}

/* sock_ops and sk_msg contexts carry full sockets. */
SEC("sockops")
__naked void sock_ops_sk(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[ops_sk]);"
	"if r1 == 0 goto 1f;"
	"r0 = *(u32 *)(r1 + 8);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(ops_sk, offsetof(struct bpf_sock_ops, sk))
	: __clobber_all);
}

SEC("sk_msg")
__naked void sk_msg_sk(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[msg_sk]);"
	"r0 = *(u32 *)(r1 + 72);"
	"r0 = *(u32 *)(r1 + 84);"
	"r0 = 1;"
	"exit;"
	:
	: __imm_const(msg_sk, offsetof(struct sk_msg_md, sk))
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
