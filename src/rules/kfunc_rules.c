/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which id set row applies to a kfunc on the target kernel. The rows are
 * Linux 6.12's (data/kfunc_sets.c). 6.18 was checked against them by
 * loading the corpus' kfunc calls into it (tests/conformance/kernel-6.18.csv);
 * the differences found are the overrides below, with the rows of some
 * kfuncs that 6.12 lacks. Other 6.18 kfuncs stay unsupported. 6.1 had
 * fewer kfuncs (its BTF decides which): for those it has, the 6.12 rows
 * give every verdict and first error recorded from 6.1
 * (tests/conformance/kernel-6.1.csv), the test kfuncs, tcp_congestion_ops'
 * and the key kfuncs among them.
 */
#include <string.h>

#include "base/uapi.h"
#include "kfunc_sets.h"
#include "kver.h"

static const struct kfunc_set_row *row_search(const char *name)
{
	size_t lo = 0, hi = kfunc_set_row_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, kfunc_set_rows[mid].name);

		if (!c)
			return &kfunc_set_rows[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Flags a later kernel added to a 6.12 row, found by loading programs
 * into Linux 6.18. */
static const struct {
	const char *name;
	uint32_t since;
	uint32_t flags;
} added_flags[] = {
	/* test_bpf_nf's lookups with a NULL tuple: "Possibly NULL pointer
	 * passed to trusted arg1" on 6.18, accepted by 6.12. */
	{ "bpf_skb_ct_lookup", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_xdp_ct_lookup", KV(6, 13, 0), KF_TRUSTED_ARGS },
};

uint32_t kfunc_row_flags(const struct kfunc_set_row *row, uint32_t kver)
{
	uint32_t flags = row->flags;

	for (size_t i = 0; i < sizeof(added_flags) / sizeof(added_flags[0]); i++)
		if ((!kver || kver >= added_flags[i].since) && !strcmp(row->name, added_flags[i].name))
			flags |= added_flags[i].flags;
	return flags;
}

/* Hooks of 6.12's generic set (bpf_task_from_pid's). */
#define GENERIC_HOOKS (KH_CGROUP | KH_STRUCT_OPS | KH_SYSCALL | KH_TC | KH_TRACING | KH_XDP)

/* kfuncs that 6.12 lacks, as Linux 6.18.44 showed them: the program
 * types that reach its later checks, and the flags its messages reveal
 * (tests/progs/kfuncs_618.c holds them). Kept sorted by name. */
static const struct kfunc_set_row rows_618[] = {
	/* Not seen: this kernel refuses arena maps and arena kfuncs. The
	 * flags of its two siblings (kernel/bpf/arena.c). */
	{ "bpf_arena_reserve_pages", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_task_str", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_get_kmem_cache", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_destroy", KF_ITER_DESTROY | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_new", KF_ITER_NEW | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_next", KF_ITER_NEXT | KF_RET_NULL | KF_SLEEPABLE, KH_COMMON,
	  KFLT_NONE },
	{ "bpf_local_irq_restore", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_local_irq_save", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_send_signal_task", KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_strcasecmp", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strchr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strchrnul", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strcmp", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strcspn", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strlen", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strnchr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strnlen", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strnstr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strrchr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strspn", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_strstr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_task_from_vpid", KF_ACQUIRE | KF_RET_NULL, GENERIC_HOOKS, KFLT_NONE },
};

static const struct kfunc_set_row *row_618(const char *name)
{
	for (size_t i = 0; i < sizeof(rows_618) / sizeof(rows_618[0]); i++)
		if (!strcmp(name, rows_618[i].name))
			return &rows_618[i];
	return NULL;
}

const struct kfunc_set_row *kfunc_row_find(const char *name, uint32_t kver)
{
	const struct kfunc_set_row *row;

	if (!name)
		return NULL;
	row = row_search(name);
	if (!row && (!kver || kver >= KV(6, 18, 0)))
		row = row_618(name);
	return row;
}

uint32_t kfunc_hook_of(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP: return KH_XDP;
	case BPF_PROG_TYPE_SCHED_CLS: return KH_TC;
	case BPF_PROG_TYPE_STRUCT_OPS: return KH_STRUCT_OPS;
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_LSM: return KH_TRACING;
	case BPF_PROG_TYPE_SYSCALL: return KH_SYSCALL;
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
	case BPF_PROG_TYPE_CGROUP_SYSCTL: return KH_CGROUP;
	case BPF_PROG_TYPE_SCHED_ACT: return KH_SCHED_ACT;
	case BPF_PROG_TYPE_SK_SKB: return KH_SK_SKB;
	case BPF_PROG_TYPE_SOCKET_FILTER: return KH_SOCKET_FILTER;
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL: return KH_LWT;
	case BPF_PROG_TYPE_NETFILTER: return KH_NETFILTER;
	case BPF_PROG_TYPE_KPROBE: return KH_KPROBE;
	default: return 0;
	}
}
