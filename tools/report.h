/* SPDX-License-Identifier: BSD-2-Clause */
/* bpfvet report: one self-contained HTML page for the programs of some
 * objects (docs/report.md). cmd_report.c runs the explanations,
 * report_html.c writes the page and each program's summary,
 * report_data.c the data its script draws from, report_assets.c (made by
 * scripts/embed-report-assets.py) the inlined style and script. */
#ifndef BPFVET_REPORT_H
#define BPFVET_REPORT_H

#include <stdio.h>

#include "bpfvet.h"

/* NULL-terminated lines of tools/report/page.css and page.js. */
extern const char *const report_css[];
extern const char *const report_js[];

/* One program's section of the page. */
struct report_prog {
	int id;					/* sections are "p<id>" */
	const char *file;			/* the object, without its folders */
	const struct bpfvet_program *prog;
	const struct bpfvet_explanation *e;	/* NULL when explain failed */
	int err;				/* explain's negative errno then */
};

/* Text for HTML content and attribute values: & < > " ' escaped. */
void report_html_text(FILE *f, const char *s);
/* A JSON string that is safe inside <script>: < > & as \u escapes. */
void report_json_string(FILE *f, const char *s);

void report_begin(FILE *f, const char *title);
/* 0, or -ENOMEM. */
int report_program(FILE *f, const struct report_prog *rp);
void report_end(FILE *f);

/* The <script type="application/json" class="data"> of a program; 0 or
 * -ENOMEM. */
int report_data(FILE *f, const struct report_prog *rp);

#endif
