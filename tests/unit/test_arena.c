/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verifier's arena (src/state/alloc.c), forced on: the sanitized
 * builds this test runs in use malloc() for every block otherwise. This
 * file includes alloc.c itself, whose definitions then take the place of
 * the library's.
 */
#define VET_ARENA_FORCE 1
#include "../../src/state/alloc.c"

#include <stdio.h>

#include "test.h"

static struct vet_env *env_new(struct test_ctx *t)
{
	struct vet_env *env = calloc(1, sizeof(*env));

	CHECK(t, env != NULL);
	if (env)
		vet_mem_init(&env->mem, 0);
	return env;
}

static void env_done(struct vet_env *env)
{
	vet_mem_release(&env->mem);
	free(env);
}

/* A freed block is the next one its class hands out; other classes do
 * not take it; counters are those of malloc-backed blocks. */
static void test_reuse(struct test_ctx *t)
{
	struct vet_env *env = env_new(t);
	void *a, *b, *c, *d;

	if (!env)
		return;
	a = vet_malloc(env, 100);
	b = vet_malloc(env, 100);
	CHECK(t, a && b && a != b);
	CHECK(t, env->mem.arena != NULL);
	CHECK_INT(t, env->mem.cur, 2 * (HDR_SZ + 100));
	CHECK(t, ((uintptr_t)a % _Alignof(max_align_t)) == 0);
	vet_free(env, a);
	CHECK_INT(t, env->mem.cur, HDR_SZ + 100);
	c = vet_malloc(env, 1000);	/* another class */
	CHECK(t, c != a);
	CHECK_INT(t, arena_class(99), arena_class(100));
	d = vet_malloc(env, 99);	/* the same class as 100 */
	CHECK(t, d == a);
	CHECK_INT(t, env->mem.peak, 2 * (HDR_SZ + 100) + HDR_SZ + 1000 - 1);
	CHECK_INT(t, env->mem.allocs, 4);
	vet_free(env, b);
	vet_free(env, c);
	vet_free(env, d);
	CHECK_INT(t, env->mem.cur, 0);
	env_done(env);
}

/* Resizing within a class keeps the block; across classes, and between
 * the arena and malloc, the contents move; every resize counts once. */
static void test_resize(struct test_ctx *t)
{
	struct vet_env *env = env_new(t);
	unsigned char *p, *q;

	if (!env)
		return;
	p = vet_malloc(env, 10);
	if (!p) {
		CHECK(t, p != NULL);
		env_done(env);
		return;
	}
	memset(p, 0x5a, 10);
	CHECK_INT(t, arena_class(20), arena_class(10));
	q = vet_realloc(env, p, 20);
	CHECK(t, q == p);
	q = vet_realloc(env, q, 5000);
	CHECK(t, q && q != p && q[0] == 0x5a && q[9] == 0x5a);
	CHECK_INT(t, env->mem.cur, HDR_SZ + 5000);
	p = vet_realloc(env, q, ARENA_MAX * 4);	/* to malloc() */
	CHECK(t, p && p[0] == 0x5a && p[9] == 0x5a);
	if (p)
		p[ARENA_MAX * 4 - 1] = 1;
	q = vet_realloc(env, p, 30);		/* back to the arena */
	CHECK(t, q && q[0] == 0x5a && q[9] == 0x5a);
	CHECK_INT(t, env->mem.cur, HDR_SZ + 30);
	CHECK_INT(t, env->mem.peak, HDR_SZ + ARENA_MAX * 4);
	CHECK_INT(t, env->mem.allocs, 5);
	CHECK(t, vet_reallocarray(env, q, SIZE_MAX / 8, 16) == NULL);
	vet_free(env, q);
	CHECK_INT(t, env->mem.cur, 0);
	env_done(env);
}

/* Enough blocks to fill the malloc()ed chunks and map huge-page ones:
 * every block is distinct, writable and keeps its contents. */
static void test_chunks(struct test_ctx *t)
{
	enum { N = 3000, SZ = 4000 };
	struct vet_env *env = env_new(t);
	unsigned char **blk = calloc(N, sizeof(*blk));
	bool ok = true;
	int mapped = 0;

	if (!env || !blk) {
		CHECK(t, blk != NULL);
		free(blk);
		if (env)
			env_done(env);
		return;
	}
	for (int i = 0; i < N && ok; i++) {
		blk[i] = vet_malloc(env, SZ);
		ok = blk[i] != NULL;
		if (ok)
			memset(blk[i], i & 0xff, SZ);
	}
	CHECK(t, ok);
	for (int i = 0; i < N && ok; i++)
		ok = blk[i][0] == (i & 0xff) && blk[i][SZ - 1] == (i & 0xff);
	CHECK(t, ok);
	for (const struct arena_chunk *c = env->mem.arena->chunks; c; c = c->next)
		if (c->size) {
			mapped++;
			CHECK(t, ((uintptr_t)c % CHUNK_HUGE) == 0);
		}
	/* 3000 blocks of 4 KiB: 1.75 MiB from malloc, then mapped chunks. */
	CHECK(t, mapped >= 5);
	CHECK_INT(t, env->mem.cur, (size_t)N * (HDR_SZ + SZ));
	for (int i = 0; i < N; i++)
		vet_free(env, blk[i]);
	CHECK_INT(t, env->mem.cur, 0);
	free(blk);
	env_done(env);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_run(&t, "arena_reuse", test_reuse);
	test_run(&t, "arena_resize", test_resize);
	test_run(&t, "arena_chunks", test_chunks);
	return test_finish(&t);
}
