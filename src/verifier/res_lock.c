/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Resilient spin locks (Linux 6.15 and later): bpf_res_spin_lock and
 * bpf_res_spin_lock_irqsave take a struct bpf_res_spin_lock field of a
 * map value, and may fail (deadlock or timeout) with an error in
 * [-4095, -1]. The call therefore forks: one path has R0 = 0 and holds
 * the lock (and, for _irqsave, an irq flag of the lock family), the
 * other has the error and holds nothing. Unlike bpf_spin_lock, several
 * locks may be held, released innermost first, each once ("AA deadlock"
 * otherwise). The messages are Linux 6.18.44's (tests/progs/res_lock.c).
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

bool kfunc_is_res_lock(const char *name)
{
	return !strcmp(name, "bpf_res_spin_lock") || !strcmp(name, "bpf_res_spin_lock_irqsave");
}

static bool is_res_unlock(const char *name)
{
	return !strcmp(name, "bpf_res_spin_unlock") ||
	       !strcmp(name, "bpf_res_spin_unlock_irqrestore");
}

static bool saves_irq(const char *name)
{
	return !strcmp(name, "bpf_res_spin_lock_irqsave") ||
	       !strcmp(name, "bpf_res_spin_unlock_irqrestore");
}

int process_res_lock_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int kind = saves_irq(k->name) ? REF_TYPE_RES_LOCK_IRQ : REF_TYPE_RES_LOCK;
	int err;

	if (reg->type != PTR_TO_MAP_VALUE && reg->type != (PTR_TO_BTF_ID | MEM_ALLOC)) {
		verbose(env, "arg#%u doesn't point to map value or allocated object\n", regno - 1);
		return -EINVAL;
	}
	if (!kfunc_is_res_lock(k->name) && !is_res_unlock(k->name)) {
		verbose(env, "verifier internal error: %s takes no resilient lock\n", k->name);
		return -EFAULT;
	}
	err = check_map_field_arg(env, regno, FIELD_RES_SPIN_LOCK, "bpf_res_spin_lock");
	if (err)
		return err;
	if (kfunc_is_res_lock(k->name))
		return lock_take(env, reg, kind);
	return lock_drop(env, reg, kind, "bpf_res_spin");
}

/* The path where taking the lock failed, before the arguments took it:
 * the caller-saved registers are gone and R0 is a negative errno in its
 * low 32 bits (the kernel narrows only those). */
int push_res_lock_failure(struct vet_env *env, uint32_t insn_idx)
{
	struct vstate *branch = push_stack(env, insn_idx + 1, insn_idx, false);
	struct reg_state *regs, *r0;

	if (!branch)
		return env->err ? env->err : -ENOMEM;
	regs = branch->frame[branch->curframe]->regs;
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
		reg_mark_not_init(&regs[r]);
	r0 = &regs[BPF_REG_0];
	reg_mark_unknown(env, r0);
	r0->b.s32_min = -4095;
	r0->b.s32_max = -1;
	bounds_sync(&r0->b);
	r0->subreg_def = (int32_t)insn_idx + 1;
	return 0;
}
