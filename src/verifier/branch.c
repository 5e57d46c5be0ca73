/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Conditional jumps: decide the branch statically when the operands settle
 * it, otherwise fork and narrow both sides — scalar bounds, linked scalars,
 * NULL checks of maybe-null pointers and packet ranges learned from
 * comparisons with pkt_end. Also may_goto, which forks a loop iteration.
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

/* Calls fn on every register and spilled register of every frame. */
void for_each_reg(struct vstate *st, void (*fn)(struct reg_state *, void *),
		  void *arg)
{
	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = st->frame[i];

		for (int r = 0; r < MAX_BPF_REG; r++)
			fn(&f->regs[r], arg);
		for (int s = 0; s < f->allocated_stack / BPF_REG_SIZE; s++)
			if (stack_slot_at(f, s)->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL)
				fn(&stack_slot_at(f, s)->spilled_ptr, arg);
	}
}

static struct reg_state *linked_reg_of(struct vstate *st, const struct linked_reg *e)
{
	struct func_state *f = st->frame[e->frameno];

	return e->is_reg ? &f->regs[e->regno] : &stack_slot_at(f, e->regno)->spilled_ptr;
}

static void collect_one(struct linked_regs *set, struct reg_state *reg,
			uint32_t id, uint32_t frameno, uint32_t n, bool is_reg)
{
	if (reg->type != SCALAR_VALUE || (reg->id & ~BPF_ADD_CONST) != id)
		return;
	if (set->cnt >= MAX_LINKED_REGS) {
		reg->id = 0;
		return;
	}
	set->e[set->cnt].frameno = (uint8_t)frameno;
	set->e[set->cnt].regno = (uint8_t)n;
	set->e[set->cnt].is_reg = is_reg;
	set->cnt++;
}

/* Registers a frame may still read at the branch: dead ones take no part
 * in the link (the kernel leaves them as they are). */
static uint16_t frame_live_regs(const struct vet_env *env, const struct vstate *st, uint32_t fr)
{
	if (env->opts_off & BPFVET_NO_LIVENESS)
		return 0xffff;
	return env->aux[state_frame_ip(st, fr)].live_regs_before;
}

static void collect_linked_regs(const struct vet_env *env, struct vstate *st, uint32_t id,
				struct linked_regs *set)
{
	id &= ~BPF_ADD_CONST;
	for (int i = (int)st->curframe; i >= 0; i--) {
		struct func_state *f = st->frame[i];
		uint16_t live = frame_live_regs(env, st, (uint32_t)i);

		for (int r = 0; r < BPF_REG_FP; r++)
			if (live & (1u << r))
				collect_one(set, &f->regs[r], id, (uint32_t)i, (uint32_t)r, true);
		/* Before 6.8 a branch narrowed registers alone. */
		for (int s = 0; env_has(env, KVER_SPILL_TRACKING) &&
				s < f->allocated_stack / BPF_REG_SIZE; s++)
			if (stack_slot_at(f, s)->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL)
				collect_one(set, &stack_slot_at(f, s)->spilled_ptr, id,
					    (uint32_t)i, (uint32_t)s, false);
	}
}

/* A scalar's offset from its link's base: 0 unless it is linked by a
 * "+const" (an offset left behind where the link was dropped is none). */
static int64_t link_off(const struct reg_state *r)
{
	return r->id & BPF_ADD_CONST ? r->off : 0;
}

static void sync_linked_regs(struct vstate *st, const struct reg_state *known,
			     const struct linked_regs *set)
{
	for (int i = 0; i < set->cnt; i++) {
		struct reg_state *reg = linked_reg_of(st, &set->e[i]);
		int32_t subreg_def, off;
		uint32_t id;
		struct bounds delta;

		if (reg->type != SCALAR_VALUE || reg == known)
			continue;
		if ((reg->id & ~BPF_ADD_CONST) != (known->id & ~BPF_ADD_CONST))
			continue;
		/* A 64-bit "+const" and a 32-bit one of the same base: neither
		 * says the other's upper half; the kernel leaves the pair. */
		if ((reg->id & BPF_ADD_CONST) && (known->id & BPF_ADD_CONST) &&
		    (reg->id & BPF_ADD_CONST) != (known->id & BPF_ADD_CONST))
			continue;
		subreg_def = reg->subreg_def;
		if (link_off(reg) == link_off(known)) {
			*reg = *known;
			reg->subreg_def = subreg_def;
			continue;
		}
		/* reg = known + (reg's delta - known's delta), keeping its own link */
		off = reg->off;
		id = reg->id;
		/* In 64 bits: 32-bit offsets of 32-bit links differ by more
		 * than an int32 holds (w7 += INT_MIN). */
		bounds_const(&delta, (uint64_t)(link_off(reg) - link_off(known)));
		*reg = *known;
		reg->off = off;
		reg->id = id;
		reg->subreg_def = subreg_def;
		/* A 32-bit link holds modulo 2^32, zero-extended. */
		scalar_alu(&reg->b, &delta, BPF_ADD,
			   ((reg->id | known->id) & BPF_ADD_CONST32) != 0, 0, NULL);
	}
}

/* ---------------------------------------------------------------- */
/* NULL checks                                                       */

static void mark_ptr_not_null(const struct vet_env *env, struct reg_state *reg)
{
	if (base_type(reg->type) == PTR_TO_MAP_VALUE && reg->map_ptr) {
		const struct bpfvet_map *map = reg->map_ptr;
		const struct bpfvet_map *inner = map_inner(env, map);

		if (inner) {
			reg->type = CONST_PTR_TO_MAP;
			reg->map_ptr = inner;
			reg->map_meta = true;
			if (map_has_timer_or_wq(env, inner))
				reg->map_uid = reg->id;
		} else if (map->type == BPF_MAP_TYPE_XSKMAP) {
			reg->type = PTR_TO_XDP_SOCK;
		} else if (map->type == BPF_MAP_TYPE_SOCKMAP ||
			   map->type == BPF_MAP_TYPE_SOCKHASH) {
			reg->type = PTR_TO_SOCKET;
		} else {
			reg->type = PTR_TO_MAP_VALUE;
		}
		return;
	}
	reg->type &= ~PTR_MAYBE_NULL;
}

struct null_mark {
	const struct vet_env *env;
	uint32_t id;
	bool is_null;
};

static void mark_one_ptr_or_null(struct reg_state *reg, void *arg)
{
	const struct null_mark *m = arg;

	if (!type_may_be_null(reg->type) || reg->id != m->id || !reg->id)
		return;
	if (reg->b.smin || reg->b.smax || !tnum_equals_const(reg->b.var_off, 0))
		return;
	if (m->is_null) {
		reg->type = SCALAR_VALUE;
		reg->id = 0;
		reg->ref_obj_id = 0;
		/* Unprivileged, the kernel's pointer kept the precise mark it
		 * got when the register was last cleared: the zero is precise. */
		if (!m->env->bpf_capable)
			reg->precise = true;
		return;
	}
	mark_ptr_not_null(m->env, reg);
	if (!reg_may_point_to_spin_lock(m->env, reg))
		reg->id = 0;
}

static void mark_ptr_or_null_regs(const struct vet_env *env, struct vstate *st,
				  uint32_t regno, bool is_null)
{
	struct reg_state *reg = &st->frame[st->curframe]->regs[regno];
	struct null_mark m = { .env = env, .id = reg->id, .is_null = is_null };

	if (reg->ref_obj_id && reg->ref_obj_id == reg->id && is_null) {
		/* Proven NULL: nothing was acquired on this path. */
		for (uint32_t i = 0; i < st->acquired_refs; i++) {
			if (st->refs[i].id == reg->id) {
				ref_remove(st, i);
				break;
			}
		}
	}
	for_each_reg(st, mark_one_ptr_or_null, &m);
}

/* ---------------------------------------------------------------- */
/* Packet pointers                                                   */

struct pkt_range_mark {
	uint32_t type;
	uint32_t id;
	int32_t range;
};

static void widen_pkt_range(struct reg_state *reg, void *arg)
{
	const struct pkt_range_mark *m = arg;

	if (reg->type == m->type && reg->id == m->id && reg->range < m->range)
		reg->range = m->range;
}

static void find_good_pkt_pointers(struct vstate *st, const struct reg_state *dst,
				   bool right_open)
{
	struct pkt_range_mark m = { .type = dst->type, .id = dst->id };

	if (dst->off < 0 || (dst->off == 0 && right_open))
		return;
	if (dst->b.umax > MAX_PACKET_OFF ||
	    dst->b.umax + (uint64_t)dst->off > MAX_PACKET_OFF)
		return;
	m.range = dst->off + (right_open ? 1 : 0);
	for_each_reg(st, widen_pkt_range, &m);
}

static void mark_pkt_end(struct vstate *st, uint32_t regno, bool beyond)
{
	struct reg_state *reg = &st->frame[st->curframe]->regs[regno];

	if (reg->type == PTR_TO_PACKET)
		reg->range = beyond ? BEYOND_PKT_END : AT_PKT_END;
}

static bool is_init_pkt_pointer(const struct reg_state *reg, uint32_t type)
{
	return reg->type == type && reg->off == 0 &&
	       tnum_equals_const(reg->b.var_off, 0);
}

/*
 * For `ptr OP end` (ptr a packet pointer, end its limit), returns in which
 * branch ptr <= end (or ptr < end when *strict) holds, as 1 = taken and
 * 0 = fall-through, and in which the pointer is at or beyond the end.
 */
static bool pkt_cmp_plan(uint8_t op, bool *good_taken, bool *strict)
{
	switch (op) {
	case BPF_JGT: *good_taken = false; *strict = false; return true;
	case BPF_JLT: *good_taken = true; *strict = true; return true;
	case BPF_JGE: *good_taken = false; *strict = true; return true;
	case BPF_JLE: *good_taken = true; *strict = false; return true;
	default: return false;
	}
}

static bool try_match_pkt_pointers(const struct bpfvet_insn *insn,
				   struct reg_state *dst, struct reg_state *src,
				   struct vstate *this_br, struct vstate *other_br)
{
	uint8_t op = BPF_OP(insn->code);
	bool good_taken, strict;
	struct reg_state *ptr;
	uint32_t ptr_regno;

	if (BPF_SRC(insn->code) != BPF_X || BPF_CLASS(insn->code) == BPF_JMP32)
		return false;
	if ((dst->type == PTR_TO_PACKET && src->type == PTR_TO_PACKET_END) ||
	    (dst->type == PTR_TO_PACKET_META && is_init_pkt_pointer(src, PTR_TO_PACKET))) {
		ptr = dst;
		ptr_regno = insn->dst_reg;
	} else if ((dst->type == PTR_TO_PACKET_END && src->type == PTR_TO_PACKET) ||
		   (is_init_pkt_pointer(dst, PTR_TO_PACKET) && src->type == PTR_TO_PACKET_META)) {
		/* end OP ptr is ptr SWAP(OP) end */
		ptr = src;
		ptr_regno = insn->src_reg;
		op = jmp_op_swap(op);
	} else {
		return false;
	}
	if (!pkt_cmp_plan(op, &good_taken, &strict))
		return false;
	find_good_pkt_pointers(good_taken ? other_br : this_br, ptr, strict);
	/* The other side: ptr > end (beyond) when good needed <=, else ptr >= end. */
	mark_pkt_end(good_taken ? this_br : other_br, ptr_regno, !strict);
	return true;
}

static int pkt_branch_taken(const struct reg_state *dst, const struct reg_state *src,
			    uint8_t op)
{
	const struct reg_state *pkt;

	if (src->type == PTR_TO_PACKET_END) {
		pkt = dst;
	} else if (dst->type == PTR_TO_PACKET_END) {
		pkt = src;
		op = jmp_op_swap(op);
	} else {
		return -1;
	}
	if (pkt->range >= 0)
		return -1;
	switch (op) {
	case BPF_JLE:
	case BPF_JGT:
		if (pkt->range == BEYOND_PKT_END)
			return op == BPF_JGT;
		break;
	case BPF_JLT:
	case BPF_JGE:
		if (pkt->range == BEYOND_PKT_END || pkt->range == AT_PKT_END)
			return op == BPF_JGE;
		break;
	}
	return -1;
}

static bool reg_not_null(const struct vet_env *env, const struct reg_state *reg)
{
	uint32_t t = reg->type;

	if (type_may_be_null(t))
		return false;
	/* A non-NULL base with an unbounded offset may still wrap to 0. */
	if (reg->b.smin <= -BPF_MAX_VAR_OFF || reg->b.smax >= BPF_MAX_VAR_OFF)
		return false;
	switch (base_type(t)) {
	case PTR_TO_SOCKET:
	case PTR_TO_TCP_SOCK:
	case PTR_TO_XDP_SOCK:
	case PTR_TO_BUF:
	case PTR_TO_MAP_VALUE:
	case PTR_TO_MAP_KEY:
	case PTR_TO_SOCK_COMMON:
		return true;
	case CONST_PTR_TO_MAP:
		return env_has(env, KVER_MAP_PTR_NOT_NULL);
	case PTR_TO_MEM:
		/* Untrusted memory read from a kernel struct may be NULL. */
		return !(t & PTR_UNTRUSTED);
	case PTR_TO_BTF_ID:
		return reg_is_trusted(reg);
	default:
		return false;
	}
}

static bool reg_const_in(const struct reg_state *reg, bool is32, uint64_t *v)
{
	if (reg->type != SCALAR_VALUE)
		return false;
	if (is32) {
		if (!tnum_subreg_is_const(reg->b.var_off))
			return false;
		*v = (uint32_t)reg->b.var_off.value;
		return true;
	}
	if (!tnum_is_const(reg->b.var_off))
		return false;
	*v = reg->b.var_off.value;
	return true;
}

static int is_branch_taken(const struct vet_env *env, const struct reg_state *r1,
			   const struct reg_state *r2, uint8_t op, bool is32)
{
	uint64_t v;

	if (reg_type_is_pkt(r1->type) || r1->type == PTR_TO_PACKET_END) {
		if ((reg_type_is_pkt(r2->type) || r2->type == PTR_TO_PACKET_END) && !is32)
			return pkt_branch_taken(r1, r2, op);
	}
	if (r1->type != SCALAR_VALUE || r2->type != SCALAR_VALUE) {
		if (!reg_const_in(r2, is32, &v)) {
			const struct reg_state *t = r1;

			op = jmp_op_swap(op);
			r1 = r2;
			r2 = t;
		}
		if (!reg_const_in(r2, is32, &v) || !reg_not_null(env, r1) || v)
			return -1;
		if (op == BPF_JEQ)
			return 0;
		if (op == BPF_JNE)
			return 1;
		return -1;
	}
	if (!env_has(env, KVER_BRANCH_RANGES))
		return scalar_branch_taken_by_const(&r1->b, &r2->b, op, is32);
	return scalar_branch_taken(&r1->b, &r2->b, op, is32);
}

/* An injected fault (fault.h): "r > K" taken learns r > K + 1. */
static void fault_refine_jgt(const struct vet_env *env, struct reg_state *t1,
			     const struct reg_state *t2, uint8_t op, bool is32)
{
	struct bounds k1;

	if (env->fault != FAULT_BRANCH_JGT || op != BPF_JGT || is32 ||
	    !tnum_is_const(t2->b.var_off) || t2->b.var_off.value == UINT64_MAX)
		return;
	bounds_const(&k1, t2->b.var_off.value + 1);
	scalar_branch_refine(&t1->b, &k1, BPF_JGT, false, NULL);
}

static int refine_scalars(struct vet_env *env, struct reg_state *t1,
			  struct reg_state *t2, struct reg_state *f1,
			  struct reg_state *f2, uint8_t op, bool is32)
{
	int err;

	if (f1->type != SCALAR_VALUE || f2->type != SCALAR_VALUE)
		return 0;
	/* Before 6.8 two unknown operands narrowed each other on equality
	 * alone, and "not equal" narrowed nothing. */
	if (!env_has(env, KVER_BRANCH_RANGES) && op != BPF_JEQ && op != BPF_JNE &&
	    !tnum_is_const(f1->b.var_off) && !tnum_is_const(f2->b.var_off))
		return 0;
	if (env->fault == FAULT_BRANCH_JEQ && op == BPF_JEQ) {
		struct reg_state *s1 = t1, *s2 = t2;

		t1 = f1, t2 = f2, f1 = s1, f2 = s2;
	}
	if (env_has(env, KVER_BRANCH_RANGES) || op != BPF_JEQ)
		scalar_branch_refine(&f1->b, &f2->b, jmp_op_negate(op), is32,
				     env_bounds_memo(env));
	if (env_has(env, KVER_BRANCH_RANGES) || op != BPF_JNE)
		scalar_branch_refine(&t1->b, &t2->b, op, is32, env_bounds_memo(env));
	fault_refine_jgt(env, t1, t2, op, is32);
	err = reg_bounds_sanity_check(env, t1, "true_reg1");
	if (!err)
		err = reg_bounds_sanity_check(env, t2, "true_reg2");
	if (!err)
		err = reg_bounds_sanity_check(env, f1, "false_reg1");
	if (!err)
		err = reg_bounds_sanity_check(env, f2, "false_reg2");
	return err;
}

static int check_may_goto(struct vet_env *env, const struct bpfvet_insn *insn,
			  uint32_t *insn_idx)
{
	struct vstate *prev, *queued;
	uint32_t idx = *insn_idx;

	if (insn->code != (BPF_JMP | BPF_JCOND) || insn->src_reg != BPF_MAY_GOTO ||
	    insn->dst_reg || insn->imm) {
		verbose(env, "invalid may_goto imm %d\n", insn->imm);
		return -EINVAL;
	}
	prev = find_prev_entry(env, env->cur->parent, idx);
	queued = push_stack(env, idx + 1, idx, false);
	if (!queued)
		return env->err ? env->err : -ENOMEM;
	queued->may_goto_depth++;
	if (prev)
		widen_imprecise_scalars(env, prev, queued);
	*insn_idx += (uint32_t)(int32_t)insn->off;
	return 0;
}

/* Operands of a comparison, with a constant stand-in for the K form. */
static int read_operands(struct vet_env *env, const struct bpfvet_insn *insn,
			 struct reg_state **dst, struct reg_state **src,
			 struct reg_state *fake, uint32_t *flags)
{
	struct reg_state *regs = cur_regs(env);
	int err;

	err = check_reg_arg(env, insn->dst_reg, SRC_OP);
	if (err)
		return err;
	*dst = &regs[insn->dst_reg];
	*flags = 0;
	if (BPF_SRC(insn->code) == BPF_X) {
		if (insn->imm) {
			verbose(env, "BPF_JMP/JMP32 uses reserved fields\n");
			return -EINVAL;
		}
		err = check_reg_arg(env, insn->src_reg, SRC_OP);
		if (err)
			return err;
		*src = &regs[insn->src_reg];
		if (!(reg_type_is_pkt((*dst)->type) && reg_type_is_pkt((*src)->type)) &&
		    reg_is_pointer(env, *src)) {
			verbose(env, "R%u pointer comparison prohibited\n", insn->src_reg);
			return -EACCES;
		}
		if ((*src)->type == PTR_TO_STACK)
			*flags |= HIST_SRC_REG_STACK;
	} else {
		if (insn->src_reg) {
			verbose(env, "BPF_JMP/JMP32 uses reserved fields\n");
			return -EINVAL;
		}
		reg_mark_known(fake, (uint64_t)(int64_t)insn->imm);
		fake->precise = false;
		*src = fake;
	}
	if ((*dst)->type == PTR_TO_STACK)
		*flags |= HIST_DST_REG_STACK;
	return 0;
}

static int follow_decided(struct vet_env *env, const struct bpfvet_insn *insn,
			  uint32_t *insn_idx, struct reg_state *dst,
			  struct reg_state *src, int pred)
{
	int err = 0;

	if (dst->type == SCALAR_VALUE)
		err = mark_chain_precision(env, insn->dst_reg);
	if (BPF_SRC(insn->code) == BPF_X && !err && src->type == SCALAR_VALUE)
		err = mark_chain_precision(env, insn->src_reg);
	if (err)
		return err;
	err = push_speculative_other(env, insn, *insn_idx, pred);
	if (err)
		return err;
	if (log_enabled(&env->log))
		print_insn_state(env);
	if (pred == 1)
		*insn_idx += (uint32_t)(int32_t)insn->off;
	return 0;
}

static void sync_both(struct vstate *this_br, struct vstate *other_br,
		      const struct bpfvet_insn *insn, uint32_t regno,
		      const struct linked_regs *set)
{
	struct reg_state *a = &this_br->frame[this_br->curframe]->regs[regno];
	struct reg_state *b = &other_br->frame[other_br->curframe]->regs[regno];

	(void)insn;
	if (a->type != SCALAR_VALUE || !a->id || a->id != b->id)
		return;
	sync_linked_regs(this_br, a, set);
	sync_linked_regs(other_br, b, set);
}

static void null_check_equal_ptrs(const struct vet_env *env, const struct bpfvet_insn *insn,
				  struct reg_state *regs, struct reg_state *other,
				  struct reg_state *dst, struct reg_state *src)
{
	uint8_t op = BPF_OP(insn->code);
	struct reg_state *eq;

	if (BPF_CLASS(insn->code) == BPF_JMP32 || BPF_SRC(insn->code) != BPF_X)
		return;
	if (src->type == SCALAR_VALUE || dst->type == SCALAR_VALUE)
		return;
	if (type_may_be_null(src->type) == type_may_be_null(dst->type) ||
	    base_type(src->type) == PTR_TO_BTF_ID ||
	    base_type(dst->type) == PTR_TO_BTF_ID)
		return;
	eq = op == BPF_JEQ ? other : op == BPF_JNE ? regs : NULL;
	if (!eq)
		return;
	if (type_may_be_null(src->type))
		mark_ptr_not_null(env, &eq[insn->src_reg]);
	else
		mark_ptr_not_null(env, &eq[insn->dst_reg]);
}

int check_cond_jmp_op(struct vet_env *env, const struct bpfvet_insn *insn,
		      uint32_t *insn_idx)
{
	struct vstate *this_br = env->cur, *other_br;
	struct reg_state *dst, *src, fake, fake2, *other_regs, *regs;
	struct linked_regs linked = { 0 };
	uint8_t op = BPF_OP(insn->code);
	bool is32 = BPF_CLASS(insn->code) == BPF_JMP32;
	uint32_t flags;
	int pred, err;

	if (op == BPF_JA || op > BPF_JCOND) {
		verbose(env, "invalid BPF_JMP/JMP32 opcode %x\n", op);
		return -EINVAL;
	}
	if (op == BPF_JCOND)
		return check_may_goto(env, insn, insn_idx);
	err = read_operands(env, insn, &dst, &src, &fake, &flags);
	if (err)
		return err;
	if (flags) {
		err = push_jmp_history(env, this_br, flags, 0);
		if (err)
			return err;
	}
	pred = is_branch_taken(env, dst, src, op, is32);
	if (pred >= 0)
		return follow_decided(env, insn, insn_idx, dst, src, pred);

	if (BPF_SRC(insn->code) == BPF_X && src->type == SCALAR_VALUE && src->id)
		collect_linked_regs(env, this_br, src->id, &linked);
	if (dst->type == SCALAR_VALUE && dst->id)
		collect_linked_regs(env, this_br, dst->id, &linked);
	if (linked.cnt > 1) {
		err = push_jmp_history(env, this_br, 0, pack_linked_regs(&linked));
		if (err)
			return err;
	}
	other_br = push_stack(env, *insn_idx + (uint32_t)(int32_t)insn->off + 1,
			      *insn_idx, false);
	if (!other_br)
		return env->err ? env->err : -EFAULT;
	other_regs = other_br->frame[other_br->curframe]->regs;
	regs = cur_regs(env);
	if (BPF_SRC(insn->code) == BPF_X) {
		err = refine_scalars(env, &other_regs[insn->dst_reg],
				     &other_regs[insn->src_reg], dst, src, op, is32);
	} else {
		fake2 = fake;
		err = refine_scalars(env, &other_regs[insn->dst_reg], &fake,
				     dst, &fake2, op, is32);
	}
	if (err)
		return err;
	if (BPF_SRC(insn->code) == BPF_X)
		sync_both(this_br, other_br, insn, insn->src_reg, &linked);
	sync_both(this_br, other_br, insn, insn->dst_reg, &linked);
	if (env_has(env, KVER_JEQ_INFER_NOT_NULL))
		null_check_equal_ptrs(env, insn, regs, other_regs, dst, src);

	if (!is32 && BPF_SRC(insn->code) == BPF_K && insn->imm == 0 &&
	    (op == BPF_JEQ || op == BPF_JNE) && type_may_be_null(dst->type)) {
		mark_ptr_or_null_regs(env, this_br, insn->dst_reg, op == BPF_JNE);
		mark_ptr_or_null_regs(env, other_br, insn->dst_reg, op == BPF_JEQ);
	} else if (!try_match_pkt_pointers(insn, dst, &regs[insn->src_reg], this_br,
					   other_br) &&
		   reg_is_pointer(env, dst)) {
		verbose(env, "R%u pointer comparison prohibited\n", insn->dst_reg);
		return -EACCES;
	}
	if (log_enabled(&env->log))
		print_insn_state(env);
	return 0;
}
