/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The verifier's vocabulary: register, stack, frame and path states, the
 * per-instruction auxiliary data, and the environment that owns everything
 * for one verification, with what operates on them alone: allocation,
 * copies and packing of states, registers, printing, the jump history's
 * formats, iterator slots, map value fields, and the target's rules as
 * this environment asks them (helper prototypes, context accesses). The
 * pre-passes (analysis.h), pruning (prune.h) and the walk (verifier.h)
 * build on it. It may use base/, domain/, loader/, rules/ and output/.
 */
#ifndef BPFVET_STATE_H
#define BPFVET_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "base/base.h"
#include "bpfvet.h"
#include "rules/rules.h"
#include "output/output.h"
#include "map_fields.h"
#include "fault.h"
#include "guide.h"
#include "loader/loader.h"
#include "domain/domain.h"
#include "base/uapi.h"

#define MAX_CALL_FRAMES		8
#define MAX_BPF_STACK		512
#define BPF_REG_SIZE		8
#define MAX_SUBPROGS		256
#define COMPLEXITY_LIMIT_INSNS	1000000
#define UNPRIV_MAX_INSNS	4096	/* BPF_MAXINSNS: unprivileged programs */
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
		struct {	/* stack slots holding irq flags */
			int kfunc_class;	/* enum irq_kfunc_class */
		} irq;
		uint64_t raw[2];
	};
	struct bounds b;	/* value of a scalar, variable offset of a pointer */
	uint32_t id;
	uint32_t ref_obj_id;
	int32_t subreg_def;
	/* A byte: 112 bytes a register, and every stack slot holds one. */
	uint8_t frameno;	/* owning frame of PTR_TO_STACK */
	bool precise;
};

struct stack_slot {
	struct reg_state spilled_ptr;
	uint8_t slot_type[BPF_REG_SIZE];
};

/*
 * A frame's stack is held in pages of 2 slots, and states share the pages
 * whose contents are equal: a checkpoint or a pending path keeps the page
 * of its parent checkpoint when nothing in it changed since (on pyperf600
 * and strobemeta, 98% of a new checkpoint's slots are its parent's, byte
 * for byte; small pages share the most, for 32 pointers a frame). A page
 * with more than one holder is read-only. Copies are private
 * (state_copy); a new checkpoint, and a queued path once its instruction
 * is over, then share what they can (state_share_pages). The current
 * state's pages are always its own, so the walk writes to them freely;
 * later writes to a checkpoint (precision marks, the cleaning of finished
 * checkpoints) call frame_own_slot() first. Slots of a page beyond
 * allocated_stack are zero.
 */
#define STACK_PAGE_SLOTS 2
#define STACK_PAGES (MAX_BPF_STACK / BPF_REG_SIZE / STACK_PAGE_SLOTS)

struct stack_page {
	uint32_t holders;
	struct stack_slot slot[STACK_PAGE_SLOTS];
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
	/* Registers and whole 8-byte stack slots written since the last
	 * checkpoint: 6.1 marks them "_w" in its log (REG_LIVE_WRITTEN). */
	uint16_t written_regs;
	uint64_t written_slots;
	/* allocated_stack / 8 slots in pages, slot 0 = fp-8 (stack_slot_at) */
	struct stack_page *pages[STACK_PAGES];
};
_Static_assert(offsetof(struct func_state, pages) + sizeof(((struct func_state *)0)->pages) ==
	       sizeof(struct func_state), "pages last: copies take the fields before them");

/* Slot spi of f's stack (spi < allocated_stack / 8). Writable only when
 * f belongs to the current state or frame_own_slot() said so. */
static inline struct stack_slot *stack_slot_at(const struct func_state *f, int spi)
{
	return &f->pages[spi / STACK_PAGE_SLOTS]->slot[spi % STACK_PAGE_SLOTS];
}

enum ref_kind {
	REF_TYPE_PTR = 1,
	REF_TYPE_IRQ = 2,
	REF_TYPE_LOCK = 4,
	REF_TYPE_RES_LOCK = 8,
	REF_TYPE_RES_LOCK_IRQ = 16,	/* taken with bpf_res_spin_lock_irqsave */
};
#define REF_TYPE_ANY_LOCK (REF_TYPE_LOCK | REF_TYPE_RES_LOCK | REF_TYPE_RES_LOCK_IRQ)

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
	/* --explore=join: the call chain's record (join_calls.c). */
	struct join_call *jcall;
};

/* Per-instruction facts, computed before and during the walk. One per
 * instruction (78,378 on pyperf600): flags are bits, and the fields go
 * widest first, so that it takes 48 bytes. */
struct insn_aux {
	/* The map a map helper call saw first (and call_map_poisoned: whether
	 * another came later, the kernel's poisoned map pointer). */
	const struct bpfvet_map *call_map;
	/* An allocated-object kfunc call (alloc_obj.c): the size and special
	 * fields of the type it was first seen with. */
	const void *alloc_meta;
	uint32_t alloc_size;
	uint32_t scc;
	uint32_t ptr_type;	/* base pointer type a load/store first used */
	int subprog;		/* owning subprogram */
	/* bpf_loop calls the kernel could inline: flags 0 and always the
	 * same callback, on every visit so far. */
	uint32_t loop_inline_cb;
	/* Unprivileged sanitation (spectre.c): the masking an add or sub
	 * needs, the same on every path, and whether a speculative path
	 * stops here behind a barrier (nospec). */
	uint32_t alu_state;
	uint32_t alu_limit;
	uint16_t live_regs_before;
	bool prune_point : 1;
	bool jmp_point : 1;
	bool force_checkpoint : 1;
	bool calls_callback : 1;
	bool seen : 1;
	bool is_iter_next : 1;
	bool loop_inline_seen : 1;
	bool loop_inline_fit : 1;
	bool call_map_poisoned : 1;
	bool alloc_seen : 1;
	bool nospec : 1;
};
_Static_assert(sizeof(struct insn_aux) <= 48 || sizeof(void *) > 8, "insn_aux grew");

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
struct struct_meta;
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
	uint32_t trace_len;	/* the explain trace's path length (trace.h) */
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
	/* Kept for bpfvet selfcheck from a joined walk: a site's summary or
	 * a loop trip, which every run reaching it must lie in. */
	bool summary;
	/* Its number among the walk's checkpoints (stats.total_states when
	 * it was made), and whether a joined walk dropped what its
	 * continuations reached (a loop started again): it prunes nothing. */
	uint64_t seq;
	bool stale;
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
	/* --explore=join (prune/sites.c) */
	uint64_t join_sites;
	uint64_t join_arrivals;
	uint64_t join_resumes;
	uint64_t join_loop_joins;	/* trips merged into a loop head */
	uint64_t join_call_reuses;	/* calls a summary answered */
	uint64_t join_call_widens;	/* callees walked with joined arguments */
};

/* The function a BTF-based program attaches to, in the target BTF
 * (btf_ctx.c): its prototype types the context. */
struct attach_info {
	const char *name;	/* as the kernel's messages name it */
	uint32_t btf_id;	/* the typedef (tp_btf) or FUNC */
	uint32_t proto_id;	/* its FUNC_PROTO; 0: not resolved */
	bool raw_tp;		/* tp_btf: the first `void *` is hidden */
	/* struct_ops: the kernel struct the program implements a member of
	 * (NULL when not known), the member's index there (what the kernel
	 * holds in expected_attach_type) and byte offset, and the arguments
	 * its stub function tags __nullable or __ref (bit i: argument i). */
	const char *st_name;
	uint32_t st_member;
	uint32_t st_moff;
	uint32_t st_nullable;
	uint32_t st_ref;
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
	/* The arena an LD_IMM64 associated with the program, or NULL. */
	const struct bpfvet_map *arena;
	/* Special fields of each map's value, parallel to maps. */
	struct map_record *map_records;
	/* The program's BTF as the kernel holds it (NULL without one, or
	 * when the kernel refused it), and the records of its structs that
	 * may be allocated objects (the kernel's btf_struct_metas), by id. */
	const struct btf *prog_btf;
	struct struct_meta *struct_metas;
	uint32_t struct_meta_cnt;
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
	/* A pointer moved by an unknown scalar: scalars then prune only
	 * when identical (spectre.c). */
	bool explore_alu_limits;
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
	/* Keep every checkpoint instead of freeing it (verify_keep(), for
	 * bpfvet selfcheck): freed ones are moved to kept. */
	bool keep_states;
	struct state_list *kept;
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

	/* A callback that kernels before 6.7 walk once, inline, when its
	 * helper call is done (calls.c): the callee and the caller's
	 * arguments, which the call clobbers before the walk enters it. */
	struct inline_callback {
		bool pending;
		uint32_t subprog;
		int kind;
		struct reg_state args[5];	/* R1..R5 at the call */
	} inline_cb;

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
	/* Precision walks done in the current state's own segment (the
	 * path since its last checkpoint), precision.c: a later walk that
	 * reaches one of their starting points needing no more than it did
	 * stops there. Valid while segment_gen is theirs: a checkpoint or
	 * another path resumed starts a new segment. */
#define BT_MEMO_MAX 4
	struct bt_memo {
		uint64_t gen;		/* 0: unused */
		uint32_t idx;		/* the instruction it started at */
		uint32_t hist_end;	/* history entries before that point */
		uint32_t frame;
		uint32_t regs[MAX_CALL_FRAMES];
		uint64_t slots[MAX_CALL_FRAMES];
	} bt_memo[BT_MEMO_MAX];
	uint32_t bt_memo_next;
	uint64_t segment_gen;
	/* The tcp_sock fields a tcp_congestion_ops program may write, as
	 * found in the target BTF at first use (struct_ops_rules.c); state
	 * 0: not looked up yet, 1: found, 2: missing. */
#define TCP_CA_FIELDS_MAX 16
	struct tcp_ca_field {
		uint32_t start, end;
		uint8_t state;
	} tcp_ca_fields[TCP_CA_FIELDS_MAX];
	/* kfunc_describe()'s answer per extern of the program, filled at
	 * first use (analysis/kfunc_table.c); NULL without kfunc calls. */
	struct kfunc_memo *kfunc_memo;
	/* Recent bounds_sync() results (domain/scalar.h), taken at the first
	 * ALU operation or branch that syncs; NULL before, or when that
	 * allocation failed (syncs then run in full). */
	struct bounds_memo *bounds_memo;

	uint64_t opts_off;	/* BPFVET_NO_* switches */
	uint64_t opts_on;	/* beyond-kernel pruning (BPFVET_PRUNE_MAX bits) */
	enum vet_fault fault;	/* FAULT_NONE but in tests of a checker */
	struct reach *reach;	/* reach.c, with opts_on only */
	/* --explore=join: asked for, and the sites of the current pass
	 * (prune/sites.c), NULL otherwise. */
	bool join_mode;
	struct join_walk *join;
	int err;		/* first fatal error (negative errno) */
	bool unsupported;	/* stopped at a feature bpfvet lacks */
	/* The kernel would refuse the load before its verifier runs, with
	 * this errno's text and an empty log: the verdict is "refused". */
	const char *refused;
	/* What explanations need of the walk (trace.h); NULL unless asked.
	 * Last: the accounted size of the env ends before it (verify.c). */
	struct vet_trace *trace;
	/* The concrete run the walk follows (guide.h); NULL but for
	 * bpfvet selfcheck. Not the verifier's memory either. */
	struct vet_guide *guide;
};

#define verbose(env, ...) log_printf(&(env)->log, __VA_ARGS__)

/* Whether the target kernel's verifier has a behaviour (rules/kver.h):
 * the version comes from the program's object, unknown (0) for raw
 * programs, which get the newest rules. */
static inline bool env_has(const struct vet_env *env, enum kver_feature f)
{
	return kver_has(env->prog && env->prog->obj ? env->prog->obj->target_kver : 0, f);
}

/* Whether the target's verifier follows a rule (rules/kver.h), which the
 * program's object says (bpfvet_open_opts.verifier_rules); none for raw
 * programs. */
static inline bool env_rule(const struct vet_env *env, enum krule r)
{
	return env->prog && env->prog->obj && (env->prog->obj->verifier_rules & r);
}

static inline struct func_state *cur_frame(const struct vet_env *env)
{
	return env->cur->frame[env->cur->curframe];
}

static inline struct reg_state *cur_regs(const struct vet_env *env)
{
	return cur_frame(env)->regs;
}

static inline int bpf_size_bytes(uint8_t code)
{
	static const int sizes[4] = { 4, 2, 1, 8 };

	return sizes[BPF_SIZE(code) >> 3];
}

/* state.c */
void frame_free(struct vet_env *env, struct func_state *f);
struct func_state *frame_take(struct vet_env *env);
void frame_pool_drain(struct vet_env *env);
void state_clear(struct vet_env *env, struct vstate *st);
int state_copy(struct vet_env *env, struct vstate *dst, const struct vstate *src);
/* Where frame fr of st stands: st->insn_idx for the top frame, else the
 * call site recorded in frame fr + 1. */
uint32_t state_frame_ip(const struct vstate *st, uint32_t fr);
/* The same frames, called from the same call sites. */
bool state_same_callsites(const struct vstate *a, const struct vstate *b);
int frame_grow_stack(struct vet_env *env, struct func_state *f, int size);
/* Drops a holder of a stack page (NULL: none). */
void stack_page_put(struct vet_env *env, struct stack_page *pg);
/* Takes st->parent's page wherever st's frame holds the same slots. For
 * a state that nothing writes to until it resumes (a checkpoint, a queued
 * path). */
void state_share_pages(struct vet_env *env, struct vstate *st);
/* Makes slot spi's page f's own, copying it when it is shared. */
int frame_own_slot(struct vet_env *env, struct func_state *f, int spi);
/* Makes every page of st's stacks its own: a state that becomes the
 * current one. */
int state_own_stacks(struct vet_env *env, struct vstate *st);
int state_push_history(struct vet_env *env, struct vstate *st, uint32_t idx, uint32_t prev_idx,
		       uint32_t flags, uint64_t linked_regs);
int ref_acquire(struct vet_env *env, int kind, uint32_t id, const void *ptr);
void ref_remove(struct vstate *st, uint32_t idx);
struct ref_state *ref_find(struct vstate *st, uint32_t id);

/* state_pack.c */
int state_pack(struct vet_env *env, struct vstate *st, uint64_t **packed);
int state_unpack(struct vet_env *env, struct vstate *st, const uint64_t *packed);
/* Lets go of the stack pages a packed block holds, from frame `from` on
 * (the frames before it were unpacked): a path dropped unresumed. */
void state_packed_release(struct vet_env *env, const struct vstate *st, const uint64_t *packed,
			  uint32_t from);

/* reg.c */
const char *reg_type_str(char *buf, size_t sz, uint32_t type);
/* reg_type_str() in the target kernel's words (ring buffer memory was
 * "alloc_mem" before KVER_MSG_RINGBUF_NAME). */
const char *reg_type_name(const struct vet_env *env, char *buf, size_t sz, uint32_t type);
void reg_mark_not_init(struct reg_state *reg);
void reg_mark_unknown(const struct vet_env *env, struct reg_state *reg);
void reg_mark_unknown_imprecise(struct reg_state *reg);
void reg_set_known(struct reg_state *reg, uint64_t v);
void reg_mark_known(struct reg_state *reg, uint64_t v);
/* The env's bounds_sync() memo, taken at first use; NULL without memory
 * (a memo is only a shortcut). */
struct bounds_memo *env_bounds_memo(struct vet_env *env);
void reg_mark_ptr(struct reg_state *reg, uint32_t type);
void frame_init(const struct vet_env *env, struct func_state *f, int callsite,
		uint32_t frameno, uint32_t subprogno);
bool reg_is_pointer(const struct vet_env *env, const struct reg_state *reg);
bool reg_type_is_pkt(uint32_t type);
bool reg_type_is_map(uint32_t type);
bool reg_type_is_sk_pointer(uint32_t type);
bool reg_type_is_spillable(uint32_t type);
bool reg_is_const(const struct reg_state *reg);
/* The scalar 0: NULL where a pointer is wanted. */
bool reg_is_null_scalar(const struct reg_state *reg);

/* print.c */
void print_reg(struct vet_env *env, uint32_t frameno, const struct reg_state *reg);
void print_frame(struct vet_env *env, const struct vstate *st,
		 const struct func_state *f, bool all);
void print_state(struct vet_env *env, const struct vstate *st);
void print_insn_state(struct vet_env *env);
void print_line_info(struct vet_env *env, uint32_t insn_idx);
/* The same, led by "IDX: " instead of "; " (the CFG's messages). */
void print_line_info_at(struct vet_env *env, uint32_t insn_idx, bool numbered);
const char *btf_type_name_of(struct vet_env *env, const void *btf, uint32_t id);

static inline void scratch_reg(struct vet_env *env, int regno)
{
	env->scratched_regs |= 1u << regno;
}

static inline void scratch_slot(struct vet_env *env, int spi)
{
	if (spi >= 0 && spi < 64)
		env->scratched_slots |= 1ull << spi;
}

static inline void scratch_all(struct vet_env *env)
{
	env->scratched_regs = ~0u;
	env->scratched_slots = ~0ull;
}

static inline void scratch_clear(struct vet_env *env)
{
	env->scratched_regs = 0;
	env->scratched_slots = 0;
}

/* Jump-history flags: which stack slot an instruction spilled or filled,
 * and whether a comparison's operands were stack pointers. */
#define HIST_FRAMENO_MASK	0x7u
#define HIST_SPI_SHIFT		3
#define HIST_SPI_MASK		0x3fu
#define HIST_STACK_ACCESS	(1u << 9)
#define HIST_DST_REG_STACK	(1u << 10)
#define HIST_SRC_REG_STACK	(1u << 11)
static inline uint32_t hist_stack_flags(uint32_t frameno, int spi)
{
	return HIST_STACK_ACCESS | (((uint32_t)spi & HIST_SPI_MASK) << HIST_SPI_SHIFT) |
	       (frameno & HIST_FRAMENO_MASK);
}


/* state.c: the registers and stack slots that share a scalar id at a
 * conditional jump, as the jump history records them for precision
 * tracking: packed into 64 bits, 6 entries of 10 bits and a count. */
#define MAX_LINKED_REGS 6
struct linked_reg {
	uint8_t frameno;
	uint8_t regno;		/* register number or stack slot index */
	bool is_reg;
};
struct linked_regs {
	int cnt;
	struct linked_reg e[MAX_LINKED_REGS];
};
uint64_t pack_linked_regs(const struct linked_regs *set);
void unpack_linked_regs(uint64_t v, struct linked_regs *set);

/* map_fields.c: special fields of map values (map_fields.h) */
int records_init(struct vet_env *env);
void records_free(struct vet_env *env);
const struct map_record *map_record_of(const struct vet_env *env,
				       const struct bpfvet_map *map);
bool map_has_field(const struct vet_env *env, const struct bpfvet_map *map, uint32_t mask);
/* The field of a kind in `mask` starting exactly at `off`, or NULL. */
const struct map_field *record_field_at(const struct map_record *rec, uint32_t off,
					uint32_t mask);
const struct map_field *map_field_at(const struct vet_env *env,
				     const struct bpfvet_map *map, uint32_t off,
				     uint32_t mask);
/* The first field of a kind in `mask`, or NULL. */
const struct map_field *record_field_of_type(const struct map_record *rec, uint32_t mask);
const struct map_field *map_field_of_type(const struct vet_env *env,
					  const struct bpfvet_map *map, uint32_t type);
/* The record of a program-BTF struct that may be an allocated object, or
 * NULL when the kernel keeps none for it (no special field). */
const struct map_record *struct_meta_record(const struct vet_env *env, const void *btf,
					    uint32_t btf_id);

/* Iterators are told apart by their struct bpf_iter_<kind> in the target
 * BTF (iter.btf, iter.btf_id). Without a target BTF only bpf_iter_num is
 * known: iter.btf is NULL then, and iter.btf_id ITER_NUM. */
enum iter_type { ITER_NUM = 1 };

enum iter_state { ITER_STATE_INVALID, ITER_STATE_ACTIVE, ITER_STATE_DRAINED };
const char *iter_type_str(const struct btf *btf, uint32_t btf_id);
const char *iter_state_str(int state);
/* iter.c: open-coded iterators */
int iter_slot_spi(struct vet_env *env, const struct func_state *f,
		  const struct reg_state *reg, int nr_slots, bool quiet);
bool iter_arg_active(struct vet_env *env, const struct vstate *cur);
bool iter_depths_differ(const struct vstate *old, const struct vstate *cur);

/* helper_env.c */
/*
 * The prototype the program may use (the kernel's get_func_proto for the
 * program's type, expected attach type and capabilities), or NULL when the
 * helper is not available to it ("program of this type cannot use helper").
 * Some program types get a different prototype for the same id (e.g.
 * bpf_get_stackid, bpf_perf_event_output, bpf_skb_load_bytes).
 */
const struct helper_proto *helper_proto_for(const struct vet_env *env, uint32_t id);

/* ctx_env.c */
/*
 * Is an access of `size` bytes at `off` (fixed offset, already including
 * the register's own offset) allowed for this program? `write` selects a
 * store. Returns true and fills `out` when allowed. Uses env->prog_type,
 * env->expected_attach_type and the capability switches in env.
 */
bool ctx_is_valid_access(const struct vet_env *env, int off, int size,
			 bool write, struct ctx_access *out);

/* Size of the program type's context, for helpers that take ctx memory. */
int ctx_size(const struct vet_env *env);

/* trace.c: the walk's trace for explanations */
#include "trace.h"

#endif
