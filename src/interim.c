/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * INTERIM: minimal ctx rules so that the verifier
 * core can run before the full tables land (branch `ctx`).
 * This file is deleted when they are merged.
 */
#include <string.h>

#include "ctx.h"
#include "verifier.h"

bool ctx_is_valid_access(const struct vet_env *env, int off, int size, bool write,
			 struct ctx_access *out)
{
	out->reg_type = SCALAR_VALUE;
	if (off < 0 || size != 4 || write)
		return false;
	if (env->prog_type == BPF_PROG_TYPE_XDP) {
		if (off >= 24)
			return false;
		if (off == 0)
			out->reg_type = PTR_TO_PACKET;
		else if (off == 4)
			out->reg_type = PTR_TO_PACKET_END;
		else if (off == 8)
			out->reg_type = PTR_TO_PACKET_META;
		return true;
	}
	return off < 192 && off % 4 == 0;
}

int ctx_size(const struct vet_env *env)
{
	return env->prog_type == BPF_PROG_TYPE_XDP ? 24 : 192;
}
