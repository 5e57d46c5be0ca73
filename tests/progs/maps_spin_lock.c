// SPDX-License-Identifier: BSD-2-Clause
/*
 * bpf_spin_lock in map values: where the lock must be, which maps have
 * one, what a locked region may not do, and which programs may not use
 * such maps. Expected results: tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

struct val {
	int cnt;
	struct bpf_spin_lock lock;	/* at 4 */
	long data;
};

struct outer {
	long x;
	struct val inner;		/* lock at 12 */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct val);
} lock_hash SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct val);
} lock_array SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct outer);
} nested SEC(".maps");

/* Sizes only: the kernel gets no BTF for this map. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__uint(key_size, 4);
	__uint(value_size, 16);
} nobtf SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, long);
} nolock SEC(".maps");

/* Per-CPU arrays cannot hold locks: libbpf retries without BTF. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} percpu_lock SEC(".maps");

private(A) struct bpf_spin_lock glock;
private(A) long gcount;

SEC("tc")
int lock_ok(void *ctx)
{
	int k = 0;
	struct val *v = bpf_map_lookup_elem(&lock_hash, &k);

	if (!v)
		return 0;
	bpf_spin_lock(&v->lock);
	v->cnt++;
	v->data += 2;
	bpf_spin_unlock(&v->lock);
	return 0;
}

/*
 * A known index into an array cannot miss: no NULL check needed. The key
 * is a 4-byte spill of the constant, which the kernel tracks (and marks
 * precise); with an index out of range the value may be NULL.
 */
#define ARRAY_KEY(name, key)						\
SEC("tc")								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r1 = " #key ";"						\
	"*(u32 *)(r10 - 8) = r1;"					\
	"r2 = r10;"							\
	"r2 += -8;"							\
	"r1 = %[lock_array] ll;"					\
	"call %[bpf_map_lookup_elem];"					\
	"r6 = r0;"							\
	"r1 = r0;"							\
	"r1 += 4;"							\
	"call %[bpf_spin_lock];"					\
	"r1 = r6;"							\
	"r1 += 4;"							\
	"call %[bpf_spin_unlock];"					\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock),		\
	  __imm(bpf_spin_unlock), __imm_addr(lock_array)		\
	: __clobber_all);						\
}

ARRAY_KEY(array_known_key_no_null_check, 1)
ARRAY_KEY(array_key_out_of_range, 2)

/* Only a spill of the key's exact size is tracked: a 4-byte store at
 * fp-4 is not a spill slot, so the key is unknown. */
SEC("tc")
__naked int array_untracked_key(void)
{
	asm volatile (
	"r1 = 1;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_array] ll;"
	"call %[bpf_map_lookup_elem];"
	"r0 = *(u32 *)(r0 + 0);"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm_addr(lock_array)
	: __clobber_all);
}

SEC("tc")
int nested_lock_ok(void *ctx)
{
	int k = 0;
	struct outer *o = bpf_map_lookup_elem(&nested, &k);

	if (!o)
		return 0;
	bpf_spin_lock(&o->inner.lock);
	o->x++;
	bpf_spin_unlock(&o->inner.lock);
	return 0;
}

SEC("tc")
int global_lock_ok(void *ctx)
{
	bpf_spin_lock(&glock);
	gcount++;
	bpf_spin_unlock(&glock);
	return 0;
}

SEC("tc")
__naked int load_lock_word(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r0 = *(u32 *)(r0 + 4);"
	"1: exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int store_over_lock(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = 0;"
	"*(u64 *)(r0 + 0) = r1;"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int lock_var_off(void)
{
	asm volatile (
	"r6 = r1;"
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = *(u32 *)(r6 + 0);"
	"r1 &= 4;"
	"r1 += r0;"
	"call %[bpf_spin_lock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int lock_wrong_off(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"call %[bpf_spin_lock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm_addr(lock_hash)
	: __clobber_all);
}

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

LOCK_AT(lock_no_btf, nobtf, 4)
LOCK_AT(lock_no_lock, nolock, 0)
LOCK_AT(lock_percpu, percpu_lock, 4)

SEC("tc")
__naked int unlock_without_lock(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"r1 += 4;"
	"call %[bpf_spin_unlock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_unlock), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int unlock_other_value(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r6 = r0;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r7 = r0;"
	"r1 = r6;"
	"r1 += 4;"
	"call %[bpf_spin_lock];"
	"r1 = r7;"
	"r1 += 4;"
	"call %[bpf_spin_unlock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm(bpf_spin_unlock),
	  __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int exit_while_locked(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r1 = r0;"
	"r1 += 4;"
	"call %[bpf_spin_lock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("tc")
__naked int call_while_locked(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r6 = r0;"
	"r1 = r0;"
	"r1 += 4;"
	"call %[bpf_spin_lock];"
	"call %[bpf_ktime_get_ns];"
	"r1 = r6;"
	"r1 += 4;"
	"call %[bpf_spin_unlock];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_spin_lock), __imm(bpf_spin_unlock),
	  __imm(bpf_ktime_get_ns), __imm_addr(lock_hash)
	: __clobber_all);
}

/* A helper reading the whole value would read the lock. */
SEC("tc")
__naked int helper_reads_lock(void)
{
	asm volatile (
	"r1 = 0;"
	"*(u32 *)(r10 - 4) = r1;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 == 0 goto 1f;"
	"r3 = r0;"
	"r2 = r10;"
	"r2 += -4;"
	"r1 = %[lock_hash] ll;"
	"r4 = 0;"
	"call %[bpf_map_update_elem];"
	"1: r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_map_update_elem), __imm_addr(lock_hash)
	: __clobber_all);
}

SEC("socket")
int socket_uses_lock_map(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&lock_hash, &k) != 0;
}

SEC("kprobe/do_nanosleep")
int kprobe_uses_lock_map(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&lock_hash, &k) != 0;
}

SEC("tracepoint/syscalls/sys_enter_nanosleep")
int tracepoint_uses_lock_map(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&lock_array, &k) != 0;
}

char _license[] SEC("license") = "GPL";
