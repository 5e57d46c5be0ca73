// SPDX-License-Identifier: BSD-2-Clause
/* One program per family of map kinds, for the kernel loader test: every
 * map here must be created for real and passed by fd. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 64);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 1);
} percpu SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__type(key, __u64);
	__type(value, __u32);
	__uint(max_entries, 32);
} lru SEC(".maps");

struct lpm_key {
	__u32 prefixlen;
	__u32 addr;
};

struct {
	__uint(type, BPF_MAP_TYPE_LPM_TRIE);
	__type(key, struct lpm_key);
	__type(value, __u32);
	__uint(max_entries, 16);
	__uint(map_flags, BPF_F_NO_PREALLOC);
} lpm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(value_size, 8);
	__uint(max_entries, 8);
} queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK);
	__uint(value_size, 8);
	__uint(max_entries, 8);
} stack SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_BLOOM_FILTER);
	__uint(value_size, 8);
	__uint(max_entries, 16);
	__uint(map_extra, 3);
} bloom SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

/* No max_entries: one slot per possible CPU, as libbpf sizes it. */
struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, 4);
	__uint(value_size, 4);
} events SEC(".maps");

struct inner {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u32);
	__uint(max_entries, 2);
} inner0 SEC(".maps"), inner1 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY_OF_MAPS);
	__uint(max_entries, 2);
	__type(key, __u32);
	__array(values, struct inner);
} outer_arr SEC(".maps") = {
	.values = { &inner0, &inner1 },
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH_OF_MAPS);
	__uint(max_entries, 4);
	__type(key, __u32);
	__array(values, struct inner);
} outer_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(key_size, 4);
	__uint(value_size, 4);
	__uint(max_entries, 4);
} devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CPUMAP);
	__uint(key_size, 4);
	__uint(value_size, 4);
	__uint(max_entries, 2);
} cpus SEC(".maps");

SEC("tc")
int plain_maps(struct __sk_buff *skb)
{
	struct lpm_key lk = { .prefixlen = 32, .addr = skb->mark };
	__u32 k = 0;
	__u64 k64 = skb->len, v = 0, *p;
	__u32 *q;

	p = bpf_map_lookup_elem(&hash, &k);
	if (p)
		v += *p;
	p = bpf_map_lookup_elem(&array, &k);
	if (p)
		v += *p;
	p = bpf_map_lookup_elem(&percpu, &k);
	if (p)
		v += *p;
	q = bpf_map_lookup_elem(&lru, &k64);
	if (q)
		v += *q;
	q = bpf_map_lookup_elem(&lpm, &lk);
	if (q)
		v += *q;
	bpf_map_push_elem(&queue, &v, 0);
	bpf_map_push_elem(&stack, &v, 0);
	bpf_map_push_elem(&bloom, &v, 0);
	return v & 1;
}

SEC("tc")
int event_maps(struct __sk_buff *skb)
{
	__u64 v = skb->len;

	bpf_ringbuf_output(&rb, &v, sizeof(v), 0);
	bpf_perf_event_output(skb, &events, BPF_F_CURRENT_CPU, &v, sizeof(v));
	return 0;
}

SEC("tc")
int map_in_map(struct __sk_buff *skb)
{
	__u32 k = skb->mark & 1, *v;
	void *in;

	in = bpf_map_lookup_elem(&outer_arr, &k);
	if (!in)
		return 0;
	v = bpf_map_lookup_elem(in, &k);
	if (v)
		return *v;
	in = bpf_map_lookup_elem(&outer_hash, &k);
	if (!in)
		return 1;
	v = bpf_map_lookup_elem(in, &k);
	return v ? *v : 2;
}

SEC("xdp")
int redirect_maps(struct xdp_md *ctx)
{
	if (ctx->ingress_ifindex & 1)
		return bpf_redirect_map(&devs, 0, XDP_PASS);
	return bpf_redirect_map(&cpus, 0, XDP_PASS);
}

SEC("tc")
int tail_target(struct __sk_buff *skb)
{
	return skb->len > 100;
}

/* Tail calls: the program array starts with tail_target in slot 0. */
struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__uint(key_size, 4);
	__array(values, int(void *));
} jumps SEC(".maps") = {
	.values = { [0] = (void *)&tail_target },
};

SEC("tc")
int tail_caller(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jumps, 0);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
