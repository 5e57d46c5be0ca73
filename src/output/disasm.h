/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Disassembler producing the text the Linux 6.18 verifier prints for an
 * instruction at log level 2 after "IDX: ", e.g. "(b7) r0 = 0".
 *
 * The text is byte-for-byte the kernel's for every encoding, with two
 * exceptions that depend on kernel state we cannot know:
 *  - ld_imm64 with a map or BTF-id pseudo source: the kernel prints a kernel
 *    address; we print what disasm_ops.pseudo_value returns (the program
 *    wrapper returns a deterministic synthetic address, see disasm.c);
 *  - kfunc calls: the kernel prints the vmlinux/module BTF id after '#';
 *    we print the id disasm_ops.kfunc_name reports (the program wrapper
 *    reports the target BTF's id, the same as the kernel's when the
 *    target is the kernel's own BTF).
 * Encodings the kernel rejects before printing (unknown opcodes) are
 * rendered the way the kernel's disassembler would render them.
 */
#ifndef BPFVET_DISASM_H
#define BPFVET_DISASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfvet.h"

/* Resolvers for the parts of an instruction that depend on context. Any
 * member may be NULL; `priv` is passed back unchanged. */
struct disasm_ops {
	/*
	 * CALL with src_reg BPF_PSEUDO_KFUNC_CALL: returns the kfunc's name and
	 * stores the id to print in *id (preset to insn->imm), or returns NULL
	 * when unknown, which prints "kernel-function".
	 */
	const char *(*kfunc_name)(void *priv, const struct bpfvet_insn *insn,
				  int32_t *id);
	/*
	 * ld_imm64 whose src_reg is MAP_FD, MAP_VALUE, MAP_IDX, MAP_IDX_VALUE
	 * or BTF_ID: returns the value to print instead of `raw`, the 64-bit
	 * immediate of the two slots. Without it `raw` is printed.
	 */
	uint64_t (*pseudo_value)(void *priv, const struct bpfvet_insn *insn,
				 uint64_t raw);
	void *priv;
};

/* Longest text for any instruction except kfunc calls with long names. */
#define DISASM_MAX_LEN 96

/*
 * Writes the text of insns[idx] into buf (always NUL-terminated when
 * sz > 0). Returns the slots consumed (1, or 2 for ld_imm64), -EINVAL when
 * idx is out of range, is the second slot of an ld_imm64 or is an ld_imm64
 * without its second slot, -ENOSPC when the text did not fit (buf then
 * holds the truncated text). `ops` may be NULL.
 */
int disasm_insn(const struct bpfvet_insn *insns, size_t cnt, size_t idx,
		const struct disasm_ops *ops, char *buf, size_t sz);

/* A program's instruction as the verifier log prints it; hide_ptrs
 * prints map addresses as 0, as the kernel does for unprivileged loads. */
struct bpfvet_program;
int disasm_prog_insn(const struct bpfvet_program *prog, size_t idx, bool hide_ptrs,
		     char *buf, size_t buf_sz);

/* True when insns[idx] is the second slot of an ld_imm64. */
bool disasm_is_ldimm64_tail(const struct bpfvet_insn *insns, size_t cnt,
			    size_t idx);

/* Synthetic kernel addresses printed for map and BTF-id ld_imm64. */
uint64_t disasm_map_addr(uint32_t map_idx);
uint64_t disasm_map_value_addr(uint32_t map_idx, uint32_t off);
uint64_t disasm_ksym_addr(uint32_t extern_idx);

#endif /* BPFVET_DISASM_H */
