/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The join of two states in --explore=join (issue 23): join_states()
 * (prune/prune.h) on small hand-built states, and join_rel_narrow()
 * (prune/join_int.h), the narrowing by a relation to a loop counter.
 * The join must lie above both inputs in the order the walk prunes by
 * (states_equal(..., RANGE_WITHIN)) and must refuse to merge what a later
 * check reads as identity; a narrowed value must keep every value that
 * some number of trips gives it. (The joins of single values, the hull
 * and the widening, are test_join.c's.)
 */
#include <stdlib.h>
#include <string.h>

#include "scalar_model.h"
#include "test.h"
#include "base/uapi.h"
#include "loader/object.h"
#include "prune/join_int.h"
#include "prune/prune.h"
#include "state/state.h"
#include "state_fixture.h"

#define ROUNDS 20000

static void set_of(struct bounds *b, uint64_t x, uint64_t y)
{
	uint64_t v[2] = { x, y };

	model_alpha(b, v, 2);
}

/* ---- join_states ------------------------------------------------------------ */

struct fixture {
	struct vet_env *env;
	struct vstate *a, *b;
};

/* One frame at instruction 0, every register live there, 4 stack slots
 * (invalid). */
static bool fixture_init(struct test_ctx *t, struct fixture *f)
{
	memset(f, 0, sizeof(*f));
	f->env = calloc(1, sizeof(*f->env));
	CHECK(t, f->env != NULL);
	if (!f->env)
		return false;
	vet_mem_init(&f->env->mem, 0);
	f->env->bpf_capable = true;
	f->env->aux = calloc(1, sizeof(*f->env->aux));
	CHECK(t, f->env->aux != NULL);
	if (!f->env->aux)
		return false;
	f->env->aux[0].live_regs_before = 0x7ff;
	f->env->id_gen = 100;
	f->a = fixture_state_new(t, f->env, 4);
	f->b = fixture_state_new(t, f->env, 4);
	return f->a && f->b;
}

static void fixture_done(struct test_ctx *t, struct fixture *f)
{
	if (!f->env)
		return;
	fixture_state_drop(f->env, f->a);
	fixture_state_drop(f->env, f->b);
	frame_pool_drain(f->env);
	CHECK_INT(t, f->env->mem.cur, 0);
	vet_mem_release(&f->env->mem);
	free(f->env->aux);
	free(f->env);
}

static struct reg_state *reg(struct vstate *st, int r)
{
	return &st->frame[0]->regs[r];
}

static struct stack_slot *slot(struct vstate *st, int spi)
{
	return stack_slot_at(st->frame[0], spi);
}

static void set_scalar(struct reg_state *r, uint64_t lo, uint64_t hi)
{
	uint64_t v[2] = { lo, hi };

	reg_mark_known(r, lo);
	model_alpha(&r->b, v, 2);
	r->precise = true;
}

static void spill_scalar(struct stack_slot *s, uint64_t v)
{
	memset(s->slot_type, STACK_SPILL, sizeof(s->slot_type));
	reg_mark_known(&s->spilled_ptr, v);
	s->spilled_ptr.precise = true;
}

static void set_map_value(struct reg_state *r, uint64_t map, int32_t off)
{
	reg_mark_ptr(r, PTR_TO_MAP_VALUE);
	r->raw[0] = map;
	r->off = off;
}

/* into := join(into, in) on a copy; returns join_states()'s answer and
 * the copy in *out (caller drops it). */
static int join_copy_how(struct test_ctx *t, struct vet_env *env, struct vstate **out,
			 const struct vstate *into, const struct vstate *in, uint32_t how,
			 bool *changed)
{
	struct vstate *j = calloc(1, sizeof(*j));

	*out = j;
	CHECK(t, j != NULL);
	if (!j)
		return -1;
	CHECK_INT(t, state_copy(env, j, into), 0);
	return join_states(env, j, in, NULL, how, changed);
}

static int join_copy(struct test_ctx *t, struct vet_env *env, struct vstate **out,
		     const struct vstate *into, const struct vstate *in, bool *changed)
{
	return join_copy_how(t, env, out, into, in, 0, changed);
}

/* Both inputs lie inside the join, as loop convergence compares. */
static void check_above_both(struct test_ctx *t, struct vet_env *env, const struct vstate *j,
			     const struct vstate *a, const struct vstate *b)
{
	CHECK(t, states_equal(env, j, a, RANGE_WITHIN));
	CHECK(t, states_equal(env, j, b, RANGE_WITHIN));
}

/* Scalars in registers and spilled to the stack that differ only in
 * value: one join holds both sides, in either order; joining again
 * changes nothing. */
static void test_join_scalars(struct test_ctx *t)
{
	struct fixture f;
	struct vstate *ab = NULL, *ba = NULL, *again = NULL;
	bool changed;

	if (!fixture_init(t, &f))
		goto out;
	set_scalar(reg(f.a, 1), 3, 3);
	set_scalar(reg(f.b, 1), 10, 10);
	set_scalar(reg(f.a, 2), 0, 5);
	set_scalar(reg(f.b, 2), 100, 200);
	set_scalar(reg(f.a, 3), (uint64_t)-8, (uint64_t)-1);
	set_scalar(reg(f.b, 3), 0x7fffffff, 0x80000000);
	reg_mark_known(reg(f.a, 4), 7);
	reg_mark_known(reg(f.b, 4), 7);
	spill_scalar(slot(f.a, 0), 1);
	spill_scalar(slot(f.b, 0), 2);
	spill_scalar(slot(f.a, 3), 0);
	spill_scalar(slot(f.b, 3), UINT64_MAX);

	CHECK_INT(t, join_copy(t, f.env, &ab, f.a, f.b, &changed), 0);
	CHECK(t, changed);
	if (ab)
		check_above_both(t, f.env, ab, f.a, f.b);
	CHECK_INT(t, join_copy(t, f.env, &ba, f.b, f.a, &changed), 0);
	CHECK(t, changed);
	if (ba)
		check_above_both(t, f.env, ba, f.a, f.b);
	if (!ab)
		goto out;
	CHECK(t, model_has(&reg(ab, 1)->b, 3) && model_has(&reg(ab, 1)->b, 10));
	CHECK(t, reg(ab, 1)->precise);
	CHECK(t, bounds_is_const(&reg(ab, 4)->b) && reg(ab, 4)->b.umin == 7);
	CHECK_INT(t, slot(ab, 0)->slot_type[BPF_REG_SIZE - 1], STACK_SPILL);
	CHECK(t, model_has(&slot(ab, 0)->spilled_ptr.b, 1) &&
		 model_has(&slot(ab, 0)->spilled_ptr.b, 2));
	CHECK(t, model_has(&slot(ab, 3)->spilled_ptr.b, 0) &&
		 model_has(&slot(ab, 3)->spilled_ptr.b, UINT64_MAX));
	/* Joined with a side it already holds: nothing changes. */
	CHECK_INT(t, join_copy(t, f.env, &again, ab, f.b, &changed), 0);
	CHECK(t, !changed);
	if (again)
		CHECK(t, states_equal(f.env, again, ab, EXACT));
out:
	fixture_state_drop(f.env, again);
	fixture_state_drop(f.env, ba);
	fixture_state_drop(f.env, ab);
	fixture_done(t, &f);
}

/* Slots whose bytes differ in kind (zero, unknown, a spilled scalar):
 * the join reads as unknown where the sides differ. That holds both
 * sides for pruning (NOT_EXACT); RANGE_WITHIN, the loop check, wants
 * equal slot types, which a join of two kinds cannot keep. */
static void test_join_slot_bytes(struct test_ctx *t)
{
	struct fixture f;
	struct vstate *j = NULL;
	bool changed;

	if (!fixture_init(t, &f))
		goto out;
	memset(slot(f.a, 1)->slot_type, STACK_MISC, BPF_REG_SIZE);
	memset(slot(f.b, 1)->slot_type, STACK_ZERO, BPF_REG_SIZE);
	spill_scalar(slot(f.a, 2), 5);
	memset(slot(f.b, 2)->slot_type, STACK_MISC, BPF_REG_SIZE);
	memset(slot(f.a, 3)->slot_type, STACK_ZERO, BPF_REG_SIZE);
	memset(slot(f.b, 3)->slot_type, STACK_ZERO, BPF_REG_SIZE);
	CHECK_INT(t, join_copy(t, f.env, &j, f.a, f.b, &changed), 0);
	if (!j)
		goto out;
	CHECK(t, changed);
	for (int i = 0; i < BPF_REG_SIZE; i++) {
		CHECK_INT(t, slot(j, 1)->slot_type[i], STACK_MISC);
		CHECK_INT(t, slot(j, 2)->slot_type[i], STACK_MISC);
		CHECK_INT(t, slot(j, 3)->slot_type[i], STACK_ZERO);
	}
	CHECK_INT(t, slot(j, 2)->spilled_ptr.type, NOT_INIT);
	CHECK(t, states_equal(f.env, j, f.a, NOT_EXACT));
	CHECK(t, states_equal(f.env, j, f.b, NOT_EXACT));
out:
	fixture_state_drop(f.env, j);
	fixture_done(t, &f);
}

/* Identity that a later check reads: pointer types, the map pointed to,
 * the reference held. The states keep apart (1) and into is untouched. */
static void test_join_keeps_apart(struct test_ctx *t)
{
	static const struct {
		const char *what;
		uint32_t type_a, type_b;
		uint64_t map_a, map_b;
		uint32_t ref_a, ref_b;
	} cases[] = {
		{ "map value vs ctx", PTR_TO_MAP_VALUE, PTR_TO_CTX, 1, 0, 0, 0 },
		{ "map value vs scalar", PTR_TO_MAP_VALUE, SCALAR_VALUE, 1, 0, 0, 0 },
		{ "two maps", PTR_TO_MAP_VALUE, PTR_TO_MAP_VALUE, 1, 2, 0, 0 },
		{ "ref_obj_id", PTR_TO_MAP_VALUE, PTR_TO_MAP_VALUE, 1, 1, 3, 4 },
		{ "packet vs packet end", PTR_TO_PACKET, PTR_TO_PACKET_END, 0, 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		struct vstate *j = NULL;
		bool changed = true;

		if (!fixture_init(t, &f))
			goto next;
		/* (A map value and NULL may join: test_join_nullable.) */
		if (cases[i].type_a == SCALAR_VALUE)
			reg_mark_known(reg(f.a, 1), 7);
		else
			reg_mark_ptr(reg(f.a, 1), cases[i].type_a);
		if (cases[i].type_b == SCALAR_VALUE)
			reg_mark_known(reg(f.b, 1), 7);
		else
			reg_mark_ptr(reg(f.b, 1), cases[i].type_b);
		reg(f.a, 1)->raw[0] = cases[i].map_a;
		reg(f.b, 1)->raw[0] = cases[i].map_b;
		reg(f.a, 1)->ref_obj_id = cases[i].ref_a;
		reg(f.b, 1)->ref_obj_id = cases[i].ref_b;
		CHECK_MSG(t, join_copy(t, f.env, &j, f.a, f.b, &changed) == 1, "%s: joined",
			  cases[i].what);
		CHECK_MSG(t, !changed, "%s: changed", cases[i].what);
		if (j)
			CHECK_MSG(t, states_equal(f.env, j, f.a, EXACT), "%s: into touched",
				  cases[i].what);
		/* in the other order too */
		fixture_state_drop(f.env, j);
		j = NULL;
		CHECK_MSG(t, join_copy(t, f.env, &j, f.b, f.a, &changed) == 1,
			  "%s: joined (b, a)", cases[i].what);
next:
		fixture_state_drop(f.env, j);
		fixture_done(t, &f);
	}
}

/* A spilled pointer against a slot never written: the join's slot is
 * invalid (nothing may read it), either way round. A pointer spill
 * against a scalar spill keeps apart. */
static void test_join_invalid_slot(struct test_ctx *t)
{
	struct fixture f;
	struct vstate *j = NULL;
	bool changed;

	if (!fixture_init(t, &f))
		goto out;
	memset(slot(f.b, 0)->slot_type, STACK_SPILL, BPF_REG_SIZE);
	set_map_value(&slot(f.b, 0)->spilled_ptr, 1, 0);
	for (int order = 0; order < 2; order++) {
		fixture_state_drop(f.env, j);
		j = NULL;
		CHECK_INT(t, join_copy(t, f.env, &j, order ? f.b : f.a, order ? f.a : f.b,
				       &changed), 0);
		if (!j)
			continue;
		for (int i = 0; i < BPF_REG_SIZE; i++)
			CHECK_INT(t, slot(j, 0)->slot_type[i], STACK_INVALID);
		CHECK_INT(t, slot(j, 0)->spilled_ptr.type, NOT_INIT);
		/* Into a slot already invalid nothing changes: a summary that
		 * says it grew is walked again, and a loop head never settles. */
		CHECK_MSG(t, changed == (order == 1), "%s: changed = %d",
			  order ? "pointer spill joined with invalid" :
				  "invalid joined with pointer spill", changed);
		/* Slot kinds differ: only the pruning comparison accepts an
		 * invalid slot for any (RANGE_WITHIN wants equal kinds). */
		CHECK(t, states_equal(f.env, j, f.a, NOT_EXACT));
		CHECK(t, states_equal(f.env, j, f.b, NOT_EXACT));
	}
	/* pointer spill vs scalar spill: apart (but for NULL against a map
	 * value: test_join_nullable) */
	spill_scalar(slot(f.a, 0), 5);
	fixture_state_drop(f.env, j);
	j = NULL;
	CHECK_INT(t, join_copy(t, f.env, &j, f.a, f.b, &changed), 1);
out:
	fixture_state_drop(f.env, j);
	fixture_done(t, &f);
}

/* Linked scalars: an id both sides share stays, so that a bound learnt
 * on one copy still reaches the other; ids that differ are dropped. */
static void test_join_scalar_ids(struct test_ctx *t)
{
	struct fixture f;
	struct vstate *j = NULL;
	bool changed;

	if (!fixture_init(t, &f))
		goto out;
	for (int r = 1; r <= 2; r++) {
		set_scalar(reg(f.a, r), 0, 5);
		set_scalar(reg(f.b, r), 10, 20);
		reg(f.a, r)->id = 7;
		reg(f.b, r)->id = 7;
	}
	set_scalar(reg(f.a, 3), 0, 5);
	set_scalar(reg(f.b, 3), 0, 5);
	reg(f.a, 3)->id = 8;
	reg(f.b, 3)->id = 9;
	set_scalar(reg(f.a, 4), 0, 5);
	set_scalar(reg(f.b, 4), 0, 5);
	reg(f.a, 4)->id = 8;
	reg(f.b, 4)->id = 9;
	CHECK_INT(t, join_copy(t, f.env, &j, f.a, f.b, &changed), 0);
	if (!j)
		goto out;
	CHECK_INT(t, reg(j, 1)->id, 7);
	CHECK_INT(t, reg(j, 2)->id, 7);
	CHECK_INT(t, reg(j, 3)->id, 0);
	CHECK_INT(t, reg(j, 4)->id, 0);
	CHECK(t, changed);
	check_above_both(t, f.env, j, f.a, f.b);
out:
	fixture_state_drop(f.env, j);
	fixture_done(t, &f);
}

/* A map-value pointer at two fixed offsets (a pointer walking an array):
 * the join keeps the lower offset fixed and moves the difference into the
 * variable part, so that every address of either side is one of the
 * join's. */
static void test_join_fold_offsets(struct test_ctx *t)
{
	static const struct {
		int32_t off_a, off_b;
		uint64_t var_lo, var_hi;	/* a's variable offset */
	} cases[] = {
		{ 8, 24, 0, 0 },
		{ 24, 8, 0, 0 },
		{ 0, 1, 0, 0 },
		{ 16, 4, 0, 12 },
		{ -8, 8, 2, 6 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		struct vstate *j = NULL;
		bool changed;
		int32_t lo = cases[i].off_a < cases[i].off_b ? cases[i].off_a : cases[i].off_b;

		if (!fixture_init(t, &f))
			goto next;
		set_map_value(reg(f.a, 6), 1, cases[i].off_a);
		set_map_value(reg(f.b, 6), 1, cases[i].off_b);
		{
			uint64_t v[2] = { cases[i].var_lo, cases[i].var_hi };

			model_alpha(&reg(f.a, 6)->b, v, 2);
		}
		CHECK_INT(t, join_copy(t, f.env, &j, f.a, f.b, &changed), 0);
		if (!j)
			goto next;
		CHECK(t, changed);
		CHECK_INT(t, reg(j, 6)->type, PTR_TO_MAP_VALUE);
		CHECK_INT(t, reg(j, 6)->raw[0], 1);
		CHECK_INT(t, reg(j, 6)->off, lo);
		/* every address of a and of b */
		for (uint64_t x = cases[i].var_lo; x <= cases[i].var_hi; x++)
			if (model_has(&reg(f.a, 6)->b, x))
				CHECK_MSG(t, model_has(&reg(j, 6)->b,
						       (uint64_t)(int64_t)(cases[i].off_a - lo) + x),
					  "case %zu: a's offset %d + %llu", i, cases[i].off_a,
					  (unsigned long long)x);
		CHECK_MSG(t, model_has(&reg(j, 6)->b, (uint64_t)(int64_t)(cases[i].off_b - lo)),
			  "case %zu: b's offset %d", i, cases[i].off_b);
next:
		fixture_state_drop(f.env, j);
		fixture_done(t, &f);
	}
}

static void set_packet(struct reg_state *r, int32_t off, int32_t range, uint32_t id,
		       uint64_t var_lo, uint64_t var_hi)
{
	uint64_t v[2] = { var_lo, var_hi };

	reg_mark_ptr(r, PTR_TO_PACKET);
	r->off = off;
	r->range = range;
	r->id = id;
	model_alpha(&r->b, v, 2);
}

/* Does side s (its fixed offset, every var from lo to hi, its checked
 * range) lie inside packet pointer j: each of its addresses one of j's,
 * and each byte j says was checked one that s had checked? Bytes
 * [pkt + var, pkt + var + range) are in the packet. */
static bool packet_inside(const struct reg_state *j, const struct reg_state *s, uint64_t lo,
			  uint64_t hi)
{
	for (uint64_t v = lo; v <= hi; v++) {
		int64_t jv = (int64_t)v + s->off - j->off;

		if (!model_has(&s->b, v))
			continue;
		if (jv < 0 || !model_has(&j->b, (uint64_t)jv))
			return false;
		/* j's checked bytes [jv, jv + j->range) within [v, v + s->range) */
		if (j->range > 0 && (jv < (int64_t)v || jv + j->range > (int64_t)v + s->range))
			return false;
	}
	return true;
}

/* Packet pointers at two fixed offsets (a cursor advanced by different
 * header lengths) join when one side is variable already, or when
 * neither has checked bytes past its offset: the lower offset stays
 * fixed, each side's checked range shrinks by what its offset gave up,
 * and the folded pointer gets an id no other pointer has. Two pointers
 * at constant offsets from the packet's start (id 0) with checked bytes
 * ahead keep apart. */
static void test_join_packet_fold(struct test_ctx *t)
{
	static const struct {
		const char *what;
		int32_t off_a, range_a, off_b, range_b;
		uint32_t id_a, id_b;
		uint64_t var_hi_a, var_hi_b;
		int joined;	/* 0: joined, 1: kept apart */
		int32_t range;	/* the join's */
	} cases[] = {
		{ "variable, same range", 8, 40, 24, 40, 7, 7, 12, 12, 0, 24 },
		{ "variable, other order", 24, 40, 8, 40, 7, 9, 12, 0, 0, 24 },
		{ "one side variable", 14, 34, 34, 34, 0, 5, 0, 20, 0, 14 },
		{ "parse positions", 54, 50, 50, 50, 0, 0, 0, 0, 0, 46 },
		{ "checked ahead, constant", 34, 38, 54, 58, 0, 0, 0, 0, 1, 0 },
		{ "one checked ahead, constant", 34, 34, 54, 58, 0, 0, 0, 0, 1, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		struct vstate *j = NULL;
		bool changed;
		int err;

		if (!fixture_init(t, &f))
			goto next;
		set_packet(reg(f.a, 6), cases[i].off_a, cases[i].range_a, cases[i].id_a, 0,
			   cases[i].var_hi_a);
		set_packet(reg(f.b, 6), cases[i].off_b, cases[i].range_b, cases[i].id_b, 0,
			   cases[i].var_hi_b);
		/* a copy of a's pointer, linked to it on a's side only */
		*reg(f.a, 7) = *reg(f.a, 6);
		set_packet(reg(f.b, 7), cases[i].off_a, 0, 99, 0, 0);
		err = join_copy(t, f.env, &j, f.a, f.b, &changed);
		CHECK_MSG(t, err == cases[i].joined, "%s: join_states() = %d", cases[i].what, err);
		if (!j || err)
			goto next;
		CHECK_MSG(t, reg(j, 6)->off == (cases[i].off_a < cases[i].off_b ? cases[i].off_a :
										 cases[i].off_b),
			  "%s: offset %d", cases[i].what, reg(j, 6)->off);
		CHECK_MSG(t, reg(j, 6)->range == cases[i].range, "%s: range %d", cases[i].what,
			  reg(j, 6)->range);
		CHECK_MSG(t, packet_inside(reg(j, 6), reg(f.a, 6), 0, cases[i].var_hi_a) &&
			     packet_inside(reg(j, 6), reg(f.b, 6), 0, cases[i].var_hi_b),
			  "%s: a side outside the join", cases[i].what);
		/* Folded, its var is its own: no other pointer shares its id. */
		CHECK_MSG(t, reg(j, 6)->id != 0 && reg(j, 6)->id != reg(j, 7)->id,
			  "%s: ids %u and %u", cases[i].what, reg(j, 6)->id, reg(j, 7)->id);
next:
		fixture_state_drop(f.env, j);
		fixture_done(t, &f);
	}
}

/* A negative range is a fact about the pointer (at or beyond the
 * packet's end), not a count of bytes: two of them join to the weaker
 * one (AT_PKT_END), one with a count to 0 (nothing claimed), which
 * holds both sides. */
static void test_join_packet_end(struct test_ctx *t)
{
	static const struct {
		int32_t a, b, join;
	} cases[] = {
		{ AT_PKT_END, BEYOND_PKT_END, AT_PKT_END },
		{ BEYOND_PKT_END, BEYOND_PKT_END, BEYOND_PKT_END },
		{ BEYOND_PKT_END, 40, 0 },
		{ 40, AT_PKT_END, 0 },
		{ 40, 20, 20 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct fixture f;
		struct vstate *j = NULL;
		bool changed;

		if (!fixture_init(t, &f))
			goto next;
		set_packet(reg(f.a, 3), 14, cases[i].a, 0, 0, 0);
		set_packet(reg(f.b, 3), 14, cases[i].b, 0, 0, 0);
		CHECK_INT(t, join_copy(t, f.env, &j, f.a, f.b, &changed), 0);
		if (!j)
			goto next;
		CHECK_MSG(t, reg(j, 3)->range == cases[i].join, "ranges %d and %d: %d",
			  cases[i].a, cases[i].b, reg(j, 3)->range);
		CHECK_INT(t, reg(j, 3)->off, 14);
next:
		fixture_state_drop(f.env, j);
		fixture_done(t, &f);
	}
}

/* A map value pointer as a lookup leaves it, after its NULL check. */
static void set_lookup(struct reg_state *r, const struct bpfvet_map *m)
{
	reg_mark_ptr(r, PTR_TO_MAP_VALUE);
	r->map_ptr = m;
}

/* States equal but for a map value that is NULL on one side (the two
 * branches of its NULL check) join to the maybe-NULL pointer, with an id
 * no other register has, in a register or a spill, either way round. A
 * value that differs elsewhere (it may say which side the program is on),
 * a pointer into the value, a map whose values a NULL check turns into
 * something else, or a lock held keep them apart. */
static void test_join_nullable(struct test_ctx *t)
{
	static struct bpfvet_map hash = { .type = BPF_MAP_TYPE_HASH, .value_size = 16 };
	static struct bpfvet_map outer = { .type = BPF_MAP_TYPE_HASH_OF_MAPS, .value_size = 4 };
	static const struct {
		const char *what;
		const struct bpfvet_map *map;
		int32_t off;
		bool other_differs, locked, spill;
		int joined;
	} cases[] = {
		{ "register", &hash, 0, false, false, false, 0 },
		{ "spill", &hash, 0, false, false, true, 0 },
		{ "a scalar differs too", &hash, 0, true, false, false, 1 },
		{ "spill, a scalar differs too", &hash, 0, true, false, true, 1 },
		{ "inside the value", &hash, 8, false, false, false, 1 },
		{ "map of maps", &outer, 0, false, false, false, 1 },
		{ "lock held", &hash, 0, false, true, false, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		for (int order = 0; order < 2; order++) {
			struct fixture f;
			struct vstate *j = NULL, *ptr_side, *null_side;
			const struct reg_state *jr;
			bool changed;
			int err;

			if (!fixture_init(t, &f))
				goto next;
			ptr_side = order ? f.b : f.a;
			null_side = order ? f.a : f.b;
			if (cases[i].spill) {
				memset(slot(ptr_side, 1)->slot_type, STACK_SPILL, BPF_REG_SIZE);
				set_lookup(&slot(ptr_side, 1)->spilled_ptr, cases[i].map);
				slot(ptr_side, 1)->spilled_ptr.off = cases[i].off;
				spill_scalar(slot(null_side, 1), 0);
			} else {
				set_lookup(reg(ptr_side, 1), cases[i].map);
				reg(ptr_side, 1)->off = cases[i].off;
				reg_mark_known(reg(null_side, 1), 0);
			}
			set_scalar(reg(f.a, 2), 0, 5);
			set_scalar(reg(f.b, 2), 0, cases[i].other_differs ? 6 : 5);
			/* a copy of the flag's value, which the join keeps */
			set_lookup(reg(f.a, 3), &hash);
			set_lookup(reg(f.b, 3), &hash);
			if (cases[i].locked) {
				f.a->active_locks = f.b->active_locks = 1;
				f.a->active_lock_id = f.b->active_lock_id = 42;
			}
			err = join_copy(t, f.env, &j, f.a, f.b, &changed);
			CHECK_MSG(t, err == cases[i].joined, "%s (order %d): join_states() = %d",
				  cases[i].what, order, err);
			if (!j || err)
				goto next;
			jr = cases[i].spill ? &slot(j, 1)->spilled_ptr : reg(j, 1);
			CHECK_MSG(t, changed && jr->type == (PTR_TO_MAP_VALUE | PTR_MAYBE_NULL) &&
				     jr->map_ptr == &hash && jr->off == 0,
				  "%s (order %d): type %#x", cases[i].what, order, jr->type);
			/* A NULL check reads the id: its own, not another's. */
			CHECK_MSG(t, jr->id != 0 && jr->id != reg(j, 3)->id && jr->id != reg(j, 2)->id,
				  "%s (order %d): id %u", cases[i].what, order, jr->id);
			CHECK_INT(t, reg(j, 3)->type, PTR_TO_MAP_VALUE);
			if (cases[i].spill)
				CHECK_INT(t, slot(j, 1)->slot_type[0], STACK_SPILL);
next:
			fixture_state_drop(f.env, j);
			fixture_done(t, &f);
		}
	}
}

/* ---- Dead stack slots at sites (join_slots.c) ----------------------------- */

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define MOVX(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define MOVK(d, v) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, v)
#define ADDK(d, v) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, v)
#define STXDW(d, s, o) INSN(BPF_STX | BPF_MEM | BPF_DW, d, s, o, 0)
#define LDXDW(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define EXIT_INSN INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Two paths meet at insn 8 with fp-8 holding a pointer into the stack on
 * one and the context on the other (shapes that differ); then the tail. */
#define DIAMOND_HEAD							\
	MOVX(6, 1),							\
	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 7),	/* get_prandom_u32 */	\
	INSN(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 4, 0),			\
	MOVX(1, 10),							\
	ADDK(1, -16),							\
	STXDW(10, 1, -8),						\
	INSN(BPF_JMP | BPF_JA, 0, 0, 1, 0),				\
	STXDW(10, 6, -8)

/* Verifies insns (XDP, as root) with --explore=join, no fallback; the
 * summaries walked on at the site. */
static uint64_t join_resumes(struct test_ctx *t, const char *what,
			     const struct bpfvet_insn *insns, size_t cnt)
{
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "diamond", .prog_type = BPF_PROG_TYPE_XDP,
		.expected_attach_type = BPF_XDP, .insns = insns, .insn_cnt = cnt,
	};
	struct bpfvet_verify_opts v = {
		.sz = sizeof(v), .explore = BPFVET_EXPLORE_JOIN, .disable = BPFVET_NO_FALLBACK,
	};
	struct bpfvet_result r = { .sz = sizeof(r) };
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	if (!p)
		return 0;
	CHECK_INT(t, bpfvet_program__verify(p, &v, &r), 0);
	CHECK_MSG(t, r.verdict == BPFVET_ACCEPTED && r.explore == BPFVET_EXPLORE_JOIN,
		  "%s: verdict %d (%s), explore %d", what, r.verdict, r.error, r.explore);
	bpfvet_program__free(p);
	return r.join_resumes;
}

/* A slot no path reads after the site (before writing it) is forgotten
 * there, and the two shapes become one summary; a slot read after it,
 * directly, through a pointer loaded from another slot, or by a
 * subprogram given a pointer to it, keeps them apart. */
static void test_join_dead_slots(struct test_ctx *t)
{
	static const struct bpfvet_insn dead[] = {
		DIAMOND_HEAD, MOVK(0, 2), EXIT_INSN,
	};
	static const struct bpfvet_insn overwritten[] = {
		DIAMOND_HEAD, STXDW(10, 6, -8), LDXDW(1, 10, -8), MOVK(0, 2), EXIT_INSN,
	};
	static const struct bpfvet_insn read[] = {
		DIAMOND_HEAD, LDXDW(1, 10, -8), MOVK(0, 2), EXIT_INSN,
	};
	static const struct bpfvet_insn read_via_spill[] = {
		DIAMOND_HEAD,
		MOVX(2, 10), ADDK(2, -8), STXDW(10, 2, -24), LDXDW(3, 10, -24),
		LDXDW(1, 3, 0), MOVK(0, 2), EXIT_INSN,
	};
	static const struct bpfvet_insn read_by_callee[] = {
		DIAMOND_HEAD,
		MOVX(1, 10), ADDK(1, -8), INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 2),
		MOVK(0, 2), EXIT_INSN,
		LDXDW(1, 1, 0), MOVK(0, 0), EXIT_INSN,
	};
#define RESUMES(prog) join_resumes(t, #prog, prog, sizeof(prog) / sizeof(prog[0]))
	uint64_t merged = RESUMES(dead);

	CHECK_MSG(t, merged == 1, "dead: %llu summaries walked", (unsigned long long)merged);
	CHECK_INT(t, RESUMES(overwritten), merged);
	CHECK_INT(t, RESUMES(read), merged + 1);
	CHECK_INT(t, RESUMES(read_via_spill), merged + 1);
	CHECK(t, RESUMES(read_by_callee) > merged);
#undef RESUMES
}

/* ---- Narrowing by a relation (join_deltas.c) -------------------------------- */

#define REL_RUNS 24

/*
 * join_rel_narrow() on random loops: a counter (r7, or the stack slot
 * fp-16) that each trip moves by d from an entry value, a value (r6, a
 * map-value pointer, or the scalar r8) that each trip moves by a number
 * of [a, b] from its entry value. The states at the head are the
 * abstractions of concrete runs, after k trips (k >= 1, a trip that came
 * back) or k >= 0 (the summary); every run must stay in the narrowed
 * state, and the narrowing must bite now and then.
 */
static void check_rel_round(struct test_ctx *t, struct model_rng *g, long *narrowed,
			    long *checks)
{
	static const int64_t ds[] = { 1, 2, 4, 16, 90, -1, -3 };
	struct fixture f;
	int64_t d = ds[model_rand(g) % 7], a = (int64_t)(model_rand(g) % 12) - 3;
	int64_t b = a + (int64_t)(model_rand(g) % 9), kmin = model_rand(g) % 2;
	bool ptr = model_rand(g) % 2, in_slot = model_rand(g) % 2;
	int ctr = in_slot ? BPF_REG_FP + 1 : 7, loc = ptr ? 6 : 8;
	int32_t off = (int32_t)(model_rand(g) % 3) * 8;
	uint64_t e_c[2], e_v[2], c[REL_RUNS], v[REL_RUNS];
	struct reg_state *rc, *rv;
	struct join_rel r;

	if (!fixture_init(t, &f))
		goto out;
	for (int i = 0; i < 2; i++) {
		e_c[i] = 1000 + model_rand(g) % 3;
		e_v[i] = 40 + model_rand(g) % 5;
	}
	for (int i = 0; i < REL_RUNS; i++) {
		int64_t k = (int64_t)kmin + (int64_t)(model_rand(g) % 9), sum = 0;

		for (int j = 0; j < k; j++)
			sum += a + (int64_t)(model_rand(g) % (uint64_t)(b - a + 1));
		c[i] = e_c[i % 2] + (uint64_t)(k * d);
		v[i] = e_v[i % 2] + (uint64_t)sum;
	}
	/* The entries: f.a; the head: f.b. */
	for (int s = 0; s < 2; s++) {
		struct vstate *st = s ? f.b : f.a;
		const uint64_t *cs = s ? c : e_c, *vs = s ? v : e_v;
		int n = s ? REL_RUNS : 2;

		if (in_slot) {
			spill_scalar(slot(st, 1), 0);
			rc = &slot(st, 1)->spilled_ptr;
		} else {
			rc = reg(st, 7);
			reg_mark_known(rc, 0);
		}
		model_alpha(&rc->b, cs, n);
		rv = reg(st, loc);
		if (ptr) {
			uint64_t w[REL_RUNS];
			int32_t o = s ? off : 0;

			set_map_value(rv, 1, o);
			for (int i = 0; i < n; i++)
				w[i] = vs[i] - (uint64_t)o;
			model_alpha(&rv->b, w, n);
		} else {
			reg_mark_known(rv, 0);
			model_alpha(&rv->b, vs, n);
		}
		/* As joins and widening leave it: wider than the runs. */
		if (s) {
			struct bounds wide_b;
			uint64_t far = 5000 + model_rand(g) % 5000;

			set_of(&wide_b, 0, far);
			bounds_hull(&rv->b, &wide_b);
		}
	}
	r = (struct join_rel){ (uint8_t)loc, (uint8_t)ctr, REL_U64, a, b, d };
	*narrowed += join_rel_narrow(f.env, &r, f.a, f.b, kmin);
	rv = reg(f.b, loc);
	for (int i = 0; i < REL_RUNS; i++) {
		(*checks)++;
		CHECK_MSG(t, model_has(&rv->b, v[i] - (uint64_t)(ptr ? off : 0)),
			  "run %d: value %llu lost (d %lld, steps [%lld, %lld], k >= %lld)", i,
			  (unsigned long long)v[i], (long long)d, (long long)a, (long long)b,
			  (long long)kmin);
	}
out:
	fixture_done(t, &f);
}

static void test_rel_narrow(struct test_ctx *t)
{
	struct model_rng g = { 0x7e1a };
	long narrowed = 0, checks = 0;

	for (long i = 0; i < ROUNDS / 10; i++)
		check_rel_round(t, &g, &narrowed, &checks);
	printf("  join_rel_narrow: %ld runs checked, %ld of %d states narrowed\n", checks,
	       narrowed, ROUNDS / 10);
	CHECK(t, narrowed > 0);
}

/* pyperf's loop: a pointer 40 bytes into a value, 4 bytes a trip, a
 * counter from 0 that the exit test keeps below 600. Merged, the counter
 * is [1, 599] after a trip and [0, 599] at the head; the pointer's offset
 * is then 40 + [4, 2396] and 40 + [0, 2396], whatever the interval of its
 * own that the joins gave it. */
static void test_rel_narrow_case(struct test_ctx *t)
{
	struct fixture f;
	struct join_rel r = { 6, 9, REL_U64, 4, 4, 1 };
	uint64_t z = 0;

	if (!fixture_init(t, &f))
		goto out;
	set_map_value(reg(f.a, 6), 1, 40);
	reg_mark_known(reg(f.a, 9), 0);
	set_map_value(reg(f.b, 6), 1, 44);
	set_of(&reg(f.b, 6)->b, 0, 4095);
	set_scalar(reg(f.b, 9), 1, 599);
	CHECK(t, join_rel_narrow(f.env, &r, f.a, f.b, 1));
	CHECK_INT(t, reg(f.b, 6)->b.smin, 0);
	CHECK_INT(t, reg(f.b, 6)->b.smax, 2392);
	/* The summary: from k = 0. */
	set_map_value(reg(f.b, 6), 1, 40);
	set_of(&reg(f.b, 6)->b, 0, 8191);
	set_scalar(reg(f.b, 9), 0, 599);
	CHECK(t, join_rel_narrow(f.env, &r, f.a, f.b, 0));
	CHECK_INT(t, reg(f.b, 6)->b.smax, 2396);
	CHECK(t, model_has(&reg(f.b, 6)->b, z));
	/* A counter that says nothing (unbounded): nothing to narrow. */
	reg_mark_unknown_imprecise(reg(f.b, 9));
	CHECK(t, !join_rel_narrow(f.env, &r, f.a, f.b, 0));
out:
	fixture_done(t, &f);
}

static void set_stack(struct reg_state *r, uint32_t frameno, int32_t off)
{
	reg_mark_ptr(r, PTR_TO_STACK);
	r->frameno = frameno;
	r->off = off;
}

/* Stack pointers at two offsets: two buffers, kept apart, except at a
 * loop head (JOIN_STACK_MOVES), where they fold into one pointer whose
 * variable offset holds both, in a register and spilled; pointers into
 * different frames stay apart even there. */
static void test_join_stack_fold(struct test_ctx *t)
{
	static const struct {
		int32_t off_a, off_b;
		uint32_t frame_b;
		int joined;
	} cases[] = {
		{ -64, -56, 0, 0 },
		{ -8, -64, 0, 0 },
		{ -16, -16, 0, 0 },
		{ -64, -56, 1, 1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int32_t lo = cases[i].off_a < cases[i].off_b ? cases[i].off_a : cases[i].off_b;
		struct vstate *j = NULL;
		struct fixture f;
		bool changed;

		if (!fixture_init(t, &f))
			goto next;
		set_stack(reg(f.a, 6), 0, cases[i].off_a);
		set_stack(reg(f.b, 6), cases[i].frame_b, cases[i].off_b);
		memset(slot(f.a, 1)->slot_type, STACK_SPILL, BPF_REG_SIZE);
		memset(slot(f.b, 1)->slot_type, STACK_SPILL, BPF_REG_SIZE);
		slot(f.a, 1)->spilled_ptr = *reg(f.a, 6);
		slot(f.b, 1)->spilled_ptr = *reg(f.b, 6);
		CHECK_MSG(t, join_copy(t, f.env, &j, f.a, f.b, &changed) ==
				     (cases[i].off_a == cases[i].off_b && !cases[i].frame_b ? 0 : 1),
			  "case %zu: without JOIN_STACK_MOVES", i);
		fixture_state_drop(f.env, j);
		j = NULL;
		CHECK_MSG(t, join_copy_how(t, f.env, &j, f.a, f.b, JOIN_STACK_MOVES, &changed) ==
				     cases[i].joined,
			  "case %zu: with JOIN_STACK_MOVES", i);
		if (!j || cases[i].joined)
			goto next;
		CHECK(t, changed == (cases[i].off_a != cases[i].off_b));
		for (int w = 0; w < 2; w++) {
			const struct reg_state *r = w ? &slot(j, 1)->spilled_ptr : reg(j, 6);

			CHECK_INT(t, r->type, PTR_TO_STACK);
			CHECK_INT(t, r->off, lo);
			CHECK_MSG(t, model_has(&r->b, (uint64_t)(cases[i].off_a - lo)) &&
					     model_has(&r->b, (uint64_t)(cases[i].off_b - lo)),
				  "case %zu (%s): both offsets", i, w ? "spilled" : "register");
		}
		/* (states_equal() compares stack pointers exactly, as the
		 * kernel's regsafe() does: no containment check here.) */
next:
		fixture_state_drop(f.env, j);
		fixture_done(t, &f);
	}
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_join_scalars);
	RUN(&t, test_join_slot_bytes);
	RUN(&t, test_join_keeps_apart);
	RUN(&t, test_join_invalid_slot);
	RUN(&t, test_join_scalar_ids);
	RUN(&t, test_join_fold_offsets);
	RUN(&t, test_join_stack_fold);
	RUN(&t, test_join_packet_fold);
	RUN(&t, test_join_packet_end);
	RUN(&t, test_join_nullable);
	RUN(&t, test_join_dead_slots);
	RUN(&t, test_rel_narrow);
	RUN(&t, test_rel_narrow_case);
	return test_finish(&t);
}
