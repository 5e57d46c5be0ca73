// SPDX-License-Identifier: BSD-2-Clause
/* Objects built for cilium/ebpf: static programs next to BTF-defined maps
 * (Cilium's datapath declares its tail-call programs static), and a
 * program calling a function that is only declared. libbpf refuses the
 * object; cilium/ebpf loads every program but the one whose extern nothing
 * resolves. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 2);
	__type(key, __u32);
	__type(value, __u32);
} calls SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

static __attribute__((used)) int SEC("tc") tail_count(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &key);

	if (v)
		*v += 1;
	return 0;
}

SEC("tc") int entry(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &calls, 0);
	return 0;
}

/* Declared, never defined: cilium/ebpf keeps the reference for the user to
 * fill, so this program alone cannot be loaded. */
int not_linked(void);

SEC("tc") int calls_undefined(struct __sk_buff *skb)
{
	return not_linked();
}

char _license[] SEC("license") = "GPL";
