/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which maps go with which helpers. The kernel checks the pair both ways:
 * some map types are usable only through a handful of helpers (a prog
 * array only by bpf_tail_call), and some helpers accept only a few map
 * types (bpf_redirect_map only device, cpu and xsk maps). Both directions
 * are tables here; a pair fails if either side refuses it.
 *
 * Also the per-call map bookkeeping that precedes it (the kernel's
 * record_func_map and record_func_key): helpers that write into a map
 * refuse read-only maps, and a tail call needs a prog array.
 */
#include <errno.h>

#include "helper_protos.h"
#include "verifier.h"

#define END (-1)

/* Helpers a map type may be passed to; types not listed accept any. */
struct map_side {
	uint32_t map_type;
	int funcs[8];		/* END-terminated */
	/* map_update_elem / map_delete_elem too, if the program type may
	 * update a socket map (may_update_sockmap). */
	bool sockmap_update;
};

static const struct map_side map_sides[] = {
	{ BPF_MAP_TYPE_PROG_ARRAY, { FN_tail_call, END } },
	{ BPF_MAP_TYPE_PERF_EVENT_ARRAY,
	  { FN_perf_event_read, FN_perf_event_output, FN_skb_output,
	    FN_perf_event_read_value, FN_xdp_output, END } },
	{ BPF_MAP_TYPE_RINGBUF,
	  { FN_ringbuf_output, FN_ringbuf_reserve, FN_ringbuf_query,
	    FN_ringbuf_reserve_dynptr, FN_ringbuf_submit_dynptr,
	    FN_ringbuf_discard_dynptr, END } },
	{ BPF_MAP_TYPE_USER_RINGBUF, { FN_user_ringbuf_drain, END } },
	{ BPF_MAP_TYPE_STACK_TRACE, { FN_get_stackid, END } },
	{ BPF_MAP_TYPE_CGROUP_ARRAY,
	  { FN_skb_under_cgroup, FN_current_task_under_cgroup, END } },
	{ BPF_MAP_TYPE_CGROUP_STORAGE, { FN_get_local_storage, END } },
	{ BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, { FN_get_local_storage, END } },
	{ BPF_MAP_TYPE_DEVMAP, { FN_redirect_map, FN_map_lookup_elem, END } },
	{ BPF_MAP_TYPE_DEVMAP_HASH, { FN_redirect_map, FN_map_lookup_elem, END } },
	{ BPF_MAP_TYPE_CPUMAP, { FN_redirect_map, END } },
	{ BPF_MAP_TYPE_XSKMAP, { FN_redirect_map, FN_map_lookup_elem, END } },
	{ BPF_MAP_TYPE_ARRAY_OF_MAPS, { FN_map_lookup_elem, END } },
	{ BPF_MAP_TYPE_HASH_OF_MAPS, { FN_map_lookup_elem, END } },
	{ BPF_MAP_TYPE_SOCKMAP,
	  { FN_sk_redirect_map, FN_sock_map_update, FN_msg_redirect_map,
	    FN_sk_select_reuseport, FN_map_lookup_elem, END }, true },
	{ BPF_MAP_TYPE_SOCKHASH,
	  { FN_sk_redirect_hash, FN_sock_hash_update, FN_msg_redirect_hash,
	    FN_sk_select_reuseport, FN_map_lookup_elem, END }, true },
	{ BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, { FN_sk_select_reuseport, END } },
	{ BPF_MAP_TYPE_QUEUE, { FN_map_peek_elem, FN_map_pop_elem, FN_map_push_elem, END } },
	{ BPF_MAP_TYPE_STACK, { FN_map_peek_elem, FN_map_pop_elem, FN_map_push_elem, END } },
	{ BPF_MAP_TYPE_SK_STORAGE,
	  { FN_sk_storage_get, FN_sk_storage_delete, FN_kptr_xchg, END } },
	{ BPF_MAP_TYPE_INODE_STORAGE,
	  { FN_inode_storage_get, FN_inode_storage_delete, FN_kptr_xchg, END } },
	{ BPF_MAP_TYPE_TASK_STORAGE,
	  { FN_task_storage_get, FN_task_storage_delete, FN_kptr_xchg, END } },
	{ BPF_MAP_TYPE_CGRP_STORAGE,
	  { FN_cgrp_storage_get, FN_cgrp_storage_delete, FN_kptr_xchg, END } },
	{ BPF_MAP_TYPE_BLOOM_FILTER, { FN_map_peek_elem, FN_map_push_elem, END } },
};

/* Map types a helper accepts; helpers not listed accept any. */
struct func_side {
	int func_id;
	uint32_t maps[5];	/* 0-terminated (BPF_MAP_TYPE_UNSPEC) */
};

static const struct func_side func_sides[] = {
	{ FN_tail_call, { BPF_MAP_TYPE_PROG_ARRAY } },
	{ FN_perf_event_read, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ FN_perf_event_output, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ FN_perf_event_read_value, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ FN_skb_output, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ FN_xdp_output, { BPF_MAP_TYPE_PERF_EVENT_ARRAY } },
	{ FN_ringbuf_output, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_ringbuf_reserve, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_ringbuf_query, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_ringbuf_reserve_dynptr, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_ringbuf_submit_dynptr, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_ringbuf_discard_dynptr, { BPF_MAP_TYPE_RINGBUF } },
	{ FN_user_ringbuf_drain, { BPF_MAP_TYPE_USER_RINGBUF } },
	{ FN_get_stackid, { BPF_MAP_TYPE_STACK_TRACE } },
	{ FN_current_task_under_cgroup, { BPF_MAP_TYPE_CGROUP_ARRAY } },
	{ FN_skb_under_cgroup, { BPF_MAP_TYPE_CGROUP_ARRAY } },
	{ FN_redirect_map,
	  { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH, BPF_MAP_TYPE_CPUMAP,
	    BPF_MAP_TYPE_XSKMAP } },
	{ FN_sk_redirect_map, { BPF_MAP_TYPE_SOCKMAP } },
	{ FN_msg_redirect_map, { BPF_MAP_TYPE_SOCKMAP } },
	{ FN_sock_map_update, { BPF_MAP_TYPE_SOCKMAP } },
	{ FN_sk_redirect_hash, { BPF_MAP_TYPE_SOCKHASH } },
	{ FN_msg_redirect_hash, { BPF_MAP_TYPE_SOCKHASH } },
	{ FN_sock_hash_update, { BPF_MAP_TYPE_SOCKHASH } },
	{ FN_get_local_storage,
	  { BPF_MAP_TYPE_CGROUP_STORAGE, BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE } },
	{ FN_sk_select_reuseport,
	  { BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH } },
	{ FN_map_pop_elem, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK } },
	{ FN_map_peek_elem,
	  { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_BLOOM_FILTER } },
	{ FN_map_push_elem,
	  { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK, BPF_MAP_TYPE_BLOOM_FILTER } },
	{ FN_map_lookup_percpu_elem,
	  { BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
	    BPF_MAP_TYPE_LRU_PERCPU_HASH } },
	{ FN_sk_storage_get, { BPF_MAP_TYPE_SK_STORAGE } },
	{ FN_sk_storage_delete, { BPF_MAP_TYPE_SK_STORAGE } },
	{ FN_inode_storage_get, { BPF_MAP_TYPE_INODE_STORAGE } },
	{ FN_inode_storage_delete, { BPF_MAP_TYPE_INODE_STORAGE } },
	{ FN_task_storage_get, { BPF_MAP_TYPE_TASK_STORAGE } },
	{ FN_task_storage_delete, { BPF_MAP_TYPE_TASK_STORAGE } },
	{ FN_cgrp_storage_get, { BPF_MAP_TYPE_CGRP_STORAGE } },
	{ FN_cgrp_storage_delete, { BPF_MAP_TYPE_CGRP_STORAGE } },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Program types that may update or delete socket map entries with the
 * generic helpers: those that cannot hold a locked socket. Prints the
 * kernel's note when refused (it precedes the "cannot pass" line).
 */
static bool may_update_sockmap(struct vet_env *env, int func_id)
{
	if (func_id != FN_map_update_elem && func_id != FN_map_delete_elem)
		return false;
	switch (env->prog_type) {
	case BPF_PROG_TYPE_TRACING:
		if (env->expected_attach_type == BPF_TRACE_ITER)
			return true;
		break;
	case BPF_PROG_TYPE_SOCK_OPS:
		/* Updates only through the dedicated helpers. */
		if (func_id == FN_map_delete_elem)
			return true;
		break;
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
	case BPF_PROG_TYPE_SK_LOOKUP:
		return true;
	default:
		break;
	}
	verbose(env, "cannot update sockmap in this context\n");
	return false;
}

static bool map_side_allows(struct vet_env *env, uint32_t map_type, int func_id)
{
	for (size_t i = 0; i < ARRAY_LEN(map_sides); i++) {
		const struct map_side *s = &map_sides[i];

		if (s->map_type != map_type)
			continue;
		for (const int *f = s->funcs; *f != END; f++)
			if (*f == func_id)
				return true;
		return s->sockmap_update && may_update_sockmap(env, func_id);
	}
	return true;
}

static bool func_side_allows(uint32_t map_type, int func_id)
{
	for (size_t i = 0; i < ARRAY_LEN(func_sides); i++) {
		const struct func_side *s = &func_sides[i];

		if (s->func_id != func_id)
			continue;
		for (const uint32_t *m = s->maps; *m; m++)
			if (*m == map_type)
				return true;
		return false;
	}
	return true;
}

int check_map_func_compatibility(struct vet_env *env, const struct bpfvet_map *map,
				 int func_id)
{
	if (!map)
		return 0;
	/* Tail calls from subprograms need JIT support, which x86-64 has. */
	if (map_side_allows(env, map->type, func_id) && func_side_allows(map->type, func_id))
		return 0;
	verbose(env, "cannot pass map_type %u into func %s#%d\n", map->type,
		helper_name_or_unknown((uint32_t)func_id), func_id);
	return -EINVAL;
}

/* Helpers whose map the kernel records per call site. */
static bool records_map(int func_id)
{
	switch (func_id) {
	case FN_tail_call:
	case FN_map_lookup_elem:
	case FN_map_update_elem:
	case FN_map_delete_elem:
	case FN_map_push_elem:
	case FN_map_pop_elem:
	case FN_map_peek_elem:
	case FN_for_each_map_elem:
	case FN_redirect_map:
	case FN_map_lookup_percpu_elem:
		return true;
	default:
		return false;
	}
}

int record_func_map(struct vet_env *env, const struct bpfvet_map *map, int func_id)
{
	if (!records_map(func_id))
		return 0;
	if (!map) {
		verbose(env, "verifier bug: expected map for helper call\n");
		return -EFAULT;
	}
	if ((map->flags & BPF_F_RDONLY_PROG) &&
	    (func_id == FN_map_delete_elem || func_id == FN_map_update_elem ||
	     func_id == FN_map_push_elem || func_id == FN_map_pop_elem)) {
		verbose(env, "write into map forbidden\n");
		return -EACCES;
	}
	return 0;
}

/*
 * A tail call's index, when constant and in range, lets the kernel turn the
 * call into a direct jump; it marks the index precise so that pruning keeps
 * that promise.
 */
int record_func_key(struct vet_env *env, const struct bpfvet_map *map, int func_id)
{
	const struct reg_state *r3 = &cur_regs(env)[BPF_REG_3];

	if (func_id != FN_tail_call)
		return 0;
	if (!map || map->type != BPF_MAP_TYPE_PROG_ARRAY) {
		/* 6.17+ prints this without a newline. */
		verbose(env, "expected prog array map for tail call");
		return -EINVAL;
	}
	if (r3->type != SCALAR_VALUE || !tnum_is_const(r3->b.var_off) ||
	    r3->b.var_off.value >= map->max_entries)
		return 0;
	return mark_chain_precision(env, BPF_REG_3);
}
