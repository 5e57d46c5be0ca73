/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The walk: every path of the program, instruction by instruction, over
 * the abstract state (state.h), with the pre-passes (analysis.h) and
 * pruning (prune.h) underneath; it may use every folder below it (not
 * kernel/). Entry points of its modules, shared among them; each group is
 * implemented in the file named in its heading. It offers
 * bpfvet_program__verify() (include/bpfvet.h) and, for tools and tests,
 * these entry points.
 */
#ifndef BPFVET_VERIFIER_H
#define BPFVET_VERIFIER_H

#include "prune/prune.h"

/* verify.c: bpfvet_program__verify() with the walk's trace collected
 * into trace (trace.h), which the caller owns; NULL collects nothing. */
int verify_traced(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		  struct bpfvet_result *res, struct vet_trace *trace);
/* verify.c: the walk of the main program along one concrete run, as its
 * guide (guide.h) says, with pruning off; res as for a verification (a
 * rejection is the walk's error on that path). -EINVAL without a guide's
 * visit and next. */
int verify_guided(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		  struct bpfvet_result *res, struct vet_guide *guide);

/* verify.c: a verification that keeps every checkpoint it stored, those
 * it evicted too, as they were when the walk dropped them (liveness
 * cleaning and precision marks applied), for a caller that asks
 * afterwards whether one subsumes a state of its own (states_equal(), in
 * its env). Figures as bpfvet_program__verify() gives them but mem_peak,
 * which counts what is kept. *kept is set when the walk ran (0 or
 * -ENOEXEC); kept_free() frees it. */
struct vet_kept {
	struct vet_env *env;		/* freed, but for its memory's owner */
	uint32_t *off;			/* insn_cnt + 1 */
	const struct vstate **by_insn;
	/* From a joined walk: the states are its summaries, and every run
	 * reaching one's instruction (and call chain) lies in one of them. */
	bool joined;
};
int verify_keep(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		struct bpfvet_result *res, struct vet_kept **kept);
/* The checkpoints kept at an instruction. */
const struct vstate *const *kept_at(const struct vet_kept *k, uint32_t insn, size_t *cnt);
void kept_free(struct vet_kept *k);

/* insn_check.c: opcodes and LD_IMM64 references, before the walk */
int check_insns(struct vet_env *env);

/* mapref.c */
int maps_check_ldimm64(struct vet_env *env, uint32_t idx);
int check_ld_imm(struct vet_env *env, const struct bpfvet_insn *insn);
const struct bpfvet_map *insn_map(const struct vet_env *env, uint32_t idx);

/* check.c */
struct vstate *push_stack(struct vet_env *env, uint32_t insn_idx,
			  uint32_t prev_insn_idx, bool speculative);
struct vstate *push_fresh_stack(struct vet_env *env, uint32_t insn_idx,
				uint32_t prev_insn_idx);
void free_pending_paths(struct vet_env *env);
int do_check(struct vet_env *env);
int check_resource_leak(struct vet_env *env, bool check_lock, const char *prefix);
int check_exit_leak(struct vet_env *env, bool exception_exit, bool check_lock,
		    const char *prefix);

/* regcheck.c: operand reads and writes */
enum reg_arg_type { SRC_OP, DST_OP, DST_OP_NO_MARK };
int check_reg_arg(struct vet_env *env, uint32_t regno, enum reg_arg_type t);
void clobber_caller_saved(struct vet_env *env);
/* An instruction's two operands in the kernel's order: the source register
 * (when the instruction reads one), then the destination as dst_t. */
int check_src_dst_args(struct vet_env *env, const struct bpfvet_insn *insn,
		       bool reads_src, enum reg_arg_type dst_t);

/* alu.c */
int check_alu_op(struct vet_env *env, const struct bpfvet_insn *insn);
/* Before a scalar is copied (mov, spill): give it an id to share, and
 * drop a "+const" link, which a copy cannot join. */
void assign_id_before_mov(struct vet_env *env, struct reg_state *src);

/* branch.c */
int check_cond_jmp_op(struct vet_env *env, const struct bpfvet_insn *insn,
		      uint32_t *insn_idx);

/* mem.c */
enum access_type { ACCESS_READ, ACCESS_WRITE };
int check_mem_access(struct vet_env *env, uint32_t insn_idx, uint32_t regno,
		     int off, int size, enum access_type t, int value_regno,
		     bool strict_alignment_once, bool is_ldsx);
int check_load_mem(struct vet_env *env, const struct bpfvet_insn *insn);
int check_store_reg(struct vet_env *env, const struct bpfvet_insn *insn);
int check_atomic(struct vet_env *env, const struct bpfvet_insn *insn);
int check_ld_abs(struct vet_env *env, const struct bpfvet_insn *insn);
int save_aux_ptr_type(struct vet_env *env, uint32_t type, bool allow_trust_mismatch);

/* calls.c */
int check_helper_call(struct vet_env *env, const struct bpfvet_insn *insn,
		      uint32_t *insn_idx);
int check_kfunc_call(struct vet_env *env, const struct bpfvet_insn *insn,
		     uint32_t *insn_idx);
int check_func_call(struct vet_env *env, const struct bpfvet_insn *insn,
		    uint32_t *insn_idx);
int prepare_func_exit(struct vet_env *env, uint32_t *insn_idx);
int check_reference_leak(struct vet_env *env, bool exception_exit);

/* retval.c */
int check_return_code(struct vet_env *env, int regno, const char *reg_name);

/* struct_ops_rules.c */
int struct_ops_check_member(struct vet_env *env);
/* The member's prototype and stub tags from the target BTF (btf_ctx_init). */
int struct_ops_ctx_init(struct vet_env *env);
/* A context argument the member's stub tags: its type and BTF id. */
bool struct_ops_tagged_arg(const struct vet_env *env, uint32_t arg, const struct btf_type *ptr,
			   uint32_t *reg_type, uint32_t *btf_id);
/* The struct's own retyping of a context pointer (sock -> tcp_sock). */
void struct_ops_ctx_promote(const struct vet_env *env, uint32_t reg_type, uint32_t *btf_id);
/* Whether the rules layer knows the helpers of the program's struct. */
bool struct_ops_helpers_known(const struct vet_env *env);
/* Unsupported when the member takes __ref arguments. */
int struct_ops_check_refs(struct vet_env *env);
/* A write through a BTF pointer, by the struct's own rule. */
int struct_ops_btf_write(struct vet_env *env, const struct reg_state *reg, int off, int size);
/* At the main program's exit: 1 when R0 is not checked (a void member),
 * 0 to check it as usual, < 0 on error. */
int struct_ops_check_return(struct vet_env *env, int regno, bool exception_cb);

/* branch.c */
void for_each_reg(struct vstate *st, void (*fn)(struct reg_state *, void *), void *arg);

/* regcheck.c */
int reg_bounds_sanity_check(struct vet_env *env, struct reg_state *reg, const char *ctx);

/* stack.c */
void tnum_str(char *buf, size_t sz, struct tnum t);
int stack_grow(struct vet_env *env, struct func_state *f, int size);
int check_stack_bounds(struct vet_env *env, uint32_t regno, int off, int size,
		       enum access_type t);
int check_stack_write(struct vet_env *env, uint32_t ptr_regno, int off, int size,
		      int value_regno, uint32_t insn_idx);
int check_stack_read(struct vet_env *env, uint32_t ptr_regno, int off, int size,
		     int dst_regno);
int stack_const_key(struct vet_env *env, const struct reg_state *key, uint32_t key_size,
		    int64_t *value);
int check_stack_range_init(struct vet_env *env, uint32_t regno, int off, int size,
			   bool zero_size_ok, enum access_type t, bool raw,
			   bool *raw_done);

/* mem.c (more) */
int check_mem_region(struct vet_env *env, uint32_t regno, int off, int size,
		     uint32_t limit, bool zero_ok);
int check_packet_access(struct vet_env *env, uint32_t regno, int off, int size,
			bool zero_ok);
bool may_access_direct_pkt_data(struct vet_env *env, enum access_type t);
int check_ptr_off_reg(struct vet_env *env, const struct reg_state *reg,
		      uint32_t regno, bool fixed_off_ok);
int check_load_mem_strict(struct vet_env *env, const struct bpfvet_insn *insn, bool strict);
int check_store_reg_strict(struct vet_env *env, const struct bpfvet_insn *insn, bool strict);
int check_ptr_alignment_strict(struct vet_env *env, const struct reg_state *reg, int size);
#define FLOW_KEYS_SIZE 56

/* What a helper or kfunc argument that reads a dynptr found (dynptr.c):
 * its id, reference and kind. */
struct dynptr_info {
	bool found;
	uint32_t id;
	uint32_t ref_obj_id;
	int kind;		/* DYNPTR_TYPE_* */
};

/* helper_call.c */
/* What the arguments of one helper call established. */
struct call_meta {
	const struct bpfvet_map *map_ptr;
	uint32_t map_uid;
	bool map_meta;
	uint32_t ref_obj_id;
	uint32_t release_regno;
	uint32_t subprogno;
	uint64_t msize_max_value;
	uint64_t mem_size;
	int func_id;
	bool raw_mode;
	bool pkt_access;
	/* Output buffer on the stack to mark as written after the call. */
	int raw_regno;
	int raw_size;
	/* Array map key known at verification time, or -1. */
	int64_t const_map_key;
	/* bpf_kptr_xchg: the kptr field the destination points to. */
	const struct map_field *kptr_field;
	/* Struct (target BTF id) a BTF pointer argument must point to when
	 * no helper names it: trusted arguments of global functions. */
	uint32_t arg_btf_id;
	/* bpf_per_cpu_ptr, bpf_this_cpu_ptr: the type (BTF and id) of the
	 * per-CPU variable passed, which the result points to. */
	const void *ret_btf;
	uint32_t ret_btf_id;
	/* ... and it is an RCU-protected per-CPU object (a percpu kptr): the
	 * result is this CPU's part of it, an allocated object. */
	bool ret_percpu_obj;
	/* The dynptr argument read, for bpf_dynptr_data's slice. */
	struct dynptr_info dynptr;
};
/* The argument's register type against what arg_type accepts. */
int check_reg_type(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		   const struct call_meta *meta);
int check_helper_mem_access(struct vet_env *env, uint32_t regno, int size,
			    enum access_type t, bool zero_ok, bool raw, bool *raw_done);
int release_reference(struct vet_env *env, uint32_t ref_obj_id);
int check_func_arg_reg_off(struct vet_env *env, const struct reg_state *reg,
			   uint32_t regno, uint32_t arg_type);

/* globals.c */
int check_subprog_call_args(struct vet_env *env, uint32_t sub, struct reg_state *regs);
int init_global_entry(struct vet_env *env, uint32_t sub, struct func_state *f);
void check_main_prototype(struct vet_env *env);
int check_btf_subprogs(struct vet_env *env);
void clear_all_pkt_pointers(struct vet_env *env);

/* calls.c: bpf-to-bpf calls and callbacks */
enum callback_kind {
	CB_LOOP, CB_MAP_ELEM, CB_TIMER, CB_FIND_VMA, CB_USER_RINGBUF, CB_WQ, CB_TASK_WORK,
	CB_RBTREE_ADD,
};
int push_callback_call(struct vet_env *env, const struct bpfvet_insn *insn,
		       uint32_t insn_idx, uint32_t subprogno, enum callback_kind kind);
/* Before 6.7 (KVER_CALLBACK_ITERATION): enter the callback noted by
 * push_callback_call, now that its helper call is done. */
int enter_inline_callback(struct vet_env *env, uint32_t *insn_idx);

/* maprules.c: map-specific rules */
const struct bpfvet_map *map_inner(const struct vet_env *env, const struct bpfvet_map *map);
bool map_has_timer_or_wq(const struct vet_env *env, const struct bpfvet_map *map);
bool map_has_spin_lock(const struct vet_env *env, const struct bpfvet_map *map);
bool reg_may_point_to_spin_lock(const struct vet_env *env, const struct reg_state *reg);
bool map_is_frozen_rdonly(const struct bpfvet_map *map);
bool map_lookup_may_be_non_null(const struct bpfvet_map *map);
/* Whether bpfvet knows the frozen contents at [off, off + size). */
bool map_const_known(const struct bpfvet_map *map, int off, int size);
int map_read_const(struct vet_env *env, const struct bpfvet_map *map, int off, int size,
		   bool is_ldsx, uint64_t *val);
int check_map_value_access(struct vet_env *env, uint32_t regno, int off, int size,
			   bool zero_ok, bool direct);
int check_map_kptr_access(struct vet_env *env, uint32_t insn_idx, int value_regno,
			  const struct map_field *f);
int check_map_prog_compatibility(struct vet_env *env, const struct bpfvet_map *map);
int resolve_map_arg_type(struct vet_env *env, const struct bpfvet_map *map, int func_id,
			 uint32_t *arg_type);

/* arena.c */
int arena_use_map(struct vet_env *env, const struct bpfvet_map *map);
bool prog_has_arena(const struct vet_env *env);
int arena_check_cast(struct vet_env *env, const struct bpfvet_insn *insn);
void arena_cast(struct vet_env *env, const struct bpfvet_insn *insn, struct reg_state *dst);
bool arena_alu(struct vet_env *env, struct reg_state *dst, const struct reg_state *src);
int arena_check_conversions(struct vet_env *env);

/* special_args.c: helper arguments that point at special fields */
int check_special_arg(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		      struct call_meta *meta);
int check_snprintf_call(struct vet_env *env);
/* A constant offset into a BTF map value at its field of `type` (FIELD_*),
 * named `what` in messages ("bpf_timer"). */
int check_map_field_arg(struct vet_env *env, uint32_t regno, uint32_t type, const char *what);
/* A lock of `kind` (REF_TYPE_LOCK, _RES_LOCK, _RES_LOCK_IRQ) taken or
 * dropped by the path; `word` is "bpf_spin" or "bpf_res_spin". */
int lock_take(struct vet_env *env, const struct reg_state *reg, int kind);
int lock_drop(struct vet_env *env, const struct reg_state *reg, int kind, const char *word);

/* map_compat.c: which maps each helper accepts */
int check_map_func_compatibility(struct vet_env *env, const struct bpfvet_map *map,
				 int func_id);
int record_func_map(struct vet_env *env, const struct bpfvet_map *map, int func_id);
int record_func_key(struct vet_env *env, const struct bpfvet_map *map, int func_id);
int check_tail_call_maps(struct vet_env *env);

/* sock_access.c: loads through socket pointers */
int check_sock_access(struct vet_env *env, uint32_t insn_idx, uint32_t regno, int off,
		      int size);
int sock_check_conversions(struct vet_env *env);

/* btf_ctx.c: the context of tracing and LSM programs */
bool btf_ctx_applies(const struct vet_env *env);
int btf_ctx_init(struct vet_env *env);
int check_btf_ctx_access(struct vet_env *env, int off, int size, enum access_type t,
			 int value_regno);
/* The attach target is known and returns void. */
bool btf_attach_returns_void(const struct vet_env *env);
/* The return range of the LSM hook; false when unknown or void. */
bool btf_lsm_retval_range(const struct vet_env *env, struct retval_range *r);

/* btf_iter.c: iterator programs' targets and buffers */
bool iter_target_known(const struct vet_env *env);
uint32_t iter_ctx_arg_type(const struct vet_env *env, uint32_t arg);
int check_buf_access(struct vet_env *env, uint32_t regno, int off, int size,
		     enum access_type t, int value_regno);
/* The same without a destination (helper memory arguments). */
int check_buf_region(struct vet_env *env, uint32_t regno, int off, int size,
		     enum access_type t);

/* btf_access.c: BTF-typed pointers */
bool reg_is_trusted(const struct reg_state *reg);
/* kptr.c: kptr fields of map values pointing to kernel structs */
int kptr_load(struct vet_env *env, int value_regno, const struct map_field *f);
int kptr_match_type(struct vet_env *env, uint32_t regno, const struct map_field *f);
int kptr_xchg_return(struct vet_env *env, const struct map_field *f, struct reg_state *r0);
/* wq.c: workqueues and task works */
struct kfunc_meta;
int process_async_field_arg(struct vet_env *env, uint32_t regno, uint32_t field,
			    struct kfunc_meta *meta);
int check_async_map_arg(struct vet_env *env, uint32_t regno, struct kfunc_meta *meta);
bool kfunc_sets_async_cb(const char *name);
int push_async_work_callback(struct vet_env *env, const struct bpfvet_insn *insn,
			     uint32_t insn_idx, const struct kfunc_desc *k, uint32_t subprog);
/* res_lock.c: resilient spin locks */
bool kfunc_is_res_lock(const char *name);
int process_res_lock_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno);
int push_res_lock_failure(struct vet_env *env, uint32_t insn_idx);
/* irq_flag.c: bpf_local_irq_save/restore's flag slot */
int process_irq_flag(struct vet_env *env, const char *kfunc, uint32_t regno, uint32_t insn_idx);
/* btf_write.c: a store through a BTF pointer */
int check_btf_write(struct vet_env *env, const struct reg_state *reg, int off, int size);
int check_ptr_to_btf_access(struct vet_env *env, uint32_t regno, int off, int size,
			    enum access_type t, int value_regno);
int check_ptr_to_map_access(struct vet_env *env, uint32_t regno, int off, int size,
			    enum access_type t, int value_regno);
void btf_ptr_set_struct(struct vet_env *env, struct reg_state *reg, const char *name);
/* Does a BTF pointer to `id` + `off` point to a `need_id` (nested at
 * offset 0 of `off` counts unless strict)? */
bool btf_struct_ids_match(struct vet_env *env, const void *btf, uint32_t id, int off,
			  uint32_t need_id, bool strict);
int check_btf_arg_type(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		       const struct call_meta *meta);
/* Id of the struct `name` in the target BTF; <= 0 when absent or there is
 * no target BTF. */
int target_struct_id(const struct vet_env *env, const char *name);
/* bpf_per_cpu_ptr, bpf_this_cpu_ptr: R0 points to the variable's type. */
int set_percpu_return_reg(struct vet_env *env, const struct helper_proto *fn,
			  const struct call_meta *meta, struct reg_state *r0);
int set_btf_return_reg(struct vet_env *env, const struct helper_proto *fn,
		       struct reg_state *r0);
/* The helper's own allowed() rule for the program's attach target. */
int check_helper_allowed(struct vet_env *env, const struct helper_proto *fn);
int ld_imm_ksym(struct vet_env *env, const struct bpfvet_insn *insn, struct reg_state *dst);
int ksym_check_ldimm64(struct vet_env *env, uint32_t idx);
bool ctx_has_conversion(const struct vet_env *env);

/* helper rules (helper_rules.c) */
const char *helper_name_or_unknown(uint32_t id);
bool helper_is_ptr_cast(int func_id);
bool helper_acquires(const struct helper_proto *fn, const struct bpfvet_map *map);
int check_helper_special_rules(struct vet_env *env, int func_id);

/* spectre.c: unprivileged sanitation */
struct sanitize_info {
	uint32_t alu_state;	/* what the first look at the operands saw */
	uint32_t alu_limit;
	bool mask_to_left;
	bool off_is_dst;	/* the kernel's offset register aliased dst */
};
int sanitize_ptr_alu(struct vet_env *env, const struct bpfvet_insn *insn,
		     const struct reg_state *ptr, const struct reg_state *off,
		     struct reg_state *dst, struct sanitize_info *info);
int sanitize_ptr_commit(struct vet_env *env, const struct bpfvet_insn *insn,
			struct reg_state *dst, const struct sanitize_info *info);
int sanitize_val_alu(struct vet_env *env, const struct bpfvet_insn *insn);
int push_speculative_other(struct vet_env *env, const struct bpfvet_insn *insn,
			   uint32_t insn_idx, int pred);
bool error_recoverable_with_nospec(int err);

/* unsupported.c */
int unsupported(struct vet_env *env, const char *what);

/* retval.c */
struct retval_rule;
int enforce_retval(struct vet_env *env, int regno, struct retval_range range,
		   bool is32, const char *ctx, const char *reg_name);
bool retval_within(struct retval_range r, const struct reg_state *reg, bool is32);
void print_invalid_scalar(struct vet_env *env, const struct reg_state *reg,
			  struct retval_range range, const char *ctx, const char *reg_name);

/* dynptr.c: dynamic pointers on the stack and constant ones. */
bool dynptr_modelled(const struct vet_env *env);
int dynptr_spi(struct vet_env *env, const struct reg_state *reg);
int destroy_dynptr_slot(struct vet_env *env, struct func_state *f, int spi);
/* arg_type: ARG_PTR_TO_DYNPTR with MEM_UNINIT (create), MEM_RDONLY (read
 * only) and a DYNPTR_TYPE_* kind to create or expect. */
int process_dynptr_arg(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		       uint32_t clone_ref_obj_id, struct dynptr_info *out);
int dynptr_check_owned(struct vet_env *env, uint32_t regno);
int dynptr_release(struct vet_env *env, uint32_t regno);

/* iter.c: open-coded iterators. Where the call's iterator lives, once R1
 * is checked. */
struct iter_arg {
	uint32_t frameno;
	int spi;
	uint32_t ref_obj_id;
};
int iter_process_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		     struct iter_arg *it);
int iter_process_next(struct vet_env *env, uint32_t insn_idx, const struct iter_arg *it);

/* kfunc_args.c, kfunc_ret.c: what the arguments of one kfunc call
 * established, and R0 from it. */
struct kfunc_meta {
	uint32_t ref_obj_id;
	uint32_t release_regno;
	bool const_found;	/* a __k or __szk argument */
	uint64_t const_value;
	uint64_t r0_size;	/* rdonly_buf_size / rdwr_buf_size */
	bool r0_rdonly;
	struct iter_arg it;
	struct dynptr_info dynptr;	/* the initialised dynptr argument */
	/* The allocated object argument (alloc_obj.c): its type, and whether
	 * the program owns it. */
	const void *arg_btf;
	uint32_t arg_btf_id;
	bool arg_owning_ref;
	/* The map of a workqueue, task work or map argument, for the next to
	 * match; the field (FIELD_*) and the register that named it. */
	const struct bpfvet_map *map_ptr;
	uint32_t map_uid;
	uint32_t map_field;
	uint32_t map_field_regno;
	bool has_callback;	/* a callback argument, its subprogram: */
	/* graph.c: the list head or tree root argument's field, and the
	 * callback subprogram (bpf_rbtree_add's `less`). */
	const struct map_field *graph_root;
	uint32_t subprogno;
};
int check_kfunc_args(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		     struct kfunc_meta *meta);
int set_kfunc_return(struct vet_env *env, const struct kfunc_desc *k, struct kfunc_meta *meta);
/* The size register after a memory argument, as helpers check it. */
int check_mem_size_pair(struct vet_env *env, uint32_t size_regno, enum access_type t);
int check_const_str(struct vet_env *env, uint32_t regno);
const char *prog_ctx_struct_name(uint32_t prog_type);
bool in_rcu_cs(const struct vet_env *env);

/* alloc_obj.c: objects of program-BTF structs from bpf_obj_new */
/* "verifier bug" or, before 6.17, "verifier internal error". */
const char *verifier_bug_prefix(const struct vet_env *env);
bool alloc_kfunc_modelled(const char *name);
/* bpf_obj_new, bpf_percpu_obj_new, bpf_refcount_acquire: R0 is an object. */
bool alloc_kfunc_returns_obj(const char *name);
bool reg_is_alloc_obj(const struct reg_state *reg);
/* The special fields of the object's struct, or NULL. */
const struct map_record *alloc_obj_record(const struct vet_env *env, const struct reg_state *reg);
/* R0 of the kfuncs that return objects; *ret_null: it may be NULL. */
int alloc_obj_set_return(struct vet_env *env, const struct kfunc_desc *k,
			 const struct kfunc_meta *meta, struct reg_state *r0, bool *ret_null);
/* After bpf_obj_drop's or bpf_percpu_obj_drop's release. */
int alloc_obj_drop_done(struct vet_env *env, const struct kfunc_meta *meta);
int alloc_obj_drop_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
		       struct kfunc_meta *meta);
int alloc_obj_refcounted_arg(struct vet_env *env, uint32_t regno, struct kfunc_meta *meta);
/* A helper's lock argument that points into an object. */
int alloc_obj_field_arg(struct vet_env *env, const struct reg_state *reg, uint32_t type,
			const char *what, int64_t off);
/* Before the walk of a load or store through an object. */
int alloc_obj_check_access(struct vet_env *env, const struct reg_state *reg, int off, int size,
			   enum access_type t);
/* graph.c: lists and red-black trees of allocated objects */
bool graph_kfunc_modelled(const char *name);
/* bpf_list_push_{front,back}_impl, bpf_rbtree_add_impl: R2 goes in. */
bool graph_kfunc_inserts(const char *name);
int graph_root_arg(struct vet_env *env, uint32_t regno, uint32_t field_type,
		   struct kfunc_meta *meta);
int graph_node_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
		   uint32_t field_type, struct kfunc_meta *meta);
/* After the arguments of an insertion: R2's owning reference is the
 * graph's, non-owning for the program. */
int graph_insert_node(struct vet_env *env, const struct kfunc_desc *k);
/* R0 of a kfunc returning a node of the root argument's graph. */
int graph_set_return(struct vet_env *env, const struct kfunc_meta *meta, struct reg_state *r0);
/* Then, unless it acquired a reference, a non-owning one. */
int graph_return_non_owning(struct vet_env *env, const struct kfunc_desc *k,
			    struct reg_state *r0);
/* bpf_spin_unlock: the non-owning references die with the lock. */
void graph_invalidate_non_owning(struct vet_env *env);
bool in_rbtree_lock_required_cb(const struct vet_env *env);
int set_rbtree_add_cb(struct vet_env *env, struct func_state *caller,
		      struct func_state *callee, uint32_t callsite);

#endif
