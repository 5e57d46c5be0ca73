/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Static checks before the walk, in the kernel's order: subprogram
 * discovery, jump ranges and subprogram ends (the opcode table and LD_IMM64
 * references come next, in the walk's insn_check.c), then a depth-first
 * walk of the control-flow graph that rejects unreachable code and
 * (unprivileged) back-edges, and marks the prune points, jump points and
 * forced checkpoints used by state pruning.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "analysis.h"

/* The subprogram that starts at insn_idx, or -1. */
int subprog_at(const struct vet_env *env, uint32_t insn_idx)
{
	for (uint32_t i = 0; i < env->subprog_cnt; i++)
		if (env->subprogs[i].start == insn_idx)
			return (int)i;
	return -1;
}

bool insn_is_pseudo_call(const struct bpfvet_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) &&
	       insn->src_reg == BPF_PSEUDO_CALL;
}

static bool is_pseudo_func(const struct bpfvet_insn *insn)
{
	return insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
}

static bool is_kfunc_call(const struct bpfvet_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL) &&
	       insn->src_reg == BPF_PSEUDO_KFUNC_CALL;
}

static int cmp_subprog(const void *a, const void *b)
{
	const struct subprog_info *x = a, *y = b;

	return (x->start > y->start) - (x->start < y->start);
}

static int add_subprog(struct vet_env *env, int64_t off)
{
	uint32_t i;

	if (off < 0 || off >= env->insn_cnt) {
		verbose(env, "call to invalid destination\n");
		return -EINVAL;
	}
	for (i = 0; i < env->subprog_cnt; i++)
		if (env->subprogs[i].start == (uint32_t)off)
			return 0;
	if (env->subprog_cnt >= MAX_SUBPROGS) {
		verbose(env, "too many subprograms\n");
		return -E2BIG;
	}
	memset(&env->subprogs[env->subprog_cnt], 0, sizeof(env->subprogs[0]));
	env->subprogs[env->subprog_cnt++].start = (uint32_t)off;
	return 0;
}

/* Name subprogram boundaries from the program's relocation table, so that
 * logs and global-function handling can refer to them. */
static void attach_subprog_names(struct vet_env *env)
{
	const struct bpfvet_program *p = env->prog;

	for (uint32_t i = 0; i < env->subprog_cnt; i++) {
		for (size_t j = 0; j < p->subprog_cnt; j++) {
			if (p->subprogs[j].start != env->subprogs[i].start)
				continue;
			env->subprogs[i].name = p->subprogs[j].name;
			env->subprogs[i].is_global = p->subprogs[j].global && i;
			env->subprogs[i].btf_func_id = p->subprogs[j].btf_func_id;
		}
	}
}

int cfg_find_subprogs(struct vet_env *env)
{
	int64_t exccb;
	uint32_t i;
	int err;

	env->subprog_cnt = 0;
	err = add_subprog(env, 0);
	if (err)
		return err;
	for (i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (!insn_is_pseudo_call(insn) && !is_pseudo_func(insn) &&
		    !is_kfunc_call(insn))
			continue;
		if (!env->bpf_capable) {
			verbose(env, "loading/calling other bpf or kernel functions are allowed for CAP_BPF and CAP_SYS_ADMIN\n");
			return -EPERM;
		}
		if (is_kfunc_call(insn)) {
			err = kfunc_check_add(env, insn);
			if (err)
				return err;
			continue;
		}
		err = add_subprog(env, (int64_t)i + insn->imm + 1);
		if (err)
			return err;
	}
	err = exccb_find_start(env, &exccb);
	if (!err && exccb)
		err = add_subprog(env, exccb);
	if (err)
		return err;
	qsort(env->subprogs, env->subprog_cnt, sizeof(env->subprogs[0]),
	      cmp_subprog);
	for (i = 0; i < env->subprog_cnt; i++)
		env->subprogs[i].end = i + 1 < env->subprog_cnt ?
				       env->subprogs[i + 1].start : env->insn_cnt;
	/* Sentinel, as the kernel keeps one past the last subprogram. */
	env->subprogs[env->subprog_cnt].start = env->insn_cnt;
	attach_subprog_names(env);
	exccb_mark(env, exccb);
	return 0;
}

static bool is_jmp_class(uint8_t code)
{
	return BPF_CLASS(code) == BPF_JMP || BPF_CLASS(code) == BPF_JMP32;
}

int cfg_check_subprogs(struct vet_env *env)
{
	uint32_t cur = 0, i;

	for (i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];
		uint8_t code = insn->code;
		int64_t off;

		env->aux[i].subprog = (int)cur;
		if (code == (BPF_LD | BPF_ABS | BPF_B) || code == (BPF_LD | BPF_ABS | BPF_H) ||
		    code == (BPF_LD | BPF_ABS | BPF_W) || code == (BPF_LD | BPF_IND | BPF_B) ||
		    code == (BPF_LD | BPF_IND | BPF_H) || code == (BPF_LD | BPF_IND | BPF_W))
			env->subprogs[cur].has_ld_abs = true;
		if (insn->code == (BPF_JMP | BPF_CALL) && !insn->src_reg &&
		    insn->imm == HELPER_TAIL_CALL)
			env->subprogs[cur].has_tail_call = true;
		if (!is_jmp_class(code))
			goto next;
		if (BPF_OP(code) == BPF_CALL || BPF_OP(code) == BPF_EXIT)
			goto next;
		if (code == (BPF_JMP32 | BPF_JA))
			off = (int64_t)i + insn->imm + 1;
		else
			off = (int64_t)i + insn->off + 1;
		if (off < env->subprogs[cur].start || off >= env->subprogs[cur].end) {
			verbose(env, "jump out of range from insn %u to %lld\n",
				i, (long long)off);
			return -EINVAL;
		}
next:
		if (i + 1 == env->subprogs[cur].end) {
			if (code != (BPF_JMP | BPF_EXIT) &&
			    code != (BPF_JMP | BPF_JA) &&
			    code != (BPF_JMP32 | BPF_JA)) {
				verbose(env, "last insn is not an exit or jmp\n");
				return -EINVAL;
			}
			cur++;
		}
	}
	return 0;
}

/* ---------------------------------------------------------------- */
/* Depth-first walk                                                  */

enum { DISCOVERED = 0x10, EXPLORED = 0x20, FALLTHROUGH = 1, BRANCH = 2 };
enum { DONE_EXPLORING = 0, KEEP_EXPLORING = 1 };

struct cfg_walk {
	int *state;
	uint32_t *stack;
	uint32_t top;
};

static void mark_prune(struct vet_env *env, uint32_t i)
{
	env->aux[i].prune_point = true;
}

static void mark_jmp(struct vet_env *env, uint32_t i)
{
	env->aux[i].jmp_point = true;
}

/* loop_ok: whether the edge may close a loop. Before 6.2 only jumps'
 * edges could (the fall-through of a jump too); a plain instruction's or
 * a call's fall-through closing one was a back-edge. */
static int push_edge(struct vet_env *env, struct cfg_walk *w, uint32_t t,
		     int64_t to, int e, bool loop_ok)
{
	if (e == FALLTHROUGH && w->state[t] >= (DISCOVERED | FALLTHROUGH))
		return DONE_EXPLORING;
	if (e == BRANCH && w->state[t] >= (DISCOVERED | BRANCH))
		return DONE_EXPLORING;
	if (to < 0 || to >= env->insn_cnt) {
		verbose(env, "jump out of range from insn %u to %lld\n", t,
			(long long)to);
		return -EINVAL;
	}
	if (e == BRANCH) {
		mark_prune(env, (uint32_t)to);
		mark_jmp(env, (uint32_t)to);
	}
	if (w->state[to] == 0) {
		w->state[t] = DISCOVERED | e;
		w->state[to] = DISCOVERED;
		if (w->top >= env->insn_cnt)
			return -E2BIG;
		w->stack[w->top++] = (uint32_t)to;
		return KEEP_EXPLORING;
	}
	if ((w->state[to] & 0xf0) == DISCOVERED) {
		if (env->bpf_capable && (loop_ok || env_has(env, KVER_ANY_BACK_EDGE)))
			return DONE_EXPLORING;
		print_line_info_at(env, t, true);
		print_line_info_at(env, (uint32_t)to, true);
		verbose(env, "back-edge from insn %u to %lld\n", t, (long long)to);
		return -EINVAL;
	}
	w->state[t] = DISCOVERED | e;
	return DONE_EXPLORING;
}

static int visit_call(struct vet_env *env, struct cfg_walk *w, uint32_t t,
		      bool visit_callee)
{
	uint32_t sz = insn_is_ldimm64(&env->insns[t]) ? 2 : 1;
	int ret = push_edge(env, w, t, (int64_t)t + sz, FALLTHROUGH, false);

	if (ret)
		return ret;
	mark_prune(env, t + sz);
	mark_jmp(env, t + sz);
	if (visit_callee) {
		mark_prune(env, t);
		/* A callback may refer to its caller: not a loop. */
		ret = push_edge(env, w, t, (int64_t)t + env->insns[t].imm + 1,
				BRANCH, is_pseudo_func(&env->insns[t]));
	}
	return ret;
}

static int visit_helper_call(struct vet_env *env, uint32_t t)
{
	const struct bpfvet_insn *insn = &env->insns[t];

	if (insn->src_reg == 0 && helper_changes_pkt_data(insn->imm))
		env->subprogs[env->aux[t].subprog].changes_pkt_data = true;

	if ((insn->src_reg == 0 && helper_is_async_callback_calling(insn->imm)) ||
	    (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && kfunc_is_async_cb(env, insn)))
		mark_prune(env, t);
	if ((insn->src_reg == 0 && helper_is_sync_callback_calling(insn->imm)) ||
	    kfunc_is_sync_callback(env, insn)) {
		env->aux[t].calls_callback = true;
		env->aux[t].force_checkpoint = true;
		mark_prune(env, t);
		mark_jmp(env, t);
	}
	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && kfunc_is_iter_next(env, insn)) {
		mark_prune(env, t);
		env->aux[t].force_checkpoint = true;
	}
	return 0;
}

static int visit_insn(struct vet_env *env, struct cfg_walk *w, uint32_t t)
{
	const struct bpfvet_insn *insn = &env->insns[t];
	int64_t off;
	int ret;

	if (is_pseudo_func(insn))
		return visit_call(env, w, t, true);
	if (!is_jmp_class(insn->code))
		return push_edge(env, w, t, (int64_t)t + (insn_is_ldimm64(insn) ? 2 : 1),
				 FALLTHROUGH, false);
	switch (BPF_OP(insn->code)) {
	case BPF_EXIT:
		return DONE_EXPLORING;
	case BPF_CALL:
		visit_helper_call(env, t);
		return visit_call(env, w, t, insn->src_reg == BPF_PSEUDO_CALL);
	case BPF_JA:
		off = BPF_CLASS(insn->code) == BPF_JMP ? insn->off : insn->imm;
		ret = push_edge(env, w, t, (int64_t)t + off + 1, FALLTHROUGH, true);
		if (ret)
			return ret;
		mark_prune(env, (uint32_t)((int64_t)t + off + 1));
		mark_jmp(env, (uint32_t)((int64_t)t + off + 1));
		return ret;
	default:
		mark_prune(env, t);
		if (insn->code == (BPF_JMP | BPF_JCOND))
			env->aux[t].force_checkpoint = true;
		ret = push_edge(env, w, t, (int64_t)t + 1, FALLTHROUGH, true);
		if (ret)
			return ret;
		return push_edge(env, w, t, (int64_t)t + insn->off + 1, BRANCH, true);
	}
}

/* Depth-first from `root` over what is not explored yet. */
static int walk_from(struct vet_env *env, struct cfg_walk *w, uint32_t root)
{
	w->state[root] = DISCOVERED;
	w->stack[0] = root;
	w->top = 1;
	while (w->top > 0) {
		uint32_t t = w->stack[w->top - 1];
		int ret = visit_insn(env, w, t);

		if (ret < 0)
			return ret;
		if (ret == DONE_EXPLORING) {
			w->state[t] = EXPLORED;
			w->top--;
		}
	}
	return 0;
}

int cfg_walk(struct vet_env *env)
{
	struct cfg_walk w;
	int ret = 0;

	w.state = vet_calloc(env, env->insn_cnt, sizeof(*w.state));
	w.stack = vet_calloc(env, env->insn_cnt, sizeof(*w.stack));
	if (!w.state || !w.stack) {
		ret = -ENOMEM;
		goto out;
	}
	ret = walk_from(env, &w, 0);
	/* The exception callback runs although nothing calls it: its start
	 * is a second root, walked again even when already explored. */
	if (!ret && exccb_subprog(env))
		ret = walk_from(env, &w, env->subprogs[exccb_subprog(env)].start);
	if (ret < 0)
		goto out;
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		if (w.state[i] != EXPLORED) {
			verbose(env, "unreachable insn %u\n", i);
			ret = -EINVAL;
			goto out;
		}
		if (insn_is_ldimm64(&env->insns[i])) {
			if (w.state[i + 1] != 0) {
				verbose(env, "jump into the middle of ldimm64 insn %u\n", i);
				ret = -EINVAL;
				goto out;
			}
			i++;
		}
	}
	ret = 0;
out:
	vet_free(env, w.state);
	vet_free(env, w.stack);
	return ret;
}

/* A subprogram that calls one changing packet data changes it too. */
void cfg_propagate_pkt_changes(struct vet_env *env)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (uint32_t i = 0; i < env->insn_cnt; i++) {
			const struct bpfvet_insn *insn = &env->insns[i];
			struct subprog_info *caller = &env->subprogs[env->aux[i].subprog];
			int callee;

			if (!insn_is_pseudo_call(insn) || caller->changes_pkt_data)
				continue;
			callee = subprog_at(env, i + (uint32_t)insn->imm + 1);
			if (callee >= 0 && env->subprogs[callee].changes_pkt_data) {
				caller->changes_pkt_data = true;
				changed = true;
			}
		}
	}
}

/* Successors inside the subprogram: fall-through (if any) first, then the
 * jump target. Calls continue at the next instruction. */
int insn_successors(const struct vet_env *env, uint32_t i, uint32_t succ[2])
{
	const struct bpfvet_insn *insn = &env->insns[i];
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	bool jmp_class = cls == BPF_JMP || cls == BPF_JMP32;
	bool can_jump = jmp_class && op != BPF_CALL && op != BPF_EXIT;
	bool can_fall = !jmp_class || (op != BPF_EXIT && op != BPF_JA);
	int n = 0;

	if (can_fall)
		succ[n++] = i + (insn_is_ldimm64(insn) ? 2 : 1);
	if (can_jump)
		succ[n++] = (uint32_t)((int64_t)i + 1 +
				       (insn->code == (BPF_JMP32 | BPF_JA) ? insn->imm : insn->off));
	return n;
}

/* Depth-first post-order of each subprogram's instructions, successors
 * first: the order in which backward analyses visit instructions. */
int cfg_postorder(struct vet_env *env)
{
	uint32_t n = env->insn_cnt, cur = 0;
	uint32_t *stack = vet_calloc(env, n, sizeof(*stack));
	uint8_t *state = vet_calloc(env, n, 1);
	enum { SEEN = 1, DONE = 2 };

	env->postorder = vet_calloc(env, n, sizeof(*env->postorder));
	if (!stack || !state || !env->postorder) {
		vet_free(env, stack);
		vet_free(env, state);
		return -ENOMEM;
	}
	for (uint32_t sp = 0; sp < env->subprog_cnt; sp++) {
		uint32_t top_sz = 1;

		env->subprogs[sp].postorder_start = cur;
		stack[0] = env->subprogs[sp].start;
		while (top_sz) {
			uint32_t top = stack[top_sz - 1], succ[2];
			int cnt;

			state[top] |= SEEN;
			if (state[top] & DONE) {
				if (cur < n)
					env->postorder[cur++] = top;
				top_sz--;
				continue;
			}
			cnt = insn_successors(env, top, succ);
			for (int k = 0; k < cnt; k++) {
				if (succ[k] < n && !state[succ[k]] && top_sz < n) {
					stack[top_sz++] = succ[k];
					state[succ[k]] |= SEEN;
				}
			}
			state[top] |= DONE;
		}
	}
	env->subprogs[env->subprog_cnt].postorder_start = cur;
	vet_free(env, stack);
	vet_free(env, state);
	return 0;
}
