/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BPF arena (BPF_MAP_TYPE_ARENA, 6.9): memory shared with user space that
 * the program reaches through PTR_TO_ARENA registers. The verifier checks
 * none of those accesses (the JIT turns each into a fault-tolerant load or
 * store of the arena's 4 GiB window), so the rules here are about the
 * association of a program with its arena and about which registers
 * become arena pointers:
 *  - an LD_IMM64 of the arena map associates it with the program: one
 *    arena per program, for a program with CAP_BPF and CAP_PERFMON;
 *  - addr_space_cast (BPF_MOV64 with off 1) needs that association; the
 *    cast from address space 1 gives a 32-bit arena pointer, the other
 *    way an unknown scalar;
 *  - any arithmetic with an arena pointer gives the arena pointer;
 *  - after the walk, sign-extending loads through one are refused before
 *    6.18, which JITs them.
 * The kfuncs (bpf_arena_alloc_pages and its siblings) are plain kfuncs
 * (kfunc.c); an LD_IMM64 of an __arena global is a scalar (mapref.c).
 */
#include <errno.h>

#include "verifier.h"

int arena_use_map(struct vet_env *env, const struct bpfvet_map *map)
{
	/* A second reference to the same arena is the kernel's "reused"
	 * map, which it does not check again. */
	if (map->type != BPF_MAP_TYPE_ARENA || env->arena == map)
		return 0;
	if (env->arena) {
		verbose(env, "Only one arena per program\n");
		return -EBUSY;
	}
	if (!env->allow_ptr_leaks || !env->bpf_capable) {
		verbose(env, "CAP_BPF and CAP_PERFMON are required to use arena\n");
		return -EPERM;
	}
	/* The JIT is taken as present: every target bpfvet knows (x86-64,
	 * CONFIG_BPF_JIT_DEFAULT_ON) has it and supports arenas. libbpf
	 * maps the arena before loading, so its user address is set. */
	env->arena = map;
	return 0;
}

bool prog_has_arena(const struct vet_env *env)
{
	return env->arena != NULL;
}

/* The operand checks of BPF_MOV64 with off 1 (BPF_ADDR_SPACE_CAST). */
int arena_check_cast(struct vet_env *env, const struct bpfvet_insn *insn)
{
	if (insn->imm != 1 && insn->imm != 1 << 16) {
		verbose(env, "addr_space_cast insn can only convert between address space 1 and 0\n");
		return -EINVAL;
	}
	if (!prog_has_arena(env)) {
		verbose(env, "addr_space_cast insn can only be used in a program that has an associated arena\n");
		return -EINVAL;
	}
	return 0;
}

/* dst = addr_space_cast(src, ...): from the arena (imm 1) an arena
 * pointer, whose upper half the JIT clears; into it (imm 1 << 16) a
 * number. */
void arena_cast(struct vet_env *env, const struct bpfvet_insn *insn, struct reg_state *dst)
{
	reg_mark_unknown(env, dst);
	if (insn->imm == 1) {
		dst->type = PTR_TO_ARENA;
		dst->subreg_def = (int32_t)env->insn_idx + 1;
	}
}

/* An ALU operation with an arena pointer on either side: any operation is
 * allowed, and the result is the arena pointer (the source's, when the
 * destination was not one). Returns false when neither side is. */
bool arena_alu(struct vet_env *env, struct reg_state *dst, const struct reg_state *src)
{
	if (dst->type != PTR_TO_ARENA && (!src || src->type != PTR_TO_ARENA))
		return false;
	if (dst->type != PTR_TO_ARENA)
		*dst = *src;
	dst->subreg_def = (int32_t)env->insn_idx + 1;
	return true;
}

/* After a successful walk the kernel rewrites each access through an arena
 * pointer; before 6.18 it had no form for a sign-extending load. */
int arena_check_conversions(struct vet_env *env)
{
	if (!env->arena || env_has(env, KVER_ARENA_LDSX))
		return 0;
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (BPF_CLASS(insn->code) != BPF_LDX || BPF_MODE(insn->code) != BPF_MEMSX ||
		    env->aux[i].ptr_type != PTR_TO_ARENA)
			continue;
		verbose(env, "sign extending loads from arena are not supported yet\n");
		return -EOPNOTSUPP;
	}
	return 0;
}
