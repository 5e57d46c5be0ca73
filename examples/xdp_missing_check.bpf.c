// SPDX-License-Identifier: BSD-2-Clause
/*
 * Rejected: a UDP header read with no bounds check before it.
 *
 * The port filter of xdp_port_filter.bpf.c with one check left out: it
 * checks that the IPv4 header is in the packet, then reads the UDP header
 * that follows the IPv4 options without checking that the packet is long
 * enough for it. The UDP pointer is a new packet pointer (its offset
 * depends on ip->ihl) with no range proved yet, so the kernel rejects the
 * read of udp->dest:
 *
 *   invalid access to packet, off=16 size=2, R1(id=1,off=16,r=0)
 *   R1 offset is outside of the packet
 *
 * The fix is the check xdp_port_filter makes: (void *)(udp + 1) > end.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u16);
	__type(value, __u8);
} blocked_ports SEC(".maps");

SEC("xdp")
int xdp_missing_check(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct udphdr *udp;
	struct iphdr *ip;
	__u16 port;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_PASS;
	if (ip->protocol != IPPROTO_UDP)
		return XDP_PASS;
	udp = (void *)ip + ip->ihl * 4;
	/* BUG: no (void *)(udp + 1) > end check before this read. */
	port = bpf_ntohs(udp->dest);
	if (bpf_map_lookup_elem(&blocked_ports, &port))
		return XDP_DROP;
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
