/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_index.h"

/* Open addressing with linear probing, no deletions: the entries of one
 * name sit along its probe sequence in the order they were inserted, by
 * ascending id, so the first match found is the lowest id. */
struct btf_index {
	uint32_t mask;		/* slots - 1, a power of two minus one */
	uint32_t *slots;	/* type ids, 0 for an empty slot */
};

static uint32_t name_hash(const char *s)
{
	uint32_t h = 2166136261u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 16777619u;
	return h;
}

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	return btf__name_by_offset(btf, t->name_off);
}

struct btf_index *btf_index_build(const struct btf *btf)
{
	uint32_t n = btf__type_cnt(btf), size = 1024;
	struct btf_index *ix;

	/* At most half full keeps probe sequences short. */
	while (size < 2 * n)
		size *= 2;
	ix = calloc(1, sizeof(*ix));
	if (!ix)
		return NULL;
	ix->slots = calloc(size, sizeof(*ix->slots));
	if (!ix->slots) {
		free(ix);
		return NULL;
	}
	ix->mask = size - 1;
	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name = t ? type_name(btf, t) : NULL;
		uint32_t i;

		if (!name || !*name)
			continue;
		for (i = name_hash(name) & ix->mask; ix->slots[i]; i = (i + 1) & ix->mask)
			;
		ix->slots[i] = id;
	}
	return ix;
}

void btf_index_free(struct btf_index *ix)
{
	if (!ix)
		return;
	free(ix->slots);
	free(ix);
}

int btf_index_find(const struct btf_index *ix, const struct btf *btf, const char *name,
		   uint32_t kind)
{
	if (!ix)
		return btf__find_by_name_kind(btf, name, kind);
	/* libbpf's own answers: void, kind 0, nameless types. */
	if (!name || !*name || kind == BTF_KIND_UNKN || !strcmp(name, "void"))
		return btf__find_by_name_kind(btf, name, kind);
	for (uint32_t i = name_hash(name) & ix->mask; ix->slots[i]; i = (i + 1) & ix->mask) {
		const struct btf_type *t = btf__type_by_id(btf, ix->slots[i]);

		if (btf_kind(t) == kind && !strcmp(type_name(btf, t), name))
			return (int)ix->slots[i];
	}
	return -ENOENT;
}
