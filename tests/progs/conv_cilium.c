// SPDX-License-Identifier: BSD-2-Clause
/* Built as Cilium's datapath is for cilium/ebpf: BTF-defined maps, a
 * configuration constant in .rodata.config that the agent rewrites
 * before loading, an entry program in "tc/entry" and static tail-call
 * programs in "tc/tail" (libbpf knows neither section), a global
 * function in .text, and the tail-call map filled by the loader. */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 8);
	__type(key, __u32);
	__type(value, __u32);
} calls_map SEC(".maps");

struct ct_entry {
	__u64 packets;
	__u64 bytes;
};

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 1024);
	__type(key, __u32);
	__type(value, struct ct_entry);
} ct_map SEC(".maps");

volatile const __u32 cfg_policy_enabled SEC(".rodata.config") = 1;

#define CALL_CT 1
#define CALL_POLICY 2

__attribute__((noinline)) int ct_account(struct __sk_buff *skb, __u32 key)
{
	struct ct_entry *e = bpf_map_lookup_elem(&ct_map, &key), fresh = { 1, 0 };

	if (!skb)
		return 0;
	if (!e) {
		fresh.bytes = skb->len;
		return bpf_map_update_elem(&ct_map, &key, &fresh, BPF_ANY);
	}
	__sync_fetch_and_add(&e->packets, 1);
	__sync_fetch_and_add(&e->bytes, skb->len);
	return 0;
}

static __attribute__((used)) int SEC("tc/tail") tail_ct(struct __sk_buff *skb)
{
	ct_account(skb, skb->hash);
	if (cfg_policy_enabled)
		bpf_tail_call(skb, &calls_map, CALL_POLICY);
	return TC_ACT_OK;
}

static __attribute__((used)) int SEC("tc/tail") tail_policy(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data, *end = (void *)(long)skb->data_end;

	if (data + 14 > end)
		return TC_ACT_SHOT;
	return ((unsigned char *)data)[12] == 0x86 ? TC_ACT_SHOT : TC_ACT_OK;
}

SEC("tc/entry") int cil_from_container(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &calls_map, CALL_CT);
	return TC_ACT_SHOT;
}

char __license[] SEC("license") = "Dual BSD/GPL";
