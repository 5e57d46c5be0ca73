/* SPDX-License-Identifier: BSD-2-Clause */
/* Reading a libbpf-style opts struct whose first field is its size: a
 * field the caller's (older, smaller) struct lacks reads as def. */
#ifndef BPFVET_OPTS_H
#define BPFVET_OPTS_H

#include <stddef.h>

#define OPTS_GET(opts, field, def) \
	((opts) && (opts)->sz >= offsetof(__typeof__(*(opts)), field) + sizeof((opts)->field) ? \
	 (opts)->field : (def))

#endif
