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
 * Without CAP_PERFMON the kernel creates every map hardened against
 * Spectre v1, which the verifier looks at for tail calls.
 *
 * This step runs last: the earlier steps (global functions, exception
 * callbacks, struct_ops) read the BTF as libbpf does in userspace.
 */
#include <errno.h>
#include <stdlib.h>

#include "steps.h"

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

	for (size_t i = 0; i < obj->prog_cnt; i++) {
		int err;

		if (obj->progs[i].problem)
			continue;
		err = ld_refuse(ld, &obj->progs[i], -EOPNOTSUPP,
				"Error loading .BTF into kernel: %d. BTF is mandatory, can't proceed.",
				-EOPNOTSUPP);
		if (err)
			return err;
	}
	return 0;
}

int loader_caps_apply(struct loader *ld, uint32_t drop)
{
	struct bpfvet_object *obj = ld->obj;

	obj->loader_drop_caps = drop;
	obj->maps_unpriv = drop & BPFVET_CAP_PERFMON;
	if (!(drop & BPFVET_CAP_BPF) || !obj->btf)
		return 0;
	obj->btf_unloaded = true;
	for (size_t i = 0; i < obj->prog_cnt; i++)
		forget_btf_ext(&obj->progs[i]);
	return has_struct_ops(ld) ? refuse_all(ld) : 0;
}
