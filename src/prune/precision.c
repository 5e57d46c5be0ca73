/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Precision tracking. Every path state keeps a jump history: the
 * instructions reached non-linearly, with flags for stack spills and fills
 * and linked registers. mark_chain_precision() walks that history backwards
 * to find which earlier values an exact value depends on, and marks them
 * precise in the ancestor checkpoints. Unprivileged programs skip all of
 * this: their scalars are created precise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "prune.h"

#define REGMASK_ARGS 0x3eu	/* r1..r5 */

/* What still needs precision while walking backwards, per frame. */
struct backtrack {
	uint32_t frame;
	uint32_t regs[MAX_CALL_FRAMES];
	uint64_t slots[MAX_CALL_FRAMES];
};

static bool bt_empty(const struct backtrack *bt)
{
	uint64_t m = 0;

	for (uint32_t i = 0; i <= bt->frame; i++)
		m |= bt->regs[i] | bt->slots[i];
	return !m;
}

static void bt_set_frame_reg(struct backtrack *bt, uint32_t fr, uint32_t r)
{
	bt->regs[fr] |= 1u << r;
}

static void bt_clear_frame_reg(struct backtrack *bt, uint32_t fr, uint32_t r)
{
	bt->regs[fr] &= ~(1u << r);
}

static void bt_set_reg(struct backtrack *bt, uint32_t r)
{
	bt_set_frame_reg(bt, bt->frame, r);
}

static void bt_clear_reg(struct backtrack *bt, uint32_t r)
{
	bt_clear_frame_reg(bt, bt->frame, r);
}

static bool bt_is_frame_reg_set(const struct backtrack *bt, uint32_t fr, uint32_t r)
{
	return bt->regs[fr] & (1u << r);
}

static bool bt_is_reg_set(const struct backtrack *bt, uint32_t r)
{
	return bt_is_frame_reg_set(bt, bt->frame, r);
}

static void bt_set_frame_slot(struct backtrack *bt, uint32_t fr, uint32_t spi)
{
	bt->slots[fr] |= 1ull << spi;
}

static void bt_clear_frame_slot(struct backtrack *bt, uint32_t fr, uint32_t spi)
{
	bt->slots[fr] &= ~(1ull << spi);
}

static bool bt_is_frame_slot_set(const struct backtrack *bt, uint32_t fr, uint32_t spi)
{
	return bt->slots[fr] & (1ull << spi);
}

static int bt_subprog_enter(struct backtrack *bt)
{
	if (bt->frame + 1 >= MAX_CALL_FRAMES)
		return -EFAULT;
	bt->frame++;
	return 0;
}

static int bt_subprog_exit(struct backtrack *bt)
{
	if (bt->frame == 0)
		return -EFAULT;
	bt->frame--;
	return 0;
}

static void fmt_reg_mask(char *buf, size_t sz, uint32_t mask)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 32 && n < sz; i++)
		if (mask & (1u << i))
			n += (size_t)snprintf(buf + n, sz - n, "%sr%d", n ? "," : "", i);
}

static void fmt_stack_mask(char *buf, size_t sz, uint64_t mask)
{
	size_t n = 0;

	buf[0] = 0;
	for (int i = 0; i < 64 && n < sz; i++)
		if (mask & (1ull << i))
			n += (size_t)snprintf(buf + n, sz - n, "%s%d", n ? "," : "", -(i + 1) * 8);
}

int push_jmp_history(struct vet_env *env, struct vstate *st, uint32_t flags,
		     uint64_t linked_regs)
{
	/* Without pruning nothing reads the history; it would only grow. */
	if (env->opts_off & BPFVET_NO_PRUNE)
		return 0;
	if (env->cur_hist_idx >= 0 && st == env->cur &&
	    (uint32_t)env->cur_hist_idx < st->jmp_history_cnt) {
		struct jmp_history_entry *e = &st->jmp_history[env->cur_hist_idx];

		e->flags |= flags;
		e->linked_regs = linked_regs;
		return 0;
	}
	if (state_push_history(env, st, env->insn_idx, env->prev_insn_idx, flags, linked_regs))
		return -ENOMEM;
	env->cur_hist_idx = (int)st->jmp_history_cnt - 1;
	return 0;
}

static const struct jmp_history_entry *hist_entry(const struct vstate *st,
						  uint32_t hist_end, uint32_t idx)
{
	if (hist_end && st->jmp_history[hist_end - 1].idx == idx)
		return &st->jmp_history[hist_end - 1];
	return NULL;
}

/* Previous instruction on the path within st, or -1 at its start. */
static int64_t prev_insn_idx(const struct vstate *st, uint32_t idx, uint32_t *hist_end)
{
	uint32_t cnt = *hist_end;

	if (idx == st->first_insn_idx) {
		if (cnt == 0)
			return -1;
		if (cnt == 1 && st->jmp_history[0].idx == idx)
			return -1;
	}
	if (cnt && st->jmp_history[cnt - 1].idx == idx) {
		(*hist_end)--;
		return st->jmp_history[cnt - 1].prev_idx;
	}
	return (int64_t)idx - 1;
}

static void sync_linked(struct backtrack *bt, const struct jmp_history_entry *h)
{
	struct linked_regs set;
	const struct linked_reg *e = set.e;
	bool any = false;
	int cnt;

	if (!h || !h->linked_regs)
		return;
	unpack_linked_regs(h->linked_regs, &set);
	cnt = set.cnt;
	for (int i = 0; i < cnt && !any; i++)
		any = e[i].is_reg ? bt_is_frame_reg_set(bt, e[i].frameno, e[i].regno) :
				    bt_is_frame_slot_set(bt, e[i].frameno, e[i].regno);
	if (!any)
		return;
	for (int i = 0; i < cnt; i++) {
		if (e[i].is_reg)
			bt_set_frame_reg(bt, e[i].frameno, e[i].regno);
		else
			bt_set_frame_slot(bt, e[i].frameno, e[i].regno);
	}
}

static void log_backtrack_step(struct vet_env *env, const struct backtrack *bt, uint32_t idx)
{
	char regs[128], slots[512], text[256];

	fmt_reg_mask(regs, sizeof(regs), bt->regs[bt->frame]);
	fmt_stack_mask(slots, sizeof(slots), bt->slots[bt->frame]);
	if (disasm_prog_insn(env->prog, idx, !env->allow_ptr_leaks, text, sizeof(text)) < 0)
		text[0] = 0;
	verbose(env, "mark_precise: frame%u: regs=%s stack=%s before %u: %s\n", bt->frame,
		regs, slots, idx, text);
}

static int bt_exit(struct vet_env *env, int64_t subseq, struct backtrack *bt);

static int bt_call(struct vet_env *env, const struct bpfvet_insn *insn, uint32_t idx,
		   int64_t subseq, struct backtrack *bt)
{
	if (insn->src_reg == BPF_PSEUDO_CALL) {
		int sub = subprog_at(env, idx + (uint32_t)insn->imm + 1);

		if (sub < 0)
			return -EFAULT;
		if (env->subprogs[sub].is_global) {
			if (bt->regs[bt->frame] & REGMASK_ARGS)
				return -EFAULT;
			bt_clear_reg(bt, BPF_REG_0);
			return 0;
		}
		if (bt->regs[bt->frame] & ~REGMASK_ARGS || bt->slots[bt->frame])
			return -EFAULT;
		for (uint32_t r = BPF_REG_1; r <= BPF_REG_5; r++) {
			if (bt_is_reg_set(bt, r)) {
				bt_clear_reg(bt, r);
				bt_set_frame_reg(bt, bt->frame - 1, r);
			}
		}
		return bt_subprog_exit(bt);
	}
	if (((insn->src_reg == 0 && helper_is_sync_callback_calling(insn->imm)) ||
	     kfunc_is_sync_callback(env, insn)) && (int64_t)idx != subseq - 1) {
		if (bt->regs[bt->frame] & ~REGMASK_ARGS || bt->slots[bt->frame])
			return -EFAULT;
		bt->regs[bt->frame] &= ~REGMASK_ARGS;
		return bt_subprog_exit(bt);
	}
	if (insn->src_reg == 0 && insn->imm == HELPER_TAIL_CALL && (int64_t)idx != subseq - 1) {
		/* The subprogram was left by this tail call (check.c): back
		 * into its frame as through an exit; r0 then came from the
		 * called program, not from the subprogram. */
		int err = bt_exit(env, subseq, bt);

		bt_clear_reg(bt, BPF_REG_0);
		return err;
	}
	if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL && call_param_count(env, insn) < 0)
		return -EOPNOTSUPP;
	bt_clear_reg(bt, BPF_REG_0);
	if (bt->regs[bt->frame] & REGMASK_ARGS)
		return -EFAULT;
	return 0;
}

static int bt_exit(struct vet_env *env, int64_t subseq, struct backtrack *bt)
{
	bool from_call = subseq - 1 >= 0 &&
			 env->insns[subseq - 1].code == (BPF_JMP | BPF_CALL) &&
			 env->insns[subseq - 1].src_reg == BPF_PSEUDO_CALL;
	bool r0_precise = from_call && bt_is_reg_set(bt, BPF_REG_0);

	if (from_call && (bt->regs[bt->frame] & REGMASK_ARGS))
		return -EFAULT;
	bt_clear_reg(bt, BPF_REG_0);
	if (bt_subprog_enter(bt))
		return -EFAULT;
	if (r0_precise)
		bt_set_reg(bt, BPF_REG_0);
	return 0;
}

static int bt_jmp(struct vet_env *env, const struct bpfvet_insn *insn, uint32_t idx,
		  int64_t subseq, const struct jmp_history_entry *h, struct backtrack *bt)
{
	uint8_t op = BPF_OP(insn->code);

	if (op == BPF_CALL)
		return bt_call(env, insn, idx, subseq, bt);
	if (op == BPF_EXIT)
		return bt_exit(env, subseq, bt);
	if (BPF_SRC(insn->code) != BPF_X || op == BPF_JA || op == BPF_JCOND)
		return 0;
	if (!bt_is_reg_set(bt, insn->dst_reg) && !bt_is_reg_set(bt, insn->src_reg))
		return 0;
	if (!h || !(h->flags & HIST_SRC_REG_STACK))
		bt_set_reg(bt, insn->src_reg);
	if (!h || !(h->flags & HIST_DST_REG_STACK))
		bt_set_reg(bt, insn->dst_reg);
	return 0;
}

static bool is_atomic_fetch(const struct bpfvet_insn *insn)
{
	return BPF_CLASS(insn->code) == BPF_STX && BPF_MODE(insn->code) == BPF_ATOMIC &&
	       (insn->imm & BPF_FETCH) && insn->imm != BPF_LOAD_ACQ &&
	       insn->imm != BPF_STORE_REL;
}

static int bt_alu(const struct bpfvet_insn *insn, struct backtrack *bt, enum vet_fault fault)
{
	uint8_t op = BPF_OP(insn->code);

	if (!bt_is_reg_set(bt, insn->dst_reg) || op == BPF_END || op == BPF_NEG)
		return 0;
	if (op == BPF_MOV) {
		bt_clear_reg(bt, insn->dst_reg);
		if (BPF_SRC(insn->code) == BPF_X && insn->src_reg != BPF_REG_FP)
			bt_set_reg(bt, insn->src_reg);
		return 0;
	}
	if (BPF_SRC(insn->code) == BPF_X && insn->src_reg != BPF_REG_FP &&
	    fault != FAULT_PRECISE_ALU)
		bt_set_reg(bt, insn->src_reg);
	return 0;
}

static uint32_t hist_spi(uint32_t flags)
{
	return (flags >> HIST_SPI_SHIFT) & HIST_SPI_MASK;
}

static int backtrack_insn(struct vet_env *env, uint32_t idx, int64_t subseq,
			  const struct jmp_history_entry *h, struct backtrack *bt)
{
	const struct bpfvet_insn *insn = &env->insns[idx];
	uint8_t cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);
	int err = 0;

	if (insn->code == 0)
		return 0;
	if (env->log.level & LOG_LEVEL2)
		log_backtrack_step(env, bt, idx);
	sync_linked(bt, h);
	if (cls == BPF_ALU || cls == BPF_ALU64) {
		err = bt_alu(insn, bt, env->fault);
	} else if (cls == BPF_LDX || is_atomic_fetch(insn) ||
		   (cls == BPF_STX && mode == BPF_ATOMIC && insn->imm == BPF_LOAD_ACQ)) {
		uint32_t load_reg = insn->dst_reg;

		if (is_atomic_fetch(insn))
			load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 : insn->src_reg;
		if (!bt_is_reg_set(bt, load_reg))
			return 0;
		bt_clear_reg(bt, load_reg);
		if (!h || !(h->flags & HIST_STACK_ACCESS))
			return 0;
		bt_set_frame_slot(bt, h->flags & HIST_FRAMENO_MASK, hist_spi(h->flags));
	} else if (cls == BPF_STX || cls == BPF_ST) {
		uint32_t fr, spi;

		if (bt_is_reg_set(bt, insn->dst_reg))
			return -EOPNOTSUPP;
		if (!h || !(h->flags & HIST_STACK_ACCESS))
			return 0;
		fr = h->flags & HIST_FRAMENO_MASK;
		spi = hist_spi(h->flags);
		if (!bt_is_frame_slot_set(bt, fr, spi))
			return 0;
		bt_clear_frame_slot(bt, fr, spi);
		if (cls == BPF_STX)
			bt_set_reg(bt, insn->src_reg);
	} else if (cls == BPF_JMP || cls == BPF_JMP32) {
		err = bt_jmp(env, insn, idx, subseq, h, bt);
	} else if (cls == BPF_LD) {
		if (mode == BPF_IMM) {
			bt_clear_reg(bt, insn->dst_reg);
			return 0;
		}
		if (bt_is_reg_set(bt, insn->dst_reg))
			return -EOPNOTSUPP;
		if (subseq != (int64_t)idx + 1 && bt_subprog_enter(bt))
			return -EFAULT;
		return 0;
	}
	if (err)
		return err;
	sync_linked(bt, h);
	return 0;
}

int mark_all_precise_from(struct vet_env *env, struct vstate *st)
{
	if (env->log.level & LOG_LEVEL2)
		verbose(env, "mark_precise: frame%u: falling back to forcing all scalars precise\n",
			st->curframe);
	for (st = st->parent; st; st = st->parent) {
		for (uint32_t i = 0; i <= st->curframe; i++) {
			struct func_state *f = st->frame[i];

			for (int j = 0; j < BPF_REG_FP; j++) {
				struct reg_state *r = &f->regs[j];

				if (r->type != SCALAR_VALUE || r->precise)
					continue;
				r->precise = true;
				if (env->log.level & LOG_LEVEL2)
					verbose(env, "force_precise: frame%u: forcing r%d to be precise\n",
						i, j);
			}
			for (int j = 0; j < f->allocated_stack / BPF_REG_SIZE; j++) {
				struct reg_state *r = &stack_slot_at(f, j)->spilled_ptr;

				if (stack_slot_at(f, j)->slot_type[BPF_REG_SIZE - 1] != STACK_SPILL ||
				    r->type != SCALAR_VALUE || r->precise)
					continue;
				if (frame_own_slot(env, f, j))
					return -ENOMEM;
				stack_slot_at(f, j)->spilled_ptr.precise = true;
				if (env->log.level & LOG_LEVEL2)
					verbose(env, "force_precise: frame%u: forcing fp%d to be precise\n",
						i, -(j + 1) * 8);
			}
		}
	}
	return 0;
}

void mark_all_scalars_imprecise(struct vstate *st)
{
	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = st->frame[i];

		for (int j = 0; j < BPF_REG_FP; j++)
			if (f->regs[j].type == SCALAR_VALUE)
				f->regs[j].precise = false;
		for (int j = 0; j < f->allocated_stack / BPF_REG_SIZE; j++)
			if (stack_slot_at(f, j)->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL &&
			    stack_slot_at(f, j)->spilled_ptr.type == SCALAR_VALUE)
				stack_slot_at(f, j)->spilled_ptr.precise = false;
	}
}

/* Moves the requirements into checkpoint st; returns whether any mark
 * was newly set. */
static int mark_in_parent(struct vet_env *env, struct vstate *st, struct backtrack *bt)
{
	bool changed = false;

	for (int fr = (int)bt->frame; fr >= 0; fr--) {
		struct func_state *f = st->frame[fr];

		/* Only the set bits, lowest first. */
		for (uint32_t want = bt->regs[fr]; want; want &= want - 1) {
			uint32_t r = (uint32_t)__builtin_ctz(want);
			struct reg_state *reg;

			reg = &f->regs[r];
			if (reg->type != SCALAR_VALUE || reg->precise)
				bt_clear_frame_reg(bt, (uint32_t)fr, r);
			else
				reg->precise = changed = true;
		}
		for (uint64_t want = bt->slots[fr]; want; want &= want - 1) {
			uint32_t s = (uint32_t)__builtin_ctzll(want);
			struct stack_slot *slot;

			if (s >= (uint32_t)f->allocated_stack / BPF_REG_SIZE) {
				bt_clear_frame_slot(bt, (uint32_t)fr, s);
				continue;
			}
			slot = stack_slot_at(f, s);
			if (slot->slot_type[BPF_REG_SIZE - 1] != STACK_SPILL ||
			    slot->spilled_ptr.type != SCALAR_VALUE || slot->spilled_ptr.precise) {
				bt_clear_frame_slot(bt, (uint32_t)fr, s);
				continue;
			}
			/* The checkpoint's page may be shared. */
			if (frame_own_slot(env, f, (int)s))
				return -ENOMEM;
			stack_slot_at(f, s)->spilled_ptr.precise = changed = true;
		}
		if (env->log.level & LOG_LEVEL2) {
			char regs[128], slots[512];

			fmt_reg_mask(regs, sizeof(regs), bt->regs[fr]);
			fmt_stack_mask(slots, sizeof(slots), bt->slots[fr]);
			verbose(env, "mark_precise: frame%d: parent state regs=%s stack=%s: ", fr,
				regs, slots);
			print_frame(env, st, f, true);
		}
	}
	return changed;
}

/* Global function entry: its argument registers become precise there. */
static bool mark_global_args(struct vstate *st, struct backtrack *bt)
{
	if (st->curframe || !st->frame[0]->subprogno || st->frame[0]->callsite != -1 ||
	    bt->slots[0] || (bt->regs[0] & ~REGMASK_ARGS))
		return false;
	for (uint32_t r = 0; r < 32; r++) {
		if (!(bt->regs[0] & (1u << r)))
			continue;
		bt->regs[0] &= ~(1u << r);
		if (st->frame[0]->regs[r].type == SCALAR_VALUE)
			st->frame[0]->regs[r].precise = true;
	}
	return true;
}

/*
 * The memo of walks in the current segment (state.h). The walk below a
 * point depends only on what is needed there and on the history before
 * it, which later instructions only extend; precision marks only grow,
 * and the walk is monotone in what it needs. So a walk reaching the
 * starting point of an earlier, finished one, needing no more than that
 * one needed there, would mark nothing new: it stops. Off when each step
 * shows (the level-2 log, an explanation's trace) or when a caller wants
 * to know what changed.
 */
static bool memo_usable(const struct vet_env *env, const struct vstate *start, const bool *changed)
{
	return start == env->cur && !changed && !(env->log.level & LOG_LEVEL2) && !env->trace &&
	       env->fault == FAULT_NONE;
}

/* Walks are distributive: needing a and b walks as the walks of a and of
 * b do together. So what the walks from one point needed is pooled. */
static bool memo_covers(const struct vet_env *env, uint32_t idx, uint32_t hist_end,
			const struct backtrack *bt)
{
	uint32_t regs[MAX_CALL_FRAMES];
	uint64_t slots[MAX_CALL_FRAMES];
	bool any = false;

	/* Asked at every instruction a walk passes: the cheap test first,
	 * and the union built only where a walk started. */
	for (int k = 0; k < BT_MEMO_MAX; k++) {
		const struct bt_memo *m = &env->bt_memo[k];

		if (m->idx != idx || m->gen != env->segment_gen || m->hist_end != hist_end ||
		    m->frame != bt->frame)
			continue;
		if (!any) {
			memset(regs, 0, sizeof(regs));
			memset(slots, 0, sizeof(slots));
			any = true;
		}
		for (uint32_t fr = 0; fr <= bt->frame; fr++) {
			regs[fr] |= m->regs[fr];
			slots[fr] |= m->slots[fr];
		}
	}
	for (uint32_t fr = 0; any && fr <= bt->frame; fr++)
		if ((bt->regs[fr] & ~regs[fr]) || (bt->slots[fr] & ~slots[fr]))
			return false;
	return any;
}

static void memo_record(struct vet_env *env, const struct vstate *start, const struct backtrack *bt)
{
	struct bt_memo *m = &env->bt_memo[env->bt_memo_next++ % BT_MEMO_MAX];

	m->gen = env->segment_gen;
	m->idx = start->insn_idx;
	m->hist_end = start->jmp_history_cnt;
	m->frame = bt->frame;
	memcpy(m->regs, bt->regs, sizeof(m->regs));
	memcpy(m->slots, bt->slots, sizeof(m->slots));
}

static int backtrack_state(struct vet_env *env, struct vstate *st, uint32_t last,
			   int64_t *subseq, bool *skip_first, bool memo, struct backtrack *bt)
{
	uint32_t hist_end = st->jmp_history_cnt;
	int64_t i = last;
	int err;

	for (;;) {
		if (*skip_first) {
			*skip_first = false;
		} else {
			trace_precise(env, (uint32_t)i);
			err = backtrack_insn(env, (uint32_t)i, *subseq,
					     hist_entry(st, hist_end, (uint32_t)i), bt);
			if (err)
				return err;
		}
		if (bt_empty(bt) || (memo && memo_covers(env, (uint32_t)i, hist_end, bt)))
			return 1;
		*subseq = i;
		i = prev_insn_idx(st, (uint32_t)i, &hist_end);
		if (i < 0)
			return 0;
		if (i >= env->insn_cnt) {
			verbose(env, "BUG backtracking idx %lld\n", (long long)i);
			return -EFAULT;
		}
	}
}

static int walk_chain(struct vet_env *env, struct vstate *start, struct backtrack *bt,
		      bool *changed, bool memo);

static int mark_chain(struct vet_env *env, struct vstate *start, struct backtrack *bt,
		      bool *changed)
{
	bool memo = memo_usable(env, start, changed);
	struct backtrack need = *bt;
	int err;

	if (!env->bpf_capable || bt_empty(bt))
		return 0;
	err = walk_chain(env, start, bt, changed, memo);
	if (!err && memo)
		memo_record(env, start, &need);
	return err;
}

static int walk_chain(struct vet_env *env, struct vstate *start, struct backtrack *bt,
		      bool *changed, bool memo)
{
	struct vstate *st = start;
	int64_t last = start->insn_idx, first = start->first_insn_idx, subseq = -1;
	bool skip_first = true;
	int err;

	for (;;) {
		if (env->log.level & LOG_LEVEL2)
			verbose(env, "mark_precise: frame%u: last_idx %lld first_idx %lld subseq_idx %lld \n",
				bt->frame, (long long)last, (long long)first, (long long)subseq);
		if (last < 0) {
			if (mark_global_args(st, bt))
				return 0;
			verbose(env, "BUG backtracking func entry subprog %u\n",
				st->frame[0]->subprogno);
			return -EFAULT;
		}
		/* The memo is of the current segment only. */
		err = backtrack_state(env, st, (uint32_t)last, &subseq, &skip_first,
				      memo && st == start, bt);
		if (err == -EOPNOTSUPP) {
			memset(bt, 0, sizeof(*bt));
			return mark_all_precise_from(env, start);
		}
		if (err < 0)
			return err;
		if (err == 1)
			return 0;
		st = st->parent;
		if (!st)
			break;
		err = mark_in_parent(env, st, bt);
		if (err < 0)
			return err;
		if (err && changed)
			*changed = true;
		if (bt_empty(bt))
			return 0;
		subseq = first;
		last = (int64_t)(int32_t)st->last_insn_idx;
		first = st->first_insn_idx;
	}
	if (!bt_empty(bt)) {
		memset(bt, 0, sizeof(*bt));
		return mark_all_precise_from(env, start);
	}
	return 0;
}

int mark_chain_precision(struct vet_env *env, int regno)
{
	struct backtrack bt = { .frame = env->cur->curframe };

	if (regno < 0 || !env->bpf_capable || env->fault == FAULT_PRECISE_NONE ||
	    (env->opts_off & (BPFVET_NO_PRECISION | BPFVET_NO_PRUNE)))
		return 0;
	if (cur_regs(env)[regno].type != SCALAR_VALUE)
		return -EFAULT;
	/* A joined walk compares nothing by precision; only the kernel's
	 * checkpoints behind a crowded site need the marks. */
	if (env->join && !env->cur->parent)
		return 0;
	bt_set_reg(&bt, (uint32_t)regno);
	env->cur->insn_idx = env->insn_idx;
	return mark_chain(env, env->cur, &bt, NULL);
}

/* A spilled scalar the verifier relied on (a constant map key). */
int mark_slot_precision(struct vet_env *env, uint32_t frameno, int spi)
{
	struct backtrack bt = { .frame = env->cur->curframe };

	if (spi < 0 || !env->bpf_capable || env->fault == FAULT_PRECISE_NONE ||
	    (env->opts_off & (BPFVET_NO_PRECISION | BPFVET_NO_PRUNE)))
		return 0;
	if (env->join && !env->cur->parent)
		return 0;
	bt_set_frame_slot(&bt, frameno, (uint32_t)spi);
	env->cur->insn_idx = env->insn_idx;
	return mark_chain(env, env->cur, &bt, NULL);
}

/* After a prune hit: what the old state needed precise, the current
 * path must now provide precisely. */
int propagate_precision(struct vet_env *env, const struct vstate *old,
			struct vstate *cur, bool *changed)
{
	struct backtrack bt = { .frame = old->curframe };

	for (int fr = (int)old->curframe; fr >= 0; fr--) {
		const struct func_state *f = old->frame[fr];
		bool first = true;

		for (int i = 0; i < BPF_REG_FP; i++) {
			if (f->regs[i].type != SCALAR_VALUE || !f->regs[i].precise)
				continue;
			if ((env->log.level & LOG_LEVEL2) && first)
				verbose(env, "frame %d: propagating r%d", fr, i);
			else if (env->log.level & LOG_LEVEL2)
				verbose(env, ",r%d", i);
			bt_set_frame_reg(&bt, (uint32_t)fr, (uint32_t)i);
			first = false;
		}
		for (int i = 0; i < f->allocated_stack / BPF_REG_SIZE; i++) {
			const struct stack_slot *s = stack_slot_at(f, i);

			if (s->slot_type[BPF_REG_SIZE - 1] != STACK_SPILL ||
			    s->spilled_ptr.type != SCALAR_VALUE || !s->spilled_ptr.precise)
				continue;
			if (env->log.level & LOG_LEVEL2) {
				if (first)
					verbose(env, "frame %d: propagating fp%d", fr, (-i - 1) * 8);
				else
					verbose(env, ",fp%d", (-i - 1) * 8);
			}
			bt_set_frame_slot(&bt, (uint32_t)fr, (uint32_t)i);
			first = false;
		}
		if (!first && (env->log.level & LOG_LEVEL2))
			verbose(env, "\n");
	}
	if (env->opts_off & BPFVET_NO_PRECISION)
		return 0;
	return mark_chain(env, cur, &bt, changed);
}
