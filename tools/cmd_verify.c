/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>

#include "cli.h"

int cmd_verify(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	fprintf(stderr, "bpfvet verify: verification is not implemented yet\n");
	return EXIT_USAGE;
}
