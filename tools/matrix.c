/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet OBJ.o --target 6.1,6.12,6.18: will these programs load on each
 * kernel? One row per program and one verdict column per target, as a
 * table, csv or json; with -e error, each target's first error too.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static const char *or_dash(const char *s)
{
	return s && s[0] ? s : "-";
}

static size_t column_width(const struct matrix *m, const char *header, int t, bool error)
{
	size_t w = strlen(header);

	for (size_t i = 0; i < m->cnt; i++) {
		const char *s = error ? m->rows[i].error[t] : m->rows[i].verdict[t];
		size_t n = strlen(or_dash(s));

		if (n > w)
			w = n;
	}
	return w;
}

static size_t name_width(const struct matrix *m, const char *header, bool prog)
{
	size_t w = strlen(header);

	for (size_t i = 0; i < m->cnt; i++) {
		size_t n = strlen(prog ? m->rows[i].prog : m->rows[i].file);

		if (n > w)
			w = n;
	}
	return w;
}

static void print_table(const struct matrix *m)
{
	size_t wf = name_width(m, "File", false), wp = name_width(m, "Program", true);
	size_t wv[MATRIX_MAX_TARGETS], we[MATRIX_MAX_TARGETS];
	char head[64];

	printf("%-*s  %-*s", (int)wf, "File", (int)wp, "Program");
	for (int t = 0; t < m->target_cnt; t++) {
		wv[t] = column_width(m, m->targets[t], t, false);
		printf("  %-*s", (int)wv[t], m->targets[t]);
	}
	for (int t = 0; m->errors && t < m->target_cnt; t++) {
		snprintf(head, sizeof(head), "Error (%s)", m->targets[t]);
		we[t] = column_width(m, head, t, true);
		printf("  %-*s", (int)we[t], head);
	}
	printf("\n");
	for (size_t i = 0; i < m->cnt; i++) {
		const struct matrix_row *r = &m->rows[i];

		printf("%-*s  %-*s", (int)wf, r->file, (int)wp, r->prog);
		for (int t = 0; t < m->target_cnt; t++)
			printf("  %-*s", (int)wv[t], or_dash(r->verdict[t]));
		for (int t = 0; m->errors && t < m->target_cnt; t++)
			printf("  %-*s", (int)we[t], or_dash(r->error[t]));
		printf("\n");
	}
}

static void print_csv(const struct matrix *m)
{
	printf("file_name,prog_name");
	for (int t = 0; t < m->target_cnt; t++) {
		putchar(',');
		rows_csv_value(m->targets[t]);
	}
	for (int t = 0; m->errors && t < m->target_cnt; t++) {
		char head[64];

		snprintf(head, sizeof(head), "error_%s", m->targets[t]);
		putchar(',');
		rows_csv_value(head);
	}
	printf("\n");
	for (size_t i = 0; i < m->cnt; i++) {
		const struct matrix_row *r = &m->rows[i];

		rows_csv_value(r->file);
		putchar(',');
		rows_csv_value(r->prog);
		for (int t = 0; t < m->target_cnt; t++) {
			putchar(',');
			rows_csv_value(r->verdict[t] ? r->verdict[t] : "");
		}
		for (int t = 0; m->errors && t < m->target_cnt; t++) {
			putchar(',');
			rows_csv_value(r->error[t] ? r->error[t] : "");
		}
		printf("\n");
	}
}

/* {"6.1": "failure", ...}; a target without the program gets null. */
static void print_json_map(const struct matrix *m, const char *const *v)
{
	printf("{");
	for (int t = 0; t < m->target_cnt; t++) {
		printf("%s", t ? ", " : "");
		rows_json_string(m->targets[t]);
		printf(": ");
		if (v[t])
			rows_json_string(v[t]);
		else
			printf("null");
	}
	printf("}");
}

static void print_json(const struct matrix *m)
{
	rows_json_open_fields(JSON_SCHEMA_MATRIX);
	printf(", \"targets\": [");
	for (int t = 0; t < m->target_cnt; t++) {
		printf("%s", t ? ", " : "");
		rows_json_string(m->targets[t]);
	}
	printf("]");
	rows_json_open_list("programs");
	for (size_t i = 0; i < m->cnt; i++) {
		const struct matrix_row *r = &m->rows[i];

		rows_json_row_start(!i);
		printf("{\"file_name\": ");
		rows_json_string(r->file);
		printf(", \"prog_name\": ");
		rows_json_string(r->prog);
		printf(", \"verdicts\": ");
		print_json_map(m, r->verdict);
		if (m->errors) {
			printf(", \"errors\": ");
			print_json_map(m, r->error);
		}
		printf("}");
	}
	rows_json_close();
}

void matrix_print(const struct matrix *m, enum out_fmt fmt)
{
	if (fmt == OUT_CSV)
		print_csv(m);
	else if (fmt == OUT_JSON)
		print_json(m);
	else
		print_table(m);
}
