/* SPDX-License-Identifier: BSD-2-Clause */
#include <ctype.h>
#include <string.h>

#include "kernel_log.h"

#define LOG_MIN_ALIGN	8	/* kernel BPF_LOG_MIN_ALIGNMENT */
#define LOG_ALIGN	40	/* kernel BPF_LOG_ALIGNMENT */
#define LIVE_MAP_LEN	10	/* r0..r9 */

size_t klog_state_column(size_t len)
{
	/* The kernel measures the line with its newline (len + 1) and pads
	 * to a multiple of 8 at least half an alignment step away, minus the
	 * newline it removed. */
	size_t pos = len + 1;
	size_t want = pos + LOG_MIN_ALIGN / 2;

	if (want < LOG_ALIGN)
		want = LOG_ALIGN;
	want = (want + LOG_MIN_ALIGN - 1) / LOG_MIN_ALIGN * LOG_MIN_ALIGN;
	return want - 2;
}

/* Reads a decimal index at *p; false when there is none. */
static bool parse_index(const char **p, const char *end, unsigned long *idx)
{
	const char *s = *p;
	unsigned long v = 0;

	if (s == end || !isdigit((unsigned char)*s))
		return false;
	while (s < end && isdigit((unsigned char)*s))
		v = v * 10 + (unsigned long)(*s++ - '0');
	*p = s;
	*idx = v;
	return true;
}

/* Disassembly starts with "(xx) " or, for unprintable modes, "BUG_". */
static bool starts_insn_text(const char *s, const char *end)
{
	if (end - s >= 5 && s[0] == '(' && isxdigit((unsigned char)s[1]) &&
	    isxdigit((unsigned char)s[2]) && s[3] == ')' && s[4] == ' ')
		return true;
	return end - s >= 4 && memcmp(s, "BUG_", 4) == 0;
}

static bool parse_live_row(const char *line, const char *end,
			   struct klog_insn *out)
{
	const char *p = line;
	int i;

	/* The index is right-aligned in 7 columns. */
	while (p < end && *p == ' ')
		p++;
	if (!parse_index(&p, end, &out->idx))
		return false;
	if (end - p < 2 + LIVE_MAP_LEN + 1 || p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	for (i = 0; i < LIVE_MAP_LEN; i++)
		if (p[i] != '.' && !isdigit((unsigned char)p[i]))
			return false;
	if (p[LIVE_MAP_LEN] != ' ')
		return false;
	out->live = p;
	p += LIVE_MAP_LEN + 1;
	if (!starts_insn_text(p, end))
		return false;
	out->kind = KLOG_LIVE;
	out->text = p;
	out->text_len = (size_t)(end - p);
	return true;
}

static bool parse_trace(const char *line, const char *end,
			struct klog_insn *out)
{
	const char *p = line, *semi, *text_end;

	if (!parse_index(&p, end, &out->idx))
		return false;
	if (end - p < 2 || p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	if (!starts_insn_text(p, end))
		return false;
	out->kind = KLOG_TRACE;
	out->text = p;
	semi = memchr(p, ';', (size_t)(end - p));
	if (!semi) {
		out->text_len = (size_t)(end - p);
		return true;
	}
	text_end = semi;
	while (text_end > p && text_end[-1] == ' ')
		text_end--;
	out->text_len = (size_t)(text_end - p);
	out->pad_ok = text_end < semi &&
		      (size_t)(semi - line) ==
			      klog_state_column((size_t)(text_end - line));
	out->state = semi + 1;
	if (out->state < end && *out->state == ' ')
		out->state++;
	out->state_len = (size_t)(end - out->state);
	return true;
}

enum klog_kind klog_parse_line(const char *line, size_t len,
			       struct klog_insn *out)
{
	const char *end = line + len;

	memset(out, 0, sizeof(*out));
	out->pad_ok = true;
	if (parse_live_row(line, end, out))
		return KLOG_LIVE;
	if (parse_trace(line, end, out))
		return KLOG_TRACE;
	memset(out, 0, sizeof(*out));
	out->kind = KLOG_OTHER;
	out->pad_ok = true;
	return KLOG_OTHER;
}

bool klog_next_line(const char **cursor, const char **line, size_t *len)
{
	const char *s = *cursor, *nl;

	if (!s || !*s)
		return false;
	nl = strchr(s, '\n');
	*line = s;
	if (nl) {
		*len = (size_t)(nl - s);
		*cursor = nl + 1;
	} else {
		*len = strlen(s);
		*cursor = s + *len;
	}
	return true;
}
