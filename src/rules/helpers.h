/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helper functions as the verifier sees them: prototypes (argument and
 * return types, Linux 6.18 ids and names) and which program types may call
 * them. The tables live in helpers.c and helper_avail.c.
 */
#ifndef BPFVET_HELPERS_H
#define BPFVET_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Well-known helper ids the verifier refers to by name. */
enum {
	HELPER_MAP_LOOKUP_ELEM = 1,
	HELPER_MAP_UPDATE_ELEM = 2,
	HELPER_MAP_DELETE_ELEM = 3,
	HELPER_TAIL_CALL = 12,
	HELPER_GET_LOCAL_STORAGE = 81,
	HELPER_SPIN_LOCK = 93,
	HELPER_SPIN_UNLOCK = 94,
	HELPER_FOR_EACH_MAP_ELEM = 164,
	HELPER_TIMER_SET_CALLBACK = 170,
	HELPER_FIND_VMA = 180,
	HELPER_LOOP = 181,
	HELPER_KPTR_XCHG = 194,
	HELPER_USER_RINGBUF_DRAIN = 209,
	HELPER_ID_MAX = 212,	/* one past the last helper id in 6.18 */
};

/* Argument types (kernel's enum bpf_arg_type base values); combine with
 * the type flags of env.h (PTR_MAYBE_NULL, MEM_RDONLY, MEM_UNINIT,
 * MEM_WRITE, OBJ_RELEASE, MEM_FIXED_SIZE, MEM_ALIGNED, DYNPTR_TYPE_*). */
enum arg_type {
	ARG_DONTCARE = 0,
	ARG_CONST_MAP_PTR,
	ARG_PTR_TO_MAP_KEY,
	ARG_PTR_TO_MAP_VALUE,
	ARG_PTR_TO_MEM,
	ARG_PTR_TO_ARENA,
	ARG_CONST_SIZE,
	ARG_CONST_SIZE_OR_ZERO,
	ARG_PTR_TO_CTX,
	ARG_ANYTHING,
	ARG_PTR_TO_SPIN_LOCK,
	ARG_PTR_TO_SOCK_COMMON,
	ARG_PTR_TO_SOCKET,
	ARG_PTR_TO_BTF_ID,
	ARG_PTR_TO_RINGBUF_MEM,
	ARG_CONST_ALLOC_SIZE_OR_ZERO,
	ARG_PTR_TO_BTF_ID_SOCK_COMMON,
	ARG_PTR_TO_PERCPU_BTF_ID,
	ARG_PTR_TO_FUNC,
	ARG_PTR_TO_STACK,
	ARG_PTR_TO_CONST_STR,
	ARG_PTR_TO_TIMER,
	ARG_KPTR_XCHG_DEST,
	ARG_PTR_TO_DYNPTR,
	ARG_TYPE_BASE_MAX,
};

/* Return types (kernel's enum bpf_return_type base values), + flags. */
enum ret_type {
	RET_INTEGER = 0,
	RET_VOID,
	RET_PTR_TO_MAP_VALUE,
	RET_PTR_TO_SOCKET,
	RET_PTR_TO_TCP_SOCK,
	RET_PTR_TO_SOCK_COMMON,
	RET_PTR_TO_MEM,
	RET_PTR_TO_MEM_OR_BTF_ID,
	RET_PTR_TO_BTF_ID,
	RET_TYPE_BASE_MAX,
};

struct helper_proto {
	uint32_t id;
	const char *name;		/* "bpf_map_lookup_elem" */
	/* Which of the kernel's prototypes for this id ("get_stackid_tp"). */
	const char *variant;
	uint32_t ret_type;		/* enum ret_type | flags */
	uint32_t arg_type[5];		/* enum arg_type | flags */
	/* For MEM_FIXED_SIZE arguments: the size; for BTF pointer
	 * arguments: unused (see arg_btf). */
	uint32_t arg_size[5];
	/* Kernel struct names for PTR_TO_BTF_ID arguments and return values
	 * ("task_struct", "sock_common", ...), NULL when not BTF-typed. */
	const char *arg_btf[5];
	const char *ret_btf;
	bool gpl_only;
	bool pkt_access;		/* may take packet pointers as memory */
	bool might_sleep;
	bool changes_pkt_data;		/* invalidates packet pointers */
	bool acquire;			/* returns a new reference */
	bool ret_may_be_negative_size;	/* R0 in [-MAX_ERRNO, size] (probe_read_str...) */
	bool ret_cpu_id;		/* R0 in [0, nr_cpus - 1] (get_smp_processor_id) */
	/* The kernel proto has an allowed() hook; check_helper_call prints
	 * "helper call is not allowed in probe" when it refuses. */
	bool has_allowed_hook;
};

/* Prototype by id regardless of program type, NULL for unknown ids. */
const struct helper_proto *helper_proto_by_id(uint32_t id);
/* Full name as the kernel prints it ("bpf_map_lookup_elem"), or NULL. */
const char *helper_name(uint32_t id);


bool helper_is_sync_callback_calling(int32_t id);
bool helper_is_async_callback_calling(int32_t id);
bool helper_changes_pkt_data(int32_t id);

#endif
