/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kptr fields of map values that point to kernel structs: a load gives
 * a BTF pointer that may be NULL (RCU-protected inside an RCU section
 * when the struct is one the kernel frees after a grace period, else
 * untrusted), an unreferenced field takes a store of a pointer of its
 * type, and bpf_kptr_xchg swaps a referenced one. The kernel finds the
 * field's struct in vmlinux by name; a struct only the program defines
 * is a local kptr, which holds an allocated object (alloc_obj.c): loaded
 * in an RCU section it is an RCU-protected object (not owned; a
 * non-owning reference when it may be in a graph), outside one an
 * untrusted pointer.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

/* The field's struct in the target BTF: its id, or -ENOENT. */
static int kptr_target_id(const struct vet_env *env, const struct map_field *f)
{
	const struct btf *obj_btf = env->prog->obj ? env->prog->obj->btf : NULL;
	const char *name;

	if (!obj_btf || !env->targ_btf || !f->kptr_type_id)
		return -ENOENT;
	name = kbtf_name(obj_btf, f->kptr_type_id);
	if (!*name)
		return -ENOENT;
	return btf_index_find(env->targ_index, env->targ_btf, name, BTF_KIND_STRUCT);
}

/* Structs the kernel frees only after an RCU grace period. */
static bool rcu_protected(const struct vet_env *env, uint32_t id)
{
	static const char *const names[] = {
		"prog_test_ref_kfunc", "cgroup", "bpf_cpumask", "task_struct", "bpf_crypto_ctx",
	};
	const char *name = kbtf_name(env->targ_btf, id);

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

/* The field's struct only the program has: a local kptr. */
static bool kptr_is_local(const struct vet_env *env, const struct map_field *f)
{
	return env->prog_btf && env->targ_btf && f->kptr_type_id &&
	       kptr_target_id(env, f) == -ENOENT;
}

/* A local kptr loaded in an RCU section: the object, which the kernel
 * frees only after a grace period. */
static uint32_t local_kptr_flags(const struct vet_env *env, const struct map_field *f)
{
	const struct map_record *rec;

	if (f->type == FIELD_KPTR_UNREF || !in_rcu_cs(env))
		return PTR_UNTRUSTED;
	if (f->type == FIELD_KPTR_PERCPU)
		return MEM_RCU | MEM_PERCPU;
	rec = struct_meta_record(env, env->prog_btf, f->kptr_type_id);
	return MEM_RCU | MEM_ALLOC | (rec && (rec->mask & FIELD_GRAPH_NODE) ? NON_OWN_REF : 0);
}

int kptr_load(struct vet_env *env, int value_regno, const struct map_field *f)
{
	struct reg_state *dst = &cur_regs(env)[value_regno];
	int id = kptr_target_id(env, f);
	uint32_t flags = PTR_MAYBE_NULL;
	bool rcu_safe;

	if (kptr_is_local(env, f)) {
		reg_mark_ptr(dst, PTR_TO_BTF_ID | PTR_MAYBE_NULL | local_kptr_flags(env, f));
		dst->btf = env->prog_btf;
		dst->btf_id = f->kptr_type_id;
		dst->id = ++env->id_gen;
		return 0;
	}
	if (id <= 0)
		return unsupported(env, "kptr load without the field's struct");
	rcu_safe = f->type == FIELD_KPTR_PERCPU ||
		   (f->type == FIELD_KPTR_REF && rcu_protected(env, (uint32_t)id));
	if (rcu_safe && in_rcu_cs(env))
		flags |= MEM_RCU | (f->type == FIELD_KPTR_PERCPU ? MEM_PERCPU : 0);
	else
		flags |= PTR_UNTRUSTED;
	reg_mark_ptr(dst, PTR_TO_BTF_ID | flags);
	dst->btf = env->targ_btf;
	dst->btf_id = (uint32_t)id;
	dst->id = ++env->id_gen;
	return 0;
}

/* The register stored into (or exchanged with) a kptr field must point
 * to the field's struct, exactly for referenced fields. */
int kptr_match_type(struct vet_env *env, uint32_t regno, const struct map_field *f)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	uint32_t perm, flags = reg->type & ~BASE_TYPE_MASK, need_id;
	bool local = kptr_is_local(env, f);
	int id = local ? (int)f->kptr_type_id : kptr_target_id(env, f);
	const void *need_btf = local ? (const void *)env->prog_btf : (const void *)env->targ_btf;
	const char *targ, *have = "";
	char tb[64];

	if (id <= 0)
		return unsupported(env, "kptr without the field's struct");
	need_id = (uint32_t)id;
	targ = kbtf_name(need_btf, need_id);
	if (base_type(reg->type) != PTR_TO_BTF_ID)
		goto bad_type;
	/* The register's kind decides what it may carry. */
	if (reg->btf == env->targ_btf)
		perm = PTR_MAYBE_NULL | PTR_TRUSTED | MEM_RCU |
		       (f->type == FIELD_KPTR_UNREF ? PTR_UNTRUSTED : 0);
	else
		perm = PTR_MAYBE_NULL | MEM_ALLOC | (f->type == FIELD_KPTR_PERCPU ? MEM_PERCPU : 0);
	if (flags & ~perm)
		goto bad_type;
	/* A per-CPU field reads back per-CPU: what goes in must be so. */
	if ((f->type == FIELD_KPTR_PERCPU) != !!(reg->type & MEM_PERCPU))
		goto bad_type;
	have = kbtf_name(reg->btf, reg->btf_id);
	if (check_ptr_off_reg(env, reg, regno, true))
		return -EACCES;
	if (reg->btf == need_btf &&
	    btf_struct_ids_match(env, reg->btf, reg->btf_id, reg->off, need_id,
				 f->type != FIELD_KPTR_UNREF))
		return 0;
bad_type:
	verbose(env, "invalid kptr access, R%u type=%s%s ", regno,
		reg_type_str(tb, sizeof(tb), reg->type), have);
	verbose(env, "expected=%s%s", reg_type_str(tb, sizeof(tb), PTR_TO_BTF_ID), targ);
	if (f->type == FIELD_KPTR_UNREF)
		verbose(env, " or %s%s\n", reg_type_str(tb, sizeof(tb), PTR_TO_BTF_ID | PTR_UNTRUSTED),
			targ);
	else
		verbose(env, "\n");
	return -EINVAL;
}

/* bpf_kptr_xchg's result: the field's old pointer, referenced (the
 * call site acquires it), or NULL; from a local kptr, an object. */
int kptr_xchg_return(struct vet_env *env, const struct map_field *f, struct reg_state *r0)
{
	int id;

	if (f && kptr_is_local(env, f)) {
		reg_mark_ptr(r0, PTR_TO_BTF_ID | PTR_MAYBE_NULL | MEM_ALLOC |
				 (f->type == FIELD_KPTR_PERCPU ? MEM_PERCPU : 0));
		r0->btf = env->prog_btf;
		r0->btf_id = f->kptr_type_id;
		return 0;
	}
	id = f ? kptr_target_id(env, f) : -ENOENT;
	if (id <= 0)
		return unsupported(env, "kptr exchange without the field's struct");
	reg_mark_ptr(r0, PTR_TO_BTF_ID | PTR_MAYBE_NULL);
	r0->btf = env->targ_btf;
	r0->btf_id = (uint32_t)id;
	return 0;
}
