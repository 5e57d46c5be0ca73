/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interpreter's contract: BPF ISA v4 run on concrete inputs, as
 * BPF_PROG_TEST_RUN runs socket filters, tc and XDP programs
 * (docs/interp.md). It may use base/ and loader/ (the program and its
 * maps), never the verifier: it is the reference the verifier's abstract
 * states are checked against (`bpfvet selfcheck`).
 *
 * Every register and every stack slot carries a provenance tag: a scalar,
 * or a pointer into a region (a frame's stack, the context, the packet, a
 * map value, a map) with its offset there. A pointer's value is the
 * region's base plus its offset, so that pointer arithmetic and pointer
 * comparisons work on plain numbers; the bases are fixed, non-zero and far
 * apart (interp_base()).
 *
 * Runs end in exit (the program's return value) or in a fault: a memory
 * access outside its region, a pointer that is not one, an unsupported
 * instruction or helper, a step limit. A verified program never faults
 * where the kernel would not, so a fault is a finding.
 */
#ifndef BPFVET_INTERP_H
#define BPFVET_INTERP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "loader/loader.h"

#define INTERP_STACK_SIZE 512	/* MAX_BPF_STACK, per frame */
#define INTERP_MAX_FRAMES 8	/* MAX_CALL_FRAMES */

enum interp_kind {
	IK_SCALAR,
	IK_STACK,	/* frame `frame`'s stack; offset 0..512, fp at 512 */
	IK_CTX,		/* the context (__sk_buff, xdp_md) */
	IK_PKT,		/* packet data; offset from the start of data */
	IK_PKT_END,	/* data_end; offset from the start of data */
	IK_PKT_META,	/* data_meta; offset from the start of data */
	IK_MAP_VALUE,	/* element `elem` of map `map` */
	IK_MAP,		/* the map itself (CONST_PTR_TO_MAP) */
	IK_FUNC,	/* a subprogram (BPF_PSEUDO_FUNC); offset = insn index */
};

struct interp_tag {
	uint8_t kind;		/* enum interp_kind */
	uint8_t frame;		/* IK_STACK */
	uint16_t map;		/* IK_MAP_VALUE, IK_MAP: index in the program's maps */
	uint32_t elem;		/* IK_MAP_VALUE: array index or hash slot */
};

struct interp_reg {
	uint64_t val;
	struct interp_tag tag;
};

enum interp_prog_kind { INTERP_SKB_FILTER, INTERP_SKB_TC, INTERP_XDP };

/* One run's input, as bpf_test_run_opts gives it. */
struct interp_input {
	const void *data;
	uint32_t data_size;
	const void *ctx;	/* __sk_buff or xdp_md bytes, or NULL */
	uint32_t ctx_size;
	uint64_t seed;		/* ktime, prandom, probe_read sources */
	uint64_t max_steps;	/* 0: 1 << 26 */
	/* Recorded answers of the clock and prandom helpers, in call order
	 * (bpfvet_test_run_opts.replay); NULL for none. */
	const uint64_t *replay;
	uint32_t replay_cnt;
};

/* What the kernel hands back. */
struct interp_output {
	uint32_t retval;
	uint8_t *data;		/* malloc'd, data_size bytes */
	uint32_t data_size;
	uint8_t ctx[192];	/* ctx_size bytes valid */
	uint32_t ctx_size;	/* 0 when no ctx was given */
};

enum interp_status {
	INTERP_RUNNING,
	INTERP_EXITED,		/* retval valid */
	INTERP_FAULT,		/* interp_fault() says why */
};

/* maps.c: map contents, which outlive one run (a runner holds them). */
struct interp_maps;
int interp_maps_new(const struct bpfvet_map *maps, size_t cnt, struct interp_maps **out);
/* The maps a program uses (its object's, or a raw program's own), fresh. */
int interp_maps_for_program(const struct bpfvet_program *prog, struct interp_maps **out);
void interp_maps_free(struct interp_maps *m);

/* interp.c: one run of a program. */
struct interp;

/* Builds the context and packet as TEST_RUN would; returns 0, or a
 * negative errno where TEST_RUN refuses the input (-EINVAL: too short,
 * ctx fields it does not take), with the reason in errbuf. */
int interp_new(const struct bpfvet_program *prog, struct interp_maps *maps,
	       const struct interp_input *in, struct interp **out,
	       char *errbuf, size_t errbuf_sz);
void interp_free(struct interp *it);

/* One instruction; returns the status after it. */
enum interp_status interp_step(struct interp *it);
/* Steps until exit or fault. */
enum interp_status interp_run(struct interp *it);

enum interp_status interp_status(const struct interp *it);
const char *interp_fault(const struct interp *it);	/* "" unless INTERP_FAULT */
/* The fault is something the interpreter does not model (a helper, an
 * instruction, a context field), not a finding about the program. */
bool interp_unsupported(const struct interp *it);
uint32_t interp_retval(const struct interp *it);
uint64_t interp_steps(const struct interp *it);
size_t interp_pc(const struct interp *it);
int interp_frame_depth(const struct interp *it);	/* 0: the entry */
/* A register of frame `frame` (the current frame's when frame < 0):
 * callers' R6-R9 and R10 are as they were at the call. */
struct interp_reg interp_reg(const struct interp *it, int frame, int regno);
/* A stack byte of a frame: off 0..511 (fp-512 .. fp-1); *tag gets the
 * provenance of the 8-byte slot holding it (a pointer only when the slot
 * holds a whole spilled pointer). Returns -ERANGE for a bad frame/off. */
int interp_stack_byte(const struct interp *it, int frame, int off,
		      uint8_t *byte, struct interp_tag *tag);
/* The offset of a pointer in its region (for IK_PKT*: from data). */
int64_t interp_ptr_off(const struct interp *it, struct interp_reg r);
/* The packet's length: data_end's offset from data. */
uint32_t interp_pkt_len(const struct interp *it);
/* Where data_meta is: its offset from data (0 or less). */
int32_t interp_meta_off(const struct interp *it);
/* Tail calls taken so far: after one, the run is in another program. */
uint32_t interp_tail_calls(const struct interp *it);
/* Collects retval, data_out and ctx_out once exited (TEST_RUN's view). */
int interp_output(const struct interp *it, struct interp_output *out);

const char *interp_kind_name(enum interp_kind k);

#endif
