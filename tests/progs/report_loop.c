// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet report (tests/cli/report.sh): a bounded loop the verifier walks
 * eight times, and a rejected access whose source line holds characters
 * that HTML must escape. */
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

char _license[] SEC("license") = "GPL";
