/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BTF-typed parts of helper calls: a BTF pointer passed where a
 * helper wants a kernel struct must point to that struct (or to a struct
 * that starts with it), and helpers declared to return a kernel struct
 * give a BTF pointer to it. Struct names come from the helper table
 * (helper_protos.c); their ids from the target BTF.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "verifier.h"

#define HELPER_SK_RELEASE	86

/* The struct an argument must point to, NULL when the helper names none. */
static const char *arg_struct(const struct vet_env *env, uint32_t regno, uint32_t arg_type,
			      int func_id)
{
	/* The program type's own variant: some name another struct. */
	const struct helper_proto *fn = helper_proto_for(env, (uint32_t)func_id);

	if (fn && regno >= 1 && regno <= 5 && fn->arg_btf[regno - 1])
		return fn->arg_btf[regno - 1];
	if (base_type(arg_type) == ARG_PTR_TO_BTF_ID_SOCK_COMMON)
		return "sock_common";
	return NULL;
}

/* Register types a BTF-typed argument may have, as the kernel lists them
 * when it matches the struct: 1 to match, 0 to accept as is. */
static int arg_reg_kind(uint32_t type)
{
	switch (type) {
	case PTR_TO_BTF_ID:
	case PTR_TO_BTF_ID | PTR_TRUSTED:
	case PTR_TO_BTF_ID | PTR_TRUSTED | PTR_MAYBE_NULL:
	case PTR_TO_BTF_ID | MEM_RCU:
	case PTR_TO_BTF_ID | PTR_MAYBE_NULL:
	case PTR_TO_BTF_ID | PTR_MAYBE_NULL | MEM_RCU:
		return 1;
	case PTR_TO_BTF_ID | MEM_PERCPU:
	case PTR_TO_BTF_ID | MEM_PERCPU | MEM_RCU:
	case PTR_TO_BTF_ID | MEM_PERCPU | PTR_TRUSTED:
		return 0;	/* the helper's own checks */
	case PTR_TO_BTF_ID | MEM_ALLOC:
	case PTR_TO_BTF_ID | MEM_PERCPU | MEM_ALLOC:
		return 2;	/* allocated objects: locks and kptr_xchg only */
	default:
		return -1;
	}
}

int check_btf_arg_type(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		       const struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool release = arg_type & OBJ_RELEASE;
	int kind = arg_reg_kind(reg->type), need_id, func_id = meta->func_id;
	const char *need;

	if (kind < 0) {
		verbose(env, "verifier internal error: invalid PTR_TO_BTF_ID register for type match\n");
		return -EFAULT;
	}
	if (kind == 2) {
		if (func_id != HELPER_SPIN_LOCK && func_id != HELPER_SPIN_UNLOCK &&
		    func_id != HELPER_KPTR_XCHG) {
			verbose(env, "%s: unimplemented handling of MEM_ALLOC\n",
				verifier_bug_prefix(env));
			return -EFAULT;
		}
		if (func_id == HELPER_KPTR_XCHG && regno == BPF_REG_2)
			return kptr_match_type(env, regno, meta->kptr_field);
		return 0;
	}
	if (kind == 0)
		return 0;
	if (type_may_be_null(reg->type) && (!type_may_be_null(arg_type) || release)) {
		verbose(env, "Possibly NULL pointer passed to helper arg%u\n", regno);
		return -EACCES;
	}
	if (func_id == HELPER_KPTR_XCHG)
		return kptr_match_type(env, regno, meta->kptr_field);
	need = meta->arg_btf_id ? kbtf_name(env->targ_btf, meta->arg_btf_id) :
	       arg_struct(env, regno, arg_type, func_id);
	if (!need) {
		verbose(env, "verifier internal error: missing arg compatible BTF ID\n");
		return -EFAULT;
	}
	need_id = meta->arg_btf_id ? (int)meta->arg_btf_id : env->targ_btf ?
		  btf_index_find(env->targ_index, env->targ_btf, need, BTF_KIND_STRUCT) : -1;
	if (!reg->btf || reg->btf != env->targ_btf || need_id <= 0)
		return unsupported(env, "BTF-typed helper argument without target BTF");
	if (!btf_struct_ids_match(env, reg->btf, reg->btf_id, reg->off, (uint32_t)need_id,
				  release && func_id != HELPER_SK_RELEASE)) {
		verbose(env, "R%u is of type %s but %s is expected\n", regno,
			kbtf_name(reg->btf, reg->btf_id), need);
		return -EACCES;
	}
	return 0;
}

int target_struct_id(const struct vet_env *env, const char *name)
{
	return env->targ_btf ? btf_index_find(env->targ_index, env->targ_btf, name,
					      BTF_KIND_STRUCT) : -1;
}

int set_btf_return_reg(struct vet_env *env, const struct helper_proto *fn,
		       struct reg_state *r0)
{
	uint32_t flag = fn->ret_type & ~BASE_TYPE_MASK;
	int id;

	if (base_type(fn->ret_type) != RET_PTR_TO_BTF_ID)
		return unsupported(env, "BTF-typed helper return value");
	if (fn->id == HELPER_KPTR_XCHG)
		return unsupported(env, "kptr exchange");
	if (!fn->ret_btf) {
		verbose(env, "invalid return type %u of func %s#%u\n", base_type(fn->ret_type),
			fn->name, fn->id);
		return -EINVAL;
	}
	id = env->targ_btf ? btf_index_find(env->targ_index, env->targ_btf, fn->ret_btf,
					    BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return unsupported(env, "BTF-typed helper return value without target BTF");
	reg_mark_ptr(r0, PTR_TO_BTF_ID | flag);
	r0->btf = env->targ_btf;
	r0->btf_id = (uint32_t)id;
	return 0;
}

/*
 * A CPU's copy of a per-CPU variable: a BTF pointer when the variable is a
 * struct, else memory of the type's size (read-only for both helpers, a
 * flag a BTF pointer does not carry).
 */
int set_percpu_return_reg(struct vet_env *env, const struct helper_proto *fn,
			  const struct call_meta *meta, struct reg_state *r0)
{
	uint32_t flag = fn->ret_type & ~BASE_TYPE_MASK;
	const struct btf *btf = meta->ret_btf;
	const struct btf_type *t;
	struct kbtf_size rs = { 0 };

	if (!btf)
		return unsupported(env, "per-CPU pointer helper without a per-CPU BTF argument");
	if (meta->ret_percpu_obj) {
		t = btf__type_by_id(btf, meta->ret_btf_id);
		if (!t || !kbtf_is_struct(t)) {
			verbose(env, "Helper has invalid btf/btf_id in R1\n");
			return -EFAULT;
		}
	}
	t = kbtf_skip_mods(btf, meta->ret_btf_id, NULL);
	if (t && kbtf_is_struct(t) && meta->ret_percpu_obj) {
		/* This CPU's part of the object, valid for the RCU section. */
		reg_mark_ptr(r0, PTR_TO_BTF_ID | MEM_ALLOC | MEM_RCU);
		r0->btf = btf;
		r0->btf_id = meta->ret_btf_id;
		return 0;
	}
	if (t && kbtf_is_struct(t)) {
		reg_mark_ptr(r0, PTR_TO_BTF_ID | (flag & ~MEM_RDONLY));
		r0->btf = btf;
		r0->btf_id = meta->ret_btf_id;
		return 0;
	}
	if (!t || !kbtf_resolve_size(btf, t, &rs)) {
		verbose(env, "unable to resolve the size of type '%s': %d\n",
			t ? kbtf_msg_name(btf, t->name_off) : "", -EINVAL);
		return -EINVAL;
	}
	reg_mark_ptr(r0, PTR_TO_MEM | flag);
	r0->mem_size = rs.size;
	return 0;
}

/* Functions whose fentry/fexit programs may call bpf_d_path. */
static const char *const d_path_allowlist[] = {
	"security_file_permission", "security_inode_getattr", "security_file_open",
	"security_path_truncate", "vfs_truncate", "vfs_fallocate", "dentry_open",
	"vfs_getattr", "filp_close",
};

static bool d_path_allowed(const struct vet_env *env)
{
	for (size_t i = 0; i < sizeof(d_path_allowlist) / sizeof(d_path_allowlist[0]); i++)
		if (!strcmp(env->attach.name, d_path_allowlist[i]))
			return true;
	return false;
}

/* Tracing programs may use socket storage unless they trace it. */
static bool sk_storage_allowed(const struct vet_env *env)
{
	static const char prefix[] = "bpf_sk_storage";

	switch (env->expected_attach_type) {
	case BPF_TRACE_RAW_TP:
		return true;
	case BPF_TRACE_FENTRY:
	case BPF_TRACE_FEXIT:
		return strncmp(env->attach.name, prefix, strlen(prefix)) != 0;
	default:
		return false;
	}
}

/*
 * LSM hooks (without their "bpf_lsm_" prefix) that Linux 6.1 and 6.12 both
 * list as sleepable. The kernel's list moves between releases in both
 * directions (6.12 dropped key_free and inet_conn_established, added the
 * path_* and bpf_token_* hooks), so only hooks in both are taken as known;
 * 6.18's list could not be checked here (this machine runs no BPF LSM).
 */
static const char *const sleepable_lsm_hooks[] = {
	"bpf", "bpf_map", "bpf_prog",
	"bprm_check_security", "bprm_committed_creds", "bprm_committing_creds",
	"bprm_creds_for_exec", "bprm_creds_from_file",
	"capget", "capset", "cred_prepare", "current_getsecid_subj",
	"file_ioctl", "file_lock", "file_open", "file_receive",
	"inode_create", "inode_free_security", "inode_getattr", "inode_getxattr",
	"inode_mknod", "inode_need_killpriv", "inode_post_setxattr", "inode_readlink",
	"inode_rename", "inode_rmdir", "inode_setattr", "inode_setxattr",
	"inode_symlink", "inode_unlink",
	"kernel_module_request", "kernel_read_file", "kernfs_init_security",
	"mmap_file", "netlink_send", "path_notify", "release_secctx",
	"sb_alloc_security", "sb_eat_lsm_opts", "sb_kern_mount", "sb_mount",
	"sb_remount", "sb_set_mnt_opts", "sb_show_options", "sb_statfs", "sb_umount",
	"settime",
	"socket_accept", "socket_bind", "socket_connect", "socket_create",
	"socket_getpeername", "socket_getpeersec_dgram", "socket_getsockname",
	"socket_getsockopt", "socket_listen", "socket_post_create", "socket_recvmsg",
	"socket_sendmsg", "socket_shutdown", "socket_socketpair",
	"syslog", "task_alloc", "task_getsecid_obj", "task_prctl", "task_setscheduler",
};

static bool known_sleepable_lsm_hook(const char *attach_name)
{
	static const char prefix[] = "bpf_lsm_";
	const char *hook;

	if (strncmp(attach_name, prefix, strlen(prefix)))
		return false;
	hook = attach_name + strlen(prefix);
	for (size_t i = 0; i < sizeof(sleepable_lsm_hooks) / sizeof(sleepable_lsm_hooks[0]); i++)
		if (!strcmp(hook, sleepable_lsm_hooks[i]))
			return true;
	return false;
}

int check_helper_allowed(struct vet_env *env, const struct helper_proto *fn)
{
	bool ok;

	/* Iterators may use them all. */
	if (env->prog_type == BPF_PROG_TYPE_TRACING &&
	    env->expected_attach_type == BPF_TRACE_ITER)
		return 0;
	if (!env->attach.name)
		return unsupported(env, "helper restricted to some attach targets");
	/* An LSM program may call them (bpf_d_path, bpf_ima_*_hash) on a
	 * sleepable hook. A hook outside the known list may be sleepable on
	 * the target all the same: left undecided. */
	if (env->prog_type == BPF_PROG_TYPE_LSM) {
		if (known_sleepable_lsm_hook(env->attach.name))
			return 0;
		return unsupported(env, "helper restricted to sleepable LSM hooks, on an LSM hook not known to be one");
	}
	if (!strcmp(fn->variant, "d_path"))
		ok = d_path_allowed(env);
	else if (!strncmp(fn->variant, "sk_storage_", strlen("sk_storage_")))
		ok = sk_storage_allowed(env);
	else
		return unsupported(env, "helper restricted to some attach targets");
	if (ok)
		return 0;
	verbose(env, "helper call is not allowed in probe\n");
	return -EINVAL;
}
