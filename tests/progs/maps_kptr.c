// SPDX-License-Identifier: BSD-2-Clause
/*
 * kptr fields in map values: only whole, fixed-offset 8-byte loads and
 * stores, never through helpers; stores only into untrusted kptrs, and
 * only NULL; bpf_kptr_xchg only on referenced kptrs. Expected results:
 * tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

/* A type only this program knows: a bpf_obj_new object. */
struct vet_node {
	long key;
	long data;
};

struct kval {
	long a;
	struct vet_node __tag_kptr *ref;			/* at 8 */
	struct vet_node __tag_kptr_untrusted *unref;	/* at 16 */
	long b;
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct kval);
} kmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, long);
} plain SEC(".maps");

/* Makes the compiler describe struct vet_node in full: a kptr to a type
 * known only by a forward declaration is no kptr at all. */
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct vet_node);
} nodes SEC(".maps");

/* Look the value up into r0, or exit with 0. */
#define LOOKUP(map)							\
	"r1 = 0;"							\
	"*(u32 *)(r10 - 4) = r1;"					\
	"r2 = r10;"							\
	"r2 += -4;"							\
	"r1 = %[" #map "] ll;"						\
	"call %[bpf_map_lookup_elem];"					\
	"if r0 != 0 goto 1f;"						\
	"exit;"								\
	"1:"

#define KPROG(name, body)						\
SEC("tc")								\
__naked int name(void)							\
{									\
	asm volatile (							\
	LOOKUP(kmap)							\
	body								\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_map_lookup_elem), __imm(bpf_kptr_xchg),		\
	  __imm(bpf_probe_read_kernel), __imm_addr(kmap)		\
	: __clobber_all);						\
}

KPROG(kptr_plain_fields_ok,
	"r1 = *(u64 *)(r0 + 0);"
	"*(u64 *)(r0 + 24) = r1;")
KPROG(kptr_load_half,
	"r1 = *(u32 *)(r0 + 8);")
KPROG(kptr_load_misaligned,
	"r1 = *(u32 *)(r0 + 12);")
KPROG(kptr_load_across,
	"r1 = *(u64 *)(r0 + 4);")
KPROG(kptr_var_off,
	"r1 = *(u64 *)(r0 + 0);"
	"r1 &= 8;"
	"r0 += r1;"
	"r1 = *(u64 *)(r0 + 0);")
KPROG(kptr_helper_write,
	"r1 = r0;"
	"r2 = 16;"
	"r3 = 0;"
	"call %[bpf_probe_read_kernel];")
KPROG(kptr_store_ref,
	"r1 = 0;"
	"*(u64 *)(r0 + 8) = r1;")
KPROG(kptr_st_ref,
	"*(u64 *)(r0 + 8) = 0;")
KPROG(kptr_store_unref_null,
	"r1 = 0;"
	"*(u64 *)(r0 + 16) = r1;")
KPROG(kptr_st_unref_zero,
	"*(u64 *)(r0 + 16) = 0;")
KPROG(kptr_st_unref_one,
	"*(u64 *)(r0 + 16) = 1;")
KPROG(kptr_store_unref_scalar,
	"r1 = 5;"
	"*(u64 *)(r0 + 16) = r1;")
KPROG(kptr_store_unref_map_value,
	"*(u64 *)(r0 + 16) = r0;")
KPROG(kptr_atomic_add,
	"r1 = 1;"
	"lock *(u64 *)(r0 + 16) += r1;")
KPROG(kptr_xchg_unref,
	"r1 = r0;"
	"r1 += 16;"
	"r2 = 0;"
	"call %[bpf_kptr_xchg];")
KPROG(kptr_xchg_not_kptr,
	"r1 = r0;"
	"r1 += 24;"
	"r2 = 0;"
	"call %[bpf_kptr_xchg];")
KPROG(kptr_xchg_var_off,
	"r1 = *(u64 *)(r0 + 0);"
	"r1 &= 8;"
	"r1 += r0;"
	"r2 = 0;"
	"call %[bpf_kptr_xchg];")

SEC("tc")
__naked int kptr_xchg_no_kptr_map(void)
{
	asm volatile (
	LOOKUP(plain)
	"r1 = r0;"
	"r2 = 0;"
	"call %[bpf_kptr_xchg];"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_map_lookup_elem), __imm(bpf_kptr_xchg), __imm_addr(plain)
	: __clobber_all);
}

char _license[] SEC("license") = "GPL";
