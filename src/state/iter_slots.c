/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Iterator slots of a state: where an iterator's stack slots are, what its
 * state and type are called in the log, and the two questions pruning
 * asks about them at an iterator's _next() (prune.c). The calls that
 * create, advance and destroy iterators are checked in iter.c.
 */
#include <errno.h>
#include <string.h>

#include "state.h"

/* "num" for struct bpf_iter_num: the log names iterators without the
 * prefix. */
const char *iter_type_str(const struct btf *btf, uint32_t btf_id)
{
	const char *name;

	if (!btf)
		return btf_id == ITER_NUM ? "num" : "<invalid>";
	name = kbtf_name(btf, btf_id);
	return strncmp(name, "bpf_iter_", 9) ? "<invalid>" : name + 9;
}

const char *iter_state_str(int state)
{
	switch (state) {
	case ITER_STATE_ACTIVE:
		return "active";
	case ITER_STATE_DRAINED:
		return "drained";
	default:
		return "<invalid>";
	}
}

/* The first slot of the object at reg in frame f: a constant, 8-aligned
 * stack offset with room below for all its slots. -ERANGE: not allocated
 * yet. quiet: a bad offset is -EINVAL without a word in the log. */
int iter_slot_spi(struct vet_env *env, const struct func_state *f,
		  const struct reg_state *reg, int nr_slots, bool quiet)
{
	int off, spi;

	if (!tnum_is_const(reg->b.var_off)) {
		if (!quiet)
			verbose(env, "iter has to be at a constant offset\n");
		return -EINVAL;
	}
	off = reg->off + (int)reg->b.var_off.value;
	spi = (-off - 1) / BPF_REG_SIZE;
	if (off % BPF_REG_SIZE || spi + 1 < nr_slots) {
		if (!quiet)
			verbose(env, "cannot pass in iter at an offset=%d\n", off);
		return -EINVAL;
	}
	if (spi - nr_slots + 1 < 0 || spi >= f->allocated_stack / BPF_REG_SIZE)
		return -ERANGE;
	return spi;
}

/* At an iterator's _next(): is the iterator in R1 still active? Only then
 * does a matching earlier state close the loop. */
bool iter_arg_active(struct vet_env *env, const struct vstate *cur)
{
	const struct func_state *f = cur->frame[cur->curframe];
	const struct reg_state *r1 = &f->regs[BPF_REG_1];
	const struct func_state *owner;
	int spi;

	if (r1->type != PTR_TO_STACK || r1->frameno > cur->curframe)
		return false;
	owner = cur->frame[r1->frameno];
	spi = iter_slot_spi(env, owner, r1, 1, true);
	if (spi < 0)
		return false;
	return stack_slot_at(owner, spi)->spilled_ptr.iter.state == ITER_STATE_ACTIVE;
}

/* An infinite loop needs the same iterators at the same depths: a deeper
 * active iterator means the loop did advance. */
bool iter_depths_differ(const struct vstate *old, const struct vstate *cur)
{
	for (int fr = (int)old->curframe; fr >= 0; fr--) {
		const struct func_state *of = old->frame[fr], *cf = cur->frame[fr];

		for (int i = 0; i < of->allocated_stack / BPF_REG_SIZE; i++) {
			const struct reg_state *o = &stack_slot_at(of, i)->spilled_ptr;

			if (stack_slot_at(of, i)->slot_type[0] != STACK_ITER ||
			    o->iter.state != ITER_STATE_ACTIVE)
				continue;
			if (i >= cf->allocated_stack / BPF_REG_SIZE ||
			    stack_slot_at(cf, i)->spilled_ptr.iter.depth != o->iter.depth)
				return true;
		}
	}
	return false;
}
