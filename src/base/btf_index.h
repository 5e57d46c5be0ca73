/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A name index of the target kernel's BTF. The kernel knows the ids of the
 * structs its helpers take and return from build time; bpfvet finds them
 * by name, and libbpf's btf__find_by_name_kind() walks all of vmlinux's
 * types (over 100,000) for each search. The index is built once when the
 * object is opened and answers the same as btf__find_by_name_kind(): the
 * lowest id with that name and kind.
 */
#ifndef BPFVET_BTF_INDEX_H
#define BPFVET_BTF_INDEX_H

#include <stdint.h>

struct btf;
struct btf_index;

/* NULL when out of memory (searches then fall back to libbpf's). */
struct btf_index *btf_index_build(const struct btf *btf);
void btf_index_free(struct btf_index *ix);
/* Id of the first type named `name` of kind `kind`, or -ENOENT. `ix`
 * may be NULL: a linear search of `btf` then. */
int btf_index_find(const struct btf_index *ix, const struct btf *btf, const char *name,
		   uint32_t kind);

#endif
