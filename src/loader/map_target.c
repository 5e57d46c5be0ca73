/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Maps of a type the target kernel does not have (an arena before 6.9, a
 * cgroup storage before 6.2): the kernel refuses to create them with
 * EINVAL, so libbpf fails the load before any program reaches the
 * verifier. The target's own `enum bpf_map_type` says which types it has.
 * Only the programs that use such a map are refused: the reference loaders
 * create the maps a program uses, as `bpfvet kernel` does.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"
#include "base/base.h"
#include "base/uapi.h"

/* Whether the target's enum bpf_map_type has the value. */
static bool target_has_map_type(const struct btf_type *types, uint32_t type)
{
	for (uint16_t i = 0; i < btf_vlen(types); i++)
		if ((uint32_t)btf_enum(types)[i].val == type)
			return true;
	return false;
}

int prog_first_map(const struct loader *ld, const struct bpfvet_program *p,
		   bool (*fails)(const struct bpfvet_map *m, const void *ctx), const void *ctx)
{
	const struct bpfvet_object *obj = ld->obj;
	int first = -1;

	for (size_t i = 0; i + 1 < p->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &p->insns[i];
		int32_t idx = insn->imm;
		bool names_map = insn_is_ldimm64(insn) &&
				 (insn->src_reg == BPF_PSEUDO_MAP_FD ||
				  insn->src_reg == BPF_PSEUDO_MAP_VALUE) &&
				 !prog_insn_flag(p, i, INSN_F_LITERAL_FD);

		if (insn_is_ldimm64(insn))
			i++;	/* its second half */
		if (!names_map || idx < 0 || (size_t)idx >= obj->map_cnt ||
		    (first >= 0 && idx >= first))
			continue;
		if (fails(&obj->maps[idx], ctx))
			first = idx;
	}
	return first;
}

static bool type_unknown(const struct bpfvet_map *m, const void *types)
{
	return !target_has_map_type(types, m->type);
}

int maps_check_target(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	const struct btf_type *types;
	int id;

	/* Without the enum, the target does not say: nothing is refused. */
	id = ld->targ_btf ? btf_index_find(obj->targ_index, ld->targ_btf, "bpf_map_type",
					   BTF_KIND_ENUM) : -1;
	if (id <= 0)
		return 0;
	types = btf__type_by_id(ld->targ_btf, (uint32_t)id);
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct bpfvet_program *p = &obj->progs[i];
		int idx = p->problem ? -1 : prog_first_map(ld, p, type_unknown, types);
		int err;

		if (idx < 0)
			continue;
		err = ld_refuse(ld, p, -EINVAL, "map '%s': failed to create: %s (%d)",
				obj->maps[idx].name, strerror(EINVAL), -EINVAL);
		if (err)
			return err;
	}
	return 0;
}
