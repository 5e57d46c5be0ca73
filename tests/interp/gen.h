/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Random BPF programs for the interpreter's differential fixtures
 * (issue 21; docs/interp-fixtures.md). gen_prog.c builds the programs,
 * gen.c loads and runs them in the kernel and writes the records.
 */
#ifndef BPFVET_INTERP_GEN_H
#define BPFVET_INTERP_GEN_H

#include <stdbool.h>
#include <stdint.h>

#define GEN_MAX_INSNS 512
#define GEN_MAX_MAPS 2

struct gen_insn {
	uint8_t code;
	uint8_t regs;	/* dst | src << 4 */
	int16_t off;
	int32_t imm;
};

/* The program types the generator writes (kernel numbering). */
enum gen_ptype {
	GEN_SOCKET_FILTER = 1,
	GEN_SCHED_CLS = 3,
	GEN_XDP = 6,
};

enum gen_family { FAM_SCALAR, FAM_MEM, FAM_BRANCHY };

struct gen_map {
	uint32_t type, key_size, value_size, max_entries;
};

struct gen_prog {
	enum gen_ptype type;
	struct gen_insn insn[GEN_MAX_INSNS];
	int len;
	bool overflow;	/* ran out of room: the program is discarded */
	struct gen_map map[GEN_MAX_MAPS];
	int nmaps;
};

struct rng {
	uint64_t s;
};

uint64_t rnd(struct rng *r);
int pick(struct rng *r, int n);

/* Builds one program of the family for a random program type. */
void gen_program(struct rng *r, enum gen_family fam, struct gen_prog *p);

#endif
