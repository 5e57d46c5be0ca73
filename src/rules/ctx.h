/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Context (R1 at entry) access rules per program type: which offsets and
 * sizes may be read or written, and what type a load yields (a scalar,
 * packet pointers for data/data_end/data_meta, socket pointers, ...).
 * The kernel's per-type is_valid_access hooks, as tables in ctx_*.c.
 */
#ifndef BPFVET_CTX_H
#define BPFVET_CTX_H

#include <stdbool.h>
#include <stdint.h>


struct ctx_access {
	/* Out: type of the loaded register: SCALAR_VALUE or a pointer type
	 * (PTR_TO_PACKET, PTR_TO_PACKET_END, PTR_TO_PACKET_META,
	 * PTR_TO_SOCK_COMMON | PTR_MAYBE_NULL, PTR_TO_FLOW_KEYS,
	 * PTR_TO_TP_BUFFER, PTR_TO_SOCKET | PTR_MAYBE_NULL, ...). */
	uint32_t reg_type;
	/* Out: for BTF-typed contexts (tracing programs), the kernel type
	 * name of a pointer argument; NULL otherwise. */
	const char *btf_struct;
	/* Out: the load reads the return value slot (fexit, lsm). */
	bool is_retval;
	/* In: the access is a sign-extending load. */
	bool is_ldsx;
};


#endif
