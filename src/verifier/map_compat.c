/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which maps a helper may be given, checked both ways as the kernel's
 * check_map_func_compatibility() does: some map types only work with a
 * few helpers, and some helpers only with a few map types. A pair must
 * pass both lists. Helper and map type numbers are the uapi's.
 *
 * Also the per-call map bookkeeping that precedes it (the kernel's
 * record_func_map and record_func_key): helpers that write into a map
 * refuse read-only maps, and a tail call needs a prog array; after the
 * walk, a tail call site that saw two prog arrays of hardened maps.
 */
#include <errno.h>

#include "rules/rules.h"
#include "verifier.h"

#define MAX_PEERS 7

/* A map type and the only helpers that accept it. */
struct map_only {
	uint32_t map_type;
	int helpers[MAX_PEERS];		/* 0-terminated */
};

/* A helper and the only map types it accepts. */
struct helper_only {
	int helper;
	uint32_t maps[MAX_PEERS];	/* 0-terminated */
};

enum {
	H_LOOKUP = 1, H_UPDATE = 2, H_DELETE = 3, H_TAIL_CALL = 12,
	H_PERF_EVENT_READ = 22, H_PERF_EVENT_OUTPUT = 25, H_GET_STACKID = 27,
	H_SKB_UNDER_CGROUP = 33, H_CURRENT_TASK_UNDER_CGROUP = 37,
	H_REDIRECT_MAP = 51, H_SK_REDIRECT_MAP = 52, H_SOCK_MAP_UPDATE = 53,
	H_PERF_EVENT_READ_VALUE = 55, H_MSG_REDIRECT_MAP = 60,
	H_SOCK_HASH_UPDATE = 70, H_MSG_REDIRECT_HASH = 71, H_SK_REDIRECT_HASH = 72,
	H_GET_LOCAL_STORAGE = 81, H_SK_SELECT_REUSEPORT = 82,
	H_MAP_PUSH = 87, H_MAP_POP = 88, H_MAP_PEEK = 89,
	H_SK_STORAGE_GET = 107, H_SK_STORAGE_DELETE = 108, H_SKB_OUTPUT = 111,
	H_XDP_OUTPUT = 121, H_RINGBUF_OUTPUT = 130, H_RINGBUF_RESERVE = 131,
	H_RINGBUF_QUERY = 134, H_INODE_STORAGE_GET = 145,
	H_INODE_STORAGE_DELETE = 146, H_TASK_STORAGE_GET = 156,
	H_TASK_STORAGE_DELETE = 157, H_KPTR_XCHG = 194,
	H_LOOKUP_PERCPU = 195, H_RINGBUF_RESERVE_DYNPTR = 198,
	H_RINGBUF_SUBMIT_DYNPTR = 199, H_RINGBUF_DISCARD_DYNPTR = 200,
	H_USER_RINGBUF_DRAIN = 209, H_CGRP_STORAGE_GET = 210,
	H_CGRP_STORAGE_DELETE = 211,
};

#define RINGBUF_HELPERS H_RINGBUF_OUTPUT, H_RINGBUF_RESERVE, H_RINGBUF_QUERY, \
	H_RINGBUF_RESERVE_DYNPTR, H_RINGBUF_SUBMIT_DYNPTR, H_RINGBUF_DISCARD_DYNPTR

/* Sockmap and sockhash updates from other contexts: may_update_sockmap(). */
static const struct map_only map_rules[] = {
	{ BPF_MAP_TYPE_PROG_ARRAY, { H_TAIL_CALL } },
	{ BPF_MAP_TYPE_PERF_EVENT_ARRAY, { H_PERF_EVENT_READ, H_PERF_EVENT_OUTPUT,
		H_SKB_OUTPUT, H_PERF_EVENT_READ_VALUE, H_XDP_OUTPUT } },
	{ BPF_MAP_TYPE_RINGBUF, { RINGBUF_HELPERS } },
	{ BPF_MAP_TYPE_USER_RINGBUF, { H_USER_RINGBUF_DRAIN } },
	{ BPF_MAP_TYPE_STACK_TRACE, { H_GET_STACKID } },
	{ BPF_MAP_TYPE_CGROUP_ARRAY, { H_SKB_UNDER_CGROUP, H_CURRENT_TASK_UNDER_CGROUP } },
	{ BPF_MAP_TYPE_CGROUP_STORAGE, { H_GET_LOCAL_STORAGE } },
	{ BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE, { H_GET_LOCAL_STORAGE } },
	{ BPF_MAP_TYPE_DEVMAP, { H_REDIRECT_MAP, H_LOOKUP } },
	{ BPF_MAP_TYPE_DEVMAP_HASH, { H_REDIRECT_MAP, H_LOOKUP } },
	{ BPF_MAP_TYPE_CPUMAP, { H_REDIRECT_MAP } },
	{ BPF_MAP_TYPE_XSKMAP, { H_REDIRECT_MAP, H_LOOKUP } },
	{ BPF_MAP_TYPE_ARRAY_OF_MAPS, { H_LOOKUP } },
	{ BPF_MAP_TYPE_HASH_OF_MAPS, { H_LOOKUP } },
	{ BPF_MAP_TYPE_SOCKMAP, { H_SK_REDIRECT_MAP, H_SOCK_MAP_UPDATE,
		H_MSG_REDIRECT_MAP, H_SK_SELECT_REUSEPORT, H_LOOKUP } },
	{ BPF_MAP_TYPE_SOCKHASH, { H_SK_REDIRECT_HASH, H_SOCK_HASH_UPDATE,
		H_MSG_REDIRECT_HASH, H_SK_SELECT_REUSEPORT, H_LOOKUP } },
	{ BPF_MAP_TYPE_REUSEPORT_SOCKARRAY, { H_SK_SELECT_REUSEPORT } },
	{ BPF_MAP_TYPE_QUEUE, { H_MAP_PEEK, H_MAP_POP, H_MAP_PUSH } },
	{ BPF_MAP_TYPE_STACK, { H_MAP_PEEK, H_MAP_POP, H_MAP_PUSH } },
	{ BPF_MAP_TYPE_SK_STORAGE, { H_SK_STORAGE_GET, H_SK_STORAGE_DELETE, H_KPTR_XCHG } },
	{ BPF_MAP_TYPE_INODE_STORAGE, { H_INODE_STORAGE_GET, H_INODE_STORAGE_DELETE,
		H_KPTR_XCHG } },
	{ BPF_MAP_TYPE_TASK_STORAGE, { H_TASK_STORAGE_GET, H_TASK_STORAGE_DELETE,
		H_KPTR_XCHG } },
	{ BPF_MAP_TYPE_CGRP_STORAGE, { H_CGRP_STORAGE_GET, H_CGRP_STORAGE_DELETE,
		H_KPTR_XCHG } },
	{ BPF_MAP_TYPE_BLOOM_FILTER, { H_MAP_PEEK, H_MAP_PUSH } },
};

#define PERF_ARRAY { BPF_MAP_TYPE_PERF_EVENT_ARRAY }
#define RINGBUF { BPF_MAP_TYPE_RINGBUF }

static const struct helper_only helper_rules[] = {
	{ H_TAIL_CALL, { BPF_MAP_TYPE_PROG_ARRAY } },
	{ H_PERF_EVENT_READ, PERF_ARRAY },
	{ H_PERF_EVENT_OUTPUT, PERF_ARRAY },
	{ H_PERF_EVENT_READ_VALUE, PERF_ARRAY },
	{ H_SKB_OUTPUT, PERF_ARRAY },
	{ H_XDP_OUTPUT, PERF_ARRAY },
	{ H_RINGBUF_OUTPUT, RINGBUF },
	{ H_RINGBUF_RESERVE, RINGBUF },
	{ H_RINGBUF_QUERY, RINGBUF },
	{ H_RINGBUF_RESERVE_DYNPTR, RINGBUF },
	{ H_RINGBUF_SUBMIT_DYNPTR, RINGBUF },
	{ H_RINGBUF_DISCARD_DYNPTR, RINGBUF },
	{ H_USER_RINGBUF_DRAIN, { BPF_MAP_TYPE_USER_RINGBUF } },
	{ H_GET_STACKID, { BPF_MAP_TYPE_STACK_TRACE } },
	{ H_CURRENT_TASK_UNDER_CGROUP, { BPF_MAP_TYPE_CGROUP_ARRAY } },
	{ H_SKB_UNDER_CGROUP, { BPF_MAP_TYPE_CGROUP_ARRAY } },
	{ H_REDIRECT_MAP, { BPF_MAP_TYPE_DEVMAP, BPF_MAP_TYPE_DEVMAP_HASH,
		BPF_MAP_TYPE_CPUMAP, BPF_MAP_TYPE_XSKMAP } },
	{ H_SK_REDIRECT_MAP, { BPF_MAP_TYPE_SOCKMAP } },
	{ H_MSG_REDIRECT_MAP, { BPF_MAP_TYPE_SOCKMAP } },
	{ H_SOCK_MAP_UPDATE, { BPF_MAP_TYPE_SOCKMAP } },
	{ H_SK_REDIRECT_HASH, { BPF_MAP_TYPE_SOCKHASH } },
	{ H_MSG_REDIRECT_HASH, { BPF_MAP_TYPE_SOCKHASH } },
	{ H_SOCK_HASH_UPDATE, { BPF_MAP_TYPE_SOCKHASH } },
	{ H_GET_LOCAL_STORAGE, { BPF_MAP_TYPE_CGROUP_STORAGE,
		BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE } },
	{ H_SK_SELECT_REUSEPORT, { BPF_MAP_TYPE_REUSEPORT_SOCKARRAY,
		BPF_MAP_TYPE_SOCKMAP, BPF_MAP_TYPE_SOCKHASH } },
	{ H_MAP_POP, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK } },
	{ H_MAP_PEEK, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK,
		BPF_MAP_TYPE_BLOOM_FILTER } },
	{ H_MAP_PUSH, { BPF_MAP_TYPE_QUEUE, BPF_MAP_TYPE_STACK,
		BPF_MAP_TYPE_BLOOM_FILTER } },
	{ H_LOOKUP_PERCPU, { BPF_MAP_TYPE_PERCPU_ARRAY, BPF_MAP_TYPE_PERCPU_HASH,
		BPF_MAP_TYPE_LRU_PERCPU_HASH } },
	{ H_SK_STORAGE_GET, { BPF_MAP_TYPE_SK_STORAGE } },
	{ H_SK_STORAGE_DELETE, { BPF_MAP_TYPE_SK_STORAGE } },
	{ H_INODE_STORAGE_GET, { BPF_MAP_TYPE_INODE_STORAGE } },
	{ H_INODE_STORAGE_DELETE, { BPF_MAP_TYPE_INODE_STORAGE } },
	{ H_TASK_STORAGE_GET, { BPF_MAP_TYPE_TASK_STORAGE } },
	{ H_TASK_STORAGE_DELETE, { BPF_MAP_TYPE_TASK_STORAGE } },
	{ H_CGRP_STORAGE_GET, { BPF_MAP_TYPE_CGRP_STORAGE } },
	{ H_CGRP_STORAGE_DELETE, { BPF_MAP_TYPE_CGRP_STORAGE } },
};

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Generic updates and deletes of a sockmap or sockhash, from programs
 * that cannot be holding a socket's lock while they run. sock_ops
 * programs may only delete: they update through dedicated helpers.
 */
static bool sockmap_update_ok(struct vet_env *env, int func_id)
{
	if (func_id != H_UPDATE && func_id != H_DELETE)
		return false;
	switch (env->prog_type) {
	case BPF_PROG_TYPE_TRACING:
		if (env->expected_attach_type == BPF_TRACE_ITER)
			return true;
		break;
	case BPF_PROG_TYPE_SOCK_OPS:
		if (func_id == H_DELETE)
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

static bool helper_listed(const int *helpers, int func_id)
{
	for (int i = 0; i < MAX_PEERS && helpers[i]; i++)
		if (helpers[i] == func_id)
			return true;
	return false;
}

static bool map_listed(const uint32_t *maps, uint32_t map_type)
{
	for (int i = 0; i < MAX_PEERS && maps[i]; i++)
		if (maps[i] == map_type)
			return true;
	return false;
}

static bool map_side_ok(struct vet_env *env, uint32_t map_type, int func_id)
{
	for (size_t i = 0; i < NROWS(map_rules); i++) {
		if (map_rules[i].map_type != map_type)
			continue;
		if (helper_listed(map_rules[i].helpers, func_id))
			return true;
		if (map_type == BPF_MAP_TYPE_SOCKMAP || map_type == BPF_MAP_TYPE_SOCKHASH)
			return sockmap_update_ok(env, func_id);
		return false;
	}
	return true;
}

static bool helper_side_ok(uint32_t map_type, int func_id)
{
	for (size_t i = 0; i < NROWS(helper_rules); i++)
		if (helper_rules[i].helper == func_id)
			return map_listed(helper_rules[i].maps, map_type);
	return true;
}

int check_map_func_compatibility(struct vet_env *env, const struct bpfvet_map *map,
				 int func_id)
{
	if (!map)
		return 0;
	if (map_side_ok(env, map->type, func_id) && helper_side_ok(map->type, func_id))
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

/* Which maps the call instruction saw. Before 6.9 the callback of
 * bpf_for_each_map_elem took the map recorded there, so a second map is
 * refused. */
static int record_call_map(struct vet_env *env, const struct bpfvet_map *map, int func_id)
{
	struct insn_aux *aux = &env->aux[env->insn_idx];

	if (!aux->call_map)
		aux->call_map = map;
	else if (aux->call_map != map)
		aux->call_map_poisoned = true;
	if (func_id == FN_for_each_map_elem && aux->call_map_poisoned &&
	    !env_has(env, KVER_FOR_EACH_MULTI_MAPS)) {
		verbose(env, "tail_call abusing map_ptr\n");
		return -EINVAL;
	}
	return 0;
}

/* Maps made by a process without CAP_PERFMON are hardened against
 * Spectre v1 (the kernel's map->bypass_spec_v1 is false), whoever loads
 * the program. Raw programs have no loader: their maps count as made by
 * root. */
static bool maps_hardened(const struct vet_env *env)
{
	return env->prog->obj && env->prog->obj->maps_unpriv;
}

/* After the walk, where the kernel rewrites each tail call: a call site
 * that saw two prog arrays cannot become a direct jump, and when its
 * maps are hardened the bounds check it would get needs the one map. */
int check_tail_call_maps(struct vet_env *env)
{
	if (!maps_hardened(env))
		return 0;
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (insn->code != (BPF_JMP | BPF_CALL) || insn->src_reg ||
		    insn->imm != FN_tail_call || !env->aux[i].call_map_poisoned)
			continue;
		verbose(env, "tail_call abusing map_ptr\n");
		return -EINVAL;
	}
	return 0;
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
	return record_call_map(env, map, func_id);
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
