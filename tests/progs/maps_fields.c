// SPDX-License-Identifier: BSD-2-Clause
/*
 * The other special fields of map values: bpf_res_spin_lock, bpf_wq,
 * bpf_task_work and bpf_list_head (with its "contains:" tag), which
 * loads and stores may not touch and some program types may not use.
 * Expected results: tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

/* Linux 6.18's uapi layouts; this system's linux/bpf.h predates them. */
struct bpf_res_spin_lock {
	__u32 val;
};

struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_task_work {
	__u64 __opaque;
} __attribute__((aligned(8)));

struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

#define __contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))

struct res_val {
	long x;
	struct bpf_res_spin_lock lock;	/* at 8 */
};

struct wq_val {
	long x;
	struct bpf_wq wq;		/* at 8 */
};

struct tw_val {
	long x;
	struct bpf_task_work tw;	/* at 8 */
};

struct elem {
	long v;
	struct bpf_list_node node;	/* no field in a map value */
};

struct list_val {
	struct bpf_spin_lock lock;
	struct bpf_list_head head __contains(elem, node);	/* at 8 */
};

#define HASH_OF(name, vtype)						\
struct {								\
	__uint(type, BPF_MAP_TYPE_HASH);				\
	__uint(max_entries, 1);						\
	__type(key, int);						\
	__type(value, vtype);						\
} name SEC(".maps")

HASH_OF(res_map, struct res_val);
HASH_OF(wq_map, struct wq_val);
HASH_OF(tw_map, struct tw_val);
HASH_OF(elem_map, struct elem);
HASH_OF(list_map, struct list_val);

/* Task work cannot live in per-CPU maps: libbpf retries without BTF. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct tw_val);
} tw_percpu SEC(".maps");

/* Loads the 8 bytes at `off` of the value of `map`. */
#define LOAD_AT(sec, name, map, off)					\
SEC(sec)								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r1 = 0;"							\
	"*(u32 *)(r10 - 4) = r1;"					\
	"r2 = r10;"							\
	"r2 += -4;"							\
	"r1 = %[m] ll;"							\
	"call %[bpf_map_lookup_elem];"					\
	"if r0 == 0 goto 1f;"						\
	"r0 = *(u64 *)(r0 + " #off ");"					\
	"1: exit;"							\
	:								\
	: __imm(bpf_map_lookup_elem), [m] "i"(&map)			\
	: __clobber_all);						\
}

LOAD_AT("tc", load_res_lock, res_map, 8)
LOAD_AT("tc", load_wq, wq_map, 8)
LOAD_AT("tc", load_task_work, tw_map, 8)
LOAD_AT("tc", load_task_work_percpu_ok, tw_percpu, 8)
LOAD_AT("tc", load_list_head, list_map, 8)
LOAD_AT("tc", load_list_node_ok, elem_map, 8)
LOAD_AT("socket", socket_res_lock_map, res_map, 0)
LOAD_AT("kprobe/do_nanosleep", kprobe_res_lock_map, res_map, 0)
LOAD_AT("kprobe/do_nanosleep", kprobe_wq_map, wq_map, 0)
LOAD_AT("kprobe/do_nanosleep", kprobe_task_work_map_ok, tw_map, 0)
LOAD_AT("kprobe/do_nanosleep", kprobe_list_map, list_map, 16)

/* bpf_spin_lock wants a bpf_spin_lock, not a resilient one. */
SEC("tc")
__naked int spin_lock_on_res_lock(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[res_map] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"r1 += 8;"
	"call %[bpf_spin_lock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm_addr(res_map)
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
