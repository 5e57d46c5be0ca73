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
/* Low 32 bits become the constant v; 64-bit ranges untouched, no sync
 * (the kernel's __mark_reg32_known). */
void bounds_mark_const32(struct bounds *b, uint32_t v);
/* All eight ranges reset to "anything", var_off kept (the kernel's
 * __mark_reg_unbounded, e.g. after an invariant violation). */
void bounds_mark_unbounded(struct bounds *b);

/* Predicates. */
bool bounds_is_const(const struct bounds *b);
bool bounds_is_const32(const struct bounds *b);
bool bounds_is_unknown(const struct bounds *b);
bool bounds_equal(const struct bounds *a, const struct bounds *b);
/* Is every value of `cur` a value of `old`? (range and tnum inclusion) */
bool bounds_within(const struct bounds *old, const struct bounds *cur);

/* Widens `into` to hold every value of `in` as well: the hull of each
 * range, the union of the tnums, then a sync. */
void bounds_hull(struct bounds *into, const struct bounds *in);

/* Re-derive every view from the others (the kernel's reg_bounds_sync). */
void bounds_sync(struct bounds *b);
/*
 * The sync is a function of the 64 bytes of its input alone, and a walk
 * meets few distinct inputs: test_verif_scale2 syncs 908,302 times, on 22
 * different values. A memo of recent results, kept by the caller, spares
 * the steps. Start it zeroed.
 */
#define BOUNDS_MEMO_SLOTS 64
struct bounds_memo {
	uint64_t valid;			/* a bit per slot */
	struct {
		struct bounds in, out;
	} slot[BOUNDS_MEMO_SLOTS];
};
/* bounds_sync() through the memo m (NULL: none). */
void bounds_sync_memo(struct bounds *b, struct bounds_memo *m);
/*
 * Impossible combination (min > max, tnum outside a range, ...)? Returns 0
 * when sane; otherwise writes a description in the kernel's
 * "REG INVARIANTS VIOLATION" style into msg and returns -1.
 */
int bounds_check(const struct bounds *b, char *msg, size_t sz);
/*
 * Same check; msg receives the whole line as Linux 6.18 logs it, e.g.
 * "verifier bug: REG INVARIANTS VIOLATION (alu): range bounds violation
 * u64=[0x2, 0x1] s64=[..] u32=[..] s32=[..] var_off=(0x0, 0x1)". ctx is the
 * kernel's context word: "alu", "true_reg1", "true_reg2", "false_reg1",
 * "false_reg2". bounds_check() writes the part after "(<ctx>): ".
 */
int bounds_check_ctx(const struct bounds *b, const char *ctx, char *msg,
		     size_t sz);

/* Zero-extend the 32-bit views into the 64-bit ones, then sync (what the
 * kernel does after `w1 = w2`). */
void bounds_zext32(struct bounds *b);
void bounds_zext32_memo(struct bounds *b, struct bounds_memo *m);
/* Narrow to the low `size` bytes, zero-extended, then sync (narrow loads,
 * le16/le32; the kernel's coerce_reg_to_size). size 8 is a no-op. */
void bounds_truncate(struct bounds *b, int size);
/* Sign-extend from `size` bytes to 64 (sign-extending loads, movsx). The
 * result is in the kernel's form: synced where the kernel syncs, already
 * consistent elsewhere. */
void bounds_sext(struct bounds *b, int size);
/* Sign-extend from `size` (1, 2) bytes to 32 bits, then zero-extend into
 * 64 and sync (movsx32 `w1 = (s8)w2`, complete). */
void bounds_sext32(struct bounds *b, int size);

/*
 * ALU transfer function: dst = dst OP src, with OP a BPF_OP() code
 * (BPF_ADD ... BPF_ARSH, BPF_MOV excluded, BPF_NEG and BPF_END handled
 * by their own functions). `alu32` selects the 32-bit class, `off` is the
 * instruction's off field (1 selects sdiv/smod). The result is what the
 * kernel computes, including where it gives up: shifts by a non-constant
 * amount or by the width or more, and all of DIV and MOD, yield a fully
 * unknown value.
 *
 * For the immediate form pass bounds_const((uint64_t)(int64_t)imm): the
 * kernel sign-extends imm to 64 bits for ALU and ALU64 alike. For the
 * register form pass the source register's bounds (even for ALU32: the
 * kernel checks a 32-bit shift amount against the full 64-bit umax). DIV
 * and MOD (signed or not, any width) give a completely unknown 64-bit
 * value in 6.18, with no zero extension; `off` only matters for them.
 * dst may alias src. memo: for the final sync (bounds_sync_memo), or NULL.
 */
void scalar_alu(struct bounds *dst, const struct bounds *src, uint8_t op,
		bool alu32, int16_t off, struct bounds_memo *memo);
/*
 * The kernel's maybe_fork_scalars: before AND/OR with a 64-bit constant
 * source, a destination whose range is exactly [-1, 0] (64-bit, else
 * 32-bit) is split. Returns true when a split happens: *zero receives the
 * destination as 0 (the state the verifier pushes, to re-run the same
 * instruction later) and *dst becomes -1 (the path that continues). Call
 * it before scalar_alu().
 */
bool scalar_alu_fork(struct bounds *dst, const struct bounds *src,
		     uint8_t op, struct bounds *zero);
/* dst = -dst: 0 - dst with SUB's range rules, then zext for ALU32. */
void scalar_neg(struct bounds *dst, bool alu32);
/* BPF_END / bswap: `to_be` for be16/32/64 on ALU, `bswap` for ALU64.
 * le16/le32 truncate (coerce to size), le64 changes nothing, be and bswap
 * swap the tnum's bytes and rebuild every range from it. */
void scalar_end(struct bounds *dst, int bits, bool to_be, bool bswap);
/* Whether that swap leaves every value as it is: le64 only, the model
 * being little-endian. A register keeps its links to its copies through
 * such a swap and through no other. */
bool scalar_end_is_identity(int bits, bool to_be, bool bswap);

/*
 * Branches. `op` is a conditional BPF_OP() jump code (BPF_JEQ ... BPF_JSLE).
 * scalar_branch_taken() returns 1 if `a OP b` always holds, 0 if it never
 * holds, -1 when both outcomes are possible.
 */
int scalar_branch_taken(const struct bounds *a, const struct bounds *b,
			uint8_t op, bool is32);
/* The same question as kernels before 6.8 asked it: only when one side is
 * a constant, and equality only between constants. */
int scalar_branch_taken_by_const(const struct bounds *a, const struct bounds *b,
				 uint8_t op, bool is32);
/*
 * Narrow a and b given that `a OP b` holds, then sync both (the kernel's
 * regs_refine_cond_op + reg_bounds_sync on each). For an immediate pass a
 * constant made with bounds_const((uint64_t)(int64_t)imm). If both
 * operands are the same register pass the same pointer twice: the kernel
 * refines through aliased pointers (`if r1 > r1` narrows r1 on the taken
 * edge to [1, U64_MAX-1]). The verifier calls this once per edge with
 * `op` and jmp_op_negate(op), each on its own copy of the registers:
 * first the fall-through edge, then the taken edge.
 */
void scalar_branch_refine(struct bounds *a, struct bounds *b, uint8_t op,
			  bool is32, struct bounds_memo *memo);
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
/* A scalar without id or precision mark: the constant, or
 * "scalar(<bounds_print>)". */
int scalar_print(char *buf, size_t sz, const struct bounds *b);

#endif
