/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Allocation accounting of one verification. Everything the verifier
 * allocates for a program (auxiliary arrays, path states, checkpoints,
 * liveness tables) goes through these wrappers, so that the environment
 * knows how many bytes it holds now and at most. The loader and the log
 * buffer stay outside: they are not the verifier's working set.
 *
 * Each block carries its size in a small header in front of it; the
 * counters are exact, and a block must be freed or resized with the
 * wrappers, never with free() or realloc().
 *
 * Blocks up to ARENA_MAX bytes come from the verification's own arena:
 * chunks it maps itself, carved into 64-byte size classes, a freed block
 * waiting on its class's list for the next request of that class. States
 * are allocated and freed all the time, and on malloc's heap each fresh
 * page costs a fault (about 10 us on the 2-core VMs); the arena's larger
 * chunks ask for transparent huge pages, one fault per 2 MiB. The counters
 * still count the blocks in use, header included, not the arena's free
 * blocks. Builds with AddressSanitizer use malloc() for every block, so
 * that it sees each one.
 */
#ifndef BPFVET_ALLOC_H
#define BPFVET_ALLOC_H

#include <stddef.h>
#include <stdint.h>

struct vet_env;

struct vet_arena;

struct vet_mem {
	size_t cur;		/* bytes held now, headers included */
	size_t peak;		/* most bytes ever held at once */
	uint64_t allocs;	/* blocks handed out (realloc counts as one) */
	struct vet_arena *arena;	/* made at the first small block */
};

/* Starts the count with `base` bytes the verifier holds outside the
 * wrappers (the environment itself). */
void vet_mem_init(struct vet_mem *m, size_t base);
/* Unmaps the arena: every block it gave is gone. */
void vet_mem_release(struct vet_mem *m);
void *vet_malloc(struct vet_env *env, size_t size);
void *vet_calloc(struct vet_env *env, size_t cnt, size_t size);
/* realloc() semantics: NULL on failure leaves `p` untouched. */
void *vet_realloc(struct vet_env *env, void *p, size_t size);
/* realloc to cnt * size bytes, failing (NULL) on overflow. */
void *vet_reallocarray(struct vet_env *env, void *p, size_t cnt, size_t size);
void vet_free(struct vet_env *env, void *p);

#endif
