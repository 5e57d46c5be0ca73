/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "test.h"

void test_fail(struct test_ctx *t, const char *file, int line,
	       const char *fmt, ...)
{
	va_list ap;

	/* Report only the first failure of a case: later ones are usually
	 * consequences of it. */
	if (t->failures++)
		return;
	printf("FAIL %s: %s:%d: ", t->name, file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

void test_skip(struct test_ctx *t, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(t->skip_buf, sizeof(t->skip_buf), fmt, ap);
	va_end(ap);
	t->skip_why = t->skip_buf;
}

void test_skip_named(const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("SKIP %s: ", name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

void test_run(struct test_ctx *t, const char *name,
	      void (*fn)(struct test_ctx *t))
{
	t->name = name;
	t->failures = 0;
	t->skip_why = NULL;
	fn(t);
	if (t->failures) {
		t->failed++;
	} else if (t->skip_why) {
		t->skipped++;
		printf("SKIP %s: %s\n", name, t->skip_why);
	} else {
		t->passed++;
		printf("PASS %s\n", name);
	}
	fflush(stdout);
}

int test_finish(struct test_ctx *t)
{
	return t->failed ? 1 : 0;
}

const char *test_prog_path(char *buf, size_t sz, const char *name)
{
	const char *dir = getenv("BPFVET_PROGS");

	snprintf(buf, sz, "%s/%s.o", dir ? dir : "build/progs", name);
	return buf;
}

int test_grow(void *vp, size_t n, size_t *cap, size_t size)
{
	void *v, *grown;
	size_t c;

	if (n < *cap)
		return 0;
	memcpy(&v, vp, sizeof(v));
	c = *cap ? 2 * *cap : 64;
	grown = realloc(v, c * size);
	if (!grown)
		return -ENOMEM;
	memcpy(vp, &grown, sizeof(grown));
	*cap = c;
	return 0;
}
