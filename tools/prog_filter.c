/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program selection by -p, shared by verify, dump, kernel and ablate: a
 * glob over the program's name or section, repeatable; a glob that starts
 * with '!' excludes what it matches, as veristat's filters do. A program
 * is selected when it matches some including glob (or there is none) and
 * no excluding one.
 */
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int prog_filter_add(struct prog_filter *f, const char *glob)
{
	if (f->cnt == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		const char **g = reallocarray(f->globs, (size_t)cap, sizeof(*g));

		if (!g) {
			fprintf(stderr, "bpfvet: out of memory for the -p filters\n");
			return -1;
		}
		f->globs = g;
		f->cap = cap;
	}
	f->globs[f->cnt++] = glob;
	return 0;
}

void prog_filter_free(struct prog_filter *f)
{
	free(f->globs);
	f->globs = NULL;
	f->cnt = f->cap = 0;
}

static bool glob_matches(const char *glob, const struct bpfvet_program *p)
{
	return !fnmatch(glob, bpfvet_program__name(p), 0) ||
	       !fnmatch(glob, bpfvet_program__section(p), 0);
}

bool prog_filter_match(const struct prog_filter *f, const struct bpfvet_program *p)
{
	bool has_include = false, included = false;

	for (int i = 0; i < f->cnt; i++) {
		const char *g = f->globs[i];

		if (g[0] == '!') {
			if (glob_matches(g + 1, p))
				return false;
			continue;
		}
		has_include = true;
		included = included || glob_matches(g, p);
	}
	return !has_include || included;
}

int prog_filter_each(const struct prog_filter *f, const char *path,
		     const struct bpfvet_open_opts *base, prog_visit_fn fn, void *ctx)
{
	struct bpfvet_open_opts oo = *base;
	struct bpfvet_object *obj;
	char err[256] = "";
	int rc, worst = 0, nth = 0;

	oo.errbuf = err;
	oo.errbuf_sz = sizeof(err);
	rc = bpfvet_object__open(path, &oo, &obj);
	if (rc) {
		fprintf(stderr, "bpfvet: %s: %s\n", path, err[0] ? err : strerror(-rc));
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (!prog_filter_match(f, p))
			continue;
		rc = fn(ctx, path, p, nth++);
		if (rc > worst)
			worst = rc;
	}
	bpfvet_object__close(obj);
	if (!nth) {
		fprintf(stderr, "bpfvet: %s: no program matches\n", path);
		return EXIT_USAGE;
	}
	return worst;
}
