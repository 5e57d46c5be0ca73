/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which id set row applies to a kfunc on the target kernel. The rows are
 * Linux 6.12's (data/kfunc_sets.c). 6.18 was checked against them by
 * loading the corpus' kfunc calls into it (tests/conformance/kernel-6.18.csv);
 * the differences found are the overrides below, with the rows of the
 * kfuncs that 6.12 lacks, found by experiment (tests/progs/kfuncs_618*.c);
 * 6.18 kfuncs without a row here stay unsupported. 6.1 had
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
	/* The graph kfuncs refuse a node or root that may be NULL on 6.18
	 * ("Possibly NULL pointer passed to trusted arg1", rbtree_fail's
	 * use_unchecked_remove_retval; tests/progs/graph_618.c), where
	 * 6.12 came to the pointer's offset first. */
	{ "bpf_list_push_back_impl", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_list_push_front_impl", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_list_pop_back", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_list_pop_front", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_rbtree_add_impl", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_rbtree_first", KV(6, 13, 0), KF_TRUSTED_ARGS },
	{ "bpf_rbtree_remove", KV(6, 13, 0), KF_TRUSTED_ARGS },
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
 * (tests/progs/kfuncs_618.c, kfuncs_618b.c, res_lock.c hold them). Kept
 * sorted by name. */
static const struct kfunc_set_row rows_618[] = {
	/* Callable nowhere (kfunc.c refuses it), but in a set: the log's
	 * liveness reads no argument of it. */
	{ "__bpf_trap", 0, KH_COMMON, KFLT_NONE },
	/* Not seen: this kernel refuses arena maps and arena kfuncs. The
	 * flags of its two siblings (kernel/bpf/arena.c). */
	{ "bpf_arena_reserve_pages", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_cgroup_read_xattr", KF_RCU, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_dynptr", KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_str_dynptr", KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_task_dynptr", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_task_str", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_copy_from_user_task_str_dynptr", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_COMMON,
	  KFLT_NONE },
	{ "bpf_cpumask_populate", KF_RCU, KH_STRUCT_OPS | KH_SYSCALL | KH_TRACING, KFLT_NONE },
	{ "bpf_dynptr_copy", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_dynptr_from_skb_meta", 0, KH_TC, KFLT_NONE },
	{ "bpf_dynptr_memset", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_get_kmem_cache", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_dmabuf_destroy", KF_ITER_DESTROY | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_dmabuf_new", KF_ITER_NEW | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_dmabuf_next", KF_ITER_NEXT | KF_RET_NULL | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_destroy", KF_ITER_DESTROY | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_new", KF_ITER_NEW | KF_SLEEPABLE, KH_COMMON, KFLT_NONE },
	{ "bpf_iter_kmem_cache_next", KF_ITER_NEXT | KF_RET_NULL | KF_SLEEPABLE, KH_COMMON,
	  KFLT_NONE },
	/* Peeks at a list's ends, walks of a tree (tests/progs/graph_618.c). */
	{ "bpf_list_back", KF_RET_NULL | KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_list_front", KF_RET_NULL | KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_local_irq_restore", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_local_irq_save", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_probe_read_kernel_dynptr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_probe_read_kernel_str_dynptr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_probe_read_user_dynptr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_probe_read_user_str_dynptr", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_rbtree_left", KF_RET_NULL | KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_rbtree_right", KF_RET_NULL | KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_rbtree_root", KF_RET_NULL | KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	/* The fs set's (LSM programs only): not allowed in the others, the
	 * flags as bpf_get_dentry_xattr's (this machine loads no LSM
	 * program to show them). */
	{ "bpf_remove_dentry_xattr", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_TRACING,
	  KFLT_BPF_FS_KFUNCS_FILTER },
	{ "bpf_res_spin_lock", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_res_spin_lock_irqsave", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_res_spin_unlock", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_res_spin_unlock_irqrestore", 0, KH_COMMON, KFLT_NONE },
	{ "bpf_send_signal_task", KF_TRUSTED_ARGS, GENERIC_HOOKS, KFLT_NONE },
	{ "bpf_set_dentry_xattr", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_TRACING,
	  KFLT_BPF_FS_KFUNCS_FILTER },
	{ "bpf_sock_ops_enable_tx_tstamp", KF_TRUSTED_ARGS, KH_SOCK_OPS, KFLT_NONE },
	{ "bpf_stream_vprintk_impl", KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
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
	{ "bpf_task_work_schedule_resume_impl", KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_task_work_schedule_signal_impl", KF_TRUSTED_ARGS, KH_COMMON, KFLT_NONE },
	{ "bpf_xdp_pull_data", 0, KH_XDP, KFLT_NONE },
	{ "css_rstat_flush", KF_SLEEPABLE | KF_TRUSTED_ARGS, KH_TRACING, KFLT_NONE },
	{ "css_rstat_updated", KF_TRUSTED_ARGS, KH_TRACING, KFLT_NONE },
};

/* The test functions of net/bpf/test_run.c that only fmod_ret programs
 * name (6.12's sources, 6.18's loads): no program type may call them. */
static const struct kfunc_set_row rows_fmodret[] = {
	{ "bpf_fentry_test1", KF_SLEEPABLE, 0, KFLT_NONE },
	{ "bpf_modify_return_test", 0, 0, KFLT_NONE },
	{ "bpf_modify_return_test2", 0, 0, KFLT_NONE },
	{ "bpf_modify_return_test_tp", 0, 0, KFLT_NONE },
};

static const struct kfunc_set_row *row_in(const struct kfunc_set_row *rows, size_t n,
					  const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, rows[i].name))
			return &rows[i];
	return NULL;
}

const struct kfunc_set_row *kfunc_row_find(const char *name, uint32_t kver)
{
	const struct kfunc_set_row *row;

	if (!name)
		return NULL;
	row = row_search(name);
	if (!row && (!kver || kver >= KV(6, 18, 0)))
		row = row_in(rows_618, sizeof(rows_618) / sizeof(rows_618[0]), name);
	if (!row && (!kver || kver >= KV(6, 12, 0)))
		row = row_in(rows_fmodret, sizeof(rows_fmodret) / sizeof(rows_fmodret[0]), name);
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
	case BPF_PROG_TYPE_SOCK_OPS: return KH_SOCK_OPS;
	default: return 0;
	}
}
