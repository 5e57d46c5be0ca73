/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading a Linux 6.18 verifier log: the statistics that end it
 *
 *   verification time 17 usec            (log level bit 4)
 *   stack depth 8+0                      (log level bit 4)
 *   processed 9 insns (limit 1000000) max_states_per_insn 0 total_states 1 peak_states 1 mark_read 0
 *
 * the message of a rejection (the last other line that is not a line of
 * source: at log level 4 the kernel may print the source line of the
 * failing instruction after its message), and the notes the
 * kernel writes while it applies CO-RE relocations for us:
 *
 *   CO-RE relocating STRUCT task_struct: found target candidate [123]
 *   prog '': relo #0: <byte_off> [5] struct task_struct.pid (0:58 @ offset 2416)
 *   vmlinux_cand_cache:[3]task_struct(123), ...      (log level 2)
 *   module_cand_cache:
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_load.h"

static bool has_prefix(const char *s, size_t len, const char *pfx)
{
	size_t n = strlen(pfx);

	return len >= n && !memcmp(s, pfx, n);
}

bool kstats_is_core_line(const char *line, size_t len)
{
	return has_prefix(line, len, "CO-RE relocating ") ||
	       has_prefix(line, len, "prog '': relo ") ||
	       has_prefix(line, len, "vmlinux_cand_cache:") ||
	       has_prefix(line, len, "module_cand_cache:");
}

static bool is_stats_line(const char *line, size_t len)
{
	return has_prefix(line, len, "verification time ") ||
	       has_prefix(line, len, "stack depth ") ||
	       has_prefix(line, len, "processed ");
}

/* "; r0 = *(u32 *)(r1 + 72) @ file.c:12": the kernel's line info, which
 * is never a message. */
static bool is_source_line(const char *line, size_t len)
{
	return has_prefix(line, len, "; ");
}

static bool is_blank(const char *line, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
			return false;
	return true;
}

/* Walks the lines backwards from `end`: sets *line and *len to the previous
 * line and returns false when there is none. */
static bool prev_line(const char *log, const char **end, const char **line, size_t *len)
{
	const char *e = *end, *s;

	if (e == log)
		return false;
	if (e[-1] == '\n')
		e--;
	s = e;
	while (s > log && s[-1] != '\n')
		s--;
	*line = s;
	*len = (size_t)(e - s);
	*end = s;
	return true;
}

#define VTIME "verification time "

/* Some messages lack their newline, and the statistics that follow land
 * on the same line: "insn 3 cannot call exception cb directlyverification
 * time 56 usec". Returns where the glued statistic starts, or NULL. */
static const char *glued_time(const char *line, size_t len)
{
	const char *p = memmem(line, len, VTIME, strlen(VTIME));

	return p && p != line ? p : NULL;
}

/* 6.12 follows "infinite loop detected at insn N" with the two states
 * that closed the loop; the message is the line before them. */
static bool is_loop_state_dump(const char *line, size_t len)
{
	return (len >= 10 && !memcmp(line, "cur state:", 10)) ||
	       (len >= 10 && !memcmp(line, "old state:", 10));
}

static bool last_message(const char *log, bool skip_core, char *buf, size_t sz,
			 bool *is_core)
{
	const char *end = log + strlen(log), *line, *glued;
	size_t len;

	while (prev_line(log, &end, &line, &len)) {
		bool core = kstats_is_core_line(line, len);

		glued = glued_time(line, len);
		if (glued)
			len = (size_t)(glued - line);
		if (is_blank(line, len) || is_stats_line(line, len) || is_source_line(line, len) ||
		    is_loop_state_dump(line, len) || (core && skip_core))
			continue;
		if (len >= sz)
			len = sz - 1;
		memcpy(buf, line, len);
		buf[len] = '\0';
		if (is_core)
			*is_core = core;
		return true;
	}
	return false;
}

bool kstats_error_line(const char *log, char *buf, size_t sz)
{
	return last_message(log, true, buf, sz, NULL);
}

/* The kernel's CO-RE progress notes, as opposed to its complaints. */
static bool is_core_progress(const char *line)
{
	static const char *const notes[] = {
		"found target candidate", ": <", "matching candidate #", "patched insn",
		"substituting insn", "no matching targets found", "_cand_cache:",
	};

	for (size_t i = 0; i < sizeof(notes) / sizeof(notes[0]); i++)
		if (strstr(line, notes[i]))
			return true;
	return false;
}

bool kstats_core_error(const char *log, char *buf, size_t sz)
{
	bool core = false;

	return last_message(log, false, buf, sz, &core) && core && !is_core_progress(buf);
}

bool kstats_verifier_ran(const char *log)
{
	const char *end = log + strlen(log), *line;
	size_t len;

	while (prev_line(log, &end, &line, &len))
		if (!is_blank(line, len) && !kstats_is_core_line(line, len))
			return true;
	return false;
}

static void parse_stack(const char *s, struct bpfvet_kernel_result *res)
{
	const size_t max = sizeof(res->stack_depth) / sizeof(res->stack_depth[0]);
	char *end;

	res->subprog_cnt = 0;
	while (res->subprog_cnt < max) {
		unsigned long v = strtoul(s, &end, 10);

		if (end == s)
			break;
		res->stack_depth[res->subprog_cnt++] = (uint32_t)v;
		if (*end != '+')
			break;
		s = end + 1;
	}
}

bool kstats_parse(const char *log, struct bpfvet_kernel_result *res)
{
	const char *end = log + strlen(log), *line;
	unsigned long long insns, limit, max_states, total, peak, mark, usec;
	bool found = false, time_seen = false, stack_seen = false;
	size_t len;

	while (prev_line(log, &end, &line, &len)) {
		if (!found && has_prefix(line, len, "processed ") &&
		    sscanf(line, "processed %llu insns (limit %llu) max_states_per_insn %llu "
			   "total_states %llu peak_states %llu mark_read %llu",
			   &insns, &limit, &max_states, &total, &peak, &mark) == 6) {
			found = true;
			res->insns_processed = insns;
			res->max_states_per_insn = max_states;
			res->total_states = total;
			res->peak_states = peak;
			res->mark_read = mark;
		} else if (!time_seen && (has_prefix(line, len, VTIME) || glued_time(line, len))) {
			const char *t = has_prefix(line, len, VTIME) ? line : glued_time(line, len);

			time_seen = sscanf(t, VTIME "%llu usec", &usec) == 1;
			if (time_seen)
				res->duration_ns = usec * 1000;
		} else if (!stack_seen && has_prefix(line, len, "stack depth ")) {
			stack_seen = true;
			parse_stack(line + strlen("stack depth "), res);
		}
		if (found && time_seen && stack_seen)
			break;
	}
	return found;
}
