/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel type a program attaches to, which BPF_PROG_LOAD needs for
 * BTF-based program types, found as libbpf finds it:
 *  - tp_btf/NAME: the typedef btf_trace_NAME;
 *  - fentry/fexit/fmod_ret/NAME: the function NAME;
 *  - lsm/NAME, lsm_cgroup/NAME: the function bpf_lsm_NAME;
 *  - iter/NAME: the function bpf_iter_NAME;
 *  - struct_ops: the kernel's struct of the struct_ops variable that
 *    points to the program, and the index of its member there.
 * Only vmlinux BTF is searched: "MODULE:NAME" targets and module types are
 * reported as not found (this kernel loads no modules).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "loader/loader.h"
#include "kernel_load.h"
#include "base/uapi.h"

static int attach_btf(struct kload *kl, const struct btf *vmlinux)
{
	const struct bpfvet_program *prog = kl->prog;
	int id;

	if (!prog->attach_target || !prog->attach_target[0])
		return kload_refuse(kl, -EINVAL,
				    "prog '%s': no BTF-based attach target in section name '%s'",
				    prog->name, prog->sec_name);
	id = kbtf_attach_find(vmlinux, NULL, prog->attach_target, kl->expected_attach_type);
	if (id < 0)
		return kload_refuse(kl, id,
				    "prog '%s': failed to find kernel BTF type ID of '%s': %d",
				    prog->name, prog->attach_target, id);
	kl->attach_btf_id = (uint32_t)id;
	return 0;
}

/* ------------------------------------------------------------------ */
/* struct_ops                                                          */
/* ------------------------------------------------------------------ */

static int kern_struct(struct kload *kl, const struct btf *vmlinux, const char *local,
		       int *type_id)
{
	char tname[192], vname[256];
	size_t len = core_essential_len(local);

	snprintf(tname, sizeof(tname), "%.*s", (int)len, local);
	snprintf(vname, sizeof(vname), "bpf_struct_ops_%s", tname);
	/* The kernel registers a struct_ops type by defining this wrapper. */
	if (btf__find_by_name_kind(vmlinux, vname, BTF_KIND_STRUCT) < 0)
		return kload_refuse(kl, -ESRCH,
				    "struct_ops init_kern: struct %s is not found in kernel BTF",
				    vname);
	*type_id = btf__find_by_name_kind(vmlinux, tname, BTF_KIND_STRUCT);
	if (*type_id < 0)
		return kload_refuse(kl, -ESRCH,
				    "struct_ops init_kern: struct %s is not found in kernel BTF",
				    tname);
	return 0;
}

static int attach_struct_ops(struct kload *kl, const struct btf *vmlinux)
{
	const struct bpfvet_program *prog = kl->prog;
	const struct btf *btf = prog->obj ? prog->obj->btf : NULL;
	const struct bpfvet_map *map;
	const struct btf_type *lt, *kt;
	const char *lname, *mname;
	int kid, kidx, err;

	/* Nothing names the program: the kernel decides what that means. */
	if (prog->st_ops_map < 0 || !btf || (size_t)prog->st_ops_map >= kl->map_cnt)
		return 0;
	map = &kl->maps[prog->st_ops_map];
	lt = btf__type_by_id(btf, map->btf_value_type_id);
	if (!lt || !btf_is_composite(lt) || prog->st_ops_member >= btf_vlen(lt))
		return kload_refuse(kl, -EINVAL, "struct_ops %s: bad local type", map->name);
	lname = btf__name_by_offset(btf, lt->name_off);
	mname = btf__name_by_offset(btf, btf_members(lt)[prog->st_ops_member].name_off);
	if (!lname || !mname)
		return kload_refuse(kl, -EINVAL, "struct_ops %s: unnamed type or member",
				    map->name);
	err = kern_struct(kl, vmlinux, lname, &kid);
	if (err)
		return err;
	kt = btf__type_by_id(vmlinux, (uint32_t)kid);
	kidx = struct_ops_member_named(vmlinux, kt, mname);
	if (kidx < 0)
		return kload_refuse(kl, -EOPNOTSUPP,
				    "struct_ops init_kern %s: Cannot find member %s in kernel BTF",
				    map->name, mname);
	if (!struct_ops_member_is_func_ptr(vmlinux, btf_members(kt)[kidx].type))
		return kload_refuse(kl, -EOPNOTSUPP,
				    "struct_ops init_kern %s: kernel member %s is not a func ptr",
				    map->name, mname);
	kl->attach_btf_id = (uint32_t)kid;
	kl->expected_attach_type = (uint32_t)kidx;
	return 0;
}

int kattach_resolve(struct kload *kl)
{
	const struct bpfvet_program *prog = kl->prog;
	const struct btf *vmlinux;
	int err;

	kl->expected_attach_type = prog->expected_attach_type;
	if (prog->type == BPF_PROG_TYPE_EXT)
		return kload_refuse(kl, -EINVAL,
				    "prog '%s': freplace needs a target program (attach program FD is not set)",
				    prog->name);
	if (prog->type != BPF_PROG_TYPE_TRACING && prog->type != BPF_PROG_TYPE_LSM &&
	    prog->type != BPF_PROG_TYPE_STRUCT_OPS)
		return 0;
	err = kfacts_vmlinux(kl->k, &vmlinux);
	if (err)
		return kload_refuse(kl, err, "cannot read the kernel's BTF (%s)",
				    strerror(-err));
	if (prog->type == BPF_PROG_TYPE_STRUCT_OPS)
		return attach_struct_ops(kl, vmlinux);
	return attach_btf(kl, vmlinux);
}
