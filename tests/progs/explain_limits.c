// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: the verifier's limits, and errors inside subprograms. */
#include "explain_common.h"

struct bpf_iter_num {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) __ksym;
extern int *bpf_iter_num_next(struct bpf_iter_num *it) __ksym;
extern void bpf_iter_num_destroy(struct bpf_iter_num *it) __ksym;

static __noinline __u64 deep2(__u64 x)
{
	volatile char buf[300];

	buf[x & 7] = 1;
	return buf[1];
}

static __noinline __u64 deep1(__u64 x)
{
	volatile char buf[300];

	buf[x & 7] = 2;
	return buf[2] + deep2(x);
}

SEC("socket")
int stack_chain(struct __sk_buff *skb)
{
	return deep1(skb->len); /* CLASS:stack_chain:verifier-limit */
}

SEC("socket")
int too_many_insns(struct __sk_buff *skb)
{
	volatile __u64 acc = 0;

	for (__u32 i = 0; i < 300000; i++) /* CLASS:too_many_insns:verifier-limit */
		acc += i ^ skb->len;
	return acc;
}

static __noinline __u64 sub_index(__u64 *v, __u64 i)
{
	return v[i]; /* ROOT:sub_index_caller */
}

SEC("socket")
int sub_index_caller(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return sub_index(v, skb->len);
}

__noinline int global_null(__u64 *p)
{
	return *p; /* ROOT:global_null_caller */
}

SEC("socket")
int global_null_caller(struct __sk_buff *skb)
{
	__u64 x = skb->len;

	return global_null(&x);
}

SEC("socket")
int loop_forever(struct __sk_buff *skb)
{
	volatile __u32 n = skb->len;

	while (n != 7) /* ROOT:loop_forever */
		;
	return 0;
}

/* The verifier cannot count an iterator's rounds: j keeps growing at
 * its update, round after round, until the access inside the loop is
 * out of range (the program itself stays within 4 rounds). */
SEC("socket")
int iter_index(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	__u32 k = 0, j = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k), sum = 0;

	if (!v)
		return 0;
	bpf_iter_num_new(&it, 0, 4);
	while (bpf_iter_num_next(&it)) {
		sum += v[j];
		j++; /* ROOT:iter_index */
	}
	bpf_iter_num_destroy(&it);
	return sum;
}

/* j counts the iterator's rounds, which the verifier does not know: as
 * it walks them, j grows at its update until it reaches 8, and the
 * access after the loop (in range for the 3 real rounds) fails. */
SEC("socket")
int iter_after_loop(struct __sk_buff *skb)
{
	struct bpf_iter_num it;
	__u32 k = 0, j = 0;
	__u64 *v;

	bpf_iter_num_new(&it, 0, 3);
	while (bpf_iter_num_next(&it)) /* ROOT:iter_after_loop (clang puts j++ here) */
		j++;
	bpf_iter_num_destroy(&it);
	v = bpf_map_lookup_elem(&amap, &k);
	if (!v)
		return 0;
	return v[j];
}

char LICENSE[] SEC("license") = "GPL";
