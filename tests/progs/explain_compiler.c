// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: bounds the source checks but the code loses, with the
 * pattern written out in assembly where clang would not emit it by
 * itself. Each ROOT line is where the knowledge goes. */
#include "explain_common.h"

SEC("socket")
int link_mul(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] *= 1" : [j]"=r"(j) : [i]"r"(i)); /* ROOT:link_mul CLASS:link_mul:compiler */
	if (i > 7)
		return 0;
	return v[j];
}

SEC("socket")
int link_xor(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] ^= 0" : [j]"=r"(j) : [i]"r"(i)); /* ROOT:link_xor */
	if (i >= 8)
		return 0;
	return v[j];
}

SEC("socket")
int spill_narrow(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 8) = 0; *(u32 *)(r10 - 8) = %[i]; %[j] = *(u64 *)(r10 - 8)" : [j]"=r"(j) : [i]"r"(i) : "memory"); /* ROOT:spill_narrow CLASS:spill_narrow:compiler */
	return v[j];
}

SEC("socket")
int alu32_wrap(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r1 = %[i]; r1 -= 4; w1 = w1; r1 += 4; %[j] = r1" : [j]"=r"(j) : [i]"r"(i) : "r1"); /* ROOT:alu32_wrap */
	return v[j];
}

SEC("socket")
int link_copy_checked(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] |= 0" : [j]"=r"(j) : [i]"r"(i)); /* ROOT:link_copy_checked */
	if (j > 7)
		return 0;
	return v[i];
}

char LICENSE[] SEC("license") = "GPL";
