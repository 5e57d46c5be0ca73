/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A target kernel's BTF and its name index, shared by reference count:
 * every object opened for a target keeps a reference, so that a tool that
 * opens hundreds of objects for one kernel parses its BTF (5 MB for 6.18,
 * tens of milliseconds each time) once. An object opened with a
 * btf_custom_path gets a target of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/base.h"
#include "object.h"

int target_open(const char *path, struct errbuf *eb, struct bpfvet_target **tp)
{
	struct bpfvet_target *t;
	int err;

	*tp = NULL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	t->btf = btf__parse(path, NULL);
	err = libbpf_get_error(t->btf);
	if (err) {
		free(t);
		return errbuf_set(eb, err < 0 ? err : -EINVAL, "cannot read target BTF %s: %s",
				  path, strerror(err < 0 ? -err : EINVAL));
	}
	/* Without memory for the index, lookups scan the types instead. */
	t->index = btf_index_build(t->btf);
	t->refs = 1;
	*tp = t;
	return 0;
}

struct bpfvet_target *target_get(struct bpfvet_target *t)
{
	if (t)
		t->refs++;
	return t;
}

void target_put(struct bpfvet_target *t)
{
	if (!t || --t->refs > 0)
		return;
	btf_index_free(t->index);
	btf__free(t->btf);
	free(t);
}

int bpfvet_target__open(const struct bpfvet_target_opts *opts,
			struct bpfvet_target **targetp)
{
	struct errbuf eb;

	if (!targetp)
		return -EINVAL;
	*targetp = NULL;
	if (!opts || !opts_valid(opts, sizeof(*opts)))
		return -EINVAL;
	if (OPTS_HAS(opts, errbuf_sz))
		errbuf_init(&eb, opts->errbuf, opts->errbuf_sz);
	else
		errbuf_init(&eb, NULL, 0);
	if (!OPTS_HAS(opts, btf_path) || !opts->btf_path)
		return errbuf_set(&eb, -EINVAL, "no target BTF path");
	return target_open(opts->btf_path, &eb, targetp);
}

void bpfvet_target__close(struct bpfvet_target *target)
{
	target_put(target);
}
