/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Map definitions, in libbpf's order: legacy `maps` sections
 * (maps_legacy.c), BTF-defined `.maps` (maps_btf.c), then, here, global
 * data sections, .kconfig and struct_ops. Inner-map templates of
 * map-in-map definitions are appended last so that they never shift the
 * index of a real map.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "steps.h"
#include "maps.h"
#include "base/uapi.h"

#define OBJ_NAME_LEN 16		/* BPF_OBJ_NAME_LEN */

struct bpfvet_map *maps_add(struct loader *ld)
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

int maps_set_names(struct loader *ld, struct bpfvet_map *m,
			 const char *name, const char *real_name)
{
	m->name = strdup(name);
	m->real_name = strdup(real_name);
	if (!m->name || !m->real_name)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	return 0;
}

struct bpfvet_map *maps_add_named(struct loader *ld, const char *name,
				  const char *real_name, enum bpfvet_map_origin origin,
				  size_t sec_idx)
{
	struct bpfvet_map *m = maps_add(ld);

	if (!m || maps_set_names(ld, m, name, real_name))
		return NULL;
	m->origin = origin;
	m->sec_idx = (int)sec_idx;
	return m;
}

void maps_free_one(struct bpfvet_map *map)
{
	size_t i;

	free(map->name);
	free(map->real_name);
	free(map->init_data);
	free(map->init_known);
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

bool map_is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

int maps_set_slot(struct loader *ld, struct bpfvet_map *m, size_t slot,
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
	int id;

	if (size > UINT32_MAX)
		return errbuf_set(ld->eb, -E2BIG, "section %s is too large (%zu bytes)",
				  real_name, size);
	internal_name(ld->obj->name, real_name, name);
	m = maps_add_named(ld, name, real_name, BPFVET_MAP_DATA, sec_idx);
	if (!m)
		return -ENOMEM;
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
			if (!err)
				ld->obj->maps[ld->obj->map_cnt - 1].frozen = true;
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

	t = type_id > 0 ? btf__type_by_id(btf, type_id) : NULL;
	if (!name || !name[0] || !t || !btf_is_struct(t))
		return errbuf_set(ld->eb, -EINVAL, "section %s: bad struct_ops variable",
				  sec_name);
	m = maps_add_named(ld, name, name, BPFVET_MAP_BTF, sec_idx);
	if (!m)
		return -ENOMEM;
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

static int append_inner(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->inner_cnt; i++) {
		struct bpfvet_map *m = maps_add(ld);

		if (!m)
			return -ENOMEM;
		*m = ld->inner[i];
		memset(&ld->inner[i], 0, sizeof(ld->inner[i]));
		ld->obj->maps[ld->inner_outer[i]].inner_idx = (int)ld->obj->map_cnt - 1;
	}
	return 0;
}

bool map_sized_by_kernel(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_CGRP_STORAGE:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return true;
	default:
		return false;
	}
}

/* Maps without max_entries. libbpf sizes a perf event array by the
 * possible CPUs when it creates it. Other maps a tool sizes at run time
 * (xdp-bench's cpus_available by the CPU count): the object alone does
 * not say how large, and the verifier needs a size (an array lookup with
 * a constant key below it cannot return NULL). They get veristat's 1, as
 * `bpfvet kernel` creates them, and a warning; ring buffers one page. */
static int size_unsized_maps(struct loader *ld)
{
	for (size_t i = 0; i < ld->obj->map_cnt; i++) {
		struct bpfvet_map *m = &ld->obj->maps[i];
		uint32_t n;
		int err;

		if (m->max_entries || map_sized_by_kernel(m->type))
			continue;
		if (m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
			m->max_entries = ld->nr_cpus;
			continue;
		}
		n = m->type == BPF_MAP_TYPE_RINGBUF || m->type == BPF_MAP_TYPE_USER_RINGBUF ?
		    4096 : 1;
		err = ld_warning(ld, "map %s: max_entries is 0, for its loader to set at run "
				 "time: verified with %u, as veristat creates it", m->name, n);
		if (err)
			return err;
		m->max_entries = n;
	}
	return 0;
}

int maps_link(struct loader *ld)
{
	int err = maps_legacy_link(ld);

	if (!err)
		err = append_inner(ld);
	if (!err)
		err = size_unsized_maps(ld);
	return err;
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
