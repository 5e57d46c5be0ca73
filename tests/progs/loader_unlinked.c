// SPDX-License-Identifier: BSD-2-Clause
/* An input of static linking: a function, a variable and a map defined by
 * another object, which libbpf refuses to load, and a map with an invalid
 * pinning attribute. A lenient open shows the rest. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern int other_func(int x);
extern int other_var;

extern struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 1);
} other_map SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, int);
	__type(value, int);
	__uint(max_entries, 1);
	__uint(pinning, 2);
} badpin SEC(".maps");

SEC("xdp")
int uses_func(struct xdp_md *ctx)
{
	return other_func(ctx->ingress_ifindex);
}

SEC("xdp")
int uses_var(struct xdp_md *ctx)
{
	return other_var + ctx->ingress_ifindex;
}

SEC("xdp")
int uses_map(struct xdp_md *ctx)
{
	int key = 0, *v = bpf_map_lookup_elem(&other_map, &key);

	return v ? *v : 0;
}

SEC("xdp")
int uses_badpin(struct xdp_md *ctx)
{
	int key = 0, *v = bpf_map_lookup_elem(&badpin, &key);

	return v ? *v : 0;
}

SEC("xdp")
int clean(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
