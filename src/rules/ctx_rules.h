/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ctx access rules as pure functions of the program's identity
 * (program type, expected attach type, capabilities) and the access
 * (offset, size, direction, sign extension). ctx_is_valid_access() of
 * ctx.h is a thin wrapper that fills a struct ctx_query from the
 * verifier's env; tests call ctx_access_check() directly.
 *
 * This header is self-contained (no uapi.h) so that tests which include
 * <linux/bpf.h> for libbpf may include it too.
 */
#ifndef BPFVET_CTX_RULES_H
#define BPFVET_CTX_RULES_H

#include <stdbool.h>
#include <stdint.h>

#include "ctx.h"

/*
 * Register types a ctx load can produce: the kernel's enum bpf_reg_type
 * and enum bpf_type_flag values of Linux 6.18 (verifier-semantics.md
 * 3.1/3.2). env.h (verifier core) carries the full enum under the kernel's
 * names; these are the few values this module needs, kept under a prefix
 * so that both headers can be included together. Same numbers, so a
 * reg_type from here can be stored in a register state unchanged.
 */
#define CTX_SCALAR_VALUE	1u
#define CTX_PTR_TO_PACKET_META	7u
#define CTX_PTR_TO_PACKET	8u
#define CTX_PTR_TO_PACKET_END	9u
#define CTX_PTR_TO_FLOW_KEYS	10u
#define CTX_PTR_TO_SOCKET	11u
#define CTX_PTR_TO_SOCK_COMMON	12u
#define CTX_PTR_TO_TP_BUFFER	14u
#define CTX_PTR_TO_BTF_ID	16u
#define CTX_PTR_MAYBE_NULL	0x100u
#define CTX_PTR_TRUSTED		0x100000u

/* Everything the rules depend on. */
struct ctx_query {
	uint32_t prog_type;		/* enum bpf_prog_type value */
	uint32_t attach_type;		/* expected_attach_type at load */
	bool bpf_capable;		/* CAP_BPF (or CAP_SYS_ADMIN) */
	bool perfmon_capable;		/* CAP_PERFMON (or CAP_SYS_ADMIN) */
	int off;			/* ctx offset of the access */
	int size;			/* 1, 2, 4 or 8 */
	bool write;			/* a store (STX or ST) */
	bool is_ldsx;			/* a sign-extending load */
};

/* The program types whose context is struct __sk_buff (ctx_skb.c's
 * rules; sizeof 192). */
bool ctx_is_sk_buff(uint32_t prog_type);

/*
 * The program type's is_valid_access hook. Returns true when the access
 * is allowed and then fills *out (reg_type is SCALAR_VALUE for stores and
 * plain fields); on false *out is left with reg_type 0.
 */
bool ctx_access_check(const struct ctx_query *q, struct ctx_access *out);

/*
 * Bytes of context the program type sees (sizeof the uapi struct; for
 * tracepoints the perf record limit, for syscall programs the 65535-byte
 * user buffer limit), or 0 when the type has no fixed-layout context
 * (BTF-typed contexts, unknown types).
 */
int ctx_type_size(uint32_t prog_type, uint32_t attach_type);

#endif
