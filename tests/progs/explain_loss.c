// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: knowledge lost away from the failing check. In each
 * program the value is bounded (or the program's check is right), then
 * one step, several lines before the use, loses what the verifier knew;
 * the ROOT line is that step, never the line of the failing access.
 * Assembly writes out what clang would otherwise fold away. */
#include "explain_common.h"

/* 32-bit operations: the subregister wraps, the upper bits are zeroed. */
SEC("socket")
int alu32_dec_wrap(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r1 = %[i]; w1 -= 1; %[j] = r1" : [j]"=r"(j) : [i]"r"(i) : "r1"); /* ROOT:alu32_dec_wrap CLASS:alu32_dec_wrap:compiler */
	if (skb->mark == 3)
		return 1;
	j += 1;
	return v[j];
}

SEC("socket")
int alu32_neg(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r2 = %[i]; w2 = -w2; %[j] = r2" : [j]"=r"(j) : [i]"r"(i) : "r2"); /* ROOT:alu32_neg */
	if (skb->priority)
		return 2;
	return v[j & 0xffffffff];
}

SEC("socket")
int alu32_mul_overflow(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r3 = %[i]; w3 *= 0x40000001; %[j] = r3" : [j]"=r"(j) : [i]"r"(i) : "r3"); /* ROOT:alu32_mul_overflow */
	j >>= 28;
	return v[j];
}

SEC("socket")
int alu32_sub_var(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, d = skb->mark & 3, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r4 = %[i]; r8 = %[d]; w4 -= w8; %[j] = r4" : [j]"=r"(j) : [i]"r"(i), [d]"r"(d) : "r4", "r8"); /* ROOT:alu32_sub_var */
	if (skb->protocol == 8)
		return 3;
	j += d;
	return v[j];
}

/* A signed 64-bit value in [-8, 7] truncated to its subregister: the
 * negative ones become huge unsigned ones. */
SEC("socket")
int trunc_signed(struct __sk_buff *skb)
{
	__u32 k = 0;
	__s64 i;
	__u64 j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[i] = %[len]; %[i] <<= 32; %[i] s>>= 32" : [i]"=r"(i) : [len]"r"((__u64)skb->len));
	if (i > 7 || i < -8)
		return 0;
	asm volatile("r7 = %[i]; w5 = w7; %[j] = r5" : [j]"=r"(j) : [i]"r"(i) : "r5", "r7"); /* ROOT:trunc_signed */
	j += 8;
	return v[j >> 1];
}

/* Broken links: the check bounds one copy, the access uses another. */
SEC("socket")
int link_and_ones(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] &= -1" : [j]"=r"(j) : [i]"r"(i)); /* ROOT:link_and_ones */
	if (skb->mark)
		return 4;
	if (i > 7)
		return 0;
	return v[j];
}

SEC("socket")
int link_trunc64(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = bpf_ktime_get_ns(), j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("r7 = %[i]; w6 = w7; %[j] = r6" : [j]"=r"(j) : [i]"r"(i) : "r6", "r7"); /* ROOT:link_trunc64 */
	if (i > 7)
		return 0;
	return v[j];
}

SEC("socket")
int link_zext_shifts(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] <<= 32; %[j] >>= 32" : [j]"=r"(j) : [i]"r"(i)); /* ROOT:link_zext_shifts */
	if (i >= 8)
		return 0;
	if (skb->pkt_type)
		return 5;
	return v[j];
}

/* The mask lands on the copy that is not used. */
SEC("socket")
int mask_wrong_reg(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]" : [j]"=r"(j) : [i]"r"(i));
	asm volatile("%[i] &= 7" : [i]"+r"(i)); /* ROOT:mask_wrong_reg */
	if (skb->mark == i)
		return 6;
	return v[j];
}

/* Narrow stores over a spilled, bounded scalar: the slot is no longer
 * a register's copy, the 8-byte fill knows nothing. */
SEC("socket")
int spill_u32_over(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, m = skb->mark, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 16) = %[i]" :: [i]"r"(i) : "memory");
	asm volatile("r1 = %[m]; *(u32 *)(r10 - 12) = w1" :: [m]"r"(m) : "r1", "memory"); /* ROOT:spill_u32_over */
	asm volatile("%[j] = *(u64 *)(r10 - 16)" : [j]"=r"(j) :: "memory");
	return v[j];
}

SEC("socket")
int spill_u8_imm(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 24) = %[i]" :: [i]"r"(i) : "memory");
	if (skb->mark)
		return 7;
	asm volatile("*(u8 *)(r10 - 17) = 1" ::: "memory"); /* ROOT:spill_u8_imm */
	asm volatile("%[j] = *(u64 *)(r10 - 24)" : [j]"=r"(j) :: "memory");
	return v[j];
}

SEC("socket")
int spill_u16_over(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 7, m = skb->priority, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 16) = %[i]" :: [i]"r"(i) : "memory");
	asm volatile("r1 = %[m]; *(u16 *)(r10 - 14) = w1" :: [m]"r"(m) : "r1", "memory"); /* ROOT:spill_u16_over */
	j = skb->len;
	asm volatile("%[j] = *(u64 *)(r10 - 16)" : [j]"+r"(j) :: "memory");
	return v[j];
}

/* A pointer spilled to the stack, half of it overwritten: the fill is a
 * scalar, not a pointer. */
SEC("socket")
int spill_ptr_clobbered(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k), *p;

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 16) = %[v]" :: [v]"r"(v) : "memory");
	asm volatile("*(u32 *)(r10 - 16) = 0" ::: "memory"); /* ROOT:spill_ptr_clobbered */
	asm volatile("%[p] = *(u64 *)(r10 - 16)" : [p]"=r"(p) :: "memory");
	return *p;
}

char LICENSE[] SEC("license") = "GPL";
