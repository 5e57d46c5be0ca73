/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BPFVET_CLI_H
#define BPFVET_CLI_H

/* Exit statuses shared by every subcommand. */
#define EXIT_ACCEPTED	0	/* every program accepted */
#define EXIT_REJECTED	1	/* some program rejected (or a verdict differs) */
#define EXIT_USAGE	2	/* usage or load error */

int cmd_dump(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_kernel(int argc, char **argv);

#endif
