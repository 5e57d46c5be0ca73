/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Map-specific rules: inner maps of map-in-map, read-only global data read
 * as constants, special fields inside values, and which maps a program type
 * or helper accepts.
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

const struct bpfvet_map *map_inner(const struct vet_env *env, const struct bpfvet_map *map)
{
	if (map->type != BPF_MAP_TYPE_ARRAY_OF_MAPS && map->type != BPF_MAP_TYPE_HASH_OF_MAPS)
		return NULL;
	if (map->inner_idx < 0 || (size_t)map->inner_idx >= env->map_cnt)
		return NULL;
	return &env->maps[map->inner_idx];
}

bool map_has_timer_or_wq(const struct bpfvet_map *map)
{
	(void)map;
	return false;
}

bool map_has_spin_lock(const struct bpfvet_map *map)
{
	(void)map;
	return false;
}

bool reg_may_point_to_spin_lock(const struct reg_state *reg)
{
	return base_type(reg->type) == PTR_TO_MAP_VALUE && reg->map_ptr &&
	       map_has_spin_lock(reg->map_ptr);
}

bool map_is_frozen_rdonly(const struct bpfvet_map *map)
{
	/* libbpf freezes .rodata, and .kconfig once filled; programs see
	 * BPF_F_RDONLY_PROG and the kernel reads the contents. A .kconfig
	 * whose values bpfvet was not given is not frozen here: unknown. */
	return map->type == BPF_MAP_TYPE_ARRAY && (map->flags & BPF_F_RDONLY_PROG) &&
	       map->frozen;
}

bool map_const_known(const struct bpfvet_map *map, int off, int size)
{
	if (!map->init_known)
		return true;
	if (off < 0 || size < 1 || (uint64_t)off + (uint64_t)size > map->init_size)
		return false;
	for (int i = 0; i < size; i++)
		if (!map->init_known[off + i])
			return false;
	return true;
}

int map_read_const(struct vet_env *env, const struct bpfvet_map *map, int off, int size,
		   bool is_ldsx, uint64_t *val)
{
	uint8_t bytes[8] = { 0 };

	(void)env;
	if (off < 0 || size < 1 || size > 8 || (uint64_t)off + (uint64_t)size > map->value_size)
		return -EINVAL;
	if (map->init_data && (size_t)off < map->init_size) {
		size_t n = map->init_size - (size_t)off;

		memcpy(bytes, (const uint8_t *)map->init_data + off, n < (size_t)size ? n : (size_t)size);
	}
	*val = 0;
	for (int i = size - 1; i >= 0; i--)
		*val = (*val << 8) | bytes[i];
	if (is_ldsx && size < 8) {
		int shift = 64 - 8 * size;

		*val = (uint64_t)((int64_t)(*val << shift) >> shift);
	}
	return 0;
}

int check_map_value_access(struct vet_env *env, uint32_t regno, int off, int size,
			   bool zero_ok, bool direct)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	(void)direct;
	return check_mem_region(env, regno, off, size, reg->map_ptr->value_size, zero_ok);
}

int check_map_prog_compatibility(struct vet_env *env, const struct bpfvet_map *map)
{
	(void)env;
	(void)map;
	return 0;
}

int resolve_map_arg_type(struct vet_env *env, const struct bpfvet_map *map, int func_id,
			 uint32_t *arg_type)
{
	if (!map) {
		verbose(env, "invalid map_ptr to access map->type\n");
		return -EACCES;
	}
	switch (map->type) {
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
		if (*arg_type != ARG_PTR_TO_MAP_VALUE) {
			verbose(env, "invalid arg_type for sockmap/sockhash\n");
			return -EINVAL;
		}
		*arg_type = ARG_PTR_TO_BTF_ID_SOCK_COMMON;
		return 0;
	case BPF_MAP_TYPE_BLOOM_FILTER:
		if (func_id == 89 /* map_peek_elem */)
			*arg_type = ARG_PTR_TO_MAP_VALUE;
		return 0;
	default:
		return 0;
	}
}

bool prog_has_arena(const struct vet_env *env)
{
	for (size_t i = 0; i < env->map_cnt; i++)
		if (env->maps[i].type == BPF_MAP_TYPE_ARENA)
			return true;
	return false;
}
