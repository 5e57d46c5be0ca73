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
#include "base/base.h"

/* Everything the kernel's get_func_proto hooks depend on. */
struct helper_query {
	uint32_t prog_type;
	uint32_t expected_attach_type;
	bool sleepable;			/* BPF_F_SLEEPABLE */
	bool bpf_capable;		/* CAP_BPF (or CAP_SYS_ADMIN) */
	bool perfmon;			/* CAP_PERFMON (or CAP_SYS_ADMIN) */
	bool write_user;		/* the target is not locked down */
	uint32_t kver;			/* the target's version (kver.h), 0 newest */
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
