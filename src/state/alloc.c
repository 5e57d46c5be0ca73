/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "state.h"

/* The header keeps the block size; it is as large as the strictest
 * alignment malloc guarantees, so the caller's part stays aligned. */
union mem_hdr {
	size_t size;
	max_align_t align;
};

#define HDR_SZ sizeof(union mem_hdr)

void vet_mem_init(struct vet_mem *m, size_t base)
{
	m->cur = base;
	m->peak = base;
	m->allocs = 0;
}

static void mem_note_grow(struct vet_mem *m, size_t bytes)
{
	m->cur += bytes;
	if (m->cur > m->peak)
		m->peak = m->cur;
}

static void *hdr_to_user(union mem_hdr *h)
{
	return (char *)h + HDR_SZ;
}

static union mem_hdr *user_to_hdr(void *p)
{
	return (union mem_hdr *)((char *)p - HDR_SZ);
}

void *vet_malloc(struct vet_env *env, size_t size)
{
	union mem_hdr *h;

	if (size > SIZE_MAX - HDR_SZ)
		return NULL;
	h = malloc(HDR_SZ + size);
	if (!h)
		return NULL;
	h->size = size;
	mem_note_grow(&env->mem, HDR_SZ + size);
	env->mem.allocs++;
	return hdr_to_user(h);
}

void *vet_calloc(struct vet_env *env, size_t cnt, size_t size)
{
	void *p;

	if (size && cnt > (SIZE_MAX - HDR_SZ) / size)
		return NULL;
	p = vet_malloc(env, cnt * size);
	if (p)
		memset(p, 0, cnt * size);
	return p;
}

void *vet_realloc(struct vet_env *env, void *p, size_t size)
{
	union mem_hdr *h, *nh;
	size_t old;

	if (!p)
		return vet_malloc(env, size);
	if (size > SIZE_MAX - HDR_SZ)
		return NULL;
	h = user_to_hdr(p);
	old = h->size;
	nh = realloc(h, HDR_SZ + size);
	if (!nh)
		return NULL;
	nh->size = size;
	env->mem.cur -= old;
	mem_note_grow(&env->mem, size);
	env->mem.allocs++;
	return hdr_to_user(nh);
}

void *vet_reallocarray(struct vet_env *env, void *p, size_t cnt, size_t size)
{
	if (size && cnt > (SIZE_MAX - HDR_SZ) / size)
		return NULL;
	return vet_realloc(env, p, cnt * size);
}

void vet_free(struct vet_env *env, void *p)
{
	union mem_hdr *h;

	if (!p)
		return;
	h = user_to_hdr(p);
	env->mem.cur -= HDR_SZ + h->size;
	free(h);
}
