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
 */
#ifndef BPFVET_ALLOC_H
#define BPFVET_ALLOC_H

#include <stddef.h>
#include <stdint.h>

struct vet_env;

struct vet_mem {
	size_t cur;		/* bytes held now, headers included */
	size_t peak;		/* most bytes ever held at once */
	uint64_t allocs;	/* blocks handed out (realloc counts as one) */
};

/* Starts the count with `base` bytes the verifier holds outside the
 * wrappers (the environment itself). */
void vet_mem_init(struct vet_mem *m, size_t base);
void *vet_malloc(struct vet_env *env, size_t size);
void *vet_calloc(struct vet_env *env, size_t cnt, size_t size);
/* realloc() semantics: NULL on failure leaves `p` untouched. */
void *vet_realloc(struct vet_env *env, void *p, size_t size);
/* realloc to cnt * size bytes, failing (NULL) on overflow. */
void *vet_reallocarray(struct vet_env *env, void *p, size_t cnt, size_t size);
void vet_free(struct vet_env *env, void *p);

#endif
