// SPDX-License-Identifier: BSD-2-Clause
/* Socket maps: the sockets stored in them, lookups that take a reference,
 * which programs may update them, and helpers given the wrong kind of
 * map. Expected results are Linux 6.18's (tests/cli/sock.sh). */
#include "sock_asm.h"

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} smap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKHASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} shash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} plain SEC(".maps");

#define KEY_AT_FP8 "r1 = 0;" "*(u32 *)(r10 - 8) = r1;" "r2 = r10;" "r2 += -8;"

/* A sockmap lookup gives a referenced socket. */
SEC("tc")
__naked void sockmap_lookup_release(void)
{
	asm volatile (
	KEY_AT_FP8
	"r1 = %[smap] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 4);"
	"r1 = r0;"
	"call %[bpf_sk_release];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm_addr(smap), __imm(bpf_map_lookup_elem), __imm(bpf_sk_release)
	: __clobber_all);
}

SEC("tc")
__naked void sockhash_lookup_leak(void)
{
	asm volatile (
	KEY_AT_FP8
	"r1 = %[shash] ll;"
	"call %[bpf_map_lookup_elem];"
	"r0 = 0;"
	"exit;"
	:
	: __imm_addr(shash), __imm(bpf_map_lookup_elem)
	: __clobber_all);
}

/* The value stored is a socket, not memory. */
SEC("tc")
__naked void sockmap_update_skb_sk(void)
{
	asm volatile (
	"r6 = *(u64 *)(r1 + %[skb_sk]);"
	KEY_AT_FP8
	"if r6 == 0 goto 1f;"
	"r1 = %[smap] ll;"
	"r3 = r6;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm_addr(smap), __imm(bpf_map_update_elem)
	: __clobber_all);
}

SEC("tc")
__naked void sockmap_update_stack_value(void)
{
	asm volatile (
	KEY_AT_FP8
	"r3 = r2;"
	"r1 = %[smap] ll;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];"
	"r0 = 0;"
	"exit;"
	:
	: __imm_addr(smap), __imm(bpf_map_update_elem)
	: __clobber_all);
}

/* sock_ops programs update through bpf_sock_map_update only ... */
SEC("sockops")
__naked void sock_ops_sockmap_update(void)
{
	asm volatile (
	"r6 = *(u64 *)(r1 + %[ops_sk]);"
	KEY_AT_FP8
	"if r6 == 0 goto 1f;"
	"r1 = %[smap] ll;"
	"r3 = r6;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(ops_sk, offsetof(struct bpf_sock_ops, sk)),
	  __imm_addr(smap), __imm(bpf_map_update_elem)
	: __clobber_all);
}

/* ... but may delete. */
SEC("sockops")
__naked void sock_ops_sockhash_delete(void)
{
	asm volatile (
	KEY_AT_FP8
	"r1 = %[shash] ll;"
	"call %[bpf_map_delete_elem];"
	"r0 = 1;"
	"exit;"
	:
	: __imm_addr(shash), __imm(bpf_map_delete_elem)
	: __clobber_all);
}

/* A sockmap helper given a hash of sockets, and a plain hash. */
SEC("sk_skb")
__naked void redirect_map_with_sockhash(void)
{
	asm volatile (
	"r2 = %[shash] ll;"
	"r3 = 0;"
	"r4 = 0;"
	"call %[bpf_sk_redirect_map];"
	"exit;"
	:
	: __imm_addr(shash), __imm(bpf_sk_redirect_map)
	: __clobber_all);
}

SEC("sk_skb")
__naked void redirect_hash_with_plain_hash(void)
{
	asm volatile (
	"r6 = r1;"
	KEY_AT_FP8
	"r1 = r6;"
	"r3 = r2;"
	"r2 = %[plain] ll;"
	"r4 = 0;"
	"call %[bpf_sk_redirect_hash];"
	"exit;"
	:
	: __imm_addr(plain), __imm(bpf_sk_redirect_hash)
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
