/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Checks done on every instruction before the walk, in the kernel's order
 * (it does them while resolving LD_IMM64 references): the opcode table,
 * the shape of LD_IMM64, and the maps and kernel symbols LD_IMM64 names.
 * verify.c runs them between the subprogram checks and the CFG walk.
 */
#include <errno.h>

#include "verifier.h"

static bool opcode_valid(uint8_t code)
{
	uint8_t cls = BPF_CLASS(code), op = BPF_OP(code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		if (op == BPF_NEG)
			return BPF_SRC(code) == BPF_K;
		if (op == BPF_END)
			return cls == BPF_ALU || BPF_SRC(code) == BPF_K;
		return op <= BPF_ARSH;
	case BPF_JMP:
		if (op == BPF_JA || op == BPF_CALL || op == BPF_EXIT ||
		    op == BPF_JCOND)
			return BPF_SRC(code) == BPF_K;
		return op <= BPF_JSLE;
	case BPF_JMP32:
		if (op == BPF_JA)
			return BPF_SRC(code) == BPF_K;
		if (op == BPF_CALL || op == BPF_EXIT || op == BPF_JCOND)
			return false;
		return op <= BPF_JSLE;
	case BPF_LD:
		if (code == (BPF_LD | BPF_IMM | BPF_DW))
			return true;
		if (BPF_MODE(code) != BPF_ABS && BPF_MODE(code) != BPF_IND)
			return false;
		return BPF_SIZE(code) != BPF_DW;
	case BPF_LDX:
		if (BPF_MODE(code) == BPF_MEM)
			return true;
		return BPF_MODE(code) == BPF_MEMSX && BPF_SIZE(code) != BPF_DW;
	case BPF_ST:
		return BPF_MODE(code) == BPF_MEM;
	case BPF_STX:
		return BPF_MODE(code) == BPF_MEM || BPF_MODE(code) == BPF_ATOMIC;
	}
	return false;
}

/* The target's opcode table: before ISA v4 (6.6) it had no unconditional
 * byte swap, and before may_goto (6.9) no BPF_JCOND. */
static bool opcode_known(const struct vet_env *env, uint8_t code)
{
	if (!opcode_valid(code))
		return false;
	if (code == (BPF_ALU64 | BPF_END))
		return env_has(env, KVER_ISA_V4);
	if (code == (BPF_JMP | BPF_JCOND))
		return env_has(env, KVER_MAY_GOTO);
	return true;
}

/* Checks done on every instruction before the walk (the kernel does them
 * while resolving LD_IMM64 map references). */
int check_insns(struct vet_env *env)
{
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (!opcode_known(env, insn->code)) {
			verbose(env, "unknown opcode %02x\n", insn->code);
			return -EINVAL;
		}
		/* Before ISA v4, LDX knew BPF_MEM alone. */
		if (BPF_CLASS(insn->code) == BPF_LDX &&
		    ((BPF_MODE(insn->code) != BPF_MEM &&
		      (BPF_MODE(insn->code) != BPF_MEMSX || !env_has(env, KVER_ISA_V4))) ||
		     insn->imm != 0)) {
			verbose(env, "BPF_LDX uses reserved fields\n");
			return -EINVAL;
		}
		if (!insn_is_ldimm64(insn))
			continue;
		if (i + 1 == env->insn_cnt || insn[1].code || insn[1].dst_reg ||
		    insn[1].src_reg || insn[1].off) {
			verbose(env, "invalid bpf_ld_imm64 insn\n");
			return -EINVAL;
		}
		if (insn->off) {
			verbose(env, "BPF_LD_IMM64 uses reserved fields\n");
			return -EINVAL;
		}
		if (insn->src_reg > BPF_PSEUDO_MAP_IDX_VALUE ||
		    ((insn->src_reg == BPF_PSEUDO_MAP_FD ||
		      insn->src_reg == BPF_PSEUDO_MAP_IDX) && insn[1].imm)) {
			verbose(env, "unrecognized bpf_ld_imm64 insn\n");
			return -EINVAL;
		}
		if (insn->src_reg == BPF_PSEUDO_MAP_FD ||
		    insn->src_reg == BPF_PSEUDO_MAP_VALUE) {
			int err = maps_check_ldimm64(env, i);

			if (err)
				return err;
		}
		if (insn->src_reg == BPF_PSEUDO_BTF_ID) {
			int err = ksym_check_ldimm64(env, i);

			if (err)
				return err;
		}
		i++;
	}
	return 0;
}
