// SPDX-License-Identifier: BSD-2-Clause
/* bpfvet explain: leaks, uninitialised reads, context and helper misuse. */
#include "explain_common.h"

const volatile __u64 ro_val = 1;

SEC("socket")
int leak_ringbuf(struct __sk_buff *skb)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0); /* ROOT:leak_ringbuf CLASS:leak_ringbuf:program-bug */

	if (!e)
		return 0;
	*e = skb->len;
	if (skb->mark)
		return 1;
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("tc")
int leak_sk(struct __sk_buff *skb)
{
	struct bpf_sock_tuple t = {};
	struct bpf_sock *sk = bpf_sk_lookup_tcp(skb, &t, sizeof(t.ipv4), -1, 0); /* ROOT:leak_sk */

	if (!sk)
		return 0;
	return sk->mark;
}

SEC("socket")
int release_twice(struct __sk_buff *skb)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	bpf_ringbuf_submit(e, 0);
	bpf_ringbuf_discard(e, 0); /* ROOT:release_twice */
	return 0;
}

SEC("socket")
int ctx_write(struct __sk_buff *skb)
{
	skb->len = 3; /* ROOT:ctx_write */
	return 0;
}

SEC("socket")
int ctx_bad_off(struct __sk_buff *skb)
{
	return *(__u32 *)((char *)skb + 3); /* ROOT:ctx_bad_off */
}

SEC("socket")
int helper_not_allowed(struct __sk_buff *skb)
{
	__u8 x = 1;

	bpf_skb_store_bytes(skb, 0, &x, 1, 0); /* ROOT:helper_not_allowed */
	return 0;
}

SEC("socket")
int rodata_write(struct __sk_buff *skb)
{
	*(volatile __u64 *)&ro_val = skb->len; /* ROOT:rodata_write */
	return 0;
}

SEC("socket")
int map_value_oob_const(struct __sk_buff *skb)
{
	__u32 k = 0;
	__u64 *v = bpf_map_lookup_elem(&amap, &k);

	if (!v)
		return 0;
	return v[8]; /* ROOT:map_value_oob_const */
}

SEC("socket")
int ringbuf_oob(struct __sk_buff *skb)
{
	__u64 *e = bpf_ringbuf_reserve(&rb, 8, 0);

	if (!e)
		return 0;
	e[1] = skb->len; /* ROOT:ringbuf_oob */
	bpf_ringbuf_submit(e, 0);
	return 0;
}

SEC("cgroup_skb/egress")
int bad_retval(struct __sk_buff *skb)
{
	return skb->len > 10 ? 7 : 1; /* ROOT:bad_retval */
}

char LICENSE[] SEC("license") = "GPL";
