// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: more knowledge lost away from the failing check:
 * arithmetic the verifier cannot follow, values read again from memory,
 * stack slots a helper overwrote, loops whose rounds the verifier does
 * not count, and joins where one arm leaves the value unbounded. The
 * ROOT line is where the value stopped being known. */
#include "explain_common.h"

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

/* Modulo and division by constants: the source bounds the value, the
 * verifier does not follow them. */
SEC("socket")
int mod_prandom(struct __sk_buff *skb)
{
	__u32 k = 0, r = bpf_get_prandom_u32();
	__u64 *v;

	r = r % 6; /* ROOT:mod_prandom CLASS:mod_prandom:compiler */
	v = bpf_map_lookup_elem(&amap, &k);
	if (!v)
		return 0;
	return v[r];
}

SEC("socket")
int div_masked(struct __sk_buff *skb)
{
	__u32 k = 0, n = skb->len & 0xff, q;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	q = n / 37; /* ROOT:div_masked */
	if (skb->mark == 9)
		return 1;
	return v[q];
}

/* A shift by an amount the verifier does not know to be below 64. */
SEC("socket")
int shift_var(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 i = skb->len & 1, s = skb->mark, j;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	asm volatile("%[j] = %[i]; %[j] <<= %[s]" : [j]"=&r"(j) : [i]"r"(i), [s]"r"(s)); /* ROOT:shift_var */
	if (skb->priority == 2)
		return 2;
	return v[j];
}

/* The check bounded the first read; the access uses a second read of
 * the same memory, which the verifier knows nothing about. */
SEC("socket")
int reload_map_field(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k), n, m;

	if (!v)
		return 0;
	n = ((volatile __u64 *)v)[0];
	if (n > 7)
		return 0;
	m = ((volatile __u64 *)v)[0]; /* ROOT:reload_map_field */
	return v[m];
}

SEC("socket")
int reload_ctx(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k), m;

	if (!v)
		return 0;
	if (((volatile struct __sk_buff *)skb)->mark > 7)
		return 0;
	m = ((volatile struct __sk_buff *)skb)->mark; /* ROOT:reload_ctx */
	if (skb->len < 20)
		return 1;
	return v[m];
}

/* A helper writes over the stack slot of a bounded index. */
SEC("socket")
int skb_load_over(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 idx = skb->len & 7;
	__u64 *v;

	asm volatile("" : "+m"(idx));
	bpf_skb_load_bytes(skb, 0, &idx, 2); /* ROOT:skb_load_over */
	v = bpf_map_lookup_elem(&amap, &k);
	if (!v)
		return 0;
	return v[idx];
}

SEC("socket")
int probe_read_over(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 idx = skb->len & 7;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	asm volatile("" : "+m"(idx));
	if (!v)
		return 0;
	bpf_probe_read_kernel(&idx, 4, v); /* ROOT:probe_read_over */
	if (skb->mark)
		return 1;
	return v[idx];
}

/* An offset spilled in 4 bytes and read back in 8, then added to the
 * pointer. */
SEC("socket")
int offset_narrow_spill(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 off = (skb->len & 7) * 8, o;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);
	char *p;

	if (!v)
		return 0;
	asm volatile("*(u64 *)(r10 - 16) = 0; r1 = %[o]; *(u32 *)(r10 - 16) = w1" :: [o]"r"(off) : "r1", "memory"); /* ROOT:offset_narrow_spill */
	if (skb->mark)
		return 1;
	asm volatile("%[o] = *(u64 *)(r10 - 16)" : [o]"=r"(o) :: "memory");
	p = (char *)v + o;
	return *(__u64 *)p;
}

/* A 32-bit signed value checked in 32 bits, used as a 64-bit offset
 * after its zero extension. */
SEC("socket")
int signed_zext(struct __sk_buff *skb)
{
	__u32 k = 0;
	__s64 s;
	__u64 j, *v = bpf_map_lookup_elem(&amap, &k);

	asm volatile("%[s] = %[len]; %[s] <<= 32; %[s] s>>= 32" : [s]"=r"(s) : [len]"r"((__u64)skb->len));
	if (!v || s > 3 || s < -4)
		return 0;
	asm volatile("r3 = %[s]; w3 = w3; %[j] = r3" : [j]"=r"(j) : [s]"r"(s) : "r3"); /* ROOT:signed_zext */
	if (skb->mark == 5)
		return 1;
	j += 4;
	return v[j];
}

/* Loops whose rounds the verifier does not count: the value carried
 * round to round grows at its update until it is out of range. */
SEC("socket")
int loop_widen_add(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	__u32 k = 0;
	__u64 j = 0, *v;

	bpf_iter_num_new(&it, 0, 3);
	while (bpf_iter_num_next(&it)) /* ROOT:loop_widen_add */
		j += 2;
	bpf_iter_num_destroy(&it);
	v = bpf_map_lookup_elem(&amap, &k);
	if (!v)
		return 0;
	return v[j];
}

SEC("socket")
int loop_widen_shift(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	__u32 k = 0;
	__u64 j = 1, *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	bpf_iter_num_new(&it, 0, 2);
	while (bpf_iter_num_next(&it)) {
		j <<= 1; /* ROOT:loop_widen_shift */
		if (skb->mark == j)
			break;
	}
	bpf_iter_num_destroy(&it);
	return v[j];
}

/* Joins: one arm bounds the value, the other does not; the path through
 * the unbounded arm fails after the join. */
SEC("socket")
int join_unbounded(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 j, *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	if (skb->mark & 1)
		j = skb->len & 7;
	else
		j = skb->priority; /* ROOT:join_unbounded CLASS:join_unbounded:program-bug */
	if (skb->protocol == 8)
		return 1;
	return v[j];
}

SEC("socket")
int join_prandom(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 j = skb->len & 3, *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	if (skb->pkt_type == 1)
		j = bpf_get_prandom_u32(); /* ROOT:join_prandom */
	if (skb->queue_mapping)
		return 1;
	return v[j];
}

char LICENSE[] SEC("license") = "GPL";
