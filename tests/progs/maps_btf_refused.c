// SPDX-License-Identifier: BSD-2-Clause
/*
 * A struct with two bpf_spin_locks makes Linux refuse the object's whole
 * BTF when it is loaded; libbpf carries on without it, so no map of the
 * object has BTF, not even one with a valid lock.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

struct two_locks {
	struct bpf_spin_lock a;
	struct bpf_spin_lock b;
};

struct val {
	int cnt;
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct two_locks);
} two SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} good SEC(".maps");

#define LOCK_AT(name, map, off)						\
SEC("tc")								\
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
	"r1 = r0;"							\
	"r1 += " #off ";"						\
	"call %[bpf_spin_lock];"					\
	"1: r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), [m] "i"(&map) \
	: __clobber_all);						\
}

LOCK_AT(lock_two_locks, two, 0)
LOCK_AT(lock_good_map, good, 4)

char _license[] SEC("license") = "GPL";
