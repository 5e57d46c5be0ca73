/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What a loading process without some BPF capabilities gets from libbpf's
 * bpf_object__load (bpfvet_open_opts.loader_drop_caps).
 *
 * Without CAP_BPF the kernel refuses BPF_BTF_LOAD. libbpf then carries on
 * without the object's BTF (its feature probe finds "no BTF support", or
 * the load itself fails, and the BTF is optional): maps are created
 * without BTF types and programs are loaded without func_info and
 * line_info. Only struct_ops make the BTF mandatory, and then the whole
 * object fails before any program is loaded.
 *
 * The kernel creates only some map types without CAP_BPF, and sockmaps,
 * devmaps and xskmaps need CAP_NET_ADMIN: libbpf fails on the first map it
 * cannot create. As for maps of a type the target lacks (map_target.c),
 * only the programs that use such a map are refused here.
 *
 * Without CAP_PERFMON the kernel creates every map hardened against
 * Spectre v1, which the verifier looks at for tail calls.
 *
 * This step runs last: the earlier steps (global functions, exception
 * callbacks, struct_ops) read the BTF as libbpf does in userspace.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"
#include "base/uapi.h"

static bool has_struct_ops(const struct loader *ld)
{
	for (size_t i = 1; i < ld->elf.sec_cnt; i++)
		if (ld->sec_kind[i] == SEC_STRUCT_OPS)
			return true;
	return false;
}

/* The kernel sees none of the .BTF.ext records, so no subprogram has a
 * BTF prototype or a linkage: all are static to the verifier. */
static void forget_btf_ext(struct bpfvet_program *prog)
{
	free(prog->func_info);
	free(prog->line_info);
	prog->func_info = NULL;
	prog->line_info = NULL;
	prog->func_info_cnt = 0;
	prog->line_info_cnt = 0;
	for (size_t i = 0; i < prog->subprog_cnt; i++) {
		prog->subprogs[i].btf_func_id = 0;
		prog->subprogs[i].global = false;
	}
}

/* libbpf's message when the kernel takes no BTF from this process
 * (-EOPNOTSUPP: the probe, run without CAP_BPF, found no support). */
static int refuse_all(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	const struct bpfvet_program *first = NULL;

	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct bpfvet_program *p = &obj->progs[i];
		int err;

		if (p->problem)
			continue;
		if (first) {	/* one warning for the object */
			p->problem = first->problem;
			p->problem_err = first->problem_err;
			continue;
		}
		err = ld_refuse(ld, p, -EOPNOTSUPP,
				"Error loading .BTF into kernel: %d. BTF is mandatory, can't proceed.",
				-EOPNOTSUPP);
		if (err)
			return err;
		first = p;
	}
	return 0;
}

/* The capability the kernel's map_create wants for the map (a hash's
 * zero seed is a CAP_SYS_ADMIN matter); 0: anyone may create it. */
static uint32_t map_cap(const struct bpfvet_map *m)
{
	switch (m->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return m->flags & BPF_F_ZERO_SEED ? BPFVET_CAP_SYS_ADMIN : 0;
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return 0;
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_XSKMAP:
		return BPFVET_CAP_NET_ADMIN;
	default:
		return BPFVET_CAP_BPF;
	}
}

static bool map_refused(const struct bpfvet_map *m, const void *drop)
{
	return map_cap(m) & *(const uint32_t *)drop;
}

static int refuse_map_users(struct loader *ld, uint32_t drop)
{
	struct bpfvet_object *obj = ld->obj;

	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct bpfvet_program *p = &obj->progs[i];
		int idx = p->problem ? -1 : prog_first_map(ld, p, map_refused, &drop);
		int err;

		if (idx < 0)
			continue;
		err = ld_refuse(ld, p, -EPERM, "map '%s': failed to create: %s (%d)",
				obj->maps[idx].name, strerror(EPERM), -EPERM);
		if (err)
			return err;
	}
	return 0;
}

int loader_caps_apply(struct loader *ld, uint32_t drop)
{
	struct bpfvet_object *obj = ld->obj;
	int err = 0;

	obj->loader_drop_caps = drop;
	obj->maps_unpriv = drop & BPFVET_CAP_PERFMON;
	/* libbpf loads the BTF before it creates the maps. */
	if ((drop & BPFVET_CAP_BPF) && obj->btf) {
		obj->btf_unloaded = true;
		for (size_t i = 0; i < obj->prog_cnt; i++)
			forget_btf_ext(&obj->progs[i]);
		if (has_struct_ops(ld))
			err = refuse_all(ld);
	}
	if (!err && drop)
		err = refuse_map_users(ld, drop);
	return err;
}
