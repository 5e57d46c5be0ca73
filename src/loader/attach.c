/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Attach targets that a loader resolves in the target's BTF before the
 * kernel sees the program: fentry/fexit/fmod_ret, tp_btf, iterators and
 * LSM hooks. libbpf refuses such a program when the target BTF lacks its
 * function; every loader does, since the kernel needs the BTF id. Tools
 * such as fsdist ship placeholders ("dummy_file_read") that they replace
 * at run time, so the object as shipped is refused for that program
 * alone, and bpfvet says so in libbpf's words rather than guessing a
 * context. Without a target BTF nothing is known, and the verifier says
 * what it cannot check.
 */
#include <errno.h>

#include "base/base.h"
#include "base/uapi.h"
#include "steps.h"

static bool needs_attach_btf(const struct bpfvet_program *p)
{
	return p->type == BPF_PROG_TYPE_TRACING || p->type == BPF_PROG_TYPE_LSM;
}

static int check_one(struct loader *ld, struct bpfvet_program *p)
{
	int id;

	if (!p->attach_target || !p->attach_target[0])
		return ld_refuse(ld, p, -EINVAL,
				 "prog '%s': no BTF-based attach target in section name '%s'",
				 p->name, p->sec_name);
	id = kbtf_attach_find(ld->targ_btf, NULL, p->attach_target, p->expected_attach_type);
	if (id >= 0)
		return 0;
	return ld_refuse(ld, p, id, "prog '%s': failed to find kernel BTF type ID of '%s': %d",
			 p->name, p->attach_target, id);
}

int attach_check(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	int err = 0;

	if (!ld->targ_btf)
		return 0;
	for (size_t i = 0; i < obj->prog_cnt && !err; i++) {
		struct bpfvet_program *p = &obj->progs[i];

		if (!p->problem && p->type_known && needs_attach_btf(p))
			err = check_one(ld, p);
	}
	return err;
}
