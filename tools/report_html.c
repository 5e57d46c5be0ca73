/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The report page: its head (inlined style, nothing fetched), one
 * section per program whose summary is plain HTML (readable without the
 * script: verdict, figures, error, class, hint, loss), followed by the
 * program's data, and the script that draws the rest (report/page.js).
 * Every string from the object or the verifier is escaped here.
 */
#include <errno.h>
#include <string.h>

#include "report.h"

void report_html_text(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*s, f);
		}
	}
}

void report_json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == '<' || c == '>' || c == '&')
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_lines(FILE *f, const char *const *lines)
{
	for (; *lines; lines++)
		fputs(*lines, f);
}

void report_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width\">\n<title>bpfvet report: ", f);
	report_html_text(f, title);
	fputs("</title>\n<style>\n", f);
	put_lines(f, report_css);
	fputs("</style></head><body>\n<h1>bpfvet report: ", f);
	report_html_text(f, title);
	fprintf(f, "</h1>\n<p class=\"note\">bpfvet %d.%d. "
		"Counts per instruction are the verifier's work: visits, states stored, "
		"prune hits and misses, precision marks.</p>\n<nav></nav>\n",
		BPFVET_VERSION_MAJOR, BPFVET_VERSION_MINOR);
}

void report_end(FILE *f)
{
	fputs("<script>\n", f);
	put_lines(f, report_js);
	fputs("</script>\n</body></html>\n", f);
}

static const char *verdict_name(const struct report_prog *rp)
{
	const struct bpfvet_result *r = rp->e ? bpfvet_explanation__result(rp->e) : NULL;

	if (!r)
		return "refused";
	if (r->err == -ENOEXEC)
		return "refused";
	return r->verdict == BPFVET_ACCEPTED ? "accepted" :
	       r->verdict == BPFVET_REJECTED ? "rejected" : "unsupported";
}

/* <a class="jump"> to an instruction, with its source line. */
static void put_where(FILE *f, const struct bpfvet_explanation *e, int64_t insn)
{
	struct bpfvet_source_line l;

	fprintf(f, "<a class=\"jump\" data-insn=\"%lld\">insn %lld", (long long)insn,
		(long long)insn);
	if (!bpfvet_explanation__line(e, (uint32_t)insn, &l)) {
		fputs(", ", f);
		report_html_text(f, l.file ? l.file : "?");
		fprintf(f, ":%u: <code>", l.line);
		report_html_text(f, l.text);
		fputs("</code>", f);
	}
	fputs("</a>", f);
}

static void put_item(FILE *f, const char *name, const char *cls, const char *text)
{
	fprintf(f, "<dt>%s</dt><dd class=\"%s\">", name, cls);
	report_html_text(f, text);
	fputs("</dd>\n", f);
}

static void put_rejection(FILE *f, const struct bpfvet_explanation *e)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);
	const struct bpfvet_loss *loss = bpfvet_explanation__loss(e);
	int64_t ei = bpfvet_explanation__error_insn(e), root = bpfvet_explanation__root_insn(e);

	fputs("<dt>error</dt><dd><pre class=\"error\">", f);
	report_html_text(f, r->error);
	fputs("</pre>", f);
	if (ei >= 0) {
		fputs("at ", f);
		put_where(f, e, ei);
	}
	fputs("</dd>\n", f);
	put_item(f, "class", "class", bpfvet_explain_class_name(bpfvet_explanation__class(e)));
	if (bpfvet_explanation__hint(e) && bpfvet_explanation__hint(e)[0])
		put_item(f, "hint", "hint", bpfvet_explanation__hint(e));
	if (bpfvet_explanation__checked(e))
		put_item(f, "checked", "checked", bpfvet_explanation__checked(e));
	if (loss) {
		fputs("<dt>knowledge lost</dt><dd class=\"loss\">", f);
		report_html_text(f, loss->kind);
		fputs(" at ", f);
		put_where(f, e, loss->insn);
		fputs(": ", f);
		report_html_text(f, loss->reason);
		fputs("</dd>\n", f);
	}
	if (root >= 0 && root != ei && (!loss || root != loss->insn)) {
		fputs("<dt>root cause</dt><dd class=\"root\">", f);
		put_where(f, e, root);
		fputs("</dd>\n", f);
	}
}

static void put_figures(FILE *f, const struct bpfvet_explanation *e)
{
	const struct bpfvet_result *r = bpfvet_explanation__result(e);
	size_t n;

	bpfvet_explanation__insn_stats(e, &n);
	fprintf(f, "<dt>work</dt><dd><span class=\"processed\">%llu</span> instructions processed, "
		"<span class=\"states\">%llu</span> states stored (peak %llu), "
		"<span class=\"size\">%zu</span> instructions in the program</dd>\n",
		(unsigned long long)r->insns_processed, (unsigned long long)r->total_states,
		(unsigned long long)r->peak_states, n);
}

/* Which kernel's verifier the verdict is for. */
static void put_target(FILE *f, uint32_t v)
{
	if (!v)
		fputs(", for <span class=\"target\">Linux 6.18</span> (the newest target)", f);
	else
		fprintf(f, ", for <span class=\"target\">Linux %u.%u.%u</span>", v >> 16,
			(v >> 8) & 0xff, v & 0xff);
}

int report_program(FILE *f, const struct report_prog *rp)
{
	const char *verdict = verdict_name(rp);
	const char *name = bpfvet_program__name(rp->prog);

	fprintf(f, "<section class=\"prog\" id=\"p%d\" data-verdict=\"%s\" data-prog=\"", rp->id,
		verdict);
	report_html_text(f, name);
	fputs("\">\n<h2><span class=\"name\">", f);
	report_html_text(f, name);
	fprintf(f, "</span> <span class=\"verdict %s\">%s</span> <span class=\"note\">", verdict,
		verdict);
	report_html_text(f, rp->file);
	fputs(", section ", f);
	report_html_text(f, bpfvet_program__section(rp->prog));
	put_target(f, bpfvet_program__target_version(rp->prog));
	fputs("</span></h2>\n<dl class=\"summary\">\n", f);
	if (!rp->e) {
		const char *why = bpfvet_program__problem(rp->prog);

		put_item(f, "error", "error", why ? why : strerror(-rp->err));
		fputs("</dl>\n</section>\n", f);
		return 0;
	}
	put_figures(f, rp->e);
	if (bpfvet_explanation__result(rp->e)->verdict != BPFVET_ACCEPTED)
		put_rejection(f, rp->e);
	fputs("</dl>\n<div class=\"ui\"></div>\n", f);
	if (report_data(f, rp))
		return -ENOMEM;
	fputs("</section>\n", f);
	return 0;
}
