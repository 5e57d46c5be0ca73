// SPDX-License-Identifier: BSD-2-Clause
/* BTF-defined maps of every shape the loader parses, and global data in
 * .data, .rodata, .bss, .rodata.str1.1 and a custom .data.* section. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct val {
	__u64 packets;
	__u64 bytes;
	__u32 last;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, struct val);
	__uint(max_entries, 1024);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} by_type SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(key_size, 4);
	__uint(value_size, 24);
	__uint(max_entries, 16);
	__uint(numa_node, 0);
	__uint(pinning, 1 /* LIBBPF_PIN_BY_NAME */);
} by_size SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 5000);	/* rounded up to a power-of-two of pages */
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__type(value, __u64);
	__uint(max_entries, 100);
	__uint(map_extra, 3);
} bloom SEC(".maps");

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 8);
};

struct inner inner_a SEC(".maps");
struct inner inner_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct inner);
} outer SEC(".maps") = {
	.values = { [0] = &inner_a, [2] = &inner_b },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct {
		__uint(type, BPF_MAP_TYPE_HASH);
		__type(key, __u64);
		__type(value, __u32);
		__uint(max_entries, 32);
	});
} outer_hash SEC(".maps");

int tail_target(struct __sk_buff *skb);

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 3);
	__type(key, __u32);
	__array(values, int (void *));
} jmp SEC(".maps") = {
	.values = { [1] = (void *)&tail_target },
};

/* Global data. */
int counter = 7;			/* .data */
const volatile int limit = 42;		/* .rodata */
__u64 hits;				/* .bss */
__u64 custom_val SEC(".data.custom") = 0x1122334455667788ULL;
static volatile struct {
	int a;
	int b;
} pair = { 1, 2 };			/* .data: offset 4 */

SEC("tc")
int tail_target(struct __sk_buff *skb)
{
	return 0;
}

SEC("tc")
int use_maps(struct __sk_buff *skb)
{
	__u32 key = 0;
	struct val *v;
	void *inner;

	v = bpf_map_lookup_elem(&by_type, &key);
	if (v)
		v->packets++;
	bpf_map_lookup_elem(&by_size, &key);
	inner = bpf_map_lookup_elem(&outer, &key);
	if (inner)
		bpf_map_lookup_elem(inner, &key);
	bpf_tail_call(skb, &jmp, 1);
	counter += limit;
	hits++;
	custom_val++;
	pair.b = 5;
	bpf_printk("hits %d", hits);
	return bpf_ringbuf_output(&rb, &key, sizeof(key), 0) +
	       bpf_map_peek_elem(&bloom, &key) +
	       (bpf_map_lookup_elem(&outer_hash, &key) != 0);
}

char LICENSE[] SEC("license") = "GPL";
