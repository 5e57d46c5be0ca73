// SPDX-License-Identifier: BSD-2-Clause
/*
 * Accepted: an XDP port filter that bounds-checks every packet read.
 *
 * It parses Ethernet, IPv4 (with its options) and UDP or TCP, drops packets
 * to the ports listed in blocked_ports and counts the rest per destination
 * port. Every packet read is preceded by a check against data_end that
 * covers it, including the L4 header, whose start depends on the IPv4
 * header length.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/tcp.h>
#include <linux/udp.h>
#include <bpf/bpf_endian.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 64);
	__type(key, __u16);	/* destination port, host order */
	__type(value, __u8);
} blocked_ports SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u16);
	__type(value, __u64);
} port_packets SEC(".maps");

/* The destination port of a UDP or TCP packet, or 0. */
static __always_inline __u16 dest_port(void *l4, void *end, __u8 proto)
{
	if (proto == IPPROTO_UDP) {
		struct udphdr *udp = l4;

		if ((void *)(udp + 1) > end)
			return 0;
		return bpf_ntohs(udp->dest);
	}
	if (proto == IPPROTO_TCP) {
		struct tcphdr *tcp = l4;

		if ((void *)(tcp + 1) > end)
			return 0;
		return bpf_ntohs(tcp->dest);
	}
	return 0;
}

static __always_inline void count(__u16 port)
{
	__u64 one = 1, *n = bpf_map_lookup_elem(&port_packets, &port);

	if (n)
		*n += 1;
	else
		bpf_map_update_elem(&port_packets, &port, &one, BPF_NOEXIST);
}

SEC("xdp")
int xdp_port_filter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip;
	__u32 ihl;
	__u16 port;

	if ((void *)(eth + 1) > end || eth->h_proto != bpf_htons(ETH_P_IP))
		return XDP_PASS;
	ip = (void *)(eth + 1);
	if ((void *)(ip + 1) > end)
		return XDP_PASS;
	ihl = ip->ihl * 4;
	if (ihl < sizeof(*ip))
		return XDP_DROP;
	/* The L4 header starts after the options: its own check covers it. */
	port = dest_port((void *)ip + ihl, end, ip->protocol);
	if (!port)
		return XDP_PASS;
	if (bpf_map_lookup_elem(&blocked_ports, &port))
		return XDP_DROP;
	count(port);
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
