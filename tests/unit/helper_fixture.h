/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by test_helpers (fixtures vs tables) and test_helpers_kernel
 * (live kernel vs tables, fixture refresh): the fixture line formats and
 * what our tables predict for each kernel probe.
 */
#ifndef BPFVET_HELPER_FIXTURE_H
#define BPFVET_HELPER_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/helpers_internal.h"

#define HFX_IDS 213	/* helper ids probed: 0..212 (212 is invalid) */
#define HFX_DIR "tests/fixtures/helpers"	/* the record */

/* One program configuration the kernel was asked about. */
struct hfx_config {
	char name[64];
	uint32_t prog_type;
	uint32_t attach;
	uint32_t flags;		/* prog_flags (BPF_F_SLEEPABLE = 16) */
	bool perfmon;		/* false: loaded without CAP_PERFMON/SYS_ADMIN */
	uint32_t moff;		/* struct_ops member offset */
};

/* The query our tables answer for a configuration. */
void hfx_query(const struct hfx_config *c, struct helper_query *q);

/* "1-3,5,7-9" <-> bool set[HFX_IDS]; parse returns -1 on bad input. */
void hfx_format_ids(const bool *set, char *buf, size_t sz);
int hfx_parse_ids(const char *s, bool *set);

/*
 * avail.txt line: "<name> <type> <attach> <flags> <full|noperfmon> <moff>:
 * <ids>". Returns 0, or -1 for comments/bad lines.
 */
int hfx_parse_config(const char *line, struct hfx_config *c, bool *ids);
void hfx_format_config(const struct hfx_config *c, char *buf, size_t sz);

/* Argument probes: the value put into the probed register. */
enum hfx_probe {
	HFX_ONE,	/* known scalar 1 */
	HFX_ZERO,	/* known scalar 0 */
	HFX_NEG,	/* known scalar -1 */
	HFX_UNKNOWN,	/* unknown u32 scalar (bpf_get_prandom_u32) */
	HFX_PROBES,
};
extern const char *const hfx_probe_names[HFX_PROBES];

/*
 * What the kernel should say about argument `argno` (0-based) of `p` when
 * it holds the probe value and all earlier arguments are valid: "-" when
 * the argument is accepted, else the log message for R<argno+1> without
 * the "R<n> " prefix.
 */
void hfx_predict(const struct helper_proto *p, int argno, enum hfx_probe pr,
		 char *buf, size_t sz);

/*
 * args.txt stores kernel messages with the long recurring ones replaced by
 * short codes (MEM, NEG, ZERO, NOTCONST); this makes that replacement.
 */
const char *hfx_abbrev(const char *msg);

/* Can the probe program build a valid value for this argument type? */
bool hfx_arg_constructible(const struct helper_proto *p, int argno);

#endif
