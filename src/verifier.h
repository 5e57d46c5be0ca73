/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry points of the verifier's modules, shared among them. Each group is
 * implemented in the file named in its heading.
 */
#ifndef BPFVET_VERIFIER_H
#define BPFVET_VERIFIER_H

#include "env.h"
#include "helpers.h"

#define verbose(env, ...) log_printf(&(env)->log, __VA_ARGS__)

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
void frame_free(struct func_state *f);
void state_clear(struct vstate *st);
int state_copy(struct vstate *dst, const struct vstate *src);
int frame_grow_stack(struct func_state *f, int size);
int state_push_history(struct vstate *st, uint32_t idx, uint32_t prev_idx,
		       uint32_t flags, uint64_t linked_regs);
int ref_acquire(struct vet_env *env, int kind, uint32_t id, const void *ptr);
void ref_remove(struct vstate *st, uint32_t idx);
struct ref_state *ref_find(struct vstate *st, uint32_t id);

/* reg.c */
const char *reg_type_str(char *buf, size_t sz, uint32_t type);
void reg_mark_not_init(struct reg_state *reg);
void reg_mark_unknown(const struct vet_env *env, struct reg_state *reg);
void reg_mark_unknown_imprecise(struct reg_state *reg);
void reg_set_known(struct reg_state *reg, uint64_t v);
void reg_mark_known(struct reg_state *reg, uint64_t v);
void reg_mark_ptr(struct reg_state *reg, uint32_t type);
void frame_init(const struct vet_env *env, struct func_state *f, int callsite,
		uint32_t frameno, uint32_t subprogno);
bool reg_is_pointer(const struct vet_env *env, const struct reg_state *reg);
bool reg_type_is_pkt(uint32_t type);
bool reg_type_is_map(uint32_t type);
bool reg_type_is_sk_pointer(uint32_t type);
bool reg_type_is_spillable(uint32_t type);
bool reg_is_const(const struct reg_state *reg);

/* print.c */
void print_reg(struct vet_env *env, uint32_t frameno, const struct reg_state *reg);
void print_frame(struct vet_env *env, const struct vstate *st,
		 const struct func_state *f, bool all);
void print_state(struct vet_env *env, const struct vstate *st);
void print_insn_state(struct vet_env *env);
void print_line_info(struct vet_env *env, uint32_t insn_idx);
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

/* cfg.c */
int cfg_find_subprogs(struct vet_env *env);
int cfg_check_subprogs(struct vet_env *env);
int cfg_check_insns(struct vet_env *env);
int cfg_walk(struct vet_env *env);

/* mapref.c */
int maps_check_ldimm64(struct vet_env *env, uint32_t idx);
int check_ld_imm(struct vet_env *env, const struct bpfvet_insn *insn);
const struct bpfvet_map *insn_map(const struct vet_env *env, uint32_t idx);

/* check.c */
struct vstate *push_stack(struct vet_env *env, uint32_t insn_idx,
			  uint32_t prev_insn_idx, bool speculative);
void free_pending_paths(struct vet_env *env);
int do_check(struct vet_env *env);
int check_resource_leak(struct vet_env *env, bool check_lock, const char *prefix);

/* regcheck.c: operand reads and writes */
enum reg_arg_type { SRC_OP, DST_OP, DST_OP_NO_MARK };
int check_reg_arg(struct vet_env *env, uint32_t regno, enum reg_arg_type t);

/* alu.c */
int check_alu_op(struct vet_env *env, const struct bpfvet_insn *insn);

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
int check_reference_leak(struct vet_env *env, const char *prefix);
bool kfunc_is_iter_next(const struct vet_env *env, const struct bpfvet_insn *insn);

/* retval.c */
int check_return_code(struct vet_env *env, int regno, const char *reg_name);

/* prune.c */
int is_state_visited(struct vet_env *env, uint32_t insn_idx);
int push_jmp_history(struct vet_env *env, struct vstate *st, uint32_t flags,
		     uint64_t linked_regs);
int update_branch_counts(struct vet_env *env, struct vstate *st);
void free_explored_states(struct vet_env *env);

/* precision.c */
int mark_chain_precision(struct vet_env *env, int regno);

#endif
