/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Output of `bpfvet kernel`. The csv and json names follow veristat's
 * (total_insns, total_states, peak_states, ...) with a kernel_ or bpfvet_
 * prefix for each side; see README.md for the list. Statistics the side
 * did not produce (a refusal, a rejection before the statistics) are empty
 * in csv and null in json.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "kernel_cli.h"

#define CELL_SZ 512

enum side { BOTH, KERNEL, BPFVET, DIFF };

struct column {
	const char *csv;
	const char *header;	/* NULL: not in the table */
	enum side side;
	bool numeric;
	/* Writes the cell; returns false when it has no value. */
	bool (*get)(const struct krow *r, char *buf, size_t sz);
};

enum krow_match krow_match(const struct krow *r)
{
	if (!r->have_v)
		return MATCH_NONE;
	if (r->k.verdict == BPFVET_KERNEL_REFUSED || r->timed_out)
		return MATCH_NA;
	if (r->v.verdict == BPFVET_UNSUPPORTED)
		return MATCH_UNSUPPORTED;
	if ((r->k.verdict == BPFVET_KERNEL_ACCEPTED) == (r->v.verdict == BPFVET_ACCEPTED))
		return MATCH_YES;
	return MATCH_NO;
}

static const char *errno_name(int err)
{
	const char *n = err < 0 ? strerrorname_np(-err) : NULL;

	if (err == -524)	/* the kernel's internal ENOTSUPP */
		return "ENOTSUPP";
	return n ? n : "?";
}

static bool cell_str(char *buf, size_t sz, const char *s)
{
	snprintf(buf, sz, "%s", s ? s : "");
	return true;
}

static bool cell_num(char *buf, size_t sz, bool have, unsigned long long v)
{
	if (!have)
		return false;
	snprintf(buf, sz, "%llu", v);
	return true;
}

static bool get_file(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, r->file); }
static bool get_prog(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, r->prog); }
static bool get_section(const struct krow *r, char *b, size_t sz)
{
	return cell_str(b, sz, r->section);
}
static bool get_type(const struct krow *r, char *b, size_t sz)
{
	return cell_str(b, sz, r->type ? r->type : "unknown");
}

static const char *kverdict(const struct krow *r)
{
	if (r->timed_out)
		return "timeout";
	switch (r->k.verdict) {
	case BPFVET_KERNEL_ACCEPTED: return "success";
	case BPFVET_KERNEL_REJECTED: return "failure";
	default: return "refused";
	}
}

static bool get_kverdict(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, kverdict(r)); }

/* The table says why right away: "refused (EPERM)". */
static bool get_kverdict_table(const struct krow *r, char *b, size_t sz)
{
	if (r->k.verdict == BPFVET_KERNEL_REFUSED)
		snprintf(b, sz, "refused (%s)", errno_name(r->k.err));
	else
		cell_str(b, sz, kverdict(r));
	return true;
}

static bool get_kstage(const struct krow *r, char *b, size_t sz)
{
	return cell_str(b, sz, r->k.stage == BPFVET_STAGE_VERIFIER ? "verifier" : "pre-verifier");
}

static bool get_kerrno(const struct krow *r, char *b, size_t sz)
{
	snprintf(b, sz, "%d", r->k.err);
	return true;
}

static bool kstats(const struct krow *r) { return r->k.have_stats; }
static bool get_kinsns(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, kstats(r), r->k.insns_processed); }
static bool get_kstates(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, kstats(r), r->k.total_states); }
static bool get_kpeak(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, kstats(r), r->k.peak_states); }
static bool get_kmax(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, kstats(r), r->k.max_states_per_insn); }
static bool get_kmark(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, kstats(r), r->k.mark_read); }
static bool get_kdur(const struct krow *r, char *b, size_t sz)
{
	return cell_num(b, sz, kstats(r) && r->k.duration_ns, r->k.duration_ns / 1000);
}
static bool get_kerror(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, r->k.error); }

static const char *vverdict(const struct krow *r)
{
	if (r->v.err == -ENOEXEC)
		return "refused";
	switch (r->v.verdict) {
	case BPFVET_ACCEPTED: return "success";
	case BPFVET_REJECTED: return "failure";
	default: return "unsupported";
	}
}

/* bpfvet's statistics mean nothing when it stopped at something it does
 * not model. */
static bool vstats(const struct krow *r) { return r->have_v && r->v.verdict != BPFVET_UNSUPPORTED; }
static bool get_vverdict(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, vverdict(r)); }
static bool get_vinsns(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vstats(r), r->v.insns_processed); }
static bool get_vstates(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vstats(r), r->v.total_states); }
static bool get_vpeak(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vstats(r), r->v.peak_states); }
static bool get_vmax(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vstats(r), r->v.max_states_per_insn); }
static bool get_vmark(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vstats(r), r->v.mark_read); }
/* A program its loader refused never reached the verifier. */
static bool vran(const struct krow *r) { return r->have_v && r->v.err != -ENOEXEC; }
static bool get_vdur(const struct krow *r, char *b, size_t sz) { return cell_num(b, sz, vran(r), r->v.duration_ns / 1000); }
/* KiB, rounded up: the verifier's own allocation count (mem_peak). */
static bool get_vmem(const struct krow *r, char *b, size_t sz)
{
	return cell_num(b, sz, vran(r), (r->v.mem_peak + 1023) / 1024);
}
static bool get_verror(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, r->v.error); }

static bool get_match(const struct krow *r, char *b, size_t sz)
{
	static const char *const words[] = {
		[MATCH_NONE] = "", [MATCH_YES] = "yes", [MATCH_NO] = "no",
		[MATCH_UNSUPPORTED] = "unsupported", [MATCH_NA] = "n/a",
	};

	return cell_str(b, sz, words[krow_match(r)]);
}

static bool get_diff(const struct krow *r, char *b, size_t sz) { return cell_str(b, sz, r->diff); }

/* Table only: why a row is not a plain agreement. */
static bool get_details(const struct krow *r, char *b, size_t sz)
{
	b[0] = '\0';
	if (r->k.verdict == BPFVET_KERNEL_REFUSED)
		/* Who refused: the kernel, or our loader for it (an extern the
		 * kernel lacks, a map it cannot create, no attach target). */
		snprintf(b, sz, "%s (%s): %s",
			 r->k.stage == BPFVET_STAGE_KERNEL ? "kernel refused" : "not loadable",
			 errno_name(r->k.err), r->k.error);
	else if (krow_match(r) == MATCH_UNSUPPORTED)
		snprintf(b, sz, "bpfvet: %s", r->v.error);
	else if (krow_match(r) == MATCH_NO)
		snprintf(b, sz, "kernel: %s | bpfvet: %s",
			 r->k.error[0] ? r->k.error : "-", r->v.error[0] ? r->v.error : "-");
	else if (!r->have_v && r->k.verdict == BPFVET_KERNEL_REJECTED)
		snprintf(b, sz, "%s", r->k.error);
	return true;
}

static const struct column csv_cols[] = {
	{ "file_name", NULL, BOTH, false, get_file },
	{ "prog_name", NULL, BOTH, false, get_prog },
	{ "section", NULL, BOTH, false, get_section },
	{ "prog_type", NULL, BOTH, false, get_type },
	{ "kernel_verdict", NULL, KERNEL, false, get_kverdict },
	{ "kernel_stage", NULL, KERNEL, false, get_kstage },
	{ "kernel_errno", NULL, KERNEL, true, get_kerrno },
	{ "kernel_total_insns", NULL, KERNEL, true, get_kinsns },
	{ "kernel_total_states", NULL, KERNEL, true, get_kstates },
	{ "kernel_peak_states", NULL, KERNEL, true, get_kpeak },
	{ "kernel_max_states_per_insn", NULL, KERNEL, true, get_kmax },
	{ "kernel_mark_read", NULL, KERNEL, true, get_kmark },
	{ "kernel_duration", NULL, KERNEL, true, get_kdur },
	{ "kernel_error", NULL, KERNEL, false, get_kerror },
	{ "bpfvet_verdict", NULL, BPFVET, false, get_vverdict },
	{ "bpfvet_total_insns", NULL, BPFVET, true, get_vinsns },
	{ "bpfvet_total_states", NULL, BPFVET, true, get_vstates },
	{ "bpfvet_peak_states", NULL, BPFVET, true, get_vpeak },
	{ "bpfvet_max_states_per_insn", NULL, BPFVET, true, get_vmax },
	{ "bpfvet_mark_read", NULL, BPFVET, true, get_vmark },
	{ "bpfvet_duration", NULL, BPFVET, true, get_vdur },
	{ "bpfvet_mem_peak", NULL, BPFVET, true, get_vmem },
	{ "bpfvet_error", NULL, BPFVET, false, get_verror },
	{ "match", NULL, BPFVET, false, get_match },
	{ "log_diff", NULL, DIFF, false, get_diff },
};

static const struct column table_cols[] = {
	{ NULL, "File", BOTH, false, get_file },
	{ NULL, "Program", BOTH, false, get_prog },
	{ NULL, "Kernel", KERNEL, false, get_kverdict_table },
	{ NULL, "bpfvet", BPFVET, false, get_vverdict },
	{ NULL, "Match", BPFVET, false, get_match },
	{ NULL, "Insns (K)", KERNEL, true, get_kinsns },
	{ NULL, "Insns (B)", BPFVET, true, get_vinsns },
	{ NULL, "States (K)", KERNEL, true, get_kstates },
	{ NULL, "States (B)", BPFVET, true, get_vstates },
	{ NULL, "Peak (K)", KERNEL, true, get_kpeak },
	{ NULL, "Peak (B)", BPFVET, true, get_vpeak },
	{ NULL, "Time us (K)", KERNEL, true, get_kdur },
	{ NULL, "Time us (B)", BPFVET, true, get_vdur },
	{ NULL, "Details", BOTH, false, get_details },
};

#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

static bool shown(const struct column *c, bool kernel_only, bool log_diff)
{
	if (c->side == DIFF)
		return log_diff;
	return !(kernel_only && c->side == BPFVET);
}

static void table_cell(const struct column *c, const struct krow *r, char *buf)
{
	if (!c->get(r, buf, CELL_SZ))
		snprintf(buf, CELL_SZ, "-");
}

void kout_table(const struct krow *rows, size_t cnt, bool kernel_only)
{
	size_t width[NCOLS(table_cols)];
	char buf[CELL_SZ];
	size_t c;

	for (c = 0; c < NCOLS(table_cols); c++) {
		width[c] = strlen(table_cols[c].header);
		for (size_t i = 0; i < cnt; i++) {
			table_cell(&table_cols[c], &rows[i], buf);
			if (strlen(buf) > width[c])
				width[c] = strlen(buf);
		}
	}
	for (c = 0; c < NCOLS(table_cols); c++)
		if (shown(&table_cols[c], kernel_only, false))
			printf("%-*s  ", (int)width[c], table_cols[c].header);
	printf("\n");
	for (c = 0; c < NCOLS(table_cols); c++) {
		if (!shown(&table_cols[c], kernel_only, false))
			continue;
		for (size_t j = 0; j < width[c]; j++)
			putchar('-');
		printf("  ");
	}
	printf("\n");
	for (size_t i = 0; i < cnt; i++) {
		for (c = 0; c < NCOLS(table_cols); c++) {
			if (!shown(&table_cols[c], kernel_only, false))
				continue;
			table_cell(&table_cols[c], &rows[i], buf);
			printf(table_cols[c].numeric ? "%*s  " : "%-*s  ", (int)width[c], buf);
		}
		printf("\n");
	}
}

void kout_csv(const struct krow *rows, size_t cnt, bool kernel_only, bool log_diff)
{
	char buf[CELL_SZ];
	bool first = true;

	for (size_t c = 0; c < NCOLS(csv_cols); c++) {
		if (!shown(&csv_cols[c], kernel_only, log_diff))
			continue;
		printf("%s%s", first ? "" : ",", csv_cols[c].csv);
		first = false;
	}
	printf("\n");
	for (size_t i = 0; i < cnt; i++) {
		first = true;
		for (size_t c = 0; c < NCOLS(csv_cols); c++) {
			if (!shown(&csv_cols[c], kernel_only, log_diff))
				continue;
			if (!first)
				putchar(',');
			first = false;
			if (csv_cols[c].get(&rows[i], buf, sizeof(buf)))
				rows_csv_value(buf);
		}
		printf("\n");
	}
}

void kout_json(const struct krow *rows, size_t cnt, bool kernel_only, bool log_diff)
{
	char buf[CELL_SZ];

	rows_json_open_fields(JSON_SCHEMA_KERNEL);
	rows_json_open_list("programs");
	for (size_t i = 0; i < cnt; i++) {
		bool first = true;

		rows_json_row_start(!i);
		printf("{");
		for (size_t c = 0; c < NCOLS(csv_cols); c++) {
			const struct column *col = &csv_cols[c];

			if (!shown(col, kernel_only, log_diff))
				continue;
			printf("%s\"%s\": ", first ? "" : ", ", col->csv);
			first = false;
			if (!col->get(&rows[i], buf, sizeof(buf)))
				printf("null");
			else if (col->numeric)
				printf("%s", buf);
			else
				rows_json_string(buf);
		}
		printf("}");
	}
	rows_json_close();
}
