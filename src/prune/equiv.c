/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * State equivalence as subsumption: is every concrete execution described
 * by the current state also described by the stored (old) one, on
 * everything a continuation can still read? Three modes: NOT_EXACT (full
 * relaxation, for finished checkpoints), RANGE_WITHIN (no reliance on
 * precision or liveness marks, for loop convergence) and EXACT (infinite
 * loop detection). Identities (pointer, reference and linked-scalar ids)
 * must correspond under one consistent bijection per comparison.
 */
#include <string.h>

#include "prune.h"

static bool check_ids(uint32_t old_id, uint32_t cur_id, struct idmap *m)
{
	if (!old_id || !cur_id)
		return old_id == cur_id;
	for (uint32_t i = 0; i < m->cnt; i++) {
		if (m->map[i].old == old_id)
			return m->map[i].cur == cur_id;
		if (m->map[i].cur == cur_id)
			return false;
	}
	if (m->cnt >= ID_MAP_SIZE)
		return false;
	m->map[m->cnt].old = old_id;
	m->map[m->cnt].cur = cur_id;
	m->cnt++;
	return true;
}

/* Scalar ids: 0 means "independent", which must not match a shared id. */
/*
 * An old scalar without id is independent: whatever links the current one
 * has only add constraints. An old id must map one-to-one (a current
 * scalar without id gets a fresh one, so that two old registers sharing an
 * id cannot both match independent ones); for a "+const" link the base ids
 * must map consistently too.
 */
static bool check_scalar_ids(uint32_t old_id, uint32_t cur_id, struct idmap *m)
{
	if (!old_id)
		return true;
	cur_id = cur_id ? cur_id : ++m->tmp_id_gen;
	if (!check_ids(old_id, cur_id, m))
		return false;
	if (old_id & BPF_ADD_CONST)
		return check_ids(old_id & ~BPF_ADD_CONST, cur_id & ~BPF_ADD_CONST, m);
	return true;
}

static bool range_within(const struct bounds *o, const struct bounds *c)
{
	return o->umin <= c->umin && o->umax >= c->umax && o->smin <= c->smin &&
	       o->smax >= c->smax && o->u32_min <= c->u32_min && o->u32_max >= c->u32_max &&
	       o->s32_min <= c->s32_min && o->s32_max >= c->s32_max;
}

/* The object part: type, fixed offset, and what the pointer points to. */
static bool same_object(const struct reg_state *o, const struct reg_state *c)
{
	return o->type == c->type && o->off == c->off && o->raw[0] == c->raw[0] &&
	       o->raw[1] == c->raw[1];
}

static bool same_value(const struct reg_state *o, const struct reg_state *c)
{
	return same_object(o, c) && bounds_equal(&o->b, &c->b);
}

static bool regs_exact(const struct reg_state *o, const struct reg_state *c,
		       struct idmap *m)
{
	return same_value(o, c) && check_ids(o->id, c->id, m) &&
	       check_ids(o->ref_obj_id, c->ref_obj_id, m);
}

static bool scalar_safe(const struct vet_env *env, const struct reg_state *o,
			const struct reg_state *c, struct idmap *m, enum exact_level exact)
{
	bool precise = o->precise || (env->opts_off & BPFVET_NO_PRECISION);

	if (env->fault == FAULT_REGSAFE_SCALAR && exact == NOT_EXACT)
		return true;

	/* Masking may differ for any other value: only the same one prunes. */
	if (env->explore_alu_limits)
		return same_value(o, c) && check_scalar_ids(o->id, c->id, m);
	if (!precise && exact == NOT_EXACT)
		return true;
	/* A linked old scalar needs the same kind of link now; an old one
	 * without id accepts any. */
	if ((o->id & BPF_ADD_CONST) && (o->id & BPF_ADD_CONST) != (c->id & BPF_ADD_CONST))
		return false;
	if (o->id && !(o->id & BPF_ADD_CONST) && (c->id & BPF_ADD_CONST))
		return false;
	if ((o->id & BPF_ADD_CONST) && o->off != c->off)
		return false;
	return check_scalar_ids(o->id, c->id, m) && range_within(&o->b, &c->b) &&
	       tnum_in(o->b.var_off, c->b.var_off);
}

bool regsafe(const struct vet_env *env, const struct reg_state *o,
	     const struct reg_state *c, struct idmap *m, enum exact_level exact)
{
	if (exact == EXACT)
		return regs_exact(o, c, m);
	/* Before 6.4 registers identical in every field matched at once,
	 * and their ids never entered the map. */
	if (!env_has(env, KVER_REGSAFE_IDS) && o->type != PTR_TO_STACK && same_value(o, c) &&
	    o->id == c->id && o->ref_obj_id == c->ref_obj_id)
		return true;
	if (o->type == NOT_INIT)
		return exact == NOT_EXACT || c->type == NOT_INIT;
	if (o->type != c->type)
		return false;
	switch (base_type(o->type)) {
	case SCALAR_VALUE:
		return scalar_safe(env, o, c, m, exact);
	case PTR_TO_MAP_KEY:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MEM:
	case PTR_TO_BUF:
	case PTR_TO_TP_BUFFER:
		return same_object(o, c) && range_within(&o->b, &c->b) &&
		       tnum_in(o->b.var_off, c->b.var_off) &&
		       (!env_has(env, KVER_REGSAFE_IDS) ||
			(check_ids(o->id, c->id, m) && check_ids(o->ref_obj_id, c->ref_obj_id, m)));
	case PTR_TO_PACKET_META:
	case PTR_TO_PACKET:
		if (o->range < 0 || c->range < 0) {
			if (o->range != c->range)
				return false;
		} else if (o->range > c->range && env->fault != FAULT_REGSAFE_PKT_RANGE) {
			return false;
		}
		if (o->off != c->off)
			return false;
		/* Before 6.4 an old pointer without id matched any. */
		if ((o->id || env_has(env, KVER_REGSAFE_IDS)) && !check_ids(o->id, c->id, m))
			return false;
		return range_within(&o->b, &c->b) && tnum_in(o->b.var_off, c->b.var_off);
	case PTR_TO_STACK:
		return regs_exact(o, c, m) && o->frameno == c->frameno;
	case PTR_TO_ARENA:
		return true;
	default:
		return regs_exact(o, c, m);
	}
}

/* A full 8-byte spill of a scalar, or 8 bytes of unknown data, both read
 * back as a scalar: compare them as scalars. */
static const struct reg_state *slot_as_scalar(const struct vet_env *env,
					      const struct stack_slot *s,
					      const struct reg_state *unbound)
{
	if (s->slot_type[0] == STACK_SPILL && s->spilled_ptr.type == SCALAR_VALUE)
		return &s->spilled_ptr;
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (s->slot_type[i] != STACK_MISC &&
		    !(s->slot_type[i] == STACK_INVALID && env->allow_uninit_stack))
			return NULL;
	return unbound;
}

static bool special_slot_safe(const struct vet_env *env, const struct stack_slot *os,
			      const struct stack_slot *cs, struct idmap *m,
			      enum exact_level exact)
{
	const struct reg_state *o = &os->spilled_ptr, *c = &cs->spilled_ptr;

	switch (os->slot_type[BPF_REG_SIZE - 1]) {
	case STACK_SPILL:
		return regsafe(env, o, c, m, exact);
	case STACK_DYNPTR:
		return o->dynptr.kind == c->dynptr.kind &&
		       o->dynptr.first_slot == c->dynptr.first_slot &&
		       check_ids(o->ref_obj_id, c->ref_obj_id, m);
	case STACK_ITER:
		return o->iter.btf == c->iter.btf && o->iter.btf_id == c->iter.btf_id &&
		       o->iter.state == c->iter.state &&
		       check_ids(o->ref_obj_id, c->ref_obj_id, m);
	case STACK_IRQ_FLAG:
		return check_ids(o->ref_obj_id, c->ref_obj_id, m) &&
		       o->irq.kfunc_class == c->irq.kfunc_class;
	case STACK_MISC:
	case STACK_ZERO:
	case STACK_INVALID:
		return true;
	default:
		return false;
	}
}

/* An old slot none of whose bytes the comparison below would look at
 * (invalid, or misc when uninitialized stack may be read): skipped as a
 * whole, the common case after dead slots are cleaned. */
static bool slot_is_blank(const struct vet_env *env, const struct stack_slot *s)
{
	uint64_t types;

	_Static_assert(STACK_INVALID == 0 && STACK_MISC == 2, "byte tests below");
	memcpy(&types, s->slot_type, sizeof(types));
	if (!types)
		return true;
	if (!env->allow_uninit_stack)
		return false;
	/* Every byte 0 (invalid) or 2 (misc): no other bit set. */
	return !(types & ~(0x0101010101010101ull * STACK_MISC));
}

/*
 * A slot byte for byte the same in both states always compares safe, and
 * leaves nothing in the id map when no id is in it and it holds no
 * dynptr, iterator or irq flag (whose comparisons go by ids). Most slots
 * of a path that reaches a checkpoint again are unchanged since, and
 * this skips them without the byte-by-byte walk.
 */
static bool slot_same_plain(const struct func_state *old, const struct func_state *cur,
			    int spi)
{
	const struct stack_slot *s, *c;
	uint64_t types;

	if ((spi + 1) * BPF_REG_SIZE > cur->allocated_stack)
		return false;
	s = stack_slot_at(old, spi);
	c = stack_slot_at(cur, spi);
	if (s->spilled_ptr.id || s->spilled_ptr.ref_obj_id ||
	    (s != c && memcmp(s, c, sizeof(*s))))
		return false;
	/* Invalid, spill, misc or zero: every byte below 4. */
	_Static_assert(STACK_INVALID == 0 && STACK_SPILL == 1 && STACK_MISC == 2 &&
		       STACK_ZERO == 3, "byte test below");
	memcpy(&types, s->slot_type, sizeof(types));
	return !(types & 0xfcfcfcfcfcfcfcfcull);
}

static bool stacksafe(const struct vet_env *env, const struct func_state *old,
		      const struct func_state *cur, struct idmap *m,
		      enum exact_level exact)
{
	/* Slot types must match for EXACT, and for RANGE_WITHIN unless the
	 * target's rules say otherwise. */
	const bool loop_any_slot_type = env_rule(env, KRULE_LOOP_SLOT_TYPES);
	struct reg_state unbound;

	reg_mark_unknown_imprecise(&unbound);
	for (int i = 0; i < old->allocated_stack; i++) {
		int spi = i / BPF_REG_SIZE, b = i % BPF_REG_SIZE;
		const struct stack_slot *os = stack_slot_at(old, spi), *cs;
		const struct reg_state *o_sc, *c_sc;
		uint8_t ot = os->slot_type[b];

		if (!b && ((exact == NOT_EXACT && slot_is_blank(env, os)) ||
			   slot_same_plain(old, cur, spi))) {
			i += BPF_REG_SIZE - 1;
			continue;
		}
		if (exact != NOT_EXACT && (exact == EXACT || !loop_any_slot_type) &&
		    (i >= cur->allocated_stack || ot != stack_slot_at(cur, spi)->slot_type[b]))
			return false;
		if (ot == STACK_INVALID)
			continue;
		if (env->allow_uninit_stack && ot == STACK_MISC)
			continue;
		if (i >= cur->allocated_stack)
			return false;
		cs = stack_slot_at(cur, spi);
		o_sc = slot_as_scalar(env, os, &unbound);
		c_sc = slot_as_scalar(env, cs, &unbound);
		if (o_sc && c_sc) {
			if (!(env->fault == FAULT_STACKSAFE_SPILL && exact == NOT_EXACT) &&
			    !regsafe(env, o_sc, c_sc, m, exact))
				return false;
			i += BPF_REG_SIZE - 1 - b;
			continue;
		}
		if (ot == STACK_MISC && cs->slot_type[b] == STACK_ZERO)
			continue;
		if (ot != cs->slot_type[b])
			return false;
		if (b != BPF_REG_SIZE - 1)
			continue;
		if (!special_slot_safe(env, os, cs, m, exact))
			return false;
	}
	return true;
}

static bool refsafe(const struct vstate *old, const struct vstate *cur, struct idmap *m)
{
	if (old->acquired_refs != cur->acquired_refs ||
	    old->active_locks != cur->active_locks ||
	    old->active_preempt_locks != cur->active_preempt_locks ||
	    old->active_rcu_lock != cur->active_rcu_lock)
		return false;
	if (!check_ids(old->active_irq_id, cur->active_irq_id, m))
		return false;
	if (!check_ids(old->active_lock_id, cur->active_lock_id, m) ||
	    old->active_lock_ptr != cur->active_lock_ptr)
		return false;
	for (uint32_t i = 0; i < old->acquired_refs; i++) {
		const struct ref_state *o = &old->refs[i], *c = &cur->refs[i];

		if (!check_ids(o->id, c->id, m) || o->kind != c->kind)
			return false;
		if ((o->kind & REF_TYPE_ANY_LOCK) && o->ptr != c->ptr)
			return false;
	}
	return true;
}

static bool func_states_equal(struct vet_env *env, const struct func_state *old,
			      const struct func_state *cur, uint32_t insn_idx,
			      enum exact_level exact)
{
	uint16_t live = env->aux[insn_idx].live_regs_before;

	if (env->opts_off & BPFVET_NO_LIVENESS)
		live = 0x7ff;
	if (old->callback_depth > cur->callback_depth)
		return false;
	for (int i = 0; i < MAX_BPF_REG; i++)
		if ((live & (1u << i)) &&
		    !regsafe(env, &old->regs[i], &cur->regs[i], &env->idmap, exact))
			return false;
	return stacksafe(env, old, cur, &env->idmap, exact);
}

bool states_equal(struct vet_env *env, const struct vstate *old,
		  const struct vstate *cur, enum exact_level exact)
{
	if (old->curframe != cur->curframe)
		return false;
	env->idmap.tmp_id_gen = env->id_gen;
	env->idmap.cnt = 0;
	if (old->speculative && !cur->speculative)
		return false;
	if (old->in_sleepable != cur->in_sleepable)
		return false;
	if (!refsafe(old, cur, &env->idmap))
		return false;
	for (uint32_t i = 0; i <= old->curframe; i++) {
		if (old->frame[i]->callsite != cur->frame[i]->callsite)
			return false;
		if (!func_states_equal(env, old->frame[i], cur->frame[i],
				       state_frame_ip(old, i), exact))
			return false;
	}
	return true;
}

/* Cheap pre-filter of infinite-loop detection: same registers, bit for
 * bit, in the top frame (ids included, not renamed). */
bool states_maybe_looping(const struct vstate *old, const struct vstate *cur)
{
	const struct func_state *fo, *fc;

	if (old->curframe != cur->curframe)
		return false;
	fo = old->frame[old->curframe];
	fc = cur->frame[cur->curframe];
	for (int i = 0; i < MAX_BPF_REG; i++) {
		const struct reg_state *o = &fo->regs[i], *c = &fc->regs[i];

		if (!same_value(o, c) || o->id != c->id || o->ref_obj_id != c->ref_obj_id)
			return false;
	}
	return true;
}
