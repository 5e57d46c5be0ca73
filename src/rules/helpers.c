/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helper lookups that do not depend on the program: prototypes by id,
 * names, and the verifier's per-id special cases (callbacks, packet data).
 */
#include <stddef.h>
#include <string.h>

#include "data/helper_protos.h"
#include "helpers_internal.h"

/* The generated table names each id's generic prototype: a lookup here
 * ran for every helper call the walk checks, and scanning the ~60 KB of
 * prototypes cost more than the rest of the call. */
const struct helper_proto *helper_proto_by_id(uint32_t id)
{
	uint16_t idx;

	if (id >= HELPER_ID_MAX)
		return NULL;
	idx = helper_generic_table[id];
	return idx < HP__COUNT ? &helper_protos[idx] : NULL;
}

const char *helper_name(uint32_t id)
{
	return id < HELPER_ID_MAX ? helper_name_table[id] : NULL;
}

bool helper_is_sync_callback_calling(int32_t id)
{
	return id == FN_for_each_map_elem || id == FN_find_vma ||
	       id == FN_loop || id == FN_user_ringbuf_drain;
}

bool helper_is_async_callback_calling(int32_t id)
{
	return id == FN_timer_set_callback;
}

bool helper_changes_pkt_data(int32_t id)
{
	const struct helper_proto *p;

	if (id < 0)
		return false;
	p = helper_proto_by_id((uint32_t)id);
	return p && p->changes_pkt_data;
}

/* compatible_reg_types of 6.18, as the log prints them. */
const char *helper_arg_expected(uint32_t arg_type)
{
	switch (arg_type & BASE_TYPE_MASK) {
	case ARG_CONST_MAP_PTR:
		return "map_ptr";
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
	case ARG_PTR_TO_MEM:
		return "fp, pkt, pkt_meta, map_key, map_value, mem, "
		       "ringbuf_mem, buf, trusted_ptr_";
	case ARG_PTR_TO_ARENA:
		return "arena";
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		return "scalar";
	case ARG_PTR_TO_CTX:
		return "ctx";
	case ARG_PTR_TO_SPIN_LOCK:
	case ARG_KPTR_XCHG_DEST:
		return "map_value, ptr_";
	case ARG_PTR_TO_SOCK_COMMON:
		return "sock_common, sock, tcp_sock, xdp_sock";
	case ARG_PTR_TO_SOCKET:
		return "sock";
	case ARG_PTR_TO_BTF_ID:
		return "ptr_, trusted_ptr_, rcu_ptr_";
	case ARG_PTR_TO_RINGBUF_MEM:
		return "ringbuf_mem";
	case ARG_PTR_TO_BTF_ID_SOCK_COMMON:
		return "sock_common, sock, tcp_sock, xdp_sock, ptr_, "
		       "trusted_ptr_";
	case ARG_PTR_TO_PERCPU_BTF_ID:
		return "percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_";
	case ARG_PTR_TO_FUNC:
		return "func";
	case ARG_PTR_TO_STACK:
		return "fp";
	case ARG_PTR_TO_CONST_STR:
	case ARG_PTR_TO_TIMER:
		return "map_value";
	case ARG_PTR_TO_DYNPTR:
		return "fp, dynptr_ptr";
	default:
		return NULL;
	}
}
