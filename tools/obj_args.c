/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The command line of a subcommand that takes object files (verify,
 * kernel): every argument starting with '-' is an option for the
 * subcommand's own parser, -h/--help prints its usage, the rest are paths.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int obj_args_scan(int argc, char **argv, const struct obj_args_parser *p,
		  const char ***paths, int *path_cnt)
{
	*paths = calloc((size_t)argc, sizeof(**paths));
	if (!*paths)
		return -ENOMEM;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			p->usage(stdout);
			return 1;
		}
		if (argv[i][0] == '-' && argv[i][1]) {
			if (p->option(argc, argv, &i, p->args))
				return -EINVAL;
			continue;
		}
		(*paths)[(*path_cnt)++] = argv[i];
	}
	if (!*path_cnt) {
		p->usage(stderr);
		return -EINVAL;
	}
	return 0;
}
