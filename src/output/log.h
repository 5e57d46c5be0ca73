/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verifier log, in the kernel's format and with its level semantics:
 * level 1 keeps only the failing path (finished paths are rewound away),
 * level 2 keeps everything and is streamed to the caller as it grows,
 * bit 4 adds the statistics lines.
 */
#ifndef BPFVET_LOG_H
#define BPFVET_LOG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOG_LEVEL1	1u
#define LOG_LEVEL2	2u
#define LOG_STATS	4u
#define LOG_FIXED	8u

typedef void (*vet_log_fn)(void *ctx, const char *text, size_t len);

struct vet_log {
	uint32_t level;
	char *buf;
	size_t len;		/* bytes held in buf */
	size_t cap;
	size_t base;		/* bytes already handed to the sink */
	vet_log_fn sink;
	void *sink_ctx;
	bool oom;
	/* The most recent verbose error line, i.e. the rejection reason. */
	char last_line[512];
	size_t last_len;
	/* last_line has no newline yet: the next text continues it (messages
	 * are often printed in several pieces). */
	bool line_open;
	/* last_line is the rejection reason even though more text follows
	 * (6.12's state dump after "infinite loop detected"). */
	bool error_held;
};

void log_init(struct vet_log *log, uint32_t level, vet_log_fn sink, void *ctx);
void log_free(struct vet_log *log);
/* Append text. Messages are recorded for the error summary even when the
 * level is 0, so that callers always learn why a program was rejected. */
void log_printf(struct vet_log *log, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void log_vprintf(struct vet_log *log, const char *fmt, va_list ap);
static inline bool log_enabled(const struct vet_log *log)
{
	return log->level != 0;
}
/* The line just printed stays the error summary: what follows explains it. */
static inline void log_hold_error(struct vet_log *log)
{
	log->error_held = true;
}
/* Absolute position (bytes ever written), for rewinding and alignment. */
size_t log_pos(const struct vet_log *log);
/* Drop everything after `pos` (level-1 path rewinding). */
void log_rewind(struct vet_log *log, size_t pos);
/* Hand complete text before `keep_from` to the sink (level 2 only). */
void log_flush(struct vet_log *log, size_t keep_from);
/* Hand out complete lines except the last one (level 2 only). */
void log_flush_lines(struct vet_log *log);
/* Flush everything at the end of a verification. */
void log_finish(struct vet_log *log);
/* Remove a trailing newline, returning the start column of the last line. */
size_t log_unterminate(struct vet_log *log);
/* Pad the current line with spaces up to column `col`. */
void log_pad_to(struct vet_log *log, size_t line_start, size_t col);

#endif
