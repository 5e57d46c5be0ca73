/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The abstract domain for numbers: a tnum plus signed and unsigned ranges
 * at 64 and 32 bits. Scalars use it for their value, pointers for their
 * variable offset. Every operation keeps the five views consistent the way
 * the Linux 6.18 verifier does (sync and deduce after each change), so that
 * printed states match the kernel's.
 */
#ifndef BPFVET_SCALAR_H
#define BPFVET_SCALAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tnum.h"

struct bounds {
	struct tnum var_off;
	int64_t smin, smax;
	uint64_t umin, umax;
	int32_t s32_min, s32_max;
	uint32_t u32_min, u32_max;
};

/* Constructors. */
void bounds_unknown(struct bounds *b);
void bounds_const(struct bounds *b, uint64_t v);
/* Unknown 64-bit value whose low 32 bits are the constant v. */
void bounds_const_subreg(struct bounds *b, uint32_t v);

/* Predicates. */
bool bounds_is_const(const struct bounds *b);
bool bounds_is_const32(const struct bounds *b);
bool bounds_is_unknown(const struct bounds *b);
bool bounds_equal(const struct bounds *a, const struct bounds *b);
/* Is every value of `cur` a value of `old`? (range and tnum inclusion) */
bool bounds_within(const struct bounds *old, const struct bounds *cur);

/* Re-derive every view from the others (the kernel's reg_bounds_sync). */
void bounds_sync(struct bounds *b);
/*
 * Impossible combination (min > max, tnum outside a range, ...)? Returns 0
 * when sane; otherwise writes a description in the kernel's
 * "REG INVARIANTS VIOLATION" style into msg and returns -1.
 */
int bounds_check(const struct bounds *b, char *msg, size_t sz);

/* Zero-extend the 32-bit views into the 64-bit ones (after ALU32 ops). */
void bounds_zext32(struct bounds *b);
/* Narrow to the low `size` bytes, zero-extended (narrow loads, casts). */
void bounds_truncate(struct bounds *b, int size);
/* Sign-extend from `size` bytes to 64 (sign-extending loads, movsx). */
void bounds_sext(struct bounds *b, int size);
/* Sign-extend from `size` bytes to 32 bits, high 32 zero (movsx32). */
void bounds_sext32(struct bounds *b, int size);

/*
 * ALU transfer function: dst = dst OP src, with OP a BPF_OP() code
 * (BPF_ADD ... BPF_ARSH, BPF_MOV excluded, BPF_NEG and BPF_END handled
 * by their own functions). `alu32` selects the 32-bit class, `off` is the
 * instruction's off field (1 selects sdiv/smod). The result is what the
 * kernel computes, including its rules for division by zero and for
 * shifts at or beyond the width.
 */
void scalar_alu(struct bounds *dst, const struct bounds *src, uint8_t op,
		bool alu32, int16_t off);
void scalar_neg(struct bounds *dst, bool alu32);
/* BPF_END / bswap: `to_be` for be16/32/64 on ALU, `bswap` for ALU64. */
void scalar_end(struct bounds *dst, int bits, bool to_be, bool bswap);

/*
 * Branches. `op` is a conditional BPF_OP() jump code (BPF_JEQ ... BPF_JSLE).
 * scalar_branch_taken() returns 1 if `a OP b` always holds, 0 if it never
 * holds, -1 when both outcomes are possible.
 */
int scalar_branch_taken(const struct bounds *a, const struct bounds *b,
			uint8_t op, bool is32);
/* Narrow a and b given that `a OP b` holds. */
void scalar_branch_refine(struct bounds *a, struct bounds *b, uint8_t op,
			  bool is32);
/* Condition that holds on the other edge (JEQ -> JNE, JGT -> JLE, ...).
 * JSET has no inverse in the ISA: its negation is the internal pseudo-op
 * JMP_OP_NOT_SET, which scalar_branch_taken/refine accept like the rest. */
#define JMP_OP_NOT_SET 0x48	/* BPF_JSET | BPF_X, never a real opcode here */
uint8_t jmp_op_negate(uint8_t op);
/* Condition with operands swapped (JGT -> JLT, JEQ -> JEQ, ...). */
uint8_t jmp_op_swap(uint8_t op);

/*
 * Printing in the kernel's format. bounds_print() writes the
 * comma-separated field list ("smin=0,smax=umax=10,var_off=(0x0; 0xf)"),
 * empty for a fully unknown value, and returns the length written (as
 * snprintf). scalar_print_const() writes a constant as the kernel does
 * (decimal within s16, hex otherwise).
 */
int bounds_print(char *buf, size_t sz, const struct bounds *b);
int scalar_print_const(char *buf, size_t sz, uint64_t v);

#endif
