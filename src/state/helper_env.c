/* SPDX-License-Identifier: BSD-2-Clause */
/* The helper prototype a program may use, from the verifier environment. */
#include "rules/rules.h"
#include "state.h"

const struct helper_proto *helper_proto_for(const struct vet_env *env, uint32_t id)
{
	struct helper_query q = {
		.prog_type = env->prog_type,
		.expected_attach_type = env->expected_attach_type,
		.sleepable = env->prog_flags & BPF_F_SLEEPABLE,
		.bpf_capable = env->bpf_capable,
		.perfmon = env->caps.perfmon || env->caps.sys_admin,
		.iter_target = env->prog->attach_target,
		/* Unknown counts as locked down, as the recorded 6.18 is. */
		.write_user = env->prog->obj && env->prog->obj->targ_lockdown < 0,
		.kver = env->prog->obj ? env->prog->obj->target_kver : 0,
		.struct_ops_name = env->attach.st_name,
		.struct_ops_moff = env->attach.st_moff,
	};

	return helper_proto_query(&q, id);
}
