/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "loader_util.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

void lu_quiet_libbpf(void)
{
	libbpf_set_print(quiet);
}

struct bpfvet_object *lu_open(struct test_ctx *t, const char *name,
			      const char *prog_type)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts),
		.prog_type = prog_type,
		.errbuf = err,
		.errbuf_sz = sizeof(err),
	};
	struct bpfvet_object *obj = NULL;
	int rc;

	test_prog_path(path, sizeof(path), name);
	rc = bpfvet_object__open(path, &opts, &obj);
	CHECK_MSG(t, rc == 0, "open %s: %d (%s)", path, rc, err);
	return rc ? NULL : obj;
}

struct bpfvet_program *lu_prog(struct test_ctx *t, const struct bpfvet_object *obj,
			       const char *name)
{
	size_t i;

	for (i = 0; obj && i < bpfvet_object__prog_cnt(obj); i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (!strcmp(bpfvet_program__name(p), name))
			return p;
	}
	CHECK_MSG(t, 0, "no program %s", name);
	return NULL;
}

const struct bpfvet_map *lu_map(struct test_ctx *t, const struct bpfvet_object *obj,
				const char *name, int *idx)
{
	size_t i;

	for (i = 0; obj && i < bpfvet_object__map_cnt(obj); i++) {
		const struct bpfvet_map *m = bpfvet_object__map(obj, i);

		if (!strcmp(bpfvet_map__name(m), name)) {
			if (idx)
				*idx = (int)i;
			return m;
		}
	}
	CHECK_MSG(t, 0, "no map %s", name);
	return NULL;
}

void *lu_read(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 &&
	    fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*size = (size_t)n;
	}
	fclose(f);
	return buf;
}
