/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * INTERIM: minimal helper prototypes and ctx rules so that the verifier
 * core can run before the full tables land (branches `helpers`, `ctx`).
 * This file is deleted when they are merged.
 */
#include <string.h>

#include "ctx.h"
#include "helper_names.h"
#include "verifier.h"

static const struct helper_proto interim_protos[] = {
	{ .id = 1, .name = "bpf_map_lookup_elem", .ret_type = RET_PTR_TO_MAP_VALUE | PTR_MAYBE_NULL,
	  .arg_type = { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY } },
	{ .id = 2, .name = "bpf_map_update_elem", .ret_type = RET_INTEGER,
	  .arg_type = { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY, ARG_PTR_TO_MAP_VALUE, ARG_ANYTHING } },
	{ .id = 3, .name = "bpf_map_delete_elem", .ret_type = RET_INTEGER,
	  .arg_type = { ARG_CONST_MAP_PTR, ARG_PTR_TO_MAP_KEY } },
	{ .id = 5, .name = "bpf_ktime_get_ns", .ret_type = RET_INTEGER },
	{ .id = 7, .name = "bpf_get_prandom_u32", .ret_type = RET_INTEGER },
	{ .id = 8, .name = "bpf_get_smp_processor_id", .ret_type = RET_INTEGER },
	{ .id = 14, .name = "bpf_get_current_pid_tgid", .ret_type = RET_INTEGER },
};

const struct helper_proto *helper_proto_by_id(uint32_t id)
{
	for (size_t i = 0; i < sizeof(interim_protos) / sizeof(interim_protos[0]); i++)
		if (interim_protos[i].id == id)
			return &interim_protos[i];
	return NULL;
}

const struct helper_proto *helper_proto_for(const struct vet_env *env, uint32_t id)
{
	(void)env;
	return helper_proto_by_id(id);
}

const char *helper_name(uint32_t id)
{
	return helper_names_get((int32_t)id);
}

bool helper_is_sync_callback_calling(int32_t id)
{
	return id == HELPER_LOOP || id == HELPER_FOR_EACH_MAP_ELEM || id == HELPER_FIND_VMA ||
	       id == HELPER_USER_RINGBUF_DRAIN;
}

bool helper_is_async_callback_calling(int32_t id)
{
	return id == HELPER_TIMER_SET_CALLBACK;
}

bool helper_changes_pkt_data(int32_t id)
{
	(void)id;
	return false;
}

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
