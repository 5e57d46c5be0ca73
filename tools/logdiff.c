/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * --log-diff: where a kernel log and a bpfvet log part ways. Before
 * comparing, each line is masked where the two may honestly differ:
 *  - kernel addresses (0xffff followed by 12 hex digits): maps, map values
 *    and ksyms print real pointers in the kernel, synthetic ones in bpfvet;
 *  - the number after '#' in "call NAME#N": a kfunc's vmlinux BTF id in
 *    the kernel, the object's BTF id in bpfvet;
 *  - the value of "verification time N usec".
 * The kernel's CO-RE notes ("CO-RE relocating ...", "prog '': relo ...",
 * the candidate caches) are dropped: they exist only because the kernel
 * relocates for us.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_cli.h"

#define LINE_MAX_SHOWN 160

void logbuf_append(struct logbuf *b, const char *text, size_t len)
{
	if (b->oom)
		return;
	if (b->len + len + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 4096;
		char *nb;

		while (cap < b->len + len + 1)
			cap *= 2;
		nb = realloc(b->buf, cap);
		if (!nb) {
			b->oom = true;
			return;
		}
		b->buf = nb;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, text, len);
	b->len += len;
	b->buf[b->len] = '\0';
}

void logbuf_free(struct logbuf *b)
{
	free(b->buf);
	memset(b, 0, sizeof(*b));
}

static bool starts(const char *s, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);

	return len >= n && !memcmp(s, pfx, n);
}

static bool is_core_note(const char *s, size_t len)
{
	return starts(s, len, "CO-RE relocating ") || starts(s, len, "prog '': relo ") ||
	       starts(s, len, "vmlinux_cand_cache:") || starts(s, len, "module_cand_cache:");
}

/* Appends c to out if there is room (one byte is kept for the NUL). */
static void put(char *out, size_t sz, size_t *o, char c)
{
	if (*o + 1 < sz)
		out[(*o)++] = c;
}

static void puts_masked(char *out, size_t sz, size_t *o, const char *s)
{
	while (*s)
		put(out, sz, o, *s++);
}

static size_t hex_run(const char *s, size_t len)
{
	size_t n = 0;

	while (n < len && isxdigit((unsigned char)s[n]))
		n++;
	return n;
}

void logdiff_mask(const char *line, size_t len, char *out, size_t sz)
{
	bool in_call = false;
	size_t o = 0, i = 0;

	if (!sz)
		return;
	if (starts(line, len, "verification time ")) {
		snprintf(out, sz, "verification time * usec");
		return;
	}
	while (i < len) {
		if (starts(line + i, len - i, "call "))
			in_call = true;
		if (starts(line + i, len - i, "0xffff") && hex_run(line + i + 2, len - i - 2) == 16) {
			puts_masked(out, sz, &o, "0xADDR");
			i += 18;
			continue;
		}
		if (in_call && line[i] == '#' && i + 1 < len && isdigit((unsigned char)line[i + 1])) {
			puts_masked(out, sz, &o, "#ID");
			for (i++; i < len && isdigit((unsigned char)line[i]); i++)
				;
			continue;
		}
		put(out, sz, &o, line[i++]);
	}
	out[o] = '\0';
}

/* Next line of a log at *pos, skipping CO-RE notes when asked. */
static bool next_line(const struct logbuf *b, size_t *pos, bool skip_core,
		      const char **line, size_t *len)
{
	while (b->buf && *pos < b->len) {
		const char *s = b->buf + *pos, *nl = memchr(s, '\n', b->len - *pos);
		size_t l = nl ? (size_t)(nl - s) : b->len - *pos;

		*pos += l + (nl ? 1 : 0);
		if (skip_core && is_core_note(s, l))
			continue;
		*line = s;
		*len = l;
		return true;
	}
	return false;
}

static int describe(char **out, size_t n, const char *k, const char *v)
{
	int len = asprintf(out, "line %zu: kernel '%.*s' vs bpfvet '%.*s'", n,
			   LINE_MAX_SHOWN, k, LINE_MAX_SHOWN, v);

	return len < 0 ? -ENOMEM : 0;
}

int logdiff_compare(const struct logbuf *kernel, const struct logbuf *bpfvet, char **out)
{
	char km[4096], vm[4096];
	size_t kp = 0, vp = 0, n = 0;

	*out = NULL;
	if (kernel->oom || bpfvet->oom)
		return -ENOMEM;
	for (;;) {
		const char *kl, *vl;
		size_t klen, vlen;
		bool kh = next_line(kernel, &kp, true, &kl, &klen);
		bool vh = next_line(bpfvet, &vp, false, &vl, &vlen);

		n++;
		if (!kh && !vh)
			break;
		logdiff_mask(kh ? kl : "<end of log>", kh ? klen : strlen("<end of log>"),
			     km, sizeof(km));
		logdiff_mask(vh ? vl : "<end of log>", vh ? vlen : strlen("<end of log>"),
			     vm, sizeof(vm));
		if (kh != vh || strcmp(km, vm))
			return describe(out, n, km, vm);
	}
	return asprintf(out, "identical (%zu lines)", n - 1) < 0 ? -ENOMEM : 0;
}
