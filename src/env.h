/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verifier's vocabulary: register, stack, frame and path states, the
 * per-instruction auxiliary data, and the environment that owns everything
 * for one verification. Every module of the verifier includes this header;
 * the modules' own entry points are declared in verifier.h.
 */
#ifndef BPFVET_ENV_H
#define BPFVET_ENV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "btf_index.h"
#include "bpfvet.h"
#include "log.h"
#include "object.h"
#include "scalar.h"
#include "type_flags.h"
#include "uapi.h"

#define MAX_CALL_FRAMES		8
#define MAX_BPF_STACK		512
#define BPF_REG_SIZE		8
#define MAX_SUBPROGS		256
#define COMPLEXITY_LIMIT_INSNS	1000000
#define COMPLEXITY_LIMIT_JMP_SEQ 8192
#define COMPLEXITY_LIMIT_STATES	64
#define BPF_MAX_VAR_OFF		(1 << 29)
#define BPF_MAX_VAR_SIZ		(1 << 29)
#define MAX_PACKET_OFF		0xffff
/* Scalar ids of "rX = rY + const" links: 64-bit or 32-bit (zero-extended) add. */
#define BPF_ADD_CONST64		(1U << 31)
#define BPF_ADD_CONST32		(1U << 30)
#define BPF_ADD_CONST		(BPF_ADD_CONST64 | BPF_ADD_CONST32)

/* Base register types; values match the kernel's enum bpf_reg_type. */
enum reg_type {
	NOT_INIT = 0,
	SCALAR_VALUE,
	PTR_TO_CTX,
	CONST_PTR_TO_MAP,
	PTR_TO_MAP_VALUE,
	PTR_TO_MAP_KEY,
	PTR_TO_STACK,
	PTR_TO_PACKET_META,
	PTR_TO_PACKET,
	PTR_TO_PACKET_END,
	PTR_TO_FLOW_KEYS,
	PTR_TO_SOCKET,
	PTR_TO_SOCK_COMMON,
	PTR_TO_TCP_SOCK,
	PTR_TO_TP_BUFFER,
	PTR_TO_XDP_SOCK,
	PTR_TO_BTF_ID,
	PTR_TO_MEM,
	PTR_TO_ARENA,
	PTR_TO_BUF,
	PTR_TO_FUNC,
	CONST_PTR_TO_DYNPTR,
	REG_TYPE_BASE_MAX,
};

static inline uint32_t base_type(uint32_t t)
{
	return t & BASE_TYPE_MASK;
}

static inline bool type_may_be_null(uint32_t t)
{
	return t & PTR_MAYBE_NULL;
}

/* Stack byte kinds (kernel's enum bpf_stack_slot_type). */
enum slot_type {
	STACK_INVALID = 0,
	STACK_SPILL,
	STACK_MISC,
	STACK_ZERO,
	STACK_DYNPTR,
	STACK_ITER,
	STACK_IRQ_FLAG,
};

/* Packet range sentinels after comparisons with pkt_end. */
#define AT_PKT_END	(-1)
#define BEYOND_PKT_END	(-2)

struct reg_state {
	uint32_t type;		/* enum reg_type | flags */
	int32_t off;		/* fixed offset (or delta of a +const link) */
	union {
		int32_t range;	/* PTR_TO_PACKET(_META) */
		struct {	/* maps */
			const struct bpfvet_map *map_ptr;
			uint32_t map_uid;
			/* Inner map of a map-in-map lookup: the kernel points to
			 * the inner map's template, which has no name. */
			bool map_meta;
		};
		struct {	/* PTR_TO_BTF_ID */
			const void *btf;
			uint32_t btf_id;
		};
		struct {	/* PTR_TO_MEM */
			uint32_t mem_size;
			uint32_t dynptr_id;
		};
		uint32_t subprogno;	/* PTR_TO_FUNC */
		struct {	/* stack slots holding dynptrs */
			int kind;
			bool first_slot;
		} dynptr;
		struct {	/* stack slots holding iterators */
			const void *btf;
			uint32_t btf_id;
			int state;
			int depth;
		} iter;
		uint64_t raw[2];
	};
	struct bounds b;	/* value of a scalar, variable offset of a pointer */
	uint32_t id;
	uint32_t ref_obj_id;
	uint32_t frameno;	/* owning frame of PTR_TO_STACK */
	int32_t subreg_def;
	bool precise;
};

struct stack_slot {
	struct reg_state spilled_ptr;
	uint8_t slot_type[BPF_REG_SIZE];
};

struct retval_range {
	int32_t minval;
	int32_t maxval;
};

struct func_state {
	struct reg_state regs[MAX_BPF_REG];
	int callsite;		/* call insn that created this frame, -1 for main */
	uint32_t frameno;
	uint32_t subprogno;
	uint32_t async_entry_cnt;
	struct retval_range callback_ret_range;
	bool in_callback_fn;
	bool in_async_callback_fn;
	bool in_exception_callback_fn;
	uint32_t callback_depth;
	int allocated_stack;	/* bytes, multiple of 8 */
	struct stack_slot *stack;	/* allocated_stack / 8 slots, [0] = fp-8 */
};

enum ref_kind {
	REF_TYPE_PTR = 1,
	REF_TYPE_IRQ = 2,
	REF_TYPE_LOCK = 4,
	REF_TYPE_RES_LOCK = 8,
};

struct ref_state {
	int kind;
	uint32_t id;
	int insn_idx;		/* allocation site, for "alloc_insn=" */
	const void *ptr;	/* lock object for lock references */
};

struct jmp_history_entry {
	uint32_t idx;
	uint32_t prev_idx : 20;
	uint32_t flags : 12;
	uint64_t linked_regs;
};

/* One path state ("bpf_verifier_state"). */
struct vstate {
	struct func_state *frame[MAX_CALL_FRAMES];
	struct vstate *parent;
	uint32_t branches;
	uint32_t insn_idx;
	uint32_t curframe;

	struct ref_state *refs;
	uint32_t acquired_refs;
	uint32_t active_locks;
	uint32_t active_preempt_locks;
	uint32_t active_irq_id;
	uint32_t active_lock_id;
	const void *active_lock_ptr;
	uint32_t active_rcu_lock;

	bool speculative;
	bool in_sleepable;
	bool cleaned;

	uint32_t first_insn_idx;
	uint32_t last_insn_idx;
	struct vstate *equal_state;

	struct jmp_history_entry *jmp_history;
	uint32_t jmp_history_cnt;

	uint32_t dfs_depth;
	uint32_t callback_unroll_depth;
	uint32_t may_goto_depth;
};

/* Per-instruction facts, computed before and during the walk. */
struct insn_aux {
	bool prune_point;
	bool jmp_point;
	bool force_checkpoint;
	bool calls_callback;
	bool seen;
	bool is_iter_next;
	uint32_t scc;
	uint16_t live_regs_before;
	uint32_t ptr_type;	/* base pointer type a load/store first used */
	int subprog;		/* owning subprogram */
	/* bpf_loop calls the kernel could inline: flags 0 and always the
	 * same callback, on every visit so far. */
	bool loop_inline_seen;
	bool loop_inline_fit;
	uint32_t loop_inline_cb;
};

struct subprog_info {
	uint32_t start;
	uint32_t end;		/* one past the last insn */
	uint32_t stack_depth;
	bool has_tail_call;
	bool has_ld_abs;
	bool is_global;
	bool is_cb;
	bool is_async_cb;
	bool is_exception_cb;
	bool changes_pkt_data;
	bool might_sleep;
	bool tail_call_reachable;
	bool called;		/* global function called somewhere */
	bool verified;
	bool unreliable;	/* BTF prototype does not match a caller */
	bool priv_stack;
	uint32_t postorder_start;
	const char *name;
	uint32_t btf_func_id;
};

struct scc_visit;
struct map_record;
struct stack_live;
struct reach;

/* A pending path: the state to resume and where. */
struct stack_elem {
	struct vstate st;
	uint32_t insn_idx;
	uint32_t prev_insn_idx;
	struct stack_elem *next;
	struct stack_elem *prev;	/* the one pushed after it, or NULL */
	uint32_t log_pos;	/* level-1 log rewinding point */
	/* st's frames, packed (state_pack.c) once the instruction that
	 * queued the path is over; st.frame[] is empty then. */
	uint64_t *packed;
};

/* Stored checkpoint with its cache bookkeeping. */
struct state_list {
	struct vstate state;
	struct state_list *next;
	uint32_t miss_cnt;
	uint32_t hit_cnt;
	bool in_free_list;
};

/* Capabilities the program is verified with. */
struct caps {
	bool bpf_capable;	/* CAP_BPF */
	bool perfmon;		/* CAP_PERFMON */
	bool net_admin;		/* CAP_NET_ADMIN */
	bool sys_admin;		/* CAP_SYS_ADMIN */
};

enum exact_level { NOT_EXACT, RANGE_WITHIN, EXACT };

/* Pair table for id bijections during state comparison. */
#define ID_MAP_SIZE ((MAX_BPF_REG + 64) * MAX_CALL_FRAMES)
struct id_pair {
	uint32_t old;
	uint32_t cur;
};
struct idmap {
	uint32_t tmp_id_gen;
	uint32_t cnt;
	struct id_pair map[ID_MAP_SIZE];
};

struct verifier_stats {
	uint64_t insn_processed;
	uint64_t prev_insn_processed;
	uint64_t jmps_processed;
	uint64_t prev_jmps_processed;
	uint64_t total_states;
	uint64_t peak_states;
	uint64_t max_states_per_insn;
	uint64_t explored_states_size;
	uint64_t free_list_size;
	uint64_t num_backedges;
};

/* The function a BTF-based program attaches to, in the target BTF
 * (btf_ctx.c): its prototype types the context. */
struct attach_info {
	const char *name;	/* as the kernel's messages name it */
	uint32_t btf_id;	/* the typedef (tp_btf) or FUNC */
	uint32_t proto_id;	/* its FUNC_PROTO; 0: not resolved */
	bool raw_tp;		/* tp_btf: the first `void *` is hidden */
};

struct vet_env {
	const struct bpfvet_program *prog;
	/* Target kernel BTF, NULL when none was given at open. */
	const struct btf *targ_btf;
	const struct btf_index *targ_index;	/* its name index, or NULL */
	struct attach_info attach;
	const struct bpfvet_insn *insns;
	uint32_t insn_cnt;
	const struct bpfvet_map *maps;
	size_t map_cnt;
	/* Special fields of each map's value, parallel to maps. */
	struct map_record *map_records;
	uint32_t prog_type;
	uint32_t expected_attach_type;
	uint32_t prog_flags;
	bool gpl;

	struct caps caps;
	bool bpf_capable;
	bool allow_ptr_leaks;
	bool allow_uninit_stack;
	bool bypass_spec_v1;
	bool bypass_spec_v4;
	bool strict_alignment;
	bool test_state_freq;
	bool test_reg_invariants;

	struct insn_aux *aux;
	struct subprog_info subprogs[MAX_SUBPROGS + 1];
	uint32_t subprog_cnt;

	struct vstate *cur;
	struct stack_elem *head;
	uint32_t stack_size;
	/* The newest pending paths are kept unpacked (check.c): how many,
	 * and the oldest of them. */
	uint32_t unpacked_cnt;
	struct stack_elem *pack_edge;
	uint32_t id_gen;
	uint32_t insn_idx;
	uint32_t prev_insn_idx;
	bool pass_cnt;

	struct state_list **explored;
	struct state_list *free_list;
	struct scc_visit *scc_visits;
	struct stack_live *slive;
	uint32_t *postorder;	/* per subprogram, subprogs[].postorder_start */

	struct idmap idmap;
	struct verifier_stats stats;
	struct vet_log log;

	/* Level-2 trace bookkeeping: what the current insn touched, and
	 * where its text line starts, so the state delta can follow it. */
	uint32_t scratched_regs;
	uint64_t scratched_slots;
	size_t prev_log_pos;
	size_t prev_insn_print_len;

	/* Jump-history entry of the current insn (index), or -1. */
	int cur_hist_idx;
	uint32_t max_tp_access;
	uint32_t nr_cpu_ids;
	/* Last line-info entry printed, to print source lines once. */
	int prev_linfo;

	/* Bytes the verifier holds for this program (alloc.c). */
	struct vet_mem mem;
	/* Freed frames kept with their stack arrays for the next state
	 * copies (state.c): most frames die and are born by the thousand. */
#define FRAME_POOL_MAX 64
	struct func_state *frame_pool[FRAME_POOL_MAX];
	uint32_t frame_pool_cnt;

	uint64_t opts_off;	/* BPFVET_NO_* switches */
	uint64_t opts_on;	/* beyond-kernel pruning (BPFVET_PRUNE_MAX bits) */
	struct reach *reach;	/* reach.c, with opts_on only */
	int err;		/* first fatal error (negative errno) */
	bool unsupported;	/* stopped at a feature bpfvet lacks */
};

#endif
