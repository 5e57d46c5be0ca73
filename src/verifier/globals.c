/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Global functions: their arguments come from the BTF prototype (a scalar,
 * the program's context, sized memory that may be NULL, ...). Callers are
 * checked against it, and the function itself is verified once, on its
 * own, with registers built from it.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "rules/rules.h"
#include "verifier.h"

enum garg_kind { GARG_ANYTHING, GARG_CTX, GARG_MEM, GARG_ARENA, GARG_TRUSTED, GARG_DYNPTR };

struct garg {
	enum garg_kind kind;
	bool nullable;
	uint32_t mem_size;
	uint32_t btf_id;	/* GARG_TRUSTED: the kernel struct, target BTF */
};

#define ARG_TAG_CTX	 1u
#define ARG_TAG_TRUSTED	 2u
#define ARG_TAG_NONNULL	 4u
#define ARG_TAG_NULLABLE 8u
#define ARG_TAG_ARENA	 16u

static const struct btf *prog_btf(const struct vet_env *env)
{
	return env->prog->obj ? env->prog->obj->btf : NULL;
}

static const struct btf_type *skip_mods(const struct btf *btf, uint32_t id, uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	while (t && (btf_is_mod(t) || btf_is_typedef(t))) {
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	if (res_id)
		*res_id = id;
	return t;
}

/* "arg:..." decl tags on parameter `arg` of function `func_id`. */
static int arg_tags(struct vet_env *env, const struct btf *btf, uint32_t func_id,
		    int arg, bool is_global, uint32_t *tags)
{
	uint32_t n = btf__type_cnt(btf);

	*tags = 0;
	if (!env_has(env, KVER_ARG_TAGS))
		return 0;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_decl_tag(t) || t->type != func_id ||
		    btf_decl_tag(t)->component_idx != arg)
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || strncmp(name, "arg:", 4))
			continue;
		if (!is_global) {
			verbose(env, "arg#%d type tag is not supported in static functions\n", arg);
			return -EOPNOTSUPP;
		}
		name += 4;
		if (!strcmp(name, "ctx"))
			*tags |= ARG_TAG_CTX;
		else if (!strcmp(name, "trusted"))
			*tags |= ARG_TAG_TRUSTED;
		else if (!strcmp(name, "nonnull"))
			*tags |= ARG_TAG_NONNULL;
		else if (!strcmp(name, "nullable"))
			*tags |= ARG_TAG_NULLABLE;
		else if (!strcmp(name, "arena"))
			*tags |= ARG_TAG_ARENA;
		else {
			verbose(env, "arg#%d has unsupported set of tags\n", arg);
			return -EOPNOTSUPP;
		}
	}
	return 0;
}

/* The struct a program type's context argument points to. */
const char *prog_ctx_struct_name(uint32_t prog_type)
{
	if (ctx_is_sk_buff(prog_type))
		return "__sk_buff";
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP: return "xdp_md";
	case BPF_PROG_TYPE_KPROBE: return "bpf_user_pt_regs_t";
	case BPF_PROG_TYPE_PERF_EVENT: return "bpf_perf_event_data";
	case BPF_PROG_TYPE_CGROUP_SOCK: return "bpf_sock";
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR: return "bpf_sock_addr";
	case BPF_PROG_TYPE_SOCK_OPS: return "bpf_sock_ops";
	case BPF_PROG_TYPE_SK_MSG: return "sk_msg_md";
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE: return "bpf_raw_tracepoint_args";
	case BPF_PROG_TYPE_CGROUP_DEVICE: return "bpf_cgroup_dev_ctx";
	case BPF_PROG_TYPE_CGROUP_SYSCTL: return "bpf_sysctl";
	case BPF_PROG_TYPE_CGROUP_SOCKOPT: return "bpf_sockopt";
	case BPF_PROG_TYPE_SK_REUSEPORT: return "sk_reuseport_md";
	case BPF_PROG_TYPE_SK_LOOKUP: return "bpf_sk_lookup";
	case BPF_PROG_TYPE_NETFILTER: return "bpf_nf_ctx";
	default: return NULL;
	}
}

/* Is this pointee the program type's context struct? */
static bool is_ctx_type(const struct vet_env *env, const struct btf *btf,
			const struct btf_type *pointee)
{
	const char *name = pointee ? btf__name_by_offset(btf, pointee->name_off) : NULL;
	const char *want = prog_ctx_struct_name(env->prog_type);

	/* Only a complete struct can be the context: a forward declaration
	 * (struct pt_regs never defined) is plain memory of unknown size. */
	if (!name || !want || !(btf_is_struct(pointee) || btf_is_union(pointee)))
		return false;
	if (!strcmp(name, want))
		return true;
	/* A typedef'd struct pt_regs for kprobes is also accepted. */
	return env->prog_type == BPF_PROG_TYPE_KPROBE && !strcmp(name, "pt_regs");
}

/* __arg_trusted: a trusted pointer to the kernel struct of the same
 * (essential) name, which only the target BTF knows. */
static int trusted_arg(struct vet_env *env, const struct btf *btf, const struct btf_type *ptr,
		       int i, uint32_t tags, struct garg *out)
{
	const struct btf_type *pointee = btf__type_by_id(btf, ptr->type);
	const char *name;
	int id;

	if (tags & ARG_TAG_NONNULL) {
		verbose(env, "arg#%d has invalid combination of tags\n", i);
		return -EINVAL;
	}
	while (pointee && kbtf_is_modifier(pointee))
		pointee = btf__type_by_id(btf, pointee->type);
	if (!env->targ_btf)
		return unsupported(env, "trusted BTF argument of a global function without target BTF");
	name = pointee ? btf__name_by_offset(btf, pointee->name_off) : NULL;
	id = name && name[0] ? kbtf_find_essential(env->targ_btf, env->targ_index, name,
							btf_kind(pointee)) :
	     -ENOENT;
	if (id < 0) {
		verbose(env, "arg#%d reference type('%s %s') has no matches\n", i,
			kbtf_kind_str(pointee), name ? name : "");
		return -ENOENT;
	}
	out->kind = GARG_TRUSTED;
	out->nullable = tags & ARG_TAG_NULLABLE;
	out->btf_id = (uint32_t)id;
	return 0;
}

/* struct bpf_dynptr, or its forward declaration. */
static bool is_dynptr_type(const struct vet_env *env, const struct btf *btf,
			   const struct btf_type *t)
{
	const char *name;

	if (!env_has(env, KVER_GLOBAL_DYNPTR_ARGS) || !t)
		return false;
	if (!btf_is_struct(t) && !(btf_is_fwd(t) && !btf_kflag(t)))
		return false;
	name = btf__name_by_offset(btf, t->name_off);
	return name && !strcmp(name, "bpf_dynptr");
}

static int classify_arg(struct vet_env *env, const struct btf *btf, uint32_t func_id,
			const struct btf_param *p, int i, bool is_global, struct garg *out)
{
	const struct btf_type *t, *pointee;
	uint32_t tags, pid;
	int64_t size;
	int err;

	err = arg_tags(env, btf, func_id, i, is_global, &tags);
	if (err)
		return err;
	t = skip_mods(btf, p->type, NULL);
	if (!t)
		return -EINVAL;
	if (!btf_is_ptr(t)) {
		if (tags) {
			verbose(env, "arg#%d has pointer tag, but is not a pointer type\n", i);
			return -EINVAL;
		}
		if (btf_is_int(t) || btf_is_any_enum(t)) {
			out->kind = GARG_ANYTHING;
			return 0;
		}
		return -EINVAL;
	}
	pointee = skip_mods(btf, t->type, &pid);
	if ((tags & ARG_TAG_CTX) || is_ctx_type(env, btf, pointee)) {
		if (tags & ~ARG_TAG_CTX) {
			verbose(env, "arg#%d has invalid combination of tags\n", i);
			return -EINVAL;
		}
		out->kind = GARG_CTX;
		return 0;
	}
	if (is_dynptr_type(env, btf, pointee)) {
		if (tags) {
			verbose(env, "arg#%d has invalid combination of tags\n", i);
			return -EINVAL;
		}
		out->kind = GARG_DYNPTR;
		return 0;
	}
	if (tags & ARG_TAG_TRUSTED)
		return trusted_arg(env, btf, t, i, tags, out);
	if (tags & ARG_TAG_ARENA) {
		out->kind = GARG_ARENA;
		return 0;
	}
	/* Static functions' other pointers are not described: the kernel
	 * gives up on the prototype, silently, and checks nothing. */
	if (!is_global)
		return -EINVAL;
	size = btf__resolve_size(btf, pid);
	if (size < 0) {
		verbose(env, "arg#%d reference type('%s %s') size cannot be determined: %lld\n",
			i, kbtf_kind_str(pointee), btf__name_by_offset(btf, pointee->name_off),
			(long long)size);
		return -EINVAL;
	}
	out->kind = GARG_MEM;
	out->mem_size = (uint32_t)size;
	out->nullable = !(tags & ARG_TAG_NONNULL);
	return 0;
}

static bool returns_scalar(const struct btf *btf, uint32_t func_id);

/* Argument kinds of subprogram `sub` from its BTF prototype; `is_global`
 * says whether problems are worth a message (only global functions need a
 * usable prototype). */
static int prepare_args_as(struct vet_env *env, uint32_t sub, bool is_global,
			   struct garg *args, int *cnt)
{
	const struct btf *btf = prog_btf(env);
	uint32_t func_id = env->subprogs[sub].btf_func_id;
	const struct btf_type *fn, *proto;
	const struct btf_param *params;
	int n, err;

	if (!btf || !func_id)
		return -EINVAL;
	fn = btf__type_by_id(btf, func_id);
	proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	if (!proto || !btf_is_func_proto(proto))
		return -EFAULT;
	n = btf_vlen(proto);
	if (n > 5) {
		if (is_global)
			verbose(env, "Function %s has %d > 5 args\n", env->subprogs[sub].name, n);
		return -EINVAL;
	}
	if (!returns_scalar(btf, func_id)) {
		if (is_global)
			verbose(env, "Global function %s() doesn't return scalar. Only those are supported.\n",
				btf__name_by_offset(btf, fn->name_off));
		return -EINVAL;
	}
	params = btf_params(proto);
	for (int i = 0; i < n; i++) {
		err = classify_arg(env, btf, func_id, &params[i], i, is_global, &args[i]);
		if (err)
			return err;
	}
	*cnt = n;
	return 0;
}

static int prepare_args(struct vet_env *env, uint32_t sub, struct garg *args, int *cnt)
{
	return prepare_args_as(env, sub, env->subprogs[sub].is_global, args, cnt);
}

/*
 * The main program's BTF prototype is checked like a global function's
 * when the object has func_info (it is one): whatever it says about the
 * prototype goes to the log, and a prototype other than (ctx) makes its
 * BTF unreliable for calls. The verdict does not depend on it.
 */
static bool main_is_global(const struct vet_env *env)
{
	const struct bpfvet_program *p = env->prog;

	for (size_t j = 0; j < p->subprog_cnt; j++)
		if (p->subprogs[j].start == env->subprogs[0].start)
			return p->subprogs[j].global;
	return false;
}

void check_main_prototype(struct vet_env *env)
{
	struct garg args[5];
	int cnt = 0, err;

	if (!prog_btf(env) || !env->prog->func_info_cnt || !env->subprogs[0].btf_func_id ||
	    env->prog_type == BPF_PROG_TYPE_EXT)
		return;
	err = prepare_args_as(env, 0, main_is_global(env), args, &cnt);
	if (err || cnt != 1 || args[0].kind != GARG_CTX)
		env->subprogs[0].unreliable = true;
}

static int check_mem_arg(struct vet_env *env, struct reg_state *reg, uint32_t regno,
			 uint32_t size)
{
	struct reg_state saved = *reg;
	int err;

	if (reg->type == SCALAR_VALUE && tnum_equals_const(reg->b.var_off, 0))
		return 0;
	if (type_may_be_null(reg->type))
		reg->type &= ~PTR_MAYBE_NULL;
	err = check_helper_mem_access(env, regno, (int)size, ACCESS_READ, true, false, NULL);
	if (!err)
		err = check_helper_mem_access(env, regno, (int)size, ACCESS_WRITE, true, false,
					      NULL);
	*reg = saved;
	return err;
}

static int match_trusted_arg(struct vet_env *env, const struct garg *a, uint32_t regno,
			     const struct reg_state *reg)
{
	uint32_t arg_type = ARG_PTR_TO_BTF_ID | PTR_TRUSTED | (a->nullable ? PTR_MAYBE_NULL : 0);
	struct call_meta meta = { .arg_btf_id = a->btf_id };
	int err;

	if (a->nullable && reg->type == SCALAR_VALUE && tnum_equals_const(reg->b.var_off, 0))
		return 0;
	err = check_reg_type(env, regno, arg_type, &meta);
	return err ? err : check_func_arg_reg_off(env, reg, regno, arg_type);
}

static int match_arg(struct vet_env *env, const struct garg *a, int i, struct reg_state *regs)
{
	uint32_t regno = (uint32_t)i + 1;
	struct reg_state *reg = &regs[regno];
	int err;

	switch (a->kind) {
	case GARG_ANYTHING:
		if (reg->type != SCALAR_VALUE) {
			verbose(env, "R%u is not a scalar\n", regno);
			return -EINVAL;
		}
		return 0;
	case GARG_CTX:
		err = check_func_arg_reg_off(env, reg, regno, ARG_DONTCARE);
		if (err)
			return err;
		if (reg->type != PTR_TO_CTX) {
			verbose(env, "arg#%d expects pointer to ctx\n", i);
			return -EINVAL;
		}
		return 0;
	case GARG_MEM:
		err = check_func_arg_reg_off(env, reg, regno, ARG_DONTCARE);
		if (err)
			return err;
		if (check_mem_arg(env, reg, regno, a->mem_size))
			return -EINVAL;
		if (!a->nullable && type_may_be_null(reg->type)) {
			verbose(env, "arg#%d is expected to be non-NULL\n", i);
			return -EINVAL;
		}
		return 0;
	case GARG_ARENA:
		if (reg->type != PTR_TO_ARENA && reg->type != SCALAR_VALUE) {
			verbose(env, "R%u is not a pointer to arena or scalar.\n", regno);
			return -EINVAL;
		}
		return 0;
	case GARG_TRUSTED:
		return match_trusted_arg(env, a, regno, reg);
	case GARG_DYNPTR: {
		struct dynptr_info info = { 0 };

		err = check_func_arg_reg_off(env, reg, regno, ARG_PTR_TO_DYNPTR);
		if (err)
			return err;
		return process_dynptr_arg(env, regno, ARG_PTR_TO_DYNPTR | MEM_RDONLY, 0, &info);
	}
	default:
		return -EFAULT;
	}
}

int check_subprog_call_args(struct vet_env *env, uint32_t sub, struct reg_state *regs)
{
	struct garg args[5];
	int cnt = 0, err;

	if (!env->prog->func_info_cnt)
		return -EINVAL;
	if (env->subprogs[sub].unreliable)
		return -EINVAL;
	err = prepare_args(env, sub, args, &cnt);
	for (int i = 0; !err && i < cnt; i++)
		err = match_arg(env, &args[i], i, regs);
	if (err)
		env->subprogs[sub].unreliable = true;
	return err;
}

/* Registers of a global function verified on its own. */
int init_global_entry(struct vet_env *env, uint32_t sub, struct func_state *f)
{
	struct garg args[5];
	int cnt = 0, err;

	err = prepare_args(env, sub, args, &cnt);
	if (err)
		return err;
	if (env->subprogs[sub].is_exception_cb) {
		f->in_exception_callback_fn = true;
		if (cnt != 1 || args[0].kind != GARG_ANYTHING) {
			verbose(env, "exception cb only supports single integer argument\n");
			return -EINVAL;
		}
	}
	for (int i = 0; i < cnt; i++) {
		struct reg_state *reg = &f->regs[i + 1];

		switch (args[i].kind) {
		case GARG_CTX:
			reg_mark_ptr(reg, PTR_TO_CTX);
			break;
		case GARG_ANYTHING:
			reg_mark_unknown(env, reg);
			break;
		case GARG_MEM:
			reg_mark_ptr(reg, PTR_TO_MEM | (args[i].nullable ? PTR_MAYBE_NULL : 0));
			reg->mem_size = args[i].mem_size;
			reg->id = ++env->id_gen;
			break;
		case GARG_ARENA:
			/* The caller may pass an arena pointer or a number: the
			 * function sees a number, which it casts to use. */
			reg_mark_unknown(env, reg);
			break;
		case GARG_DYNPTR:
			/* Whatever the caller passed, the function sees a
			 * dynptr it may not change: a local one, but in 6.18
			 * one of the skb kind (its log says "type=skb"), whose
			 * slices die with the packet pointers. */
			reg_mark_ptr(reg, CONST_PTR_TO_DYNPTR);
			reg->dynptr.kind = env_has(env, KVER_DYNPTR_SLICE_618) ?
					   DYNPTR_TYPE_SKB : DYNPTR_TYPE_LOCAL;
			reg->dynptr.first_slot = true;
			reg->id = ++env->id_gen;
			break;
		case GARG_TRUSTED:
			reg_mark_ptr(reg, PTR_TO_BTF_ID | PTR_TRUSTED |
					  (args[i].nullable ? PTR_MAYBE_NULL : 0));
			reg->btf = env->targ_btf;
			reg->btf_id = args[i].btf_id;
			reg->id = ++env->id_gen;
			break;
		default:
			return -EFAULT;
		}
	}
	return 0;
}

static bool returns_scalar(const struct btf *btf, uint32_t func_id)
{
	const struct btf_type *fn = btf__type_by_id(btf, func_id);
	const struct btf_type *proto = fn ? btf__type_by_id(btf, fn->type) : NULL;
	const struct btf_type *ret;

	if (!proto || !proto->type)
		return false;
	ret = skip_mods(btf, proto->type, NULL);
	return ret && ((btf_is_int(ret) && ret->size <= 8) || btf_is_any_enum(ret));
}

/* BTF rules on subprograms checked before the walk (check_btf_func). */
int check_btf_subprogs(struct vet_env *env)
{
	const struct btf *btf = prog_btf(env);

	if (!btf || !env->prog->func_info_cnt)
		return 0;
	for (uint32_t i = 1; i < env->subprog_cnt; i++) {
		struct subprog_info *sp = &env->subprogs[i];
		bool scalar = sp->btf_func_id && returns_scalar(btf, sp->btf_func_id);

		if (!scalar && sp->has_ld_abs) {
			verbose(env, "LD_ABS is only allowed in functions that return 'int'.\n");
			return -EINVAL;
		}
		if (!scalar && sp->has_tail_call) {
			verbose(env, "tail_call is only allowed in functions that return 'int'.\n");
			return -EINVAL;
		}
	}
	return 0;
}
