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

bool ctx_has_conversion(const struct vet_env *env)
{
	return env->prog_type != BPF_PROG_TYPE_SYSCALL;
}

