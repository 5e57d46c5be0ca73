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
