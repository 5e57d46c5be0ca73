/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The join of two path states (--explore=join): the least state of the
 * domain that describes every concrete execution either describes. It is
 * the constructive twin of equiv.c's subsumption: where regsafe() asks
 * whether a state lies inside another, join_states() builds the state
 * that both lie inside.
 *
 * Scalars are joined by the hull of their ranges and the union of their
 * tnums; pointers into the same object by the hull of their offsets.
 * Everything a later check reads as identity (pointer types, what they
 * point to, reference and lock state, special stack slots) must be equal
 * on both sides, or the two states keep apart ("shapes differ"), exactly
 * as the kernel's walk keeps every path apart. One exception: a map
 * value and NULL, in states equal but for them, join to the maybe-NULL
 * value that the program's next NULL check splits again.
 */
#include <string.h>

#include "prune.h"
#include "join_int.h"

static bool same_refs(const struct vstate *a, const struct vstate *b)
{
	if (a->acquired_refs != b->acquired_refs || a->active_locks != b->active_locks ||
	    a->active_preempt_locks != b->active_preempt_locks ||
	    a->active_irq_id != b->active_irq_id || a->active_lock_id != b->active_lock_id ||
	    a->active_lock_ptr != b->active_lock_ptr || a->active_rcu_lock != b->active_rcu_lock)
		return false;
	for (uint32_t i = 0; i < a->acquired_refs; i++) {
		const struct ref_state *x = &a->refs[i], *y = &b->refs[i];

		if (x->kind != y->kind || x->id != y->id || x->insn_idx != y->insn_idx ||
		    x->ptr != y->ptr)
			return false;
	}
	return true;
}

static bool same_frame_shape(const struct func_state *a, const struct func_state *b)
{
	return a->callsite == b->callsite && a->frameno == b->frameno &&
	       a->subprogno == b->subprogno && a->async_entry_cnt == b->async_entry_cnt &&
	       a->callback_ret_range.minval == b->callback_ret_range.minval &&
	       a->callback_ret_range.maxval == b->callback_ret_range.maxval &&
	       a->in_callback_fn == b->in_callback_fn &&
	       a->in_async_callback_fn == b->in_async_callback_fn &&
	       a->in_exception_callback_fn == b->in_exception_callback_fn &&
	       a->callback_depth == b->callback_depth;
}

/* Pointers into memory whose accesses check the fixed and the variable
 * offset together: the join may move a fixed offset into the variable
 * part (a pointer walking an array in a loop, a packet cursor advanced
 * by different header lengths on different paths). Stack pointers only
 * at loop heads (JOIN_STACK_MOVES): a variable-offset stack access reads
 * every slot it may reach and loses spilled values, which pays only
 * for a pointer that walks a stack array trip by trip; elsewhere two
 * stack pointers are two buffers, kept apart as the kernel keeps them. */
static bool offset_foldable(uint32_t type, uint32_t how)
{
	uint32_t t = base_type(type);

	return t == PTR_TO_MAP_VALUE || t == PTR_TO_MEM || t == PTR_TO_BUF ||
	       reg_type_is_pkt(type) || (t == PTR_TO_STACK && (how & JOIN_STACK_MOVES));
}

/*
 * Packet pointers at two fixed offsets. Two pointers at constant offsets
 * from the packet's start (id 0 on both sides) stay apart while either
 * has checked bytes past its offset: every such pointer shares id 0, so
 * one check of the end through any of them gives range to all (a
 * header's fields each computed from the start) and the program reads
 * through them on the strength of it; a folded pointer, variable and
 * linked to nothing, would lose that, and with the pointers, the header
 * lengths that made the offsets exact would join too (test_l4lb: its
 * IPv4 and IPv6 paths, joined, fail a read the kernel's walk admits). A
 * pointer at or past the end of what was checked is a parse position:
 * the next read through it needs a check of its own, made through it or
 * a copy, which the folded pointer's id carries. A pointer already
 * variable on one side has lost the link there.
 */
static bool packet_foldable(const struct reg_state *a, const struct reg_state *b)
{
	return a->off == b->off || a->id || b->id || (a->range <= a->off && b->range <= b->off);
}

/* A pointer's identity: what every access through it checks. The
 * variable offset may differ (it is hulled), a packet pointer's checked
 * range (the smaller one is kept), and, with no lock held, its id: the
 * link to copies of itself, which the join drops (a fresh id). */
static bool same_pointer(const struct reg_state *a, const struct reg_state *b, uint32_t how)
{
	if (a->type != b->type || (a->off != b->off && !offset_foldable(a->type, how)) ||
	    ((how & JOIN_LOCKED) && a->id != b->id) || a->ref_obj_id != b->ref_obj_id ||
	    a->frameno != b->frameno)
		return false;
	if (reg_type_is_pkt(a->type))
		return packet_foldable(a, b);
	if (a->raw[0] != b->raw[0] || a->raw[1] != b->raw[1])
		return false;
	/* Stack pointers address slots: the kernel compares them exactly. */
	return base_type(a->type) != PTR_TO_STACK || (how & JOIN_STACK_MOVES) ||
	       bounds_equal(&a->b, &b->b);
}

/* A map value pointer as a lookup returns it: at the value's start,
 * holding no reference, of a map whose values a NULL check gives back as
 * map values (not an inner map, a socket or an AF_XDP socket), with no
 * flag but maybe-NULL, which is all that check keeps. */
static bool lookup_result(const struct reg_state *r)
{
	uint32_t t;

	if ((r->type & ~PTR_MAYBE_NULL) != PTR_TO_MAP_VALUE || r->off || r->ref_obj_id ||
	    !bounds_is_const(&r->b) || r->b.umin || !r->map_ptr)
		return false;
	t = bpfvet_map__type(r->map_ptr);
	return t != BPF_MAP_TYPE_ARRAY_OF_MAPS && t != BPF_MAP_TYPE_HASH_OF_MAPS &&
	       t != BPF_MAP_TYPE_XSKMAP && t != BPF_MAP_TYPE_SOCKMAP &&
	       t != BPF_MAP_TYPE_SOCKHASH;
}

static bool null_scalar(const struct reg_state *r)
{
	return r->type == SCALAR_VALUE && bounds_is_const(&r->b) && !r->b.umin;
}

/*
 * A map value on one side, NULL or the same map's maybe-NULL value on
 * the other (a lookup's result after its check, and the NULL it was on
 * the other branch, or a default of 0): the join is the maybe-NULL
 * pointer, whose NULL check tells the two apart again. Not under a
 * lock, where the id names the lock held.
 */
static bool nullable_pair(const struct reg_state *a, const struct reg_state *b, uint32_t how)
{
	if ((how & JOIN_LOCKED) || a->type == b->type)
		return false;
	if (null_scalar(a) || null_scalar(b))
		return lookup_result(null_scalar(a) ? b : a);
	return (a->type | PTR_MAYBE_NULL) == (b->type | PTR_MAYBE_NULL) &&
	       a->raw[0] == b->raw[0] && a->raw[1] == b->raw[1] && lookup_result(a) &&
	       lookup_result(b);
}

/* Can registers a and b be joined? NOT_INIT joins with anything (the
 * join is unreadable), scalars with scalars. */
static bool reg_joinable(const struct reg_state *a, const struct reg_state *b, uint32_t how)
{
	if (a->type == NOT_INIT || b->type == NOT_INIT)
		return true;
	if (a->type == SCALAR_VALUE || b->type == SCALAR_VALUE)
		return a->type == b->type;
	return same_pointer(a, b, how);
}

static bool scalar_slot(const struct stack_slot *s)
{
	for (int i = 0; i < BPF_REG_SIZE; i++) {
		uint8_t t = s->slot_type[i];

		if (t != STACK_MISC && t != STACK_ZERO && t != STACK_INVALID &&
		    !(t == STACK_SPILL && s->spilled_ptr.type == SCALAR_VALUE))
			return false;
	}
	return true;
}

/* A slot of plain bytes or a spill: none of the kinds (dynptrs,
 * iterators, irq flags) that the join compares whole. */
bool join_slot_plain(const struct stack_slot *s)
{
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (s->slot_type[i] != STACK_INVALID && s->slot_type[i] != STACK_SPILL &&
		    s->slot_type[i] != STACK_MISC && s->slot_type[i] != STACK_ZERO)
			return false;
	return true;
}

static bool slot_joinable(const struct stack_slot *a, const struct stack_slot *b, uint32_t how)
{
	if (!memcmp(a, b, sizeof(*a)) || (scalar_slot(a) && scalar_slot(b)))
		return true;
	/* Dynptrs, iterators, irq flags: all or nothing. A pointer spill
	 * joins another of the same pointer, or anything into invalid. */
	if (!memcmp(a->slot_type, b->slot_type, sizeof(a->slot_type)) &&
	    a->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL)
		return reg_joinable(&a->spilled_ptr, &b->spilled_ptr, how);
	return (a->slot_type[0] == STACK_INVALID || b->slot_type[0] == STACK_INVALID) &&
	       join_slot_plain(a) && join_slot_plain(b);
}

static const struct stack_slot invalid_slot;

static const struct stack_slot *slot_or_invalid(const struct func_state *f, int spi)
{
	return spi < f->allocated_stack / BPF_REG_SIZE ? stack_slot_at(f, spi) : &invalid_slot;
}

/* Slot s starts a page that both frames share: its slots are equal.
 * (States copied from one another share the pages neither wrote.) */
static bool same_page(const struct func_state *a, const struct func_state *b, int s)
{
	return !(s % STACK_PAGE_SLOTS) &&
	       (s + STACK_PAGE_SLOTS) * BPF_REG_SIZE <= a->allocated_stack &&
	       (s + STACK_PAGE_SLOTS) * BPF_REG_SIZE <= b->allocated_stack &&
	       a->pages[s / STACK_PAGE_SLOTS] == b->pages[s / STACK_PAGE_SLOTS];
}

static bool frame_joinable(const struct func_state *a, const struct func_state *b, uint32_t how)
{
	int slots = (a->allocated_stack > b->allocated_stack ? a->allocated_stack :
							       b->allocated_stack) / BPF_REG_SIZE;

	if (!same_frame_shape(a, b))
		return false;
	for (int r = 0; r < MAX_BPF_REG; r++)
		if (!reg_joinable(&a->regs[r], &b->regs[r], how))
			return false;
	for (int s = 0; s < slots; s++) {
		if (same_page(a, b, s)) {
			s += STACK_PAGE_SLOTS - 1;
			continue;
		}
		if (!slot_joinable(slot_or_invalid(a, s), slot_or_invalid(b, s), how))
			return false;
	}
	return true;
}

/*
 * A digest of what join_shapes_equal() compares most often: each live
 * register's type and, for a pointer, what it points to. States with
 * different digests are kept apart without the full comparison. (A
 * register unreadable on one side only would join; the digest keeps the
 * two apart: a second summary, never a wrong one.)
 */
/* A register's part: its type and what it points to; map values and
 * scalars alike (a map value joins NULL). */
static uint64_t reg_digest(const struct reg_state *x)
{
	if (x->type == SCALAR_VALUE || base_type(x->type) == PTR_TO_MAP_VALUE)
		return SCALAR_VALUE;
	if (x->type == NOT_INIT || reg_type_is_pkt(x->type))
		return x->type;
	return (x->type ^ x->raw[0] * 0x100000001b3ull);
}

uint64_t join_shape_digest(const struct vstate *st)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ st->curframe ^ ((uint64_t)st->acquired_refs << 8);

	for (uint32_t i = 0; i <= st->curframe; i++) {
		const struct func_state *f = st->frame[i];

		h = (h ^ (uint32_t)f->callsite) * 0x100000001b3ull;
		for (int r = 0; r < BPF_REG_FP; r++)
			h = (h ^ reg_digest(&f->regs[r])) * 0x100000001b3ull;
	}
	return h;
}

/* What a later check could tell apart: the kind and the bounds, for a
 * pointer what it points to, where and its checked range, and what its
 * id says when it names the lock held. Links between copies may differ:
 * the join drops those one side lacks. An unreadable side reads
 * nothing. */
static bool same_value(const struct reg_state *a, const struct reg_state *b, uint32_t how)
{
	if (a->type == NOT_INIT || b->type == NOT_INIT)
		return true;
	if (a->type != b->type || !bounds_equal(&a->b, &b->b))
		return false;
	return a->type == SCALAR_VALUE ||
	       (same_pointer(a, b, how) && a->off == b->off && a->raw[0] == b->raw[0] &&
		a->raw[1] == b->raw[1]);
}

static bool slot_is_blank(const struct stack_slot *s)
{
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (s->slot_type[i] != STACK_INVALID)
			return false;
	return true;
}

static bool same_slot_but_null(const struct stack_slot *a, const struct stack_slot *b,
			       uint32_t how)
{
	if (slot_is_blank(a) || slot_is_blank(b))
		return true;
	if (memcmp(a->slot_type, b->slot_type, sizeof(a->slot_type)))
		return false;
	if (a->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL)
		return same_value(&a->spilled_ptr, &b->spilled_ptr, how) ||
		       nullable_pair(&a->spilled_ptr, &b->spilled_ptr, how);
	return scalar_slot(a) || !memcmp(a, b, sizeof(*a));
}

/*
 * States equal but for map values that are NULL on one side (the state
 * before a NULL check, and the two it split into). Nothing else a later
 * check could read differs, so no value can tell the program which side
 * it is on: the joined walk goes where the two walks would, and a NULL
 * check splits it as it split them. Elsewhere a value that differs may
 * say whether the pointer is NULL (a callee's return code, a flag), the
 * program reads the pointer on the strength of it, and the joined walk
 * would reject it (test_xdp_noinline).
 */
static bool equal_but_null(const struct vstate *a, const struct vstate *b, uint32_t how)
{
	for (uint32_t i = 0; i <= a->curframe; i++) {
		const struct func_state *fa = a->frame[i], *fb = b->frame[i];
		int slots = (fa->allocated_stack > fb->allocated_stack ? fa->allocated_stack :
									 fb->allocated_stack) /
			    BPF_REG_SIZE;

		if (!same_frame_shape(fa, fb))
			return false;
		for (int r = 0; r < MAX_BPF_REG; r++)
			if (!same_value(&fa->regs[r], &fb->regs[r], how) &&
			    !nullable_pair(&fa->regs[r], &fb->regs[r], how))
				return false;
		for (int k = 0; k < slots; k++)
			if (!same_slot_but_null(slot_or_invalid(fa, k), slot_or_invalid(fb, k), how))
				return false;
	}
	return true;
}

bool join_shapes_equal(const struct vstate *a, const struct vstate *b, uint32_t how)
{
	if (a->curframe != b->curframe || a->speculative != b->speculative ||
	    a->in_sleepable != b->in_sleepable || a->may_goto_depth != b->may_goto_depth ||
	    a->callback_unroll_depth != b->callback_unroll_depth || !same_refs(a, b))
		return false;
	how &= ~JOIN_LOCKED;
	if (a->active_locks)
		how |= JOIN_LOCKED;
	for (uint32_t i = 0; i <= a->curframe; i++)
		if (!frame_joinable(a->frame[i], b->frame[i], how))
			return equal_but_null(a, b, how);
	return true;
}

/* A scalar's link to others: kept only where both sides have it, so that
 * every pair of linked scalars of the join is linked on both sides. */
static bool join_ids(struct reg_state *into, const struct reg_state *in)
{
	if (into->id == in->id && into->off == in->off)
		return false;
	if (!into->id)
		return false;
	into->id = 0;
	into->off = 0;
	return true;
}

static bool join_bounds(struct bounds *into, const struct bounds *in,
			const struct join_widening *wd)
{
	if (bounds_within(into, in))
		return false;
	if (wd)
		join_widen_bounds(into, in, wd->t);
	else
		bounds_hull(into, in);
	return true;
}

static bool reg_has_id(const struct reg_state *r, uint32_t id)
{
	return r->type != NOT_INIT && r->type != SCALAR_VALUE && r->id == id;
}

/* Does one pointer alone, in the whole state, carry this id? */
static bool id_unique(const struct vstate *st, uint32_t id)
{
	int n = 0;

	for (uint32_t i = 0; i <= st->curframe; i++) {
		const struct func_state *f = st->frame[i];

		for (int r = 0; r < MAX_BPF_REG; r++)
			n += reg_has_id(&f->regs[r], id);
		for (int s = 0; s < f->allocated_stack / BPF_REG_SIZE; s++) {
			const struct stack_slot *sl = stack_slot_at(f, s);

			n += sl->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL &&
			     reg_has_id(&sl->spilled_ptr, id);
		}
	}
	return n == 1;
}

/* Pointers whose links differ: the join's pointer is linked to none,
 * which a fresh id says (and keeps saying at later joins). */
static bool join_pointer_id(struct vet_env *env, const struct vstate *st,
			    struct reg_state *into, const struct reg_state *in)
{
	if (into->id == in->id || (into->id && id_unique(st, into->id)))
		return false;
	into->id = ++env->id_gen;
	return true;
}

static void shift_bounds(struct bounds *b, int64_t delta)
{
	struct bounds c;

	bounds_const(&c, (uint64_t)delta);
	scalar_alu(b, &c, BPF_ADD, false, 0, NULL);
}

/* Two offsets into the same object: the lower one stays fixed, the rest
 * of each side goes into the variable part, then the parts are joined. */
static bool fold_offsets(struct reg_state *into, const struct reg_state *in,
			 const struct join_widening *wd)
{
	int32_t lo = into->off < in->off ? into->off : in->off;
	bool moved = into->off != lo;
	struct bounds b = in->b;

	shift_bounds(&into->b, (int64_t)into->off - lo);
	shift_bounds(&b, (int64_t)in->off - lo);
	into->off = lo;
	return join_bounds(&into->b, &b, wd) || moved;
}

/* The bytes a packet pointer's side still has checked past offset lo. */
static int32_t range_from(const struct reg_state *r, int32_t lo)
{
	int64_t left = (int64_t)r->range - ((int64_t)r->off - lo);

	return left > 0 ? (int32_t)left : 0;
}

/*
 * Two packet pointers' ranges, x and y measured from the same place. A
 * range of 0 claims nothing. A negative one is not a count but a fact
 * about the pointer itself, from a comparison with the packet's end: at
 * or beyond it (AT_PKT_END), strictly beyond (BEYOND_PKT_END, which
 * implies the other); it holds of the same pointer whatever its fixed
 * offset is called.
 */
static int32_t join_range(int32_t x, int32_t y)
{
	if (x < 0 && y < 0)
		return x > y ? x : y;
	if (x < 0 || y < 0)
		return 0;
	return x < y ? x : y;
}

/*
 * A packet pointer's checked range counts from its variable part on:
 * the bytes [pkt + var, pkt + var + range) are in the packet, and every
 * pointer that shares its id shares that var (id 0: var is 0, the
 * packet's start), so that a check through one marks them all. A fold
 * moves the var of each side up by what its fixed offset loses: that
 * side's range shrinks as much, and the folded var is this pointer's
 * alone, so it takes an id no other pointer has.
 */
static bool fold_packet(struct vet_env *env, const struct vstate *st, struct reg_state *into,
			const struct reg_state *in, const struct join_widening *wd)
{
	int32_t lo = into->off < in->off ? into->off : in->off;
	int32_t ra = into->range < 0 ? into->range : range_from(into, lo);
	int32_t range = join_range(ra, in->range < 0 ? in->range : range_from(in, lo));
	bool changed = false;

	if (!into->id || !id_unique(st, into->id)) {
		into->id = ++env->id_gen;
		changed = true;
	}
	if (into->range != range) {
		into->range = range;
		changed = true;
	}
	return fold_offsets(into, in, wd) || changed;
}

/* A map value joined with NULL (nullable_pair()): maybe NULL, with an
 * id of its own, which its NULL check reads (a copy on one side may be
 * NULL where this one is not: the link goes). */
static bool join_nullable(struct vet_env *env, const struct vstate *st, struct reg_state *into,
			  const struct reg_state *in)
{
	if (into->type == SCALAR_VALUE) {
		*into = *in;
		into->precise = false;
	} else if (type_may_be_null(into->type) && into->id && id_unique(st, into->id)) {
		return false;
	}
	into->type |= PTR_MAYBE_NULL;
	into->id = ++env->id_gen;
	return true;
}

static bool join_reg(struct vet_env *env, const struct vstate *st, struct reg_state *into,
		     const struct reg_state *in, const struct join_widening *wd)
{
	bool changed = false;

	if (into->type == NOT_INIT)
		return false;
	if (in->type == NOT_INIT) {
		reg_mark_not_init(into);
		return true;
	}
	if (into->type != in->type && nullable_pair(into, in, 0))
		return join_nullable(env, st, into, in);
	if (into->type != SCALAR_VALUE) {
		if (into->off != in->off && reg_type_is_pkt(into->type))
			return fold_packet(env, st, into, in, wd);
		if (into->off != in->off) {
			changed = join_pointer_id(env, st, into, in);
			return fold_offsets(into, in, wd) || changed;
		}
		if (reg_type_is_pkt(into->type) &&
		    join_range(into->range, in->range) != into->range) {
			into->range = join_range(into->range, in->range);
			changed = true;
		}
		changed |= join_pointer_id(env, st, into, in);
		return join_bounds(&into->b, &in->b, wd) || changed;
	}
	changed = join_ids(into, in);
	if (env->fault != FAULT_JOIN_HULL)
		changed |= join_bounds(&into->b, &in->b, wd);
	into->precise |= in->precise;
	return changed;
}

static uint8_t join_slot_byte(uint8_t a, uint8_t b)
{
	if (a == b)
		return a;
	if (a == STACK_INVALID || b == STACK_INVALID)
		return STACK_INVALID;
	return STACK_MISC;
}

/* Two scalar slots: a spill where both spill a whole scalar, otherwise
 * byte by byte (zero with zero stays zero; an invalid byte stays
 * invalid; any other mix is an unknown byte). */
static bool join_scalar_slot(struct vet_env *env, const struct vstate *st,
			     struct stack_slot *into, const struct stack_slot *in,
			     const struct join_widening *wd)
{
	bool changed = false;
	bool into_spill = into->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL;
	bool in_spill = in->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL;

	if (into_spill && in_spill &&
	    !memcmp(into->slot_type, in->slot_type, sizeof(into->slot_type)))
		return join_reg(env, st, &into->spilled_ptr, &in->spilled_ptr, wd);
	for (int i = 0; i < BPF_REG_SIZE; i++) {
		uint8_t a = into->slot_type[i] == STACK_SPILL ? STACK_MISC : into->slot_type[i];
		uint8_t b = in->slot_type[i] == STACK_SPILL ? STACK_MISC : in->slot_type[i];
		uint8_t t = join_slot_byte(a, b);

		changed |= t != into->slot_type[i];
		into->slot_type[i] = t;
	}
	if (into->spilled_ptr.type != NOT_INIT) {
		reg_mark_not_init(&into->spilled_ptr);
		changed = true;
	}
	return changed;
}

/* Returns whether the slot changed: an invalid one absorbs anything. */
/* Every byte invalid and no register spilled: what a fresh slot is. */
bool join_slot_invalid(const struct stack_slot *s)
{
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (s->slot_type[i] != STACK_INVALID)
			return false;
	return s->spilled_ptr.type == NOT_INIT;
}

/* Makes s invalid; returns whether it changed. */
bool join_slot_invalidate(struct stack_slot *s)
{
	if (join_slot_invalid(s))
		return false;
	memset(s->slot_type, STACK_INVALID, sizeof(s->slot_type));
	reg_mark_not_init(&s->spilled_ptr);
	return true;
}

static int join_frame(struct vet_env *env, const struct vstate *st, struct func_state *into,
		      const struct func_state *in, const struct join_widening *wd, bool *changed)
{
	int slots;

	for (int r = 0; r < MAX_BPF_REG; r++)
		*changed |= join_reg(env, st, &into->regs[r], &in->regs[r], wd);
	if (in->allocated_stack > into->allocated_stack) {
		int err = frame_grow_stack(env, into, in->allocated_stack);

		if (err)
			return err;
		*changed = true;
	}
	slots = into->allocated_stack / BPF_REG_SIZE;
	for (int s = 0; s < slots; s++) {
		const struct stack_slot *b = slot_or_invalid(in, s);
		struct stack_slot *a = stack_slot_at(into, s);
		int err;

		if (same_page(into, in, s)) {
			s += STACK_PAGE_SLOTS - 1;
			continue;
		}
		if (!memcmp(a, b, sizeof(*a)))
			continue;
		err = frame_own_slot(env, into, s);
		if (err)
			return err;
		a = stack_slot_at(into, s);
		if (scalar_slot(a) && scalar_slot(b))
			*changed |= join_scalar_slot(env, st, a, b, wd);
		else if (memcmp(a->slot_type, b->slot_type, sizeof(a->slot_type)))
			*changed |= join_slot_invalidate(a);
		else
			*changed |= join_reg(env, st, &a->spilled_ptr, &b->spilled_ptr, wd);
	}
	return 0;
}

int join_states(struct vet_env *env, struct vstate *into, const struct vstate *in,
		const struct join_widening *wd, uint32_t how, bool *changed)
{
	*changed = false;
	if (!join_shapes_equal(into, in, how))
		return 1;
	return join_matching_states(env, into, in, wd, changed);
}

int join_matching_states(struct vet_env *env, struct vstate *into, const struct vstate *in,
			 const struct join_widening *wd, bool *changed)
{
	*changed = false;
	for (uint32_t i = 0; i <= into->curframe; i++) {
		int err = join_frame(env, into, into->frame[i], in->frame[i], wd, changed);

		if (err)
			return err;
	}
	return 0;
}

/* One register into another (call summaries' arguments): whether they
 * can be joined, and the join itself. */
bool join_reg_joinable(const struct reg_state *a, const struct reg_state *b)
{
	return reg_joinable(a, b, 0);
}

bool join_reg_into(struct vet_env *env, const struct vstate *st, struct reg_state *into,
		   const struct reg_state *in, const struct join_widening *wd)
{
	return join_reg(env, st, into, in, wd);
}

/* Moves r's fixed offset to off, the difference into its variable part,
 * when its kind of pointer allows it: false otherwise. */
bool join_refold(struct reg_state *r, int32_t off)
{
	if (r->type == SCALAR_VALUE || !offset_foldable(r->type, 0))
		return false;
	shift_bounds(&r->b, (int64_t)r->off - off);
	r->off = off;
	return true;
}
