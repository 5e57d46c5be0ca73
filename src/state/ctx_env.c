/* SPDX-License-Identifier: BSD-2-Clause */
/* Context access rules, queried from the verifier environment. */
#include "rules/rules.h"
#include "state.h"

bool ctx_is_valid_access(const struct vet_env *env, int off, int size, bool write,
			 struct ctx_access *out)
{
	struct ctx_query q = {
		.prog_type = env->prog_type,
		.attach_type = env->expected_attach_type,
		.bpf_capable = env->bpf_capable,
		.perfmon_capable = env->allow_ptr_leaks,
		.off = off,
		.size = size,
		.write = write,
		.is_ldsx = out->is_ldsx,
	};

	return ctx_access_check(&q, out);
}

int ctx_size(const struct vet_env *env)
{
	return ctx_type_size(env->prog_type, env->expected_attach_type);
}
