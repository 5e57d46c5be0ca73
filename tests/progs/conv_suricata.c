// SPDX-License-Identifier: BSD-2-Clause
/* Built as Suricata's eBPF programs were for libbpf 0.x: 20-byte
 * struct bpf_map_def in "maps" (per-CPU flow tables that Suricata pins and
 * looks up by name), an XDP filter and a socket filter in a section named
 * "filter", which Suricata loads as the type its configuration says. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/ip.h>
#include <bpf/bpf_helpers.h>
#include "legacy_maps.h"

struct flowv4_keys {
	__u32 src;
	__u32 dst;
};

struct pair {
	__u64 packets;
	__u64 bytes;
};

struct legacy_map_def SEC("maps") flow_table_v4 = {
	.type = BPF_MAP_TYPE_PERCPU_HASH, .key_size = sizeof(struct flowv4_keys),
	.value_size = sizeof(struct pair), .max_entries = 32768,
};

SEC("xdp") int xdp_hashfilter(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;
	struct iphdr *ip = data + sizeof(*eth);
	struct flowv4_keys key;
	struct pair *p;

	if ((void *)(ip + 1) > end || eth->h_proto != __builtin_bswap16(ETH_P_IP))
		return XDP_PASS;
	key.src = ip->saddr;
	key.dst = ip->daddr;
	p = bpf_map_lookup_elem(&flow_table_v4, &key);
	if (!p)
		return XDP_PASS;
	p->packets++;
	p->bytes += end - data;
	return XDP_DROP;
}

SEC("filter") int hashfilter(struct __sk_buff *skb)
{
	struct flowv4_keys key;
	struct pair *p;

	if (skb->protocol != __builtin_bswap16(ETH_P_IP) ||
	    bpf_skb_load_bytes(skb, 12, &key, sizeof(key)))
		return -1;
	p = bpf_map_lookup_elem(&flow_table_v4, &key);
	if (!p)
		return -1;
	p->packets++;
	return 0;
}

char __license[] SEC("license") = "GPL";
