/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Legacy map definitions in `maps` and `maps/...` sections: arrays of
 * fixed-size structs, one per symbol, whose size tells the layout (libbpf
 * 0.x's struct bpf_map_def, samples/bpf's, iproute2's struct bpf_elf_map),
 * and the links between them that iproute2 and samples/bpf express with
 * ids and indexes.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "base/uapi.h"

#define LEGACY_WORDS 9		/* longest known layout: iproute2's */
#define IPROUTE2_DEF_SZ 36
#define SAMPLES_DEF_SZ 28
#define NO_INNER_IDX 0xffffffffu
#define MAX_INIT_SLOT 65536	/* bound on slot numbers from legacy defs */

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

	if (!name || !name[0])
		return errbuf_set(ld->eb, -EINVAL, "section %s: map without a name",
				  sec->name);
	if (sym->st_value > sec->size || def_sz > sec->size - sym->st_value)
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: map %s lies outside the section",
				  sec->name, name);
	memcpy(w, (const char *)sec->data + sym->st_value,
	       def_sz < sizeof(w) ? def_sz : sizeof(w));
	m = maps_add_named(ld, name, name, BPFVET_MAP_LEGACY, sec_idx);
	if (!m)
		return -ENOMEM;
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

int maps_legacy(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 1; i < ld->elf.sec_cnt; i++) {
		if (ld->sec_kind[i] != SEC_LEGACY_MAPS)
			continue;
		/* libbpf 1.0 dropped them; the other loaders still read them. */
		if (ld->obj->conv == BPFVET_CONV_LIBBPF)
			return errbuf_set(ld->eb, -EOPNOTSUPP, "section %s: legacy map definitions "
					  "are not supported by libbpf v1.0+",
					  ld->elf.secs[i].name);
		err = legacy_section(ld, i);
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

	if (map_is_map_in_map(maps[d->map_idx].type) && d->inner_id) {
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

		if (!o->iproute2 || !map_is_map_in_map(maps[o->map_idx].type) ||
		    o->inner_id != d->id)
			continue;
		if (d->inner_idx >= MAX_INIT_SLOT)
			return errbuf_set(ld->eb, -E2BIG, "map %s: inner_idx %u is too large",
					  maps[d->map_idx].name, d->inner_idx);
		err = maps_set_slot(ld, &maps[o->map_idx], d->inner_idx, maps[d->map_idx].name);
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

	if (!map_is_map_in_map(m->type))
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
		err = maps_set_slot(ld, &ld->obj->maps[d->map_idx], key, fn->name);
		if (err)
			return err;
	}
	return 0;
}

int maps_legacy_link(struct loader *ld)
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
	return link_tail_calls(ld);
}
