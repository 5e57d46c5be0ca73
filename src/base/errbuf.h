/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * A caller-supplied buffer for the one-line reason of a failure. The first
 * message wins: the innermost function knows the most specific reason, and
 * the callers that unwind after it must not overwrite it with a vaguer one.
 */
#ifndef BPFVET_ERRBUF_H
#define BPFVET_ERRBUF_H

#include <stdbool.h>
#include <stddef.h>

struct errbuf {
	char *buf;		/* may be NULL: messages are then dropped */
	size_t sz;
	bool set;
};

void errbuf_init(struct errbuf *eb, char *buf, size_t sz);

/* Records the message if none was recorded yet; returns err unchanged so
 * that call sites can write `return errbuf_set(eb, -EINVAL, ...)`. */
int errbuf_set(struct errbuf *eb, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fallback for errors that reached the top without a message. */
void errbuf_default(struct errbuf *eb, int err);

#endif
