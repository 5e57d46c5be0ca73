/* SPDX-License-Identifier: BSD-2-Clause */
#include <ctype.h>
#include <stddef.h>
#include <string.h>

#include "kernel_log.h"

#define LOG_MIN_ALIGN	8	/* kernel BPF_LOG_MIN_ALIGNMENT */
#define LOG_ALIGN	40	/* kernel BPF_LOG_ALIGNMENT */
#define LIVE_MAP_LEN	10	/* r0..r9 */

/* The kernel's bpf_vlog_alignment(): padding after `pos` characters so that
 * the next character lands on a multiple of 8, at least 4 columns away and
 * not before column 40. Returns the column of the character after it. */
static size_t aligned_column(size_t pos)
{
	size_t want = pos + LOG_MIN_ALIGN / 2;

	if (want < LOG_ALIGN)
		want = LOG_ALIGN;
	return (want + LOG_MIN_ALIGN - 1) / LOG_MIN_ALIGN * LOG_MIN_ALIGN - 1;
}

size_t klog_state_column(size_t len)
{
	/* The kernel measured the line with its newline, then removed it. */
	return aligned_column(len + 1) - 1;
}

size_t klog_live_note_column(size_t text_len)
{
	return aligned_column(text_len);
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

static void skip_spaces(const char **p, const char *end)
{
	while (*p < end && **p == ' ')
		(*p)++;
}

/* Splits "text[<pad>; note]" into the text and what follows "; ". With
 * `col` (the column that ';' must be at, relative to `text`) it also
 * checks the padding. */
static void split_note(const char *text, const char *end, size_t base,
		       size_t (*col)(size_t), struct klog_insn *out)
{
	const char *semi = memchr(text, ';', (size_t)(end - text));
	const char *text_end;

	out->text = text;
	if (!semi) {
		out->text_len = (size_t)(end - text);
		return;
	}
	text_end = semi;
	while (text_end > text && text_end[-1] == ' ')
		text_end--;
	out->text_len = (size_t)(text_end - text);
	out->pad_ok = text_end < semi &&
		      (size_t)(semi - text) + base ==
			      col((size_t)(text_end - text) + base);
	out->state = semi + 1;
	if (out->state < end && *out->state == ' ')
		out->state++;
	out->state_len = (size_t)(end - out->state);
}

/* "[%3d ]%3d: <map> text": an optional SCC number, then the index. */
static bool parse_live_row(const char *line, const char *end,
			   struct klog_insn *out)
{
	const char *p = line;
	unsigned long first;
	int i;

	skip_spaces(&p, end);
	if (!parse_index(&p, end, &first))
		return false;
	out->idx = first;
	if (p < end && *p == ' ') {
		skip_spaces(&p, end);
		if (!parse_index(&p, end, &out->idx))
			return false;
		out->scc = first;
	}
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
	split_note(p, end, 0, klog_live_note_column, out);
	return true;
}

static bool parse_trace(const char *line, const char *end,
			struct klog_insn *out)
{
	const char *p = line;

	if (!parse_index(&p, end, &out->idx))
		return false;
	if (end - p < 2 || p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	if (!starts_insn_text(p, end))
		return false;
	out->kind = KLOG_TRACE;
	split_note(p, end, (size_t)(p - line), klog_state_column, out);
	return true;
}

/* "mark_precise: frame%d: regs=%s stack=%s before IDX: text" */
static bool parse_precise(const char *line, const char *end,
			  struct klog_insn *out)
{
	static const char prefix[] = "mark_precise: frame";
	static const char before[] = " before ";
	const size_t plen = sizeof(prefix) - 1, blen = sizeof(before) - 1;
	const char *p;

	if ((size_t)(end - line) < plen || memcmp(line, prefix, plen) != 0)
		return false;
	for (p = line + plen; end - p >= (ptrdiff_t)blen; p++)
		if (memcmp(p, before, blen) == 0)
			break;
	if (end - p < (ptrdiff_t)blen)
		return false;
	p += blen;
	if (!parse_index(&p, end, &out->idx))
		return false;
	if (end - p < 2 || p[0] != ':' || p[1] != ' ')
		return false;
	p += 2;
	if (!starts_insn_text(p, end))
		return false;
	out->kind = KLOG_PRECISE;
	out->text = p;
	out->text_len = (size_t)(end - p);
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
	if (parse_precise(line, end, out))
		return KLOG_PRECISE;
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

bool klog_next_token(const char **s, char *tok, size_t tok_sz)
{
	const char *p = *s;
	size_t n = 0;
	int depth = 0;

	while (*p == ' ')
		p++;
	if (!*p) {
		*s = p;
		return false;
	}
	while (*p && (depth > 0 || *p != ' ')) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		if (n + 1 < tok_sz)
			tok[n++] = *p;
		p++;
	}
	if (tok_sz)
		tok[n] = '\0';
	*s = p;
	return true;
}
