/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Minimal test harness. Each test binary runs its cases and prints one
 * "PASS <name>", "FAIL <name>: <where>: <what>" or "SKIP <name>: <why>"
 * line per case; tests/run.sh counts them. A case skips when a
 * precondition does not hold here (a kernel that loads BPF, a map type);
 * a skip is never a pass.
 */
#ifndef BPFVET_TEST_H
#define BPFVET_TEST_H

#include <stdio.h>
#include <string.h>

struct test_ctx {
	const char *name;
	int failures;
	const char *skip_why;	/* set by test_skip() in the current case */
	char skip_buf[256];
	int passed;
	int failed;
	int skipped;
};

#define CHECK(t, cond)                                                     \
	do {                                                               \
		if (!(cond)) {                                             \
			test_fail((t), __FILE__, __LINE__, "%s", #cond);   \
		}                                                          \
	} while (0)

#define CHECK_MSG(t, cond, ...)                                            \
	do {                                                               \
		if (!(cond)) {                                             \
			test_fail((t), __FILE__, __LINE__, __VA_ARGS__);   \
		}                                                          \
	} while (0)

#define CHECK_STR(t, got, want)                                            \
	do {                                                               \
		const char *g_ = (got), *w_ = (want);                      \
		if (!g_ || strcmp(g_, w_) != 0) {                          \
			test_fail((t), __FILE__, __LINE__,                 \
				  "got \"%s\", want \"%s\"",               \
				  g_ ? g_ : "(null)", w_);                 \
		}                                                          \
	} while (0)

#define CHECK_INT(t, got, want)                                            \
	do {                                                               \
		long long g_ = (long long)(got), w_ = (long long)(want);   \
		if (g_ != w_) {                                            \
			test_fail((t), __FILE__, __LINE__,                 \
				  "%s = %lld, want %lld", #got, g_, w_);   \
		}                                                          \
	} while (0)

void test_fail(struct test_ctx *t, const char *file, int line,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* Ends the current case as skipped, unless it already failed: the caller
 * returns right after. */
void test_skip(struct test_ctx *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints "SKIP name: why" for a case or a whole binary that does not run. */
void test_skip_named(const char *name, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void test_run(struct test_ctx *t, const char *name,
	      void (*fn)(struct test_ctx *t));
int test_finish(struct test_ctx *t);
/* Room for one more element in the growing array *vp (n used, *cap
 * allocated, elements of `size` bytes): the capacity doubles from 64.
 * 0, or -ENOMEM with the array unchanged. */
int test_grow(void *vp, size_t n, size_t *cap, size_t size);
/* Path of a BPF object compiled from tests/progs/NAME.c. */
const char *test_prog_path(char *buf, size_t sz, const char *name);

#define RUN(t, fn) test_run((t), #fn, fn)

#endif
