/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Maps referenced by LD_IMM64: resolving them before the walk (bad indexes,
 * direct value offsets, map/program compatibility) and the register they
 * produce during the walk, along with the other LD_IMM64 forms.
 */
#include <errno.h>

#include "verifier.h"

#define ARENA_PAGE_SIZE 4096u	/* the targets' (x86-64) PAGE_SIZE */

const struct bpfvet_map *insn_map(const struct vet_env *env, uint32_t idx)
{
	int32_t i = env->insns[idx].imm;

	/* A descriptor written by hand names no map bpfvet knows. */
	if (prog_insn_flag(env->prog, idx, INSN_F_LITERAL_FD))
		return NULL;
	if (i < 0 || (size_t)i >= env->map_cnt)
		return NULL;
	return &env->maps[i];
}

static bool map_has_direct_value_addr(const struct bpfvet_map *map)
{
	return map->type == BPF_MAP_TYPE_ARRAY || map->type == BPF_MAP_TYPE_ARENA;
}

int maps_check_ldimm64(struct vet_env *env, uint32_t idx)
{
	const struct bpfvet_insn *insn = &env->insns[idx];
	const struct bpfvet_map *map = insn_map(env, idx);
	uint32_t off;
	int err;

	if (!map) {
		verbose(env, "fd %d is not pointing to valid bpf_map\n", insn->imm);
		/* The kernel says EINVAL for an open file that is not a map
		 * (a loader always has 0-2 open) and EBADF for a closed one. */
		if (prog_insn_flag(env->prog, idx, INSN_F_LITERAL_FD) &&
		    insn->imm >= 0 && insn->imm <= 2)
			return -EINVAL;
		return -EBADF;
	}
	err = check_map_prog_compatibility(env, map);
	if (err)
		return err;
	if (insn->src_reg != BPF_PSEUDO_MAP_VALUE)
		return arena_use_map(env, map);
	off = (uint32_t)insn[1].imm;
	if (off >= BPF_MAX_VAR_OFF) {
		verbose(env, "direct value offset of %u is not allowed\n", off);
		return -EINVAL;
	}
	if (!map_has_direct_value_addr(map)) {
		verbose(env, "no direct value access support for this map type\n");
		return -EINVAL;
	}
	if (map->type == BPF_MAP_TYPE_ARRAY &&
	    (map->max_entries != 1 || off >= map->value_size)) {
		verbose(env, "invalid access to map value pointer, value_size=%u off=%u\n",
			map->value_size, off);
		return map->max_entries != 1 ? -EOPNOTSUPP : -EINVAL;
	}
	/* An arena's direct value may point anywhere in its pages. */
	if (map->type == BPF_MAP_TYPE_ARENA && off > (uint64_t)map->max_entries * ARENA_PAGE_SIZE) {
		verbose(env, "invalid access to map value pointer, value_size=%u off=%u\n",
			map->value_size, off);
		return -ERANGE;
	}
	return arena_use_map(env, map);
}

static int ld_imm_func(struct vet_env *env, const struct bpfvet_insn *insn,
		       struct reg_state *dst)
{
	uint32_t target = env->insn_idx + (uint32_t)insn->imm + 1;
	int sub = subprog_at(env, target);

	if (!env->prog->func_info_cnt) {
		verbose(env, "missing btf func_info\n");
		return -EINVAL;
	}
	if (sub < 0 || env->subprogs[sub].is_global) {
		verbose(env, "callback function not static\n");
		return -EINVAL;
	}
	dst->type = PTR_TO_FUNC;
	dst->subprogno = (uint32_t)sub;
	return 0;
}

int check_ld_imm(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct reg_state *dst;
	const struct bpfvet_map *map;
	int err;

	if (BPF_SIZE(insn->code) != BPF_DW) {
		verbose(env, "invalid BPF_LD_IMM insn\n");
		return -EINVAL;
	}
	if (insn->off) {
		verbose(env, "BPF_LD_IMM64 uses reserved fields\n");
		return -EINVAL;
	}
	err = check_reg_arg(env, insn->dst_reg, DST_OP);
	if (err)
		return err;
	dst = &cur_regs(env)[insn->dst_reg];
	if (insn->src_reg == 0) {
		uint64_t v = ((uint64_t)(uint32_t)insn[1].imm << 32) | (uint32_t)insn->imm;

		reg_mark_known(dst, v);
		return 0;
	}
	reg_mark_ptr(dst, NOT_INIT);
	switch (insn->src_reg) {
	case BPF_PSEUDO_BTF_ID:
		return ld_imm_ksym(env, insn, dst);
	case BPF_PSEUDO_FUNC:
		return ld_imm_func(env, insn, dst);
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_VALUE:
		break;
	default:
		verbose(env, "bpf verifier is misconfigured\n");
		return -EINVAL;
	}
	map = insn_map(env, env->insn_idx);
	dst->map_ptr = map;
	dst->map_meta = false;
	if (insn->src_reg == BPF_PSEUDO_MAP_VALUE) {
		if (map->type == BPF_MAP_TYPE_ARENA) {
			reg_mark_unknown(env, dst);
			return 0;
		}
		dst->type = PTR_TO_MAP_VALUE;
		dst->off = insn[1].imm;
	} else {
		dst->type = CONST_PTR_TO_MAP;
	}
	return 0;
}
