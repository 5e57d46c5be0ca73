/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Features bpfvet does not model yet. Each entry point reports the feature
 * by name and returns -EOPNOTSUPP, which the verdict reports as
 * "unsupported" rather than as a rejection.
 */
#include <errno.h>

#include "verifier.h"

int unsupported(struct vet_env *env, const char *what)
{
	verbose(env, "bpfvet: unsupported: %s\n", what);
	env->unsupported = true;
	return -EOPNOTSUPP;
}

int check_ptr_alu_spectre(struct vet_env *env, const struct bpfvet_insn *insn,
			  struct reg_state *dst)
{
	(void)insn; (void)dst;
	if (env->bypass_spec_v1)
		return 0;
	return unsupported(env, "unprivileged pointer arithmetic sanitation");
}

int push_speculative_other(struct vet_env *env, const struct bpfvet_insn *insn,
			   uint32_t insn_idx, int pred)
{
	(void)insn; (void)insn_idx; (void)pred;
	if (env->bypass_spec_v1)
		return 0;
	return unsupported(env, "speculative path exploration");
}

bool ctx_has_conversion(const struct vet_env *env)
{
	return env->prog_type != BPF_PROG_TYPE_SYSCALL;
}

