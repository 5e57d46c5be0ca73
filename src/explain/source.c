/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Source lines from BTF line_info, as the verifier's log prints them
 * (state/print.c): the last entry at or before the instruction.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "explain.h"

static int find_entry(const struct bpfvet_program *prog, uint32_t insn)
{
	size_t lo = 0, hi = prog->line_info_cnt;

	/* Entries are sorted by instruction: the last one not after insn. */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (prog->line_info[mid].insn_off <= insn)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? (int)lo - 1 : -1;
}

int explain_source_line(const struct bpfvet_program *prog, uint32_t insn,
			struct bpfvet_source_line *line)
{
	const struct bpfvet_line_info *li;
	const char *text, *file, *base;
	int i;

	memset(line, 0, sizeof(*line));
	if (!prog || !prog->obj || !prog->obj->btf || insn >= prog->insn_cnt)
		return -ENOENT;
	i = find_entry(prog, insn);
	if (i < 0)
		return -ENOENT;
	li = &prog->line_info[i];
	text = btf__name_by_offset(prog->obj->btf, li->line_off);
	file = btf__name_by_offset(prog->obj->btf, li->file_name_off);
	while (text && (*text == ' ' || *text == '\t'))
		text++;
	base = file ? strrchr(file, '/') : NULL;
	line->file = base ? base + 1 : file;
	line->text = text;
	line->line = li->line_col >> 10;
	line->col = li->line_col & 0x3ff;
	return 0;
}
