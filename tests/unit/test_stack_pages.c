/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stack pages shared between states (src/state/state.h): copies are
 * private, a checkpoint or a queued path takes its parent's page where the
 * slots are equal, a write to a shared page copies it first, and every
 * holder lets go of its pages, packed or not.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "state/state.h"
#include "state_fixture.h"
#include "test.h"

static struct vet_env *env_new(struct test_ctx *t)
{
	struct vet_env *env = calloc(1, sizeof(*env));

	CHECK(t, env != NULL);
	if (env)
		vet_mem_init(&env->mem, 0);
	return env;
}

/* Every block of the test went back: the frames' pool and the pages. */
static void env_done(struct test_ctx *t, struct vet_env *env)
{
	if (!env)
		return;
	frame_pool_drain(env);
	CHECK_INT(t, env->mem.cur, 0);
	vet_mem_release(&env->mem);
	free(env);
}

/* A one-frame state with `slots` 8-byte stack slots, slot i spilled with
 * the constant i. */
static struct vstate *state_new(struct test_ctx *t, struct vet_env *env, int slots)
{
	struct vstate *st = fixture_state_new(t, env, slots);

	for (int i = 0; st && i < slots; i++) {
		struct stack_slot *s = stack_slot_at(st->frame[0], i);

		memset(s->slot_type, STACK_SPILL, sizeof(s->slot_type));
		s->spilled_ptr.type = SCALAR_VALUE;
		s->spilled_ptr.off = i;
	}
	return st;
}

static const struct stack_page *page_of(const struct vstate *st, int spi)
{
	return st->frame[0]->pages[spi / STACK_PAGE_SLOTS];
}

/* Growing the stack adds zeroed pages; the rest of a page stays zero. */
static void check_grow(struct test_ctx *t)
{
	struct vet_env *env = env_new(t);
	struct vstate *st = env ? state_new(t, env, 3) : NULL;
	struct func_state *f;

	if (!st)
		goto out;
	f = st->frame[0];
	CHECK_INT(t, f->allocated_stack, 24);
	CHECK(t, f->pages[(3 + STACK_PAGE_SLOTS - 1) / STACK_PAGE_SLOTS] == NULL);
	CHECK_INT(t, frame_grow_stack(env, f, MAX_BPF_STACK), 0);
	CHECK_INT(t, f->allocated_stack, MAX_BPF_STACK);
	CHECK_INT(t, stack_slot_at(f, 2)->spilled_ptr.off, 2);
	CHECK_INT(t, stack_slot_at(f, 3)->slot_type[0], STACK_INVALID);
	CHECK_INT(t, stack_slot_at(f, 63)->spilled_ptr.type, NOT_INIT);
	CHECK_INT(t, frame_grow_stack(env, f, MAX_BPF_STACK + 8), -E2BIG);
out:
	fixture_state_drop(env, st);
	env_done(t, env);
}

/* A checkpoint shares its parent's unchanged pages and owns the changed
 * one; a write to a shared page copies it and leaves the other holder
 * as it was. */
static void check_share_and_own(struct test_ctx *t)
{
	struct vet_env *env = env_new(t);
	struct vstate *cur = env ? state_new(t, env, 8) : NULL;
	struct vstate *ck1 = calloc(1, sizeof(*ck1)), *ck2 = calloc(1, sizeof(*ck2));
	const struct stack_page *shared;

	if (!cur || !ck1 || !ck2)
		goto out;
	env->cur = cur;
	CHECK_INT(t, state_copy(env, ck1, cur), 0);
	/* A copy is private: the current state writes in place. */
	CHECK(t, page_of(ck1, 0) != page_of(cur, 0));
	CHECK_INT(t, page_of(ck1, 0)->holders, 1);
	cur->parent = ck1;
	stack_slot_at(cur->frame[0], 5)->spilled_ptr.off = 55;
	CHECK_INT(t, state_copy(env, ck2, cur), 0);
	state_share_pages(env, ck2);
	for (int spi = 0; spi < 8; spi += STACK_PAGE_SLOTS) {
		bool changed = spi / STACK_PAGE_SLOTS == 5 / STACK_PAGE_SLOTS;

		CHECK(t, (page_of(ck2, spi) == page_of(ck1, spi)) == !changed);
		CHECK_INT(t, page_of(ck1, spi)->holders, changed ? 1 : 2);
	}
	CHECK_INT(t, stack_slot_at(ck2->frame[0], 5)->spilled_ptr.off, 55);
	CHECK_INT(t, stack_slot_at(ck1->frame[0], 5)->spilled_ptr.off, 5);
	/* Precision marks on a checkpoint go to its own copy of the page. */
	shared = page_of(ck2, 0);
	CHECK_INT(t, frame_own_slot(env, ck2->frame[0], 0), 0);
	CHECK(t, page_of(ck2, 0) != shared);
	CHECK_INT(t, shared->holders, 1);
	stack_slot_at(ck2->frame[0], 0)->spilled_ptr.precise = true;
	CHECK(t, !stack_slot_at(ck1->frame[0], 0)->spilled_ptr.precise);
	/* Owning a page already owned copies nothing. */
	shared = page_of(ck2, 0);
	CHECK_INT(t, frame_own_slot(env, ck2->frame[0], 1), 0);
	CHECK(t, page_of(ck2, 0) == shared);
out:
	fixture_state_drop(env, ck2);
	fixture_state_drop(env, ck1);
	fixture_state_drop(env, cur);
	env_done(t, env);
}

/* A packed queued path keeps its pages; it shares with its parent when
 * packed, owns all again when it resumes, and lets go when dropped. */
static void check_pack(struct test_ctx *t)
{
	struct vet_env *env = env_new(t);
	struct vstate *cur = env ? state_new(t, env, 6) : NULL;
	struct vstate *ck = calloc(1, sizeof(*ck)), *q1 = calloc(1, sizeof(*q1));
	struct vstate *q2 = calloc(1, sizeof(*q2));
	uint64_t *p1 = NULL, *p2 = NULL;

	if (!cur || !ck || !q1 || !q2)
		goto out;
	env->cur = cur;
	CHECK_INT(t, state_copy(env, ck, cur), 0);
	cur->parent = ck;
	CHECK_INT(t, state_copy(env, q1, cur), 0);
	CHECK_INT(t, state_copy(env, q2, cur), 0);
	q1->parent = q2->parent = ck;
	CHECK_INT(t, state_pack(env, q1, &p1), 0);
	CHECK_INT(t, state_pack(env, q2, &p2), 0);
	CHECK(t, q1->frame[0] == NULL);
	CHECK_INT(t, page_of(ck, 0)->holders, 3);
	CHECK_INT(t, state_unpack(env, q1, p1), 0);
	CHECK(t, page_of(q1, 2) == page_of(ck, 2));
	CHECK_INT(t, state_own_stacks(env, q1), 0);
	CHECK(t, page_of(q1, 2) != page_of(ck, 2));
	CHECK_INT(t, page_of(ck, 2)->holders, 2);
	CHECK_INT(t, stack_slot_at(q1->frame[0], 4)->spilled_ptr.off, 4);
	state_packed_release(env, q2, p2, 0);
	CHECK_INT(t, page_of(ck, 2)->holders, 1);
out:
	vet_free(env, p1);
	vet_free(env, p2);
	free(q2);
	fixture_state_drop(env, q1);
	fixture_state_drop(env, ck);
	fixture_state_drop(env, cur);
	env_done(t, env);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_run(&t, "stack_pages_grow", check_grow);
	test_run(&t, "stack_pages_share_and_own", check_share_and_own);
	test_run(&t, "stack_pages_pack", check_pack);
	return test_finish(&t);
}
