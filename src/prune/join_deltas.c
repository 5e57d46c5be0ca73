/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the trips of a merged loop do to its head's values (--explore=join).
 *
 * The kernel's scalar links ("id + const") show a counter moving by a
 * constant only while it stays in one register chain: a spill or a copy
 * of a linked value starts a new link, a step by a range (w2 += w3, w3 in
 * [3, 7]) has none, and pointers have no links at all. So at the end of a
 * pass, a small analysis of its own runs over the instructions of the
 * loop body that the pass walked, with what the walk saw at each (the
 * facts, join_facts.c): where a memory access or a call reached into the
 * frame's stack, and which values an added register took. Each register
 * and stack slot of the loop's frame is followed as "the head's value of
 * location k
 * plus a number in [lo, hi]" (in 64 bits, or in the low 32 bits), through
 * moves, adds and subtractions of constants or of registers whose values
 * the walk bounded, spills and fills at fixed stack offsets; anything
 * else makes it unknown. Paths meet by the hull of their intervals.
 *
 * Why it is sound. The analysis reads concrete semantics (a register's
 * bits, a stack slot's eight bytes), not the verifier's links, so it does
 * not depend on what the walk pruned or merged; only on seeing every
 * instruction a trip from the head's summary can run, with facts that
 * hold for every such run. The walk of a pass visits every instruction
 * reachable from the summary and records its facts from states that
 * contain every concrete state there. Where the walk skipped a
 * continuation because it had walked it before the pass began (a kernel
 * checkpoint, a trip of an older pass), the pass is marked tainted and
 * nothing is concluded from it.
 *
 * What it gives (sites.c):
 * - termination: a scalar that every trip moves by at least one in one
 *   direction, without wrapping past the head summary's bounds, bounds
 *   the trips (as the kernel's links do, join_int.h);
 * - relations: a value that each trip moves by [a, b] while a counter
 *   moves by exactly d. Then after k trips the value is its entry value
 *   plus a number of [a*k, b*k], and k = (counter - entry counter) / d:
 *   the value's bounds follow from the counter's. A pointer walking an
 *   array by a counter gets its offset's bounds from the counter's, which
 *   an interval alone cannot keep.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

typedef __int128 wide;

/* ---- The analysis -------------------------------------------------------- */

enum { F_BOT, F_TOP, F_SYM, F_CONST };

/* F_SYM: the head's value of location loc plus a number of [lo, hi].
 * F_CONST: a number of [lo, hi]. With w32, only the low 32 bits of that,
 * zero-extended. */
struct form {
	uint8_t kind;
	uint8_t loc;
	bool w32;
	int64_t lo, hi;
};

static const struct form top = { F_TOP, 0, false, 0, 0 };

static bool is_cond_jump_k_insn(const struct bpfvet_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && BPF_SRC(insn->code) == BPF_K &&
	       op != BPF_JA && op != BPF_CALL && op != BPF_EXIT && op != BPF_JCOND;
}

static bool fact_seen(const struct join_walk *w, uint32_t insn)
{
	uint32_t i = w->fact_idx[insn];

	return i && w->facts[i - 1].gen == w->fact_gen;
}

/* A delta "far below": what a value set to a constant on some path is,
 * from below, relative to a head value it may lie under. */
#define DELTA_LOW (-(1ll << 40))

/* A constant c as a delta from head location k: c - h for every head
 * value h (in the view the form reads: 32 bits, or signed 64 bits), with
 * the lower end taken as DELTA_LOW (a relation then only bounds the value
 * from above, and does not change with the head's upper bound). */
static bool const_as_delta(const struct join_pass *p, const struct form *c, uint8_t k,
			   struct form *out)
{
	const struct bounds *h = &p->head[k].b;
	wide hmin = c->w32 ? (wide)h->u32_min : (wide)h->smin;
	wide hi = (wide)c->hi - hmin, lo = (wide)c->lo - (c->w32 ? (wide)h->u32_max : (wide)h->smax);

	if (p->head[k].kind != HEAD_SCALAR || hi > (1ll << 40) || lo < DELTA_LOW)
		return false;
	*out = (struct form){ F_SYM, k, c->w32, DELTA_LOW, (int64_t)hi };
	return true;
}

/* The hull of a and b into a; returns whether a changed. With widen, a
 * location whose form would change becomes unknown. */
static bool form_join(const struct join_pass *p, struct form *a, const struct form *b,
		      bool widen)
{
	struct form n = *a, c;

	if (b->kind == F_BOT || a->kind == F_TOP)
		return false;
	if (a->kind == F_BOT) {
		*a = *b;
		return true;
	}
	/* A value reset to a constant on one path, moved on another. */
	if (a->kind == F_SYM && b->kind == F_CONST && a->w32 == b->w32 &&
	    const_as_delta(p, b, a->loc, &c))
		return form_join(p, a, &c, widen);
	if (a->kind == F_CONST && b->kind == F_SYM && a->w32 == b->w32 &&
	    const_as_delta(p, a, b->loc, &c)) {
		*a = c;
		form_join(p, a, b, widen);
		return true;
	}
	if (b->kind == F_TOP || a->kind != b->kind || a->loc != b->loc || a->w32 != b->w32) {
		*a = top;
		return true;
	}
	n.lo = b->lo < a->lo ? b->lo : a->lo;
	n.hi = b->hi > a->hi ? b->hi : a->hi;
	if (n.lo == a->lo && n.hi == a->hi)
		return false;
	*a = widen ? top : n;
	return true;
}

/* a += [lo, hi]; 64-bit forms stay 64-bit, any form becomes 32-bit under
 * alu32 (the low 32 bits of a sum depend on the low 32 bits alone). */
static void form_add(struct form *a, int64_t lo, int64_t hi, bool alu32)
{
	if ((a->kind != F_SYM && a->kind != F_CONST) || (a->w32 && !alu32) ||
	    __builtin_add_overflow(a->lo, lo, &a->lo) || __builtin_add_overflow(a->hi, hi, &a->hi)) {
		*a = top;
		return;
	}
	a->w32 |= alu32;
}

static void form_const(struct form *a, int64_t v, bool alu32)
{
	*a = (struct form){ F_CONST, 0, alu32, v, v };
}

/* The narrower of a value's signed and unsigned ranges, as integers. */
static bool pick_range(const struct bounds *b, bool alu32, int64_t *lo, int64_t *hi)
{
	wide sw = alu32 ? (wide)b->s32_max - b->s32_min : (wide)b->smax - b->smin;
	wide uw = alu32 ? (wide)b->u32_max - b->u32_min : (wide)b->umax - b->umin;

	if (alu32) {
		*lo = uw < sw ? (int64_t)b->u32_min : b->s32_min;
		*hi = uw < sw ? (int64_t)b->u32_max : b->s32_max;
		return true;
	}
	if (uw < sw && b->umax <= INT64_MAX) {
		*lo = (int64_t)b->umin;
		*hi = (int64_t)b->umax;
		return true;
	}
	*lo = b->smin;
	*hi = b->smax;
	return sw < ((wide)1 << 62);
}

/* The operand of an add or subtract: a constant form, an immediate, or
 * the values the walk saw in the source register. */
static bool operand(const struct bpfvet_insn *insn, const struct join_fact *f,
		    const struct form *src, bool alu32, int64_t *lo, int64_t *hi)
{
	if (BPF_SRC(insn->code) == BPF_K) {
		*lo = *hi = insn->imm;
		return true;
	}
	if (src && src->kind == F_CONST && (alu32 || !src->w32 || (src->lo >= 0 &&
							   src->hi <= UINT32_MAX))) {
		*lo = src->lo;
		*hi = src->hi;
		return true;
	}
	if (!(f->flags & FACT_SRC_SET) || (f->flags & FACT_SRC_PTR))
		return false;
	return pick_range(&f->src, alu32, lo, hi);
}

/* Locations whose head value reaches a pointer's offset or a call's
 * arguments: the values worth a relation. */
struct uses {
	uint64_t bits[(JOIN_LOCS + 63) / 64];
};

static void mark_use(struct uses *u, const struct form *f)
{
	if (f->kind == F_SYM)
		u->bits[f->loc / 64] |= 1ull << (f->loc % 64);
}

static void alu(struct form *st, const struct bpfvet_insn *insn, const struct join_fact *f,
		struct uses *u)
{
	bool alu32 = BPF_CLASS(insn->code) == BPF_ALU, x = BPF_SRC(insn->code) == BPF_X;
	uint8_t op = BPF_OP(insn->code), d = insn->dst_reg, s = insn->src_reg;
	const struct form *src = x && s < BPF_REG_FP ? &st[s] : NULL;
	int64_t lo, hi;

	if (d >= BPF_REG_FP)
		return;
	if (src && (op == BPF_ADD || op == BPF_SUB)) {
		if (f->flags & FACT_DST_PTR)
			mark_use(u, src);
		if (f->flags & FACT_SRC_PTR)
			mark_use(u, &st[d]);
	}
	if (op == BPF_MOV && !x) {
		form_const(&st[d], alu32 ? (int64_t)(uint32_t)insn->imm : insn->imm, alu32);
	} else if (op == BPF_MOV) {
		st[d] = src && !insn->off ? *src : top;
		if (alu32 && (st[d].kind == F_SYM || st[d].kind == F_CONST))
			st[d].w32 = true;
	} else if (op == BPF_ADD && src && src->kind == F_SYM && st[d].kind == F_CONST &&
		   (alu32 || (!src->w32 && !st[d].w32))) {
		struct form c = st[d];

		st[d] = *src;
		form_add(&st[d], c.lo, c.hi, alu32);
	} else if (op == BPF_ADD && src && src->kind == F_SYM && st[d].kind != F_SYM &&
		   (alu32 || !src->w32) && (f->flags & FACT_DST_SET) &&
		   !(f->flags & FACT_DST_PTR) && pick_range(&f->dst, alu32, &lo, &hi)) {
		/* A bounded value plus a moving one: the moving one, shifted. */
		st[d] = *src;
		form_add(&st[d], lo, hi, alu32);
	} else if ((op == BPF_ADD || op == BPF_SUB) && (!x || s < BPF_REG_FP) &&
		   operand(insn, f, src, alu32, &lo, &hi)) {
		if (op == BPF_SUB && (lo == INT64_MIN || hi == INT64_MIN))
			st[d] = top;
		else if (op == BPF_SUB)
			form_add(&st[d], -hi, -lo, alu32);
		else
			form_add(&st[d], lo, hi, alu32);
	} else {
		st[d] = top;
	}
}

/* Stack slots of the loop's frame whose bytes [lo, hi) may change. */
static void kill_slots(struct form *st, int64_t lo, int64_t hi)
{
	if (lo < -MAX_BPF_STACK)
		lo = -MAX_BPF_STACK;
	if (hi > 0)
		hi = 0;
	for (int64_t x = lo; x < hi; x++)
		st[BPF_REG_FP + (-x - 1) / BPF_REG_SIZE] = top;
}

/* The slot an 8-byte access at the one offset the walk saw reads or
 * writes, or -1. */
static int exact_slot(const struct bpfvet_insn *insn, const struct join_fact *f)
{
	int64_t o;

	if (!(f->flags & FACT_STACK) || (f->flags & FACT_NONSTACK) || f->off_lo != f->off_hi ||
	    bpf_size_bytes(insn->code) != BPF_REG_SIZE)
		return -1;
	o = f->off_lo + insn->off;
	if (o % BPF_REG_SIZE || o < -MAX_BPF_STACK || o > -BPF_REG_SIZE)
		return -1;
	return BPF_REG_FP + (int)(-o / BPF_REG_SIZE) - 1;
}

static void load(struct form *st, const struct bpfvet_insn *insn, const struct join_fact *f)
{
	int slot = BPF_MODE(insn->code) == BPF_MEM ? exact_slot(insn, f) : -1;

	if (insn->dst_reg < BPF_REG_FP)
		st[insn->dst_reg] = slot < 0 ? top : st[slot];
}

static void store(struct form *st, const struct bpfvet_insn *insn, const struct join_fact *f)
{
	bool atomic = BPF_MODE(insn->code) == BPF_ATOMIC;
	int slot = BPF_MODE(insn->code) == BPF_MEM ? exact_slot(insn, f) : -1;
	struct form v = top;

	if (atomic) {
		/* Fetching forms write a register too; load-acquire its dst. */
		st[BPF_REG_0] = top;
		if (insn->src_reg < BPF_REG_FP)
			st[insn->src_reg] = top;
		if (insn->dst_reg < BPF_REG_FP)
			st[insn->dst_reg] = top;
	}
	if (slot >= 0) {
		if (BPF_CLASS(insn->code) == BPF_ST)
			form_const(&v, insn->imm, false);
		else if (insn->src_reg < BPF_REG_FP)
			v = st[insn->src_reg];
		st[slot] = v;
	} else if (f->flags & FACT_STACK) {
		kill_slots(st, f->off_lo + insn->off,
			   f->off_hi + insn->off + bpf_size_bytes(insn->code));
	}
}

/* A call: r0-r5 change; a helper writes at most above the lowest stack
 * pointer it gets; a function or kfunc given one may write anywhere in
 * the frame (through pointers stored there). */
static void call(struct form *st, const struct bpfvet_insn *insn, const struct join_fact *f,
		 struct uses *u)
{
	for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
		mark_use(u, &st[r]);
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
		st[r] = top;
	if (!(f->flags & FACT_STACK))
		return;
	kill_slots(st, insn->src_reg ? -MAX_BPF_STACK : f->off_lo, 0);
}

static void transfer(const struct vet_env *env, uint32_t i, const struct join_fact *f,
		     struct form *st, struct uses *u)
{
	const struct bpfvet_insn *insn = &env->insns[i];
	uint8_t cls = BPF_CLASS(insn->code);

	if (insn->src_reg >= MAX_BPF_REG || insn->dst_reg >= MAX_BPF_REG) {
		for (int k = 0; k < JOIN_LOCS; k++)
			st[k] = top;
		return;
	}
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		alu(st, insn, f, u);
		break;
	case BPF_LDX:
		load(st, insn, f);
		break;
	case BPF_ST:
	case BPF_STX:
		store(st, insn, f);
		break;
	case BPF_LD:
		if (insn->code == (BPF_LD | BPF_IMM | BPF_DW) && insn->dst_reg < BPF_REG_FP) {
			st[insn->dst_reg] = top;
			if (!insn->src_reg)
				form_const(&st[insn->dst_reg],
					   (int64_t)(((uint64_t)(uint32_t)insn[1].imm << 32) |
						     (uint32_t)insn->imm), false);
		} else if (insn->code != (BPF_LD | BPF_IMM | BPF_DW)) {
			for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
				st[r] = top;
		}
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (BPF_OP(insn->code) == BPF_CALL)
			call(st, insn, f, u);
		break;
	}
}

/* Position of insn in the loop's rank order, or -1 outside the body. */
static int64_t body_pos(const struct vet_env *env, const struct join_walk *w,
			const struct join_loop *l, uint32_t insn)
{
	uint32_t lo = 0, hi = l->norder;

	if (insn >= env->insn_cnt || !join_loop_contains(l, insn))
		return -1;
	while (lo < hi) {
		uint32_t mid = (lo + hi) / 2;

		if (w->rank[l->order[mid]] < w->rank[insn])
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < l->norder && l->order[lo] == insn ? lo : -1;
}

/* Sweeps over the body before the analysis gives up, and joins at one
 * instruction from a later one (an inner loop) before it widens. */
#define DELTA_SWEEPS 64
#define DELTA_WIDEN 4

/* Loops inside loops analysed each as a whole (inner_*), this deep. */
#define DELTA_NEST 3

/*
 * A loop inside the body being analysed. Its own trips, as forms of the
 * values at its head (its analysis, on the same facts), and a bound on
 * how many it makes give the values at its head from those its entries
 * bring, for any number of trips: its back edges then need no joins,
 * which would lose every value an inner trip moves (the outer trip adds
 * the whole inner loop's movement, a bounded sum, to a pointer or an
 * offset that a relation to the outer counter can then follow).
 */
struct inner {
	const struct join_loop *l;
	struct form trip[JOIN_LOCS];
	bool failed;	/* no bound found: back edges join as any edge */
};

struct sweep_ctx {
	const struct join_walk *w;
	const struct join_loop *l;
	const struct join_pass *p;
	struct form *in;
	uint8_t *joins;
	struct form *back;
	struct uses *u;
	struct inner **inner;	/* per position: the loop headed there */
};

/* Joins st into the state at successor pos (or the back edge); returns
 * whether a state before the current position changed. */
static bool flow(struct sweep_ctx *c, int64_t pos, uint32_t j, const struct form *st)
{
	bool earlier = false;

	if (pos == 0) {
		for (int k = 0; k < JOIN_LOCS; k++)
			form_join(c->p, &c->back[k], &st[k], false);
		return false;
	}
	if (pos < 0)
		return false;
	for (int k = 0; k < JOIN_LOCS; k++) {
		bool widen = (uint32_t)pos <= j && c->joins[pos] >= DELTA_WIDEN;

		earlier |= form_join(c->p, &c->in[pos * JOIN_LOCS + k], &st[k], widen) &&
			   (uint32_t)pos <= j;
	}
	if ((uint32_t)pos <= j && c->joins[pos] < UINT8_MAX)
		c->joins[pos]++;
	return earlier;
}

/* Trips of a counter in one view [lo, hi] of the values at its head,
 * from v by d: none wraps (the last value plus d stays in the view), so
 * the counter after t trips is v + d*t, and every one lies in [lo, hi]. */
static bool view_trips(wide lo, wide hi, wide min, wide max, wide v, int64_t d, uint64_t *t)
{
	wide n;

	if (v < lo || v > hi || (d > 0 && hi + d > max) || (d < 0 && lo + d < min))
		return false;
	n = d > 0 ? (hi - v) / d : (v - lo) / -(wide)d;
	if (n > UINT32_MAX)
		return false;
	*t = (uint64_t)n;
	return true;
}

/* The most trips back to inner loop n's head a path from an entry with
 * forms e makes: a register that every trip moves by exactly d, set to
 * the constant v on every entry, and held within the bounds that every
 * state the walk walked from the head gave it. */
static bool inner_trips(const struct join_walk *w, const struct inner *n, const struct form *e,
			uint64_t *trips)
{
	const struct join_loop *l = n->l;
	bool found = false;

	if (l->head_gen != w->fact_gen)
		return false;
	for (int r = 0; r < BPF_REG_FP; r++) {
		const struct form *t = &n->trip[r];
		const struct bounds *b = &l->head_regs[r];
		uint64_t x;
		bool ok;

		if (!(l->head_scalar & (1u << r)) || t->kind != F_SYM || t->loc != r ||
		    t->lo != t->hi || !t->lo || e[r].kind != F_CONST || e[r].lo != e[r].hi)
			continue;
		if (t->w32)
			ok = e[r].lo >= 0 && e[r].lo <= UINT32_MAX &&
			     view_trips(b->u32_min, b->u32_max, 0, UINT32_MAX, e[r].lo, t->lo, &x);
		else
			ok = view_trips(b->umin, b->umax, 0, UINT64_MAX, (uint64_t)e[r].lo, t->lo, &x) ||
			     view_trips(b->smin, b->smax, INT64_MIN, INT64_MAX, e[r].lo, t->lo, &x);
		if (ok && (!found || x < *trips)) {
			*trips = x;
			found = true;
		}
	}
	return found;
}

/* The forms at inner loop n's head for entries e and any number of trips
 * up to t: a value each trip moves by [a, b] is its entry plus a number
 * of [min(0, a*t), max(0, b*t)]; one set to a constant is the entry or
 * the constant; anything else is unknown. */
static void inner_head(const struct join_pass *p, const struct inner *n, const struct form *e,
		       uint64_t t, struct form *out)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		const struct form *x = &n->trip[k];
		struct form y = e[k];
		int64_t lo, hi;

		out[k] = e[k];
		if (x->kind == F_BOT)
			continue;
		if (x->kind == F_CONST) {
			form_join(p, &out[k], x, false);
			continue;
		}
		if (x->kind != F_SYM || x->loc != k ||
		    __builtin_mul_overflow(x->lo, (int64_t)t, &lo) ||
		    __builtin_mul_overflow(x->hi, (int64_t)t, &hi)) {
			out[k] = top;
			continue;
		}
		form_add(&y, lo < 0 ? lo : 0, hi > 0 ? hi : 0, x->w32);
		form_join(p, &out[k], &y, false);
	}
}

/* The state a sweep walks from at position j: its joined arrivals, or at
 * an inner loop's head, what they become after its trips. */
static bool sweep_from(struct sweep_ctx *c, uint32_t j, struct form *st)
{
	struct inner *n = c->inner ? c->inner[j] : NULL;
	uint64_t t;

	memcpy(st, &c->in[(size_t)j * JOIN_LOCS], sizeof(*st) * JOIN_LOCS);
	if (!n || n->failed)
		return false;
	if (!inner_trips(c->w, n, st, &t)) {
		/* From now on its back edges join here: another sweep. */
		n->failed = true;
		return true;
	}
	inner_head(c->p, n, st, t, st);
	return false;
}

/* Is the edge from i to position pos a back edge of an inner loop that
 * is analysed as a whole? */
static bool inner_back_edge(const struct sweep_ctx *c, uint32_t i, int64_t pos)
{
	const struct inner *n = pos > 0 && c->inner ? c->inner[pos] : NULL;

	return n && !n->failed && join_loop_contains(n->l, i);
}

static bool sweep(const struct vet_env *env, struct sweep_ctx *c)
{
	const struct join_loop *l = c->l;
	struct form st[JOIN_LOCS];
	bool again = false;

	for (uint32_t j = 0; j < l->norder; j++) {
		uint32_t i = l->order[j], succ[2];
		int cnt;

		if (!fact_seen(c->w, i) || c->in[(size_t)j * JOIN_LOCS].kind == F_BOT)
			continue;
		again |= sweep_from(c, j, st);
		transfer(env, i, &c->w->facts[c->w->fact_idx[i] - 1], st, c->u);
		cnt = insn_successors(env, i, succ);
		/* Every edge into the head from the body is a back edge. */
		for (int k = 0; k < cnt; k++) {
			int64_t pos = succ[k] == l->head ? 0 : body_pos(env, c->w, l, succ[k]);

			if (!inner_back_edge(c, i, pos))
				again |= flow(c, pos, j, st);
		}
	}
	return again;
}

static int analyse_loop(struct vet_env *env, const struct join_walk *w, const struct join_loop *l,
			const struct join_pass *p, int depth, struct form **inp, struct form *back,
			struct uses *u);

/* What a trip of the loop headed at insn does, as forms of its head's
 * values (its registers' kinds and bounds from what the walk walked
 * from there): *out, or NULL when its analysis does not settle. Returns
 * 0 or -ENOMEM. */
static int inner_new(struct vet_env *env, const struct join_walk *w, uint32_t insn, int depth,
		     struct inner **out)
{
	const struct join_loop *l = &w->loops[w->loop_of[insn] - 1];
	struct inner *n = NULL;
	struct join_pass *p = NULL;
	struct form *in = NULL;
	struct uses u;
	int ret;

	*out = NULL;
	if (l->head_gen != w->fact_gen)
		return 0;
	n = vet_calloc(env, 1, sizeof(*n));
	p = vet_calloc(env, 1, sizeof(*p));
	ret = n && p ? 0 : -ENOMEM;
	if (!ret) {
		for (int k = 0; k < JOIN_LOCS; k++)
			p->head[k].kind = HEAD_POINTER;
		for (int r = 0; r < BPF_REG_FP; r++) {
			if (!(l->head_scalar & (1u << r)))
				continue;
			p->head[r].kind = HEAD_SCALAR;
			p->head[r].b = l->head_regs[r];
		}
		n->l = l;
		ret = analyse_loop(env, w, l, p, depth, &in, n->trip, &u);
	}
	vet_free(env, in);
	vet_free(env, p);
	if (ret > 0) {
		*out = n;
		return 0;
	}
	vet_free(env, n);
	return ret;
}

static void inners_free(struct vet_env *env, struct inner **v, uint32_t n)
{
	for (uint32_t j = 0; v && j < n; j++)
		vet_free(env, v[j]);
	vet_free(env, v);
}

/* The loops headed inside l's body, by position (NULL: none, or too deep). */
static int inners_find(struct vet_env *env, const struct join_walk *w, const struct join_loop *l,
		       int depth, struct inner ***out)
{
	struct inner **v;

	*out = NULL;
	if (depth >= DELTA_NEST || (env->opts_off & BPFVET_NO_NESTED_DELTAS))
		return 0;
	v = vet_calloc(env, l->norder, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint32_t j = 1; j < l->norder; j++) {
		int err = w->loop_of[l->order[j]] && fact_seen(w, l->order[j]) ?
				  inner_new(env, w, l->order[j], depth + 1, &v[j]) : 0;

		if (err) {
			inners_free(env, v, l->norder);
			return err;
		}
	}
	*out = v;
	return 0;
}

/* Runs the analysis over loop l's body, from the head values p describes:
 * *inp gets the state before each body instruction (in rank order; the
 * caller frees it), back the forms at the back edges. Returns 1 when it
 * settled, 0 when not, or -ENOMEM. */
static int analyse_loop(struct vet_env *env, const struct join_walk *w, const struct join_loop *l,
			const struct join_pass *p, int depth, struct form **inp, struct form *back,
			struct uses *u)
{
	struct sweep_ctx c = { w, l, p, NULL, NULL, back, u, NULL };
	int sweeps = 0, err;

	*inp = NULL;
	memset(u, 0, sizeof(*u));
	if (!l->norder || l->order[0] != l->head)
		return 0;
	c.in = vet_calloc(env, (size_t)l->norder * JOIN_LOCS, sizeof(*c.in));
	c.joins = vet_calloc(env, l->norder, 1);
	err = c.in && c.joins ? inners_find(env, w, l, depth, &c.inner) : -ENOMEM;
	if (err) {
		vet_free(env, c.in);
		vet_free(env, c.joins);
		return err;
	}
	for (int k = 0; k < JOIN_LOCS; k++) {
		c.in[k] = p->head[k].kind == HEAD_NONE ? top :
			  (struct form){ F_SYM, (uint8_t)k, false, 0, 0 };
		back[k] = (struct form){ F_BOT, 0, false, 0, 0 };
	}
	while (sweep(env, &c) && ++sweeps < DELTA_SWEEPS)
		;
	inners_free(env, c.inner, l->norder);
	vet_free(env, c.joins);
	*inp = c.in;
	return sweeps < DELTA_SWEEPS;
}

/* The analysis of s's current pass. */
static int analyse(struct vet_env *env, const struct join_walk *w, const struct join_site *s,
		   struct form **inp, struct form *back, struct uses *u)
{
	*inp = NULL;
	memset(u, 0, sizeof(*u));
	if (!s->pass)
		return 0;
	return analyse_loop(env, w, s->loop, s->pass, 0, inp, back, u);
}

/*
 * The forms of every location at the back edges of s's loop, relative to
 * the head of the pass that just ended: out[k].sym when location k at a
 * back edge is "head location out[k].loc plus [lo, hi]" on every path the
 * pass walked. Returns 0 (out[] all false when nothing can be said), or
 * -ENOMEM.
 */
int join_deltas(struct vet_env *env, const struct join_walk *w, const struct join_site *s,
		struct join_delta *out)
{
	struct form back[JOIN_LOCS], *in;
	struct uses u;
	int ret;

	memset(out, 0, sizeof(*out) * JOIN_LOCS);
	if (!s->pass || s->pass->tainted)
		return 0;
	ret = analyse(env, w, s, &in, back, &u);
	for (int k = 0; ret > 0 && k < JOIN_LOCS; k++) {
		if (back[k].kind != F_SYM)
			continue;
		out[k] = (struct join_delta){ true, back[k].w32, back[k].loc, back[k].lo, back[k].hi,
					      !!(u.bits[k / 64] & (1ull << (k % 64))) };
	}
	vet_free(env, in);
	return ret < 0 ? ret : 0;
}

/* How many trips an exit test `counter + delta OP imm` allows a counter
 * that starts at c0 and steps by d: (imm - delta - c0) / d + 1, when the
 * counter moves towards imm. */
static uint64_t trips_to(int64_t imm, const struct form *f, int64_t c0, int64_t d)
{
	wide dist = (wide)imm - f->lo - c0;

	if (!d || (dist > 0) != (d > 0) || !dist)
		return UINT64_MAX;
	dist /= d;
	return dist >= UINT32_MAX ? UINT64_MAX : (uint64_t)dist + 1;
}

/*
 * A guess of how many trips s's loop makes, from what the walk has seen
 * of its body so far (the first trip, say; in and back its analysis): a
 * counter that starts at a constant and steps by a constant, and an exit
 * test comparing it with an immediate. UINT64_MAX when there is no such
 * counter. Only a guess: it chooses between merging and walking trip by
 * trip, which are both sound.
 */
static uint64_t trips_guess(struct vet_env *env, const struct join_walk *w,
			    const struct join_site *s, const struct form *in, const struct form *back)
{
	const struct join_loop *l = s->loop;
	uint64_t best = UINT64_MAX;

	for (uint32_t j = 0; j < l->norder; j++) {
		const struct bpfvet_insn *insn = &env->insns[l->order[j]];
		uint32_t succ[2];
		const struct form *f;
		const struct bounds *h;

		if (!fact_seen(w, l->order[j]) || !is_cond_jump_k_insn(insn) ||
		    insn->dst_reg >= BPF_REG_FP ||
		    insn_successors(env, l->order[j], succ) != 2 ||
		    (body_pos(env, w, l, succ[0]) >= 0) == (body_pos(env, w, l, succ[1]) >= 0))
			continue;
		f = &in[(size_t)j * JOIN_LOCS + insn->dst_reg];
		if (f->kind != F_SYM || f->lo != f->hi || back[f->loc].kind != F_SYM ||
		    back[f->loc].loc != f->loc || back[f->loc].lo != back[f->loc].hi)
			continue;
		h = &s->pass->head[f->loc].b;
		if (s->pass->head[f->loc].kind != HEAD_SCALAR || !tnum_is_const(h->var_off))
			continue;
		{
			uint64_t t = trips_to(insn->imm, f, (int64_t)h->var_off.value, back[f->loc].lo);

			best = t < best ? t : best;
		}
	}
	return best;
}

/* ---- What the deltas prove ------------------------------------------------ */

/* Did no trip wrap a value in one view (min, max)? From the head's
 * bounds [hmin, hmax] a step of [lo, hi] stays in range; or the values
 * the trips came back with, [amin, amax], exclude every value a wrapped
 * step gives: wrapping below min leaves at least hmin + lo + 2^w, above
 * max at most hmax + hi - 2^w (the exit tests of the trips that came
 * back, `n != 0` before n - 1 comes back, say, refine those values). */
static bool view_no_wrap(wide hmin, wide hmax, const wide *a, wide min, wide max, int64_t lo,
			 int64_t hi)
{
	wide m = max - min + 1;
	bool low = hmin + lo >= min || (a && a[1] < hmin + lo + m);
	bool high = hmax + hi <= max || (a && a[0] > hmax + hi - m);

	return low && high;
}

/* Does location k, moved by [lo, hi] on every trip, never wrap in some
 * view (unsigned, or signed for 64 bits; 32 bits for a value that 32-bit
 * operations move)? Sets *view to the way to read it. */
static bool no_wrap(const struct join_pass *p, const struct join_delta *d, int k, uint8_t *view)
{
	const struct bounds *h = &p->head[k].b, *b = &p->head[k].back;
	bool back = p->head[k].arrived && !p->head[k].lost;
	wide a[2];

	if (p->head[k].kind != HEAD_SCALAR || !d[k].sym || d[k].loc != k)
		return false;
	if (d[k].w32) {
		*view = REL_U32;
		a[0] = b->u32_min;
		a[1] = b->u32_max;
		return h->umax <= UINT32_MAX &&
		       view_no_wrap(h->umin, h->umax, back ? a : NULL, 0, UINT32_MAX, d[k].lo, d[k].hi);
	}
	*view = REL_U64;
	a[0] = b->umin;
	a[1] = b->umax;
	if (view_no_wrap(h->umin, h->umax, back ? a : NULL, 0, UINT64_MAX, d[k].lo, d[k].hi))
		return true;
	*view = REL_S64;
	a[0] = b->smin;
	a[1] = b->smax;
	return view_no_wrap(h->smin, h->smax, back ? a : NULL, INT64_MIN, INT64_MAX, d[k].lo,
			    d[k].hi);
}

/* Location k moves by at least one, one way, on every trip, within the
 * bounds the head summary gives it: the trips are finitely many. */
bool join_delta_terminates(const struct join_pass *p, const struct join_delta *d, int k)
{
	uint8_t view;

	return no_wrap(p, d, k, &view) && (d[k].lo >= 1 || d[k].hi <= -1);
}

static bool is_counter(const struct join_pass *p, const struct join_delta *d, int k,
		       uint8_t *view)
{
	return no_wrap(p, d, k, view) && d[k].lo == d[k].hi && d[k].lo != 0;
}

/* A pointer that moves, or a scalar that moves and reaches an offset or
 * a call (a sum that only grows gains nothing from a relation, and its
 * bound, tied to the entries, would grow with every outer pass). */
static bool is_target(const struct join_pass *p, const struct join_delta *d, int k)
{
	uint8_t kind = p->head[k].kind;

	return d[k].sym && d[k].loc == k && !d[k].w32 && (d[k].lo || d[k].hi) &&
	       (kind == HEAD_FOLDABLE || (kind == HEAD_SCALAR && d[k].offset_use));
}

/* The relations the deltas of a pass give: each value that moves, tied to
 * the first counter. Returns how many were written. */
uint32_t join_rels_find(const struct join_pass *p, const struct join_delta *d,
			struct join_rel *rel, uint32_t max)
{
	uint32_t n = 0;
	uint8_t view;
	int c = 0;

	while (c < JOIN_LOCS && !is_counter(p, d, c, &view))
		c++;
	if (c == JOIN_LOCS)
		return 0;
	for (int k = 0; k < JOIN_LOCS && n < max; k++)
		if (k != c && is_target(p, d, k))
			rel[n++] = (struct join_rel){ (uint8_t)k, (uint8_t)c, view,
						      d[k].lo, d[k].hi, d[c].lo };
	return n;
}

/* Did the pass keep relation r: every trip moved its value within [a, b]
 * and its counter by d, read the same way? */
bool join_rel_holds(const struct join_pass *p, const struct join_delta *d,
		    const struct join_rel *r)
{
	uint8_t view;

	return is_counter(p, d, r->ctr, &view) && view == r->view && d[r->ctr].lo == r->d &&
	       is_target(p, d, r->loc) && d[r->loc].lo >= r->a && d[r->loc].hi <= r->b;
}

/* ---- Narrowing by a relation ------------------------------------------------ */

static struct reg_state *loc_reg(struct vet_env *env, struct vstate *st, int k, bool own)
{
	struct func_state *f = st->frame[st->curframe];
	struct stack_slot *sl;

	if (k < BPF_REG_FP)
		return &f->regs[k];
	k -= BPF_REG_FP;
	if (k >= f->allocated_stack / BPF_REG_SIZE)
		return NULL;
	if (own && frame_own_slot(env, f, k))
		return NULL;
	sl = stack_slot_at(f, k);
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (sl->slot_type[i] != STACK_SPILL)
			return NULL;
	return &sl->spilled_ptr;
}

static bool counter_range(const struct reg_state *r, uint8_t view, wide *lo, wide *hi)
{
	if (!r || r->type != SCALAR_VALUE)
		return false;
	if (view == REL_S64) {
		*lo = r->b.smin;
		*hi = r->b.smax;
		return true;
	}
	*lo = r->b.umin;
	*hi = r->b.umax;
	return view != REL_U32 || r->b.umax <= UINT32_MAX;
}

static wide div_floor(wide a, wide b)
{
	wide q = a / b;

	return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static wide div_ceil(wide a, wide b)
{
	return -div_floor(-a, b);
}

static bool foldable(const struct reg_state *r)
{
	uint32_t t = base_type(r->type);

	return !type_may_be_null(r->type) &&
	       (t == PTR_TO_MAP_VALUE || t == PTR_TO_MEM || t == PTR_TO_BUF || t == PTR_TO_STACK);
}

/* The value's range in the terms the relation bounds: a scalar's signed
 * value, or a pointer's whole offset. */
static bool value_range(const struct reg_state *r, wide *lo, wide *hi)
{
	if (r->type == SCALAR_VALUE) {
		*lo = r->b.smin;
		*hi = r->b.smax;
		return true;
	}
	if (!foldable(r))
		return false;
	*lo = (wide)r->off + r->b.smin;
	*hi = (wide)r->off + r->b.smax;
	return true;
}

/* Intersects r's (signed) value or variable offset with [lo, hi]. */
static bool clip(struct reg_state *r, wide lo, wide hi)
{
	struct bounds b = r->b;

	if (r->type != SCALAR_VALUE) {
		lo -= r->off;
		hi -= r->off;
	}
	if (lo > b.smin)
		b.smin = lo > INT64_MAX ? INT64_MAX : (int64_t)lo;
	if (hi < b.smax)
		b.smax = hi < INT64_MIN ? INT64_MIN : (int64_t)hi;
	if (b.smin > b.smax)
		return false;
	if (b.smin >= 0) {
		if ((uint64_t)b.smin > b.umin)
			b.umin = (uint64_t)b.smin;
		if ((uint64_t)b.smax < b.umax)
			b.umax = (uint64_t)b.smax;
		if (b.umin > b.umax)
			return false;
		b.var_off = tnum_intersect(b.var_off, tnum_range(b.umin, b.umax));
	}
	bounds_sync(&b);
	if (bounds_equal(&b, &r->b))
		return false;
	r->b = b;
	return true;
}

/*
 * Narrows the value of relation r in st (a state at the loop head: a trip
 * that came back, kmin 1, or the summary, kmin 0) by what k trips from
 * the head's entries allow. Returns whether st changed.
 */
bool join_rel_narrow(struct vet_env *env, const struct join_rel *r, const struct vstate *entry,
		     struct vstate *st, int64_t kmin)
{
	struct vstate *e = (struct vstate *)entry;
	const struct reg_state *ec = loc_reg(env, e, r->ctr, false), *ev = loc_reg(env, e, r->loc, false);
	const struct reg_state *c = loc_reg(env, st, r->ctr, false);
	wide xlo, xhi, elo, ehi, klo, khi, vlo, vhi, slo, shi;
	struct reg_state *v;

	if (!ec || !ev || !counter_range(c, r->view, &xlo, &xhi) ||
	    !counter_range(ec, r->view, &elo, &ehi) || !value_range(ev, &vlo, &vhi))
		return false;
	if (r->d > 0) {
		klo = div_ceil(xlo - ehi, r->d);
		khi = div_floor(xhi - elo, r->d);
	} else {
		klo = div_ceil(elo - xhi, -(wide)r->d);
		khi = div_floor(ehi - xlo, -(wide)r->d);
	}
	if (klo < kmin)
		klo = kmin;
	/* Beyond 2^64 trips nothing useful is left to say (and the products
	 * below stay within 128 bits). */
	if (khi < klo || khi > ((wide)1 << 64) || r->a < -(1ll << 62) || r->b > (1ll << 62))
		return false;
	slo = r->a * klo < r->a * khi ? r->a * klo : r->a * khi;
	shi = r->b * klo > r->b * khi ? r->b * klo : r->b * khi;
	v = loc_reg(env, st, r->loc, true);
	if (!v || v->type != ev->type || (v->type != SCALAR_VALUE && !foldable(v)))
		return false;
	/* A value that could wrap has no interval to keep. */
	if (vlo + slo < INT64_MIN || vhi + shi > INT64_MAX)
		return false;
	return clip(v, vlo + slo, vhi + shi);
}

/* ---- The trips at the head (sites.c's side) ---------------------------------- */

struct reg_state *join_loc(struct func_state *f, int k)
{
	struct stack_slot *sl;

	if (k < BPF_REG_FP)
		return &f->regs[k];
	if (k - BPF_REG_FP >= f->allocated_stack / BPF_REG_SIZE)
		return NULL;
	sl = stack_slot_at(f, k - BPF_REG_FP);
	for (int i = 0; i < BPF_REG_SIZE; i++)
		if (sl->slot_type[i] != STACK_SPILL)
			return NULL;
	return &sl->spilled_ptr;
}

void join_note_head(struct join_pass *p, int k, const struct reg_state *r)
{
	if (!r || r->type == NOT_INIT)
		return;
	p->head[k].kind = r->type == SCALAR_VALUE ? HEAD_SCALAR :
			  foldable(r) ? HEAD_FOLDABLE : HEAD_POINTER;
	p->head[k].b = r->b;
}

/* A trip that moved a pointer: an interval cannot tie the pointer to
 * the counter that bounds the loop, only the trips walked one by one can
 * (the kernel's way). */
static bool pointer_differs(const struct reg_state *x, const struct reg_state *y)
{
	return x->type != SCALAR_VALUE && x->type != NOT_INIT &&
	       (x->off != y->off || !bounds_equal(&x->b, &y->b));
}

/* A pointer into a map value, memory or a buffer that moved up may be
 * followed: its offset joins into the variable part, and a relation to a
 * counter may bound it (join_deltas.c). */
static bool may_fold(const struct reg_state *sum, const struct reg_state *cur)
{
	return foldable(sum) && sum->type == cur->type && sum->frameno == cur->frameno &&
	       cur->off >= sum->off;
}

bool join_pointer_moved(const struct vstate *sum, const struct vstate *cur)
{
	const struct func_state *a = sum->frame[sum->curframe], *b = cur->frame[cur->curframe];
	int slots = a->allocated_stack < b->allocated_stack ? a->allocated_stack : b->allocated_stack;

	for (int r = 0; r < BPF_REG_FP; r++)
		if (pointer_differs(&a->regs[r], &b->regs[r]) && !may_fold(&a->regs[r], &b->regs[r]))
			return true;
	for (int k = 0; k < slots / BPF_REG_SIZE; k++) {
		const struct reg_state *x = &stack_slot_at(a, k)->spilled_ptr;
		const struct reg_state *y = &stack_slot_at(b, k)->spilled_ptr;

		if (stack_slot_at(a, k)->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL &&
		    pointer_differs(x, y) && !may_fold(x, y))
			return true;
	}
	return false;
}

/* Location k of the loop's frame in st, if it holds a register's value. */
static struct reg_state *frame_loc(struct vstate *st, int k)
{
	return join_loc(st->frame[st->curframe], k);
}

/* Notes the pointers a trip moved, then moves the difference of their
 * fixed offsets into the variable part, so that the join compares like
 * with like (and finds a trip inside the summary inside). */
static void align_offsets(struct join_pass *p, const struct vstate *sum, struct vstate *cur)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		struct reg_state *x = frame_loc((struct vstate *)sum, k), *y = frame_loc(cur, k);
		struct bounds c;

		if (!x || !y || x->type == SCALAR_VALUE || x->type == NOT_INIT ||
		    !pointer_differs(x, y))
			continue;
		if (p)
			p->head[k].moved = true;
		if (!may_fold(x, y) || y->off == x->off)
			continue;
		bounds_const(&c, (uint64_t)((int64_t)y->off - x->off));
		scalar_alu(&y->b, &c, BPF_ADD, false, 0, NULL);
		y->off = x->off;
	}
}

/* The bounds of a trip's scalars moved in to the values their tnums
 * allow (join_align_bounds()), as the widened summary's are: otherwise a
 * trip that ends at 399 with a counter stepping by 16 would not lie
 * within a summary that ends at 384. */
static void align_scalars(struct vstate *cur)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		struct reg_state *r = frame_loc(cur, k);

		if (r && r->type == SCALAR_VALUE)
			join_align_bounds(&r->b);
	}
}

/* A trip came back: the hull of its values, location by location, for
 * no_wrap() (before any narrowing: as the walk found them). */
void join_note_back(struct join_pass *p, struct vstate *cur)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		const struct reg_state *r = frame_loc(cur, k);

		if (!r || r->type != SCALAR_VALUE) {
			p->head[k].lost = true;
		} else if (!p->head[k].arrived) {
			p->head[k].back = r->b;
			p->head[k].arrived = true;
		} else {
			bounds_hull(&p->head[k].back, &r->b);
		}
	}
}

/* Before a trip that came back joins the summary: the pointers it moved
 * (noted in p) get the summary's fixed offset, and its scalars the ends
 * their tnums allow. */
void join_align_trip(struct join_pass *p, const struct vstate *sum, struct vstate *cur)
{
	align_offsets(p, sum, cur);
	align_scalars(cur);
}

/* Values of st that move with a counter (site->rel) are narrowed to what
 * trips from the head's entries allow: kmin 1 for a trip that came back,
 * 0 for the summary (which holds the entries). The entries must be all in
 * s->entry, and the head must keep one summary. */
void join_narrow(struct vet_env *env, struct join_site *s, struct vstate *st, int64_t kmin)
{
	if (!s->pass || !s->entry || s->no_restart || s->ndisj != 1)
		return;
	for (uint32_t i = 0; i < s->nrel; i++)
		if (join_rel_narrow(env, &s->rel[i], s->entry, st, kmin))
			s->pass->rel_used |= 1u << i;
}

/* Trips a loop may make at most and still be walked trip by trip: a few
 * trips cost less than the passes a merge takes (three or more, and the
 * first trip is the first pass). */
#define JOIN_FEW_TRIPS 4

/* Did a trip move a pointer of the head's frame? */
static bool moves_pointer(const struct vstate *sum, const struct vstate *cur)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		const struct reg_state *x = frame_loc((struct vstate *)sum, k);
		const struct reg_state *y = frame_loc((struct vstate *)cur, k);

		if (x && y && pointer_differs(x, y))
			return true;
	}
	return false;
}

/* Does a conditional jump that leaves loop l's body compare by order
 * (<, <=, >, >=)? Only such a test bounds a merged value that grows by
 * more than one a trip. */
static bool order_exit(const struct vet_env *env, const struct join_loop *l)
{
	for (uint32_t j = 0; j < l->norder; j++) {
		const struct bpfvet_insn *insn = &env->insns[l->order[j]];
		uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
		uint32_t succ[2];

		if ((cls != BPF_JMP && cls != BPF_JMP32) || op == BPF_JA || op == BPF_CALL ||
		    op == BPF_EXIT || op == BPF_JCOND || op == BPF_JEQ || op == BPF_JNE ||
		    op == BPF_JSET || insn_successors(env, l->order[j], succ) != 2)
			continue;
		if (!join_loop_contains(l, succ[0]) || !join_loop_contains(l, succ[1]))
			return true;
	}
	return false;
}

/*
 * At the first trip back: will the merge prove no bound on the trips
 * (close_window() then walks the loop trip by trip, after passes that
 * widened its values to the extremes)? The proof needs a scalar that
 * every trip moves one way (join_delta_terminates()). None moved so on
 * the paths walked so far, or each that did moved by a range (i += 3 or
 * 7), and every test that leaves the loop is an equality: nothing then
 * stops the widening below a wrap. More paths only widen the deltas, so
 * the first trip is enough to tell.
 */
static bool proof_unlikely(const struct vet_env *env, const struct join_site *s,
			   const struct form *back)
{
	bool exact = false;

	if (s->ndisj != 1 || order_exit(env, s->loop))
		return false;
	for (int k = 0; k < JOIN_LOCS; k++)
		if (s->pass->head[k].kind == HEAD_SCALAR && back[k].kind == F_SYM &&
		    back[k].loc == k && (back[k].lo >= 1 || back[k].hi <= -1))
			exact |= back[k].lo == back[k].hi;
	return !exact;
}

/* At the first trip back of a merged head: does it look like a loop of a
 * few trips (trips_guess()), one that moves a pointer with no
 * counter that a test bounds (the merged pointer would grow without
 * bound), one around a loop walked trip by trip, or one whose trips no
 * merge will bound (proof_unlikely(): then walked as the kernel walks
 * it)? Then trip by trip costs less. */
bool join_trip_by_trip_wins(struct vet_env *env, const struct join_walk *w,
			    struct join_site *s, const struct vstate *sum)
{
	struct form back[JOIN_LOCS], *in;
	uint64_t trips;
	struct uses u;
	bool settled;

	if (s->guessed || s->growths || !s->pass || s->pass->rel_used)
		return false;
	s->guessed = true;
	/* A loop inside that went trip by trip makes every pass of this one
	 * as dear as a trip, and what it moves (the analysis widens through
	 * its cycle) no relation can follow. */
	for (uint32_t i = 0; i < s->nbody; i++)
		if (s->body[i]->loop && s->body[i]->exact)
			return true;
	/* The first trip's analysis: no analysis (out of memory too) is no
	 * guess, and the merge goes on. */
	settled = analyse(env, w, s, &in, back, &u) > 0;
	trips = settled ? trips_guess(env, w, s, in, back) : UINT64_MAX;
	vet_free(env, in);
	if (trips <= JOIN_FEW_TRIPS || (trips == UINT64_MAX && moves_pointer(sum, env->cur)))
		return true;
	if (!settled || trips != UINT64_MAX || !proof_unlikely(env, s, back))
		return false;
	s->kernel_like = true;
	return true;
}

/* Passes in which a relation in use failed, before a head gives up its
 * relations. */
#define JOIN_REL_CHANGES 4

/* Keeps the steps of relations found again wide enough for both passes:
 * a step that grows by pass would otherwise fail every pass. */
static void keep_rels(struct join_site *s, struct join_rel *rel, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t j = 0; j < s->nrel; j++) {
			const struct join_rel *o = &s->rel[j];

			if (o->loc != rel[i].loc || o->ctr != rel[i].ctr || o->view != rel[i].view ||
			    o->d != rel[i].d)
				continue;
			if (o->a < rel[i].a)
				rel[i].a = o->a;
			if (o->b > rel[i].b)
				rel[i].b = o->b;
		}
	}
	memcpy(s->rel, rel, n * sizeof(*rel));
	s->nrel = n;
}

/* Did a trip move a pointer that no relation follows? Such a loop fails
 * its checks once the pointer widens: trip by trip at once is cheaper. */
static bool moved_alone(const struct join_pass *p, const struct join_rel *rel, uint32_t n)
{
	for (int k = 0; k < JOIN_LOCS; k++) {
		bool tied = false;

		for (uint32_t i = 0; i < n; i++)
			tied |= rel[i].loc == k;
		if (p->head[k].moved && !tied)
			return true;
	}
	return false;
}

/*
 * The end of a merged pass of s: what its trips did to the head's values
 * (join_deltas()). Sets whether they prove the trips finite, keeps the
 * relations found for the next pass, and checks those the pass applied.
 * Returns 1 when one failed (the pass proved nothing), 2 when a pointer
 * moved that nothing ties, 0 otherwise, or a negative errno.
 */
int join_pass_review(struct vet_env *env, const struct join_walk *w, struct join_site *s)
{
	struct join_pass *p = s->pass;
	struct join_delta d[JOIN_LOCS];
	struct join_rel rel[JOIN_REL_MAX];
	bool kept = true;
	uint32_t n = 0;
	int err = join_deltas(env, w, s, d);

	if (err)
		return err;
	for (int k = 0; k < JOIN_LOCS; k++)
		p->deltas_terminate |= join_delta_terminates(p, d, k);
	for (uint32_t i = 0; i < s->nrel; i++)
		if ((p->rel_used & (1u << i)) && !join_rel_holds(p, d, &s->rel[i]))
			kept = false;
	if (!kept)
		s->rel_changes++;
	if (s->rel_changes < JOIN_REL_CHANGES)
		n = join_rels_find(p, d, rel, JOIN_REL_MAX);
	keep_rels(s, rel, n);
	if (!kept)
		return 1;
	return moved_alone(p, rel, n) ? 2 : 0;
}
