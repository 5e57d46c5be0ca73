// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: offsets without (or with too weak) bounds checks. */
#include "explain_common.h"

SEC("socket")
int idx_unbounded(struct __sk_buff *skb)
{
	__u32 k = 0, i = skb->len;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return v[i]; /* ROOT:idx_unbounded CLASS:idx_unbounded:program-bug */
}

SEC("socket")
int idx_off_by_one(struct __sk_buff *skb)
{
	__u32 k = 0, i = skb->len;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v || i > 8)
		return 0;
	return v[i]; /* ROOT:idx_off_by_one */
}

SEC("socket")
int idx_signed(struct __sk_buff *skb)
{
	__u32 k = 0;
	int i = (int)skb->len;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v || i > 7)
		return 0;
	return v[i]; /* ROOT:idx_signed */
}

SEC("socket")
int idx_helper_ret(struct __sk_buff *skb)
{
	__u32 k = 0, i = bpf_get_prandom_u32();
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return v[i]; /* ROOT:idx_helper_ret */
}

SEC("socket")
int idx_wrong_var(struct __sk_buff *skb)
{
	__u32 k = 0, i = skb->len, j = skb->mark;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v || i > 7)
		return 0;
	return v[j]; /* ROOT:idx_wrong_var */
}

SEC("socket")
int idx_mask_too_wide(struct __sk_buff *skb)
{
	__u32 k = 0, i = skb->len & 15;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return v[i]; /* ROOT:idx_mask_too_wide */
}

SEC("xdp")
int pkt_no_check(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;

	return *(__u32 *)data; /* ROOT:pkt_no_check */
}

SEC("xdp")
int pkt_short_check(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;

	if (data + 2 > end)
		return 0;
	return *(__u32 *)data; /* ROOT:pkt_short_check */
}

SEC("xdp")
int pkt_var_off(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	__u8 *p = data;

	if (data + 16 > end)
		return 0;
	return p[p[0]]; /* ROOT:pkt_var_off */
}

SEC("socket")
int stack_var_read(struct __sk_buff *skb)
{
	__u64 buf[4] = {};

	buf[0] = skb->len;
	return ((volatile __u64 *)buf)[skb->mark]; /* ROOT:stack_var_read */
}

char LICENSE[] SEC("license") = "GPL";
