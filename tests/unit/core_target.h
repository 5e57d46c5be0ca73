/* SPDX-License-Identifier: BSD-2-Clause */
/* A small target BTF for the CO-RE tests of tests/progs/core_crafted.c. */
#ifndef BPFVET_CORE_TARGET_H
#define BPFVET_CORE_TARGET_H

#include <stddef.h>

/* Writes the BTF to a new file under dir; the path goes to path (caller's
 * buffer). Returns 0 or a negative errno. */
int core_target_write(const char *dir, char *path, size_t path_sz);

#endif
