/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dynamic pointers (struct bpf_dynptr). A dynptr lives in two stack slots
 * of type STACK_DYNPTR; the first slot's register state carries its kind
 * (a DYNPTR_TYPE_* flag), its id, which the slices taken from it keep as
 * dynptr_id, and for ring buffer dynptrs the reference that must be
 * submitted or discarded. A callback or a global function receives a
 * dynptr it may not change as a CONST_PTR_TO_DYNPTR register instead.
 *
 * Helpers and kfuncs name three uses of a dynptr argument: MEM_UNINIT
 * creates one over the slots (destroying what unreferenced dynptrs were
 * there), MEM_RDONLY reads one, and neither reads and may change it. A
 * stack write over any byte of a dynptr destroys it with its slices.
 * Dynptrs exist since 6.2 and carry ids since 6.3; before that, bpfvet
 * leaves them unsupported.
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

#define DYNPTR_SLOTS	2
#define DYNPTR_BYTES	(DYNPTR_SLOTS * BPF_REG_SIZE)
#define DYNPTR_KINDS	(DYNPTR_TYPE_LOCAL | DYNPTR_TYPE_RINGBUF | DYNPTR_TYPE_SKB | \
			 DYNPTR_TYPE_XDP | DYNPTR_TYPE_SKB_META)

static struct func_state *owner(const struct vet_env *env, const struct reg_state *reg)
{
	return env->cur->frame[reg->frameno];
}

/* Ring buffer dynptrs own a reservation; the others own nothing. */
static bool kind_refcounted(int kind)
{
	return (uint32_t)kind == DYNPTR_TYPE_RINGBUF;
}

bool dynptr_modelled(const struct vet_env *env)
{
	return env_has(env, KVER_DYNPTR_IDS);
}

/* The first (upper) slot of the dynptr at reg: a constant, 8-aligned
 * offset with room for both slots. -ERANGE: the slots are not allocated
 * yet, which only creating a dynptr may meet. */
int dynptr_spi(struct vet_env *env, const struct reg_state *reg)
{
	int off, spi;

	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "dynptr has to be at a constant offset\n");
		return -EINVAL;
	}
	off = reg->off + (int)reg->b.var_off.value;
	spi = (-off - 1) / BPF_REG_SIZE;
	if (off % BPF_REG_SIZE || spi + 1 < DYNPTR_SLOTS) {
		verbose(env, "cannot pass in dynptr at an offset=%d\n", off);
		return -EINVAL;
	}
	if (spi - DYNPTR_SLOTS + 1 < 0 || spi >= owner(env, reg)->allocated_stack / BPF_REG_SIZE)
		return -ERANGE;
	return spi;
}

static void mark_invalid(struct vet_env *env, struct reg_state *reg)
{
	if (env->allow_ptr_leaks)
		reg_mark_unknown(env, reg);
	else
		reg_mark_not_init(reg);
}

struct slice_ctx {
	struct vet_env *env;
	uint32_t dynptr_id;
};

/* Only the plain slices of bpf_dynptr_data are bound this way: the
 * kernel compares the exact type, so read-only and packet slices are
 * not. */
static void invalidate_slice(struct reg_state *reg, void *arg)
{
	const struct slice_ctx *c = arg;

	if (reg->type != PTR_TO_MEM && reg->type != (PTR_TO_MEM | PTR_MAYBE_NULL))
		return;
	if (reg->dynptr_id == c->dynptr_id)
		mark_invalid(c->env, reg);
}

/* Both slots become invalid, which counts as writing them for the
 * stack-slot liveness. */
static void clear_slots(struct vet_env *env, struct func_state *f, int spi)
{
	stack_live_write(env, f->frameno, 3ull << (spi - 1));
	for (int i = 0; i < DYNPTR_SLOTS; i++) {
		memset(stack_slot_at(f, spi - i)->slot_type, STACK_INVALID, BPF_REG_SIZE);
		reg_mark_not_init(&stack_slot_at(f, spi - i)->spilled_ptr);
	}
}

/* A write over a slot of an unreferenced dynptr destroys the whole
 * dynptr and its slices; a referenced one must be released instead. */
int destroy_dynptr_slot(struct vet_env *env, struct func_state *f, int spi)
{
	struct slice_ctx c = { env, 0 };

	if (spi < 0 || spi >= f->allocated_stack / BPF_REG_SIZE ||
	    stack_slot_at(f, spi)->slot_type[0] != STACK_DYNPTR)
		return 0;
	if (!stack_slot_at(f, spi)->spilled_ptr.dynptr.first_slot)
		spi++;
	if (kind_refcounted(stack_slot_at(f, spi)->spilled_ptr.dynptr.kind)) {
		verbose(env, "cannot overwrite referenced dynptr\n");
		return -EINVAL;
	}
	scratch_slot(env, spi);
	scratch_slot(env, spi - 1);
	c.dynptr_id = stack_slot_at(f, spi)->spilled_ptr.id;
	clear_slots(env, f, spi);
	for_each_reg(env->cur, invalidate_slice, &c);
	return 0;
}

/* Both slots hold the same dynptr, reg pointing at its first. */
static bool valid_init(struct vet_env *env, const struct reg_state *reg)
{
	const struct func_state *f = owner(env, reg);
	int spi;

	if (reg->type == CONST_PTR_TO_DYNPTR)
		return true;
	spi = dynptr_spi(env, reg);
	if (spi < 0 || !stack_slot_at(f, spi)->spilled_ptr.dynptr.first_slot)
		return false;
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (stack_slot_at(f, spi)->slot_type[i] != STACK_DYNPTR ||
		    stack_slot_at(f, spi - 1)->slot_type[i] != STACK_DYNPTR)
			return false;
	return true;
}

static int reg_kind(const struct vet_env *env, const struct reg_state *reg, int spi)
{
	if (reg->type == CONST_PTR_TO_DYNPTR)
		return reg->dynptr.kind;
	return stack_slot_at(owner(env, reg), spi)->spilled_ptr.dynptr.kind;
}

static int create(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		  uint32_t clone_ref_obj_id)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	struct func_state *f;
	uint32_t kind = arg_type & DYNPTR_KINDS, id, ref = 0;
	int spi, err;

	if (reg->type == CONST_PTR_TO_DYNPTR) {
		verbose(env, "Dynptr has to be an uninitialized dynptr\n");
		return -EINVAL;
	}
	spi = dynptr_spi(env, reg);
	if (spi < 0 && spi != -ERANGE) {
		verbose(env, "Dynptr has to be an uninitialized dynptr\n");
		return -EINVAL;
	}
	/* The writes allocate the slots and destroy what dynptrs were
	 * there, as a program's own stores would. */
	for (int i = 0; i < DYNPTR_BYTES; i += BPF_REG_SIZE) {
		err = check_mem_access(env, env->insn_idx, regno, i, BPF_REG_SIZE, ACCESS_WRITE,
				       -1, false, false);
		if (err)
			return err;
	}
	reg = &cur_regs(env)[regno];
	f = owner(env, reg);
	spi = dynptr_spi(env, reg);
	if (spi < 0)
		return spi;
	/* Both halves may belong to different dynptrs. */
	err = destroy_dynptr_slot(env, f, spi);
	if (!err)
		err = destroy_dynptr_slot(env, f, spi - 1);
	if (err)
		return err;
	if (!kind)
		return unsupported(env, "dynptr of no kind");
	id = ++env->id_gen;
	if (kind_refcounted((int)kind)) {
		ref = clone_ref_obj_id;
		if (!ref) {
			ref = ++env->id_gen;
			err = ref_acquire(env, REF_TYPE_PTR, ref, NULL);
			if (err)
				return err;
		}
	}
	for (int i = 0; i < DYNPTR_SLOTS; i++) {
		struct stack_slot *s = stack_slot_at(f, spi - i);

		memset(s->slot_type, STACK_DYNPTR, BPF_REG_SIZE);
		memset(&s->spilled_ptr, 0, sizeof(s->spilled_ptr));
		reg_mark_ptr(&s->spilled_ptr, CONST_PTR_TO_DYNPTR);
		s->spilled_ptr.id = id;
		s->spilled_ptr.ref_obj_id = ref;
		s->spilled_ptr.dynptr.kind = (int)kind;
		s->spilled_ptr.dynptr.first_slot = i == 0;
	}
	return 0;
}

static const char *kind_name(uint32_t kind)
{
	switch (kind) {
	case DYNPTR_TYPE_LOCAL: return "local";
	case DYNPTR_TYPE_RINGBUF: return "ringbuf";
	case DYNPTR_TYPE_SKB: return "skb";
	case DYNPTR_TYPE_XDP: return "xdp";
	case DYNPTR_TYPE_SKB_META: return "skb_meta";
	default: return "<invalid>";
	}
}

static int use(struct vet_env *env, uint32_t regno, uint32_t arg_type, struct dynptr_info *out)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	uint32_t want = arg_type & DYNPTR_KINDS;
	int spi = 0, err;

	if (reg->type == CONST_PTR_TO_DYNPTR && !(arg_type & MEM_RDONLY)) {
		verbose(env, "cannot pass pointer to const bpf_dynptr, the helper mutates it\n");
		return -EINVAL;
	}
	if (!valid_init(env, reg)) {
		verbose(env, "Expected an initialized dynptr as arg #%u\n", regno - 1);
		return -EINVAL;
	}
	if (reg->type == PTR_TO_STACK) {
		spi = dynptr_spi(env, reg);
		if (spi < 0)
			return spi;
	}
	if (want && (uint32_t)reg_kind(env, reg, spi) != want) {
		verbose(env, "Expected a dynptr of type %s as arg #%u\n", kind_name(want), regno - 1);
		return -EINVAL;
	}
	if (reg->type == PTR_TO_STACK) {
		const struct reg_state *s = &stack_slot_at(owner(env, reg), spi)->spilled_ptr;

		err = stack_live_read(env, reg->frameno, 3ull << (spi - 1));
		if (err)
			return err;
		scratch_slot(env, spi);
		scratch_slot(env, spi - 1);
		out->id = s->id;
		out->ref_obj_id = s->ref_obj_id;
	} else {
		out->id = reg->id;
		out->ref_obj_id = reg->ref_obj_id;
	}
	out->kind = reg_kind(env, reg, spi);
	out->found = true;
	return 0;
}

int process_dynptr_arg(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		       uint32_t clone_ref_obj_id, struct dynptr_info *out)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (!dynptr_modelled(env))
		return unsupported(env, "dynptr argument");
	if (reg->type != PTR_TO_STACK && reg->type != CONST_PTR_TO_DYNPTR) {
		verbose(env, "arg#%u expected pointer to stack or const struct bpf_dynptr\n",
			regno - 1);
		return -EINVAL;
	}
	if ((arg_type & (MEM_UNINIT | MEM_RDONLY)) == (MEM_UNINIT | MEM_RDONLY)) {
		verbose(env, "verifier internal error: misconfigured dynptr helper type flags\n");
		return -EFAULT;
	}
	if (arg_type & MEM_UNINIT)
		return create(env, regno, arg_type, clone_ref_obj_id);
	return use(env, regno, arg_type, out);
}

/* Before a helper releases the dynptr at reg: it must own a reference. */
int dynptr_check_owned(struct vet_env *env, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int spi = dynptr_spi(env, reg);

	if (spi < 0 || !stack_slot_at(owner(env, reg), spi)->spilled_ptr.ref_obj_id) {
		verbose(env, "arg %u is an unacquired reference\n", regno);
		return -EINVAL;
	}
	return 0;
}

/* Releasing a dynptr: a ring buffer one drops its reference, which kills
 * its slices and every clone sharing it; the others just go. */
int dynptr_release(struct vet_env *env, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	struct func_state *f = owner(env, reg);
	uint32_t ref;
	int spi = dynptr_spi(env, reg);

	if (spi < 0)
		return spi;
	if (!kind_refcounted(stack_slot_at(f, spi)->spilled_ptr.dynptr.kind)) {
		clear_slots(env, f, spi);
		return 0;
	}
	ref = stack_slot_at(f, spi)->spilled_ptr.ref_obj_id;
	if (release_reference(env, ref))
		return -EFAULT;
	for (int i = 1; i < f->allocated_stack / BPF_REG_SIZE; i++) {
		struct stack_slot *s = stack_slot_at(f, i);

		if (s->spilled_ptr.ref_obj_id != ref)
			continue;
		if (s->slot_type[0] != STACK_DYNPTR) {
			verbose(env, "verifier internal error: misconfigured ref_obj_id\n");
			return -EFAULT;
		}
		if (s->spilled_ptr.dynptr.first_slot)
			clear_slots(env, f, i);
	}
	return 0;
}
