// SPDX-License-Identifier: BSD-2-Clause
/* iproute2 / tc objects: 36-byte struct bpf_elf_map with id, pinning,
 * inner_id and inner_idx; a map-in-map whose template is given by id and
 * whose slot 3 holds another map; tail calls in "ID/KEY" sections. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_elf_map {		/* iproute2 include/bpf_elf.h */
	__u32 type;
	__u32 size_key;
	__u32 size_value;
	__u32 max_elem;
	__u32 flags;
	__u32 id;
	__u32 pinning;
	__u32 inner_id;
	__u32 inner_idx;
};

#define PIN_GLOBAL_NS 2
#define NO_IDX ((__u32)-1)

struct bpf_elf_map SEC("maps") jmp_tc = {
	.type = BPF_MAP_TYPE_PROG_ARRAY,
	.size_key = 4,
	.size_value = 4,
	.max_elem = 2,
	.id = 1,
	.pinning = PIN_GLOBAL_NS,
	.inner_idx = NO_IDX,
};

struct bpf_elf_map SEC("maps") map_inner = {
	.type = BPF_MAP_TYPE_ARRAY,
	.size_key = 4,
	.size_value = 4,
	.max_elem = 1,
	.id = 42,
	.inner_idx = 3,
};

struct bpf_elf_map SEC("maps") map_outer = {
	.type = BPF_MAP_TYPE_ARRAY_OF_MAPS,
	.size_key = 4,
	.size_value = 4,
	.max_elem = 8,
	.inner_id = 42,
	.inner_idx = NO_IDX,
};

SEC("1/0")
int tail_0(struct __sk_buff *skb)
{
	return 0;
}

SEC("1/1")
int tail_1(struct __sk_buff *skb)
{
	return 1;
}

SEC("classifier")
int cls_main(struct __sk_buff *skb)
{
	__u32 key = 0;
	void *inner = bpf_map_lookup_elem(&map_outer, &key);

	if (inner)
		bpf_map_lookup_elem(inner, &key);
	bpf_tail_call(skb, &jmp_tc, 0);
	return -1;
}

char __license[] SEC("license") = "GPL";
