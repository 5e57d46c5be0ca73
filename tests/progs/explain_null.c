// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: pointers used before their NULL check. */
#include "explain_common.h"

SEC("socket")
int null_deref(struct __sk_buff *skb)
{
	__u32 k = skb->len;
	__u64 *v = bpf_map_lookup_elem(&hmap, &k);

	return *v; /* ROOT:null_deref CLASS:null_deref:program-bug */
}

SEC("socket")
int null_wrong_ptr(struct __sk_buff *skb)
{
	__u32 k = skb->len, k2 = skb->mark;
	__u64 *v = bpf_map_lookup_elem(&hmap, &k);
	__u64 *w = bpf_map_lookup_elem(&hmap, &k2);

	if (!v)
		return 0;
	return *v + *w; /* ROOT:null_wrong_ptr */
}

SEC("socket")
int null_one_branch(struct __sk_buff *skb)
{
	__u32 k = skb->len;
	__u64 *v = bpf_map_lookup_elem(&hmap, &k);

	if (skb->mark == 1) {
		if (!v)
			return 0;
		return *v;
	}
	return *v + 1; /* ROOT:null_one_branch */
}

SEC("socket")
int null_ringbuf(struct __sk_buff *skb)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	*e = skb->len; /* ROOT:null_ringbuf */
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("socket")
int null_after_update(struct __sk_buff *skb)
{
	__u32 k = 1;
	__u64 one = 1, *v;

	bpf_map_update_elem(&hmap, &k, &one, 0);
	v = bpf_map_lookup_elem(&hmap, &k);
	*v += skb->len; /* ROOT:null_after_update */
	return 0;
}

SEC("socket")
int null_checked_late(struct __sk_buff *skb)
{
	__u32 k = skb->len;
	__u64 *v = bpf_map_lookup_elem(&hmap, &k);
	__u64 x = *v; /* ROOT:null_checked_late */

	if (!v)
		return 0;
	return x;
}

char LICENSE[] SEC("license") = "GPL";
