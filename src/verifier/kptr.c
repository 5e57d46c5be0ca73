/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kptr fields of map values that point to kernel structs: a load gives
 * a BTF pointer that may be NULL (RCU-protected inside an RCU section
 * when the struct is one the kernel frees after a grace period, else
 * untrusted), an unreferenced field takes a store of a pointer of its
 * type, and bpf_kptr_xchg swaps a referenced one. The kernel finds the
 * field's struct in vmlinux by name; a struct only the program defines
 * is an allocated object, which bpfvet does not model yet.
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

int kptr_load(struct vet_env *env, int value_regno, const struct map_field *f)
{
	struct reg_state *dst = &cur_regs(env)[value_regno];
	int id = kptr_target_id(env, f);
	uint32_t flags = PTR_MAYBE_NULL;
	bool rcu_safe;

	if (id <= 0)
		return unsupported(env, "kptr load of an allocated object");
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
	uint32_t perm = PTR_MAYBE_NULL | PTR_TRUSTED | MEM_RCU, flags;
	int id = kptr_target_id(env, f);
	const char *targ, *have = "";
	char tb[64];

	if (id <= 0)
		return unsupported(env, "kptr of an allocated object");
	targ = kbtf_name(env->targ_btf, (uint32_t)id);
	if (f->type == FIELD_KPTR_UNREF)
		perm |= PTR_UNTRUSTED;
	flags = reg->type & ~BASE_TYPE_MASK;
	if (base_type(reg->type) == PTR_TO_BTF_ID && reg->btf != env->targ_btf)
		return unsupported(env, "kptr store of an allocated object");
	if (base_type(reg->type) != PTR_TO_BTF_ID || (flags & ~perm))
		goto bad_type;
	have = kbtf_name(reg->btf, reg->btf_id);
	if (check_ptr_off_reg(env, reg, regno, true))
		return -EACCES;
	if (btf_struct_ids_match(env, reg->btf, reg->btf_id, reg->off, (uint32_t)id,
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
 * call site acquires it), or NULL. */
int kptr_xchg_return(struct vet_env *env, const struct map_field *f, struct reg_state *r0)
{
	int id = f ? kptr_target_id(env, f) : -ENOENT;

	if (id <= 0)
		return unsupported(env, "kptr exchange of an allocated object");
	reg_mark_ptr(r0, PTR_TO_BTF_ID | PTR_MAYBE_NULL);
	r0->btf = env->targ_btf;
	r0->btf_id = (uint32_t)id;
	return 0;
}
