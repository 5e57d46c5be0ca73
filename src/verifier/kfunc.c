/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel function (kfunc) calls: the checks of a call to one of the
 * kfuncs bpfvet models (kfunc_table.c). Calls to any other kfunc are
 * "unsupported".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "verifier.h"
#include "loader/loader.h"

/* Scalar parameters take any scalar; the kernel checks them in argument
 * order, after the iterator in R1. */
static int check_scalar_args(struct vet_env *env, const struct kfunc_desc *k)
{
	const struct reg_state *regs = cur_regs(env);

	for (int regno = BPF_REG_2; regno <= k->nargs; regno++) {
		if (regs[regno].type != SCALAR_VALUE) {
			verbose(env, "R%d is not a scalar\n", regno);
			return -EINVAL;
		}
	}
	return 0;
}

static void clobber_caller_saved(struct vet_env *env)
{
	struct reg_state *regs = cur_regs(env);

	for (int r = BPF_REG_0; r <= BPF_REG_5; r++) {
		reg_mark_not_init(&regs[r]);
		scratch_reg(env, r);
	}
	cur_frame(env)->written_regs |= 0x3f;
}

/* R0 as the prototype's return type says: an int, a read-only pointer to
 * an int that may be NULL (tied to the iterator's reference), or nothing. */
static void set_return(struct vet_env *env, const struct kfunc_desc *k, uint32_t ref_obj_id)
{
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];

	switch (k->kind) {
	case KFUNC_ITER_NEW:
		reg_mark_unknown(env, r0);
		r0->subreg_def = (int32_t)env->insn_idx + 1;
		break;
	case KFUNC_ITER_NEXT:
		reg_mark_ptr(r0, PTR_TO_MEM | MEM_RDONLY | PTR_MAYBE_NULL);
		r0->mem_size = 4;
		r0->ref_obj_id = ref_obj_id;
		r0->id = ++env->id_gen;
		break;
	case KFUNC_ITER_DESTROY:
	case KFUNC_THROW:
		break;
	}
}

/* The program types the kernel registers bpf_throw for (its generic kfunc
 * set); for the others bpfvet does not know the answer. */
static bool throw_allowed(const struct vet_env *env)
{
	switch (env->prog_type) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_STRUCT_OPS:
		return true;
	default:
		return false;
	}
}

/* bpf_throw: a scalar cookie which, without an exception callback, the
 * default one returns as the program's return value. do_check then ends
 * the path (an exceptional exit). */
static int check_throw(struct vet_env *env)
{
	const struct reg_state *r1 = &cur_regs(env)[BPF_REG_1];

	if (!throw_allowed(env))
		return unsupported(env, "kfunc call");
	if (r1->type != SCALAR_VALUE) {
		verbose(env, "R1 is not a scalar\n");
		return -EINVAL;
	}
	if (!exccb_subprog(env))
		return check_return_code(env, BPF_REG_1, "R1");
	return 0;
}

/* Names the kfunc, so that what is missing can be counted. */
static int unsupported_kfunc(struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct bpfvet_program *prog = env->prog;
	char what[160];

	if (prog && insn->imm >= 0 && (size_t)insn->imm < prog->extern_cnt &&
	    prog->externs[insn->imm].name)
		snprintf(what, sizeof(what), "kfunc call %s", prog->externs[insn->imm].name);
	else
		snprintf(what, sizeof(what), "kfunc call");
	return unsupported(env, what);
}

int check_kfunc_call(struct vet_env *env, const struct bpfvet_insn *insn, uint32_t *insn_idx)
{
	const struct kfunc_desc *k = kfunc_lookup(env, insn);
	struct iter_arg it;
	int err;

	if (insn->imm >= 0 && ksym_weak_absent(env->prog, (uint32_t)insn->imm)) {
		verbose(env, "invalid func unknown#%d\n", BPFVET_POISON_KFUNC_BASE +
			(int32_t)env->prog->externs[insn->imm].obj_idx);
		return -EINVAL;
	}
	if (!k)
		return unsupported_kfunc(env, insn);
	if (k->kind == KFUNC_THROW) {
		err = check_throw(env);
		if (!err)
			clobber_caller_saved(env);
		return err;
	}
	env->aux[*insn_idx].is_iter_next = k->kind == KFUNC_ITER_NEXT;
	err = iter_process_arg(env, k, *insn_idx, &it);
	if (!err)
		err = check_scalar_args(env, k);
	if (err)
		return err;
	clobber_caller_saved(env);
	set_return(env, k, it.ref_obj_id);
	if (k->kind == KFUNC_ITER_NEXT)
		return iter_process_next(env, *insn_idx, &it);
	return 0;
}
