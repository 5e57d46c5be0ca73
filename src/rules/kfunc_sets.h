/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the kernel knows of a kfunc besides its BTF prototype: the KF_*
 * flags its id set gives it and which program types may call it. The
 * kernel groups program types into "hooks" and registers each set for
 * some of them (the COMMON hook for all). Some sets carry a filter that
 * narrows them further (an attach type, a program type inside a hook).
 * The rows are generated from Linux 6.12 (data/kfunc_sets.c,
 * scripts/gen-kfunc-table.py); kfunc_rules.c adds what the other targets
 * change.
 */
#ifndef BPFVET_RULES_KFUNC_SETS_H
#define BPFVET_RULES_KFUNC_SETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's KF_* flag values (include/linux/btf.h). */
#define KF_ACQUIRE		(1u << 0)
#define KF_RELEASE		(1u << 1)
#define KF_RET_NULL		(1u << 2)
#define KF_TRUSTED_ARGS		(1u << 4)
#define KF_SLEEPABLE		(1u << 5)
#define KF_DESTRUCTIVE		(1u << 6)
#define KF_RCU			(1u << 7)
#define KF_ITER_NEW		(1u << 8)
#define KF_ITER_NEXT		(1u << 9)
#define KF_ITER_DESTROY		(1u << 10)
#define KF_RCU_PROTECTED	(1u << 11)
#define KF_FASTCALL		(1u << 12)

enum kfunc_hook {
	KH_COMMON	= 1u << 0,
	KH_XDP		= 1u << 1,
	KH_TC		= 1u << 2,
	KH_STRUCT_OPS	= 1u << 3,
	KH_TRACING	= 1u << 4,
	KH_SYSCALL	= 1u << 5,
	KH_CGROUP	= 1u << 6,
	KH_SCHED_ACT	= 1u << 7,
	KH_SK_SKB	= 1u << 8,
	KH_SOCKET_FILTER = 1u << 9,
	KH_LWT		= 1u << 10,
	KH_NETFILTER	= 1u << 11,
	KH_KPROBE	= 1u << 12,
	KH_SOCK_OPS	= 1u << 13,	/* no 6.12 set; 6.18's tx timestamp kfunc */
};

/* The filters of the sets, by the kernel's function names. */
enum kfunc_filter {
	KFLT_NONE,
	KFLT_BPF_FS_KFUNCS_FILTER,		/* LSM programs only */
	KFLT_BPF_GET_FSVERITY_DIGEST_FILTER,	/* LSM programs only */
	KFLT_BPF_KPROBE_MULTI_FILTER,		/* kprobe.multi / kprobe session */
	KFLT_TRACING_ITER_FILTER,		/* iterator programs */
};

struct kfunc_set_row {
	const char *name;
	uint32_t flags;
	uint32_t hooks;
	enum kfunc_filter filter;
};

extern const struct kfunc_set_row kfunc_set_rows[];
extern const size_t kfunc_set_row_cnt;

/* The row of a kfunc of the target `kver` (0: the newest), NULL when no
 * set of that kernel has it. */
const struct kfunc_set_row *kfunc_row_find(const char *name, uint32_t kver);
/* The row's flags on the target `kver`. */
uint32_t kfunc_row_flags(const struct kfunc_set_row *row, uint32_t kver);
/* The hook of a program type, 0 for types no set can name. */
uint32_t kfunc_hook_of(uint32_t prog_type);

#endif
