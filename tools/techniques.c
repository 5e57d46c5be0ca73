/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line names of the pruning techniques that can be switched off. */
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

const struct technique techniques[] = {
	{ "--no-prune", "no-prune", BPFVET_NO_PRUNE, 0 },
	{ "--no-liveness", "no-liveness", BPFVET_NO_LIVENESS, 0 },
	{ "--no-stack-liveness", "no-stack-liveness", BPFVET_NO_STACK_LIVENESS, 0 },
	{ "--no-precision", "no-precision", BPFVET_NO_PRECISION, 0 },
	{ "--no-widen", "no-widen", BPFVET_NO_WIDEN, 0 },
	{ "--no-evict", "no-evict", BPFVET_NO_EVICT, 0 },
	{ "--checkpoint=every", "checkpoint-every", BPFVET_CHECKPOINT_EVERY, 1 },
	{ "--useful-checkpoints", "useful-checkpoints", BPFVET_USEFUL_CHECKPOINTS, 1 },
	{ "--evict-unreachable", "evict-unreachable", BPFVET_EVICT_UNREACHABLE, 1 },
	{ "--join-checkpoints", "join-checkpoints", BPFVET_JOIN_CHECKPOINTS, 1 },
	{ "--eager-checkpoints", "eager-checkpoints", BPFVET_EAGER_CHECKPOINTS, 1 },
	{ "--prune=max", "prune-max", BPFVET_PRUNE_MAX, 1 },
	{ "--no-join-points", "join-no-join-points", BPFVET_NO_JOIN_POINTS, 0 },
	{ "--no-fallback", "join-no-fallback", BPFVET_NO_FALLBACK, 0 },
	{ NULL, NULL, 0, 0 },
};

int parse_technique_flag(const char *arg, struct prune_switches *sw)
{
	if (!strcmp(arg, "--checkpoint=kernel")) {
		sw->enable &= ~BPFVET_CHECKPOINT_EVERY;
		return 0;
	}
	if (!strcmp(arg, "--explore=join") || !strcmp(arg, "--explore=kernel")) {
		sw->explore = arg[10] == 'j' ? BPFVET_EXPLORE_JOIN : BPFVET_EXPLORE_KERNEL;
		return 0;
	}
	if (!strcmp(arg, "--prune=kernel")) {
		sw->enable = 0;
		return 0;
	}
	for (const struct technique *t = techniques; t->flag; t++) {
		if (!strcmp(arg, t->flag)) {
			if (t->on)
				sw->enable |= t->bit;
			else
				sw->disable |= t->bit;
			return 0;
		}
	}
	return -1;
}
