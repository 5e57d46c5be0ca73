/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Map definitions, in libbpf's order: legacy `maps` sections (struct
 * bpf_map_def and its variants), BTF-defined `.maps`, global data
 * sections, .kconfig and struct_ops. Inner-map templates of map-in-map
 * definitions are appended last so that they never shift the index of a
 * real map.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "loader.h"
#include "maps.h"
#include "uapi.h"

#define OBJ_NAME_LEN 16		/* BPF_OBJ_NAME_LEN */
#define LEGACY_WORDS 9		/* longest known layout: iproute2's */
#define IPROUTE2_DEF_SZ 36
#define SAMPLES_DEF_SZ 28
#define NO_INNER_IDX 0xffffffffu
#define MAX_INIT_SLOT 65536	/* bound on slot numbers from legacy defs */
#define PIN_BY_NAME 1

static struct bpfvet_map *map_add(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	struct bpfvet_map *maps, *m;

	maps = realloc(obj->maps, (obj->map_cnt + 1) * sizeof(*maps));
	if (!maps) {
		errbuf_set(ld->eb, -ENOMEM, "out of memory");
		return NULL;
	}
	obj->maps = maps;
	m = &maps[obj->map_cnt++];
	memset(m, 0, sizeof(*m));
	m->inner_idx = -1;
	return m;
}

static int map_set_names(struct loader *ld, struct bpfvet_map *m,
			 const char *name, const char *real_name)
{
	m->name = strdup(name);
	m->real_name = strdup(real_name);
	if (!m->name || !m->real_name)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	return 0;
}

void maps_free_one(struct bpfvet_map *map)
{
	size_t i;

	free(map->name);
	free(map->real_name);
	free(map->init_data);
	for (i = 0; i < map->init_cnt; i++)
		free(map->init_slots[i]);
	free(map->init_slots);
}

void maps_resolve_inner(struct bpfvet_map *maps, size_t cnt)
{
	size_t i;

	for (i = 0; i < cnt; i++) {
		int in = maps[i].inner_idx;

		maps[i].inner = in >= 0 && (size_t)in < cnt ? &maps[in] : NULL;
	}
}

static bool is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* ------------------------------------------------------------------ */
/* Legacy definitions                                                  */
/* ------------------------------------------------------------------ */

static bool is_legacy_map_sym(const Elf64_Sym *sym, size_t sec_idx)
{
	return sym->st_shndx == sec_idx && ELF64_ST_TYPE(sym->st_info) != STT_SECTION;
}

static int legacy_add(struct loader *ld, struct legacy_def *def)
{
	struct legacy_def *arr;

	arr = realloc(ld->legacy, (ld->legacy_cnt + 1) * sizeof(*arr));
	if (!arr)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->legacy = arr;
	arr[ld->legacy_cnt++] = *def;
	return 0;
}

/*
 * The definition's size is the section size divided by its number of
 * symbols. Known layouts: 20 bytes (libbpf's struct bpf_map_def), 28
 * (samples/bpf: + inner_map_idx, numa_node), 36 (iproute2's struct
 * bpf_elf_map: + id, pinning, inner_id, inner_idx); shorter definitions
 * are zero-extended and unknown extra fields are ignored.
 */
static int legacy_one(struct loader *ld, const struct elf_sec *sec,
		      size_t sec_idx, const Elf64_Sym *sym, size_t def_sz)
{
	uint32_t w[LEGACY_WORDS] = { 0 };
	struct legacy_def def = { 0 };
	const char *name = elf_file_sym_name(&ld->elf, sym);
	struct bpfvet_map *m;
	int err;

	if (!name || !name[0])
		return errbuf_set(ld->eb, -EINVAL, "section %s: map without a name",
				  sec->name);
	if (sym->st_value > sec->size || def_sz > sec->size - sym->st_value)
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: map %s lies outside the section",
				  sec->name, name);
	memcpy(w, (const char *)sec->data + sym->st_value,
	       def_sz < sizeof(w) ? def_sz : sizeof(w));
	m = map_add(ld);
	if (!m)
		return -ENOMEM;
	err = map_set_names(ld, m, name, name);
	if (err)
		return err;
	m->origin = BPFVET_MAP_LEGACY;
	m->sec_idx = (int)sec_idx;
	m->sec_off = sym->st_value;
	m->type = w[0];
	m->key_size = w[1];
	m->value_size = w[2];
	m->max_entries = w[3];
	m->flags = w[4];
	def.map_idx = ld->obj->map_cnt - 1;
	if (def_sz == IPROUTE2_DEF_SZ) {
		def.iproute2 = true;
		def.id = w[5];
		m->pinning = w[6];
		def.inner_id = w[7];
		def.inner_idx = w[8];
	} else if (def_sz == SAMPLES_DEF_SZ) {
		def.samples = true;
		def.inner_map_idx = w[5];
		m->numa_node = w[6];
	}
	return legacy_add(ld, &def);
}

static int legacy_section(struct loader *ld, size_t sec_idx)
{
	const struct elf_sec *sec = &ld->elf.secs[sec_idx];
	size_t i, nr = 0, def_sz;
	int err;

	for (i = 0; i < ld->elf.sym_cnt; i++)
		nr += is_legacy_map_sym(&ld->elf.syms[i], sec_idx);
	if (sec->size == 0 && nr == 0)
		return 0;
	if (!sec->data || nr == 0 || sec->size % nr)
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: cannot tell the map definition size (%zu maps in %zu bytes)",
				  sec->name, nr, sec->size);
	def_sz = sec->size / nr;
	for (i = 0; i < ld->elf.sym_cnt; i++) {
		if (!is_legacy_map_sym(&ld->elf.syms[i], sec_idx))
			continue;
		err = legacy_one(ld, sec, sec_idx, &ld->elf.syms[i], def_sz);
		if (err)
			return err;
	}
	return 0;
}

static int maps_legacy(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 1; i < ld->elf.sec_cnt; i++) {
		if (ld->sec_kind[i] != SEC_LEGACY_MAPS)
			continue;
		err = legacy_section(ld, i);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* BTF-defined maps                                                    */
/* ------------------------------------------------------------------ */

struct btf_def {
	uint32_t type, key_size, value_size, max_entries, flags, numa_node;
	uint32_t pinning, key_type_id, value_type_id;
	uint64_t map_extra;
	bool has_inner;
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
	if (!is_map_in_map(def->type) && def->type != BPF_MAP_TYPE_PROG_ARRAY)
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
			return errbuf_set(ld->eb, -EINVAL, "map %s: bad pinning %u",
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
	return map_set_names(ld, m, name, name);
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
	if (btf_var(var)->linkage != BTF_VAR_GLOBAL_ALLOCATED)
		return errbuf_set(ld->eb, -EOPNOTSUPP,
				  "map %s: static (or hidden) maps are not supported", name);
	def_t = btf_skip_mods(btf, var->type, NULL);
	if (!def_t || !btf_is_struct(def_t) || def_t->size > vi->size)
		return errbuf_set(ld->eb, -EINVAL, "map %s: bad definition", name);
	err = parse_def(ld, name, def_t, &def, &inner);
	if (err)
		return err;
	m = map_add(ld);
	if (!m)
		return -ENOMEM;
	err = map_set_names(ld, m, name, name);
	if (err)
		return err;
	m->origin = BPFVET_MAP_BTF;
	m->sec_idx = (int)ld->btf_maps_shndx;
	m->sec_off = vi->offset;
	m->btf_var_type_id = vi->type;
	fill_from_def(m, &def);
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

static int maps_btf(struct loader *ld)
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

/* ------------------------------------------------------------------ */
/* Global data, .kconfig, struct_ops                                   */
/* ------------------------------------------------------------------ */

/*
 * libbpf's kernel-visible name for a data section: as much of the object
 * name as fits in 15 characters before the section name, which always
 * gets at least 7 characters; sections with a second dot (".rodata.str1.1")
 * get no prefix. Characters the kernel refuses become '_'.
 */
static void internal_name(const char *obj_name, const char *sec, char *out)
{
	size_t sfx = strlen(sec), pfx = 0;
	char *p;

	if (sfx < 7)
		sfx = 7;
	if (sfx > OBJ_NAME_LEN - 1)
		sfx = OBJ_NAME_LEN - 1;
	if (!strchr(sec + 1, '.')) {
		pfx = OBJ_NAME_LEN - 1 - sfx;
		if (pfx > strlen(obj_name))
			pfx = strlen(obj_name);
	}
	snprintf(out, OBJ_NAME_LEN, "%.*s%.*s", (int)pfx, obj_name, (int)sfx, sec);
	for (p = out; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
			*p = '_';
}

/* Data maps are mmap()able when some variable is visible from userspace. */
static bool datasec_mmapable(const struct btf *btf, int id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_var_secinfo *vs;
	uint16_t i;

	if (!t || !btf_is_datasec(t))
		return false;
	vs = btf_var_secinfos(t);
	for (i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *v = btf__type_by_id(btf, vs[i].type);

		if (v && btf_is_var(v) && btf_var(v)->linkage != BTF_VAR_STATIC)
			return true;
	}
	return false;
}

static int internal_map(struct loader *ld, const char *real_name, size_t sec_idx,
			const void *data, size_t size, uint32_t flags)
{
	const struct btf *btf = ld->obj->btf;
	char name[OBJ_NAME_LEN];
	struct bpfvet_map *m;
	int err, id;

	if (size > UINT32_MAX)
		return errbuf_set(ld->eb, -E2BIG, "section %s is too large (%zu bytes)",
				  real_name, size);
	internal_name(ld->obj->name, real_name, name);
	m = map_add(ld);
	if (!m)
		return -ENOMEM;
	err = map_set_names(ld, m, name, real_name);
	if (err)
		return err;
	m->origin = BPFVET_MAP_DATA;
	m->sec_idx = (int)sec_idx;
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = sizeof(uint32_t);
	m->value_size = (uint32_t)size;
	m->max_entries = 1;
	m->flags = flags;
	id = btf ? btf__find_by_name(btf, real_name) : -ENOENT;
	if (id > 0) {
		m->btf_value_type_id = (uint32_t)id;
		m->btf_var_type_id = (uint32_t)id;
		if (datasec_mmapable(btf, id))
			m->flags |= BPF_F_MMAPABLE;
	}
	if (data) {
		m->init_data = malloc(size);
		if (!m->init_data)
			return errbuf_set(ld->eb, -ENOMEM, "out of memory");
		memcpy(m->init_data, data, size);
		m->init_size = size;
	}
	return 0;
}

static int maps_data(struct loader *ld)
{
	size_t i;
	int err = 0;

	for (i = 1; i < ld->elf.sec_cnt && !err; i++) {
		const struct elf_sec *sec = &ld->elf.secs[i];

		if (!sec->size)
			continue;
		switch (ld->sec_kind[i]) {
		case SEC_DATA:
			err = internal_map(ld, sec->name, i, sec->data, sec->size, 0);
			break;
		case SEC_RODATA:
			err = internal_map(ld, sec->name, i, sec->data, sec->size,
					   BPF_F_RDONLY_PROG);
			break;
		case SEC_BSS:
			err = internal_map(ld, sec->name, i, NULL, sec->size, 0);
			break;
		default:
			break;
		}
	}
	return err;
}

static int maps_kconfig(struct loader *ld)
{
	uint32_t size = 0;
	bool any = false;
	size_t i;
	int err;

	for (i = 0; i < ld->ext_cnt; i++) {
		if (ld->exts[i].type != EXT_KCFG)
			continue;
		any = true;
		size = ld->exts[i].kcfg_off + ld->exts[i].kcfg_sz;
	}
	if (!any)
		return 0;
	err = internal_map(ld, ".kconfig", ld->elf.symtab_idx, NULL, size,
			   BPF_F_RDONLY_PROG);
	if (!err)
		ld->kconfig_map = (int)ld->obj->map_cnt - 1;
	return err;
}

static int struct_ops_var(struct loader *ld, size_t sec_idx, const char *sec_name,
			  const struct btf_var_secinfo *vs)
{
	const struct btf *btf = ld->obj->btf;
	const struct btf_type *var = btf__type_by_id(btf, vs->type), *t;
	const char *name = var ? btf__name_by_offset(btf, var->name_off) : NULL;
	int type_id = btf__resolve_type(btf, vs->type);
	struct bpfvet_map *m;
	int err;

	t = type_id > 0 ? btf__type_by_id(btf, type_id) : NULL;
	if (!name || !name[0] || !t || !btf_is_struct(t))
		return errbuf_set(ld->eb, -EINVAL, "section %s: bad struct_ops variable",
				  sec_name);
	m = map_add(ld);
	if (!m)
		return -ENOMEM;
	err = map_set_names(ld, m, name, name);
	if (err)
		return err;
	m->origin = BPFVET_MAP_BTF;
	m->sec_idx = (int)sec_idx;
	m->sec_off = vs->offset;
	m->type = BPF_MAP_TYPE_STRUCT_OPS;
	m->key_size = sizeof(uint32_t);
	/* The kernel's struct bpf_struct_ops_<name> decides the real size;
	 * without kernel BTF the local type's size is the best we know. */
	m->value_size = t->size;
	m->max_entries = 1;
	m->btf_value_type_id = (uint32_t)type_id;
	m->btf_var_type_id = vs->type;
	if (strstr(sec_name, ".link"))
		m->flags = BPF_F_LINK;
	return 0;
}

static int maps_struct_ops(struct loader *ld)
{
	const struct btf *btf = ld->obj->btf;
	size_t i;
	int err;

	for (i = 1; i < ld->elf.sec_cnt; i++) {
		const char *sec_name = ld->elf.secs[i].name;
		const struct btf_type *ds;
		uint16_t j;
		int id;

		if (ld->sec_kind[i] != SEC_STRUCT_OPS)
			continue;
		id = btf ? btf__find_by_name_kind(btf, sec_name, BTF_KIND_DATASEC) : -1;
		if (id <= 0)
			return errbuf_set(ld->eb, -EINVAL, "no BTF DATASEC for %s", sec_name);
		ds = btf__type_by_id(btf, id);
		for (j = 0; j < btf_vlen(ds); j++) {
			err = struct_ops_var(ld, i, sec_name, &btf_var_secinfos(ds)[j]);
			if (err)
				return err;
		}
	}
	return 0;
}

int maps_init(struct loader *ld)
{
	int err;

	err = maps_legacy(ld);
	if (!err)
		err = maps_btf(ld);
	if (!err)
		err = maps_data(ld);
	if (!err)
		err = maps_kconfig(ld);
	if (!err)
		err = maps_struct_ops(ld);
	return err;
}

/* ------------------------------------------------------------------ */
/* Initial slots and linkage                                           */
/* ------------------------------------------------------------------ */

static int set_slot(struct loader *ld, struct bpfvet_map *m, size_t slot,
		    const char *target)
{
	char *copy;

	if (slot >= m->init_cnt) {
		char **arr = realloc(m->init_slots, (slot + 1) * sizeof(*arr));

		if (!arr)
			return errbuf_set(ld->eb, -ENOMEM, "out of memory");
		memset(arr + m->init_cnt, 0, (slot + 1 - m->init_cnt) * sizeof(*arr));
		m->init_slots = arr;
		m->init_cnt = slot + 1;
	}
	copy = strdup(target);
	if (!copy)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	free(m->init_slots[slot]);
	m->init_slots[slot] = copy;
	return 0;
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
	if (is_map_in_map(m->type)) {
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
	return set_slot(ld, m, (size_t)slot, name);
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

static const struct legacy_def *legacy_by_id(const struct loader *ld, uint32_t id)
{
	size_t i;

	for (i = 0; i < ld->legacy_cnt; i++)
		if (ld->legacy[i].iproute2 && ld->legacy[i].id == id)
			return &ld->legacy[i];
	return NULL;
}

/*
 * iproute2: an outer map names its inner template by id (inner_id); a map
 * with an id and an inner_idx other than ~0 goes into slot inner_idx of
 * every outer map whose inner_id is its id.
 */
static int link_iproute2(struct loader *ld, const struct legacy_def *d)
{
	struct bpfvet_map *maps = ld->obj->maps;
	const struct legacy_def *in;
	size_t j;
	int err;

	if (is_map_in_map(maps[d->map_idx].type) && d->inner_id) {
		in = legacy_by_id(ld, d->inner_id);
		if (!in)
			return errbuf_set(ld->eb, -ENOENT, "map %s: no map with inner id %u",
					  maps[d->map_idx].name, d->inner_id);
		maps[d->map_idx].inner_idx = (int)in->map_idx;
	}
	if (!d->id || d->inner_id || d->inner_idx == NO_INNER_IDX)
		return 0;
	for (j = 0; j < ld->legacy_cnt; j++) {
		const struct legacy_def *o = &ld->legacy[j];

		if (!o->iproute2 || !is_map_in_map(maps[o->map_idx].type) ||
		    o->inner_id != d->id)
			continue;
		if (d->inner_idx >= MAX_INIT_SLOT)
			return errbuf_set(ld->eb, -E2BIG, "map %s: inner_idx %u is too large",
					  maps[d->map_idx].name, d->inner_idx);
		err = set_slot(ld, &maps[o->map_idx], d->inner_idx, maps[d->map_idx].name);
		if (err)
			return err;
	}
	return 0;
}

/* Number of maps of the section defined before m. */
static size_t rank_in_section(const struct loader *ld, const struct bpfvet_map *m)
{
	size_t k, before = 0;

	for (k = 0; k < ld->legacy_cnt; k++) {
		const struct bpfvet_map *p = &ld->obj->maps[ld->legacy[k].map_idx];

		before += p->sec_idx == m->sec_idx && p->sec_off < m->sec_off;
	}
	return before;
}

/* samples/bpf: inner_map_idx counts the maps of the section by offset. */
static int link_samples(struct loader *ld, const struct legacy_def *d)
{
	struct bpfvet_map *maps = ld->obj->maps, *m = &maps[d->map_idx];
	size_t j, cnt = 0;

	if (!is_map_in_map(m->type))
		return 0;
	for (j = 0; j < ld->legacy_cnt; j++)
		cnt += maps[ld->legacy[j].map_idx].sec_idx == m->sec_idx;
	if (d->inner_map_idx >= cnt)
		return errbuf_set(ld->eb, -EINVAL,
				  "map %s: inner map index %u out of range (%zu maps)",
				  m->name, d->inner_map_idx, cnt);
	for (j = 0; j < ld->legacy_cnt; j++) {
		const struct bpfvet_map *o = &maps[ld->legacy[j].map_idx];

		if (o->sec_idx == m->sec_idx &&
		    rank_in_section(ld, o) == d->inner_map_idx) {
			m->inner_idx = (int)ld->legacy[j].map_idx;
			break;
		}
	}
	return 0;
}

/* iproute2 tail calls: a program in section "ID/KEY" goes into slot KEY
 * of the prog_array whose id is ID. */
static int link_tail_calls(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 0; i < ld->func_cnt; i++) {
		const struct func *fn = &ld->funcs[i];
		const char *sec = ld->elf.secs[fn->sec_idx].name;
		const struct legacy_def *d;
		unsigned int id, key;
		int len = 0;

		if (!fn->entry || sscanf(sec, "%u/%u%n", &id, &key, &len) != 2 ||
		    sec[len] || !isdigit((unsigned char)sec[0]))
			continue;
		d = legacy_by_id(ld, id);
		if (!d || ld->obj->maps[d->map_idx].type != BPF_MAP_TYPE_PROG_ARRAY ||
		    key >= MAX_INIT_SLOT)
			continue;
		err = set_slot(ld, &ld->obj->maps[d->map_idx], key, fn->name);
		if (err)
			return err;
	}
	return 0;
}

static int append_inner(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->inner_cnt; i++) {
		struct bpfvet_map *m = map_add(ld);

		if (!m)
			return -ENOMEM;
		*m = ld->inner[i];
		memset(&ld->inner[i], 0, sizeof(ld->inner[i]));
		ld->obj->maps[ld->inner_outer[i]].inner_idx = (int)ld->obj->map_cnt - 1;
	}
	return 0;
}

int maps_link(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 0; i < ld->legacy_cnt; i++) {
		const struct legacy_def *d = &ld->legacy[i];

		err = d->iproute2 ? link_iproute2(ld, d) :
		      d->samples ? link_samples(ld, d) : 0;
		if (err)
			return err;
	}
	err = link_tail_calls(ld);
	if (err)
		return err;
	return append_inner(ld);
}

static const char *const map_type_names[] = {
	[BPF_MAP_TYPE_UNSPEC] = "unspec",
	[BPF_MAP_TYPE_HASH] = "hash",
	[BPF_MAP_TYPE_ARRAY] = "array",
	[BPF_MAP_TYPE_PROG_ARRAY] = "prog_array",
	[BPF_MAP_TYPE_PERF_EVENT_ARRAY] = "perf_event_array",
	[BPF_MAP_TYPE_PERCPU_HASH] = "percpu_hash",
	[BPF_MAP_TYPE_PERCPU_ARRAY] = "percpu_array",
	[BPF_MAP_TYPE_STACK_TRACE] = "stack_trace",
	[BPF_MAP_TYPE_CGROUP_ARRAY] = "cgroup_array",
	[BPF_MAP_TYPE_LRU_HASH] = "lru_hash",
	[BPF_MAP_TYPE_LRU_PERCPU_HASH] = "lru_percpu_hash",
	[BPF_MAP_TYPE_LPM_TRIE] = "lpm_trie",
	[BPF_MAP_TYPE_ARRAY_OF_MAPS] = "array_of_maps",
	[BPF_MAP_TYPE_HASH_OF_MAPS] = "hash_of_maps",
	[BPF_MAP_TYPE_DEVMAP] = "devmap",
	[BPF_MAP_TYPE_SOCKMAP] = "sockmap",
	[BPF_MAP_TYPE_CPUMAP] = "cpumap",
	[BPF_MAP_TYPE_XSKMAP] = "xskmap",
	[BPF_MAP_TYPE_SOCKHASH] = "sockhash",
	[BPF_MAP_TYPE_CGROUP_STORAGE] = "cgroup_storage",
	[BPF_MAP_TYPE_REUSEPORT_SOCKARRAY] = "reuseport_sockarray",
	[BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE] = "percpu_cgroup_storage",
	[BPF_MAP_TYPE_QUEUE] = "queue",
	[BPF_MAP_TYPE_STACK] = "stack",
	[BPF_MAP_TYPE_SK_STORAGE] = "sk_storage",
	[BPF_MAP_TYPE_DEVMAP_HASH] = "devmap_hash",
	[BPF_MAP_TYPE_STRUCT_OPS] = "struct_ops",
	[BPF_MAP_TYPE_RINGBUF] = "ringbuf",
	[BPF_MAP_TYPE_INODE_STORAGE] = "inode_storage",
	[BPF_MAP_TYPE_TASK_STORAGE] = "task_storage",
	[BPF_MAP_TYPE_BLOOM_FILTER] = "bloom_filter",
	[BPF_MAP_TYPE_USER_RINGBUF] = "user_ringbuf",
	[BPF_MAP_TYPE_CGRP_STORAGE] = "cgrp_storage",
	[BPF_MAP_TYPE_ARENA] = "arena",
};

const char *map_type_name(uint32_t type)
{
	if (type >= BPF_MAP_TYPE_MAX_)
		return NULL;
	return map_type_names[type];
}
