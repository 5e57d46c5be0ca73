/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Hand-built path states for the unit tests: one frame at instruction 0,
 * with a stack of a given size, every register and slot as a fresh
 * frame has them (unreadable, invalid).
 */
#ifndef BPFVET_TEST_STATE_FIXTURE_H
#define BPFVET_TEST_STATE_FIXTURE_H

#include "state/state.h"
#include "test.h"

/* A one-frame state with `slots` 8-byte stack slots, or NULL (a failed
 * CHECK says why). Freed with fixture_state_drop(). */
struct vstate *fixture_state_new(struct test_ctx *t, struct vet_env *env, int slots);
void fixture_state_drop(struct vet_env *env, struct vstate *st);

#endif
