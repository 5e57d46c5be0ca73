/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kfuncs bpfvet models, and what a call instruction calls. The kernel
 * knows a kfunc by its BTF id in vmlinux and reads its prototype and flags
 * from there; bpfvet knows the few it models by name, with the prototype
 * written down here, so that they verify without a target BTF. The loader
 * leaves the index of the object's extern in imm. The pre-passes (cfg,
 * liveness, stack depth) and precision tracking ask these questions before
 * or beside the walk, which checks the calls (kfunc.c).
 */
#include <string.h>

#include "analysis.h"
#include "loader/loader.h"

static const struct kfunc_desc kfuncs[] = {
	/* int bpf_iter_num_new(struct bpf_iter_num *it, int start, int end) */
	{ "bpf_iter_num_new", KFUNC_ITER_NEW, ITER_NUM, 3 },
	/* int *bpf_iter_num_next(struct bpf_iter_num *it), KF_RET_NULL */
	{ "bpf_iter_num_next", KFUNC_ITER_NEXT, ITER_NUM, 1 },
	/* void bpf_iter_num_destroy(struct bpf_iter_num *it) */
	{ "bpf_iter_num_destroy", KFUNC_ITER_DESTROY, ITER_NUM, 1 },
	/* void bpf_throw(u64 cookie): ends the program through the
	 * exception callback (exccb.c) */
	{ "bpf_throw", KFUNC_THROW, 0, 1 },
};

const struct kfunc_desc *kfunc_lookup(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct bpfvet_program *prog = env->prog;
	const char *name;

	/* off != 0 names a module's BTF: none of ours live there. */
	if (insn->src_reg != BPF_PSEUDO_KFUNC_CALL || insn->off || !prog || insn->imm < 0 ||
	    (size_t)insn->imm >= prog->extern_cnt)
		return NULL;
	name = prog->externs[insn->imm].name;
	for (size_t i = 0; name && i < sizeof(kfuncs) / sizeof(kfuncs[0]); i++)
		if (!strcmp(name, kfuncs[i].name))
			return &kfuncs[i];
	return NULL;
}

bool kfunc_is_iter_next(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct kfunc_desc *k = kfunc_lookup(env, insn);

	return k && k->kind == KFUNC_ITER_NEXT;
}

bool kfunc_is_throw(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct kfunc_desc *k = kfunc_lookup(env, insn);

	return k && k->kind == KFUNC_THROW;
}

int call_param_count(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct kfunc_desc *k = kfunc_lookup(env, insn);

	return k ? k->nargs : -1;
}
