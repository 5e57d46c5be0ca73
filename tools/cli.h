/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BPFVET_CLI_H
#define BPFVET_CLI_H

/* Exit statuses shared by every subcommand. */
#define EXIT_ACCEPTED	0	/* every program accepted */
#define EXIT_REJECTED	1	/* some program rejected (or a verdict differs) */
#define EXIT_USAGE	2	/* usage or load error */

#include <stdint.h>

struct technique {
	const char *flag;	/* command-line switch */
	const char *name;	/* column name in the ablation report */
	uint64_t bit;		/* BPFVET_NO_* */
};

/* Terminated by an entry with a NULL flag. */
extern const struct technique techniques[];
/* 0 if arg is a technique switch (and records it), -1 otherwise. */
int parse_technique_flag(const char *arg, uint64_t *disable);

int cmd_dump(int argc, char **argv);
int cmd_ablate(int argc, char **argv);
int cmd_verify(int argc, char **argv);

#endif
