/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpf_local_irq_save() and bpf_local_irq_restore(): the saved flags live
 * in an 8-byte stack slot (STACK_IRQ_FLAG) that holds an IRQ reference.
 * Regions nest; they must be restored innermost first, with the slot
 * that saved them; nothing may sleep and the program may not exit inside
 * one. bpf_res_spin_lock_irqsave() and bpf_res_spin_unlock_irqrestore()
 * use such slots too, but a flag goes back only to the family of kfuncs
 * that saved it. The messages are Linux 6.18's (tests/progs/kfuncs_618.c,
 * tests/progs/res_lock.c).
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

static struct func_state *slot_frame(const struct vet_env *env, const struct reg_state *reg)
{
	return env->cur->frame[reg->frameno];
}

/* The slot the flag pointer names: its index, -ERANGE when the stack is
 * not that deep yet, or another negative errno after a message. */
static int flag_spi(struct vet_env *env, const struct reg_state *reg)
{
	const struct func_state *f = slot_frame(env, reg);
	int off, spi;

	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "irq flag has to be at a constant offset\n");
		return -EINVAL;
	}
	off = reg->off + (int)reg->b.var_off.value;
	if (off % BPF_REG_SIZE) {
		verbose(env, "cannot pass in irq flag at an offset=%d\n", off);
		return -EINVAL;
	}
	spi = (-off - 1) / BPF_REG_SIZE;
	if (spi < 0 || spi >= f->allocated_stack / BPF_REG_SIZE)
		return -ERANGE;
	return spi;
}

static bool slot_holds_flag(const struct stack_slot *s)
{
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (s->slot_type[i] != STACK_IRQ_FLAG)
			return false;
	return true;
}

/* The IRQ reference saved before `id`, which becomes the active one. */
static uint32_t outer_irq_id(const struct vstate *st, uint32_t id)
{
	uint32_t outer = 0;

	for (uint32_t i = 0; i < st->acquired_refs && st->refs[i].id != id; i++)
		if (st->refs[i].kind == REF_TYPE_IRQ)
			outer = st->refs[i].id;
	return outer;
}

enum irq_kfunc_class { IRQ_NATIVE_KFUNC, IRQ_LOCK_KFUNC };

static const char *class_word(int kfunc_class)
{
	return kfunc_class == IRQ_NATIVE_KFUNC ? "native" : "lock";
}

static int save_flag(struct vet_env *env, uint32_t regno, uint32_t insn_idx, int kfunc_class)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	struct func_state *f;
	struct stack_slot *s;
	int spi = flag_spi(env, reg), err;
	uint32_t id;

	if (spi != -ERANGE && spi < 0)
		return spi;
	if (spi >= 0 && slot_holds_flag(stack_slot_at(slot_frame(env, reg), spi))) {
		verbose(env, "expected uninitialized irq flag as arg#%u\n", regno - 1);
		return -EINVAL;
	}
	err = check_mem_access(env, insn_idx, regno, 0, BPF_REG_SIZE, ACCESS_WRITE, -1, false,
			       false);
	if (err)
		return err;
	spi = flag_spi(env, &cur_regs(env)[regno]);
	if (spi < 0)
		return spi;
	id = ++env->id_gen;
	err = ref_acquire(env, REF_TYPE_IRQ, id, NULL);
	if (err)
		return err;
	env->cur->active_irq_id = id;
	f = slot_frame(env, reg);
	s = stack_slot_at(f, spi);
	memset(&s->spilled_ptr, 0, sizeof(s->spilled_ptr));
	reg_mark_ptr(&s->spilled_ptr, PTR_TO_STACK);
	s->spilled_ptr.ref_obj_id = id;
	s->spilled_ptr.irq.kfunc_class = kfunc_class;
	memset(s->slot_type, STACK_IRQ_FLAG, BPF_REG_SIZE);
	scratch_slot(env, spi);
	return 0;
}

static int restore_flag(struct vet_env *env, uint32_t regno, int kfunc_class)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	struct vstate *st = env->cur;
	struct func_state *f = slot_frame(env, reg);
	int spi = flag_spi(env, reg), err;
	struct stack_slot *s;
	struct ref_state *active;
	uint32_t id;

	if (spi == -ERANGE || (spi >= 0 && !slot_holds_flag(stack_slot_at(f, spi)))) {
		verbose(env, "expected an initialized irq flag as arg#%u\n", regno - 1);
		return -EINVAL;
	}
	if (spi < 0)
		return spi;
	s = stack_slot_at(f, spi);
	if (s->spilled_ptr.irq.kfunc_class != kfunc_class) {
		verbose(env, "irq flag acquired by %s kfuncs cannot be restored with %s kfuncs\n",
			class_word(s->spilled_ptr.irq.kfunc_class), class_word(kfunc_class));
		return -EINVAL;
	}
	/* Restoring reads the flag and leaves the slot dead. */
	err = stack_live_read(env, reg->frameno, 1ull << spi);
	if (err)
		return err;
	stack_live_write(env, reg->frameno, 1ull << spi);
	id = s->spilled_ptr.ref_obj_id;
	if (id != st->active_irq_id) {
		active = ref_find(st, st->active_irq_id);
		verbose(env, "cannot restore irq state out of order, expected id=%u acquired at insn_idx=%d\n",
			st->active_irq_id, active ? active->insn_idx : -1);
		return -EINVAL;
	}
	st->active_irq_id = outer_irq_id(st, id);
	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		if (st->refs[i].id == id) {
			ref_remove(st, i);
			break;
		}
	}
	reg_mark_not_init(&s->spilled_ptr);
	memset(s->slot_type, STACK_INVALID, BPF_REG_SIZE);
	scratch_slot(env, spi);
	return 0;
}

int process_irq_flag(struct vet_env *env, const char *kfunc, uint32_t regno, uint32_t insn_idx)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (reg->type != PTR_TO_STACK) {
		verbose(env, "arg#%u doesn't point to an irq flag on stack\n", regno - 1);
		return -EINVAL;
	}
	if (!strcmp(kfunc, "bpf_local_irq_save"))
		return save_flag(env, regno, insn_idx, IRQ_NATIVE_KFUNC);
	if (!strcmp(kfunc, "bpf_local_irq_restore"))
		return restore_flag(env, regno, IRQ_NATIVE_KFUNC);
	if (!strcmp(kfunc, "bpf_res_spin_lock_irqsave"))
		return save_flag(env, regno, insn_idx, IRQ_LOCK_KFUNC);
	if (!strcmp(kfunc, "bpf_res_spin_unlock_irqrestore"))
		return restore_flag(env, regno, IRQ_LOCK_KFUNC);
	return unsupported(env, "irq flag of an unknown kfunc");
}
