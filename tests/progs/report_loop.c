// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet report (tests/cli/report.sh): a bounded loop the verifier walks
 * eight times, and a rejected access whose source line holds characters
 * that HTML must escape, and a program with subprograms. */
#include "explain_common.h"

SEC("socket")
int sum_loop(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);
	__u64 sum = 0;

	if (!v)
		return 0;
#pragma clang loop unroll(disable)
	for (int i = 0; i < 8; i++)
		sum += v[i];
	return sum;
}

SEC("socket")
int html_line(struct __sk_buff *skb)
{
	__u32 k = 0, i = skb->len;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return v[i & 15] < 4; /* "</script><b>x</b>" & 'q' */
}

/* Functions for the listing's headers: a static subprogram called twice
 * and a global function, verified on its own. */
static __attribute__((noinline)) __u32 half(__u32 x)
{
	return x / 2;
}

__attribute__((noinline)) int clamp(__u32 x)
{
	return x > 100 ? 100 : (int)x;
}

SEC("socket")
int with_calls(struct __sk_buff *skb)
{
	return half(skb->len) + half(skb->protocol) + clamp(skb->mark);
}

char _license[] SEC("license") = "GPL";
