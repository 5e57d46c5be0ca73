/* SPDX-License-Identifier: BSD-2-Clause */
/* Helpers shared by the loader tests: open a compiled test object, look
 * programs and maps up by name. */
#ifndef BPFVET_LOADER_UTIL_H
#define BPFVET_LOADER_UTIL_H

#include "loader/object.h"
#include "test.h"

/* Opens build/progs/NAME.o; on failure records a test failure and
 * returns NULL. prog_type may be NULL. */
struct bpfvet_object *lu_open(struct test_ctx *t, const char *name,
			      const char *prog_type);
struct bpfvet_program *lu_prog(struct test_ctx *t, const struct bpfvet_object *obj,
			       const char *name);
const struct bpfvet_map *lu_map(struct test_ctx *t, const struct bpfvet_object *obj,
				const char *name, int *idx);
/* Silences libbpf's own warnings (its BTF parser talks on stderr). */
void lu_quiet_libbpf(void);
/* Reads a whole file; caller frees. NULL on error. */
void *lu_read(const char *path, size_t *size);

#endif
