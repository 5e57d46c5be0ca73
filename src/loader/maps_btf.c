/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BTF-defined maps (SEC(".maps")): each variable of the .maps DATASEC is a
 * struct whose members encode the attributes (__uint, __type, __array),
 * parsed as libbpf does, including the inner map of a map-in-map, and the
 * initial contents that .rel.maps gives to map-in-maps and prog_arrays.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "steps.h"
#include "base/uapi.h"

#define PIN_BY_NAME 1

struct btf_def {
	uint32_t type, key_size, value_size, max_entries, flags, numa_node;
	uint32_t pinning, key_type_id, value_type_id;
	uint64_t map_extra;
	bool has_inner;
	const char *problem;	/* lenient open: see bpfvet_map.problem */
};

/* __uint(name, N) is a pointer to an array of N elements. */
static int field_int(struct loader *ld, const char *map, const char *field,
		     const struct btf_member *m, uint32_t *res)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *t = btf_skip_mods(btf, m->type, NULL);
	const struct btf_type *arr;

	if (!t || !btf_is_ptr(t))
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: attribute %s is not a pointer", map, field);
	arr = btf__type_by_id(btf, t->type);
	if (!arr || !btf_is_array(arr))
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: attribute %s is not a pointer to an array",
				  map, field);
	*res = btf_array(arr)->nelems;
	return 0;
}

/* __ulong(name, N) is an enum with one enumerator of value N. */
static int field_long(struct loader *ld, const char *map, const char *field,
		      const struct btf_member *m, uint64_t *res)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *t = btf_skip_mods(btf, m->type, NULL);
	uint32_t v32;
	int err;

	if (t && btf_is_ptr(t)) {
		err = field_int(ld, map, field, m, &v32);
		*res = v32;
		return err;
	}
	if (!t || (!btf_is_enum(t) && !btf_is_enum64(t)) || btf_vlen(t) != 1)
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: attribute %s is not a one-value enum", map, field);
	if (btf_is_enum(t))
		*res = (uint32_t)btf_enum(t)->val;
	else
		*res = btf_enum64_value(btf_enum64(t));
	return 0;
}

static int set_size(struct loader *ld, const char *map, const char *what,
		    uint32_t *cur, long long sz)
{
	if (sz < 0 || sz > UINT32_MAX)
		return errbuf_set(ld->eb, -EINVAL, "map %s: cannot size its %s", map, what);
	if (*cur && *cur != sz)
		return errbuf_set(ld->eb, -EINVAL, "map %s: conflicting %s size %u != %lld",
				  map, what, *cur, sz);
	*cur = (uint32_t)sz;
	return 0;
}

/* __type(key, T) is a pointer to T. */
static int field_type(struct loader *ld, const char *map, const char *what,
		      const struct btf_member *m, uint32_t *size, uint32_t *type_id)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *t = btf__type_by_id(btf, m->type);

	if (!t || !btf_is_ptr(t))
		return errbuf_set(ld->eb, -EINVAL, "map %s: %s spec is not a pointer",
				  map, what);
	*type_id = t->type;
	return set_size(ld, map, what, size, btf__resolve_size(btf, t->type));
}

static int parse_def(struct loader *ld, const char *map, const struct btf_type *def_t,
		     struct btf_def *def, struct btf_def *inner);

/* `values` of a map-in-map names its inner map type; of a prog_array,
 * a function prototype. Both must be the last member. */
static int field_values(struct loader *ld, const char *map, const struct btf_member *m,
			bool last, struct btf_def *def, struct btf_def *inner)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *t;
	char inner_name[128];
	uint32_t four = 4;
	int err;

	if (!inner)
		return errbuf_set(ld->eb, -EOPNOTSUPP,
				  "map %s: multi-level inner maps are not supported", map);
	if (!last)
		return errbuf_set(ld->eb, -EINVAL, "map %s: values must be the last member", map);
	if (!map_is_map_in_map(def->type) && def->type != BPF_MAP_TYPE_PROG_ARRAY)
		return errbuf_set(ld->eb, -EOPNOTSUPP,
				  "map %s: values need a map-in-map or prog_array", map);
	err = set_size(ld, map, "value", &def->value_size, four);
	if (err)
		return err;
	t = btf__type_by_id(btf, m->type);
	if (!t || !btf_is_array(t) || btf_array(t)->nelems)
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: values spec is not a zero-sized array", map);
	t = btf_skip_mods(btf, btf_array(t)->type, NULL);
	if (!t || !btf_is_ptr(t))
		return errbuf_set(ld->eb, -EINVAL, "map %s: values are not pointers", map);
	t = btf_skip_mods(btf, t->type, NULL);
	if (def->type == BPF_MAP_TYPE_PROG_ARRAY) {
		if (!t || !btf_is_func_proto(t))
			return errbuf_set(ld->eb, -EINVAL,
					  "map %s: prog_array values are not functions", map);
		return 0;
	}
	if (!t || !btf_is_struct(t))
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: inner map definition is not a struct", map);
	snprintf(inner_name, sizeof(inner_name), "%s.inner", map);
	err = parse_def(ld, inner_name, t, inner, NULL);
	def->has_inner = true;
	return err;
}

static int parse_member(struct loader *ld, const char *map, const struct btf_member *m,
			bool last, struct btf_def *def, struct btf_def *inner)
{
	const char *name = btf__name_by_offset(ld->obj->btf, m->name_off);

	if (!name)
		return errbuf_set(ld->eb, -EINVAL, "map %s: member without a name", map);
	if (!strcmp(name, "type"))
		return field_int(ld, map, name, m, &def->type);
	if (!strcmp(name, "max_entries"))
		return field_int(ld, map, name, m, &def->max_entries);
	if (!strcmp(name, "map_flags"))
		return field_int(ld, map, name, m, &def->flags);
	if (!strcmp(name, "numa_node"))
		return field_int(ld, map, name, m, &def->numa_node);
	if (!strcmp(name, "key_size") || !strcmp(name, "value_size")) {
		uint32_t sz;
		int err = field_int(ld, map, name, m, &sz);

		if (err)
			return err;
		return set_size(ld, map, name[0] == 'k' ? "key" : "value",
				name[0] == 'k' ? &def->key_size : &def->value_size, sz);
	}
	if (!strcmp(name, "key"))
		return field_type(ld, map, "key", m, &def->key_size, &def->key_type_id);
	if (!strcmp(name, "value"))
		return field_type(ld, map, "value", m, &def->value_size, &def->value_type_id);
	if (!strcmp(name, "values"))
		return field_values(ld, map, m, last, def, inner);
	if (!strcmp(name, "pinning")) {
		int err;

		if (!inner)
			return errbuf_set(ld->eb, -EINVAL, "map %s: inner maps cannot be pinned", map);
		err = field_int(ld, map, name, m, &def->pinning);
		if (!err && def->pinning > PIN_BY_NAME)
			return ld_problem(ld, &def->problem, -EINVAL, "map %s: bad pinning %u",
					  map, def->pinning);
		return err;
	}
	if (!strcmp(name, "map_extra"))
		return field_long(ld, map, name, m, &def->map_extra);
	return errbuf_set(ld->eb, -EOPNOTSUPP, "map %s: unknown attribute %s", map, name);
}

/* inner is NULL while parsing an inner definition. */
static int parse_def(struct loader *ld, const char *map, const struct btf_type *def_t,
		     struct btf_def *def, struct btf_def *inner)
{
	const struct btf_member *m = btf_members(def_t);
	uint16_t i, n = btf_vlen(def_t);
	int err;

	for (i = 0; i < n; i++) {
		err = parse_member(ld, map, &m[i], i + 1 == n, def, inner);
		if (err)
			return err;
	}
	if (def->type == BPF_MAP_TYPE_UNSPEC)
		return errbuf_set(ld->eb, -EINVAL, "map %s: map type is not given", map);
	return 0;
}

/* Ring buffers need a power-of-two number of pages; libbpf rounds up. */
static uint32_t ringbuf_size(uint32_t sz)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t mul;

	if (page <= 0 || sz == 0)
		return sz;
	if (sz % page == 0 && !((sz / page) & (sz / page - 1)))
		return sz;
	for (mul = 1; mul * page <= UINT32_MAX; mul <<= 1)
		if (mul * page > sz)
			return (uint32_t)(mul * page);
	return sz;
}

static void fill_from_def(struct bpfvet_map *m, const struct btf_def *d)
{
	m->type = d->type;
	m->key_size = d->key_size;
	m->value_size = d->value_size;
	m->max_entries = d->max_entries;
	m->flags = d->flags;
	m->map_extra = d->map_extra;
	m->numa_node = d->numa_node;
	m->pinning = d->pinning;
	m->btf_key_type_id = d->key_type_id;
	m->btf_value_type_id = d->value_type_id;
	if (m->type == BPF_MAP_TYPE_RINGBUF || m->type == BPF_MAP_TYPE_USER_RINGBUF)
		m->max_entries = ringbuf_size(m->max_entries);
}

static int queue_inner(struct loader *ld, const char *outer, size_t outer_idx,
		       const struct btf_def *d)
{
	struct bpfvet_map *arr, *m;
	size_t *outs;
	char name[300];

	arr = realloc(ld->inner, (ld->inner_cnt + 1) * sizeof(*arr));
	if (!arr)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->inner = arr;
	outs = realloc(ld->inner_outer, (ld->inner_cnt + 1) * sizeof(*outs));
	if (!outs)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->inner_outer = outs;
	m = &arr[ld->inner_cnt];
	memset(m, 0, sizeof(*m));
	m->inner_idx = -1;
	outs[ld->inner_cnt++] = outer_idx;
	snprintf(name, sizeof(name), "%s.inner", outer);
	fill_from_def(m, d);
	m->origin = BPFVET_MAP_INNER;
	m->sec_idx = (int)ld->btf_maps_shndx;
	return maps_set_names(ld, m, name, name);
}

static int btf_map_one(struct loader *ld, const struct elf_sec *sec,
		       const struct btf_var_secinfo *vi)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *var = btf__type_by_id(btf, vi->type), *def_t;
	const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;
	struct btf_def def = { 0 }, inner = { 0 };
	struct bpfvet_map *m;
	int err;

	if (!name || !name[0])
		return errbuf_set(ld->eb, -EINVAL, ".maps: map without a name");
	if ((uint64_t)vi->offset + vi->size > sec->size)
		return errbuf_set(ld->eb, -EINVAL, "map %s lies outside .maps", name);
	if (!btf_is_var(var))
		return errbuf_set(ld->eb, -EINVAL, "map %s is not a BTF VAR", name);
	/* A map declared extern is defined by another object that static
	 * linking would bring in: it has no definition here. */
	if (btf_var(var)->linkage == BTF_VAR_GLOBAL_EXTERN)
		return ld_problem(ld, NULL, -EOPNOTSUPP,
				  "map %s: extern map (left for the static linker)", name);
	if (btf_var(var)->linkage != BTF_VAR_GLOBAL_ALLOCATED)
		return errbuf_set(ld->eb, -EOPNOTSUPP,
				  "map %s: static (or hidden) maps are not supported", name);
	def_t = btf_skip_mods(btf, var->type, NULL);
	if (!def_t || !btf_is_struct(def_t) || def_t->size > vi->size)
		return errbuf_set(ld->eb, -EINVAL, "map %s: bad definition", name);
	err = parse_def(ld, name, def_t, &def, &inner);
	if (err)
		return err;
	m = maps_add_named(ld, name, name, BPFVET_MAP_BTF, ld->btf_maps_shndx);
	if (!m)
		return -ENOMEM;
	m->sec_off = vi->offset;
	m->btf_var_type_id = vi->type;
	fill_from_def(m, &def);
	m->problem = def.problem ? def.problem : inner.problem;
	if (def.has_inner)
		return queue_inner(ld, name, ld->obj->map_cnt - 1, &inner);
	return 0;
}

static int arena_init(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	const struct elf_sec *sec = elf_file_sec(&ld->elf, ld->arena_shndx);
	size_t i;

	for (i = 0; i < obj->map_cnt; i++) {
		if (obj->maps[i].type != BPF_MAP_TYPE_ARENA)
			continue;
		if (ld->arena_map >= 0)
			return errbuf_set(ld->eb, -EINVAL,
					  "maps %s and %s: only one arena map is supported",
					  obj->maps[ld->arena_map].name, obj->maps[i].name);
		ld->arena_map = (int)i;
	}
	if (!sec)
		return 0;
	if (ld->arena_map < 0)
		return errbuf_set(ld->eb, -ENOENT,
				  "__arena variables need an arena map in .maps");
	obj->maps[ld->arena_map].init_data = malloc(sec->size);
	if (!obj->maps[ld->arena_map].init_data)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	memcpy(obj->maps[ld->arena_map].init_data, sec->data, sec->size);
	obj->maps[ld->arena_map].init_size = sec->size;
	return 0;
}

int maps_btf(struct loader *ld)
{
	const struct btf *btf = ld->obj->btf;
	const struct elf_sec *sec = elf_file_sec(&ld->elf, ld->btf_maps_shndx);
	const struct btf_type *ds;
	int id, err;
	uint16_t i;

	if (sec) {
		id = btf ? btf__find_by_name_kind(btf, ".maps", BTF_KIND_DATASEC) : -ENOENT;
		if (id <= 0)
			return errbuf_set(ld->eb, -ENOENT, "no BTF DATASEC for .maps");
		ld->maps_datasec_id = (uint32_t)id;
		ds = btf__type_by_id(btf, id);
		for (i = 0; i < btf_vlen(ds); i++) {
			err = btf_map_one(ld, sec, &btf_var_secinfos(ds)[i]);
			if (err)
				return err;
		}
	}
	return arena_init(ld);
}

static int find_map(const struct bpfvet_object *obj, const char *name)
{
	size_t i;

	for (i = 0; i < obj->map_cnt; i++)
		if (!strcmp(obj->maps[i].name, name))
			return (int)i;
	return -1;
}

static const struct func *find_entry(const struct loader *ld, const char *name)
{
	size_t i;

	for (i = 0; i < ld->func_cnt; i++)
		if (ld->funcs[i].entry && !strcmp(ld->funcs[i].name, name))
			return &ld->funcs[i];
	return NULL;
}

/* The .maps variable whose bytes contain [off, off + 8). */
static const struct btf_var_secinfo *var_at(const struct loader *ld, uint64_t off)
{
	const struct btf_type *ds = btf__type_by_id(ld->obj->btf, ld->maps_datasec_id);
	const struct btf_var_secinfo *vs = btf_var_secinfos(ds);
	uint16_t i;

	for (i = 0; i < btf_vlen(ds); i++)
		if (vs[i].offset <= off && off + 8 <= (uint64_t)vs[i].offset + vs[i].size)
			return &vs[i];
	return NULL;
}

static int slot_target(struct loader *ld, const struct bpfvet_map *m,
		       const Elf64_Sym *sym, const char *name)
{
	if (map_is_map_in_map(m->type)) {
		if (sym->st_shndx != ld->btf_maps_shndx)
			return errbuf_set(ld->eb, -EINVAL,
					  ".maps: %s is not a BTF-defined map", name);
		if (m->type == BPF_MAP_TYPE_HASH_OF_MAPS && m->key_size != 4)
			return errbuf_set(ld->eb, -EINVAL,
					  "map %s: hash of maps needs key size 4", m->name);
		if (find_map(ld->obj, name) < 0)
			return errbuf_set(ld->eb, -ESRCH, ".maps: %s is not a map", name);
		return 0;
	}
	if (m->type == BPF_MAP_TYPE_PROG_ARRAY) {
		const struct func *fn = find_entry(ld, name);

		if (!fn)
			return errbuf_set(ld->eb, -ESRCH, ".maps: %s is not a program", name);
		if (fn->sec_idx != sym->st_shndx ||
		    fn->sec_insn_off * INSN_SZ != sym->st_value)
			return errbuf_set(ld->eb, -EINVAL,
					  ".maps: %s is not an entry program", name);
		return 0;
	}
	return errbuf_set(ld->eb, -EINVAL, "map %s cannot have initial values", m->name);
}

/* Offset of the `values` member, which parse_def() made the last one. */
static int values_offset(struct loader *ld, const struct btf_var_secinfo *vi,
			 uint32_t *off)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *var = btf__type_by_id(btf, vi->type);
	const struct btf_type *def = var ? btf_skip_mods(btf, var->type, NULL) : NULL;
	const char *name;
	uint16_t n;

	if (!def || !btf_is_struct(def) || !(n = btf_vlen(def)))
		return -EINVAL;
	name = btf__name_by_offset(btf, btf_members(def)[n - 1].name_off);
	if (!name || strcmp(name, "values"))
		return -EINVAL;
	*off = btf_member_bit_offset(def, n - 1) / 8;
	return 0;
}

static int btf_relo_one(struct loader *ld, const Elf64_Rel *rel)
{
	const Elf64_Sym *sym = elf_file_sym(&ld->elf, ELF64_R_SYM(rel->r_info));
	const struct btf_var_secinfo *vi;
	const char *name;
	struct bpfvet_map *m = NULL;
	uint32_t moff;
	uint64_t slot;
	size_t j;
	int err;

	if (!sym)
		return errbuf_set(ld->eb, -EINVAL, ".rel.maps: symbol %llu out of range",
				  (unsigned long long)ELF64_R_SYM(rel->r_info));
	name = elf_file_sym_name(&ld->elf, sym);
	vi = var_at(ld, rel->r_offset);
	for (j = 0; vi && j < ld->obj->map_cnt; j++) {
		struct bpfvet_map *c = &ld->obj->maps[j];

		if (c->origin == BPFVET_MAP_BTF && c->sec_idx == (int)ld->btf_maps_shndx &&
		    c->sec_off == vi->offset)
			m = c;
	}
	if (!m || !name)
		return errbuf_set(ld->eb, -EINVAL, ".rel.maps: no map at offset %llu",
				  (unsigned long long)rel->r_offset);
	err = slot_target(ld, m, sym, name);
	if (err)
		return err;
	if (values_offset(ld, vi, &moff) || rel->r_offset - vi->offset < moff ||
	    (rel->r_offset - vi->offset - moff) % 8)
		return errbuf_set(ld->eb, -EINVAL, "map %s: bad initial value relocation",
				  m->name);
	slot = (rel->r_offset - vi->offset - moff) / 8;
	return maps_set_slot(ld, m, (size_t)slot, name);
}

int maps_collect_btf_relos(struct loader *ld, const struct elf_sec *rsec)
{
	size_t i, n = elf_file_rel_cnt(rsec);
	Elf64_Rel rel;
	int err;

	if (!ld->maps_datasec_id)
		return errbuf_set(ld->eb, -EINVAL, ".rel.maps without BTF maps");
	for (i = 0; i < n; i++) {
		elf_file_rel(rsec, i, &rel);
		err = btf_relo_one(ld, &rel);
		if (err)
			return err;
	}
	return 0;
}

