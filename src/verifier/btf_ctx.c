/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The context of BTF-based tracing programs (tp_btf, fentry, fexit,
 * fmod_ret, lsm, iterators with btf_iter.c, and struct_ops members with
 * struct_ops_rules.c): an array of u64 arguments typed by the attach target's
 * prototype in the target kernel BTF. An argument slot reads as a scalar
 * (integers, enums, structs passed by value, void and integer pointers)
 * or as a BTF pointer to the struct it points to; fexit and lsm also see
 * the return value in the slot after the last argument.
 *
 * The attach target is resolved once per verification (btf_ctx_init).
 * Without a target BTF nothing is known about the arguments: a context
 * read is then reported unsupported, never rejected.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "verifier.h"

#define MAX_FUNC_ARGS		12	/* MAX_BPF_FUNC_ARGS */
#define MAX_ERRNO		4095
#define BTF_TRACE_PREFIX	"btf_trace_"
#define NULLABLE_SUFFIX		"__nullable"

/*
 * Tracepoints whose arguments may be NULL or an error pointer, by
 * argument: in each mask, bit 4*i means argument i may be NULL, bit
 * 4*i+1 that it may hold an error pointer (it then reads as a scalar) and,
 * bpfvet's own, bit 4*i+2 that Linux 6.18 gives it untrusted. The
 * kernel's list (kernel/bpf/btf.c), checked on 6.18 by reading every
 * argument of every tracepoint of its BTF.
 */
struct tp_null_args {
	const char *tp;
	uint64_t mask;
};

static const struct tp_null_args tp_null_args[] = {
	{ "sched_pi_setprio", 0x10 },
	{ "sched_process_wait", 0x1 },
	{ "sched_stick_numa", 0x100 },
	{ "sched_swap_numa", 0x100 },
	{ "afs_make_fs_call", 0x10 },
	{ "afs_make_fs_calli", 0x10 },
	{ "afs_make_fs_call1", 0x10 },
	{ "afs_make_fs_call2", 0x10 },
	{ "afs_protocol_error", 0x1 },
	{ "afs_flock_ev", 0x10 },
	{ "cachefiles_lookup", 0x1 | 0x200 },
	{ "cachefiles_unlink", 0x1 },
	{ "cachefiles_rename", 0x1 },
	{ "cachefiles_prep_read", 0x1 },
	{ "cachefiles_mark_active", 0x1 },
	{ "cachefiles_mark_failed", 0x1 },
	{ "cachefiles_mark_inactive", 0x1 },
	{ "cachefiles_vfs_error", 0x1 },
	{ "cachefiles_io_error", 0x1 },
	{ "cachefiles_ondemand_open", 0x1 },
	{ "cachefiles_ondemand_copen", 0x1 },
	{ "cachefiles_ondemand_close", 0x1 },
	{ "cachefiles_ondemand_read", 0x1 },
	{ "cachefiles_ondemand_cread", 0x1 },
	{ "cachefiles_ondemand_fd_write", 0x1 },
	{ "cachefiles_ondemand_fd_release", 0x1 },
	{ "ext4_mballoc_discard", 0x10 },
	{ "ext4_mballoc_free", 0x10 },
	{ "fib_table_lookup", 0x100 },
	{ "posix_lock_inode", 0x10 },
	{ "fcntl_setlk", 0x10 },
	{ "locks_remove_posix", 0x10 },
	{ "flock_lock_inode", 0x10 },
	{ "break_lease_noblock", 0x10 },
	{ "break_lease_block", 0x10 },
	{ "break_lease_unblock", 0x10 },
	{ "generic_delete_lease", 0x10 },
	{ "time_out_leases", 0x10 },
	{ "host1x_cdma_push_gather", 0x10000 },
	{ "mm_khugepaged_scan_pmd", 0x10 },
	{ "mm_collapse_huge_page_isolate", 0x1 },
	{ "mm_khugepaged_scan_file", 0x10 },
	{ "mm_khugepaged_collapse_file", 0x10 },
	{ "mm_page_alloc", 0x1 },
	{ "mm_page_pcpu_drain", 0x1 },
	{ "mm_page_alloc_zone_locked", 0x1 },
	{ "netfs_failure", 0x10 },
	{ "device_pm_callback_start", 0x10 },
	{ "qdisc_dequeue", 0x1000 },
	{ "rxrpc_recvdata", 0x1 },
	{ "rxrpc_resend", 0x10 },
	{ "signal_generate", 0x20 },
	{ "signal_deliver", 0x20 },
	{ "kfree_skb", 0x1000 },
	{ "xs_stream_read_data", 0x1 },
	{ "xprt_reserve_cong", 0x10 },
	{ "xprt_release_cong", 0x10 },
	{ "xprt_get_cong", 0x10 },
	{ "xprt_put_cong", 0x10 },
	{ "tcp_send_reset", 0x11 },
	{ "tegra_dma_tx_status", 0x100 },
	{ "tmigr_update_events", 0x1 },
	{ "writeback_dirty_folio", 0x10 },
	{ "folio_wait_writeback", 0x10 },
	{ "mr_integ_alloc", 0x2000 },
	{ "bpf_testmod_test_read", 0x0 },
	/* Since 6.12 (observed on 6.18). */
	{ "hugetlbfs_alloc_inode", 0x10 },
	{ "neigh_create", 0x4000 },
	{ "tcp_sendmsg_locked", 0x100 },
	{ "xfs_blockgc_flush_all", 0x1 },
	{ "xfs_blockgc_free_space", 0x10 },
	{ "xfs_blockgc_start", 0x1 },
	{ "xfs_blockgc_stop", 0x1 },
	{ "xfs_blockgc_worker", 0x1 },
	{ "xfs_btree_overlapped_query_range", 0x100 },
	{ "xfs_btree_updkeys", 0x100 },
	{ "xfs_defer_add_item", 0x1 },
	{ "xfs_defer_cancel_item", 0x1 },
	{ "xfs_defer_cancel_list", 0x1 },
	{ "xfs_defer_create_intent", 0x1 },
	{ "xfs_defer_finish_item", 0x1 },
	{ "xfs_defer_isolate_paused", 0x1 },
	{ "xfs_defer_item_pause", 0x1 },
	{ "xfs_defer_item_unpause", 0x1 },
	{ "xfs_defer_pending_abort", 0x1 },
	{ "xfs_defer_pending_finish", 0x1 },
	{ "xfs_defer_relog_intent", 0x1 },
	{ "xfs_fs_sync_fs", 0x1 },
	{ "xfs_inodegc_flush", 0x1 },
	{ "xfs_inodegc_push", 0x1 },
	{ "xfs_inodegc_queue", 0x1 },
	{ "xfs_inodegc_start", 0x1 },
	{ "xfs_inodegc_stop", 0x1 },
	{ "xfs_inodegc_throttle", 0x1 },
	{ "xfs_ioc_free_eofblocks", 0x10 },
	{ "xfs_map_blocks_alloc", 0x10000 },
	{ "xfs_map_blocks_found", 0x10000 },
};

/* LSM hooks whose arguments are not trusted (objects being torn down or
 * not yet set up), and hooks that return bool rather than an errno. */
static const char *const untrusted_lsm_hooks[] = {
	"bpf_lsm_bpf_map_free", "bpf_lsm_bpf_prog_free",
	"bpf_lsm_file_alloc_security", "bpf_lsm_file_free_security",
	"bpf_lsm_sk_alloc_security", "bpf_lsm_sk_free_security",
	"bpf_lsm_task_free",
};

static const char *const bool_lsm_hooks[] = {
	"bpf_lsm_xfrm_state_pol_flow_match", "bpf_lsm_audit_rule_known",
	"bpf_lsm_inode_xattr_skipcap",
};

/* Hooks LSM programs may not attach to (kernel/bpf/bpf_lsm.c). */
static const char *const disabled_lsm_hooks[] = {
	"bpf_lsm_vm_enough_memory", "bpf_lsm_inode_need_killpriv",
	"bpf_lsm_inode_getsecurity", "bpf_lsm_inode_listsecurity",
	"bpf_lsm_inode_copy_up_xattr", "bpf_lsm_getselfattr", "bpf_lsm_getprocattr",
	"bpf_lsm_setprocattr", "bpf_lsm_key_getsecurity", "bpf_lsm_audit_rule_match",
	"bpf_lsm_xfrm_decode_session", "bpf_lsm_ismaclabel",
};

static bool name_in(const char *name, const char *const *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(name, list[i]))
			return true;
	return false;
}

#define NAME_IN(name, list) name_in((name), (list), sizeof(list) / sizeof((list)[0]))

bool btf_ctx_applies(const struct vet_env *env)
{
	return env->prog_type == BPF_PROG_TYPE_TRACING || env->prog_type == BPF_PROG_TYPE_LSM ||
	       env->prog_type == BPF_PROG_TYPE_STRUCT_OPS;
}

/* tp_btf: typedef btf_trace_X -> pointer -> FUNC_PROTO whose first
 * argument is the tracepoint's private data. Returns the proto's id. */
static uint32_t raw_tp_proto(const struct btf *btf, uint32_t id, const char **name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const char *tname = t ? btf__name_by_offset(btf, t->name_off) : NULL;
	uint32_t proto;

	if (!t || !btf_is_typedef(t) || !tname ||
	    strncmp(tname, BTF_TRACE_PREFIX, strlen(BTF_TRACE_PREFIX)))
		return 0;
	*name = tname + strlen(BTF_TRACE_PREFIX);
	t = btf__type_by_id(btf, t->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	proto = t->type;
	t = btf__type_by_id(btf, proto);
	return t && btf_is_func_proto(t) && btf_vlen(t) > 0 ? proto : 0;
}

/* fentry/fexit/fmod_ret/lsm: FUNC -> FUNC_PROTO. */
static uint32_t func_proto(const struct btf *btf, uint32_t id, const char **name)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	uint32_t proto;

	if (!t || !btf_is_func(t))
		return 0;
	*name = btf__name_by_offset(btf, t->name_off);
	proto = t->type;
	t = btf__type_by_id(btf, proto);
	return t && btf_is_func_proto(t) && *name ? proto : 0;
}

/* What the kernel checks of an LSM program's hook (the license first,
 * which needs no BTF: see btf_ctx_init). */
static int check_lsm_target(struct vet_env *env)
{
	if (NAME_IN(env->attach.name, disabled_lsm_hooks)) {
		verbose(env, "attach_btf_id %u points to disabled hook %s\n", env->attach.btf_id,
			env->attach.name);
		return -EINVAL;
	}
	return 0;
}

/* The functions of the kernel's fmod_ret sets, each since its version:
 * fmod_ret may attach to them, and sleepable programs to those marked. */
static const struct {
	const char *name;
	enum kver_feature since;
	bool sleepable;
} fmodret_set[] = {
	{ "bpf_modify_return_test", KVER_FMODRET_TEST_SET, false },
	{ "bpf_modify_return_test2", KVER_FMODRET_TEST_SET, false },
	{ "bpf_modify_return_test_tp", KVER_FMODRET_TEST_SET, false },
	{ "bpf_fentry_test1", KVER_FMODRET_TEST_SET, true },
	{ "update_socket_protocol", KVER_FMODRET_SOCKET_PROTOCOL, false },
};

/* Is `name` in an fmod_ret set of the target, and sleepable there if
 * `sleepable`? */
static bool in_fmodret_set(const struct vet_env *env, const char *name, bool sleepable)
{
	for (size_t i = 0; i < sizeof(fmodret_set) / sizeof(fmodret_set[0]); i++)
		if (!strcmp(name, fmodret_set[i].name))
			return env_has(env, fmodret_set[i].since) &&
			       (!sleepable || fmodret_set[i].sleepable);
	return false;
}

/* fentry, fexit and fmod_ret: a sleepable program needs a function
 * listed for error injection or marked sleepable in the fmod_ret set;
 * fmod_ret needs the list, the set, or an LSM security_ function. Decided
 * only where the target's config says it has no error injection list:
 * with one, bpfvet does not know its entries (they are in the kernel's
 * binary, not in its BTF), and the program is left to the walk. */
static int check_tracing_target(struct vet_env *env)
{
	const char *name = env->attach.name;
	bool sleepable = env->prog_flags & BPF_F_SLEEPABLE;
	int eil = env->prog->obj ? env->prog->obj->targ_error_injection : 0;

	if (eil >= 0)
		return 0;
	if (sleepable && !in_fmodret_set(env, name, true)) {
		verbose(env, "%s is not sleepable\n", name);
		return -EINVAL;
	}
	if (!sleepable && env->expected_attach_type == BPF_MODIFY_RETURN &&
	    strncmp(name, "security_", strlen("security_")) && !in_fmodret_set(env, name, false)) {
		verbose(env, "%s() is not modifiable\n", name);
		return -EINVAL;
	}
	return 0;
}

int btf_ctx_init(struct vet_env *env)
{
	const struct bpfvet_program *prog = env->prog;
	struct attach_info *a = &env->attach;
	const struct btf *btf;
	int id;

	env->targ_btf = prog->obj ? prog->obj->targ_btf : NULL;
	env->targ_index = prog->obj ? prog->obj->targ_index : NULL;
	btf = env->targ_btf;
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS && !env->gpl) {
		verbose(env, "struct ops programs must have a GPL compatible license\n");
		return -EINVAL;
	}
	if (env->prog_type == BPF_PROG_TYPE_LSM && !env->gpl) {
		verbose(env, "LSM programs must have a GPL compatible license\n");
		return -EINVAL;
	}
	if (!btf_ctx_applies(env) || !btf)
		return 0;
	/* struct_ops: the member's prototype in the kernel's struct. */
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
		return struct_ops_ctx_init(env);
	if (!prog->attach_target || !prog->attach_target[0])
		return unsupported(env, "BTF program without an attach target");
	if (env->expected_attach_type == BPF_TRACE_ITER && !iter_target_known(env))
		return unsupported(env, "iterator target context");
	id = kbtf_attach_find(btf, env->targ_index, prog->attach_target,
			      env->expected_attach_type);
	if (id < 0)
		return unsupported(env, "attach target not in the target BTF");
	a->btf_id = (uint32_t)id;
	a->raw_tp = env->prog_type == BPF_PROG_TYPE_TRACING &&
		    env->expected_attach_type == BPF_TRACE_RAW_TP;
	a->proto_id = a->raw_tp ? raw_tp_proto(btf, a->btf_id, &a->name) :
		      func_proto(btf, a->btf_id, &a->name);
	if (!a->proto_id)
		return unsupported(env, "attach target of an unexpected BTF kind");
	if (env->prog_type == BPF_PROG_TYPE_LSM)
		return check_lsm_target(env);
	switch (env->expected_attach_type) {
	case BPF_TRACE_FENTRY:
	case BPF_TRACE_FEXIT:
	case BPF_MODIFY_RETURN:
		return check_tracing_target(env);
	default:
		return 0;
	}
}

/* Which argument a ctx offset falls in: arguments take 8 bytes, or their
 * size rounded up to 8 (structs passed by value), then the return value.
 * Counted over the whole prototype, the hidden tp_btf argument included,
 * as the kernel counts. */
static uint32_t ctx_arg_index(const struct btf *btf, const struct btf_type *proto, int off)
{
	const struct btf_param *p = btf_params(proto);
	uint32_t n = btf_vlen(proto), end = 0;
	const struct btf_type *t;

	for (uint32_t i = 0; i <= n; i++) {
		t = kbtf_skip_mods(btf, i < n ? p[i].type : proto->type, NULL);
		end += !t || btf_is_ptr(t) ? 8 : (t->size + 7u) / 8u * 8u;
		if ((uint32_t)off < end)
			return i;
	}
	return n + 1;
}

static bool args_trusted(const struct vet_env *env)
{
	if (!env_has(env, KVER_PTR_TRUSTED))
		return false;
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
		return true;
	if (env->prog_type == BPF_PROG_TYPE_LSM)
		return !NAME_IN(env->attach.name, untrusted_lsm_hooks);
	return env->expected_attach_type == BPF_TRACE_RAW_TP ||
	       env->expected_attach_type == BPF_TRACE_ITER;
}

static bool name_has_suffix(const char *name, const char *sfx)
{
	size_t n = strlen(name), k = strlen(sfx);

	return n >= k && !strcmp(name + n - k, sfx);
}

/* The tracepoint's known NULL and error arguments (see tp_null_args). */
static uint64_t tp_arg_bits(const char *tp, uint32_t arg)
{
	for (size_t i = 0; i < sizeof(tp_null_args) / sizeof(tp_null_args[0]); i++)
		if (!strcmp(tp, tp_null_args[i].tp))
			return arg < 16 ? (tp_null_args[i].mask >> (arg * 4)) & 0xf : 0;
	return 0;
}

/* Result of a ctx read: what the destination register becomes. */
struct ctx_arg {
	uint32_t reg_type;	/* SCALAR_VALUE or PTR_TO_BTF_ID | flags */
	uint32_t btf_id;
	bool is_retval;
};

/* The type of the slot read; *t is NULL when the access is refused (the
 * kernel's message is printed). */
static int slot_type(struct vet_env *env, int off, const struct btf_type **t,
		     uint32_t *arg, struct ctx_arg *out)
{
	const struct btf *btf = env->targ_btf;
	const struct attach_info *a = &env->attach;
	const struct btf_type *proto = btf__type_by_id(btf, a->proto_id);
	uint32_t nr_args = btf_vlen(proto) - (a->raw_tp ? 1 : 0);
	const struct btf_param *args = btf_params(proto) + (a->raw_tp ? 1 : 0);

	*t = NULL;
	*arg = ctx_arg_index(btf, proto, off);
	if (*arg < nr_args) {
		*t = btf__type_by_id(btf, args[*arg].type);
		return 0;
	}
	/* A struct_ops program's expected attach type is its member's
	 * index, which the kernel reads here as any other. */
	if (*arg == nr_args) {
		switch (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS ? a->st_member :
			env->expected_attach_type) {
		case BPF_LSM_MAC:
			out->is_retval = true;
			/* fallthrough */
		case BPF_LSM_CGROUP:
		case BPF_TRACE_FEXIT:
			*t = btf__type_by_id(btf, proto->type);
			return 0;
		case BPF_MODIFY_RETURN:
			*t = kbtf_skip_mods(btf, proto->type, NULL);
			if (*t && kbtf_is_small_int(*t))
				return 0;
			verbose(env, "ret type %s not allowed for fmod_ret\n", kbtf_kind_str(*t));
			*t = NULL;
			return -EACCES;
		default:
			break;
		}
	}
	verbose(env, "func '%s' doesn't have %u-th argument\n", a->name, *arg + 1);
	return -EACCES;
}

/* A pointer argument to a struct: its BTF id and flags. */
static int ptr_arg(struct vet_env *env, const struct btf_type *t, uint32_t arg,
		   struct ctx_arg *out)
{
	const struct btf *btf = env->targ_btf;
	const struct attach_info *a = &env->attach;
	const struct btf_type *proto = btf__type_by_id(btf, a->proto_id);
	const struct btf_param *p = btf_params(proto) + (a->raw_tp ? 1 : 0) + arg;
	const char *pname = btf__name_by_offset(btf, p->name_off);
	uint32_t id = t->type;
	bool is_err = false;

	out->reg_type = PTR_TO_BTF_ID;
	if (args_trusted(env))
		out->reg_type |= PTR_TRUSTED;
	if (pname && name_has_suffix(pname, NULLABLE_SUFFIX))
		out->reg_type |= PTR_MAYBE_NULL;
	if (a->raw_tp) {
		uint64_t bits = tp_arg_bits(a->name, arg);

		if (bits & 1)
			out->reg_type |= PTR_MAYBE_NULL;
		if (bits & 4)
			out->reg_type = PTR_TO_BTF_ID | PTR_UNTRUSTED;
		is_err = bits & 2;
	}
	t = btf__type_by_id(btf, id);
	if (t && btf_is_type_tag(t)) {
		const char *tag = btf__name_by_offset(btf, t->name_off);

		if (tag && !strcmp(tag, "user"))
			out->reg_type |= MEM_USER;
		if (tag && !strcmp(tag, "percpu"))
			out->reg_type |= MEM_PERCPU;
	}
	t = kbtf_skip_mods(btf, id, &id);
	if (!t || !kbtf_is_struct(t)) {
		verbose(env, "func '%s' arg%u type %s is not a struct\n", a->name, arg,
			kbtf_kind_str(t));
		return -EACCES;
	}
	out->btf_id = id;
	verbose(env, "func '%s' arg%u has btf_id %u type %s '%s'\n", a->name, arg, id,
		kbtf_kind_str(t), kbtf_msg_name(btf, t->name_off));
	if (is_err) {
		verbose(env, "marking pointer arg%u as scalar as it may encode error", arg);
		out->reg_type = SCALAR_VALUE;
	}
	return 0;
}

/* The kernel's btf_ctx_access() for a read of `size` bytes at `off`. */
static int ctx_arg_access(struct vet_env *env, int off, int size, struct ctx_arg *out)
{
	const struct btf *btf = env->targ_btf;
	const char *fname = env->attach.name;
	const struct btf_type *t, *pt;
	uint32_t arg, iter_type;
	int err;

	if (off % 8) {
		verbose(env, "func '%s' offset %d is not multiple of 8\n", fname, off);
		return -EACCES;
	}
	err = slot_type(env, off, &t, &arg, out);
	if (err)
		return err;
	while (t && kbtf_is_modifier(t))
		t = btf__type_by_id(btf, t->type);
	if (t && (kbtf_is_small_int(t) || btf_is_any_enum(t) || kbtf_is_struct(t)))
		return 0;
	if (!t || !btf_is_ptr(t)) {
		verbose(env, "func '%s' arg%u '%s' has type %s. Only pointer access is allowed\n",
			fname, arg, t ? kbtf_msg_name(btf, t->name_off) : "(anon)",
			kbtf_kind_str(t));
		return -EACCES;
	}
	if (size != 8) {
		verbose(env, "func '%s' size %d must be 8\n", fname, size);
		return -EACCES;
	}
	/* An iterator's buffers, then void (const or not) and integer
	 * pointers as plain numbers, then an iterator's objects. */
	iter_type = env->expected_attach_type == BPF_TRACE_ITER ?
		    iter_ctx_arg_type(env, arg) : 0;
	if (base_type(iter_type) == PTR_TO_BUF) {
		out->reg_type = iter_type;
		return 0;
	}
	pt = kbtf_skip_mods(btf, t->type, NULL);
	if (pt && (btf_kind(pt) == BTF_KIND_UNKN || btf_is_int(pt)))
		return 0;
	if (iter_type) {
		/* Trust is 6.2's: older kernels gave these plain. */
		if (!env_has(env, KVER_PTR_TRUSTED))
			iter_type &= ~PTR_TRUSTED;
		out->reg_type = iter_type;
		kbtf_skip_mods(btf, t->type, &out->btf_id);
		return 0;
	}
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS &&
	    struct_ops_tagged_arg(env, arg, t, &out->reg_type, &out->btf_id))
		return 0;
	return ptr_arg(env, t, arg, out);
}

bool btf_attach_returns_void(const struct vet_env *env)
{
	const struct btf_type *proto = env->attach.proto_id ?
		btf__type_by_id(env->targ_btf, env->attach.proto_id) : NULL;

	return proto && !proto->type;
}

bool btf_lsm_retval_range(const struct vet_env *env, struct retval_range *r)
{
	bool is_bool;

	/* Void hooks have no range. */
	if (!env->attach.proto_id || btf_attach_returns_void(env))
		return false;
	/* An errno, or a bool for a few hooks. */
	is_bool = NAME_IN(env->attach.name, bool_lsm_hooks);
	r->minval = is_bool ? 0 : -MAX_ERRNO;
	r->maxval = is_bool ? 1 : 0;
	return true;
}

/* The return value slot of an LSM program reads within the hook's range. */
static void retval_range(const struct vet_env *env, struct reg_state *dst)
{
	struct bounds *b = &dst->b;
	struct retval_range r;

	if (!btf_lsm_retval_range(env, &r))
		return;
	if (b->s32_min < r.minval)
		b->s32_min = r.minval;
	if (b->s32_max > r.maxval)
		b->s32_max = r.maxval;
	if (b->smin < r.minval)
		b->smin = r.minval;
	if (b->smax > r.maxval)
		b->smax = r.maxval;
	bounds_sync(b);
}

int check_btf_ctx_access(struct vet_env *env, int off, int size, enum access_type t,
			 int value_regno)
{
	struct ctx_arg info = { .reg_type = SCALAR_VALUE };
	struct reg_state *dst;
	int err;

	/* The generic rule for every BTF-typed context comes first. */
	if (off < 0 || off >= 8 * MAX_FUNC_ARGS || t != ACCESS_READ || off % size) {
		verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
		return -EACCES;
	}
	if (!env->attach.proto_id && env->targ_btf && env->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
		return unsupported(env, "struct_ops context of a program no struct_ops map names");
	if (!env->attach.proto_id)
		return unsupported(env, "BTF-typed context without target BTF");
	err = ctx_arg_access(env, off, size, &info);
	if (err) {
		verbose(env, "invalid bpf_context access off=%d size=%d\n", off, size);
		return err;
	}
	if (env->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
		struct_ops_ctx_promote(env, info.reg_type, &info.btf_id);
	if (value_regno < 0)
		return 0;
	dst = &cur_regs(env)[value_regno];
	if (info.reg_type == SCALAR_VALUE) {
		reg_mark_unknown(env, dst);
		if (!info.is_retval)
			return 0;
		retval_range(env, dst);
		return reg_bounds_sanity_check(env, dst, "s32_range");
	}
	reg_mark_ptr(dst, info.reg_type);
	if (type_may_be_null(info.reg_type))
		dst->id = ++env->id_gen;
	if (base_type(info.reg_type) == PTR_TO_BTF_ID) {
		dst->btf = env->targ_btf;
		dst->btf_id = info.btf_id;
	}
	return 0;
}
