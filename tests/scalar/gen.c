/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Fixture generator for the number domain (test tooling, not part of the
 * library). It builds short random programs of ALU/ALU64 operations and
 * conditional jumps on unknown scalars, loads each one into the running
 * kernel at log level 2 and records the program together with the
 * kernel's per-instruction register states, in the compact text format
 * that tests/unit/test_scalar_kernel.c replays:
 *
 *   p <number>              start of a program
 *   c <hex>                 the instructions, 16 hex digits (8 raw bytes,
 *                           little-endian) each, concatenated
 *   i <idx>[ <regs>]        instruction idx was executed; <regs> are the
 *                           scalar registers the kernel printed after it
 *   f <from> <to> <regs>    a pushed branch resumes (only the registers
 *                           the instruction at <from> reads are kept)
 *   F <from> <to>           a pushed branch was pruned ("safe")
 *   s <idx>                 the path was pruned at idx
 *   e <errno> <message>     the kernel rejected the program here
 *   .                       end of an accepted program
 *
 * <regs> is a space-separated list "R<n>=<state>" where <state> is the
 * kernel's text with the precision mark "P" and "id=..." removed (the
 * number domain has no ids); pointer registers are dropped.
 *
 * Usage: gen [-n count] [-s seed] [-o out.gz]   (needs root / CAP_BPF)
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "scalar_live.h"

#define MAX_INSNS 64

struct insn {
	uint8_t code;
	uint8_t regs;	/* dst | src << 4 */
	int16_t off;
	int32_t imm;
};

struct prog {
	struct insn insn[MAX_INSNS];
	int len;
};

/* ---- Deterministic random numbers (splitmix64) ------------------------- */

struct rng {
	uint64_t s;
};

static uint64_t rnd(struct rng *r)
{
	uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static int pick(struct rng *r, int n)
{
	return (int)(rnd(r) % (uint64_t)n);
}

/* ---- Instruction encoding --------------------------------------------- */

enum {
	C_ALU = 0x04, C_JMP = 0x05, C_JMP32 = 0x06, C_ALU64 = 0x07,
	C_LDX = 0x01, C_LD = 0x00,
	S_K = 0x00, S_X = 0x08,
	M_MEM = 0x60, M_MEMSX = 0x80, M_IMM = 0x00,
	SZ_W = 0x00, SZ_H = 0x08, SZ_B = 0x10, SZ_DW = 0x18,
	O_ADD = 0x00, O_SUB = 0x10, O_MUL = 0x20, O_DIV = 0x30, O_OR = 0x40,
	O_AND = 0x50, O_LSH = 0x60, O_RSH = 0x70, O_NEG = 0x80, O_MOD = 0x90,
	O_XOR = 0xa0, O_MOV = 0xb0, O_ARSH = 0xc0, O_END = 0xd0,
	J_JEQ = 0x10, J_JGT = 0x20, J_JGE = 0x30, J_JSET = 0x40, J_JNE = 0x50,
	J_JSGT = 0x60, J_JSGE = 0x70, J_EXIT = 0x90, J_JLT = 0xa0,
	J_JLE = 0xb0, J_JSLT = 0xc0, J_JSLE = 0xd0,
};

static void emit(struct prog *p, uint8_t code, int dst, int src, int off,
		 int32_t imm)
{
	struct insn *in = &p->insn[p->len++];

	in->code = code;
	in->regs = (uint8_t)(dst | src << 4);
	in->off = (int16_t)off;
	in->imm = imm;
}

/* ---- Random program ----------------------------------------------------- */

static const int scalar_regs[] = { 0, 1, 2, 3, 4, 5, 7, 8, 9 };
#define NREGS 9
#define CTX 6

static int any_reg(struct rng *r)
{
	return scalar_regs[pick(r, NREGS)];
}

/* Immediates that hit interesting corners more often than uniform. */
static int32_t any_imm(struct rng *r)
{
	static const int32_t corner[] = {
		0, 1, -1, 2, 3, 7, 8, 15, 16, 31, 32, 63, 64, 127, 128, 255,
		256, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff,
		(int32_t)0x80000000, (int32_t)0xffff0000, -2, -16, -128, -256,
		0x0f0f, 0xff00, 0x1000, 0x12345678,
	};
	int k = pick(r, 6), sh;

	switch (k) {
	case 0:
		return corner[pick(r, sizeof(corner) / sizeof(corner[0]))];
	case 1:
		return pick(r, 33) - 16;
	case 2:
		return pick(r, 256);
	case 3:
		sh = pick(r, 31);
		return (int32_t)((1u << sh) + (uint32_t)(pick(r, 3) - 1));
	case 4:
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
		0x100000000ULL, 0xffffffff80000000ULL, 0x7fffffff80000000ULL,
		0xfffffffffffffff0ULL, 0x8000000080000000ULL,
	};

	if (pick(r, 2))
		return corner[pick(r, sizeof(corner) / sizeof(corner[0]))];
	return rnd(r) >> pick(r, 64);
}

static void gen_ld_imm64(struct prog *p, int dst, uint64_t v)
{
	emit(p, C_LD | M_IMM | SZ_DW, dst, 0, 0, (int32_t)(uint32_t)v);
	emit(p, 0, 0, 0, 0, (int32_t)(uint32_t)(v >> 32));
}

static void gen_init(struct rng *r, struct prog *p, int dst)
{
	static const uint8_t sizes[] = { SZ_B, SZ_H, SZ_W, SZ_DW };
	int k = pick(r, 10), off = 8 * pick(r, 8);

	if (k < 6) {
		emit(p, C_LDX | M_MEM | sizes[pick(r, 4)], dst, CTX, off, 0);
	} else if (k < 7) {
		emit(p, C_LDX | M_MEMSX | sizes[pick(r, 3)], dst, CTX, off, 0);
	} else if (k < 8) {
		emit(p, (pick(r, 2) ? C_ALU64 : C_ALU) | O_MOV | S_K, dst, 0, 0,
		     any_imm(r));
	} else if (k < 9) {
		gen_ld_imm64(p, dst, any_imm64(r));
	} else {
		/* Unknown value of a random width, biased low. */
		emit(p, C_LDX | M_MEM | SZ_DW, dst, CTX, off, 0);
		emit(p, C_ALU64 | O_AND | S_K, dst, 0, 0,
		     (int32_t)((1u << pick(r, 31)) - 1));
	}
}

struct hot;
static int hot_reg(struct rng *r, const struct hot *h);

static void gen_alu(struct rng *r, struct prog *p, int dst,
		    const struct hot *h)
{
	static const uint8_t ops[] = {
		O_ADD, O_ADD, O_SUB, O_SUB, O_MUL, O_MUL, O_DIV, O_MOD, O_OR,
		O_AND, O_AND, O_XOR, O_LSH, O_RSH, O_ARSH,
	};
	uint8_t op = ops[pick(r, sizeof(ops))];
	bool is64 = pick(r, 3) != 0;
	uint8_t cls = is64 ? C_ALU64 : C_ALU;
	int width = is64 ? 64 : 32, off = 0;
	int32_t imm;

	if ((op == O_DIV || op == O_MOD) && pick(r, 2))
		off = 1;
	if (pick(r, 3) == 0) {
		int src = pick(r, 5) ? hot_reg(r, h) : dst;

		emit(p, cls | op | S_X, dst, src, off, 0);
		return;
	}
	if (op == O_LSH || op == O_RSH || op == O_ARSH)
		imm = pick(r, width);
	else
		imm = any_imm(r);
	if ((op == O_DIV || op == O_MOD) && imm == 0)
		imm = 3;
	emit(p, cls | op | S_K, dst, 0, off, imm);
}

static void gen_unary(struct rng *r, struct prog *p, int dst)
{
	static const int bits[] = { 16, 32, 64 };

	switch (pick(r, 7)) {
	case 0:
		emit(p, (pick(r, 2) ? C_ALU64 : C_ALU) | O_NEG, dst, 0, 0, 0);
		break;
	case 1:	/* le16/le32/le64 */
		emit(p, C_ALU | O_END | 0x00, dst, 0, 0, bits[pick(r, 3)]);
		break;
	case 2:	/* be16/be32/be64 */
		emit(p, C_ALU | O_END | 0x08, dst, 0, 0, bits[pick(r, 3)]);
		break;
	case 3:	/* bswap */
		emit(p, C_ALU64 | O_END, dst, 0, 0, bits[pick(r, 3)]);
		break;
	case 4:	/* rX = (s8/s16/s32)rX */
		emit(p, C_ALU64 | O_MOV | S_X, dst, dst, 8 << pick(r, 3), 0);
		break;
	case 5:	/* wX = (s8/s16)wX */
		emit(p, C_ALU | O_MOV | S_X, dst, dst, 8 << pick(r, 2), 0);
		break;
	default:	/* wX = wX */
		emit(p, C_ALU | O_MOV | S_X, dst, dst, 0, 0);
		break;
	}
}

static void gen_jmp(struct rng *r, struct prog *p, int dst, int room,
		    const struct hot *h)
{
	static const uint8_t ops[] = {
		J_JEQ, J_JNE, J_JGT, J_JGE, J_JLT, J_JLE, J_JSGT, J_JSGE,
		J_JSLT, J_JSLE, J_JSET,
	};
	uint8_t cls = pick(r, 3) ? C_JMP : C_JMP32;
	uint8_t op = ops[pick(r, sizeof(ops))];
	int off = pick(r, room + 1);

	if (pick(r, 3) == 0) {
		int src = pick(r, 8) ? hot_reg(r, h) : dst;

		emit(p, cls | op | S_X, dst, src, off, 0);
		return;
	}
	emit(p, cls | op | S_K, dst, 0, off, any_imm(r));
}

/* A few "hot" registers get most of the operations so that facts compound
 * (masks, then arithmetic, then comparisons) instead of being overwritten. */
struct hot {
	int reg[4];
	int n;
};

static int hot_reg(struct rng *r, const struct hot *h)
{
	return pick(r, 100) < 85 ? h->reg[pick(r, h->n)] : any_reg(r);
}

/* Short idioms that reach corners plain random ops rarely hit. */
static void gen_idiom(struct rng *r, struct prog *p, const struct hot *h)
{
	int dst = hot_reg(r, h), src = hot_reg(r, h);
	uint8_t cls = pick(r, 3) ? C_ALU64 : C_ALU;

	switch (pick(r, 6)) {
	case 0:	/* [-1, 0] or [0, 1] values; AND/OR with a constant forks */
		emit(p, cls | O_ARSH | S_K, dst, 0, 0, cls == C_ALU64 ? 63 : 31);
		emit(p, cls | (pick(r, 2) ? O_AND : O_OR) | S_K, dst, 0, 0,
		     any_imm(r));
		break;
	case 1:	/* sparse tnum, then a compare: single-value cases */
		emit(p, C_ALU64 | O_AND | S_K, dst, 0, 0,
		     (int32_t)(rnd(r) & rnd(r) & 0xfff));
		emit(p, (pick(r, 2) ? C_JMP : C_JMP32) |
			(pick(r, 2) ? J_JGT : J_JNE) | S_K,
		     dst, 0, 0, pick(r, 64));
		break;
	case 2:	/* wide constant operand: unsigned wrap-around */
		gen_ld_imm64(p, src, any_imm64(r));
		emit(p, C_ALU64 | (pick(r, 2) ? O_ADD : O_SUB) | S_X, dst, src,
		     0, 0);
		break;
	case 3:	/* signed multiplication */
		emit(p, cls | O_SUB | S_K, dst, 0, 0, pick(r, 300));
		emit(p, cls | O_MUL | S_X, dst, src, 0, 0);
		break;
	case 4:	/* shift by a register holding a small constant */
		emit(p, C_ALU64 | O_MOV | S_K, src, 0, 0, pick(r, 70));
		emit(p, cls | (uint8_t)(O_LSH + 0x10 * pick(r, 2)) | S_X, dst,
		     src, 0, 0);
		break;
	default:	/* narrow then signed compare */
		emit(p, C_ALU64 | O_AND | S_K, dst, 0, 0, 0xff);
		emit(p, cls | O_SUB | S_K, dst, 0, 0, pick(r, 256));
		break;
	}
}

/*
 * Prologue: keep ctx in r6, give every scalar register a value; body:
 * random instructions (at most 5 conditional jumps, all forward and
 * landing inside the body or on the final `r0 = 0`); epilogue
 * `r0 = 0; exit`.
 */
static void gen_prog(struct rng *r, struct prog *p)
{
	int body = 8 + pick(r, 16), jumps = 0, i, start;
	struct hot h;

	p->len = 0;
	h.n = 2 + pick(r, 3);
	for (i = 0; i < h.n; i++)
		h.reg[i] = any_reg(r);
	emit(p, C_ALU64 | O_MOV | S_X, CTX, 1, 0, 0);
	for (i = 0; i < NREGS; i++)
		gen_init(r, p, scalar_regs[i]);
	start = p->len;
	while (p->len - start < body && p->len < MAX_INSNS - 6) {
		int dst = hot_reg(r, &h), k = pick(r, 24);
		int room = body - (p->len - start) - 1;

		if (k < 11)
			gen_alu(r, p, dst, &h);
		else if (k < 14)
			gen_unary(r, p, dst);
		else if (k < 15)
			gen_init(r, p, dst);
		else if (k < 18)
			gen_idiom(r, p, &h);
		else if (jumps < 5 && room >= 0) {
			gen_jmp(r, p, dst, room < 5 ? room : 5, &h);
			jumps++;
		}
	}
	/* Jumps were sized for `body` insns; the body may be shorter if an
	 * init emitted two insns, so clamp every target to the epilogue. */
	for (i = start; i < p->len; i++) {
		struct insn *in = &p->insn[i];
		uint8_t c = in->code & 7;

		if (c != C_JMP && c != C_JMP32)
			continue;
		if (i + 1 + in->off > p->len)
			in->off = (int16_t)(p->len - i - 1);
		if (in->off < 0)
			in->off = 0;
		/* Never into the second half of an ld_imm64. */
		if (i + 1 + in->off < p->len &&
		    p->insn[i + in->off].code == (C_LD | M_IMM | SZ_DW))
			in->off++;
	}
	emit(p, C_ALU64 | O_MOV | S_K, 0, 0, 0, 0);
	emit(p, C_JMP | J_EXIT, 0, 0, 0, 0);
}

/* ---- Records ------------------------------------------------------------ */

/* The log becomes record lines in tests/unit/scalar_live.c, which
 * test_scalar_kernel --live uses to compare the kernel with the record. */

static void emit_prog(gzFile out, int n, const struct prog *p)
{
	int i, k;

	gzprintf(out, "p %d\nc ", n);
	for (i = 0; i < p->len; i++) {
		const uint8_t *b = (const uint8_t *)&p->insn[i];

		for (k = 0; k < 8; k++)
			gzprintf(out, "%02x", b[k]);
	}
	gzprintf(out, "\n");
}

int main(int argc, char **argv)
{
	const char *path = "tests/fixtures/scalar/progs.txt.gz";
	uint64_t seed = 1;
	int count = 12000, opt, i, rejected = 0, failed = 0;
	gzFile out;

	while ((opt = getopt(argc, argv, "n:s:o:")) != -1) {
		switch (opt) {
		case 'n':
			count = atoi(optarg);
			break;
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 'o':
			path = optarg;
			break;
		default:
			fprintf(stderr, "usage: %s [-n count] [-s seed] [-o out.gz]\n",
				argv[0]);
			return 2;
		}
	}
	out = gzopen(path, "wb9");
	if (!out) {
		fprintf(stderr, "gen: cannot open %s\n", path);
		return 1;
	}
	for (i = 0; i < count; i++) {
		struct rng r = { seed * 0x100000001b3ULL + (uint64_t)i };
		struct prog p;
		char *rec;
		int err;

		gen_prog(&r, &p);
		err = scalar_live_record(p.insn, (size_t)p.len, &rec);
		if (err) {
			/* No BPF here, or an oversized or empty log: not a
			 * fixture. */
			failed++;
			if (err == -EPERM || err == -ENOMEM) {
				fprintf(stderr, "gen: %s\n", err == -EPERM ?
					"bpf(BPF_PROG_LOAD) not permitted" : "out of memory");
				break;
			}
			continue;
		}
		emit_prog(out, i, &p);
		gzputs(out, rec);
		/* The record of a rejected program ends "e <errno> <message>". */
		rejected += rec[0] == 'e' || strstr(rec, "\ne ") != NULL;
		free(rec);
	}
	gzclose(out);
	scalar_live_free();
	fprintf(stderr, "gen: %d programs, %d rejected, %d skipped -> %s\n",
		count - failed, rejected, failed, path);
	return failed == count ? 1 : 0;
}
