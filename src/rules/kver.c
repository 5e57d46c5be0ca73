/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The version table: each behaviour with the first version that has it
 * (kver.h says what each is). Which side of 6.1, 6.12 and 6.18 an entry
 * falls on was settled by the recorded kernels (tests/conformance/
 * kernel-6.1.csv, kernel-6.12.csv, kernel-6.18.csv); the release within
 * a span is the kernel's history where known, else the span's first
 * release, and the name then says "after 6.1" or "after 6.12".
 */
#include <stddef.h>

#include "kver.h"

static const struct {
	uint32_t since;
	const char *name;
} features[KVER__COUNT] = {
	/* Instructions, scalars, calls and loops. */
	[KVER_ISA_V4] = { KV(6, 6, 0), "ISA v4 (6.6)" },
	[KVER_MAY_GOTO] = { KV(6, 9, 0), "may_goto (6.9)" },
	[KVER_JEQ_INFER_NOT_NULL] = { KV(6, 2, 0), "not NULL when equal to a pointer (6.2)" },
	/* verifier_unpriv/cmp_map_pointer_with_zero in 6.1's selftest-loader
	 * record: the branch is walked both ways, and refused unprivileged. */
	[KVER_MAP_PTR_NOT_NULL] = { KV(6, 2, 0), "map pointers compared with 0 decide the branch (after 6.1)" },
	[KVER_BRANCH_RANGES] = { KV(6, 8, 0), "branches decided by ranges (6.8)" },
	[KVER_ARG_TAGS] = { KV(6, 8, 0), "global function argument tags (6.8)" },
	[KVER_LAZY_GLOBALS] = { KV(6, 8, 0), "global functions verified when called (6.8)" },
	[KVER_SPILL_TRACKING] = { KV(6, 8, 0), "spilled scalars keep ids and bounds (6.8)" },
	[KVER_LOCKED_SUBPROG_CALLS] = { KV(6, 9, 0), "static calls under a spin lock (6.9)" },
	[KVER_GLOBAL_CALL_PREEMPT] = { KV(6, 14, 0), "global calls with preemption disabled (after 6.12)" },
	[KVER_RDONLY_CAST_VOID] = { KV(6, 16, 0), "bpf_rdonly_cast to void (after 6.12)" },
	[KVER_CONST_KEY_NONNULL] = { KV(6, 14, 0), "array lookups of constant keys not NULL (6.14)" },
	[KVER_CALLBACK_ITERATION] = { KV(6, 7, 0), "callbacks walked until they converge (6.7)" },
	[KVER_ANY_BACK_EDGE] = { KV(6, 2, 0), "loops closed by any edge (after 6.1)" },
	[KVER_CALLS_CHANGE_PKT] = { KV(6, 12, 0), "tail and global calls invalidate packet pointers (6.12.y)" },
	[KVER_EXACT_LOOP_CHECK] = { KV(6, 7, 0), "infinite loops by exact states (6.7)" },
	[KVER_MOV32_IDS] = { KV(6, 8, 0), "32-bit moves keep scalar ids (6.8)" },
	[KVER_ZERO_SIZE_MSG] = { KV(6, 2, 0), "zero-sized helper reads by the size (after 6.1)" },
	[KVER_REGSAFE_IDS] = { KV(6, 4, 0), "pointer ids compared when pruning (6.4)" },
	[KVER_LINKED_ADD_CONST] = { KV(6, 11, 0), "scalars linked across +const (6.11)" },
	[KVER_NEG_TRACKING] = { KV(6, 13, 0), "BPF_NEG bounds tracked (after 6.12)" },
	[KVER_END_TRACKING] = { KV(6, 13, 0), "BPF_END bounds and le64 ids tracked (after 6.12)" },
	[KVER_LDSX_UNLINK] = { KV(6, 13, 0), "sign-extending fills unlinked (after 6.12)" },
	/* Pointer trust. */
	[KVER_PTR_TRUSTED] = { KV(6, 2, 0), "trusted pointers (6.2)" },
	[KVER_WALK_UNTRUSTED] = { KV(6, 13, 0), "walked pointers untrusted (after 6.12)" },
	[KVER_UNION_WALK_UNTRUSTED] = { KV(6, 3, 0), "union walks untrusted (6.3)" },
	[KVER_BTF_ACCESS_GPL_ONLY] = { KV(6, 2, 0), "kernel struct access GPL only (6.2)" },
	[KVER_MAP_ARG_ANY_MEM] = { KV(6, 2, 0), "map key from any memory (6.2)" },
	/* Attach checks. */
	[KVER_FMODRET_TEST_SET] = { KV(6, 2, 0), "fmod_ret test set (6.2)" },
	[KVER_FMODRET_SOCKET_PROTOCOL] = { KV(6, 6, 0), "fmod_ret update_socket_protocol (6.6)" },
	/* Helper availability. */
	[KVER_RAW_TP_COOKIE] = { KV(6, 10, 0), "raw_tp attach cookie (6.10)" },
	[KVER_BASE_NS_PID_TGID] = { KV(6, 10, 0), "base ns_current_pid_tgid (6.10)" },
	/* Return values. */
	[KVER_LSM_RETVAL_RANGE] = { KV(6, 12, 0), "LSM return value ranges (6.12)" },
	/* Context fields. */
	[KVER_SOCK_OPS_HWTSTAMP] = { KV(6, 2, 0), "sock_ops skb_hwtstamp (6.2)" },
	/* Program structure. */
	[KVER_EXCEPTIONS] = { KV(6, 7, 0), "BPF exceptions (6.7)" },
	[KVER_STRUCT_OPS_UNSET_QUIET] = { KV(6, 9, 0), "struct_ops without struct refused quietly (6.9)" },
	[KVER_FOR_EACH_MULTI_MAPS] = { KV(6, 9, 0), "for_each_map_elem over several maps (6.9)" },
	[KVER_TCP_CA_WRITE_CWND_STAMP] = { KV(6, 10, 0), "tcp_congestion_ops writes snd_cwnd_stamp, app_limited (6.10)" },
	[KVER_STRUCT_OPS_SLEEPABLE] = { KV(6, 3, 0), "sleepable struct_ops programs (6.3)" },
	[KVER_LDIMM64_FUNC] = { KV(6, 4, 0), "ldimm64 of a kernel function (6.4)" },
	[KVER_ARENA] = { KV(6, 9, 0), "arena and addr_space_cast (6.9)" },
	[KVER_ARENA_LDSX] = { KV(6, 18, 0), "sign-extending arena loads (6.18)" },
	/* Stack. */
	[KVER_HELPER_READ_KEEPS_STACK] = { KV(6, 13, 0), "helper reads keep the stack (after 6.12)" },
	[KVER_STACK_ROUND_16] = { KV(6, 8, 0), "stack frames rounded to 16 (6.8)" },
	[KVER_PRIV_STACK] = { KV(6, 13, 0), "private stacks (6.13)" },
	/* Map value fields. */
	[KVER_KPTR_TAG_NAMES] = { KV(6, 3, 0), "kptr tag names (6.3)" },
	/* Messages. Where the recordings only bound a change, to (6.1, 6.12]
	 * or (6.12, 6.18], it is dated by the first release of the span. */
	[KVER_MSG_RESOURCE_LEAK] = { KV(6, 13, 0), "one resource-leak check at exits (6.13)" },
	[KVER_MSG_RETVAL_BOUNDS] = { KV(6, 8, 0), "return values told by bounds (6.8)" },
	[KVER_MSG_HELPER_NOT_OFFERED] = { KV(6, 2, 0), "helpers not offered named so (6.2)" },
	[KVER_MSG_HELPER_ACCESS_KIND] = { KV(6, 13, 0), "helper stack accesses as reads or writes (6.13)" },
	[KVER_MSG_VAR_OFF_STACK_OFF] = { KV(6, 2, 0), "off= in variable-offset stack messages (6.2)" },
	[KVER_MSG_CONST_TNUM_NUMBER] = { KV(6, 2, 0), "constant offsets as numbers (6.2)" },
	[KVER_MSG_SUBPROG_NAMED] = { KV(6, 2, 0), "subprograms named in messages (6.2)" },
	[KVER_MSG_ARG_TYPE_LISTS] = { KV(6, 2, 0), "helper argument types listed as now (6.2)" },
	[KVER_ST_INTO_CTX] = { KV(6, 2, 0), "BPF_ST into the context (6.2)" },
	[KVER_MSG_RINGBUF_NAME] = { KV(6, 2, 0), "ring buffer memory named ringbuf_mem (6.2)" },
	[KVER_MSG_RELEASE_OFF] = { KV(6, 2, 0), "offsets of released pointers named so (6.2)" },
	/* verifier_map_ptr's unprivileged runs in 6.1's selftest-loader record. */
	[KVER_MSG_MAP_PTR_STRUCT] = { KV(6, 2, 0), "map pointer reads refused as 'struct NAME' (after 6.1)" },
	/* The records bound this to (6.1, 6.12]; it is dated by the
	 * kernel's history instead: the verifier-log series of late 2023
	 * (default off=0/imm=0 omitted, smarter numbers, spilled states)
	 * went into 6.8. */
	[KVER_LOG_STATE_FORMAT] = { KV(6, 8, 0), "compact register states in the log (6.8)" },
	/* Bound to (6.1, 6.12] by the records; dated by the rework of the
	 * dynptr argument checks, in 6.2. */
	[KVER_CONST_DYNPTR_ARGS] = { KV(6, 2, 0), "callback dynptrs checked as constant (6.2)" },
	/* Bound to (6.1, 6.12] by the records; the dynptr-slice series that
	 * gave dynptrs their ids went into 6.3. */
	[KVER_DYNPTR_IDS] = { KV(6, 3, 0), "dynptrs carry ids (6.3)" },
	/* Bound to (6.1, 6.12] by the records; bpfvet models dynptrs from
	 * 6.3 only, so an earlier date would change nothing. */
	[KVER_GLOBAL_DYNPTR_ARGS] = { KV(6, 3, 0), "global functions take dynptrs (<= 6.12)" },
	/* Seen in 6.18's level-2 logs (verifier_global_subprogs'
	 * arg_tag_dynptr); 6.12's sources do neither, and its records are
	 * not at level 2: bound to (6.12, 6.18]. */
	[KVER_DYNPTR_SLICE_618] = { KV(6, 18, 0), "dynptr slice size precise again, skb-kind global dynptrs (<= 6.18)" },
	/* rbtree_fail's records bound it to (6.12, 6.18]. */
	[KVER_GRAPH_OWNING_REMOVE] = { KV(6, 13, 0), "bpf_rbtree_remove of owning references (after 6.12)" },
	/* Seen in 6.18 (bpf_refcount_acquire's missing record); 6.12 says
	 * "verifier internal error"; dated by the verifier_bug() series,
	 * which went into 6.17. */
	/* Bound to (6.12, 6.18] by the records (linked_list_fail's
	 * ptr_walk_scalar); dated by the kernel's history: the series that
	 * made such pointers untrusted memory went into 6.17. */
	[KVER_WALK_PTR_UNTRUSTED_MEM] = { KV(6, 17, 0), "pointers to non-structs as untrusted memory (6.17)" },
	/* Seen in 6.18 (local_kptr_stash's stash_rb_nodes and bpfvet's own
	 * experiments); 6.12's sources and records have no such check:
	 * bound to (6.12, 6.18]. */
	[KVER_ALLOC_CALL_ONE_TYPE] = { KV(6, 18, 0), "one type per object kfunc call (<= 6.18)" },
	/* Seen in 6.18 (bpfvet's experiments: a local kptr read after
	 * bpf_rcu_read_unlock); 6.12's sources refuse it: bound to
	 * (6.12, 6.18]. */
	[KVER_UNTRUSTED_OBJ_READ] = { KV(6, 18, 0), "untrusted objects readable (<= 6.18)" },
	[KVER_MSG_VERIFIER_BUG] = { KV(6, 17, 0), "internal errors worded \"verifier bug\" (6.17)" },
	/* Seen on 6.18.44 (tests/progs/wq.c); Debian's 6.12.118 sources
	 * do none of it: bound to (6.12, 6.18]. */
	[KVER_NOSPEC_FALLBACK] = { KV(6, 17, 0), "speculative errors end the path behind a nospec (6.17)" },
	/* A stable fix: 6.12.118 and 6.18.44 sanitize a copy of the scalar
	 * (verifier_bounds_deduction, verifier_map_ptr unprivileged, in the
	 * selftest-loader records of both); 6.12.0's sources alias it. */
	[KVER_SANITIZE_OFF_COPY] = { KV(6, 1, 0), "scalar += pointer sanitized on a copy of the scalar (6.12.y)" },
	/* Probed on 6.18.44 (tests/progs/pkt_end_move.c, test_cls_redirect
	 * at insn 715); Debian's 6.12.118 sources keep the range: bound to
	 * (6.12, 6.18]. */
	[KVER_PKT_END_MOVE_RANGE] = { KV(6, 18, 0), "a moved packet pointer at or beyond the end has range 0 (6.18, not 6.12)" },
	[KVER_WQ_618] = { KV(6, 18, 0), "bpf_wq checked as bpf_timer, sleepable callbacks only in sleepable programs (<= 6.18)" },
};

bool kver_has(uint32_t kver, enum kver_feature f)
{
	if ((unsigned int)f >= KVER__COUNT)
		return false;
	return !kver || kver >= features[f].since;
}

const char *kver_feature_name(enum kver_feature f)
{
	return (unsigned int)f < KVER__COUNT ? features[f].name : "?";
}
