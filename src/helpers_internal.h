/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helper availability as a pure function of what get_func_proto looks at,
 * so it can be used (and tested) without a verifier environment.
 */
#ifndef BPFVET_HELPERS_INTERNAL_H
#define BPFVET_HELPERS_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "helpers.h"

/*
 * Type flags shared by register, argument and return types (kernel enum
 * bpf_type_flag, 6.18 values). env.h defines the same macros with the
 * same spelling; identical redefinitions are legal C.
 */
#define PTR_MAYBE_NULL		0x100u
#define MEM_RDONLY		0x200u
#define MEM_RINGBUF		0x400u
#define MEM_USER		0x800u
#define MEM_PERCPU		0x1000u
#define OBJ_RELEASE		0x2000u
#define PTR_UNTRUSTED		0x4000u
#define MEM_UNINIT		0x8000u
#define DYNPTR_TYPE_LOCAL	0x10000u
#define DYNPTR_TYPE_RINGBUF	0x20000u
#define MEM_FIXED_SIZE		0x40000u
#define MEM_ALLOC		0x80000u
#define PTR_TRUSTED		0x100000u
#define MEM_RCU			0x200000u
#define NON_OWN_REF		0x400000u
#define DYNPTR_TYPE_SKB		0x800000u
#define DYNPTR_TYPE_XDP		0x1000000u
#define MEM_ALIGNED		0x2000000u
#define MEM_WRITE		0x4000000u
#define DYNPTR_TYPE_SKB_META	0x8000000u
#define BASE_TYPE_MASK		0xffu

/* Everything the kernel's get_func_proto hooks depend on. */
struct helper_query {
	uint32_t prog_type;
	uint32_t expected_attach_type;
	bool sleepable;			/* BPF_F_SLEEPABLE */
	bool bpf_capable;		/* CAP_BPF (or CAP_SYS_ADMIN) */
	bool perfmon;			/* CAP_PERFMON (or CAP_SYS_ADMIN) */
	/*
	 * struct_ops only: the struct being implemented ("tcp_congestion_ops")
	 * and the member's byte offset; NULL when unknown (the base set).
	 */
	const char *struct_ops_name;
	uint32_t struct_ops_moff;
	/* Iterators only: the target ("tcp", "task"), whose own helpers
	 * come after tracing's; NULL when unknown. */
	const char *iter_target;
};

/*
 * The prototype the kernel hands out for `id` to such a program, or NULL
 * ("program of this type cannot use helper"). Ids >= HELPER_ID_MAX are
 * NULL too; the caller prints "invalid func" for those.
 */
const struct helper_proto *helper_proto_query(const struct helper_query *q,
					      uint32_t id);

/*
 * The list the kernel prints after "expected=" when a register does not
 * match an argument of this type (compatible_reg_types of 6.18), e.g.
 * "map_ptr" or "fp, pkt, pkt_meta, map_key, ...". NULL for ARG_DONTCARE
 * and ARG_ANYTHING, which accept any initialized register.
 */
const char *helper_arg_expected(uint32_t arg_type);

#endif
