/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verifier's allocator (alloc.h): exact counters over malloc() for
 * large blocks and over a per-verification arena of size classes for the
 * small ones.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "alloc.h"
#include "state.h"

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ON 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ON 0
#endif
#endif
#ifndef ARENA_ON
#define ARENA_ON 1
#endif
/* tests/unit/test_arena.c includes this file with the arena forced on. */
#ifdef VET_ARENA_FORCE
#undef ARENA_ON
#define ARENA_ON 1
#endif

/* The header keeps the block size. It is a multiple of the strictest
 * alignment malloc guarantees, so the caller's part stays aligned, and no
 * larger: sizeof(max_align_t) is 32 on x86-64, and pyperf600 holds some
 * 60,000 blocks at its peak. */
struct mem_hdr {
	size_t size;
	size_t unused;
};

#define HDR_SZ sizeof(struct mem_hdr)
_Static_assert(HDR_SZ % _Alignof(max_align_t) == 0, "the header keeps blocks aligned");

#define ARENA_GRAIN 64
#define ARENA_MAX (64u << 10)	/* header included */
#define ARENA_CLASSES (ARENA_MAX / ARENA_GRAIN)
/* Chunks double from the first size to the huge-page size, so that a
 * small program maps little and a large one faults once per 2 MiB. */
#define CHUNK_FIRST (256u << 10)
#define CHUNK_HUGE (2u << 20)

struct arena_chunk {
	struct arena_chunk *next;
	size_t size;		/* as mapped; 0: from malloc() */
};

struct vet_arena {
	char *bump, *end;	/* the unused rest of the newest chunk */
	size_t next_chunk;
	struct arena_chunk *chunks;
	void *free_list[ARENA_CLASSES + 1];
};

void vet_mem_init(struct vet_mem *m, size_t base)
{
	m->cur = base;
	m->peak = base;
	m->allocs = 0;
	m->arena = NULL;
}

void vet_mem_release(struct vet_mem *m)
{
	struct vet_arena *a = m->arena;

	if (!a)
		return;
	while (a->chunks) {
		struct arena_chunk *c = a->chunks;

		a->chunks = c->next;
		if (c->size)
			munmap(c, c->size);
		else
			free(c);
	}
	free(a);
	m->arena = NULL;
}

static void mem_note_grow(struct vet_mem *m, size_t bytes)
{
	m->cur += bytes;
	if (m->cur > m->peak)
		m->peak = m->cur;
}

static void *hdr_to_user(struct mem_hdr *h)
{
	return (char *)h + HDR_SZ;
}

static struct mem_hdr *user_to_hdr(void *p)
{
	return (struct mem_hdr *)((char *)p - HDR_SZ);
}

/* The size class of a block of `size` caller bytes; 0: not the arena's. */
static size_t arena_class(size_t size)
{
	if (!ARENA_ON || size > ARENA_MAX - HDR_SZ)
		return 0;
	return (HDR_SZ + size + ARENA_GRAIN - 1) / ARENA_GRAIN;
}

/* A chunk of `size` bytes aligned to `align` (a power of two, at least
 * the page size): map more, then unmap the ends. */
static void *map_aligned(size_t size, size_t align)
{
	size_t span = size + align;
	char *p = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *start;

	if (p == MAP_FAILED)
		return NULL;
	start = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
	if (start > p)
		munmap(p, (size_t)(start - p));
	if (start + size < p + span)
		munmap(start + size, (size_t)(p + span - (start + size)));
	return start;
}

/* The first chunks come from malloc(), whose heap may be warm (memory
 * the loader freed); huge-page chunks are mapped, aligned and advised. */
static bool arena_grow(struct vet_arena *a)
{
	size_t size = a->next_chunk;
	bool huge = size >= CHUNK_HUGE;
	struct arena_chunk *c = huge ? map_aligned(size, CHUNK_HUGE) : malloc(size);

	if (!c)
		return false;
	if (huge)
		madvise(c, size, MADV_HUGEPAGE);	/* a hint: no error to handle */
	c->size = huge ? size : 0;
	c->next = a->chunks;
	a->chunks = c;
	/* The rest of the old chunk is dropped: less than one large block. */
	a->bump = (char *)c + ARENA_GRAIN;
	a->end = (char *)c + size;
	if (!huge)
		a->next_chunk *= 2;
	return true;
}

static struct mem_hdr *arena_take(struct vet_mem *m, size_t cls)
{
	struct vet_arena *a = m->arena;
	size_t bytes = cls * ARENA_GRAIN;
	void *p;

	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a)
			return NULL;
		a->next_chunk = CHUNK_FIRST;
		m->arena = a;
	}
	p = a->free_list[cls];
	if (p) {
		memcpy(&a->free_list[cls], p, sizeof(void *));
		return p;
	}
	if ((size_t)(a->end - a->bump) < bytes && !arena_grow(a))
		return NULL;
	p = a->bump;
	a->bump += bytes;
	return p;
}

/* A block for `size` caller bytes, not yet counted. */
static struct mem_hdr *block_take(struct vet_mem *m, size_t size)
{
	size_t cls = arena_class(size);
	struct mem_hdr *h = cls ? arena_take(m, cls) : malloc(HDR_SZ + size);

	if (h)
		h->size = size;
	return h;
}

static void block_put(struct vet_mem *m, struct mem_hdr *h)
{
	size_t cls = arena_class(h->size);

	if (!cls) {
		free(h);
		return;
	}
	memcpy(h, &m->arena->free_list[cls], sizeof(void *));
	m->arena->free_list[cls] = h;
}

void *vet_malloc(struct vet_env *env, size_t size)
{
	struct mem_hdr *h;

	if (size > SIZE_MAX - HDR_SZ)
		return NULL;
	h = block_take(&env->mem, size);
	if (!h)
		return NULL;
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

/* A resize within malloc, within a size class, or to a new block (between
 * classes, or between the arena and malloc): counted as realloc() is. */
static struct mem_hdr *block_resize(struct vet_mem *m, struct mem_hdr *h, size_t size)
{
	size_t cls = arena_class(size);
	struct mem_hdr *nh;

	if (cls && cls == arena_class(h->size))
		return h;
	if (!cls && !arena_class(h->size))
		return realloc(h, HDR_SZ + size);
	nh = block_take(m, size);
	if (!nh)
		return NULL;
	memcpy(hdr_to_user(nh), hdr_to_user(h), h->size < size ? h->size : size);
	block_put(m, h);
	return nh;
}

void *vet_realloc(struct vet_env *env, void *p, size_t size)
{
	struct mem_hdr *nh;
	size_t old;

	if (!p)
		return vet_malloc(env, size);
	if (size > SIZE_MAX - HDR_SZ)
		return NULL;
	old = user_to_hdr(p)->size;
	nh = block_resize(&env->mem, user_to_hdr(p), size);
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
	struct mem_hdr *h;

	if (!p)
		return;
	h = user_to_hdr(p);
	env->mem.cur -= HDR_SZ + h->size;
	block_put(&env->mem, h);
}
