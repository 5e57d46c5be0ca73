// SPDX-License-Identifier: BSD-2-Clause
/* Built as Open vSwitch's eBPF datapath prototype was: 20-byte
 * struct bpf_map_def in "maps", helpers called through constant
 * function pointers, static entry points in sections named for their
 * role ("ingress", "tail-N") that its loader loads as tc classifiers
 * (-t sched_cls), a per-CPU flow key shared through a map, and tail
 * calls by index. */
#include <linux/bpf.h>
#include <linux/pkt_cls.h>
#include "legacy_maps.h"

#define __section(NAME) __attribute__((section(NAME), used))

static void *(*map_lookup)(void *map, const void *key) = (void *)BPF_FUNC_map_lookup_elem;
static long (*map_update)(void *map, const void *key, const void *value,
			  unsigned long long flags) = (void *)BPF_FUNC_map_update_elem;
static long (*tail_call)(void *ctx, void *map, unsigned int index) =
	(void *)BPF_FUNC_tail_call;
static long (*load_bytes)(const void *skb, unsigned int off, void *to, unsigned int len) =
	(void *)BPF_FUNC_skb_load_bytes;
static long (*printk)(const char *fmt, unsigned int fmt_size, ...) =
	(void *)BPF_FUNC_trace_printk;

struct flow_key {
	unsigned char eth_dst[6];
	unsigned char eth_src[6];
	unsigned short proto;
	unsigned short in_port;
};

struct legacy_map_def __section("maps") percpu_flow_key = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY, .key_size = 4,
	.value_size = sizeof(struct flow_key), .max_entries = 1,
};
struct legacy_map_def __section("maps") flow_table = {
	.type = BPF_MAP_TYPE_HASH, .key_size = sizeof(struct flow_key),
	.value_size = 8, .max_entries = 256,
};
struct legacy_map_def __section("maps") tailcalls = {
	.type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 64,
};

#define PARSER_CALL 32
#define LOOKUP_CALL 33

static __attribute__((always_inline)) struct flow_key *flow_key(void)
{
	int zero = 0;

	return map_lookup(&percpu_flow_key, &zero);
}

__section("ingress") static int to_stack(struct __sk_buff *skb)
{
	char fmt[] = "ingress from %d\n";
	struct flow_key *key = flow_key();

	if (!key)
		return TC_ACT_OK;
	key->in_port = (unsigned short)skb->ingress_ifindex;
	printk(fmt, sizeof(fmt), skb->ingress_ifindex);
	tail_call(skb, &tailcalls, PARSER_CALL);
	return TC_ACT_SHOT;
}

__section("tail-32") static int parse(struct __sk_buff *skb)
{
	struct flow_key *key = flow_key();

	if (!key)
		return TC_ACT_OK;
	if (load_bytes(skb, 0, key, 14))
		return TC_ACT_SHOT;
	tail_call(skb, &tailcalls, LOOKUP_CALL);
	return TC_ACT_OK;
}

__section("tail-33") static int lookup(struct __sk_buff *skb)
{
	struct flow_key *key = flow_key();
	unsigned long long *hits, one = 1;

	if (!key)
		return TC_ACT_OK;
	hits = map_lookup(&flow_table, key);
	if (hits)
		__sync_fetch_and_add(hits, 1);
	else
		map_update(&flow_table, key, &one, BPF_ANY);
	return TC_ACT_OK;
}

char ____license[] __section("license") = "GPL";
