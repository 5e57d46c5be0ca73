/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Recorded kernel verdicts: the CSV file that stands in for the live kernel
 * where the runner cannot load programs (no privileges, another kernel).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference.h"

static const char *const kv_names[] = {
	[KV_NONE] = "none",
	[KV_SUCCESS] = "success",
	[KV_FAILURE] = "failure",
	[KV_REFUSED] = "refused",
	[KV_SKIPPED] = "skipped",
};

const char *kverdict_name(enum kverdict v)
{
	return (unsigned)v < sizeof(kv_names) / sizeof(kv_names[0]) ? kv_names[v] : "none";
}

enum kverdict kverdict_parse(const char *s)
{
	for (size_t i = 0; i < sizeof(kv_names) / sizeof(kv_names[0]); i++)
		if (!strcmp(s, kv_names[i]))
			return (enum kverdict)i;
	return KV_NONE;
}

void kref_free(struct kref *r)
{
	free(r->stage);
	free(r->error);
	free(r->log);
	memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------------ */
/* CSV                                                                 */
/* ------------------------------------------------------------------ */

void csv_field(FILE *f, const char *s, bool last)
{
	bool quote;

	if (!s)
		s = "";
	quote = strpbrk(s, ",\"") != NULL;
	if (quote)
		fputc('"', f);
	for (; *s; s++) {
		/* One record per line: a newline is written as \n. */
		if (*s == '\n')
			fputs("\\n", f);
		else if (*s == '\r')
			fputc(' ', f);
		else if (*s == '"')
			fputs("\"\"", f);
		else
			fputc(*s, f);
	}
	if (quote)
		fputc('"', f);
	fputc(last ? '\n' : ',', f);
}

size_t csv_split(char *line, char **fields, size_t max)
{
	size_t n = 0;
	char *r = line, *w;

	line[strcspn(line, "\r\n")] = 0;
	while (n < max) {
		fields[n++] = w = r;
		if (*r == '"') {
			r++;
			for (;;) {
				if (!*r)
					break;
				if (*r == '"' && r[1] == '"') {
					*w++ = '"';
					r += 2;
				} else if (*r == '"') {
					r++;
					break;
				} else {
					*w++ = *r++;
				}
			}
			while (*r && *r != ',')
				r++;
		} else {
			while (*r && *r != ',')
				*w++ = *r++;
		}
		if (!*r) {
			*w = 0;
			break;
		}
		r++;
		*w = 0;
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* The table                                                           */
/* ------------------------------------------------------------------ */

enum { COL_OBJECT, COL_PROG, COL_MODE, COL_VERDICT, COL_ERRNO, COL_STAGE, COL_MSG,
       COL_ERROR, COL_INSNS, COL_CNT };

/* Our columns, and their names in the csv of `bpfvet kernel -o csv`
 * (per-program loads, no modes: read as priv). */
static const char *const header[COL_CNT] = {
	"object", "program", "mode", "verdict", "errno", "stage", "msg_match", "error", "insns",
};
static const char *const kernel_cmd_header[COL_CNT] = {
	"file_name", "prog_name", NULL, "kernel_verdict", "kernel_errno", "kernel_stage", NULL,
	"kernel_error", "kernel_total_insns",
};

#define MAX_FIELDS 64

/* Where each of our columns is in the file; -1 when it has none. */
struct layout {
	int col[COL_CNT];
	size_t fields;		/* fields per row */
};

struct rec_row {
	char *key;		/* object \t program \t mode */
	enum kverdict verdict;
	int err;
	char *stage;
	char *error;
	int msg_match;
	long long insns;
};

struct recorded {
	struct rec_row *rows;	/* sorted by key */
	size_t cnt;
	char *comment;
	size_t comment_len;
};

static int row_cmp(const void *a, const void *b)
{
	return strcmp(((const struct rec_row *)a)->key, ((const struct rec_row *)b)->key);
}

static char *make_key(const char *object, const char *prog, const char *mode)
{
	size_t n = strlen(object) + strlen(prog) + strlen(mode) + 3;
	char *k = malloc(n);

	if (k)
		snprintf(k, n, "%s\t%s\t%s", object, prog, mode);
	return k;
}

static int add_comment(struct recorded *rec, const char *line)
{
	size_t n = strlen(line);
	char *c = realloc(rec->comment, rec->comment_len + n + 2);

	if (!c)
		return -ENOMEM;
	rec->comment = c;
	if (rec->comment_len)
		c[rec->comment_len++] = '\n';
	memcpy(c + rec->comment_len, line, n + 1);
	rec->comment_len += n;
	return 0;
}

static int find_layout(char **f, size_t n, const char *const *names, struct layout *lay)
{
	lay->fields = n;
	for (size_t c = 0; c < COL_CNT; c++) {
		lay->col[c] = -1;
		for (size_t i = 0; names[c] && i < n; i++)
			if (!strcmp(f[i], names[c]))
				lay->col[c] = (int)i;
		/* Older records have no instruction counts. */
		if (names[c] && lay->col[c] < 0 && c != COL_INSNS)
			return -EINVAL;
	}
	return 0;
}

static int check_header(char **f, size_t n, struct layout *lay)
{
	if (!find_layout(f, n, header, lay) && n == COL_CNT - (lay->col[COL_INSNS] < 0))
		return 0;
	return find_layout(f, n, kernel_cmd_header, lay);
}

static const char *field(char **f, const struct layout *lay, int c, const char *def)
{
	return lay->col[c] < 0 ? def : f[lay->col[c]];
}

/* The inverse of csv_field's "\n". */
static char *unescape_newlines(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;

	if (!out)
		return NULL;
	while (*s) {
		if (s[0] == '\\' && s[1] == 'n') {
			*o++ = '\n';
			s += 2;
		} else {
			*o++ = *s++;
		}
	}
	*o = 0;
	return out;
}

static int add_row(struct recorded *rec, char **f, const struct layout *lay, size_t *cap)
{
	const char *msg = field(f, lay, COL_MSG, "");
	const char *insns;
	struct rec_row *r;

	if (rec->cnt == *cap) {
		size_t nc = *cap ? *cap * 2 : 256;
		struct rec_row *v = realloc(rec->rows, nc * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rec->rows = v;
		*cap = nc;
	}
	r = &rec->rows[rec->cnt];
	memset(r, 0, sizeof(*r));
	r->key = make_key(field(f, lay, COL_OBJECT, ""), field(f, lay, COL_PROG, ""),
			  field(f, lay, COL_MODE, "priv"));
	r->stage = strdup(field(f, lay, COL_STAGE, ""));
	r->error = unescape_newlines(field(f, lay, COL_ERROR, ""));
	r->verdict = kverdict_parse(field(f, lay, COL_VERDICT, ""));
	r->err = atoi(field(f, lay, COL_ERRNO, "0"));
	r->msg_match = !strcmp(msg, "yes") ? 1 : !strcmp(msg, "no") ? 0 : -1;
	insns = field(f, lay, COL_INSNS, "");
	r->insns = insns[0] ? atoll(insns) : -1;
	/* Recorded before the recorder knew it: a failure with a log of
	 * statistics only is a load the kernel stopped before the walk, with
	 * no message (EPERM for iterators there), not a verifier verdict. */
	if (r->verdict == KV_FAILURE && !strcmp(r->stage, "verifier") && r->error &&
	    !r->error[0])
		r->verdict = KV_REFUSED;
	rec->cnt++;
	if (!r->key || !r->stage || !r->error)
		return -ENOMEM;
	return r->verdict == KV_NONE ? -EINVAL : 0;
}

static int parse_file(FILE *f, struct recorded *rec, char *err, size_t err_sz)
{
	char *line = NULL, *fields[MAX_FIELDS];
	size_t sz = 0, cap = 0, lineno = 0, n;
	bool seen_header = false;
	struct layout lay;
	int rc = 0;

	while (!rc && getline(&line, &sz, f) > 0) {
		lineno++;
		if (line[0] == '#') {
			line[strcspn(line, "\r\n")] = 0;
			rc = add_comment(rec, line[1] == ' ' ? line + 2 : line + 1);
			continue;
		}
		if (line[0] == '\n')
			continue;
		n = csv_split(line, fields, MAX_FIELDS);
		if (!seen_header) {
			rc = check_header(fields, n, &lay);
			seen_header = true;
		} else {
			rc = n == lay.fields ? add_row(rec, fields, &lay, &cap) : -EINVAL;
		}
		if (rc == -EINVAL)
			snprintf(err, err_sz, "line %zu: not a recorded verdict row", lineno);
	}
	free(line);
	if (!rc && !seen_header) {
		snprintf(err, err_sz, "no header line");
		rc = -EINVAL;
	}
	return rc;
}

int recorded_load(const char *path, struct recorded **recp, char *err, size_t err_sz)
{
	struct recorded *rec;
	FILE *f;
	int rc;

	*recp = NULL;
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, err_sz, "%s: %s", path, strerror(errno));
		return -errno;
	}
	rec = calloc(1, sizeof(*rec));
	if (!rec) {
		fclose(f);
		return -ENOMEM;
	}
	rc = parse_file(f, rec, err, err_sz);
	fclose(f);
	if (rc) {
		if (rc == -ENOMEM)
			snprintf(err, err_sz, "out of memory");
		recorded_free(rec);
		return rc;
	}
	qsort(rec->rows, rec->cnt, sizeof(*rec->rows), row_cmp);
	*recp = rec;
	return 0;
}

void recorded_free(struct recorded *rec)
{
	if (!rec)
		return;
	for (size_t i = 0; i < rec->cnt; i++) {
		free(rec->rows[i].key);
		free(rec->rows[i].stage);
		free(rec->rows[i].error);
	}
	free(rec->rows);
	free(rec->comment);
	free(rec);
}

const char *recorded_comment(const struct recorded *rec)
{
	return rec->comment ? rec->comment : "";
}

size_t recorded_count(const struct recorded *rec)
{
	return rec->cnt;
}

bool recorded_find(const struct recorded *rec, const char *object, const char *prog,
		   const char *mode, struct kref *out)
{
	struct rec_row want = { .key = make_key(object, prog, mode) }, *r;

	memset(out, 0, sizeof(*out));
	out->msg_match = -1;
	out->insns = -1;
	if (!want.key)
		return false;
	r = bsearch(&want, rec->rows, rec->cnt, sizeof(*rec->rows), row_cmp);
	free(want.key);
	if (!r)
		return false;
	out->verdict = r->verdict;
	out->err = r->err;
	out->stage = strdup(r->stage);
	out->error = strdup(r->error);
	out->msg_match = r->msg_match;
	out->insns = r->verdict == KV_SUCCESS || r->verdict == KV_FAILURE ? r->insns : -1;
	return out->stage && out->error;
}
