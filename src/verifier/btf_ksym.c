/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Typed ksyms: `extern const struct rq runqueues __ksym;` loaded with
 * LD_IMM64 (BPF_PSEUDO_BTF_ID). The kernel types the register from the
 * variable of the same name in its BTF: a per-CPU variable gives a per-CPU
 * BTF pointer, a struct a BTF pointer, anything else read-only memory of
 * the variable's size; a function, read-only memory of size 0. A weak ksym
 * the kernel lacks is left by libbpf as the constant 0.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "loader/loader.h"
#include "verifier.h"

#define PERCPU_SEC ".data..percpu"

/* Is VAR `id` in the kernel's per-CPU data section? */
static bool var_is_percpu(const struct vet_env *env, const struct btf *btf, uint32_t id)
{
	int sec = btf_index_find(env->targ_index, btf, PERCPU_SEC, BTF_KIND_DATASEC);
	const struct btf_type *t = sec > 0 ? btf__type_by_id(btf, (uint32_t)sec) : NULL;
	const struct btf_var_secinfo *v;

	if (!t)
		return false;
	v = btf_var_secinfos(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (v[i].type == id)
			return true;
	return false;
}

/* A kernel variable: the register type its type gives. */
static int mark_var(struct vet_env *env, uint32_t var_id, struct reg_state *dst)
{
	const struct btf *btf = env->targ_btf;
	uint32_t type = btf__type_by_id(btf, var_id)->type;
	const struct btf_type *t = kbtf_skip_mods(btf, type, NULL);
	struct kbtf_size rs = { 0 };

	if (var_is_percpu(env, btf, var_id) || (t && kbtf_is_struct(t))) {
		reg_mark_ptr(dst, PTR_TO_BTF_ID |
				  (var_is_percpu(env, btf, var_id) ? MEM_PERCPU : 0));
		dst->btf = btf;
		dst->btf_id = type;
		return 0;
	}
	if (!t || !kbtf_resolve_size(btf, t, &rs)) {
		verbose(env, "ldimm64 unable to resolve the size of type '%s': %d\n",
			t ? kbtf_name(btf, type) : "", -EINVAL);
		return -EINVAL;
	}
	reg_mark_ptr(dst, PTR_TO_MEM | MEM_RDONLY);
	dst->mem_size = rs.size;
	return 0;
}

static int find_kernel_sym(const struct vet_env *env, const struct bpfvet_extern *e)
{
	return extern_kernel_id(env->prog, env->targ_btf, e);
}

/*
 * The kernel resolves typed ksyms before verifying: a variable needs its
 * address from kallsyms, which has no data symbols on a kernel built
 * without CONFIG_KALLSYMS_ALL.
 */
/* Before 6.4 a kernel function's BTF id is no LD_IMM64 operand. */
static int check_ldimm64_func(struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct bpfvet_extern *e;
	int id;

	if (!env->targ_btf || env_has(env, KVER_LDIMM64_FUNC) || insn->imm < 0 ||
	    (size_t)insn->imm >= env->prog->extern_cnt)
		return 0;
	e = &env->prog->externs[insn->imm];
	if (e->kind != BPFVET_EXTERN_KFUNC || (id = find_kernel_sym(env, e)) <= 0)
		return 0;
	verbose(env, "pseudo btf_id %d in ldimm64 isn't KIND_VAR.\n", id);
	return -EINVAL;
}

int ksym_check_ldimm64(struct vet_env *env, uint32_t idx)
{
	const struct bpfvet_insn *insn = &env->insns[idx];
	const struct bpfvet_program *prog = env->prog;
	const struct bpfvet_extern *e;
	int id;

	id = check_ldimm64_func(env, insn);
	if (id)
		return id;
	if (!env->targ_btf || !prog->obj || prog->obj->targ_data_syms >= 0 ||
	    insn->imm < 0 || (size_t)insn->imm >= prog->extern_cnt)
		return 0;
	e = &prog->externs[insn->imm];
	if (e->kind != BPFVET_EXTERN_KSYM)
		return 0;
	id = find_kernel_sym(env, e);
	if (id <= 0)
		return 0;
	verbose(env, "ldimm64 failed to find the address for kernel symbol '%s'.\n",
		kbtf_name(env->targ_btf, (uint32_t)id));
	return -ENOENT;
}

int ld_imm_ksym(struct vet_env *env, const struct bpfvet_insn *insn, struct reg_state *dst)
{
	const struct bpfvet_extern *e;
	int id;

	if (insn->imm < 0 || (size_t)insn->imm >= env->prog->extern_cnt)
		return unsupported(env, "ksym (PSEUDO_BTF_ID) load of an unknown extern");
	e = &env->prog->externs[insn->imm];
	if (!env->targ_btf)
		return unsupported(env, "ksym (PSEUDO_BTF_ID) load without target BTF");
	id = find_kernel_sym(env, e);
	if (id > 0 && e->kind == BPFVET_EXTERN_KFUNC) {
		reg_mark_ptr(dst, PTR_TO_MEM | MEM_RDONLY);
		dst->mem_size = 0;
		return 0;
	}
	if (id > 0)
		return mark_var(env, (uint32_t)id, dst);
	/* libbpf: a weak ksym the kernel lacks reads as 0; a strong one
	 * fails the load. */
	if (!e->weak)
		return unsupported(env, "ksym missing from the target BTF");
	reg_mark_known(dst, 0);
	return 0;
}
