/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The interpreter on hand-written programs: ALU corner cases as the
 * kernel defines them, jumps, calls and frames, atomics, maps that
 * persist across runs, contexts and packets as TEST_RUN builds them,
 * provenance tags, and faults that end a run cleanly. The differential
 * test (test_interp_kernel) holds the same semantics to the kernel's
 * record; these name them one by one.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "interp/interp.h"
#include "test.h"
#include "base/uapi.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define ALU64_K(op, d, i) INSN(BPF_ALU64 | (op) | BPF_K, d, 0, 0, i)
#define ALU64_X(op, d, s) INSN(BPF_ALU64 | (op) | BPF_X, d, s, 0, 0)
#define ALU32_K(op, d, i) INSN(BPF_ALU | (op) | BPF_K, d, 0, 0, i)
#define ALU32_X(op, d, s) INSN(BPF_ALU | (op) | BPF_X, d, s, 0, 0)
#define MOV64(d, i) ALU64_K(BPF_MOV, d, i)
#define LD64(d, s, lo, hi) INSN(BPF_LD | BPF_IMM | BPF_DW, d, s, 0, lo), INSN(0, 0, 0, 0, hi)
#define STX(sz, d, s, o) INSN(BPF_STX | BPF_MEM | (sz), d, s, o, 0)
#define ST(sz, d, o, i) INSN(BPF_ST | BPF_MEM | (sz), d, 0, o, i)
#define LDX(sz, d, s, o) INSN(BPF_LDX | BPF_MEM | (sz), d, s, o, 0)
#define CALL(id) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define CALL_PC(o) INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, o)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define N(a) (sizeof(a) / sizeof((a)[0]))

static const uint8_t ipv4_frame[64] = {
	0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0x08, 0x00,		/* Ethernet */
	0x45, 0, 0, 50, 0, 0, 0, 0, 64, 17, 0, 0, 10, 0, 0, 1, 10, 0, 0, 2,
	0x12, 0x34, 0x56, 0x78,
};

static struct bpfvet_program *make(struct test_ctx *t, uint32_t type,
				   const struct bpfvet_insn *insns, size_t cnt,
				   const struct bpfvet_map_desc *maps, size_t map_cnt)
{
	struct bpfvet_raw_opts o = { .sz = sizeof(o), .name = "t", .prog_type = type,
				     .insns = insns, .insn_cnt = cnt, .maps = maps,
				     .map_cnt = map_cnt };
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&o, &p), 0);
	return p;
}

/* Runs a socket filter on ipv4_frame; returns retval (or ~0 on error). */
static uint32_t run_filter(struct test_ctx *t, const struct bpfvet_insn *insns, size_t cnt)
{
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt, NULL, 0);
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame) };
	char eb[200] = "";
	int err;

	if (!p)
		return ~0u;
	o.errbuf = eb;
	o.errbuf_sz = sizeof(eb);
	err = bpfvet_program__test_run(p, &o);
	CHECK_MSG(t, err == 0, "test_run: %d %s", err, eb);
	bpfvet_program__free(p);
	return err ? ~0u : o.retval;
}

static void test_div_mod_by_zero(struct test_ctx *t)
{
	const struct bpfvet_insn div[] = { MOV64(0, 7), MOV64(1, 0), ALU64_X(BPF_DIV, 0, 1), EXIT };
	const struct bpfvet_insn mod[] = { MOV64(0, 7), MOV64(1, 0), ALU64_X(BPF_MOD, 0, 1), EXIT };
	/* w0 %= 0 keeps w0 but zero-extends: r0 = -1 becomes 0xffffffff. */
	const struct bpfvet_insn mod32[] = {
		MOV64(0, -1), MOV64(1, 0), ALU32_X(BPF_MOD, 0, 1), ALU64_K(BPF_RSH, 0, 32), EXIT,
	};

	CHECK_INT(t, run_filter(t, div, N(div)), 0);
	CHECK_INT(t, run_filter(t, mod, N(mod)), 7);
	CHECK_INT(t, run_filter(t, mod32, N(mod32)), 0);
}

static void test_signed_div(struct test_ctx *t)
{
	/* INT_MIN s/ -1 = INT_MIN, INT_MIN s% -1 = 0, -7 s% 2 = -1, -7 s/ 2 = -3. */
	const struct bpfvet_insn sdiv32[] = {
		MOV64(0, (int32_t)0x80000000), INSN(BPF_ALU | BPF_DIV | BPF_K, 0, 0, 1, -1), EXIT,
	};
	const struct bpfvet_insn smod32[] = {
		MOV64(0, (int32_t)0x80000000), INSN(BPF_ALU | BPF_MOD | BPF_K, 0, 0, 1, -1), EXIT,
	};
	const struct bpfvet_insn smod[] = {
		MOV64(0, -7), INSN(BPF_ALU64 | BPF_MOD | BPF_K, 0, 0, 1, 2), EXIT,
	};
	const struct bpfvet_insn sdiv[] = {
		MOV64(0, -7), INSN(BPF_ALU64 | BPF_DIV | BPF_K, 0, 0, 1, 2), EXIT,
	};
	const struct bpfvet_insn udiv[] = {		/* unsigned: huge / 2 */
		MOV64(0, -7), ALU64_K(BPF_DIV, 0, 2), ALU64_K(BPF_RSH, 0, 32), EXIT,
	};

	CHECK_INT(t, run_filter(t, sdiv32, N(sdiv32)), 0x80000000u);
	CHECK_INT(t, run_filter(t, smod32, N(smod32)), 0);
	CHECK_INT(t, run_filter(t, smod, N(smod)), (uint32_t)-1);
	CHECK_INT(t, run_filter(t, sdiv, N(sdiv)), (uint32_t)-3);
	CHECK_INT(t, run_filter(t, udiv, N(udiv)), 0x7fffffffu);
}

static void test_movsx_bswap_shifts(struct test_ctx *t)
{
	const struct bpfvet_insn movsx[] = {
		MOV64(1, 0x80), INSN(BPF_ALU64 | BPF_MOV | BPF_X, 0, 1, 8, 0),
		ALU64_K(BPF_RSH, 0, 32), EXIT,			/* (s8)0x80 = -128 */
	};
	const struct bpfvet_insn movsx32[] = {
		MOV64(1, 0x8000), INSN(BPF_ALU | BPF_MOV | BPF_X, 0, 1, 16, 0),
		ALU64_K(BPF_RSH, 0, 16), EXIT,			/* 0xffff8000, zero-extended */
	};
	const struct bpfvet_insn bswap[] = {
		MOV64(0, 0x12345678), INSN(BPF_ALU64 | BPF_END, 0, 0, 0, 32), EXIT,
	};
	const struct bpfvet_insn be16[] = {
		MOV64(0, 0x12345678), INSN(BPF_ALU | BPF_END | BPF_TO_BE, 0, 0, 0, 16), EXIT,
	};
	const struct bpfvet_insn le16[] = {
		MOV64(0, 0x12345678), INSN(BPF_ALU | BPF_END | BPF_TO_LE, 0, 0, 0, 16), EXIT,
	};
	/* Shift counts are masked to the width: 1 << 33 (32-bit) = 2. */
	const struct bpfvet_insn shift[] = {
		MOV64(0, 1), MOV64(1, 33), ALU32_X(BPF_LSH, 0, 1), EXIT,
	};
	const struct bpfvet_insn arsh32[] = {
		MOV64(0, -16), ALU32_K(BPF_ARSH, 0, 2), ALU64_K(BPF_RSH, 0, 32), EXIT,
	};

	CHECK_INT(t, run_filter(t, movsx, N(movsx)), 0xffffffffu);
	CHECK_INT(t, run_filter(t, movsx32, N(movsx32)), 0xffff);
	CHECK_INT(t, run_filter(t, bswap, N(bswap)), 0x78563412u);
	CHECK_INT(t, run_filter(t, be16, N(be16)), 0x7856);
	CHECK_INT(t, run_filter(t, le16, N(le16)), 0x5678);
	CHECK_INT(t, run_filter(t, shift, N(shift)), 2);
	CHECK_INT(t, run_filter(t, arsh32, N(arsh32)), 0);
}

static void test_jumps(struct test_ctx *t)
{
	/* jsgt in 32 bits: (s32)0xffffffff = -1 < 1, though 64-bit it is
	 * 4294967295 > 1; then a gotol (JMP32 JA with imm) over one insn. */
	const struct bpfvet_insn j[] = {
		MOV64(0, 0), LD64(1, 0, -1, 0),
		INSN(BPF_JMP32 | BPF_JSGT | BPF_K, 1, 0, 1, 1),
		ALU64_K(BPF_OR, 0, 1),
		INSN(BPF_JMP | BPF_JSGT | BPF_K, 1, 0, 1, 1),
		ALU64_K(BPF_OR, 0, 2),
		INSN(BPF_JMP32 | BPF_JA, 0, 0, 0, 1),
		ALU64_K(BPF_OR, 0, 4),
		EXIT,
	};

	CHECK_INT(t, run_filter(t, j, N(j)), 1);
}

static void test_calls_and_frames(struct test_ctx *t)
{
	/* main: r6 = 5; spill r10-8 pointer; call f(r1 = 3); r0 += r6.
	 * f: its own stack; r0 = r1 * 2. */
	const struct bpfvet_insn insns[] = {
		MOV64(6, 5),
		ALU64_X(BPF_MOV, 2, 10), ALU64_K(BPF_ADD, 2, -16), STX(BPF_DW, 10, 2, -8),
		MOV64(1, 3), CALL_PC(2),
		ALU64_X(BPF_ADD, 0, 6), EXIT,
		ST(BPF_DW, 10, -8, 99), ALU64_X(BPF_MOV, 0, 1), ALU64_K(BPF_MUL, 0, 2),
		MOV64(6, 0), EXIT,
	};
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, insns, N(insns), NULL, 0);
	struct interp_input in = { .data = ipv4_frame, .data_size = sizeof(ipv4_frame) };
	struct interp_maps *maps = NULL;
	struct interp *it = NULL;
	struct interp_tag tag;
	struct interp_reg r;
	uint8_t b;
	int max_depth = 0;

	if (!p)
		return;
	CHECK_INT(t, interp_maps_new(NULL, 0, &maps), 0);
	CHECK_INT(t, interp_new(p, maps, &in, &it, NULL, 0), 0);
	while (it && interp_step(it) == INTERP_RUNNING) {
		if (interp_pc(it) == 6) {	/* back in main after the call */
			r = interp_reg(it, -1, 6);
			CHECK_INT(t, r.val, 5);
		}
		if (interp_frame_depth(it) > max_depth)
			max_depth = interp_frame_depth(it);
		if (interp_pc(it) == 9 && interp_frame_depth(it) == 1) {
			/* the callee wrote its own fp-8; the caller's spill stays */
			CHECK_INT(t, interp_stack_byte(it, 1, 504, &b, &tag), 0);
			CHECK_INT(t, b, 99);
			CHECK_INT(t, tag.kind, IK_SCALAR);
			CHECK_INT(t, interp_stack_byte(it, 0, 504, &b, &tag), 0);
			CHECK_INT(t, tag.kind, IK_STACK);
			r = interp_reg(it, 0, 10);
			CHECK_INT(t, r.tag.kind, IK_STACK);
			CHECK_INT(t, interp_ptr_off(it, r), 512);
		}
	}
	if (it) {
		CHECK_INT(t, interp_status(it), INTERP_EXITED);
		CHECK_INT(t, interp_retval(it), 11);
	}
	CHECK_INT(t, max_depth, 1);
	interp_free(it);
	interp_maps_free(maps);
	bpfvet_program__free(p);
}

static void test_atomics(struct test_ctx *t)
{
	/* *(u64 *)(fp-8) = 10; r1 = 5; fetch_add -> r1 = 10, mem 15;
	 * r0 = 15; cmpxchg(fp-8, r0 == 15 -> r2 = 7) -> r0 = 15, mem 7;
	 * result: mem + r1 + r0 = 7 + 10 + 15 = 32. */
	const struct bpfvet_insn insns[] = {
		ST(BPF_DW, 10, -8, 10), MOV64(1, 5),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 10, 1, -8, BPF_ADD | BPF_FETCH),
		MOV64(0, 15), MOV64(2, 7),
		INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 10, 2, -8, BPF_CMPXCHG),
		LDX(BPF_DW, 3, 10, -8), ALU64_X(BPF_ADD, 0, 3), ALU64_X(BPF_ADD, 0, 1), EXIT,
	};
	const struct bpfvet_insn xchg32[] = {
		ST(BPF_DW, 10, -8, -1), MOV64(1, 3),
		INSN(BPF_STX | BPF_ATOMIC | BPF_W, 10, 1, -8, BPF_XCHG),
		LDX(BPF_DW, 0, 10, -8), ALU64_K(BPF_RSH, 0, 32), ALU64_X(BPF_ADD, 0, 1), EXIT,
	};

	CHECK_INT(t, run_filter(t, insns, N(insns)), 32);
	/* the old 32-bit value comes back zero-extended; the high half stays */
	CHECK_INT(t, run_filter(t, xchg32, N(xchg32)), 0xffffffffu + 0xffffffffu);
}

static void test_maps_persist(struct test_ctx *t)
{
	static const struct bpfvet_map_desc maps[] = {
		{ .sz = sizeof(struct bpfvet_map_desc), .type = BPF_MAP_TYPE_ARRAY,
		  .key_size = 4, .value_size = 8, .max_entries = 2, .inner_map_idx = -1 },
	};
	/* counter[0] += 1; return it */
	const struct bpfvet_insn insns[] = {
		ST(BPF_W, 10, -4, 0), LD64(1, BPF_PSEUDO_MAP_FD, 0, 0),
		ALU64_X(BPF_MOV, 2, 10), ALU64_K(BPF_ADD, 2, -4), CALL(1),
		INSN(BPF_JMP | BPF_JNE | BPF_K, 0, 0, 2, 0), MOV64(0, 0), EXIT,
		MOV64(1, 1), INSN(BPF_STX | BPF_ATOMIC | BPF_DW, 0, 1, 0, BPF_ADD),
		LDX(BPF_DW, 0, 0, 0), EXIT,
	};
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, insns, N(insns), maps, 1);
	struct bpfvet_runner *r = NULL;
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame) };

	if (!p)
		return;
	CHECK_INT(t, bpfvet_runner__new(p, &r), 0);
	for (uint32_t i = 1; r && i <= 3; i++) {
		CHECK_INT(t, bpfvet_runner__run(r, &o), 0);
		CHECK_INT(t, o.retval, i);
	}
	bpfvet_runner__free(r);
	/* a fresh run starts from a zero-filled array again */
	CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
	CHECK_INT(t, o.retval, 1);
	bpfvet_program__free(p);
}

static void test_hash_errors(struct test_ctx *t)
{
	static const struct bpfvet_map_desc maps[] = {
		{ .sz = sizeof(struct bpfvet_map_desc), .type = BPF_MAP_TYPE_HASH,
		  .key_size = 4, .value_size = 4, .max_entries = 1, .inner_map_idx = -1 },
	};
	/* update key 1 (0), update key 1 NOEXIST (-EEXIST), update key 2
	 * (-E2BIG: full), delete key 2 (-ENOENT); r0 = sum of the four. */
	const struct bpfvet_insn insns[] = {
		ST(BPF_W, 10, -4, 1), ST(BPF_W, 10, -8, 2), MOV64(7, 0),
#define UPD(keyoff, flags) LD64(1, BPF_PSEUDO_MAP_FD, 0, 0), ALU64_X(BPF_MOV, 2, 10), \
		ALU64_K(BPF_ADD, 2, keyoff), ALU64_X(BPF_MOV, 3, 10), ALU64_K(BPF_ADD, 3, -8), \
		MOV64(4, flags), CALL(2), ALU64_X(BPF_ADD, 7, 0)
		UPD(-4, 0), UPD(-4, 1), UPD(-8, 0),
#undef UPD
		LD64(1, BPF_PSEUDO_MAP_FD, 0, 0), ALU64_X(BPF_MOV, 2, 10), ALU64_K(BPF_ADD, 2, -8),
		CALL(3), ALU64_X(BPF_ADD, 7, 0), ALU64_X(BPF_MOV, 0, 7), EXIT,
	};
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, insns, N(insns), maps, 1);
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame) };

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
	CHECK_INT(t, (int32_t)o.retval, -EEXIST - E2BIG - ENOENT);
	bpfvet_program__free(p);
}

static void test_faults(struct test_ctx *t)
{
	const struct bpfvet_insn oob[] = { LDX(BPF_DW, 0, 10, 8), EXIT };
	const struct bpfvet_insn scalar_ptr[] = { MOV64(1, 4096), LDX(BPF_W, 0, 1, 0), EXIT };
	const struct bpfvet_insn helper[] = { CALL(999), EXIT };
	const struct bpfvet_insn loop[] = { INSN(BPF_JMP | BPF_JA, 0, 0, -1, 0), EXIT };
	const struct {
		const struct bpfvet_insn *insns;
		size_t cnt;
		int err;
		const char *msg;
	} cases[] = {
		{ oob, N(oob), -EFAULT, "insn 0: read of 8 bytes at stack+520, outside [0, 512)" },
		{ scalar_ptr, N(scalar_ptr), -EFAULT, "insn 1: read through a scalar 0x1000" },
		{ helper, N(helper), -EOPNOTSUPP, "insn 0: unsupported helper 999" },
		{ loop, N(loop), -EFAULT, "insn 0: step limit of 1000 reached" },
	};

	for (size_t i = 0; i < N(cases); i++) {
		struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, cases[i].insns,
						cases[i].cnt, NULL, 0);
		char eb[200] = "";
		struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
						  .data_size_in = sizeof(ipv4_frame),
						  .max_steps = 1000, .errbuf = eb,
						  .errbuf_sz = sizeof(eb) };

		if (!p)
			continue;
		CHECK_INT(t, bpfvet_program__test_run(p, &o), cases[i].err);
		CHECK_STR(t, eb, cases[i].msg);
		bpfvet_program__free(p);
	}
}

static void test_skb_contexts(struct test_ctx *t)
{
	/* tc: r0 = data_end - data (the whole frame, from L2), plus
	 * protocol and pkt_type; writes a byte of the frame. */
	const struct bpfvet_insn tc[] = {
		LDX(BPF_W, 2, 1, 76), LDX(BPF_W, 3, 1, 80), LDX(BPF_W, 4, 1, 16),
		ALU64_X(BPF_MOV, 0, 3), ALU64_X(BPF_SUB, 0, 2), ALU64_K(BPF_LSH, 4, 16),
		ALU64_X(BPF_OR, 0, 4), ST(BPF_B, 2, 0, 0xaa), EXIT,
	};
	/* socket filter: LD_ABS reads from the network header; len is L3. */
	const struct bpfvet_insn filter[] = {
		INSN(BPF_LD | BPF_ABS | BPF_W, 0, 0, 0, 16),	/* daddr */
		LDX(BPF_W, 6, 1, 0), ALU64_X(BPF_SUB, 0, 6), EXIT,
	};
	/* LD_ABS past the end ends the program with 0 */
	const struct bpfvet_insn past[] = {
		MOV64(0, 7), INSN(BPF_LD | BPF_ABS | BPF_B, 0, 0, 0, 1000), EXIT,
	};
	uint8_t out[128];
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame), .data_out = out,
					  .data_size_out = sizeof(out) };
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SCHED_CLS, tc, N(tc), NULL, 0);

	if (p) {
		CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
		CHECK_INT(t, o.retval, 64 | 0x0008 << 16);
		CHECK_INT(t, o.data_size_out, 64);
		CHECK_INT(t, out[0], 0xaa);
		bpfvet_program__free(p);
	}
	p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, filter, N(filter), NULL, 0);
	if (p) {
		o.data_size_out = sizeof(out);
		CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
		CHECK_INT(t, o.retval, 0x0a000002 - 50);
		/* data_out: the Ethernet header comes back zeroed */
		CHECK_INT(t, o.data_size_out, 64);
		CHECK_INT(t, out[6], 0);
		CHECK_INT(t, out[14], 0x45);
		bpfvet_program__free(p);
	}
	p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, past, N(past), NULL, 0);
	if (p) {
		CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
		CHECK_INT(t, o.retval, 0);
		o.data_size_in = 10;		/* shorter than Ethernet: refused */
		CHECK_INT(t, bpfvet_program__test_run(p, &o), -EINVAL);
		bpfvet_program__free(p);
	}
}

static void test_xdp_context(struct test_ctx *t)
{
	/* adjust_head(+14), then r0 = data_end - data + 1000 *
	 * ingress_ifindex (lo's, 1, though ctx_in says 0); ctx_out follows */
	const struct bpfvet_insn insns[] = {
		ALU64_X(BPF_MOV, 6, 1), MOV64(2, 14), CALL(44),
		LDX(BPF_W, 2, 6, 0), LDX(BPF_W, 3, 6, 4), ALU64_X(BPF_MOV, 0, 3),
		ALU64_X(BPF_SUB, 0, 2), LDX(BPF_W, 4, 6, 12), ALU64_K(BPF_MUL, 4, 1000),
		ALU64_X(BPF_ADD, 0, 4), EXIT,
	};
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_XDP, insns, N(insns), NULL, 0);
	uint32_t ctx_in[6] = { 4, 64, 0, 0, 0, 0 }, ctx_out[6];
	uint8_t out[128];
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame), .data_out = out,
					  .data_size_out = sizeof(out), .ctx_in = ctx_in,
					  .ctx_size_in = sizeof(ctx_in), .ctx_out = ctx_out,
					  .ctx_size_out = sizeof(ctx_out) };

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__test_run(p, &o), 0);
	CHECK_INT(t, o.retval, 64 - 4 - 14 + 1000);
	/* out: the 4 metadata bytes, moved with data_meta, then the rest */
	CHECK_INT(t, o.data_size_out, 4 + 64 - 4 - 14);
	CHECK_INT(t, ctx_out[0], 4);
	CHECK_INT(t, ctx_out[1], 4 + 46);
	CHECK_INT(t, ctx_out[3], 0);		/* as ctx_in had it */
	bpfvet_program__free(p);
}

static void test_tail_call(struct test_ctx *t)
{
	/* tests/progs/kernel_maps.c: tail_caller jumps through slot 0 of
	 * its program array, which names tail_target (skb->len > 100). */
	static uint8_t big[200];
	char path[512], eb[256] = "";
	struct bpfvet_open_opts oo = { .sz = sizeof(oo), .errbuf = eb, .errbuf_sz = sizeof(eb) };
	struct bpfvet_object *obj = NULL;
	struct bpfvet_program *caller = NULL;
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = big,
					  .data_size_in = sizeof(big) };

	if (bpfvet_object__open(test_prog_path(path, sizeof(path), "kernel_maps"), &oo, &obj)) {
		test_skip(t, "%s: %s", path, eb);
		return;
	}
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++)
		if (!strcmp(bpfvet_program__name(bpfvet_object__prog(obj, i)), "tail_caller"))
			caller = bpfvet_object__prog(obj, i);
	CHECK(t, caller != NULL);
	if (caller) {
		CHECK_INT(t, bpfvet_program__test_run(caller, &o), 0);
		CHECK_INT(t, o.retval, 1);
		o.data_in = ipv4_frame;
		o.data_size_in = sizeof(ipv4_frame);
		CHECK_INT(t, bpfvet_program__test_run(caller, &o), 0);
		CHECK_INT(t, o.retval, 0);
	}
	bpfvet_object__close(obj);
}

static void test_bpf_loop(struct test_ctx *t)
{
	/* bpf_loop(5, cb, &counter, 0); cb adds its index to the counter
	 * (a pointer into the caller's stack) and stops at index 3: four
	 * calls, counter 0 + 1 + 2 + 3. */
	const struct bpfvet_insn insns[] = {
		ST(BPF_DW, 10, -8, 0), MOV64(1, 5), LD64(2, BPF_PSEUDO_FUNC, 9, 0),
		ALU64_X(BPF_MOV, 3, 10), ALU64_K(BPF_ADD, 3, -8), MOV64(4, 0), CALL(181),
		ALU64_K(BPF_MUL, 0, 100), LDX(BPF_DW, 1, 10, -8), ALU64_X(BPF_ADD, 0, 1), EXIT,
		LDX(BPF_DW, 3, 2, 0), ALU64_X(BPF_ADD, 3, 1), STX(BPF_DW, 2, 3, 0), MOV64(0, 0),
		INSN(BPF_JMP | BPF_JNE | BPF_K, 1, 0, 1, 3), MOV64(0, 1), EXIT,
	};

	CHECK_INT(t, run_filter(t, insns, N(insns)), 406);
}

/* Runs a socket filter on ipv4_frame with recorded helper answers. */
static int run_replayed(struct test_ctx *t, const struct bpfvet_insn *insns, size_t cnt,
			const uint64_t *replay, uint32_t replay_cnt, uint32_t *retval)
{
	struct bpfvet_program *p = make(t, BPF_PROG_TYPE_SOCKET_FILTER, insns, cnt, NULL, 0);
	struct bpfvet_test_run_opts o = { .sz = sizeof(o), .data_in = ipv4_frame,
					  .data_size_in = sizeof(ipv4_frame), .replay = replay,
					  .replay_cnt = replay_cnt };
	int err;

	if (!p)
		return -EINVAL;
	err = bpfvet_program__test_run(p, &o);
	*retval = o.retval;
	bpfvet_program__free(p);
	return err;
}

/* The clock and prandom helpers answer what a kernel run recorded, in
 * call order whatever the helper; past the record, the seeded model. */
static void test_replay(struct test_ctx *t)
{
	/* r0 = ktime_get_ns() - ktime_get_tai_ns() */
	const struct bpfvet_insn clocks[] = {
		CALL(208), ALU64_X(BPF_MOV, 6, 0), CALL(5), ALU64_X(BPF_SUB, 0, 6), EXIT,
	};
	const struct bpfvet_insn prandom[] = { CALL(7), EXIT };
	const uint64_t two[] = { 1000000000000ull, 1000000000234ull };
	const uint64_t wide[] = { 0x1234567890abcdefull };
	uint32_t ret = 0;

	CHECK_INT(t, run_replayed(t, clocks, N(clocks), two, 2, &ret), 0);
	CHECK_INT(t, ret, 234);
	CHECK_INT(t, run_replayed(t, prandom, N(prandom), wide, 1, &ret), 0);
	CHECK_INT(t, ret, 0x90abcdefu);
	/* no record: the seeded clock still moves forward */
	CHECK_INT(t, run_replayed(t, clocks, N(clocks), NULL, 0, &ret), 0);
	CHECK_MSG(t, ret > 0 && ret < 1000000, "seeded clock step %u", ret);
}

/* get_current_task: a fixed non-zero kernel address whose task memory
 * probe_read_kernel reads as zeros; any other kernel address is -EFAULT. */
static void test_current_task(struct test_ctx *t)
{
	/* r6 = task; probe_read_kernel(fp-8, 8, r6 + OFF); r0 = ret, or 99 if
	 * task == 0, or 98 if the bytes read are not zero */
	const struct bpfvet_insn in_task[] = {
		CALL(35), ALU64_X(BPF_MOV, 6, 0),
		INSN(BPF_JMP | BPF_JNE | BPF_K, 6, 0, 2, 0), MOV64(0, 99), EXIT,
		ST(BPF_DW, 10, -8, -1), ALU64_X(BPF_MOV, 1, 10), ALU64_K(BPF_ADD, 1, -8),
		MOV64(2, 8), ALU64_X(BPF_MOV, 3, 6), ALU64_K(BPF_ADD, 3, 0x6d8), CALL(113),
		LDX(BPF_DW, 1, 10, -8), INSN(BPF_JMP | BPF_JEQ | BPF_K, 1, 0, 1, 0),
		MOV64(0, 98), EXIT,
	};
	const struct bpfvet_insn elsewhere[] = {
		ALU64_X(BPF_MOV, 1, 10), ALU64_K(BPF_ADD, 1, -8), MOV64(2, 8),
		LD64(3, 0, 0, (int32_t)0xffff8880), CALL(113), EXIT,
	};

	CHECK_INT(t, run_filter(t, in_task, N(in_task)), 0);
	CHECK_INT(t, run_filter(t, elsewhere, N(elsewhere)), (uint32_t)-EFAULT);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_div_mod_by_zero);
	RUN(&t, test_signed_div);
	RUN(&t, test_movsx_bswap_shifts);
	RUN(&t, test_jumps);
	RUN(&t, test_calls_and_frames);
	RUN(&t, test_atomics);
	RUN(&t, test_maps_persist);
	RUN(&t, test_hash_errors);
	RUN(&t, test_faults);
	RUN(&t, test_skb_contexts);
	RUN(&t, test_xdp_context);
	RUN(&t, test_tail_call);
	RUN(&t, test_bpf_loop);
	RUN(&t, test_replay);
	RUN(&t, test_current_task);
	return test_finish(&t);
}
