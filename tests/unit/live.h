/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The --live mode of the kernel tests (make kernel-check). A normal run
 * compares bpfvet with what the reference kernel recorded; `--live` asks
 * the running kernel the recorded questions again and says where its
 * answers differ from the record, one line per differing field:
 *     DRIFT <item>: <field>: recorded <X>, live <Y>
 * then one summary line:
 *     DRIFT-SUMMARY <binary>: <N> items compared, <M> drifted
 * Drift is information about this machine's kernel, not a failure: the
 * binary exits 0. It exits non-zero only when it cannot compare at all
 * (and says why); without BPF privileges it prints a SKIP line instead.
 * Item names start with the fixture they come from ("maps/...",
 * "ctx/...") and never contain ": ".
 */
#ifndef BPFVET_TEST_LIVE_H
#define BPFVET_TEST_LIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct drift {
	const char *binary;
	unsigned long items;	/* compared */
	unsigned long drifted;
	bool cur;		/* the current item has drifted */
};

void drift_init(struct drift *d, const char *binary);
/* One DRIFT line for a field of the current item; the values are printed
 * as given (callers quote text, see drift_str). */
void drift_field(struct drift *d, const char *item, const char *field,
		 const char *recorded, const char *live);
/* Compare one field, quoted, and report it when it differs; returns
 * whether it did. */
bool drift_str(struct drift *d, const char *item, const char *field,
	       const char *recorded, const char *live);
bool drift_num(struct drift *d, const char *item, const char *field,
	       long long recorded, long long live);
/* Ends the current item: counts it, as drifted when a field differed. */
void drift_item_end(struct drift *d);
void drift_summary(const struct drift *d);

/*
 * Parses the command line shared by the kernel tests: no argument (the
 * normal run) or "--live". Other arguments are the caller's (extra, may be
 * NULL: e.g. "--update"); returns -1 for anything else, after printing the
 * usage.
 */
int live_parse_args(int argc, char **argv, const char *extra_usage,
		    bool *live);

/*
 * Can this process load BPF programs with a bpf-to-bpf call (CAP_BPF)?
 * Asks the kernel directly, never through bpfvet, so that a bpfvet bug
 * cannot turn a test into a skip. On false, `why` says what failed.
 */
bool live_bpf_usable(char *why, size_t sz);
/* Does the kernel run Linux 6.18, the release the records come from? The
 * running release (uname -r) goes to `release`. */
bool live_is_6_18(char *release, size_t sz);

/*
 * Preconditions of the cases that load into the kernel: each asks the
 * kernel directly (bpf(), its BTF, kallsyms), never bpfvet.
 */
/* 0 when the kernel creates a map of this shape, else -errno. With
 * inner_type, the map holds maps: an inner map of that type (key 4,
 * value 4, 1 entry) is made first. */
int live_map_errno(uint32_t type, uint32_t key, uint32_t value, uint32_t max,
		   uint32_t flags, uint64_t extra, uint32_t inner_type);
/* 0 when the kernel accepts "r0 = 0; exit" as a socket filter with these
 * prog_flags, else -errno. */
int live_prog_flags_errno(uint32_t flags);
/* Loads a socket filter (instructions in struct bpf_insn's layout) with
 * bpf() at `log_level`: does the kernel's log contain `want`? Its last
 * non-empty line before the statistics goes to `said`. */
bool live_prog_says(const void *insns, size_t cnt, uint32_t log_level,
		    const char *want, char *said, size_t sz);
/* Has the running kernel's BTF a type `name` of kind `kind` ("func",
 * "struct" or "typedef")? */
bool live_btf_has(const char *name, const char *kind);
/* Is `name` a symbol of /proc/kallsyms (with its address readable)? */
bool live_kallsyms_has(const char *name);
/* Frees what the preconditions cached (the kernel's BTF). */
void live_free(void);

#endif
