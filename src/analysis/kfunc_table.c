/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a kfunc call instruction calls. The kernel knows a kfunc by its BTF
 * id in vmlinux: its prototype is that FUNC's type, its flags and the
 * program types that may call it come from the id sets it was registered
 * in. bpfvet finds the FUNC by the name of the object's extern (the loader
 * leaves the extern's index in imm) and the flags in rules/kfunc_sets.h.
 * Without a target BTF only the prototypes written down below are known.
 * The pre-passes (cfg, liveness, stack depth) and precision tracking ask
 * these questions before or beside the walk, which checks the calls
 * (kfunc.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "analysis.h"
#include "loader/loader.h"

/* Prototypes known without a target BTF. */
static const struct kfunc_desc builtin[] = {
	/* int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) */
	{ .name = "bpf_iter_num_new", .kind = KFUNC_ITER_NEW, .flags = KF_ITER_NEW,
	  .iter_id = ITER_NUM, .iter_slots = 1, .nargs = 3 },
	/* int *bpf_iter_num_next(struct bpf_iter_num *it) */
	{ .name = "bpf_iter_num_next", .kind = KFUNC_ITER_NEXT,
	  .flags = KF_ITER_NEXT | KF_RET_NULL, .iter_id = ITER_NUM, .iter_slots = 1, .nargs = 1 },
	/* void bpf_iter_num_destroy(struct bpf_iter_num *it) */
	{ .name = "bpf_iter_num_destroy", .kind = KFUNC_ITER_DESTROY, .flags = KF_ITER_DESTROY,
	  .iter_id = ITER_NUM, .iter_slots = 1, .nargs = 1 },
	/* void bpf_throw(u64 cookie): ends the program through the
	 * exception callback (exccb.c) */
	{ .name = "bpf_throw", .kind = KFUNC_THROW, .nargs = 1 },
};

static enum kfunc_kind kind_of(const char *name, uint32_t flags)
{
	if (flags & KF_ITER_NEW)
		return KFUNC_ITER_NEW;
	if (flags & KF_ITER_NEXT)
		return KFUNC_ITER_NEXT;
	if (flags & KF_ITER_DESTROY)
		return KFUNC_ITER_DESTROY;
	return strcmp(name, "bpf_throw") ? KFUNC_PLAIN : KFUNC_THROW;
}

/* An iterator kfunc's first parameter points to struct bpf_iter_<kind>;
 * its size in 8-byte slots is what the iterator takes on the stack. */
static int describe_iter(const struct btf *btf, const struct btf_type *proto,
			 struct kfunc_desc *out)
{
	const struct btf_param *p = btf_params(proto);
	const struct btf_type *t;
	uint32_t id;

	if (!btf_vlen(proto))
		return -ENOENT;
	t = kbtf_skip_mods(btf, p[0].type, NULL);
	if (!t || !btf_is_ptr(t))
		return -ENOENT;
	t = kbtf_skip_mods(btf, t->type, &id);
	if (!t || !btf_is_struct(t) || strncmp(kbtf_name(btf, id), "bpf_iter_", 9) ||
	    !t->size || t->size % 8)
		return -ENOENT;
	out->iter_id = id;
	out->iter_slots = (int)(t->size / 8);
	return 0;
}

static int describe_btf(const struct vet_env *env, const char *name, struct kfunc_desc *out)
{
	const struct btf *btf = env->targ_btf;
	const struct btf_type *func, *proto;
	int id = btf_index_find(env->targ_index, btf, name, BTF_KIND_FUNC);

	if (id <= 0)
		return -ENOENT;
	func = btf__type_by_id(btf, (uint32_t)id);
	proto = func ? btf__type_by_id(btf, func->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return -ENOENT;
	uint32_t kver = env->prog->obj ? env->prog->obj->target_kver : 0;

	memset(out, 0, sizeof(*out));
	out->row = kfunc_row_find(name, kver);
	out->name = btf__name_by_offset(btf, func->name_off);
	out->flags = out->row ? kfunc_row_flags(out->row, kver) : 0;
	out->kind = kind_of(name, out->flags);
	out->btf = btf;
	out->func_id = (uint32_t)id;
	out->proto_id = func->type;
	out->nargs = (int)btf_vlen(proto);
	if (out->kind >= KFUNC_ITER_NEW && out->kind <= KFUNC_ITER_DESTROY)
		return describe_iter(btf, proto, out);
	return 0;
}

/* An extern's answer, kept for the verification (env->kfunc_memo). */
struct kfunc_memo {
	bool known;
	int err;
	struct kfunc_desc desc;
};

static int describe_extern(const struct vet_env *env, const struct bpfvet_insn *insn,
			   struct kfunc_desc *out);

int kfunc_describe(const struct vet_env *env, const struct bpfvet_insn *insn,
		   struct kfunc_desc *out)
{
	const struct bpfvet_program *prog = env->prog;
	struct kfunc_memo *m;

	/* off != 0 names a module's BTF: none of ours live there. */
	if (insn->src_reg != BPF_PSEUDO_KFUNC_CALL || insn->off || !prog || insn->imm < 0 ||
	    (size_t)insn->imm >= prog->extern_cnt || !prog->externs[insn->imm].name)
		return -ENOENT;
	if (!env->kfunc_memo)
		return describe_extern(env, insn, out);
	/* The memo is the env's, not part of its state: filling it changes
	 * no answer. */
	m = &env->kfunc_memo[insn->imm];
	if (!m->known) {
		m->err = describe_extern(env, insn, &m->desc);
		m->known = true;
	}
	if (!m->err)
		*out = m->desc;
	return m->err;
}

int kfunc_memo_init(struct vet_env *env)
{
	const struct bpfvet_program *prog = env->prog;
	bool any = false;

	for (uint32_t i = 0; i < env->insn_cnt && !any; i++)
		any = env->insns[i].code == (BPF_JMP | BPF_CALL) &&
		      env->insns[i].src_reg == BPF_PSEUDO_KFUNC_CALL;
	if (!any || !prog || !prog->extern_cnt)
		return 0;
	env->kfunc_memo = vet_calloc(env, prog->extern_cnt, sizeof(*env->kfunc_memo));
	return env->kfunc_memo ? 0 : -ENOMEM;
}

/* kfunc_describe() of a call whose extern is known to exist. */
static int describe_extern(const struct vet_env *env, const struct bpfvet_insn *insn,
			   struct kfunc_desc *out)
{
	const struct bpfvet_program *prog = env->prog;
	char name[128];

	/* libbpf resolves the kfunc without the extern's ___flavour. */
	snprintf(name, sizeof(name), "%.*s", (int)core_essential_len(prog->externs[insn->imm].name),
		 prog->externs[insn->imm].name);
	if (env->targ_btf)
		return describe_btf(env, name, out);
	for (size_t i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		if (!strcmp(name, builtin[i].name)) {
			*out = builtin[i];
			return 0;
		}
	}
	return -ENOENT;
}

/* Set filters: the hook lets the program type in, the filter narrows it. */
static bool filter_allows(const struct vet_env *env, enum kfunc_filter f)
{
	switch (f) {
	case KFLT_BPF_FS_KFUNCS_FILTER:
	case KFLT_BPF_GET_FSVERITY_DIGEST_FILTER:
		return env->prog_type == BPF_PROG_TYPE_LSM;
	case KFLT_BPF_KPROBE_MULTI_FILTER:
		return env->expected_attach_type == BPF_TRACE_KPROBE_MULTI ||
		       env->expected_attach_type == BPF_TRACE_KPROBE_SESSION;
	case KFLT_TRACING_ITER_FILTER:
		return env->prog_type == BPF_PROG_TYPE_TRACING &&
		       env->expected_attach_type == BPF_TRACE_ITER;
	default:
		return true;
	}
}

bool kfunc_allowed(const struct vet_env *env, const struct kfunc_set_row *row)
{
	if (row->hooks & KH_COMMON)
		return filter_allows(env, row->filter);
	return (row->hooks & kfunc_hook_of(env->prog_type)) && filter_allows(env, row->filter);
}

int kfunc_check_add(struct vet_env *env, const struct bpfvet_insn *insn)
{
	static const char xdp_meta[] = "bpf_xdp_metadata_";
	struct kfunc_desc k;

	if (kfunc_describe(env, insn, &k) || !k.row)
		return 0;
	/* bpfvet's programs are never bound to a device. */
	if (!strncmp(k.name, xdp_meta, sizeof(xdp_meta) - 1)) {
		verbose(env, "metadata kfuncs require device-bound program\n");
		return -EINVAL;
	}
	return 0;
}

/* The kfuncs of lists and trees work under the lock that guards them. */
bool kfunc_lock_allowed(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	static const char *const graph[] = {
		"bpf_list_push_front_impl", "bpf_list_push_back_impl", "bpf_list_pop_front",
		"bpf_list_pop_back", "bpf_list_front", "bpf_list_back", "bpf_rbtree_add_impl",
		"bpf_rbtree_remove", "bpf_rbtree_first", "bpf_rbtree_root", "bpf_rbtree_left",
		"bpf_rbtree_right", "bpf_refcount_acquire_impl",
		/* resilient locks nest (6.15) */
		"bpf_res_spin_lock", "bpf_res_spin_unlock", "bpf_res_spin_lock_irqsave",
		"bpf_res_spin_unlock_irqrestore",
	};
	struct kfunc_desc k;

	if (insn->off || kfunc_describe(env, insn, &k) || !k.row)
		return false;
	for (size_t i = 0; i < sizeof(graph) / sizeof(graph[0]); i++)
		if (!strcmp(k.name, graph[i]))
			return true;
	return false;
}

bool kfunc_is_iter_next(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct kfunc_desc k;

	return !kfunc_describe(env, insn, &k) && k.kind == KFUNC_ITER_NEXT;
}

bool kfunc_is_async_cb(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct kfunc_desc k;

	return !kfunc_describe(env, insn, &k) &&
	       (!strcmp(k.name, "bpf_wq_set_callback_impl") ||
		!strcmp(k.name, "bpf_task_work_schedule_signal_impl") ||
		!strcmp(k.name, "bpf_task_work_schedule_resume_impl"));
}

bool kfunc_is_throw(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct kfunc_desc k;

	return !kfunc_describe(env, insn, &k) && k.kind == KFUNC_THROW;
}

bool kfunc_is_sync_callback(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct kfunc_desc k;

	return insn->src_reg == BPF_PSEUDO_KFUNC_CALL && !insn->off &&
	       !kfunc_describe(env, insn, &k) && k.row && !strcmp(k.name, "bpf_rbtree_add_impl");
}

int call_param_count(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct kfunc_desc k;

	/* The kernel's liveness takes a kfunc it cannot call for one that
	 * reads all five argument registers. */
	if (kfunc_describe(env, insn, &k) || (k.btf && (!k.row || !kfunc_allowed(env, k.row))))
		return -1;
	return k.nargs;
}
