/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

void log_init(struct vet_log *log, uint32_t level, vet_log_fn sink, void *ctx)
{
	memset(log, 0, sizeof(*log));
	log->level = level;
	log->sink = sink;
	log->sink_ctx = ctx;
}

void log_free(struct vet_log *log)
{
	free(log->buf);
	log->buf = NULL;
	log->len = log->cap = 0;
}

static bool log_reserve(struct vet_log *log, size_t more)
{
	size_t need = log->len + more + 1;
	size_t cap;
	char *nb;

	if (need <= log->cap)
		return true;
	cap = log->cap ? log->cap : 4096;
	while (cap < need)
		cap *= 2;
	nb = realloc(log->buf, cap);
	if (!nb) {
		log->oom = true;
		return false;
	}
	log->buf = nb;
	log->cap = cap;
	return true;
}

static void remember_line(struct vet_log *log, const char *text, size_t n)
{
	/* Keep the last non-empty line for the error summary, whether it
	 * came in one piece or several. */
	if (log->error_held)
		return;
	for (size_t i = 0; i < n; i++) {
		if (text[i] == '\n') {
			log->line_open = false;
			continue;
		}
		if (!log->line_open) {
			log->last_len = 0;
			log->line_open = true;
		}
		if (log->last_len + 1 < sizeof(log->last_line))
			log->last_line[log->last_len++] = text[i];
	}
	log->last_line[log->last_len] = 0;
}

void log_vprintf(struct vet_log *log, const char *fmt, va_list ap)
{
	char small[512];
	va_list cp;
	int n;

	va_copy(cp, ap);
	n = vsnprintf(small, sizeof(small), fmt, cp);
	va_end(cp);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		remember_line(log, small, (size_t)n);
		if (!log->level || !log_reserve(log, (size_t)n))
			return;
		memcpy(log->buf + log->len, small, (size_t)n + 1);
		log->len += (size_t)n;
		return;
	}
	if (!log_reserve(log, (size_t)n))
		return;
	vsnprintf(log->buf + log->len, (size_t)n + 1, fmt, ap);
	remember_line(log, log->buf + log->len, (size_t)n);
	if (log->level)
		log->len += (size_t)n;
}

void log_printf(struct vet_log *log, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vprintf(log, fmt, ap);
	va_end(ap);
}

size_t log_pos(const struct vet_log *log)
{
	return log->base + log->len;
}

void log_rewind(struct vet_log *log, size_t pos)
{
	if (pos < log->base)
		return;	/* already handed out; cannot happen at level 1 */
	if (pos - log->base < log->len)
		log->len = pos - log->base;
}

void log_flush(struct vet_log *log, size_t keep_from)
{
	size_t n;

	if (keep_from <= log->base || !log->len)
		return;
	n = keep_from - log->base;
	if (n > log->len)
		n = log->len;
	if (log->sink)
		log->sink(log->sink_ctx, log->buf, n);
	memmove(log->buf, log->buf + n, log->len - n);
	log->len -= n;
	log->base += n;
}

void log_flush_lines(struct vet_log *log)
{
	size_t i = log->len;

	/* Keep the last line: a state delta may still be appended to it. */
	if (i && log->buf[i - 1] == '\n')
		i--;
	while (i && log->buf[i - 1] != '\n')
		i--;
	log_flush(log, log->base + i);
}

void log_finish(struct vet_log *log)
{
	log_flush(log, log_pos(log));
}

size_t log_unterminate(struct vet_log *log)
{
	size_t i;

	if (log->len && log->buf[log->len - 1] == '\n')
		log->len--;
	for (i = log->len; i > 0 && log->buf[i - 1] != '\n'; i--)
		;
	return log->base + i;
}

void log_pad_to(struct vet_log *log, size_t line_start, size_t col)
{
	size_t cur = log_pos(log) - line_start;

	if (!log->level || cur >= col || !log_reserve(log, col - cur))
		return;
	memset(log->buf + log->len, ' ', col - cur);
	log->len += col - cur;
	log->buf[log->len] = 0;
}
