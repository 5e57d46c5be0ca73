/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Open-coded iterators. An iterator is a small struct on the program's
 * stack: _new() turns its slots into STACK_ITER slots holding a reference,
 * _next() either drains it (R0 = NULL, the path leaves the loop) or
 * returns the next element on a forked path whose depth grows by one, and
 * _destroy() releases it. The loop converges because _next() is a
 * checkpoint where a state that matches an earlier one with the iterator
 * still active is pruned (prune.c), after widening imprecise scalars.
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

static struct func_state *reg_frame(const struct vet_env *env, const struct reg_state *reg)
{
	return env->cur->frame[reg->frameno];
}

static int iter_get_spi(struct vet_env *env, const struct reg_state *reg, int nr_slots)
{
	return iter_slot_spi(env, reg_frame(env, reg), reg, nr_slots, false);
}

static bool slots_hold_no_iter(struct vet_env *env, const struct reg_state *reg, int nr_slots)
{
	const struct func_state *f = reg_frame(env, reg);
	int spi = iter_get_spi(env, reg, nr_slots);

	if (spi == -ERANGE)
		return true;	/* the writes below allocate the slots */
	if (spi < 0)
		return false;
	for (int i = 0; i < nr_slots; i++)
		for (int j = 0; j < BPF_REG_SIZE; j++)
			if (stack_slot_at(f, spi - i)->slot_type[j] == STACK_ITER)
				return false;
	return true;
}

static bool slots_hold_iter(struct vet_env *env, const struct reg_state *reg,
			    const struct kfunc_desc *k, int nr_slots)
{
	const struct func_state *f = reg_frame(env, reg);
	int spi = iter_get_spi(env, reg, nr_slots);

	if (spi < 0)
		return false;
	for (int i = 0; i < nr_slots; i++) {
		const struct stack_slot *s = stack_slot_at(f, spi - i);

		/* Only the first slot carries the reference. */
		if ((i == 0) != (s->spilled_ptr.ref_obj_id != 0))
			return false;
		if (s->spilled_ptr.iter.btf != k->btf || s->spilled_ptr.iter.btf_id != k->iter_id)
			return false;
		for (int j = 0; j < BPF_REG_SIZE; j++)
			if (s->slot_type[j] != STACK_ITER)
				return false;
	}
	return true;
}

static int mark_iter_slots(struct vet_env *env, const struct reg_state *reg,
			   const struct kfunc_desc *k, int nr_slots)
{
	struct func_state *f = reg_frame(env, reg);
	int spi = iter_get_spi(env, reg, nr_slots);
	uint32_t id, rcu_flag = 0;
	int err;

	if (k->flags & KF_RCU_PROTECTED)
		rcu_flag = in_rcu_cs(env) ? MEM_RCU : PTR_UNTRUSTED;

	if (spi < 0)
		return spi;
	id = ++env->id_gen;
	err = ref_acquire(env, REF_TYPE_PTR, id, NULL);
	if (err)
		return err;
	for (int i = 0; i < nr_slots; i++) {
		struct stack_slot *s = stack_slot_at(f, spi - i);

		memset(&s->spilled_ptr, 0, sizeof(s->spilled_ptr));
		/* An RCU-protected iterator is only good inside the RCU
		 * section it was created in. */
		reg_mark_ptr(&s->spilled_ptr, PTR_TO_STACK | rcu_flag);
		s->spilled_ptr.ref_obj_id = i == 0 ? id : 0;
		s->spilled_ptr.iter.btf = k->btf;
		s->spilled_ptr.iter.btf_id = k->iter_id;
		s->spilled_ptr.iter.state = ITER_STATE_ACTIVE;
		s->spilled_ptr.iter.depth = 0;
		memset(s->slot_type, STACK_ITER, BPF_REG_SIZE);
		scratch_slot(env, spi - i);
	}
	return 0;
}

static int unmark_iter_slots(struct vet_env *env, const struct reg_state *reg, int nr_slots)
{
	struct func_state *f = reg_frame(env, reg);
	int spi = iter_get_spi(env, reg, nr_slots);

	if (spi < 0)
		return spi;
	for (int i = 0; i < nr_slots; i++) {
		struct stack_slot *s = stack_slot_at(f, spi - i);

		if (i == 0 && release_reference(env, s->spilled_ptr.ref_obj_id))
			return -EFAULT;
		reg_mark_not_init(&s->spilled_ptr);
		memset(s->slot_type, STACK_INVALID, BPF_REG_SIZE);
		scratch_slot(env, spi - i);
	}
	return 0;
}

static int new_iter(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		    int nr_slots)
{
	const struct reg_state *reg = &cur_regs(env)[BPF_REG_1];
	int err;

	if (!slots_hold_no_iter(env, reg, nr_slots)) {
		verbose(env, "expected uninitialized iter_%s as arg #0\n",
			iter_type_str(k->btf, k->iter_id));
		return -EINVAL;
	}
	for (int i = 0; i < nr_slots * BPF_REG_SIZE; i += BPF_REG_SIZE) {
		err = check_mem_access(env, insn_idx, BPF_REG_1, i, BPF_REG_SIZE, ACCESS_WRITE,
				       -1, false, false);
		if (err)
			return err;
	}
	return mark_iter_slots(env, &cur_regs(env)[BPF_REG_1], k, nr_slots);
}

static int use_iter(struct vet_env *env, const struct kfunc_desc *k, int nr_slots,
		    struct iter_arg *it)
{
	const struct reg_state *reg = &cur_regs(env)[BPF_REG_1];
	int spi, err;

	if (!slots_hold_iter(env, reg, k, nr_slots)) {
		verbose(env, "expected an initialized iter_%s as arg #0\n",
			iter_type_str(k->btf, k->iter_id));
		return -EINVAL;
	}
	spi = iter_get_spi(env, reg, nr_slots);
	if (spi < 0)
		return spi;
	if (stack_slot_at(reg_frame(env, reg), spi)->spilled_ptr.type & PTR_UNTRUSTED) {
		verbose(env, "expected an RCU CS when using %s\n", k->name);
		return -EPROTO;
	}
	for (int i = 0; i < nr_slots; i++) {
		err = stack_live_read(env, reg->frameno, 1ull << (spi - i));
		if (err)
			return err;
		scratch_slot(env, spi - i);
	}
	it->frameno = reg->frameno;
	it->spi = spi;
	it->ref_obj_id = stack_slot_at(reg_frame(env, reg), spi)->spilled_ptr.ref_obj_id;
	if (k->kind != KFUNC_ITER_DESTROY)
		return 0;
	for (int i = 0; i < nr_slots; i++)
		stack_live_write(env, reg->frameno, 1ull << (spi - i));
	return unmark_iter_slots(env, reg, nr_slots);
}

int iter_process_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		     struct iter_arg *it)
{
	const struct reg_state *reg = &cur_regs(env)[BPF_REG_1];
	int nr_slots = k->iter_slots;

	memset(it, 0, sizeof(*it));
	if (reg->type != PTR_TO_STACK) {
		verbose(env, "arg#0 expected pointer to an iterator on stack\n");
		return -EINVAL;
	}
	if (k->kind == KFUNC_ITER_NEW)
		return new_iter(env, k, insn_idx, nr_slots);
	return use_iter(env, k, nr_slots, it);
}

static struct reg_state *iter_slot(struct vstate *st, const struct iter_arg *it)
{
	return &stack_slot_at(st->frame[it->frameno], it->spi)->spilled_ptr;
}

/*
 * _next() on an active iterator forks: the queued path gets the next
 * element (R0 not NULL) one level deeper, with imprecise scalars widened
 * against the previous visit of this loop; the current path sees the
 * iterator drained and R0 = NULL.
 */
int iter_process_next(struct vet_env *env, uint32_t insn_idx, const struct iter_arg *it)
{
	struct vstate *cur = env->cur, *prev, *queued;
	struct reg_state *iter = iter_slot(cur, it);

	if (iter->iter.state != ITER_STATE_ACTIVE && iter->iter.state != ITER_STATE_DRAINED) {
		verbose(env, "verifier internal error: unexpected iterator state %d (%s)\n",
			iter->iter.state, iter_state_str(iter->iter.state));
		return -EFAULT;
	}
	if (iter->iter.state == ITER_STATE_ACTIVE) {
		/* _next() is a forced checkpoint, so the parent is the state
		 * saved right here; without pruning there are no checkpoints. */
		if (!(env->opts_off & BPFVET_NO_PRUNE) &&
		    (!cur->parent || cur->parent->insn_idx != insn_idx)) {
			verbose(env, "bug: bad parent state for iter next call");
			return -EFAULT;
		}
		prev = find_prev_entry(env, cur->parent, insn_idx);
		queued = push_stack(env, insn_idx + 1, insn_idx, false);
		if (!queued)
			return env->err ? env->err : -ENOMEM;
		iter_slot(queued, it)->iter.state = ITER_STATE_ACTIVE;
		iter_slot(queued, it)->iter.depth++;
		if (prev)
			widen_imprecise_scalars(env, prev, queued);
		queued->frame[queued->curframe]->regs[BPF_REG_0].type &= ~PTR_MAYBE_NULL;
	}
	iter = iter_slot(env->cur, it);
	iter->iter.state = ITER_STATE_DRAINED;
	reg_mark_known(&cur_regs(env)[BPF_REG_0], 0);
	return 0;
}
