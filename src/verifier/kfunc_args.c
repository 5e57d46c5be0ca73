/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The arguments of a kfunc call against its BTF prototype. A parameter's
 * kind comes from its type and from the suffix of its name, which the
 * kernel reads as annotations: "__sz" and "__szk" give the size of the
 * memory before them, "__k" a constant, "__ign" anything, "__opt" an
 * optional buffer, "__str" a constant string, "__nullable" NULL or the
 * object, "__map" a map. Pointer parameters take the program's context,
 * a BTF pointer to the struct named (or to a struct that starts with it),
 * an iterator or a dynptr (dynptr.c) on the stack, a workqueue or task
 * work (wq.c) or a resilient lock (res_lock.c) in a map value, or memory
 * of the pointee's size; list heads and tree roots, their nodes and
 * bpf_rbtree_add's callback are graph.c's. "__prog" is the program's own
 * aux, which the kernel fills in: anything goes.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

enum karg_kind {
	KARG_CTX, KARG_NULL, KARG_BTF_ID, KARG_MAP, KARG_MEM, KARG_MEM_SIZE,
	KARG_CALLBACK, KARG_CONST_STR, KARG_ITER, KARG_IRQ_FLAG, KARG_DYNPTR, KARG_ALLOC_BTF_ID,
	KARG_REFCOUNTED_KPTR, KARG_WORKQUEUE, KARG_TASK_WORK, KARG_RES_LOCK, KARG_UNMODELLED,
	KARG_LIST_HEAD, KARG_LIST_NODE, KARG_RB_ROOT, KARG_RB_NODE,
};

static const char *param_name(const struct kfunc_desc *k, const struct btf_param *p)
{
	const char *name = btf__name_by_offset(k->btf, p->name_off);

	return name ? name : "";
}

static bool has_suffix(const char *name, const char *suffix)
{
	size_t n = strlen(name), s = strlen(suffix);

	return n > s && !strcmp(name + n - s, suffix);
}

static bool param_suffix(const struct kfunc_desc *k, const struct btf_param *p,
			 const char *suffix)
{
	return has_suffix(param_name(k, p), suffix);
}

static const struct btf_param *kfunc_params(const struct kfunc_desc *k)
{
	return btf_params(btf__type_by_id(k->btf, k->proto_id));
}

/* A scalar parameter that gives the size of the memory before it. */
static bool is_size_param(const struct kfunc_desc *k, const struct btf_param *p,
			  const struct reg_state *reg, const char *suffix)
{
	const struct btf_type *t = kbtf_skip_mods(k->btf, p->type, NULL);

	if (!t || !(btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) ||
	    reg->type != SCALAR_VALUE)
		return false;
	return param_suffix(k, p, suffix);
}

static const char *pointee_name(const struct kfunc_desc *k, const struct btf_type *ref)
{
	return ref ? kbtf_msg_name(k->btf, ref->name_off) : "";
}

static bool pointee_named(const struct kfunc_desc *k, const struct btf_type *ref,
			  const char *name)
{
	return ref && kbtf_is_struct(ref) && !strcmp(pointee_name(k, ref), name);
}

/* Is the pointee the program type's context, or the kernel struct the
 * context projects (sk_buff for __sk_buff, xdp_buff for xdp_md)? */
static bool is_ctx_param(const struct vet_env *env, const struct kfunc_desc *k,
			 const struct btf_type *ref)
{
	const char *want = prog_ctx_struct_name(env->prog_type), *name;

	if (!ref || !kbtf_is_struct(ref) || !want)
		return false;
	name = pointee_name(k, ref);
	if (!strcmp(name, want))
		return true;
	return (!strcmp(want, "__sk_buff") && !strcmp(name, "sk_buff")) ||
	       (!strcmp(want, "xdp_md") && !strcmp(name, "xdp_buff"));
}

/* What is left unmodelled: an `__iter` parameter that is not an
 * iterator kfunc's own, and 6.1's `struct bpf_dynptr_kern *` (its
 * dynptr kfuncs, checked by rules older than dynptr.c's). */
static bool is_unmodelled_param(const struct kfunc_desc *k, const struct btf_param *p,
				const struct btf_type *ref)
{
	return param_suffix(k, p, "__iter") || pointee_named(k, ref, "bpf_dynptr_kern");
}

/* The graph structs, each a kind of argument of its own. */
static int graph_param_kind(const struct kfunc_desc *k, const struct btf_type *ref)
{
	if (pointee_named(k, ref, "bpf_list_head"))
		return KARG_LIST_HEAD;
	if (pointee_named(k, ref, "bpf_list_node"))
		return KARG_LIST_NODE;
	if (pointee_named(k, ref, "bpf_rb_root"))
		return KARG_RB_ROOT;
	if (pointee_named(k, ref, "bpf_rb_node"))
		return KARG_RB_NODE;
	return -1;
}

/* Register types that stand for a kernel struct without a BTF id. */
static const char *implied_struct(uint32_t type)
{
	switch (type) {
	case PTR_TO_SOCKET: return "sock";
	case PTR_TO_SOCK_COMMON: return "sock_common";
	case PTR_TO_TCP_SOCK: return "tcp_sock";
	case CONST_PTR_TO_MAP: return "bpf_map";
	default: return NULL;
	}
}

static bool is_scalar_struct(const struct btf *btf, const struct btf_type *t, int depth)
{
	const struct btf_member *m = btf_members(t);

	if (depth > 3)
		return false;
	for (int i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *mt = kbtf_skip_mods(btf, m[i].type, NULL);

		while (mt && btf_is_array(mt))
			mt = kbtf_skip_mods(btf, btf_array(mt)->type, NULL);
		if (!mt)
			return false;
		if (kbtf_is_struct(mt) || btf_is_union(mt)) {
			if (!is_scalar_struct(btf, mt, depth + 1))
				return false;
		} else if (!btf_is_int(mt) && !btf_is_enum(mt) && !btf_is_enum64(mt)) {
			return false;
		}
	}
	return true;
}

static int ptr_param_kind(struct vet_env *env, const struct kfunc_desc *k,
			  const struct btf_param *params, int argno, const struct btf_type *ref)
{
	const struct reg_state *regs = cur_regs(env), *reg = &regs[argno + 1];
	const struct btf_param *p = &params[argno];
	int graph = graph_param_kind(k, ref);
	bool mem_size = false, scalar;

	if (!strcmp(k->name, "bpf_cast_to_kern_ctx") || is_ctx_param(env, k, ref))
		return KARG_CTX;
	if (param_suffix(k, p, "__nullable") && reg_is_null_scalar(reg))
		return KARG_NULL;
	if (param_suffix(k, p, "__alloc"))
		return KARG_ALLOC_BTF_ID;
	if (param_suffix(k, p, "__refcounted_kptr"))
		return KARG_REFCOUNTED_KPTR;
	if (is_unmodelled_param(k, p, ref))
		return KARG_UNMODELLED;
	if (pointee_named(k, ref, "bpf_wq"))
		return KARG_WORKQUEUE;
	if (pointee_named(k, ref, "bpf_task_work"))
		return KARG_TASK_WORK;
	if (pointee_named(k, ref, "bpf_res_spin_lock"))
		return KARG_RES_LOCK;
	if (graph >= 0)
		return graph;
	if (param_suffix(k, p, "__irq_flag"))
		return KARG_IRQ_FLAG;
	if (pointee_named(k, ref, "bpf_dynptr"))
		return KARG_DYNPTR;
	if (argno == 0 && k->kind >= KFUNC_ITER_NEW && k->kind <= KFUNC_ITER_DESTROY)
		return KARG_ITER;
	if (param_suffix(k, p, "__str"))
		return KARG_CONST_STR;
	if (param_suffix(k, p, "__map"))
		return KARG_MAP;
	/* Before 6.2 a BTF pointer that may be NULL was not one here. */
	if ((base_type(reg->type) == PTR_TO_BTF_ID &&
	     (env_has(env, KVER_PTR_TRUSTED) || !type_may_be_null(reg->type))) ||
	    implied_struct(reg->type)) {
		if (!ref || !kbtf_is_struct(ref)) {
			verbose(env, "kernel function %s args#%d pointer type %s %s is not supported\n",
				k->name, argno, kbtf_kind_str(ref), pointee_name(k, ref));
			return -EINVAL;
		}
		return KARG_BTF_ID;
	}
	if (ref && btf_is_func_proto(ref))
		return KARG_CALLBACK;
	if (argno + 1 < k->nargs &&
	    (is_size_param(k, &params[argno + 1], &regs[argno + 2], "__sz") ||
	     is_size_param(k, &params[argno + 1], &regs[argno + 2], "__szk")))
		mem_size = true;
	scalar = ref && (btf_is_int(ref) || btf_is_enum(ref) || btf_is_enum64(ref) ||
			 (kbtf_is_struct(ref) && is_scalar_struct(k->btf, ref, 0)));
	if (!scalar && !(mem_size && (!ref || btf_kind(ref) == BTF_KIND_UNKN))) {
		verbose(env, "arg#%d pointer type %s %s must point to %sscalar, or struct with scalar\n",
			argno, kbtf_kind_str(ref), pointee_name(k, ref), mem_size ? "void, " : "");
		return -EINVAL;
	}
	return mem_size ? KARG_MEM_SIZE : KARG_MEM;
}

/* A __k or __szk argument: the kfunc's one constant, which must be known. */
static int take_constant(struct vet_env *env, uint32_t regno, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (meta->const_found) {
		verbose(env, "verifier internal error: only one constant argument permitted\n");
		return -EFAULT;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u must be a known constant\n", regno);
		return -EINVAL;
	}
	meta->const_found = true;
	meta->const_value = reg->b.var_off.value;
	return 0;
}

static int scalar_param(struct vet_env *env, const struct kfunc_desc *k,
			const struct btf_param *p, uint32_t regno, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool buf_size;
	int err;

	if (reg->type != SCALAR_VALUE) {
		verbose(env, "R%u is not a scalar\n", regno);
		return -EINVAL;
	}
	if (param_suffix(k, p, "__k")) {
		err = take_constant(env, regno, meta);
		if (!err)
			err = mark_chain_precision(env, (int)regno);
		return err < 0 ? err : 0;
	}
	buf_size = !strcmp(param_name(k, p), "rdonly_buf_size") ||
		   !strcmp(param_name(k, p), "rdwr_buf_size");
	if (!buf_size)
		return 0;
	if (meta->r0_size) {
		verbose(env, "2 or more rdonly/rdwr_buf_size parameters for kfunc");
		return -EINVAL;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u is not a const\n", regno);
		return -EINVAL;
	}
	meta->r0_size = reg->b.var_off.value;
	meta->r0_rdonly = !strcmp(param_name(k, p), "rdonly_buf_size");
	if (meta->r0_size > UINT32_MAX) {
		verbose(env, "R%u rdonly/rdwr_buf_size exceeds u32 max\n", regno);
		return -EINVAL;
	}
	return mark_chain_precision(env, (int)regno);
}

/* Release kfuncs take trusted arguments too. */
static bool flags_trusted(const struct kfunc_desc *k)
{
	return k->flags & (KF_TRUSTED_ARGS | KF_RELEASE | KF_RCU);
}

/* KF_TRUSTED_ARGS: referenced or trusted pointers; KF_RCU: RCU ones too. */
static int check_trust(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (!flags_trusted(k) || reg_is_trusted(reg))
		return 0;
	if (!(k->flags & KF_RCU)) {
		verbose(env, "R%u must be referenced or trusted\n", regno);
		return -EINVAL;
	}
	if (!(reg->type & MEM_RCU)) {
		verbose(env, "R%u must be a rcu pointer\n", regno);
		return -EINVAL;
	}
	return 0;
}

/* "nf_conn___init" and "nf_conn": two names of one struct, which the
 * kernel does not let stand for each other, even though one starts with
 * the other. */
static bool nocast_alias(const char *a, const char *b)
{
	size_t na = core_essential_len(a), nb = core_essential_len(b);

	return strcmp(a, b) && na == nb && !strncmp(a, b, na);
}

static int btf_id_param(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
			const struct btf_type *ref, uint32_t ref_id, const struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	uint32_t flags = reg->type & ~BASE_TYPE_MASK, reg_id;
	const struct btf *reg_btf = reg->btf;
	const char *implied = implied_struct(reg->type), *have;
	bool unsafe = flags & ~TRUSTED_MODIFIERS, strict;
	char t1[64], t2[64];
	int id;

	if ((base_type(reg->type) != PTR_TO_BTF_ID || (unsafe && !(reg->type & MEM_RCU))) &&
	    !implied) {
		verbose(env, "arg#%u is %s ", regno - 1,
			reg_type_name(env, t1, sizeof(t1), reg->type));
		verbose(env, "expected %s or socket\n",
			reg_type_name(env, t2, sizeof(t2),
				      base_type(reg->type) | (flags & TRUSTED_MODIFIERS)));
		return -EINVAL;
	}
	if (implied) {
		id = btf_index_find(env->targ_index, k->btf, implied, BTF_KIND_STRUCT);
		if (id <= 0)
			return unsupported(env, "kfunc argument of a socket type without its BTF");
		reg_btf = k->btf;
		reg_id = (uint32_t)id;
	} else {
		reg_id = reg->btf_id;
	}
	/* The program's own structs never match a kernel one. */
	if (reg_btf != k->btf && reg_btf != env->prog_btf)
		return unsupported(env, "kfunc argument of another BTF's type");
	strict = ((k->flags & KF_RELEASE) && reg->ref_obj_id) ||
		 nocast_alias(kbtf_name(reg_btf, reg_id), pointee_name(k, ref));
	(void)meta;
	if (reg_btf == k->btf &&
	    btf_struct_ids_match(env, reg_btf, reg_id, reg->off, ref_id, strict))
		return 0;
	have = kbtf_name(reg_btf, reg_id);
	/* A kfunc taking __sk_buff or xdp_md may be given the kernel struct. */
	if ((!strcmp(pointee_name(k, ref), "__sk_buff") && !strcmp(have, "sk_buff")) ||
	    (!strcmp(pointee_name(k, ref), "xdp_md") && !strcmp(have, "xdp_buff")))
		return 0;
	verbose(env, "kernel function %s args#%u expected pointer to %s %s but R%u has a pointer to %s %s\n",
		k->name, regno - 1, kbtf_kind_str(ref), pointee_name(k, ref), regno,
		kbtf_kind_str(kbtf_skip_mods(reg_btf, reg_id, NULL)), have);
	return -EINVAL;
}

/* Memory of the pointee's size, read and written (a NULL that may be
 * NULL is checked as not NULL). */
static int mem_param(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
		     const struct btf_type *ref)
{
	struct reg_state *reg = &cur_regs(env)[regno], saved = *reg;
	struct kbtf_size sz;
	int err;

	if (!kbtf_resolve_size(k->btf, ref, &sz)) {
		verbose(env, "arg#%u reference type('%s %s') size cannot be determined: %d\n",
			regno - 1, kbtf_kind_str(ref), pointee_name(k, ref), -EINVAL);
		return -EINVAL;
	}
	if (reg_is_null_scalar(reg))
		return 0;
	reg->type &= ~PTR_MAYBE_NULL;
	err = check_helper_mem_access(env, regno, (int)sz.size, ACCESS_READ, true, false, NULL);
	if (!err)
		err = check_helper_mem_access(env, regno, (int)sz.size, ACCESS_WRITE, true, false,
					      NULL);
	*reg = saved;
	return err;
}

static int mem_size_param(struct vet_env *env, const struct kfunc_desc *k,
			  const struct btf_param *params, uint32_t regno, struct kfunc_meta *meta)
{
	struct reg_state *regs = cur_regs(env), *mem = &regs[regno], saved = *mem;
	const struct reg_state *size = &regs[regno + 1];
	int err = 0;

	if (!reg_is_null_scalar(mem) || !param_suffix(k, &params[regno - 1], "__opt")) {
		mem->type &= ~PTR_MAYBE_NULL;
		err = check_mem_size_pair(env, regno + 1, ACCESS_READ);
		if (!err)
			err = check_mem_size_pair(env, regno + 1, ACCESS_WRITE);
		*mem = saved;
		if (err) {
			verbose(env, "arg#%u arg#%u memory, len pair leads to invalid memory access\n",
				regno - 1, regno);
			return err;
		}
	}
	if (!is_size_param(k, &params[regno], size, "__szk"))
		return 0;
	err = take_constant(env, regno + 1, meta);
	if (err)
		return err;
	/* 6.18 marks the constant precise once more for the slices of a
	 * dynptr; the log shows it, the state does not change. */
	if (meta->dynptr.found && env_has(env, KVER_DYNPTR_SLICE_618))
		return mark_chain_precision(env, (int)regno + 1);
	return 0;
}

/* Walking a cgroup's tasks takes a lock that only some programs may. */
static bool css_task_iter_allowed(const struct vet_env *env)
{
	if (env->prog_type == BPF_PROG_TYPE_LSM)
		return true;
	if (env->prog_type == BPF_PROG_TYPE_TRACING &&
	    env->expected_attach_type == BPF_TRACE_ITER)
		return true;
	return env->cur->in_sleepable;
}

/* A struct bpf_dynptr parameter: `__uninit` ones create the dynptr, of
 * the kind the constructor makes or, for a clone, of its parent's kind
 * and reference; the others read an initialised one. */
static int dynptr_param(struct vet_env *env, const struct kfunc_desc *k,
			const struct btf_param *p, uint32_t regno, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	uint32_t arg_type = ARG_PTR_TO_DYNPTR, clone_ref = 0;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		arg_type |= MEM_RDONLY;
	if (param_suffix(k, p, "__uninit"))
		arg_type |= MEM_UNINIT;
	if (!strcmp(k->name, "bpf_dynptr_from_skb")) {
		arg_type |= DYNPTR_TYPE_SKB;
	} else if (!strcmp(k->name, "bpf_dynptr_from_xdp")) {
		arg_type |= DYNPTR_TYPE_XDP;
	} else if (!strcmp(k->name, "bpf_dynptr_from_skb_meta")) {
		arg_type |= DYNPTR_TYPE_SKB_META;
	} else if (!strcmp(k->name, "bpf_dynptr_clone") && (arg_type & MEM_UNINIT)) {
		if (!meta->dynptr.found) {
			verbose(env, "verifier internal error: no dynptr type for parent of clone\n");
			return -EFAULT;
		}
		arg_type |= (uint32_t)meta->dynptr.kind;
		clone_ref = meta->dynptr.ref_obj_id;
	} else if (arg_type & MEM_UNINIT) {
		return unsupported(env, "kfunc creating a dynptr of this kind");
	}
	return process_dynptr_arg(env, regno, arg_type, clone_ref, &meta->dynptr);
}

static int check_ptr_kind(struct vet_env *env, const struct kfunc_desc *k, int kind,
			  uint32_t regno, const struct btf_type *ref, uint32_t ref_id,
			  uint32_t insn_idx, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	char tb[64];
	int id, err;

	switch (kind) {
	case KARG_CTX:
		if (reg->type != PTR_TO_CTX) {
			verbose(env, "arg#%u expected pointer to ctx, but got %s\n", regno - 1,
				reg_type_name(env, tb, sizeof(tb), reg->type));
			return -EINVAL;
		}
		return 0;
	case KARG_MAP:
		id = btf_index_find(env->targ_index, k->btf, "bpf_map", BTF_KIND_STRUCT);
		if (id <= 0)
			return unsupported(env, "kfunc map argument without struct bpf_map");
		return btf_id_param(env, k, regno,
				    btf__type_by_id(k->btf, (uint32_t)id), (uint32_t)id, meta);
	case KARG_BTF_ID:
		return btf_id_param(env, k, regno, ref, ref_id, meta);
	case KARG_ALLOC_BTF_ID:
		return alloc_obj_drop_arg(env, k, regno, meta);
	case KARG_REFCOUNTED_KPTR:
		return alloc_obj_refcounted_arg(env, regno, meta);
	case KARG_MEM:
		return mem_param(env, k, regno, ref);
	case KARG_CALLBACK:
		if (reg->type != PTR_TO_FUNC) {
			verbose(env, "arg%u expected pointer to func\n", regno - 1);
			return -EINVAL;
		}
		meta->subprogno = reg->subprogno;
		if (kfunc_sets_async_cb(k->name)) {
			meta->has_callback = true;
			return 0;
		}
		return graph_kfunc_modelled(k->name) ? 0 : unsupported(env, "kfunc callback");
	case KARG_LIST_HEAD:
		return graph_root_arg(env, regno, FIELD_LIST_HEAD, meta);
	case KARG_RB_ROOT:
		return graph_root_arg(env, regno, FIELD_RB_ROOT, meta);
	case KARG_LIST_NODE:
		return graph_node_arg(env, k, regno, FIELD_LIST_NODE, meta);
	case KARG_RB_NODE:
		return graph_node_arg(env, k, regno, FIELD_RB_NODE, meta);
	case KARG_CONST_STR:
		if (reg->type != PTR_TO_MAP_VALUE) {
			verbose(env, "arg#%u doesn't point to a const string\n", regno - 1);
			return -EINVAL;
		}
		return check_const_str(env, regno);
	case KARG_IRQ_FLAG:
		return process_irq_flag(env, k->name, regno, insn_idx);
	case KARG_WORKQUEUE:
		return process_async_field_arg(env, regno, FIELD_WORKQUEUE, meta);
	case KARG_TASK_WORK:
		return process_async_field_arg(env, regno, FIELD_TASK_WORK, meta);
	case KARG_RES_LOCK:
		return process_res_lock_arg(env, k, regno);
	case KARG_DYNPTR:
		return dynptr_param(env, k, &kfunc_params(k)[regno - 1], regno, meta);
	case KARG_ITER:
		if (!strcmp(k->name, "bpf_iter_css_task_new") && !css_task_iter_allowed(env)) {
			verbose(env, "css_task_iter is only allowed in bpf_lsm, bpf_iter and sleepable progs\n");
			return -EINVAL;
		}
		err = iter_process_arg(env, k, insn_idx, &meta->it);
		/* What _next() returns lives as long as the iterator. */
		if (!err && meta->it.ref_obj_id)
			meta->ref_obj_id = meta->it.ref_obj_id;
		return err;
	default:
		return 0;
	}
}

static int ptr_param(struct vet_env *env, const struct kfunc_desc *k,
		     const struct btf_param *params, int i, uint32_t insn_idx,
		     struct kfunc_meta *meta)
{
	const struct btf_type *t = kbtf_skip_mods(k->btf, params[i].type, NULL), *ref;
	uint32_t regno = (uint32_t)i + 1, ref_id = 0, arg_type = 0;
	const struct reg_state *reg = &cur_regs(env)[regno];
	int kind, err;

	if (flags_trusted(k) && env_has(env, KVER_PTR_TRUSTED) &&
	    (reg_is_null_scalar(reg) || type_may_be_null(reg->type)) &&
	    !param_suffix(k, &params[i], "__nullable")) {
		verbose(env, "Possibly NULL pointer passed to trusted arg%d\n", i);
		return -EACCES;
	}
	if (reg->ref_obj_id) {
		if ((k->flags & KF_RELEASE) && meta->ref_obj_id) {
			verbose(env, "verifier internal error: more than one arg with ref_obj_id R%u %u %u\n",
				regno, reg->ref_obj_id, meta->ref_obj_id);
			return -EFAULT;
		}
		meta->ref_obj_id = reg->ref_obj_id;
		if (k->flags & KF_RELEASE)
			meta->release_regno = regno;
	}
	ref = kbtf_skip_mods(k->btf, t->type, &ref_id);
	kind = ptr_param_kind(env, k, params, i, ref);
	if (kind < 0)
		return kind;
	if (kind == KARG_NULL)
		return 0;
	if (kind == KARG_UNMODELLED)
		return unsupported(env, "kfunc argument of an unmodelled kind (__iter, bpf_dynptr_kern)");
	/* The kernel asks for the map before the trust: a register whose
	 * pointer field is set, which BTF pointers pass too (the field
	 * shares its place with their BTF), so that their own checks speak.
	 * A map then must be the one of the field before it (wq.c). */
	if (kind == KARG_MAP) {
		if (!reg->map_ptr) {
			verbose(env, "pointer in R%u isn't map pointer\n", regno);
			return -EINVAL;
		}
		if (reg_type_is_map(reg->type) || reg->type == CONST_PTR_TO_MAP) {
			err = check_async_map_arg(env, regno, meta);
			if (err)
				return err;
		}
	}
	if (kind == KARG_BTF_ID || kind == KARG_MAP || kind == KARG_ALLOC_BTF_ID) {
		err = check_trust(env, k, regno);
		if (err)
			return err;
	}
	if ((k->flags & KF_RELEASE) && reg->ref_obj_id)
		arg_type |= OBJ_RELEASE;
	err = check_func_arg_reg_off(env, reg, regno, arg_type);
	if (err)
		return err;
	err = check_ptr_kind(env, k, kind, regno, ref, ref_id, insn_idx, meta);
	if (err || kind != KARG_MEM_SIZE)
		return err;
	err = mem_size_param(env, k, params, regno, meta);
	return err ? err : 1;	/* the size parameter is done too */
}

int check_kfunc_args(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		     struct kfunc_meta *meta)
{
	const struct btf_param *params = kfunc_params(k);
	int err;

	if (k->nargs > 5) {
		verbose(env, "Function %s has %d > %d args\n", k->name, k->nargs, 5);
		return -EINVAL;
	}
	for (int i = 0; i < k->nargs; i++) {
		const struct btf_type *t = kbtf_skip_mods(k->btf, params[i].type, NULL);

		if (param_suffix(k, &params[i], "__ign") || param_suffix(k, &params[i], "__prog"))
			continue;
		if (t && (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t))) {
			err = scalar_param(env, k, &params[i], (uint32_t)i + 1, meta);
		} else if (t && btf_is_ptr(t)) {
			err = ptr_param(env, k, params, i, insn_idx, meta);
			if (err == 1) {
				i++;
				err = 0;
			}
		} else {
			verbose(env, "Unrecognized arg#%d type %s\n", i, kbtf_kind_str(t));
			err = -EINVAL;
		}
		if (err)
			return err;
	}
	if ((k->flags & KF_RELEASE) && !meta->release_regno) {
		verbose(env, "release kernel function %s expects refcounted PTR_TO_BTF_ID\n",
			k->name);
		return -EINVAL;
	}
	return 0;
}
