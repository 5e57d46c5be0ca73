// SPDX-License-Identifier: BSD-2-Clause
/* Legacy map definitions: libbpf 0.x's 20-byte struct bpf_map_def in
 * "maps" (global and static), and the 28-byte samples/bpf form (with inner_map_idx and
 * numa_node) in "maps/samples". */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "legacy_maps.h"

struct legacy_map_def SEC("maps") counters = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 256,
};

struct legacy_map_def SEC("maps") flows = {
	.type = BPF_MAP_TYPE_LRU_HASH,
	.key_size = 16,
	.value_size = 32,
	.max_entries = 4096,
	.map_flags = BPF_F_NO_COMMON_LRU,
};

/* A static map is referenced through the section symbol, with its
 * offset in the instruction. */
static struct legacy_map_def SEC("maps") st_map = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 2,
	.max_entries = 3,
};

/* Declared before its template, but placed by offset: inner_map_idx 1
 * counts the maps of the section in offset order. */
struct legacy_map_def_ext SEC("maps/samples") s_outer = {
	.type = BPF_MAP_TYPE_HASH_OF_MAPS,
	.key_size = 4,
	.value_size = 4,
	.max_entries = 8,
	.inner_map_idx = 1,
};

struct legacy_map_def_ext SEC("maps/samples") s_inner = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 4,
	.max_entries = 1,
	.numa_node = 0,
};

SEC("socket")
int legacy_prog(struct __sk_buff *skb)
{
	__u32 key = skb->protocol & 0xff;
	__u64 *cnt = bpf_map_lookup_elem(&counters, &key);
	char flow[16] = {};

	if (cnt)
		(*cnt)++;
	if (bpf_map_lookup_elem(&flows, flow))
		return 1;
	if (bpf_map_lookup_elem(&st_map, &key))
		return 2;
	return bpf_map_lookup_elem(&s_outer, &key) != 0;
}

char _license[] SEC("license") = "GPL";
