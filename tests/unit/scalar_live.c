/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * test_scalar_kernel --live: a recorded program loaded again as
 * tests/scalar/gen.c loads it, and the kernel's log turned into the same
 * record lines. The conversion is gen.c's emit_log()/emit_error(), written
 * to a string instead of the gzip file; the two must stay the same, or
 * every program would drift.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "kernel_log.h"
#include "scalar_live.h"

#define LOG_SIZE (4u << 20)
#define F_TEST_REG_INVARIANTS (1u << 7)
#define S_X 0x08

/* A growing string. */
struct sbuf {
	char *s;
	size_t len, cap;
	bool oom;
};

static void sb_printf(struct sbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void sb_printf(struct sbuf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(b->s ? b->s + b->len : NULL, b->cap - b->len, fmt, ap);
		va_end(ap);
		if (n < 0 || b->oom) {
			b->oom = true;
			return;
		}
		if (b->len + (size_t)n < b->cap) {
			b->len += (size_t)n;
			return;
		}
		size_t cap = 2 * (b->cap + (size_t)n) + 64;
		char *grown = realloc(b->s, cap);

		if (!grown) {
			b->oom = true;
			return;
		}
		b->s = grown;
		b->cap = cap;
	}
}

/* Registers read by the jump or ALU insn at idx, as a bit set. */
static unsigned int regs_read(const struct bpf_insn *insns, size_t cnt, int idx)
{
	const struct bpf_insn *in;
	unsigned int set;

	if (idx < 0 || (size_t)idx >= cnt)
		return 0;
	in = &insns[idx];
	set = 1u << in->dst_reg;
	if (in->code & S_X)
		set |= 1u << in->src_reg;
	return set;
}

/* Removes "id=N," / "id=N+K," / "(id=N)" and a leading P from a state. */
static void clean_state(char *s)
{
	char *p, *q;

	if (s[0] == 'P')
		memmove(s, s + 1, strlen(s));
	p = strstr(s, "id=");
	if (!p)
		return;
	q = p + 3;
	while ((*q >= '0' && *q <= '9') || *q == '+' || *q == '-')
		q++;
	if (*q == ',')
		q++;
	memmove(p, q, strlen(q) + 1);
}

static bool is_scalar_state(const char *s)
{
	if (s[0] == 'P')
		s++;
	return strncmp(s, "scalar(", 7) == 0 || s[0] == '-' ||
	       (s[0] >= '0' && s[0] <= '9');
}

/* The scalar registers of a state text that are in `keep`. */
static void emit_regs(struct sbuf *out, const char *state, unsigned int keep)
{
	char tok[512];
	const char *s = state;

	while (klog_next_token(&s, tok, sizeof(tok))) {
		char *eq;
		int reg;

		if (tok[0] != 'R' || !(eq = strchr(tok, '=')))
			continue;
		reg = atoi(tok + 1);
		if (reg < 0 || reg > 10 || !(keep & (1u << reg)))
			continue;
		if (!is_scalar_state(eq + 1))
			continue;
		clean_state(eq + 1);
		sb_printf(out, " %s", tok);
	}
}

static bool parse_idx(const char *s, int *idx, const char **rest)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end != ':')
		return false;
	*idx = (int)v;
	*rest = end + 1;
	return true;
}

/* A "from A to B: ..." line. */
static void emit_from(struct sbuf *out, const struct bpf_insn *insns, size_t cnt,
		      const char *line, int a, int b, bool *after_from)
{
	const char *st = strchr(line, ':') + 1;

	if (strcmp(st, " safe") == 0) {
		sb_printf(out, "F %d %d\n", a, b);
		*after_from = false;
		return;
	}
	sb_printf(out, "f %d %d", a, b);
	emit_regs(out, st, regs_read(insns, cnt, a));
	sb_printf(out, "\n");
	*after_from = true;
}

/* gen.c's emit_log(): `pending` is an instruction line whose state comes
 * on a line of its own (after mark_precise output). */
static void emit_log(struct sbuf *out, const struct bpf_insn *insns, size_t cnt, char *log)
{
	char *line, *save = NULL;
	bool after_from = false, pending = false;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char *rest;
		int idx, a, b;

		if (sscanf(line, "from %d to %d:", &a, &b) == 2) {
			if (pending)
				sb_printf(out, "\n");
			pending = false;
			emit_from(out, insns, cnt, line, a, b, &after_from);
			continue;
		}
		if (!parse_idx(line, &idx, &rest))
			continue;
		if (strcmp(rest, " safe") == 0) {
			if (pending)
				sb_printf(out, "\n");
			pending = false;
			sb_printf(out, "s %d\n", idx);
			after_from = false;
		} else if (rest[0] == ' ' && rest[1] == '(') {
			const char *semi = strchr(rest, ';');

			if (pending)
				sb_printf(out, "\n");
			sb_printf(out, "i %d", idx);
			pending = !semi;
			if (semi) {
				emit_regs(out, semi + 1, ~0u);
				sb_printf(out, "\n");
			}
			after_from = false;
		} else if (rest[0] == ' ' && rest[1] == 'R') {
			if (!after_from && pending) {
				emit_regs(out, rest, ~0u);
				sb_printf(out, "\n");
				pending = false;
			}
			after_from = false;
		}
	}
	if (pending)
		sb_printf(out, "\n");
}

/* gen.c's emit_error(): the last line before the statistics. */
static void emit_error(struct sbuf *out, int err, char *log)
{
	char *line, *save = NULL, *last = NULL;

	for (line = strtok_r(log, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "processed ", 10) != 0)
			last = line;
	sb_printf(out, "e %d %s\n", err, last ? last : "");
}

/* The log and the copy emit_error() reads: 8 MiB, allocated once. */
static char *log_text, *log_copy;

void scalar_live_free(void)
{
	free(log_text);
	free(log_copy);
	log_text = log_copy = NULL;
}

int scalar_live_record(const void *insns, size_t cnt, char **out)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_size = LOG_SIZE, .log_level = 2,
		    .prog_flags = F_TEST_REG_INVARIANTS);
	struct sbuf b = { 0 };
	int fd, err;

	*out = NULL;
	if (!log_text)
		log_text = malloc(LOG_SIZE);
	if (!log_copy)
		log_copy = malloc(LOG_SIZE);
	if (!log_text || !log_copy)
		return -ENOMEM;
	opts.log_buf = log_text;
	log_text[0] = '\0';
	fd = bpf_prog_load(BPF_PROG_TYPE_RAW_TRACEPOINT, "scalar", "GPL", insns, cnt, &opts);
	err = fd < 0 ? -errno : 0;
	if (fd >= 0)
		close(fd);
	if (err == -EPERM || err == -ENOSPC || !log_text[0])
		return err ? err : -ENODATA;	/* gen.c records none either */
	memcpy(log_copy, log_text, strlen(log_text) + 1);
	emit_log(&b, insns, cnt, log_text);
	if (err)
		emit_error(&b, -err, log_copy);
	else
		sb_printf(&b, ".\n");
	if (b.oom) {
		free(b.s);
		return -ENOMEM;
	}
	*out = b.s ? b.s : calloc(1, 1);
	return *out ? 0 : -ENOMEM;
}
