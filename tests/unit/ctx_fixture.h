/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test support for the ctx access rules: the program variants probed
 * against the kernel, and the fixture files (tests/fixtures/ctx/NAME.txt)
 * that record the kernel's verdict for every (access kind, size, offset).
 *
 * A verdict is one character:
 *   '.'  rejected with "invalid bpf_context access off=O size=S"
 *   'w'  store accepted
 *   'x'  refused before verification (empty log)
 *   '0'..'9'  rejected with another message, listed in the file as
 *        "msg DIGIT TEXT"
 *   other letters: load accepted, the destination register has the type
 *        of ctxfix_types[] (e.g. 's' scalar, 'p' pkt).
 *
 * File format (lines starting with '#' are comments):
 *   variant NAME
 *   prog_type N
 *   attach N
 *   size N
 *   status verified | status refused errno=N
 *   msg DIGIT TEXT
 *   LANE FIRST_OFFSET VERDICTS      e.g. "L4 -8 ....ssss"
 * LANE is a kind (L ldx, S ldsx, X stx, I st) and a size; each verdict
 * line covers up to CTXFIX_CHUNK consecutive offsets.
 */
#ifndef BPFVET_TEST_CTX_FIXTURE_H
#define BPFVET_TEST_CTX_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CTXFIX_DIR	"tests/fixtures/ctx"
#define CTXFIX_CHUNK	64
#define CTXFIX_MAX_MSGS	10
#define CTXFIX_MSG_LEN	160
#define CTXFIX_MAX_RANGES 3

struct ctxfix_range {
	int from, to;		/* offsets [from, to) */
};

struct ctxfix_variant {
	const char *name;	/* fixture file name without ".txt" */
	uint32_t prog_type;
	uint32_t attach;	/* expected_attach_type */
	int size;		/* context size */
	uint32_t prog_flags;	/* e.g. BPF_F_SLEEPABLE for syscall */
	/* 0: the defaults, [-32768, -32760), [-8, size + 8) and
	 * [32760, 32768): around the context and at the ends of the s16
	 * instruction offset. */
	int nranges;
	struct ctxfix_range ranges[CTXFIX_MAX_RANGES];
};

extern const struct ctxfix_variant ctxfix_variants[];
extern const size_t ctxfix_nvariants;

enum ctxfix_kind { CTXFIX_LDX, CTXFIX_LDSX, CTXFIX_STX, CTXFIX_ST };

/* An instruction shape probed at every offset: kind and size. */
struct ctxfix_lane {
	enum ctxfix_kind kind;
	int size;
	char name[3];		/* "L4", "S1", ... */
};

#define CTXFIX_NLANES 15
extern const struct ctxfix_lane ctxfix_lanes[CTXFIX_NLANES];

/* Register types that loads produce, as the kernel log names them. */
struct ctxfix_type {
	char letter;
	const char *log_name;	/* "pkt", "sock_common_or_null", ... */
	uint32_t reg_type;	/* CTX_* value of ctx_rules.h */
	const char *btf_struct;	/* for BTF pointers, else NULL */
};

extern const struct ctxfix_type ctxfix_types[];
extern const size_t ctxfix_ntypes;

/* Verdicts of one variant: cells[lane * noffs + i] for the i-th offset. */
struct ctxfix_grid {
	const struct ctxfix_variant *v;
	bool refused;
	int refused_errno;
	int noffs;
	char *cells;
	int nmsgs;
	char msgs[CTXFIX_MAX_MSGS][CTXFIX_MSG_LEN];
};

/* Offsets probed for a variant, in order. */
int ctxfix_noffs(const struct ctxfix_variant *v);
int ctxfix_off_at(const struct ctxfix_variant *v, int i);

/* Allocates the cells (all '?'); 0 or -ENOMEM. */
int ctxfix_grid_init(struct ctxfix_grid *g, const struct ctxfix_variant *v);
void ctxfix_grid_free(struct ctxfix_grid *g);
/* Digit for a message, adding it to the table; '?' when the table is full. */
char ctxfix_grid_msg(struct ctxfix_grid *g, const char *text);

/* 0 or a negative errno; a one-line reason goes to err. */
int ctxfix_read(const char *path, struct ctxfix_grid *g, char *err,
		size_t errsz);
int ctxfix_write(const char *path, const struct ctxfix_grid *g,
		 const char *kernel);

/* The verdict ctx_access_check() gives for a lane and offset. */
char ctxfix_predict(const struct ctxfix_variant *v,
		    const struct ctxfix_lane *lane, int off);
/* Letter of a kernel log type name; 0 when unknown. */
char ctxfix_letter_of_log_name(const char *name, size_t len);

#endif
