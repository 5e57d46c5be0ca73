/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Random programs of three families for the interpreter fixtures
 * (docs/interp-fixtures.md). Every program follows one register plan so
 * that the kernel accepts it by construction:
 *
 *   r6  the context, all along
 *   r9  the accumulator: every family folds its values into it, and the
 *       epilogue writes it to the packet, to cb[0..1] and to r0
 *   r0, r1, r7, r8  scalar values (the mem family uses r7, r8: its
 *       helper calls clobber r0-r5)
 *   r2, r3, r4  scratch for packet bounds checks and helper arguments
 *   r5  the loop counter of the branchy family
 *
 * Nothing derived from a pointer value reaches the output (only
 * differences of packet pointers), and no helper whose result varies from
 * run to run is called, so a recorded run is reproducible.
 */
#include <stddef.h>
#include <string.h>
#include <linux/bpf.h>

#include "gen.h"

#ifndef BPF_MEMSX
#define BPF_MEMSX 0x80
#endif

#define R_CTX 6
#define R_ACC 9
#define R_LOOP 5
#define FP 10

/* Stack plan: fp-64..fp-1 the data slots (zeroed first), fp-80 and fp-72
 * pointer spills, fp-88 a map key, fp-128..fp-97 a map value / helper
 * buffer (zeroed first). */
#define STK_DATA 64
#define STK_PTR1 (-72)
#define STK_PTR2 (-80)
#define STK_KEY (-88)
#define STK_BUF (-128)
#define BUF_LEN 32

#define VAL_SIZE 16

/* ---- Random numbers (splitmix64) --------------------------------------- */

uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

int pick(struct rng *r, int n)
{
	return (int)(rnd(r) % (uint64_t)n);
}

/* ---- Encoding ----------------------------------------------------------- */

static int emit(struct gen_prog *p, uint8_t code, int dst, int src, int off,
		int32_t imm)
{
	struct gen_insn *in;

	if (p->len >= GEN_MAX_INSNS) {
		p->overflow = true;
		return GEN_MAX_INSNS - 1;
	}
	in = &p->insn[p->len];
	in->code = code;
	in->regs = (uint8_t)(dst | src << 4);
	in->off = (int16_t)off;
	in->imm = imm;
	return p->len++;
}

static void ld_imm64(struct gen_prog *p, int dst, int src, uint64_t v)
{
	emit(p, BPF_LD | BPF_IMM | BPF_DW, dst, src, 0, (int32_t)(uint32_t)v);
	emit(p, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

static void mov_imm(struct gen_prog *p, int dst, int32_t imm)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_K, dst, 0, 0, imm);
}

static void mov_reg(struct gen_prog *p, int dst, int src)
{
	emit(p, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 0, 0);
}

static void call(struct gen_prog *p, int32_t helper)
{
	emit(p, BPF_JMP | BPF_CALL, 0, 0, 0, helper);
}

/* A forward jump whose target is set later by land(). */
static int jump_fwd(struct gen_prog *p, uint8_t code, int dst, int src,
		    int32_t imm)
{
	return emit(p, code, dst, src, 0, imm);
}

static void land(struct gen_prog *p, int at)
{
	if (!p->overflow)
		p->insn[at].off = (int16_t)(p->len - at - 1);
}

static const uint8_t sizes[] = { BPF_B, BPF_H, BPF_W, BPF_DW };

static int size_bytes(uint8_t sz)
{
	return sz == BPF_B ? 1 : sz == BPF_H ? 2 : sz == BPF_W ? 4 : 8;
}

/* ---- Random operands ------------------------------------------------------ */

static int32_t any_imm(struct rng *r)
{
	static const int32_t corner[] = {
		0, 1, -1, 2, 3, 7, 8, 31, 32, 63, 64, 255, 256, 0x7fff,
		0x8000, 0xffff, 0x10000, 0x7fffffff, (int32_t)0x80000000,
		(int32_t)0xffff0000, -2, -128, 0x12345678, 1500, 0x0800,
	};

	switch (pick(r, 5)) {
	case 0:
		return corner[pick(r, sizeof(corner) / sizeof(corner[0]))];
	case 1:
		return pick(r, 33) - 16;
	case 2:
		return pick(r, 256);
	case 3:
		return (int32_t)(rnd(r) & 0xffff);
	default:
		return (int32_t)rnd(r);
	}
}

static uint64_t any_imm64(struct rng *r)
{
	static const uint64_t corner[] = {
		0x8000000000000000ULL, 0x7fffffffffffffffULL,
		0xffffffff00000000ULL, 0x00000000ffffffffULL,
		0x100000000ULL, 0xffffffff80000000ULL, 0x0123456789abcdefULL,
	};

	if (pick(r, 2))
		return corner[pick(r, sizeof(corner) / sizeof(corner[0]))];
	return rnd(r) >> pick(r, 64);
}

/* The scalar registers of the scalar and branchy families. */
static const int vregs[] = { 0, 1, 7, 8 };

static int any_vreg(struct rng *r)
{
	return vregs[pick(r, 4)];
}

/* ---- Context fields ------------------------------------------------------- */

struct field {
	int16_t off;
	uint8_t size;	/* bytes */
	uint8_t narrow;	/* narrower aligned reads allowed */
};

#define SKB(f, n) { offsetof(struct __sk_buff, f), sizeof(((struct __sk_buff *)0)->f), n }
static const struct field skb_fields[] = {
	SKB(len, 1), SKB(pkt_type, 1), SKB(mark, 1), SKB(queue_mapping, 1),
	SKB(protocol, 1), SKB(vlan_present, 1), SKB(vlan_tci, 1),
	SKB(vlan_proto, 1), SKB(priority, 1), SKB(ingress_ifindex, 1),
	SKB(ifindex, 1), SKB(tc_index, 1), SKB(cb[0], 1), SKB(cb[1], 1),
	SKB(cb[2], 1), SKB(cb[3], 1), SKB(cb[4], 1), SKB(hash, 1),
	SKB(gso_segs, 1), SKB(gso_size, 1),
};
/* Readable in sched_cls only. */
static const struct field cls_fields[] = {
	SKB(tstamp, 0), SKB(wire_len, 1), SKB(hwtstamp, 0), SKB(tc_classid, 1),
};
/* egress_ifindex is for devmap programs only. */
#define XDP(f) { offsetof(struct xdp_md, f), 4, 0 }
static const struct field xdp_fields[] = {
	XDP(ingress_ifindex), XDP(rx_queue_index),
};
#define NELEM(a) ((int)(sizeof(a) / sizeof((a)[0])))

static bool is_skb(const struct gen_prog *p)
{
	return p->type != GEN_XDP;
}

static bool has_direct_pkt(const struct gen_prog *p)
{
	return p->type != GEN_SOCKET_FILTER;
}

static int off_data(const struct gen_prog *p)
{
	return is_skb(p) ? (int)offsetof(struct __sk_buff, data) :
		(int)offsetof(struct xdp_md, data);
}

static int off_data_end(const struct gen_prog *p)
{
	return is_skb(p) ? (int)offsetof(struct __sk_buff, data_end) :
		(int)offsetof(struct xdp_md, data_end);
}

/* dst = a readable context field, sometimes a narrow part of it. */
static void load_ctx_field(struct rng *r, struct gen_prog *p, int dst)
{
	const struct field *f;
	int sz, off;

	if (p->type == GEN_XDP)
		f = &xdp_fields[pick(r, NELEM(xdp_fields))];
	else if (p->type == GEN_SCHED_CLS && pick(r, 5) == 0)
		f = &cls_fields[pick(r, NELEM(cls_fields))];
	else
		f = &skb_fields[pick(r, NELEM(skb_fields))];
	sz = f->size;
	off = f->off;
	if (f->narrow && pick(r, 4) == 0) {
		sz = pick(r, 2) ? 1 : 2;
		off += sz * pick(r, 4 / sz);
	}
	emit(p, BPF_LDX | BPF_MEM | (sz == 8 ? BPF_DW : sz == 2 ? BPF_H :
				     sz == 1 ? BPF_B : BPF_W),
	     dst, R_CTX, off, 0);
}

/* r2 = data, r3 = data_end. */
static void load_pkt_ptrs(struct gen_prog *p)
{
	emit(p, BPF_LDX | BPF_MEM | BPF_W, 2, R_CTX, off_data(p), 0);
	emit(p, BPF_LDX | BPF_MEM | BPF_W, 3, R_CTX, off_data_end(p), 0);
}

/* With r2 = data, r3 = data_end: a jump taken when [off, off+n) is not
 * inside the packet; land() it after the access. */
static int pkt_bounds(struct gen_prog *p, int off, int n)
{
	mov_reg(p, 4, 2);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, off + n);
	return jump_fwd(p, BPF_JMP | BPF_JGT | BPF_X, 4, 3, 0);
}

/* A packet offset: mostly inside the headers, sometimes past short
 * packets so that both sides of the bounds check run. */
static int pkt_off(struct rng *r)
{
	return pick(r, 4) ? pick(r, 40) : pick(r, 260);
}

/* dst = packet bytes read directly after a bounds check (dst keeps its
 * value when the packet is too short). */
static void load_pkt_direct(struct rng *r, struct gen_prog *p, int dst)
{
	uint8_t sz = sizes[pick(r, 4)];
	int off = pkt_off(r), j;
	bool sx = sz != BPF_DW && pick(r, 4) == 0;

	load_pkt_ptrs(p);
	j = pkt_bounds(p, off, size_bytes(sz));
	emit(p, BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | sz, dst, 2, off, 0);
	land(p, j);
}

/* r0 = packet bytes by the legacy LD_ABS / LD_IND (skb types): big-endian,
 * and the program returns 0 when they are out of the packet. Clobbers
 * r0-r5. */
static void load_pkt_abs(struct rng *r, struct gen_prog *p)
{
	uint8_t sz = sizes[pick(r, 3)];

	if (pick(r, 3)) {
		emit(p, BPF_LD | BPF_ABS | sz, 0, 0, 0, pick(r, 4) ? pick(r, 40) :
		     pick(r, 200));
		return;
	}
	mov_imm(p, 7, pick(r, 30));
	emit(p, BPF_LD | BPF_IND | sz, 0, 7, 0, pick(r, 12));
}

/* dst = data_end - data (or, for xdp, data - data_meta sometimes). */
static void load_pkt_len(struct rng *r, struct gen_prog *p, int dst)
{
	int other = 2;

	load_pkt_ptrs(p);
	if (p->type == GEN_XDP && pick(r, 3) == 0) {
		emit(p, BPF_LDX | BPF_MEM | BPF_W, 4, R_CTX,
		     (int)offsetof(struct xdp_md, data_meta), 0);
		mov_reg(p, 3, 2);
		other = 4;
	}
	mov_reg(p, dst, 3);
	emit(p, BPF_ALU64 | BPF_SUB | BPF_X, dst, other, 0, 0);
}

/* ---- Scalar statements ---------------------------------------------------- */

static void gen_alu(struct rng *r, struct gen_prog *p, int dst, int src)
{
	static const uint8_t ops[] = {
		BPF_ADD, BPF_SUB, BPF_MUL, BPF_DIV, BPF_MOD, BPF_OR, BPF_AND,
		BPF_XOR, BPF_LSH, BPF_RSH, BPF_ARSH, BPF_MOV,
	};
	uint8_t op = ops[pick(r, sizeof(ops))];
	bool is64 = pick(r, 3) != 0;
	uint8_t cls = is64 ? BPF_ALU64 : BPF_ALU;
	int off = 0;
	int32_t imm;

	if ((op == BPF_DIV || op == BPF_MOD) && pick(r, 2))
		off = 1;	/* sdiv / smod */
	if (pick(r, 2)) {
		emit(p, cls | op | BPF_X, dst, src, off, 0);
		return;
	}
	if (op == BPF_LSH || op == BPF_RSH || op == BPF_ARSH)
		imm = pick(r, is64 ? 64 : 32);
	else
		imm = any_imm(r);
	if ((op == BPF_DIV || op == BPF_MOD) && imm == 0)
		imm = -1;
	emit(p, cls | op | BPF_K, dst, 0, off, imm);
}

static void gen_unary(struct rng *r, struct gen_prog *p, int dst, int src)
{
	static const int bits[] = { 16, 32, 64 };

	switch (pick(r, 6)) {
	case 0:
		emit(p, (pick(r, 2) ? BPF_ALU64 : BPF_ALU) | BPF_NEG, dst, 0, 0, 0);
		break;
	case 1:	/* le16/32/64, be16/32/64 */
		emit(p, BPF_ALU | BPF_END | (pick(r, 2) ? BPF_TO_BE : BPF_TO_LE),
		     dst, 0, 0, bits[pick(r, 3)]);
		break;
	case 2:	/* bswap16/32/64 */
		emit(p, BPF_ALU64 | BPF_END, dst, 0, 0, bits[pick(r, 3)]);
		break;
	case 3:	/* movsx 64 <- s8/s16/s32 */
		emit(p, BPF_ALU64 | BPF_MOV | BPF_X, dst, src, 8 << pick(r, 3), 0);
		break;
	case 4:	/* movsx 32 <- s8/s16 */
		emit(p, BPF_ALU | BPF_MOV | BPF_X, dst, src, 8 << pick(r, 2), 0);
		break;
	default:
		ld_imm64(p, dst, 0, any_imm64(r));
		break;
	}
}

/* r9 = r9 <op> src, an operation that keeps information. */
static void fold(struct rng *r, struct gen_prog *p, int src)
{
	static const uint8_t ops[] = { BPF_ADD, BPF_XOR, BPF_SUB };

	if (pick(r, 4) == 0)
		emit(p, BPF_ALU64 | BPF_MUL | BPF_K, R_ACC, 0, 0,
		     (int32_t)(rnd(r) | 1));
	emit(p, BPF_ALU64 | ops[pick(r, 3)] | BPF_X, R_ACC, src, 0, 0);
}

/* A fresh value from outside: the context, the packet or the input
 * slots, or a constant. Clobbers r2-r4. */
static void gen_leaf(struct rng *r, struct gen_prog *p, int dst)
{
	switch (pick(r, 5)) {
	case 0:
		load_ctx_field(r, p, dst);
		break;
	case 1:
		if (has_direct_pkt(p)) {
			load_pkt_direct(r, p, dst);
			break;
		}
		/* fallthrough */
	case 2:
		emit(p, BPF_LDX | (pick(r, 4) ? BPF_MEM : BPF_MEMSX) |
		     sizes[pick(r, 3)], dst, FP, -8 * (1 + pick(r, 4)), 0);
		break;
	case 3:
		if (has_direct_pkt(p)) {
			load_pkt_len(r, p, dst);
			break;
		}
		/* fallthrough */
	default:
		if (pick(r, 3))
			mov_imm(p, dst, any_imm(r));
		else
			ld_imm64(p, dst, 0, any_imm64(r));
		break;
	}
}

static void gen_scalar_stmt(struct rng *r, struct gen_prog *p)
{
	int dst = any_vreg(r), src = pick(r, 6) ? any_vreg(r) : R_ACC;
	int k = pick(r, 20);

	if (k < 10)
		gen_alu(r, p, dst, src);
	else if (k < 13)
		gen_unary(r, p, dst, src);
	else if (k < 16)
		gen_leaf(r, p, dst);
	else
		fold(r, p, dst);
}

/* ---- Prologue and epilogue ----------------------------------------------- */

/* The input slots fp-32..fp-1: four values computed once, possibly by
 * LD_ABS (which clobbers r0-r5). */
static void gen_inputs(struct rng *r, struct gen_prog *p)
{
	int k;

	for (k = 0; k < 4; k++) {
		int c = pick(r, 4);

		mov_imm(p, 0, 0);
		if (c == 0 && is_skb(p))
			load_pkt_abs(r, p);
		else if (c == 1 && has_direct_pkt(p))
			load_pkt_direct(r, p, 0);
		else if (c <= 2)
			load_ctx_field(r, p, 0);
		else
			ld_imm64(p, 0, 0, any_imm64(r));
		emit(p, BPF_STX | BPF_MEM | BPF_DW, FP, 0, -8 * (k + 1), 0);
	}
}

static void zero_stack(struct gen_prog *p, int from, int len)
{
	int off;

	for (off = from; off < from + len; off += 8)
		emit(p, BPF_ST | BPF_MEM | BPF_DW, FP, 0, off, 0);
}

static void gen_prologue(struct rng *r, struct gen_prog *p, bool inputs)
{
	int i;

	mov_reg(p, R_CTX, 1);
	zero_stack(p, -STK_DATA, STK_DATA);
	if (inputs)
		gen_inputs(r, p);
	for (i = 0; i < 4; i++) {
		if (pick(r, 3))
			emit(p, BPF_LDX | BPF_MEM | BPF_DW, vregs[i], FP,
			     -8 * (1 + pick(r, 4)), 0);
		else
			mov_imm(p, vregs[i], any_imm(r));
	}
	ld_imm64(p, R_ACC, 0, any_imm64(r));
}

/* r9 goes to cb[0..1] (and mark for sched_cls), to the packet (after a
 * bounds check) and to r0. */
static void gen_epilogue(struct rng *r, struct gen_prog *p)
{
	if (is_skb(p)) {
		emit(p, BPF_STX | BPF_MEM | BPF_W, R_CTX, R_ACC,
		     (int)offsetof(struct __sk_buff, cb[0]), 0);
		mov_reg(p, 2, R_ACC);
		emit(p, BPF_ALU64 | BPF_RSH | BPF_K, 2, 0, 0, 32);
		emit(p, BPF_STX | BPF_MEM | BPF_W, R_CTX, 2,
		     (int)offsetof(struct __sk_buff, cb[1]), 0);
		if (p->type == GEN_SCHED_CLS && pick(r, 2))
			emit(p, BPF_STX | BPF_MEM | BPF_W, R_CTX, R_ACC,
			     (int)offsetof(struct __sk_buff, mark), 0);
	}
	if (has_direct_pkt(p)) {
		int off = pick(r, 7), j;

		load_pkt_ptrs(p);
		j = pkt_bounds(p, off, 8);
		emit(p, BPF_STX | BPF_MEM | BPF_DW, 2, R_ACC, off, 0);
		land(p, j);
	}
	mov_reg(p, 0, R_ACC);
	if (p->type == GEN_XDP)
		emit(p, BPF_ALU64 | BPF_AND | BPF_K, 0, 0, 0, 3);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
}

static void fold_vregs(struct rng *r, struct gen_prog *p)
{
	int i;

	for (i = 0; i < 4; i++)
		fold(r, p, vregs[i]);
}

/* ---- Scalar family ---------------------------------------------------------- */

static void gen_scalar(struct rng *r, struct gen_prog *p)
{
	int n = 15 + pick(r, 50), i;

	gen_prologue(r, p, true);
	for (i = 0; i < n; i++)
		gen_scalar_stmt(r, p);
	fold_vregs(r, p);
	gen_epilogue(r, p);
}

/* ---- Memory family ----------------------------------------------------------- */

static const int mregs[] = { 7, 8, R_ACC };

static int any_mreg(struct rng *r)
{
	return mregs[pick(r, 3)];
}

/* An aligned offset of width sz in the data slots. */
static int data_off(struct rng *r, uint8_t sz)
{
	int n = size_bytes(sz);

	return -STK_DATA + n * pick(r, STK_DATA / n);
}

static void gen_stack_store(struct rng *r, struct gen_prog *p)
{
	uint8_t sz = sizes[pick(r, 4)];

	if (pick(r, 3) == 0)
		emit(p, BPF_ST | BPF_MEM | sz, FP, 0, data_off(r, sz), any_imm(r));
	else
		emit(p, BPF_STX | BPF_MEM | sz, FP, any_mreg(r), data_off(r, sz), 0);
}

static void gen_stack_load(struct rng *r, struct gen_prog *p)
{
	uint8_t sz = sizes[pick(r, 4)];
	bool sx = sz != BPF_DW && pick(r, 3) == 0;
	int dst = 7 + pick(r, 2);

	emit(p, BPF_LDX | (sx ? BPF_MEMSX : BPF_MEM) | sz, dst, FP,
	     data_off(r, sz), 0);
	fold(r, p, dst);
}

/* A whole-register spill, sometimes partly overwritten, then filled. */
static void gen_spill_fill(struct rng *r, struct gen_prog *p)
{
	int off = data_off(r, BPF_DW), src = any_mreg(r), dst = 7 + pick(r, 2);

	if (pick(r, 3) == 0) {
		/* 32-bit spill of a subregister */
		off += 4 * pick(r, 2);
		emit(p, BPF_STX | BPF_MEM | BPF_W, FP, src, off, 0);
		emit(p, BPF_LDX | BPF_MEM | BPF_W, dst, FP, off, 0);
		fold(r, p, dst);
		return;
	}
	emit(p, BPF_STX | BPF_MEM | BPF_DW, FP, src, off, 0);
	if (pick(r, 2)) {
		uint8_t sz = sizes[pick(r, 3)];
		int n = size_bytes(sz);

		emit(p, BPF_ST | BPF_MEM | sz, FP, 0, off + n * pick(r, 8 / n),
		     any_imm(r));
	}
	emit(p, BPF_LDX | BPF_MEM | BPF_DW, dst, FP, off, 0);
	fold(r, p, dst);
}

/* Spill a pointer (ctx, or a packet pointer), fill it into another
 * register and read through it. */
static void gen_ptr_spill(struct rng *r, struct gen_prog *p)
{
	int slot = pick(r, 2) ? STK_PTR1 : STK_PTR2, j;

	if (!has_direct_pkt(p) || pick(r, 2)) {
		emit(p, BPF_STX | BPF_MEM | BPF_DW, FP, R_CTX, slot, 0);
		emit(p, BPF_LDX | BPF_MEM | BPF_DW, 1, FP, slot, 0);
		mov_reg(p, 0, R_CTX);
		mov_reg(p, R_CTX, 1);
		load_ctx_field(r, p, 7);
		mov_reg(p, R_CTX, 0);
		fold(r, p, 7);
		return;
	}
	load_pkt_ptrs(p);
	emit(p, BPF_STX | BPF_MEM | BPF_DW, FP, 2, slot, 0);
	mov_imm(p, 2, 0);
	emit(p, BPF_LDX | BPF_MEM | BPF_DW, 2, FP, slot, 0);
	j = pkt_bounds(p, 0, 14);
	emit(p, BPF_LDX | BPF_MEM | sizes[pick(r, 3)], 8, 2, pick(r, 8), 0);
	land(p, j);
	fold(r, p, 8);
}

/* Atomic operations on a stack slot or, with base = r0 after a map
 * lookup, on a map value. */
static void gen_atomic(struct rng *r, struct gen_prog *p, int base, int off_dw)
{
	static const int32_t ops[] = {
		BPF_ADD, BPF_AND, BPF_OR, BPF_XOR,
		BPF_ADD | BPF_FETCH, BPF_AND | BPF_FETCH, BPF_OR | BPF_FETCH,
		BPF_XOR | BPF_FETCH, BPF_XCHG, BPF_CMPXCHG,
	};
	int32_t op = ops[pick(r, NELEM(ops))];
	uint8_t sz = pick(r, 2) ? BPF_DW : BPF_W;
	int off = off_dw + (sz == BPF_W ? 4 * pick(r, 2) : 0);
	int src = 7 + pick(r, 2);

	if (op == BPF_CMPXCHG) {
		/* r0 is the expected value; with base r0 use r1. */
		if (base == 0) {
			mov_reg(p, 1, 0);
			base = 1;
		}
		if (pick(r, 2))
			emit(p, BPF_LDX | BPF_MEM | sz, 0, base, off, 0);
		else
			mov_imm(p, 0, any_imm(r));
		emit(p, BPF_STX | BPF_ATOMIC | sz, base, src, off, op);
		fold(r, p, 0);
		return;
	}
	emit(p, BPF_STX | BPF_ATOMIC | sz, base, src, off, op);
	if (op & BPF_FETCH)
		fold(r, p, src);
}

static void map_ptr(struct gen_prog *p, int dst, int idx)
{
	ld_imm64(p, dst, BPF_PSEUDO_MAP_FD, (uint64_t)idx);
}

/* The key at fp-88: a small constant or a masked value register. */
static void set_key(struct rng *r, struct gen_prog *p, int idx)
{
	int max = (int)p->map[idx].max_entries;

	if (pick(r, 3)) {
		emit(p, BPF_ST | BPF_MEM | BPF_W, FP, 0, STK_KEY, pick(r, max + 2));
		return;
	}
	mov_reg(p, 1, 7 + pick(r, 2));
	emit(p, BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, 7);
	emit(p, BPF_STX | BPF_MEM | BPF_W, FP, 1, STK_KEY, 0);
}

static void key_arg(struct gen_prog *p)
{
	mov_reg(p, 2, FP);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, STK_KEY);
}

static void gen_map_lookup(struct rng *r, struct gen_prog *p)
{
	int idx = pick(r, p->nmaps), j, n = 1 + pick(r, 3), i;

	set_key(r, p, idx);
	map_ptr(p, 1, idx);
	key_arg(p);
	call(p, BPF_FUNC_map_lookup_elem);
	j = jump_fwd(p, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 0);
	for (i = 0; i < n; i++) {
		int off_dw = 8 * pick(r, VAL_SIZE / 8);
		uint8_t sz = sizes[pick(r, 4)];
		int nb = size_bytes(sz), off = nb * pick(r, VAL_SIZE / nb);

		switch (pick(r, 5)) {
		case 4:
			/* a variable offset; the value keeps 8 bytes */
			mov_reg(p, 1, any_mreg(r));
			emit(p, BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, VAL_SIZE - 8);
			emit(p, BPF_ALU64 | BPF_ADD | BPF_X, 0, 1, 0, 0);
			emit(p, BPF_LDX | BPF_MEM | sizes[pick(r, 4)], 8, 0, 0, 0);
			fold(r, p, 8);
			i = n;
			break;
		case 0:
			gen_atomic(r, p, 0, off_dw);
			/* cmpxchg may have moved the pointer to r1 and
			 * reused r0: stop using the value here. */
			i = n;
			break;
		case 1:
			emit(p, BPF_STX | BPF_MEM | sz, 0, any_mreg(r), off, 0);
			break;
		case 2:
			emit(p, BPF_ST | BPF_MEM | sz, 0, 0, off, any_imm(r));
			break;
		default:
			emit(p, BPF_LDX | (sz != BPF_DW && pick(r, 3) == 0 ?
					   BPF_MEMSX : BPF_MEM) | sz,
			     8, 0, off, 0);
			fold(r, p, 8);
			break;
		}
	}
	land(p, j);
}

static void gen_map_update(struct rng *r, struct gen_prog *p)
{
	int idx = pick(r, p->nmaps);

	set_key(r, p, idx);
	emit(p, BPF_STX | BPF_MEM | BPF_DW, FP, any_mreg(r),
	     STK_BUF + 8 * pick(r, VAL_SIZE / 8), 0);
	map_ptr(p, 1, idx);
	key_arg(p);
	mov_reg(p, 3, FP);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, STK_BUF);
	mov_imm(p, 4, pick(r, 2) ? BPF_ANY : pick(r, 2) ? BPF_NOEXIST : BPF_EXIST);
	call(p, BPF_FUNC_map_update_elem);
	fold(r, p, 0);
}

static void gen_map_delete(struct rng *r, struct gen_prog *p)
{
	int idx = pick(r, p->nmaps);

	set_key(r, p, idx);
	map_ptr(p, 1, idx);
	key_arg(p);
	call(p, BPF_FUNC_map_delete_elem);
	fold(r, p, 0);
}

static void gen_pkt_write(struct rng *r, struct gen_prog *p)
{
	uint8_t sz = sizes[pick(r, 4)];
	int off = pkt_off(r), j;

	load_pkt_ptrs(p);
	j = pkt_bounds(p, off, size_bytes(sz));
	if (pick(r, 3) == 0)
		emit(p, BPF_ST | BPF_MEM | sz, 2, 0, off, any_imm(r));
	else
		emit(p, BPF_STX | BPF_MEM | sz, 2, any_mreg(r), off, 0);
	land(p, j);
}

/* skb_load_bytes / xdp_load_bytes into the data slots, skb_store_bytes /
 * xdp_store_bytes from them; the return value is folded in. */
static void gen_bytes_helper(struct rng *r, struct gen_prog *p)
{
	bool store = p->type != GEN_SOCKET_FILTER && pick(r, 2);
	int len = 1 + pick(r, 16), off = -STK_DATA + pick(r, STK_DATA - len + 1);

	mov_reg(p, 1, R_CTX);
	mov_imm(p, 2, pick(r, 4) ? pick(r, 40) : pick(r, 260));
	mov_reg(p, 3, FP);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 3, 0, 0, off);
	mov_imm(p, 4, len);
	if (p->type == GEN_XDP) {
		call(p, store ? BPF_FUNC_xdp_store_bytes : BPF_FUNC_xdp_load_bytes);
	} else if (store) {
		mov_imm(p, 5, 0);
		call(p, BPF_FUNC_skb_store_bytes);
	} else {
		call(p, BPF_FUNC_skb_load_bytes);
	}
	fold(r, p, 0);
}

/* Accesses at a variable offset bounded by a mask: stack (reads and
 * writes), packet (after a bounds check on the moved pointer). */
static void gen_var_access(struct rng *r, struct gen_prog *p)
{
	static const int32_t masks[] = { 7, 15, 31, 48, 56 };
	uint8_t sz = sizes[pick(r, 4)];
	int32_t mask = masks[pick(r, NELEM(masks))];
	int j;

	bool stack = !has_direct_pkt(p) || pick(r, 2);

	/* The stack wants aligned accesses, the packet does not. */
	if (stack) {
		if (mask + size_bytes(sz) > STK_DATA)
			sz = BPF_B;
		mask &= ~(size_bytes(sz) - 1);
	}
	mov_reg(p, 1, any_mreg(r));
	emit(p, BPF_ALU64 | BPF_AND | BPF_K, 1, 0, 0, mask);
	if (stack) {
		mov_reg(p, 2, FP);
		emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -STK_DATA);
		emit(p, BPF_ALU64 | BPF_ADD | BPF_X, 2, 1, 0, 0);
		if (pick(r, 3) == 0) {
			emit(p, BPF_STX | BPF_MEM | sz, 2, any_mreg(r), 0, 0);
			return;
		}
		emit(p, BPF_LDX | BPF_MEM | sz, 7, 2, 0, 0);
		fold(r, p, 7);
		return;
	}
	load_pkt_ptrs(p);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, 2, 1, 0, 0);
	j = pkt_bounds(p, 0, size_bytes(sz));
	if (pick(r, 3) == 0)
		emit(p, BPF_STX | BPF_MEM | sz, 2, any_mreg(r), 0, 0);
	else
		emit(p, BPF_LDX | BPF_MEM | sz, 8, 2, 0, 0);
	land(p, j);
	fold(r, p, 8);
}

static void gen_mem_stmt(struct rng *r, struct gen_prog *p)
{
	switch (pick(r, 15)) {
	case 14:
		gen_var_access(r, p);
		break;
	case 0:
	case 1:
		gen_stack_store(r, p);
		break;
	case 2:
	case 3:
		gen_stack_load(r, p);
		break;
	case 4:
		gen_spill_fill(r, p);
		break;
	case 5:
		gen_ptr_spill(r, p);
		break;
	case 6:
		gen_atomic(r, p, FP, data_off(r, BPF_DW));
		break;
	case 7:
	case 8:
		gen_map_lookup(r, p);
		break;
	case 9:
		gen_map_update(r, p);
		break;
	case 10:
		gen_map_delete(r, p);
		break;
	case 11:
		if (has_direct_pkt(p)) {
			gen_pkt_write(r, p);
			break;
		}
		/* fallthrough */
	case 12:
		gen_bytes_helper(r, p);
		break;
	default:
		if (pick(r, 2))
			load_ctx_field(r, p, 7 + pick(r, 2));
		else
			gen_alu(r, p, 7 + pick(r, 2), any_mreg(r));
		break;
	}
}

static void gen_maps(struct rng *r, struct gen_prog *p)
{
	p->nmaps = 2;
	p->map[0] = (struct gen_map){ BPF_MAP_TYPE_ARRAY, 4, VAL_SIZE,
				      (uint32_t)(2 + pick(r, 4)) };
	p->map[1] = (struct gen_map){ BPF_MAP_TYPE_HASH, 4, VAL_SIZE,
				      (uint32_t)(2 + pick(r, 4)) };
}

static void gen_mem(struct rng *r, struct gen_prog *p)
{
	int n = 8 + pick(r, 30), i;

	gen_maps(r, p);
	mov_reg(p, R_CTX, 1);
	zero_stack(p, -STK_DATA, STK_DATA);
	zero_stack(p, STK_BUF, BUF_LEN);
	load_ctx_field(r, p, 7);
	mov_imm(p, 8, any_imm(r));
	ld_imm64(p, R_ACC, 0, any_imm64(r));
	for (i = 0; i < n; i++)
		gen_mem_stmt(r, p);
	/* The stack's final contents reach the output too. */
	for (i = 0; i < STK_DATA / 8; i++) {
		emit(p, BPF_LDX | BPF_MEM | BPF_DW, 7, FP, -8 * (i + 1), 0);
		fold(r, p, 7);
	}
	fold(r, p, 8);
	gen_epilogue(r, p);
}

/* ---- Branchy family ------------------------------------------------------- */

static const uint8_t jops[] = {
	BPF_JEQ, BPF_JNE, BPF_JGT, BPF_JGE, BPF_JLT, BPF_JLE, BPF_JSGT,
	BPF_JSGE, BPF_JSLT, BPF_JSLE, BPF_JSET,
};

/* A conditional jump on the value registers, to be landed later. */
static int gen_cond(struct rng *r, struct gen_prog *p)
{
	uint8_t cls = pick(r, 3) ? BPF_JMP : BPF_JMP32;
	uint8_t op = jops[pick(r, sizeof(jops))];
	int dst = pick(r, 5) ? any_vreg(r) : R_ACC;

	if (pick(r, 3) == 0)
		return jump_fwd(p, cls | op | BPF_X, dst, any_vreg(r), 0);
	return jump_fwd(p, cls | op | BPF_K, dst, 0, any_imm(r));
}

/* Along a path, the accumulator records which way it went. */
static void gen_mark(struct rng *r, struct gen_prog *p)
{
	emit(p, BPF_ALU64 | BPF_MUL | BPF_K, R_ACC, 0, 0, 31);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, R_ACC, 0, 0, any_imm(r));
}

static void gen_block(struct rng *r, struct gen_prog *p, int depth,
		      bool in_loop, int n);

static void gen_if(struct rng *r, struct gen_prog *p, int depth, bool in_loop)
{
	int j = gen_cond(r, p), e;

	gen_mark(r, p);
	gen_block(r, p, depth + 1, in_loop, 1 + pick(r, 4));
	if (pick(r, 3) == 0) {	/* one-armed */
		land(p, j);
		return;
	}
	e = jump_fwd(p, BPF_JMP | BPF_JA, 0, 0, 0);
	land(p, j);
	gen_mark(r, p);
	gen_block(r, p, depth + 1, in_loop, 1 + pick(r, 4));
	land(p, e);
}

/* r5 counts from 0 to a constant bound; the body never writes r5. */
static void gen_loop(struct rng *r, struct gen_prog *p, int depth)
{
	int bound = 1 + pick(r, 6), top, at;
	uint8_t cls = pick(r, 2) ? BPF_JMP : BPF_JMP32;
	uint8_t op;
	int32_t imm;

	mov_imm(p, R_LOOP, 0);
	top = p->len;
	gen_block(r, p, depth + 1, true, 1 + pick(r, 4));
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, R_ACC, R_LOOP, 0, 0);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, R_LOOP, 0, 0, 1);
	switch (pick(r, 4)) {
	case 0:
		op = BPF_JLT;
		imm = bound;
		break;
	case 1:
		op = BPF_JNE;
		imm = bound;
		break;
	case 2:
		op = BPF_JSLE;
		imm = bound - 1;
		break;
	default:
		op = BPF_JLE;
		imm = bound - 1;
		break;
	}
	at = emit(p, cls | op | BPF_K, R_LOOP, 0, 0, imm);
	if (!p->overflow)
		p->insn[at].off = (int16_t)(top - at - 1);
}

/* Bounds learnt through a linked register: rB = rA + K is checked, and
 * rA, which the kernel bounds through the link, becomes a stack offset.
 * The 32-bit form links the subregisters (wB += K, JMP32). */
static void gen_linked_guard(struct rng *r, struct gen_prog *p)
{
	static const int32_t corner[] = {
		(int32_t)0x80000000, 0x7fffffff, -1, 0x7fffffc0,
	};
	int a = any_vreg(r), b = any_vreg(r), j1, j2;
	bool w = pick(r, 3) == 0;
	uint8_t cls = w ? BPF_JMP32 : BPF_JMP;
	int32_t k = pick(r, 8) ? pick(r, 201) - 100 :
		corner[pick(r, NELEM(corner))];
	int32_t hi = (int32_t)((uint32_t)k + 56);

	if (a == b)
		b = a == 7 ? 8 : 7;
	if (w)
		emit(p, BPF_ALU | BPF_MOV | BPF_X, a, a, 0, 0);
	mov_reg(p, b, a);
	emit(p, (w ? BPF_ALU : BPF_ALU64) | BPF_ADD | BPF_K, b, 0, 0, k);
	if (pick(r, 2)) {
		j1 = jump_fwd(p, cls | BPF_JSGT | BPF_K, b, 0, hi);
		j2 = jump_fwd(p, cls | BPF_JSLT | BPF_K, b, 0, k);
	} else {
		j1 = jump_fwd(p, cls | BPF_JGT | BPF_K, b, 0, hi);
		j2 = jump_fwd(p, cls | BPF_JLT | BPF_K, b, 0, k);
	}
	mov_reg(p, 2, FP);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -STK_DATA);
	emit(p, BPF_ALU64 | BPF_ADD | BPF_X, 2, a, 0, 0);
	/* Byte loads: the offset is not aligned. */
	emit(p, BPF_LDX | BPF_MEM | BPF_B, 3, 2, 0, 0);
	fold(r, p, 3);
	land(p, j1);
	land(p, j2);
}

/* An early return on one path. */
static void gen_early_exit(struct rng *r, struct gen_prog *p)
{
	int j = gen_cond(r, p);

	mov_reg(p, 0, R_ACC);
	emit(p, BPF_ALU64 | BPF_XOR | BPF_K, 0, 0, 0, any_imm(r));
	if (p->type == GEN_XDP)
		emit(p, BPF_ALU64 | BPF_AND | BPF_K, 0, 0, 0, 3);
	emit(p, BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	land(p, j);
}

static void gen_block(struct rng *r, struct gen_prog *p, int depth,
		      bool in_loop, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		int k = pick(r, 13);

		if (k < 4 || depth >= 3)
			gen_scalar_stmt(r, p);
		else if (k < 8)
			gen_if(r, p, depth, in_loop);
		else if (k < 9 && !in_loop && depth < 2)
			gen_loop(r, p, depth);
		else if (k < 10)
			gen_early_exit(r, p);
		else if (k < 11)
			gen_linked_guard(r, p);
		else
			fold(r, p, any_vreg(r));
	}
}

static void gen_branchy(struct rng *r, struct gen_prog *p)
{
	gen_prologue(r, p, true);
	gen_block(r, p, 0, false, 4 + pick(r, 8));
	fold_vregs(r, p);
	gen_epilogue(r, p);
}

/* ---- Entry ----------------------------------------------------------------- */

void gen_program(struct rng *r, enum gen_family fam, struct gen_prog *p)
{
	static const enum gen_ptype types[] = {
		GEN_SOCKET_FILTER, GEN_SCHED_CLS, GEN_XDP,
	};

	memset(p, 0, sizeof(*p));
	p->type = types[pick(r, 3)];
	switch (fam) {
	case FAM_SCALAR:
		gen_scalar(r, p);
		break;
	case FAM_MEM:
		gen_mem(r, p);
		break;
	default:
		gen_branchy(r, p);
		break;
	}
}
