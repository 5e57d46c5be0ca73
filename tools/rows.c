/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What `bpfvet verify` and `bpfvet kernel` share for their one-row-per-
 * program reports: the growing array of rows, the file column, the
 * quoting of csv and json values (veristat's formats), and the versioned
 * JSON document around the rows (docs/json.md), which ablate's uses too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define ROWS_FIRST_CAP 16

void *rows_add(struct rows *r, size_t size)
{
	char *slot;

	if (r->cnt == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : ROWS_FIRST_CAP;
		void *v = realloc(r->v, cap * size);

		if (!v)
			return NULL;
		r->v = v;
		r->cap = cap;
	}
	slot = (char *)r->v + r->cnt++ * size;
	memset(slot, 0, size);
	return slot;
}

const char *rows_base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* Quoted only when it must be, with "" for a quote (RFC 4180). */
void rows_csv_value(const char *s)
{
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

void rows_json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", *s);
		else
			putchar(*s);
	}
	putchar('"');
}

void rows_json_open_fields(const char *schema)
{
	printf("{\"schema\": ");
	rows_json_string(schema);
}

void rows_json_open_list(const char *key)
{
	printf(", ");
	rows_json_string(key);
	printf(": [");
}

void rows_json_row_start(bool first)
{
	printf("%s\n  ", first ? "" : ",");
}

void rows_json_close(void)
{
	printf("\n]}\n");
}
