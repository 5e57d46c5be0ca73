// SPDX-License-Identifier: BSD-2-Clause
/*
 * Maps passed to helpers that do not take them (and helpers given maps
 * they do not take), read-only maps given to writing helpers, tail calls
 * through other maps, and the map types of sleepable programs. Expected
 * results: tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, long);
} hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, long);
} array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, 4);
	__uint(value_size, 4);
} progs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, 4);
	__uint(value_size, 4);
} events SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 4);
	__uint(key_size, 4);
	__uint(value_size, 64);
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_QUEUE);
	__uint(max_entries, 4);
	__uint(value_size, 8);
} queue SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_DEVMAP);
	__uint(max_entries, 4);
	__uint(key_size, 4);
	__uint(value_size, 4);
} devs SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_SOCKMAP);
	__uint(max_entries, 4);
	__uint(key_size, 4);
	__uint(value_size, 4);
} socks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, long);
	__uint(map_flags, BPF_F_RDONLY_PROG);
} rdonly SEC(".maps");

/* r2 = &key (0 at fp-8); `body` calls the helper with r1 = map. */
#define MPROG(sec, name, body)						\
SEC(sec)								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r6 = r1;"							\
	"r1 = 0;"							\
	"*(u64 *)(r10 - 8) = r1;"					\
	"r2 = r10;"							\
	"r2 += -8;"							\
	body								\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_map_lookup_elem), __imm(bpf_map_update_elem),	\
	  __imm(bpf_map_delete_elem), __imm(bpf_map_push_elem),		\
	  __imm(bpf_tail_call), __imm(bpf_redirect_map),		\
	  __imm(bpf_perf_event_output), __imm(bpf_ringbuf_output),	\
	  __imm(bpf_map_lookup_percpu_elem), __imm(bpf_get_stackid),	\
	  __imm_addr(hash), __imm_addr(array), __imm_addr(progs),	\
	  __imm_addr(events), __imm_addr(rb), __imm_addr(stacks),	\
	  __imm_addr(queue), __imm_addr(devs), __imm_addr(socks),	\
	  __imm_addr(rdonly)						\
	: __clobber_all);						\
}

MPROG("tc", lookup_prog_array,
	"r1 = %[progs] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("tc", lookup_perf_array,
	"r1 = %[events] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("tc", lookup_queue,
	"r1 = %[queue] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("tc", lookup_devmap_ok,
	"r1 = %[devs] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("kprobe/do_nanosleep", lookup_stack_trace,
	"r1 = %[stacks] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("tc", push_into_hash,
	"r1 = %[hash] ll;"
	"r3 = 0;"
	"call %[bpf_map_push_elem];")
MPROG("tc", tail_call_ok,
	"r1 = r6;"
	"r2 = %[progs] ll;"
	"r3 = 1;"
	"call %[bpf_tail_call];")
MPROG("tc", tail_call_hash,
	"r1 = r6;"
	"r2 = %[hash] ll;"
	"r3 = 1;"
	"call %[bpf_tail_call];")
MPROG("xdp", redirect_to_hash,
	"r1 = %[hash] ll;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_redirect_map];")
MPROG("xdp", redirect_to_devmap_ok,
	"r1 = %[devs] ll;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_redirect_map];")
MPROG("tc", perf_output_to_array,
	"r1 = r6;"
	"r2 = %[array] ll;"
	"r3 = 0;"
	"r4 = r10;"
	"r4 += -8;"
	"r5 = 8;"
	"call %[bpf_perf_event_output];")
MPROG("tc", ringbuf_output_to_array,
	"r1 = %[array] ll;"
	"r2 = r10;"
	"r2 += -8;"
	"r3 = 8;"
	"r4 = 0;"
	"call %[bpf_ringbuf_output];")
MPROG("tc", ringbuf_output_ok,
	"r1 = %[rb] ll;"
	"r2 = r10;"
	"r2 += -8;"
	"r3 = 8;"
	"r4 = 0;"
	"call %[bpf_ringbuf_output];")
MPROG("tc", lookup_percpu_in_array,
	"r1 = %[array] ll;"
	"r3 = 0;"
	"call %[bpf_map_lookup_percpu_elem];")
MPROG("kprobe/do_nanosleep", stackid_from_hash,
	"r1 = r6;"
	"r2 = %[hash] ll;"
	"r3 = 0;"
	"call %[bpf_get_stackid];")
MPROG("tc", update_rdonly,
	"r1 = %[rdonly] ll;"
	"r3 = r2;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];")
MPROG("tc", delete_rdonly,
	"r1 = %[rdonly] ll;"
	"call %[bpf_map_delete_elem];")
MPROG("tc", lookup_rdonly_ok,
	"r1 = %[rdonly] ll;"
	"call %[bpf_map_lookup_elem];")
MPROG("kprobe/do_nanosleep", delete_sockmap_kprobe,
	"r1 = %[socks] ll;"
	"call %[bpf_map_delete_elem];")
MPROG("tc", delete_sockmap_tc_ok,
	"r1 = %[socks] ll;"
	"call %[bpf_map_delete_elem];")

/* Sleepable programs may use hashes and ring buffers, not perf arrays. */
SEC("uprobe.s")
int sleepable_hash_ok(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&hash, &k) != 0;
}

SEC("uprobe.s")
int sleepable_perf_array(void *ctx)
{
	long v = 0;

	return bpf_perf_event_output(ctx, &events, 0, &v, sizeof(v));
}

char _license[] SEC("license") = "GPL";
