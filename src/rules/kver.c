/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The version table. Each entry was settled by the recorded kernels
 * (tests/conformance/kernel-6.1.csv, kernel-6.12.csv): 6.1 rejects the
 * ISA v4 instructions that 6.12 and 6.18 accept.
 */
#include <stddef.h>

#include "kver.h"

#define KV(a, b, c) (((uint32_t)(a) << 16) | ((uint32_t)(b) << 8) | (uint32_t)(c))

static const struct {
	uint32_t since;
	const char *name;
} features[KVER__COUNT] = {
	[KVER_ISA_V4] = { KV(6, 6, 0), "ISA v4 (6.6)" },
	/* Messages. Where the recordings only bound a change, to (6.1, 6.12]
	 * or (6.12, 6.18], it is dated by the first release of the span. */
	[KVER_MSG_RESOURCE_LEAK] = { KV(6, 13, 0), "one resource-leak check at exits (6.13)" },
	[KVER_MSG_RETVAL_BOUNDS] = { KV(6, 8, 0), "return values told by bounds (6.8)" },
	[KVER_MSG_HELPER_NOT_OFFERED] = { KV(6, 2, 0), "helpers not offered named so (6.2)" },
	[KVER_MSG_HELPER_ACCESS_KIND] = { KV(6, 13, 0), "helper stack accesses as reads or writes (6.13)" },
	[KVER_MSG_VAR_OFF_STACK_OFF] = { KV(6, 2, 0), "off= in variable-offset stack messages (6.2)" },
	[KVER_MSG_CONST_TNUM_NUMBER] = { KV(6, 2, 0), "constant offsets as numbers (6.2)" },
	[KVER_MSG_SUBPROG_NAMED] = { KV(6, 2, 0), "subprograms named in messages (6.2)" },
	[KVER_MSG_LOOP_STATES] = { KV(6, 2, 0), "states printed with an infinite loop (6.2)" },
	[KVER_MSG_ZERO_SIZE_BOUNDS] = { KV(6, 2, 0), "zero-sized helper reads told by bounds (6.2)" },
	[KVER_MSG_ARG_TYPE_LISTS] = { KV(6, 2, 0), "helper argument types listed as now (6.2)" },
	[KVER_STACK_ROUND_16] = { KV(6, 2, 0), "frames rounded to 16 bytes in the combined stack (6.2)" },
	[KVER_LOCK_SUBPROG_CALLS] = { KV(6, 2, 0), "subprogram calls under a spin lock (6.2)" },
	[KVER_ST_INTO_CTX] = { KV(6, 2, 0), "BPF_ST into the context (6.2)" },
	[KVER_MSG_RINGBUF_NAME] = { KV(6, 2, 0), "ring buffer memory named ringbuf_mem (6.2)" },
	[KVER_MSG_RELEASE_OFF] = { KV(6, 2, 0), "offsets of released pointers named so (6.2)" },
	[KVER_LAZY_GLOBAL_SUBPROGS] = { KV(6, 2, 0), "global functions verified after main (6.2)" },
	[KVER_CALL_CYCLES_IN_CFG] = { KV(6, 2, 0), "call cycles left to the walk (6.2)" },
};

bool kver_has(uint32_t kver, enum kver_feature f)
{
	if ((unsigned int)f >= KVER__COUNT)
		return false;
	return !kver || kver >= features[f].since;
}

const char *kver_feature_name(enum kver_feature f)
{
	return (unsigned int)f < KVER__COUNT ? features[f].name : "?";
}
