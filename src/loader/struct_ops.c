/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which struct_ops member each program implements. A .struct_ops (or
 * .struct_ops.link) section holds variables of a struct type whose
 * function-pointer members are ELF relocations against programs; as in
 * libbpf, the member a relocation lands in names the program's role.
 * The kernel wants that role at load time (attach_btf_id is the kernel's
 * struct, expected_attach_type the member's index there), so we record
 * the local map and member in each program.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"
#include "base/uapi.h"
#include "core.h"

static int find_st_map(const struct loader *ld, size_t sec_idx, uint64_t off,
		       uint32_t *moff)
{
	const struct bpfvet_object *obj = ld->obj;

	for (size_t i = 0; i < obj->map_cnt; i++) {
		const struct bpfvet_map *m = &obj->maps[i];

		if (m->type != BPF_MAP_TYPE_STRUCT_OPS || m->sec_idx != (int)sec_idx)
			continue;
		if (off >= m->sec_off && off - m->sec_off < m->value_size) {
			*moff = (uint32_t)(off - m->sec_off);
			return (int)i;
		}
	}
	return -1;
}

/* Index of the member of `type` that starts at byte `moff`, or -1. */
static int member_at(const struct btf *btf, uint32_t type, uint32_t moff)
{
	const struct btf_type *t = btf__type_by_id(btf, type);
	const struct btf_member *m;

	if (!t || !btf_is_composite(t))
		return -1;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++)
		if (btf_member_bit_offset(t, i) == (uint64_t)moff * 8 &&
		    !btf_member_bitfield_size(t, i) && m[i].name_off)
			return i;
	return -1;
}

static int add_slot(struct loader *ld, int map, int member, size_t sec_idx,
		    size_t insn)
{
	struct st_ops_slot *arr = realloc(ld->st_slots,
					  (ld->st_slot_cnt + 1) * sizeof(*arr));

	if (!arr)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->st_slots = arr;
	arr[ld->st_slot_cnt].map = map;
	arr[ld->st_slot_cnt].member = (uint32_t)member;
	arr[ld->st_slot_cnt].sec_idx = sec_idx;
	arr[ld->st_slot_cnt].insn = insn;
	ld->st_slot_cnt++;
	return 0;
}

int struct_ops_collect_relos(struct loader *ld, const struct elf_sec *rsec)
{
	size_t targ = rsec->shdr.sh_info, n = elf_file_rel_cnt(rsec);
	Elf64_Rel rel;

	if (!ld->obj->btf)
		return 0;
	for (size_t i = 0; i < n; i++) {
		const Elf64_Sym *sym;
		uint32_t moff;
		int map, member;

		elf_file_rel(rsec, i, &rel);
		sym = elf_file_sym(&ld->elf, ELF64_R_SYM(rel.r_info));
		if (!sym)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: bad symbol", rsec->name, i);
		map = find_st_map(ld, targ, rel.r_offset, &moff);
		if (map < 0)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: no struct_ops variable at offset %llu",
					  rsec->name, i, (unsigned long long)rel.r_offset);
		if (sym->st_shndx == SHN_UNDEF || sym->st_shndx >= SHN_LORESERVE ||
		    sym->st_value % INSN_SZ)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: target is not a program",
					  rsec->name, i);
		member = member_at(ld->obj->btf, ld->obj->maps[map].btf_value_type_id, moff);
		if (member < 0)
			return errbuf_set(ld->eb, -EINVAL,
					  "struct_ops %s: no member at offset %u",
					  ld->obj->maps[map].name, moff);
		if (add_slot(ld, map, member, sym->st_shndx, sym->st_value / INSN_SZ))
			return -ENOMEM;
	}
	return 0;
}

/* The first variable that names a program wins; libbpf refuses a program
 * in two different roles, which the kernel load then reports. */
void struct_ops_assign(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;

	for (size_t i = 0; i < obj->prog_cnt; i++)
		obj->progs[i].st_ops_map = -1;
	for (size_t s = 0; s < ld->st_slot_cnt; s++) {
		const struct st_ops_slot *slot = &ld->st_slots[s];

		for (size_t i = 0; i < obj->prog_cnt; i++) {
			struct bpfvet_program *p = &obj->progs[i];

			if (p->st_ops_map >= 0 || p->sec_idx != (int)slot->sec_idx ||
			    p->sec_insn_off != slot->insn)
				continue;
			p->st_ops_map = slot->map;
			p->st_ops_member = slot->member;
		}
	}
}

int struct_ops_member_named(const struct btf *btf, const struct btf_type *t, const char *name)
{
	const struct btf_member *m = btf_members(t);

	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf__name_by_offset(btf, m[i].name_off);

		if (mname && !strcmp(mname, name))
			return i;
	}
	return -1;
}

bool struct_ops_member_is_func_ptr(const struct btf *btf, uint32_t type)
{
	const struct btf_type *t = btf_skip_mods(btf, type, NULL);

	if (!t || !btf_is_ptr(t))
		return false;
	t = btf_skip_mods(btf, t->type, NULL);
	return t && btf_is_func_proto(t);
}

/*
 * One program's struct and member in the target BTF. The checks and
 * their words are those of bpfvet's kernel loader (src/kernel), which
 * recorded the reference kernels: the kernel registers a struct_ops type
 * by defining bpf_struct_ops_<type>, so that wrapper is looked for first.
 */
static int resolve_one(struct loader *ld, struct bpfvet_program *p)
{
	const struct btf *btf = ld->obj->btf, *kbtf = ld->targ_btf;
	const struct bpfvet_map *map = &ld->obj->maps[p->st_ops_map];
	const struct btf_type *lt = btf__type_by_id(btf, map->btf_value_type_id), *kt;
	const char *lname, *mname;
	char tname[192], vname[256];
	int kid, kidx;

	if (!lt || !btf_is_composite(lt) || p->st_ops_member >= btf_vlen(lt))
		return ld_refuse(ld, p, -EINVAL, "struct_ops %s: bad local type", map->name);
	lname = btf__name_by_offset(btf, lt->name_off);
	mname = btf__name_by_offset(btf, btf_members(lt)[p->st_ops_member].name_off);
	if (!lname || !mname)
		return ld_refuse(ld, p, -EINVAL, "struct_ops %s: unnamed type or member", map->name);
	snprintf(tname, sizeof(tname), "%.*s", (int)core_essential_len(lname), lname);
	snprintf(vname, sizeof(vname), "bpf_struct_ops_%s", tname);
	if (btf__find_by_name_kind(kbtf, vname, BTF_KIND_STRUCT) < 0)
		return ld_refuse(ld, p, -ESRCH,
				 "struct_ops init_kern: struct %s is not found in kernel BTF", vname);
	kid = btf__find_by_name_kind(kbtf, tname, BTF_KIND_STRUCT);
	if (kid < 0)
		return ld_refuse(ld, p, -ESRCH,
				 "struct_ops init_kern: struct %s is not found in kernel BTF", tname);
	kt = btf__type_by_id(kbtf, (uint32_t)kid);
	kidx = struct_ops_member_named(kbtf, kt, mname);
	if (kidx < 0)
		return ld_refuse(ld, p, -EOPNOTSUPP,
				 "struct_ops init_kern %s: Cannot find member %s in kernel BTF",
				 map->name, mname);
	if (!struct_ops_member_is_func_ptr(kbtf, btf_members(kt)[kidx].type))
		return ld_refuse(ld, p, -EOPNOTSUPP,
				 "struct_ops init_kern %s: kernel member %s is not a func ptr",
				 map->name, mname);
	p->st_ops_kern_type = (uint32_t)kid;
	p->st_ops_kern_member = (uint32_t)kidx;
	return 0;
}

int struct_ops_resolve(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	int err = 0;

	if (!ld->targ_btf || !obj->btf)
		return 0;
	for (size_t i = 0; i < obj->prog_cnt && !err; i++) {
		struct bpfvet_program *p = &obj->progs[i];

		if (!p->problem && p->type == BPF_PROG_TYPE_STRUCT_OPS && p->st_ops_map >= 0 &&
		    (size_t)p->st_ops_map < obj->map_cnt)
			err = resolve_one(ld, p);
	}
	return err;
}
