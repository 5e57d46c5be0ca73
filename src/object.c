/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>

#include "object.h"

int bpfvet_object__open(const char *path, const struct bpfvet_open_opts *opts,
			struct bpfvet_object **objp)
{
	(void)path;
	(void)opts;
	*objp = NULL;
	return -EOPNOTSUPP;
}
