/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Map-specific rules: inner maps of map-in-map, read-only global data read
 * as constants, special fields inside values, and which maps a program type
 * or helper accepts.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

const struct bpfvet_map *map_inner(const struct vet_env *env, const struct bpfvet_map *map)
{
	if (map->type != BPF_MAP_TYPE_ARRAY_OF_MAPS && map->type != BPF_MAP_TYPE_HASH_OF_MAPS)
		return NULL;
	if (map->inner_idx < 0 || (size_t)map->inner_idx >= env->map_cnt)
		return NULL;
	return &env->maps[map->inner_idx];
}

bool map_has_timer_or_wq(const struct vet_env *env, const struct bpfvet_map *map)
{
	return map_has_field(env, map, FIELD_TIMER | FIELD_WORKQUEUE);
}

bool map_has_spin_lock(const struct vet_env *env, const struct bpfvet_map *map)
{
	return map_has_field(env, map, FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK);
}

/* A map value or an allocated object whose struct has a lock. */
bool reg_may_point_to_spin_lock(const struct vet_env *env, const struct reg_state *reg)
{
	const struct map_record *rec = alloc_obj_record(env, reg);

	if (rec)
		return rec->mask & (FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK);
	return base_type(reg->type) == PTR_TO_MAP_VALUE && reg->map_ptr &&
	       map_has_spin_lock(env, reg->map_ptr);
}

/* Lookups in arrays with a known in-range index cannot fail. */
bool map_lookup_may_be_non_null(const struct bpfvet_map *map)
{
	return map->type == BPF_MAP_TYPE_ARRAY || map->type == BPF_MAP_TYPE_PERCPU_ARRAY;
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

/* Kptr-like fields: only whole, direct, fixed-offset 8-byte accesses. */
static int check_kptr_overlap(struct vet_env *env, const struct reg_state *reg,
			      const struct map_field *f, int off, int size, bool direct)
{
	const char *name = field_type_name(f->type);

	if (!direct) {
		verbose(env, "%s cannot be accessed indirectly by helper\n", name);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "%s access cannot have variable offset\n", name);
		return -EACCES;
	}
	if ((uint64_t)f->off != (uint64_t)(int64_t)off + reg->b.var_off.value) {
		verbose(env, "%s access misaligned expected=%u off=%llu\n", name, f->off,
			(unsigned long long)((uint64_t)(int64_t)off + reg->b.var_off.value));
		return -EACCES;
	}
	if (size != 8) {
		verbose(env, "%s access size must be BPF_DW\n", name);
		return -EACCES;
	}
	return 0;
}

/*
 * Bounds, then the special fields the access may touch: none may be
 * loaded or stored except kptrs, under their own rules. `direct` is false
 * for memory a helper reads or writes.
 */
int check_map_value_access(struct vet_env *env, uint32_t regno, int off, int size,
			   bool zero_ok, bool direct)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct map_record *rec = map_record_of(env, reg->map_ptr);
	int err;

	err = check_mem_region(env, regno, off, size, reg->map_ptr->value_size, zero_ok);
	if (err)
		return err;
	for (uint32_t i = 0; i < rec->cnt; i++) {
		const struct map_field *f = &rec->fields[i];

		/* [smin + off, umax + off + size) against [f->off, f->off + f->size) */
		if (reg->b.smin + off >= (int64_t)(f->off + f->size) ||
		    (uint64_t)f->off >= reg->b.umax + (uint64_t)(int64_t)off + (uint64_t)size)
			continue;
		if (f->type & (FIELD_KPTR | FIELD_UPTR)) {
			err = check_kptr_overlap(env, reg, f, off, size, direct);
			if (err)
				return err;
			continue;
		}
		verbose(env, "%s cannot be accessed directly by load/store\n",
			field_type_name(f->type));
		return -EACCES;
	}
	return 0;
}

/* The null register stored into an untrusted kptr slot, or a bad one. */
static int kptr_store_reg(struct vet_env *env, int value_regno, const struct map_field *f)
{
	const struct reg_state *val = &cur_regs(env)[value_regno];
	const struct btf *btf = env->prog->obj ? env->prog->obj->btf : NULL;
	const char *targ = "";
	char tb[64];

	if (val->type == SCALAR_VALUE && tnum_equals_const(val->b.var_off, 0))
		return mark_chain_precision(env, value_regno);
	if (base_type(val->type) == PTR_TO_BTF_ID)
		return kptr_match_type(env, (uint32_t)value_regno, f);
	if (btf && f->kptr_type_id) {
		const struct btf_type *t = btf__type_by_id(btf, f->kptr_type_id);

		if (t)
			targ = btf__name_by_offset(btf, t->name_off);
	}
	verbose(env, "invalid kptr access, R%d type=%s ", value_regno,
		reg_type_str(tb, sizeof(tb), val->type));
	verbose(env, "expected=%s%s", reg_type_str(tb, sizeof(tb), PTR_TO_BTF_ID), targ);
	if (f->type == FIELD_KPTR_UNREF)
		verbose(env, " or %s%s\n",
			reg_type_str(tb, sizeof(tb), PTR_TO_BTF_ID | PTR_UNTRUSTED), targ);
	else
		verbose(env, "\n");
	return -EINVAL;
}

/*
 * A load or store exactly at a kptr field (check_map_value_access already
 * checked offset and size). Loading gives a BTF pointer of the field's
 * type, which needs the kernel's BTF: not modelled.
 */
int check_map_kptr_access(struct vet_env *env, uint32_t insn_idx, int value_regno,
			  const struct map_field *f)
{
	const struct bpfvet_insn *insn = &env->insns[insn_idx];
	uint8_t cls = BPF_CLASS(insn->code);

	if (BPF_MODE(insn->code) != BPF_MEM) {
		verbose(env, "kptr in map can only be accessed using BPF_MEM instruction mode\n");
		return -EACCES;
	}
	if (cls != BPF_LDX && (f->type == FIELD_KPTR_REF || f->type == FIELD_KPTR_PERCPU)) {
		verbose(env, "store to referenced kptr disallowed\n");
		return -EACCES;
	}
	if (cls != BPF_LDX && f->type == FIELD_UPTR) {
		verbose(env, "store to uptr disallowed\n");
		return -EACCES;
	}
	switch (cls) {
	case BPF_LDX:
		return kptr_load(env, value_regno, f);
	case BPF_STX:
		return kptr_store_reg(env, value_regno, f);
	case BPF_ST:
		if (insn->imm) {
			verbose(env, "BPF_ST imm must be 0 when storing to kptr at off=%u\n",
				f->off);
			return -EACCES;
		}
		return 0;
	default:
		verbose(env, "kptr in map can only be accessed using BPF_LDX/BPF_STX/BPF_ST\n");
		return -EACCES;
	}
}

static bool is_tracing_prog_type(uint32_t type)
{
	switch (type) {
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
		return true;
	default:
		return false;
	}
}

/* Map types a sleepable program may use. */
static bool sleepable_map_ok(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_CGRP_STORAGE:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
	case BPF_MAP_TYPE_ARENA:
		return true;
	default:
		return false;
	}
}

/*
 * Whether the program may use the map at all, checked when an LD_IMM64
 * names it, before the walk: special fields some program types cannot
 * handle yet, struct_ops maps, and the map types of sleepable programs.
 */
int check_map_prog_compatibility(struct vet_env *env, const struct bpfvet_map *map)
{
	bool tracing = is_tracing_prog_type(env->prog_type);

	if (tracing && map_has_field(env, map, FIELD_GRAPH_ROOT)) {
		verbose(env, "tracing progs cannot use bpf_{list_head,rb_root} yet\n");
		return -EINVAL;
	}
	if (map_has_field(env, map, FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK)) {
		if (env->prog_type == BPF_PROG_TYPE_SOCKET_FILTER) {
			verbose(env, "socket filter progs cannot use bpf_spin_lock yet\n");
			return -EINVAL;
		}
		if (tracing) {
			verbose(env, "tracing progs cannot use bpf_spin_lock yet\n");
			return -EINVAL;
		}
	}
	if (tracing && map_has_field(env, map, FIELD_TIMER)) {
		verbose(env, "tracing progs cannot use bpf_timer yet\n");
		return -EINVAL;
	}
	if (tracing && map_has_field(env, map, FIELD_WORKQUEUE)) {
		verbose(env, "tracing progs cannot use bpf_wq yet\n");
		return -EINVAL;
	}
	if (map->type == BPF_MAP_TYPE_STRUCT_OPS) {
		verbose(env, "bpf_struct_ops map cannot be used in prog\n");
		return -EINVAL;
	}
	if ((env->prog_flags & BPF_F_SLEEPABLE) && !sleepable_map_ok(map->type)) {
		verbose(env, "Sleepable programs can only use array, hash, ringbuf and local storage maps\n");
		return -EINVAL;
	}
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
