/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line names of the pruning techniques that can be switched off. */
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

const struct technique techniques[] = {
	{ "--no-prune", "no-prune", BPFVET_NO_PRUNE },
	{ "--no-liveness", "no-liveness", BPFVET_NO_LIVENESS },
	{ "--no-stack-liveness", "no-stack-liveness", BPFVET_NO_STACK_LIVENESS },
	{ "--no-precision", "no-precision", BPFVET_NO_PRECISION },
	{ "--no-widen", "no-widen", BPFVET_NO_WIDEN },
	{ "--no-evict", "no-evict", BPFVET_NO_EVICT },
	{ "--checkpoint=every", "checkpoint-every", BPFVET_CHECKPOINT_EVERY },
	{ NULL, NULL, 0 },
};

int parse_technique_flag(const char *arg, uint64_t *disable)
{
	if (!strcmp(arg, "--checkpoint=kernel")) {
		*disable &= ~BPFVET_CHECKPOINT_EVERY;
		return 0;
	}
	for (const struct technique *t = techniques; t->flag; t++) {
		if (!strcmp(arg, t->flag)) {
			*disable |= t->bit;
			return 0;
		}
	}
	return -1;
}
