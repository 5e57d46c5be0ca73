/* SPDX-License-Identifier: BSD-2-Clause */
/* Command-line names of the pruning techniques that can be switched off. */
#include <stdio.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"

#define JOIN BPFVET_EXPLORE_JOIN

const struct technique techniques[] = {
	{ "--no-prune", "no-prune", BPFVET_NO_PRUNE, 0, 0 },
	{ "--no-liveness", "no-liveness", BPFVET_NO_LIVENESS, 0, 0 },
	{ "--no-stack-liveness", "no-stack-liveness", BPFVET_NO_STACK_LIVENESS, 0, 0 },
	{ "--no-precision", "no-precision", BPFVET_NO_PRECISION, 0, 0 },
	{ "--no-widen", "no-widen", BPFVET_NO_WIDEN, 0, 0 },
	{ "--no-evict", "no-evict", BPFVET_NO_EVICT, 0, 0 },
	{ "--checkpoint=every", "checkpoint-every", BPFVET_CHECKPOINT_EVERY, 1, 0 },
	{ "--useful-checkpoints", "useful-checkpoints", BPFVET_USEFUL_CHECKPOINTS, 1, 0 },
	{ "--evict-unreachable", "evict-unreachable", BPFVET_EVICT_UNREACHABLE, 1, 0 },
	{ "--join-checkpoints", "join-checkpoints", BPFVET_JOIN_CHECKPOINTS, 1, 0 },
	{ "--eager-checkpoints", "eager-checkpoints", BPFVET_EAGER_CHECKPOINTS, 1, 0 },
	{ "--prune=max", "prune-max", BPFVET_PRUNE_MAX, 1, 0 },
	/* The joined walk with all its ingredients, then without each. */
	{ "--explore=join", "explore-join", 0, 0, JOIN },
	{ "--no-join-points", "join-no-join-points", BPFVET_NO_JOIN_POINTS, 0, JOIN },
	{ "--no-loop-widen", "join-no-loop-widen", BPFVET_NO_LOOP_WIDEN, 0, JOIN },
	{ "--no-thresholds", "join-no-thresholds", BPFVET_NO_THRESHOLDS, 0, JOIN },
	{ "--no-call-summaries", "join-no-call-summaries", BPFVET_NO_CALL_SUMMARIES, 0, JOIN },
	{ "--no-call-widen", "join-no-call-widen", BPFVET_NO_CALL_WIDEN, 0, JOIN },
	{ "--no-stack-fold", "join-no-stack-fold", BPFVET_NO_STACK_FOLD, 0, JOIN },
	{ "--no-nested-deltas", "join-no-nested-deltas", BPFVET_NO_NESTED_DELTAS, 0, JOIN },
	{ "--no-fallback", "join-no-fallback", BPFVET_NO_FALLBACK, 0, JOIN },
	{ NULL, NULL, 0, 0, 0 },
};

int parse_explore_flag(const char *arg, enum bpfvet_explore *explore)
{
	if (!strcmp(arg, "--explore=kernel"))
		*explore = BPFVET_EXPLORE_KERNEL;
	else if (!strcmp(arg, "--explore=join"))
		*explore = BPFVET_EXPLORE_JOIN;
	else
		return -1;
	return 0;
}

const char *explore_name(enum bpfvet_explore explore)
{
	return explore == BPFVET_EXPLORE_JOIN ? "join" : "kernel";
}

int parse_technique_flag(const char *arg, struct prune_switches *sw)
{
	if (!strcmp(arg, "--checkpoint=kernel")) {
		sw->enable &= ~BPFVET_CHECKPOINT_EVERY;
		return 0;
	}
	if (!parse_explore_flag(arg, &sw->explore))
		return 0;
	if (!strcmp(arg, "--prune=kernel")) {
		sw->enable = 0;
		return 0;
	}
	for (const struct technique *t = techniques; t->flag; t++) {
		if (strcmp(arg, t->flag))
			continue;
		if (!t->bit)
			sw->explore = t->explore;
		else if (t->on)
			sw->enable |= t->bit;
		else
			sw->disable |= t->bit;
		return 0;
	}
	return -1;
}

int technique_check(const struct prune_switches *sw)
{
	for (const struct technique *t = techniques; t->flag; t++) {
		if (t->explore != JOIN || !(sw->disable & t->bit) || sw->explore == JOIN)
			continue;
		fprintf(stderr, "bpfvet: %s needs --explore=join (it switches off a part of it)\n",
			t->flag);
		return -1;
	}
	return 0;
}
