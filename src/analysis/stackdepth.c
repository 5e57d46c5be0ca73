/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stack depth across calls, checked after the walk: the depths of the
 * frames on any static call chain must fit in 512 bytes (each rounded up
 * to 16 as the JIT lays them out; to 32, and at least 32, before 6.8).
 * Tracing programs' subprograms with 64 bytes or more get a private stack
 * (6.13) and are checked on their own. Tail
 * calls from deep call chains are refused.
 */
#include <errno.h>

#include "analysis.h"

#define PRIV_STACK_MIN_SIZE 64

/* Before KVER_STACK_ROUND_16 each frame counted as at least 1 byte,
 * rounded up to 32. */
static uint32_t rounded_depth(const struct vet_env *env, uint32_t depth)
{
	if (!env_has(env, KVER_STACK_ROUND_16))
		return ((depth ? depth : 1) + 31) / 32 * 32;
	return (depth + 15) / 16 * 16;
}

static bool prog_may_use_priv_stack(const struct vet_env *env)
{
	if (!env_has(env, KVER_PRIV_STACK))
		return false;
	for (uint32_t i = 0; i < env->subprog_cnt; i++)
		if (env->subprogs[i].has_tail_call)
			return false;
	switch (env->prog_type) {
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return true;
	default:
		return false;
	}
}

static bool is_call_or_func(const struct bpfvet_insn *insn)
{
	return (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_CALL) ||
	       (insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC);
}

struct depth_walk {
	int depth;
	uint32_t frame;
	uint32_t ret_insn[MAX_CALL_FRAMES];
	uint32_t ret_prog[MAX_CALL_FRAMES];
	bool tail_call_reachable;
};

/* Subprogram idx or one of the frames calling it is a callback. */
static bool in_callback(const struct vet_env *env, const struct depth_walk *w, uint32_t idx)
{
	if (env->subprogs[idx].is_cb)
		return true;
	for (uint32_t c = 0; c < w->frame; c++)
		if (env->subprogs[w->ret_prog[c]].is_cb)
			return true;
	return false;
}

/* Accounts subprogram idx entering a call chain; 0 or a negative errno. */
static int enter_subprog(struct vet_env *env, struct depth_walk *w, uint32_t idx,
			 bool priv_ok)
{
	struct subprog_info *sp = &env->subprogs[idx];
	uint32_t d = rounded_depth(env, sp->stack_depth);

	/* Linux 6.18 (seen, not read): a tail call in a subprogram that a
	 * callback calls, or in a callback called from another frame, is
	 * refused; one in an exception callback's own body is not. */
	if (w->frame && sp->has_tail_call && in_callback(env, w, idx)) {
		verbose(env, "cannot tail call within callback\n");
		return -EINVAL;
	}
	if (idx && sp->has_tail_call && w->depth >= 256) {
		verbose(env, "tail_calls are not allowed when call stack of previous frames is %d bytes. Too large\n",
			w->depth);
		return -EACCES;
	}
	if (!priv_ok)
		sp->priv_stack = false;
	else if (d >= PRIV_STACK_MIN_SIZE)
		sp->priv_stack = true;
	if (sp->priv_stack) {
		if (d > MAX_BPF_STACK) {
			verbose(env, "stack size of subprog %u is %u. Too large\n", idx, d);
			return -EACCES;
		}
		return 0;
	}
	w->depth += (int)d;
	if (w->depth > MAX_BPF_STACK) {
		verbose(env, "combined stack size of %u calls is %d. Too large\n", w->frame + 1,
			w->depth);
		return -EACCES;
	}
	return 0;
}

static int walk_from(struct vet_env *env, uint32_t idx, bool priv_ok)
{
	struct depth_walk w = { 0 };
	uint32_t i = env->subprogs[idx].start;
	int err;

	err = enter_subprog(env, &w, idx, priv_ok);
	if (err)
		return err;
	for (;;) {
		for (; i < env->subprogs[idx].end; i++) {
			const struct bpfvet_insn *insn = &env->insns[i];
			int sidx;

			if (kfunc_is_throw(env, insn) && in_callback(env, &w, idx)) {
				verbose(env, "bpf_throw kfunc (insn %u) cannot be called from callback subprog %u\n",
					i, idx);
				return -EINVAL;
			}
			if (!is_call_or_func(insn))
				continue;
			sidx = subprog_at(env, i + (uint32_t)insn->imm + 1);
			if (sidx < 0)
				return -EFAULT;
			if (env->subprogs[sidx].is_async_cb &&
			    !(insn->code == (BPF_JMP | BPF_CALL)))
				continue;
			if (env->subprogs[sidx].is_exception_cb) {
				/* 6.18 prints this one without a newline. */
				verbose(env, "insn %u cannot call exception cb directly", i);
				return -EINVAL;
			}
			w.ret_insn[w.frame] = i + 1;
			w.ret_prog[w.frame] = idx;
			i = env->subprogs[sidx].start;
			idx = (uint32_t)sidx;
			w.tail_call_reachable |= env->subprogs[idx].has_tail_call;
			if (++w.frame >= MAX_CALL_FRAMES) {
				verbose(env, "the call stack of %u frames is too deep !\n", w.frame);
				return -E2BIG;
			}
			err = enter_subprog(env, &w, idx, priv_ok);
			if (err)
				return err;
			i--;
		}
		if (w.tail_call_reachable)
			for (uint32_t j = 0; j < w.frame; j++) {
				if (env->subprogs[w.ret_prog[j]].is_exception_cb) {
					verbose(env, "cannot tail call within exception cb\n");
					return -EINVAL;
				}
				env->subprogs[w.ret_prog[j]].tail_call_reachable = true;
			}
		if (!w.frame)
			return 0;
		if (!env->subprogs[idx].priv_stack)
			w.depth -= (int)rounded_depth(env, env->subprogs[idx].stack_depth);
		w.frame--;
		i = w.ret_insn[w.frame];
		idx = w.ret_prog[w.frame];
	}
}

int check_max_stack_depth(struct vet_env *env)
{
	bool priv = prog_may_use_priv_stack(env);
	int err;

	/* Async callbacks first, so that subprograms they share with the
	 * main program keep the normal stack. */
	for (int i = (int)env->subprog_cnt - 1; i >= 0; i--) {
		if (i && !env->subprogs[i].is_async_cb)
			continue;
		err = walk_from(env, (uint32_t)i, !i && priv);
		if (err)
			return err;
	}
	return 0;
}
