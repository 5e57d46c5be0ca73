/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * In-memory maps with the kernel's answers: arrays (zero-filled, per-CPU
 * ones as CPU 0 sees them), hashes (empty at creation; per-CPU ones as
 * CPU 0 sees them; LRU ones evict the least recently used element when
 * full), and program arrays, which stay empty. Elements are named by
 * their index (arrays) or slot (hashes), which map-value pointers carry in
 * their tag; a deleted slot keeps its memory until it is reused, as an
 * RCU-freed element stays readable.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"
#include "base/uapi.h"

#define BPF_NOEXIST 1
#define BPF_EXIST 2
#define BPF_F_LOCK 4

struct slot {
	bool used;
	uint64_t stamp;		/* last use, for LRU eviction */
	uint8_t *key;
	uint8_t *val;
};

struct imap {
	uint32_t type, key_size, value_size, max_entries;
	uint8_t *array;		/* arrays: max_entries values */
	struct slot *slots;	/* hashes */
	uint32_t slot_cnt, slot_cap, used;
	uint64_t clock;
};

struct interp_maps {
	struct imap *m;
	size_t cnt;
};

static bool is_array(uint32_t t)
{
	return t == BPF_MAP_TYPE_ARRAY || t == BPF_MAP_TYPE_PERCPU_ARRAY;
}

static bool is_hash(uint32_t t)
{
	return t == BPF_MAP_TYPE_HASH || t == BPF_MAP_TYPE_PERCPU_HASH ||
	       t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

static bool is_lru(uint32_t t)
{
	return t == BPF_MAP_TYPE_LRU_HASH || t == BPF_MAP_TYPE_LRU_PERCPU_HASH;
}

int interp_maps_new(const struct bpfvet_map *maps, size_t cnt, struct interp_maps **out)
{
	struct interp_maps *ms = calloc(1, sizeof(*ms));

	*out = NULL;
	if (!ms)
		return -ENOMEM;
	ms->m = calloc(cnt ? cnt : 1, sizeof(*ms->m));
	if (!ms->m) {
		free(ms);
		return -ENOMEM;
	}
	ms->cnt = cnt;
	for (size_t i = 0; i < cnt; i++) {
		struct imap *m = &ms->m[i];

		m->type = maps[i].type;
		m->key_size = maps[i].key_size;
		m->value_size = maps[i].value_size;
		m->max_entries = maps[i].max_entries;
		if (is_array(m->type) && m->value_size) {
			m->array = calloc(m->max_entries ? m->max_entries : 1, m->value_size);
			if (!m->array) {
				interp_maps_free(ms);
				return -ENOMEM;
			}
			/* Global data: .data and .rodata start with their
			 * initial values, as libbpf writes them. */
			if (maps[i].init_data && maps[i].init_size <= m->value_size)
				memcpy(m->array, maps[i].init_data, maps[i].init_size);
		}
	}
	*out = ms;
	return 0;
}

int interp_maps_for_program(const struct bpfvet_program *prog, struct interp_maps **out)
{
	if (prog->obj)
		return interp_maps_new(prog->obj->maps, prog->obj->map_cnt, out);
	return interp_maps_new(prog->raw_maps, prog->raw_map_cnt, out);
}

void interp_maps_free(struct interp_maps *ms)
{
	if (!ms)
		return;
	for (size_t i = 0; i < ms->cnt; i++) {
		struct imap *m = &ms->m[i];

		for (uint32_t s = 0; s < m->slot_cnt; s++) {
			free(m->slots[s].key);
			free(m->slots[s].val);
		}
		free(m->slots);
		free(m->array);
	}
	free(ms->m);
	free(ms);
}

uint32_t maps_type(const struct interp_maps *ms, uint32_t i) { return ms->m[i].type; }
uint32_t maps_key_size(const struct interp_maps *ms, uint32_t i) { return ms->m[i].key_size; }
uint32_t maps_value_size(const struct interp_maps *ms, uint32_t i)
{
	return i < ms->cnt ? ms->m[i].value_size : 0;
}
size_t maps_cnt(const struct interp_maps *ms) { return ms->cnt; }

static int hash_find(struct imap *m, const void *key)
{
	for (uint32_t s = 0; s < m->slot_cnt; s++)
		if (m->slots[s].used && memcmp(m->slots[s].key, key, m->key_size) == 0)
			return (int)s;
	return -1;
}

int maps_lookup(struct interp_maps *ms, uint32_t idx, const void *key, uint32_t *elem)
{
	struct imap *m = &ms->m[idx];
	uint32_t k;
	int s;

	if (is_array(m->type)) {
		memcpy(&k, key, 4);
		if (k >= m->max_entries)
			return -ENOENT;
		*elem = k;
		return 0;
	}
	if (!is_hash(m->type))
		return -EOPNOTSUPP;
	s = hash_find(m, key);
	if (s < 0)
		return -ENOENT;
	m->slots[s].stamp = ++m->clock;
	*elem = (uint32_t)s;
	return 0;
}

uint8_t *maps_value(struct interp_maps *ms, uint32_t idx, uint32_t elem)
{
	struct imap *m;

	if (idx >= ms->cnt)
		return NULL;
	m = &ms->m[idx];
	if (is_array(m->type))
		return elem < m->max_entries && m->array ?
		       m->array + (size_t)elem * m->value_size : NULL;
	if (is_hash(m->type))
		return elem < m->slot_cnt ? m->slots[elem].val : NULL;
	return NULL;
}

/* A free slot: a deleted one, a new one, or for LRU maps the least
 * recently used; -E2BIG when the map is full. */
static int hash_slot(struct imap *m)
{
	uint32_t s, victim = 0;

	if (m->used >= m->max_entries) {
		if (!is_lru(m->type) || !m->slot_cnt)
			return -E2BIG;
		for (s = 1; s < m->slot_cnt; s++)
			if (m->slots[s].stamp < m->slots[victim].stamp)
				victim = s;
		m->slots[victim].used = false;
		m->used--;
		return (int)victim;
	}
	for (s = 0; s < m->slot_cnt; s++)
		if (!m->slots[s].used)
			return (int)s;
	if (m->slot_cnt == m->slot_cap) {
		uint32_t cap = m->slot_cap ? m->slot_cap * 2 : 8;
		struct slot *n = realloc(m->slots, cap * sizeof(*n));

		if (!n)
			return -ENOMEM;
		m->slots = n;
		m->slot_cap = cap;
	}
	s = m->slot_cnt;
	m->slots[s].key = calloc(1, m->key_size ? m->key_size : 1);
	m->slots[s].val = calloc(1, m->value_size ? m->value_size : 1);
	if (!m->slots[s].key || !m->slots[s].val) {
		free(m->slots[s].key);
		free(m->slots[s].val);
		return -ENOMEM;
	}
	m->slots[s].used = false;
	m->slot_cnt++;
	return (int)s;
}

static int hash_update(struct imap *m, const void *key, const void *val, uint64_t flags)
{
	int s = hash_find(m, key);

	if (s >= 0 && (flags & 3) == BPF_NOEXIST)
		return -EEXIST;
	if (s < 0 && (flags & 3) == BPF_EXIST)
		return -ENOENT;
	if (s < 0) {
		s = hash_slot(m);
		if (s < 0)
			return s;
		memcpy(m->slots[s].key, key, m->key_size);
		m->slots[s].used = true;
		m->used++;
	}
	memcpy(m->slots[s].val, val, m->value_size);
	m->slots[s].stamp = ++m->clock;
	return 0;
}

int maps_update(struct interp_maps *ms, uint32_t idx, const void *key, const void *val,
		uint64_t flags)
{
	struct imap *m = &ms->m[idx];
	uint32_t k;

	if ((flags & ~(uint64_t)BPF_F_LOCK) > BPF_EXIST)
		return -EINVAL;
	if (is_array(m->type)) {
		memcpy(&k, key, 4);
		if (k >= m->max_entries)
			return -E2BIG;
		if ((flags & 3) == BPF_NOEXIST)
			return -EEXIST;
		memcpy(m->array + (size_t)k * m->value_size, val, m->value_size);
		return 0;
	}
	if (!is_hash(m->type))
		return -EOPNOTSUPP;
	return hash_update(m, key, val, flags);
}

int maps_delete(struct interp_maps *ms, uint32_t idx, const void *key)
{
	struct imap *m = &ms->m[idx];
	int s;

	if (is_array(m->type))
		return -EINVAL;
	if (!is_hash(m->type))
		return -EOPNOTSUPP;
	s = hash_find(m, key);
	if (s < 0)
		return -ENOENT;
	m->slots[s].used = false;
	m->used--;
	return 0;
}
