/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpf-to-bpf calls and callbacks. A call to a static subprogram pushes a
 * frame and verifies the callee in the caller's context; a call to a global
 * function only checks the arguments against its BTF prototype (the
 * function is verified once, on its own). Callbacks (bpf_loop,
 * bpf_for_each_map_elem, ...) are verified as loops: each return goes back
 * to the calling instruction, which queues another iteration until the
 * states converge.
 */
#include <errno.h>
#include <stdlib.h>

#include <string.h>

#include "verifier.h"

static const char *subprog_name(const struct vet_env *env, uint32_t i)
{
	return env->subprogs[i].name ? env->subprogs[i].name : "?";
}

static void clear_caller_saved(struct vet_env *env, struct reg_state *regs)
{
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++) {
		reg_mark_not_init(&regs[r]);
		scratch_reg(env, r);
	}
}

typedef int (*set_callee_fn)(struct vet_env *env, struct func_state *caller,
			     struct func_state *callee, uint32_t callsite);

static int set_callee_args(struct vet_env *env, struct func_state *caller,
			   struct func_state *callee, uint32_t callsite)
{
	(void)env;
	(void)callsite;
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
		callee->regs[r] = caller->regs[r];
	/* The arguments carry their write marks into the callee, as 6.1's
	 * copies of whole registers did. */
	callee->written_regs = caller->written_regs & 0x3e;
	return 0;
}

static int setup_frame(struct vet_env *env, uint32_t subprog, uint32_t callsite,
		       set_callee_fn set_state, struct vstate *st)
{
	struct func_state *caller, *callee;
	int err;

	if (st->curframe + 1 >= MAX_CALL_FRAMES) {
		verbose(env, "the call stack of %u frames is too deep\n", st->curframe + 2);
		return -E2BIG;
	}
	if (st->frame[st->curframe + 1]) {
		verbose(env, "verifier bug. Frame %u already allocated\n", st->curframe + 1);
		return -EFAULT;
	}
	caller = st->frame[st->curframe];
	callee = vet_calloc(env, 1, sizeof(*callee));
	if (!callee)
		return -ENOMEM;
	st->frame[st->curframe + 1] = callee;
	frame_init(env, callee, (int)callsite, st->curframe + 1, subprog);
	scratch_all(env);	/* a new frame shows in full, as in the kernel */
	err = set_state(env, caller, callee, callsite);
	if (err) {
		frame_free(env, callee);
		st->frame[st->curframe + 1] = NULL;
		return err;
	}
	st->curframe++;
	return 0;
}

static void print_call_frames(struct vet_env *env, const char *a, struct func_state *f1,
			      const char *b, struct func_state *f2)
{
	if (!log_enabled(&env->log))
		return;
	verbose(env, "%s", a);
	print_frame(env, env->cur, f1, true);
	verbose(env, "%s", b);
	print_frame(env, env->cur, f2, true);
}

/* Might a call of this instruction sleep? -1 when bpfvet cannot tell. */
static int call_might_sleep(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct helper_proto *fn;
	struct kfunc_desc k;

	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
		return kfunc_describe(env, insn, &k) || (k.btf && !k.row) ? -1 :
		       (k.flags & KF_SLEEPABLE) != 0;
	if (insn->src_reg == 0) {
		fn = helper_proto_for(env, (uint32_t)insn->imm);
		return fn ? fn->might_sleep : -1;
	}
	return 0;
}

/* Since 6.14 a global function may be called with preemption disabled
 * unless it, or a function it calls, might sleep: 1 when it might, -1
 * when bpfvet cannot tell. */
static int subprog_might_sleep(const struct vet_env *env, uint32_t subprog, int depth)
{
	const struct subprog_info *s = &env->subprogs[subprog];
	int r, callee;

	if (depth > MAX_CALL_FRAMES)
		return -1;
	for (uint32_t i = s->start; i < s->end; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (insn->code != (BPF_JMP | BPF_CALL))
			continue;
		if (insn->src_reg == BPF_PSEUDO_CALL) {
			callee = subprog_at(env, i + 1 + (uint32_t)insn->imm);
			r = callee < 0 ? -1 : subprog_might_sleep(env, (uint32_t)callee, depth + 1);
		} else {
			r = call_might_sleep(env, insn);
		}
		if (r)
			return r;
	}
	return 0;
}

static int call_global(struct vet_env *env, uint32_t subprog, int arg_err)
{
	struct func_state *caller = cur_frame(env);
	struct vstate *st = env->cur;

	if (st->active_locks) {
		verbose(env, "global function calls are not allowed while holding a lock,\n"
			     "use static function instead\n");
		return -EINVAL;
	}
	if (st->active_preempt_locks && !env_has(env, KVER_GLOBAL_CALL_PREEMPT)) {
		verbose(env, "global function calls are not allowed with preemption disabled,\n"
			     "use static function instead\n");
		return -EINVAL;
	}
	if (st->active_preempt_locks && subprog_might_sleep(env, subprog, 0))
		return unsupported(env, "global function that may sleep, called with preemption disabled");
	if (arg_err && !env_has(env, KVER_MSG_SUBPROG_NAMED)) {
		verbose(env, "Caller passes invalid args into func#%u\n", subprog);
		return arg_err;
	}
	if (arg_err) {
		verbose(env, "Caller passes invalid args into func#%u ('%s')\n", subprog,
			subprog_name(env, subprog));
		return arg_err;
	}
	verbose(env, "Func#%u ('%s') is global and assumed valid.\n", subprog,
		subprog_name(env, subprog));
	if (env->subprogs[subprog].changes_pkt_data && env_has(env, KVER_CALLS_CHANGE_PKT))
		clear_all_pkt_pointers(env);
	env->subprogs[subprog].called = true;
	clear_caller_saved(env, caller->regs);
	reg_mark_unknown(env, &caller->regs[BPF_REG_0]);
	return 0;
}

int check_func_call(struct vet_env *env, const struct bpfvet_insn *insn, uint32_t *insn_idx)
{
	uint32_t target = *insn_idx + (uint32_t)insn->imm + 1;
	struct func_state *caller = cur_frame(env);
	int sub = subprog_at(env, target), err;

	if (sub < 0) {
		verbose(env, "verifier bug. No program starts at insn %u\n", target);
		return -EFAULT;
	}
	err = check_subprog_call_args(env, (uint32_t)sub, caller->regs);
	if (err == -EFAULT)
		return err;
	if (env->subprogs[sub].is_global)
		return call_global(env, (uint32_t)sub, err);
	if (env->join) {
		/* 1: a summary answered the call, the path ends here. */
		err = join_call_reuse(env, (uint32_t)sub, *insn_idx);
		if (err)
			return err;
	}
	err = setup_frame(env, (uint32_t)sub, *insn_idx, set_callee_args, env->cur);
	if (!err && env->join)
		err = join_call_enter(env, (uint32_t)sub);
	if (err)
		return err;
	clear_caller_saved(env, caller->regs);
	stack_live_reset_chain(env);
	*insn_idx = env->subprogs[sub].start - 1;
	print_call_frames(env, "caller:\n", caller, "callee:\n", cur_frame(env));
	return 0;
}

/* ---------------------------------------------------------------- */
/* Callbacks                                                         */

static int set_loop_cb(struct vet_env *env, struct func_state *caller,
		       struct func_state *callee, uint32_t callsite)
{
	(void)env;
	(void)callsite;
	/* callback_fn(u32 index, void *ctx) */
	callee->regs[BPF_REG_1].type = SCALAR_VALUE;
	callee->regs[BPF_REG_2] = caller->regs[BPF_REG_3];
	for (int r = BPF_REG_3; r <= BPF_REG_5; r++)
		reg_mark_not_init(&callee->regs[r]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 1 };
	return 0;
}

static void set_map_reg(struct reg_state *reg, uint32_t type, const struct reg_state *map)
{
	reg_mark_ptr(reg, type);
	reg->map_ptr = map->map_ptr;
	reg->map_uid = map->map_uid;
	reg->map_meta = map->map_meta;
}

static bool map_iterable(const struct bpfvet_map *map)
{
	switch (map->type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
		return true;
	default:
		return false;
	}
}

static int set_map_elem_cb(struct vet_env *env, struct func_state *caller,
			   struct func_state *callee, uint32_t callsite)
{
	const struct reg_state *map = &caller->regs[BPF_REG_1];

	(void)callsite;
	if (!map->map_ptr || !map_iterable(map->map_ptr)) {
		verbose(env, "callback function not allowed for map\n");
		return -EOPNOTSUPP;
	}
	/* callback_fn(map, key, value, ctx) */
	set_map_reg(&callee->regs[BPF_REG_1], CONST_PTR_TO_MAP, map);
	set_map_reg(&callee->regs[BPF_REG_2], PTR_TO_MAP_KEY, map);
	set_map_reg(&callee->regs[BPF_REG_3], PTR_TO_MAP_VALUE, map);
	/* Linux 6.18 gives the element its own id (as a lookup result has). */
	callee->regs[BPF_REG_3].id = ++env->id_gen;
	callee->regs[BPF_REG_4] = caller->regs[BPF_REG_3];
	reg_mark_not_init(&callee->regs[BPF_REG_5]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 1 };
	return 0;
}

static int set_timer_cb(struct vet_env *env, struct func_state *caller,
			struct func_state *callee, uint32_t callsite)
{
	const struct reg_state *timer = &caller->regs[BPF_REG_1];

	(void)callsite;
	/* callback_fn(map, key, value), for timers and workqueues */
	set_map_reg(&callee->regs[BPF_REG_1], CONST_PTR_TO_MAP, timer);
	set_map_reg(&callee->regs[BPF_REG_2], PTR_TO_MAP_KEY, timer);
	set_map_reg(&callee->regs[BPF_REG_3], PTR_TO_MAP_VALUE, timer);
	/* Linux 6.18 gives the value an id, as for bpf_for_each_map_elem. */
	callee->regs[BPF_REG_3].id = ++env->id_gen;
	reg_mark_not_init(&callee->regs[BPF_REG_4]);
	reg_mark_not_init(&callee->regs[BPF_REG_5]);
	callee->in_async_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 0 };
	return 0;
}

/* A task work's callback: a timer's arguments, from the bpf_task_work
 * pointer (R2), and any int to return (6.18). */
static int set_task_work_cb(struct vet_env *env, struct func_state *caller,
			    struct func_state *callee, uint32_t callsite)
{
	const struct reg_state *tw = &caller->regs[BPF_REG_2];

	(void)callsite;
	set_map_reg(&callee->regs[BPF_REG_1], CONST_PTR_TO_MAP, tw);
	set_map_reg(&callee->regs[BPF_REG_2], PTR_TO_MAP_KEY, tw);
	set_map_reg(&callee->regs[BPF_REG_3], PTR_TO_MAP_VALUE, tw);
	callee->regs[BPF_REG_3].id = ++env->id_gen;
	reg_mark_not_init(&callee->regs[BPF_REG_4]);
	reg_mark_not_init(&callee->regs[BPF_REG_5]);
	callee->in_async_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ INT32_MIN, INT32_MAX };
	return 0;
}

static int set_find_vma_cb(struct vet_env *env, struct func_state *caller,
			   struct func_state *callee, uint32_t callsite)
{
	struct reg_state *vma = &callee->regs[BPF_REG_2];
	int id;

	(void)callsite;
	/* callback_fn(task, vma, ctx): the task is the helper's own first
	 * argument, the area a plain (untrusted) BTF pointer of vmlinux. */
	id = target_struct_id(env, "vm_area_struct");
	if (id <= 0)
		return unsupported(env, "bpf_find_vma callback without vm_area_struct in the target BTF");
	callee->regs[BPF_REG_1] = caller->regs[BPF_REG_1];
	reg_mark_ptr(vma, PTR_TO_BTF_ID);
	vma->btf = env->targ_btf;
	vma->btf_id = (uint32_t)id;
	callee->regs[BPF_REG_3] = caller->regs[BPF_REG_4];
	reg_mark_not_init(&callee->regs[BPF_REG_4]);
	reg_mark_not_init(&callee->regs[BPF_REG_5]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 1 };
	return 0;
}

static int set_user_ringbuf_cb(struct vet_env *env, struct func_state *caller,
			       struct func_state *callee, uint32_t callsite)
{
	struct reg_state *dynptr = &callee->regs[BPF_REG_1];

	(void)callsite;
	/* callback_fn(const struct bpf_dynptr *dynptr, ctx): the sample is a
	 * local dynptr the callback may read but neither release nor
	 * overwrite, hence a pointer to a constant dynptr rather than stack. */
	reg_mark_ptr(dynptr, CONST_PTR_TO_DYNPTR);
	dynptr->dynptr.kind = DYNPTR_TYPE_LOCAL;
	dynptr->dynptr.first_slot = true;
	/* Since 6.3 every dynptr has an id, for its slices to refer to. */
	if (env_has(env, KVER_DYNPTR_IDS))
		dynptr->id = ++env->id_gen;
	callee->regs[BPF_REG_2] = caller->regs[BPF_REG_3];
	for (int r = BPF_REG_3; r <= BPF_REG_5; r++)
		reg_mark_not_init(&callee->regs[r]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 1 };
	return 0;
}

static set_callee_fn callback_setter(enum callback_kind kind)
{
	switch (kind) {
	case CB_LOOP: return set_loop_cb;
	case CB_MAP_ELEM: return set_map_elem_cb;
	case CB_TIMER: return set_timer_cb;
	case CB_WQ: return set_timer_cb;	/* the same arguments */
	case CB_TASK_WORK: return set_task_work_cb;
	case CB_FIND_VMA: return set_find_vma_cb;
	case CB_USER_RINGBUF: return set_user_ringbuf_cb;
	case CB_RBTREE_ADD: return set_rbtree_add_cb;
	default: return NULL;
	}
}

/* An async callback starts later, in a fresh single-frame state; a
 * workqueue's or task work's runs in process context, where it may sleep. */
static int push_async_callback(struct vet_env *env, uint32_t insn_idx, uint32_t subprog,
			       set_callee_fn set_state, bool sleepable)
{
	struct func_state *caller = cur_frame(env), *callee;
	struct vstate *st;

	st = push_fresh_stack(env, env->subprogs[subprog].start, insn_idx);
	if (!st)
		return env->err ? env->err : -ENOMEM;
	st->in_sleepable = sleepable;
	callee = st->frame[0];
	frame_init(env, callee, -1, 0, subprog);
	scratch_all(env);
	callee->async_entry_cnt = caller->async_entry_cnt + 1;
	return set_state(env, caller, callee, insn_idx);
}

int push_callback_call(struct vet_env *env, const struct bpfvet_insn *insn,
		       uint32_t insn_idx, uint32_t subprog, enum callback_kind kind)
{
	set_callee_fn set_state = callback_setter(kind);
	struct func_state *caller = cur_frame(env);
	struct vstate *cb;
	int err;

	(void)insn;
	if (!set_state) {
		verbose(env, "verifier internal error: unknown callback kind %d\n", (int)kind);
		return -EFAULT;
	}
	err = check_subprog_call_args(env, subprog, caller->regs);
	if (err == -EFAULT)
		return err;
	env->subprogs[subprog].is_cb = true;
	if (kind == CB_TIMER || kind == CB_WQ || kind == CB_TASK_WORK) {
		env->subprogs[subprog].is_async_cb = true;
		return push_async_callback(env, insn_idx, subprog, set_state, kind != CB_TIMER);
	}
	if (!env_has(env, KVER_CALLBACK_ITERATION)) {
		env->inline_cb.pending = true;
		env->inline_cb.subprog = subprog;
		env->inline_cb.kind = kind;
		memcpy(env->inline_cb.args, &caller->regs[BPF_REG_1], sizeof(env->inline_cb.args));
		return 0;
	}
	cb = push_stack(env, env->subprogs[subprog].start, insn_idx, false);
	if (!cb)
		return env->err ? env->err : -ENOMEM;
	err = setup_frame(env, subprog, insn_idx, set_state, cb);
	if (err)
		return err;
	cb->callback_unroll_depth++;
	cb->frame[cb->curframe - 1]->callback_depth++;
	caller->callback_depth = 0;
	return 0;
}

/* Kernels before 6.7 walk a callback once, on the caller's path: the
 * helper call is done (R0 set, R1-R5 clobbered), the callee gets its
 * arguments from the registers as they were at the call, and its exit
 * returns after the call. */
int enter_inline_callback(struct vet_env *env, uint32_t *insn_idx)
{
	struct inline_callback *cb = &env->inline_cb;
	struct func_state *caller = cur_frame(env);
	struct reg_state after[5];
	int err;

	cb->pending = false;
	memcpy(after, &caller->regs[BPF_REG_1], sizeof(after));
	memcpy(&caller->regs[BPF_REG_1], cb->args, sizeof(after));
	err = setup_frame(env, cb->subprog, *insn_idx,
			  callback_setter((enum callback_kind)cb->kind), env->cur);
	memcpy(&caller->regs[BPF_REG_1], after, sizeof(after));
	if (err)
		return err;
	stack_live_reset_chain(env);
	*insn_idx = env->subprogs[cb->subprog].start - 1;
	print_call_frames(env, "caller:\n", caller, "callee:\n", cur_frame(env));
	return 0;
}

static int check_callback_r0(struct vet_env *env, struct func_state *callee)
{
	struct reg_state *r0 = &callee->regs[BPF_REG_0];
	int err;

	if (r0->type != SCALAR_VALUE) {
		verbose(env, "R0 not a scalar value\n");
		return -EACCES;
	}
	err = env_has(env, KVER_CALLBACK_ITERATION) ? mark_chain_precision(env, BPF_REG_0) : 0;
	if (err)
		return err;
	if (!retval_within(callee->callback_ret_range, r0, false)) {
		print_invalid_scalar(env, r0, callee->callback_ret_range, "At callback return",
				     "R0");
		return -EINVAL;
	}
	if (!env->aux[callee->callsite].calls_callback) {
		verbose(env, "BUG: in callback at %u, callsite %d !calls_callback\n",
			env->insn_idx, callee->callsite);
		return -EFAULT;
	}
	return 0;
}

int prepare_func_exit(struct vet_env *env, uint32_t *insn_idx)
{
	struct vstate *st = env->cur, *prev;
	struct func_state *callee = st->frame[st->curframe], *caller;
	bool in_cb = callee->in_callback_fn;
	int err;

	if (callee->regs[BPF_REG_0].type == PTR_TO_STACK) {
		verbose(env, "cannot return stack pointer to the caller\n");
		return -EINVAL;
	}
	caller = st->frame[st->curframe - 1];
	if (!in_cb && env->join)
		join_call_leave(env);
	if (in_cb) {
		err = check_callback_r0(env, callee);
		if (err)
			return err;
	} else {
		caller->regs[BPF_REG_0] = callee->regs[BPF_REG_0];
		/* R0 returns with its write mark, as 6.1 copied it whole. */
		caller->written_regs = (uint16_t)((caller->written_regs & ~1u) |
						  (callee->written_regs & 1u));
	}
	/* A callback returns to its call to run again; before 6.7 it ran
	 * once and returned after the call. */
	*insn_idx = (uint32_t)callee->callsite +
		    (in_cb && env_has(env, KVER_CALLBACK_ITERATION) ? 0 : 1);
	if (log_enabled(&env->log)) {
		verbose(env, "returning from callee:\n");
		print_frame(env, st, callee, true);
		verbose(env, "to caller at %u:\n", *insn_idx);
		print_frame(env, st, caller, true);
	}
	frame_free(env, callee);
	st->frame[st->curframe--] = NULL;
	stack_live_reset_chain(env);
	prev = in_cb && env_has(env, KVER_CALLBACK_ITERATION) ?
	       find_prev_entry(env, st, *insn_idx) : NULL;
	if (prev)
		widen_imprecise_scalars(env, prev, st);
	return 0;
}
