/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>

#include "cli.h"

int cmd_dump(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bpfvet dump: not implemented yet\n");
	return EXIT_USAGE;
}
