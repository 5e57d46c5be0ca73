// SPDX-License-Identifier: BSD-2-Clause
/* Built as the kernel's samples/bpf were for their bpf_load.c (without
 * BTF): 28-byte definitions with inner_map_idx naming an earlier map for
 * map-in-map, a 4-byte "version" section, kprobe and "socketN" sections,
 * and a "socket/N" tail-call section. libbpf refuses the object. */
#include <linux/bpf.h>
#include <linux/if_ether.h>
struct pt_regs;
#include <bpf/bpf_helpers.h>
#include "legacy_maps.h"

struct legacy_map_def_ext SEC("maps") counts = {
	.type = BPF_MAP_TYPE_HASH, .key_size = 4, .value_size = 8, .max_entries = 256,
};
struct legacy_map_def_ext SEC("maps") per_proto = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS, .key_size = 4, .value_size = 4, .max_entries = 4,
	.inner_map_idx = 0,
};
struct legacy_map_def_ext SEC("maps") jmp_table = {
	.type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 4,
};

unsigned int _version SEC("version") = 0x061200;

SEC("kprobe/ksys_write") int count_writes(struct pt_regs *ctx)
{
	/* di, the first argument, at its x86-64 offset */
	unsigned int fd = (unsigned int)((const unsigned long *)ctx)[14];
	unsigned long long one = 1, *v = bpf_map_lookup_elem(&counts, &fd);

	if (v)
		__sync_fetch_and_add(v, 1);
	else
		bpf_map_update_elem(&counts, &fd, &one, BPF_NOEXIST);
	return 0;
}

SEC("socket1") int proto_count(struct __sk_buff *skb)
{
	unsigned int proto = skb->protocol & 3, key = 0;
	void *inner = bpf_map_lookup_elem(&per_proto, &proto);
	unsigned long long *v;

	if (!inner)
		return 0;
	v = bpf_map_lookup_elem(inner, &key);
	if (v)
		__sync_fetch_and_add(v, 1);
	bpf_tail_call(skb, &jmp_table, 0);
	return 0;
}

SEC("socket/0") int parse_eth(struct __sk_buff *skb)
{
	unsigned char h[ETH_HLEN];

	if (bpf_skb_load_bytes(skb, 0, h, sizeof(h)))
		return 0;
	return h[12] == 0x08 ? skb->len : 0;
}

char _license[] SEC("license") = "GPL";
