/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What the walk saw in the bodies of loops during merged passes
 * (--explore=join), for join_deltas.c's analysis: per body instruction,
 * where a memory access or a call reached into the frame's stack and the
 * values an added register took; per loop head, the registers of every
 * state walked from it. Facts are current while their gen is the walk's
 * fact_gen, which grows when a merged pass opens outside any other.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

static int cmp_rank(const void *a, const void *b, void *ranks);

int join_facts_init(struct vet_env *env, struct join_walk *w)
{
	uint32_t n = 0;

	if (!w->nloops)
		return 0;
	w->fact_idx = vet_calloc(env, env->insn_cnt, sizeof(*w->fact_idx));
	if (!w->fact_idx)
		return -ENOMEM;
	for (uint32_t l = 0; l < w->nloops; l++) {
		struct join_loop *lp = &w->loops[l];

		for (uint32_t i = 0; i < env->insn_cnt; i++)
			lp->norder += join_loop_contains(lp, i);
		lp->order = vet_calloc(env, lp->norder, sizeof(*lp->order));
		if (!lp->order)
			return -ENOMEM;
		lp->norder = 0;
		for (uint32_t i = 0; i < env->insn_cnt; i++) {
			if (!join_loop_contains(lp, i))
				continue;
			lp->order[lp->norder++] = i;
			if (!w->fact_idx[i])
				w->fact_idx[i] = ++n;
		}
		qsort_r(lp->order, lp->norder, sizeof(*lp->order), cmp_rank, w->rank);
	}
	w->facts = vet_calloc(env, n ? n : 1, sizeof(*w->facts));
	return w->facts ? 0 : -ENOMEM;
}

void join_facts_free(struct vet_env *env, struct join_walk *w)
{
	for (uint32_t l = 0; l < w->nloops; l++)
		vet_free(env, w->loops[l].order);
	vet_free(env, w->facts);
	vet_free(env, w->fact_idx);
}

static int cmp_rank(const void *a, const void *b, void *ranks)
{
	uint32_t x = ((const uint32_t *)ranks)[*(const uint32_t *)a];
	uint32_t y = ((const uint32_t *)ranks)[*(const uint32_t *)b];

	return x < y ? -1 : x > y;
}

static bool stack_of(const struct reg_state *r, uint32_t frameno)
{
	return base_type(r->type) == PTR_TO_STACK && r->frameno == frameno;
}

/* Offsets far out of any stack stay far out, without overflow. */
static int64_t clamp_off(int64_t v)
{
	return v < -(1ll << 40) ? -(1ll << 40) : v > (1ll << 40) ? (1ll << 40) : v;
}

static void note_stack(struct join_fact *f, const struct reg_state *r)
{
	int64_t lo = clamp_off(clamp_off(r->b.smin) + r->off);
	int64_t hi = clamp_off(clamp_off(r->b.smax) + r->off);

	f->flags |= FACT_STACK;
	if (lo < f->off_lo)
		f->off_lo = lo;
	if (hi > f->off_hi)
		f->off_hi = hi;
}

static void note_base(struct join_fact *f, const struct reg_state *r, uint32_t frameno)
{
	if (stack_of(r, frameno))
		note_stack(f, r);
	else
		f->flags |= FACT_NONSTACK;
}

/* The values a register took at an add or a subtraction: into b, with
 * the flags for a pointer and for b set. */
static void note_value(struct join_fact *f, struct bounds *b, const struct reg_state *r,
		       uint8_t ptr, uint8_t set)
{
	if (r->type != SCALAR_VALUE) {
		f->flags |= ptr;
	} else if (!(f->flags & set)) {
		*b = r->b;
		f->flags |= set;
	} else {
		bounds_hull(b, &r->b);
	}
}

/* The registers of a state walked from loop head l: their hull, for the
 * trips an inner loop can make (inner_trips()). */
static void note_head(struct join_loop *l, const struct func_state *fr, uint32_t gen)
{
	bool first = l->head_gen != gen;

	if (first)
		l->head_scalar = (1u << BPF_REG_FP) - 1;
	for (int r = 0; r < BPF_REG_FP; r++) {
		const struct reg_state *x = &fr->regs[r];

		if (x->type != SCALAR_VALUE)
			l->head_scalar &= ~(1u << r);
		else if (first)
			l->head_regs[r] = x->b;
		else
			bounds_hull(&l->head_regs[r], &x->b);
	}
	l->head_gen = gen;
}

/* Called before the walk simulates insn idx, while a merged pass runs. */
void join_fact_record(struct vet_env *env, struct join_walk *w, uint32_t idx)
{
	const struct bpfvet_insn *insn = &env->insns[idx];
	const struct func_state *fr = env->cur->frame[env->cur->curframe];
	uint32_t frameno = env->cur->curframe;
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	struct join_fact *f;

	if (!w->fact_idx || !w->fact_idx[idx])
		return;
	f = &w->facts[w->fact_idx[idx] - 1];
	if (f->gen != w->fact_gen) {
		memset(f, 0, sizeof(*f));
		f->gen = w->fact_gen;
		f->off_lo = INT64_MAX;
		f->off_hi = INT64_MIN;
	}
	if (w->loop_of[idx])
		note_head(&w->loops[w->loop_of[idx] - 1], fr, w->fact_gen);
	/* A malformed register number is rejected by the walk itself. */
	if (insn->src_reg >= MAX_BPF_REG || insn->dst_reg >= MAX_BPF_REG)
		return;
	switch (cls) {
	case BPF_LDX:
		note_base(f, &fr->regs[insn->src_reg], frameno);
		break;
	case BPF_ST:
	case BPF_STX:
		note_base(f, &fr->regs[insn->dst_reg], frameno);
		break;
	case BPF_JMP:
		if (op != BPF_CALL)
			break;
		for (int r = BPF_REG_1; r <= BPF_REG_5; r++)
			if (stack_of(&fr->regs[r], frameno))
				note_stack(f, &fr->regs[r]);
		break;
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) != BPF_X || (op != BPF_ADD && op != BPF_SUB))
			break;
		note_value(f, &f->src, &fr->regs[insn->src_reg], FACT_SRC_PTR, FACT_SRC_SET);
		note_value(f, &f->dst, &fr->regs[insn->dst_reg], FACT_DST_PTR, FACT_DST_SET);
		break;
	}
}
