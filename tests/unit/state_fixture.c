/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>

#include "state_fixture.h"

struct vstate *fixture_state_new(struct test_ctx *t, struct vet_env *env, int slots)
{
	struct vstate *st = calloc(1, sizeof(*st));

	CHECK(t, st != NULL);
	if (!st)
		return NULL;
	st->frame[0] = vet_calloc(env, 1, sizeof(*st->frame[0]));
	CHECK(t, st->frame[0] != NULL);
	if (!st->frame[0]) {
		free(st);
		return NULL;
	}
	frame_init(env, st->frame[0], -1, 0, 0);
	CHECK_INT(t, frame_grow_stack(env, st->frame[0], slots * BPF_REG_SIZE), 0);
	return st;
}

void fixture_state_drop(struct vet_env *env, struct vstate *st)
{
	if (st)
		state_clear(env, st);
	free(st);
}
