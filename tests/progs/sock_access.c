// SPDX-License-Identifier: BSD-2-Clause
/* Loads through socket pointers: the field tables of bpf_sock_common,
 * bpf_sock, bpf_tcp_sock and bpf_xdp_sock, and what is refused before
 * them (NULL-able pointers, stores). Expected verdicts and messages are
 * the Linux 6.18 verifier's (tests/cli/sock.sh). */
#include "sock_asm.h"

struct {
	__uint(type, BPF_MAP_TYPE_XSKMAP);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, int);
} xsks SEC(".maps");

/* skb->sk is a sock_common that may be NULL: no loads before the check. */
SEC("cgroup_skb/egress")
__naked void sk_no_null_check(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"r0 = *(u32 *)(r1 + 4);"
	"r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk))
	: __clobber_all);
}

/* family, bound_dev_if, the addresses and ports of a sock_common. */
SEC("cgroup_skb/egress")
__naked void sk_common_fields(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"r0 = *(u32 *)(r1 + 0);"	/* bound_dev_if */
	"r0 = *(u8 *)(r1 + 4);"		/* family, first byte */
	"r0 = *(u16 *)(r1 + 26);"	/* src_ip4, upper half */
	"r0 = *(u8 *)(r1 + 43);"	/* src_ip6[3], last byte */
	"r0 = *(u16 *)(r1 + 44);"	/* src_port */
	"r0 = *(u32 *)(r1 + 48);"	/* dst_port as a word */
	"r0 = *(u8 *)(r1 + 49);"	/* dst_port, second byte */
	"r0 = *(u32 *)(r1 + 52);"	/* dst_ip4 */
	"r0 = *(u32 *)(r1 + 72);"	/* state */
	"r0 = *(u32 *)(r1 + 76);"	/* rx_queue_mapping */
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk))
	: __clobber_all);
}

/* type .. priority exist only in full sockets. */
SEC("cgroup_skb/egress")
__naked void sk_common_type(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"r0 = *(u32 *)(r1 + 8);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk))
	: __clobber_all);
}

/* A full socket has them; narrow loads only from a field's first byte. */
SEC("cgroup_skb/egress")
__naked void fullsock_fields(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u8 *)(r0 + 8);"		/* type */
	"r1 = *(u16 *)(r0 + 12);"	/* protocol */
	"r1 = *(u32 *)(r0 + 16);"	/* mark */
	"r1 = *(u32 *)(r0 + 20);"	/* priority */
	"r1 = *(u8 *)(r0 + 72);"	/* state */
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void fullsock_type_second_byte(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u8 *)(r0 + 9);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

/* The two bytes after dst_port are padding. */
SEC("cgroup_skb/egress")
__naked void fullsock_dst_port_padding(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u16 *)(r0 + 50);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void fullsock_past_end(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 80);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void fullsock_8_byte_load(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u64 *)(r0 + 0);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

/* bpf_sk_fullsock's result may be NULL. */
SEC("cgroup_skb/egress")
__naked void fullsock_no_null_check(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"r1 = *(u32 *)(r0 + 4);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void fullsock_store(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_sk_fullsock];"
	"if r0 == 0 goto 1f;"
	"r1 = 7;"
	"*(u32 *)(r0 + 16) = r1;"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_sk_fullsock)
	: __clobber_all);
}

/* tcp_sock: u32 fields, then the u64 byte counters at 80 and 88. */
SEC("cgroup_skb/egress")
__naked void tcp_sock_fields(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 0);"	/* snd_cwnd */
	"r1 = *(u32 *)(r0 + 76);"	/* sacked_out */
	"r1 = *(u64 *)(r0 + 80);"	/* bytes_received */
	"r1 = *(u64 *)(r0 + 88);"	/* bytes_acked */
	"r1 = *(u32 *)(r0 + 108);"	/* icsk_retransmits */
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_tcp_sock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void tcp_sock_narrow(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u16 *)(r0 + 0);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_tcp_sock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void tcp_sock_bytes_acked_half(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 88);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_tcp_sock)
	: __clobber_all);
}

/* The access rules let a u32 load reach the upper half of a counter, but
 * no field starts there: the load cannot be rewritten after the walk. */
SEC("cgroup_skb/egress")
__naked void tcp_sock_counter_upper_half(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 92);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_tcp_sock)
	: __clobber_all);
}

SEC("cgroup_skb/egress")
__naked void tcp_sock_past_end(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"call %[bpf_tcp_sock];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 112);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk)),
	  __imm(bpf_tcp_sock)
	: __clobber_all);
}

/* An AF_XDP socket has one field, queue_id. */
SEC("xdp")
__naked void xdp_sock_queue_id(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 8) = r1;"
	"r2 = r10;"
	"r2 += -8;"
	"r1 = %[xsks] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 0);"
	"1: r0 = 2;"
	"exit;"
	:
	: __imm_addr(xsks), __imm(bpf_map_lookup_elem)
	: __clobber_all);
}

SEC("xdp")
__naked void xdp_sock_past_end(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 8) = r1;"
	"r2 = r10;"
	"r2 += -8;"
	"r1 = %[xsks] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r0 + 4);"
	"1: r0 = 2;"
	"exit;"
	:
	: __imm_addr(xsks), __imm(bpf_map_lookup_elem)
	: __clobber_all);
}

/* Sign-extending loads through a socket pointer. */
SEC("cgroup_skb/egress")
__naked void sk_common_ldsx(void)
{
	asm volatile (
	"r1 = *(u64 *)(r1 + %[skb_sk]);"
	"if r1 == 0 goto 1f;"
	"r0 = *(s8 *)(r1 + 4);"
	"1: r0 = 1;"
	"exit;"
	:
	: __imm_const(skb_sk, offsetof(struct __sk_buff, sk))
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
