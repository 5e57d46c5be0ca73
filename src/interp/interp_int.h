/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interpreter's internals, shared by its files: the run state, and
 * what each file offers the others. Not for other folders (interp.h is
 * the contract).
 */
#ifndef BPFVET_INTERP_INT_H
#define BPFVET_INTERP_INT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

#include "interp.h"

#define STACK_SLOTS (INTERP_STACK_SIZE / 8)
#define CTX_SKB_SIZE 192
#define CTX_XDP_SIZE 24

struct interp_frame {
	struct interp_reg regs[11];
	uint8_t stack[INTERP_STACK_SIZE];
	/* The provenance of each 8-byte slot: a pointer only after an aligned
	 * 8-byte store of one; any narrower store makes it a scalar. */
	struct interp_tag slot_tag[STACK_SLOTS];
	size_t ret_pc;		/* where the caller resumes */
	/* A bpf_loop callback's frame: the loop it serves (callback exits
	 * go back to the loop, not to ret_pc). */
	bool loop_cb;
	uint64_t loop_nr, loop_i;
	size_t loop_fn;
	struct interp_reg loop_ctx;
};

struct interp {
	const struct bpfvet_program *prog;
	const struct bpfvet_insn *insns;
	size_t insn_cnt;
	struct interp_maps *maps;
	enum interp_prog_kind kind;

	struct interp_frame frames[INTERP_MAX_FRAMES];
	int depth;
	size_t pc;
	enum interp_status status;
	char fault[200];
	bool unsupported;	/* the fault is something not modelled */
	uint32_t retval;
	uint64_t steps, max_steps;
	uint64_t may_goto_left;
	int tail_calls;
	bool jumped;		/* a helper moved pc (a tail call) */

	/* The packet buffer: headroom, then the data, then tailroom. Offsets
	 * into pkt; meta <= data <= data_end <= pkt_cap. */
	uint8_t *pkt;
	uint32_t pkt_cap;
	uint32_t meta, data, data_end;
	/* skb only: where the link and network headers start (LD_ABS's
	 * negative offsets) and the length of the frame as given. */
	uint32_t mac, net;

	/* The context as the program sees it, in the uapi layout: fields are
	 * kept there, and loads of data/data_end/data_meta become pointers. */
	uint8_t ctx[CTX_SKB_SIZE];
	uint32_t ctx_size;	/* 192 or 24 */
	bool ctx_given;		/* ctx_in was given: ctx_out is returned */
	uint8_t ctx_in[CTX_SKB_SIZE];

	uint8_t empty[8];	/* where zero-length helper spans point */
	uint64_t rng;		/* xorshift state */
	uint64_t ktime;
	const uint64_t *replay;	/* interp_input.replay, consumed from replay_at */
	uint32_t replay_cnt, replay_at;
};

/* interp.c */
bool interp_faultf(struct interp *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
uint64_t interp_base(struct interp_tag t);
struct interp_tag interp_scalar_tag(void);
struct interp_reg interp_ptr(struct interp *it, struct interp_tag t, int64_t off);
uint64_t interp_rand(struct interp *it);

/* mem.c: loads and stores through a tagged pointer. Each returns false
 * after recording a fault. */
bool mem_load(struct interp *it, struct interp_reg addr, int16_t off, int size,
	      bool sx, struct interp_reg *dst);
bool mem_store(struct interp *it, struct interp_reg addr, int16_t off, int size,
	       struct interp_reg v);
bool mem_atomic(struct interp *it, const struct bpfvet_insn *insn);
/* Host memory for a helper's argument of len bytes, or NULL (fault set). */
uint8_t *mem_span(struct interp *it, struct interp_reg addr, uint64_t len, bool write);
/* Marks the stack slots under [p, p+len) scalar, after a helper wrote there. */
void mem_clobber(struct interp *it, struct interp_reg addr, uint64_t len);

/* ctx.c */
int ctx_build(struct interp *it, const struct interp_input *in, char *eb, size_t eb_sz);
bool ctx_load(struct interp *it, int64_t off, int size, struct interp_reg *dst);
bool ctx_store(struct interp *it, int64_t off, int size, uint64_t v);
void ctx_output(const struct interp *it, struct interp_output *out);
uint32_t ctx_skb_len(const struct interp *it);

/* maps.c */
uint32_t maps_type(const struct interp_maps *m, uint32_t idx);
uint32_t maps_key_size(const struct interp_maps *m, uint32_t idx);
uint32_t maps_value_size(const struct interp_maps *m, uint32_t idx);
size_t maps_cnt(const struct interp_maps *m);
/* 0 and *elem, or -ENOENT. */
int maps_lookup(struct interp_maps *m, uint32_t idx, const void *key, uint32_t *elem);
int maps_update(struct interp_maps *m, uint32_t idx, const void *key, const void *val,
		uint64_t flags);
int maps_delete(struct interp_maps *m, uint32_t idx, const void *key);
/* The value of an element (NULL when elem is out of range). */
uint8_t *maps_value(struct interp_maps *m, uint32_t idx, uint32_t elem);

/* interp.c: a new frame for subprogram `target` with R1-R5 of the
 * current one (callers set them first); ret_pc is where it returns. */
bool interp_push_frame(struct interp *it, size_t target, size_t ret_pc);

/* helpers.c: runs helper `id` with R1-R5, sets R0. */
bool helper_call(struct interp *it, int32_t id);
/* fib.c: bpf_fib_lookup in the modelled network (a fresh namespace). */
bool helper_fib_lookup(struct interp *it);

/* ldabs.c-like part of ctx.c: LD_ABS / LD_IND. false: the load failed and
 * the program returns 0 (the kernel's rule). */
bool ctx_ld_abs(struct interp *it, int64_t off, int size, uint64_t *val);

#endif
