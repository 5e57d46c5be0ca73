/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the checked value's knowledge was lost. Two patterns are looked
 * for on the failing path:
 *  - widening: a step of the slice whose inputs were narrow scalars
 *    and whose result is much wider (a 32-bit operation, arithmetic the
 *    domain cannot follow, a fill of a value spilled narrower);
 *  - a broken link: a conditional jump bounded a register that shares
 *    an ancestor with the checked value, but the check did not reach the
 *    checked value, because a step after the common ancestor made a new
 *    value (new id) of it: the bounds stayed with the copy.
 * A broken link is the better story when both are seen: it says where
 * the program's own check went.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

/* Jumps examined for a broken link, nearest the error first. */
#define LINK_JUMPS_MAX 128

/* Bits of uncertainty of a scalar: the narrower of its two ranges (what
 * the verifier's checks compare), whatever its tnum says. */
static unsigned int range_bits(const struct reg_state *r)
{
	uint64_t u = r->b.umax - r->b.umin;
	uint64_t s = (uint64_t)r->b.smax - (uint64_t)r->b.smin;
	uint64_t w = u < s ? u : s;
	unsigned int bits = 0;

	if (r->type != SCALAR_VALUE)
		return 0;
	while (w) {
		bits++;
		w >>= 1;
	}
	return bits;
}

static const struct reg_state *state_before(const struct vet_trace *t, uint32_t pos,
					    uint32_t frame, uint32_t reg)
{
	uint32_t k;
	int64_t p = explain_last_def(t, pos, frame, reg, &k);

	return p < 0 ? NULL : &t->path[p].regs[k].r;
}

static const struct reg_state *step_reg(const struct trace_step *s, uint32_t reg)
{
	for (uint8_t i = 0; i < s->nregs; i++)
		if (s->regno[i] == reg)
			return &s->regs[i].r;
	return NULL;
}

/* The 8-byte slot of a stack offset. */
static int slot_of(int16_t off)
{
	return (off - (off < 0 ? 7 : 0)) / 8;
}

/* The spill a fill at pos read back, or -1. */
static int64_t find_spill(const struct vet_trace *t, const struct bpfvet_program *prog,
			  uint32_t pos)
{
	const struct trace_step *f = &t->path[pos];

	for (uint32_t p = pos; p-- > 0;) {
		const struct trace_step *s = &t->path[p];
		uint8_t cls = BPF_CLASS(prog->insns[s->insn].code);

		if ((cls == BPF_STX || cls == BPF_ST) && s->slot_known &&
		    s->slot_frame == f->slot_frame &&
		    slot_of(s->slot_off) == slot_of(f->slot_off))
			return p;
	}
	return -1;
}

static void set_loss(struct bpfvet_explanation *e, uint32_t pos, const char *kind)
{
	e->has_loss = true;
	e->loss.insn = e->trace->path[pos].insn;
	e->loss.path_pos = pos;
	e->loss.kind = kind;
	e->loss.reason = e->loss_reason;
}

static unsigned int size_bytes(uint8_t code)
{
	static const unsigned int sz[] = { 4, 2, 1, 8 };

	return sz[BPF_SIZE(code) >> 3];
}

static unsigned int item_bits(const struct bpfvet_explanation *e,
			      const struct bpfvet_slice_item *it)
{
	const struct reg_state *r;

	if (it->reg < 0 || it->role == BPFVET_SLICE_CHECK)
		return 64;
	r = step_reg(&e->trace->path[it->path_pos], (uint32_t)it->reg);
	return r && r->type == SCALAR_VALUE ? range_bits(r) : 64;
}

/* A later step of the slice that made a value out of item i's narrowed
 * it again: nothing was lost for good at item i. Only i's descendants
 * count: another branch of the slice (the pointer, another index) being
 * narrow says nothing about this value. */
static bool recovered(const struct bpfvet_explanation *e, size_t i, unsigned int in_bits)
{
	const struct vet_trace *t = e->trace;
	uint32_t pos = e->slice[i].path_pos;
	bool found = false;

	for (size_t j = i + 1; j + 1 < e->slice_cnt && !found; j++) {
		const struct bpfvet_slice_item *it = &e->slice[j];
		uint8_t *mark;

		if (it->reg < 0 || it->path_pos <= pos || item_bits(e, it) > in_bits + 3)
			continue;
		mark = calloc(it->path_pos + 1, 1);
		if (!mark)
			return true;	/* no memory: claim no loss rather than a wrong one */
		found = explain_chain(t, e->prog, it->path_pos + 1, t->path[it->path_pos].post_frame,
				      (uint32_t)it->reg, mark) && mark[pos];
		free(mark);
	}
	return found;
}

/* The value of argument register r at the call at pos: its last write,
 * unless an earlier call clobbered it since (calls write no R1-R5 steps). */
static const struct reg_state *arg_state(const struct bpfvet_explanation *e, uint32_t pos,
					 uint32_t frame, uint32_t r)
{
	const struct vet_trace *t = e->trace;
	uint32_t k;
	int64_t d = explain_last_def(t, pos, frame, r, &k);

	if (d < 0)
		return NULL;
	for (uint32_t p = (uint32_t)d + 1; p < pos; p++) {
		const struct bpfvet_insn *insn = &e->prog->insns[t->path[p].insn];

		if (BPF_CLASS(insn->code) == BPF_JMP && BPF_OP(insn->code) == BPF_CALL &&
		    t->path[p].frame == frame)
			return NULL;
	}
	return &t->path[d].regs[k].r;
}

/* A call between the spill at sp and the fill at pos that was handed a
 * pointer into the filled slot: a helper that wrote there. */
static int64_t find_clobbering_call(const struct bpfvet_explanation *e, int64_t sp, uint32_t pos,
				    uint32_t *argno)
{
	const struct vet_trace *t = e->trace;
	const struct trace_step *f = &t->path[pos];

	for (uint32_t p = pos; p-- > (uint32_t)(sp + 1);) {
		const struct trace_step *s = &t->path[p];
		const struct bpfvet_insn *insn = &e->prog->insns[s->insn];

		if (BPF_CLASS(insn->code) != BPF_JMP || BPF_OP(insn->code) != BPF_CALL ||
		    s->post_frame != s->frame)
			continue;
		for (uint32_t r = BPF_REG_1; r <= BPF_REG_5; r++) {
			const struct reg_state *a = arg_state(e, p, s->frame, r);

			if (a && base_type(a->type) == PTR_TO_STACK && a->frameno == f->slot_frame &&
			    tnum_is_const(a->b.var_off) &&
			    slot_of((int16_t)(a->off + (int64_t)a->b.var_off.value)) == slot_of(f->slot_off)) {
				*argno = r;
				return p;
			}
		}
	}
	return -1;
}

/* A fill wider than what was spilled, or of a value the slot no longer
 * tracks as a register. The loss is where the slot stopped holding the
 * value: a helper that wrote into it, a store narrower than the fill
 * (over a spilled value, or of the value itself), else the fill. */
static bool check_fill(struct bpfvet_explanation *e, size_t i, uint32_t pos, unsigned int out_bits)
{
	const struct vet_trace *t = e->trace;
	const struct bpfvet_insn *ld = &e->prog->insns[t->path[pos].insn];
	int64_t sp = find_spill(t, e->prog, pos), call;
	const struct bpfvet_insn *st;
	unsigned int in_bits;
	uint32_t argno = 0;

	if (sp < 0)
		return false;
	st = &e->prog->insns[t->path[sp].insn];
	in_bits = BPF_CLASS(st->code) == BPF_ST ? 0 :
		  t->path[sp].nregs ? range_bits(&t->path[sp].regs[0].r) : 64;
	call = find_clobbering_call(e, sp, pos, &argno);
	if (call >= 0 && (in_bits = range_bits(&t->path[sp].regs[0].r)) + 3 < out_bits &&
	    out_bits >= 32 && !recovered(e, i, in_bits)) {
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "insn %u spilled a value it knew (%u bits) to fp%d, then the call at insn %u was given that slot (R%u) and wrote into it: R%u filled at insn %u keeps no bounds",
			 t->path[sp].insn, in_bits, t->path[pos].slot_off, t->path[call].insn, argno,
			 ld->dst_reg, t->path[pos].insn);
		set_loss(e, (uint32_t)call, "spill-fill");
		return true;
	}
	if (out_bits < 32 || out_bits <= in_bits + 3 || recovered(e, i, in_bits))
		return false;
	if (size_bytes(st->code) < size_bytes(ld->code)) {
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "insn %u stored %u bytes at fp%d, where R%u is filled from at insn %u with %u bytes: the slot holds no whole register any more, the fill keeps no bounds",
			 t->path[sp].insn, size_bytes(st->code), t->path[sp].slot_off, ld->dst_reg,
			 t->path[pos].insn, size_bytes(ld->code));
		set_loss(e, (uint32_t)sp, "spill-fill");
		return true;
	}
	snprintf(e->loss_reason, sizeof(e->loss_reason),
		 "R%u was filled (%u bytes) from fp%d, where insn %u spilled a value it knew (%u bytes): the fill keeps no bounds",
		 ld->dst_reg, size_bytes(ld->code), t->path[pos].slot_off, t->path[sp].insn,
		 size_bytes(st->code));
	set_loss(e, pos, "spill-fill");
	return true;
}

static bool check_alu(struct bpfvet_explanation *e, size_t i, uint32_t pos, unsigned int out_bits)
{
	const struct vet_trace *t = e->trace;
	const struct trace_step *s = &t->path[pos];
	const struct bpfvet_insn *insn = &e->prog->insns[s->insn];
	uint8_t op = BPF_OP(insn->code);
	unsigned int in_bits = 0;
	const struct reg_state *in;
	bool alu32 = BPF_CLASS(insn->code) == BPF_ALU;

	if (op == BPF_MOV && BPF_SRC(insn->code) == BPF_K)
		return false;
	if (op != BPF_MOV) {
		in = state_before(t, pos, s->frame, insn->dst_reg);
		if (!in || in->type != SCALAR_VALUE)
			return false;
		in_bits = range_bits(in);
	}
	if (BPF_SRC(insn->code) == BPF_X) {
		in = state_before(t, pos, s->frame, insn->src_reg);
		if (!in || in->type != SCALAR_VALUE)
			return false;
		if (range_bits(in) > in_bits)
			in_bits = range_bits(in);
	}
	if (out_bits < 32 || out_bits <= in_bits + 3 || recovered(e, i, in_bits))
		return false;
	snprintf(e->loss_reason, sizeof(e->loss_reason),
		 "%s of R%u: its inputs were within %u bits, its result is a %u-bit range",
		 alu32 ? "a 32-bit operation" : "arithmetic the verifier cannot bound",
		 insn->dst_reg, in_bits, out_bits);
	set_loss(e, pos, alu32 ? "32-bit-op" : "arithmetic");
	return true;
}

/* The last widening step of the slice before the check that no later
 * step undid. */
static void find_widening(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;

	for (size_t i = e->slice_cnt; i-- > 0;) {
		const struct bpfvet_slice_item *it = &e->slice[i];
		const struct trace_step *s;
		const struct reg_state *out;

		if (it->role != BPFVET_SLICE_DEF && it->role != BPFVET_SLICE_FILL)
			continue;
		s = &t->path[it->path_pos];
		out = it->reg >= 0 ? step_reg(s, (uint32_t)it->reg) : NULL;
		if (!out || out->type != SCALAR_VALUE)
			continue;
		if (it->role == BPFVET_SLICE_FILL ?
		    check_fill(e, i, it->path_pos, range_bits(out)) :
		    check_alu(e, i, it->path_pos, range_bits(out)))
			return;
	}
}

static bool narrows_scalar(const struct bpfvet_explanation *e, const struct bpfvet_slice_item *it)
{
	const struct reg_state *r;

	if (it->role != BPFVET_SLICE_NARROW || it->reg < 0)
		return false;
	r = step_reg(&e->trace->path[it->path_pos], (uint32_t)it->reg);
	return r && r->type == SCALAR_VALUE;
}

/* The value comes unbounded from a function's R0 and no check on a
 * scalar narrowed it on the way: not lost, never known. */
static void find_helper_origin(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;

	for (size_t i = 0; i + 1 < e->slice_cnt; i++) {
		const struct bpfvet_slice_item *it = &e->slice[i];
		const struct trace_step *s = &t->path[it->path_pos];
		const struct bpfvet_insn *insn = &e->prog->insns[s->insn];
		const struct reg_state *r0;

		if (narrows_scalar(e, it))
			return;
		if (it->role != BPFVET_SLICE_ORIGIN || BPF_CLASS(insn->code) != BPF_JMP ||
		    BPF_OP(insn->code) != BPF_CALL)
			continue;
		r0 = step_reg(s, BPF_REG_0);
		if (!r0 || r0->type != SCALAR_VALUE || range_bits(r0) < 32)
			continue;
		for (size_t j = i + 1; j + 1 < e->slice_cnt; j++)
			if (narrows_scalar(e, &e->slice[j]))
				return;
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "the value is the return of the call at insn %u, which can be any %u-bit value, and no check bounds it before the use",
			 s->insn, range_bits(r0));
		set_loss(e, it->path_pos, "helper-return");
		return;
	}
}

static bool is_cond_jump(const struct bpfvet_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_JA && op != BPF_CALL &&
	       op != BPF_EXIT;
}

static bool slice_has_pos(const struct bpfvet_explanation *e, uint32_t pos)
{
	for (size_t i = 0; i < e->slice_cnt; i++)
		if (e->slice[i].path_pos == pos)
			return true;
	return false;
}

/* A 64-bit register copy that keeps the value's id stays linked: the
 * verifier passes a check on either to the other. */
static bool keeps_link(const struct bpfvet_explanation *e, uint32_t pos)
{
	const struct trace_step *s = &e->trace->path[pos];
	const struct bpfvet_insn *insn = &e->prog->insns[s->insn];

	return BPF_CLASS(insn->code) == BPF_ALU64 && BPF_OP(insn->code) == BPF_MOV &&
	       BPF_SRC(insn->code) == BPF_X && insn->off == 0 && s->nregs &&
	       s->regs[0].r.id;
}

static bool makes_scalar(const struct bpfvet_explanation *e, uint32_t pos)
{
	const struct trace_step *s = &e->trace->path[pos];

	return s->nregs && s->regs[0].r.type == SCALAR_VALUE && !keeps_link(e, pos);
}

/* The first step between the common ancestor c and the check at j that
 * made a new scalar of it: on the checked value's side, else on the
 * checked copy's side. */
static int64_t link_break(const struct bpfvet_explanation *e, const uint8_t *checked,
			  const uint8_t *other, uint32_t c, uint32_t j)
{
	for (uint32_t p = c + 1; p < j; p++)
		if (checked[p] && makes_scalar(e, p))
			return p;
	for (uint32_t p = c + 1; p < j; p++)
		if (other[p] && makes_scalar(e, p))
			return p;
	return -1;
}

/* The check at jump j on reg, if it bounded a relative of the checked
 * value: the step where the two parted, or -1. */
static int64_t try_link(struct bpfvet_explanation *e, const uint8_t *checked, uint8_t *other,
			uint32_t j, uint32_t reg, uint32_t end)
{
	const struct vet_trace *t = e->trace;
	const struct reg_state *x = state_before(t, j, t->path[j].frame, reg);

	if (!x || x->type != SCALAR_VALUE)
		return -1;
	memset(other, 0, end);
	if (!explain_chain(t, e->prog, j, t->path[j].frame, reg, other))
		return -1;
	for (uint32_t c = j; c-- > 0;) {
		if (checked[c] && other[c])
			return link_break(e, checked, other, c, j);
	}
	return -1;
}

static void describe_link(struct bpfvet_explanation *e, uint32_t j, uint32_t reg, int64_t brk)
{
	const struct vet_trace *t = e->trace;

	snprintf(e->loss_reason, sizeof(e->loss_reason),
		 "R%u was checked at insn %u, but that check does not reach %s: insn %u made a new value (no shared id), so the bounds stayed with the copy",
		 reg, t->path[j].insn, e->checked_name, t->path[brk].insn);
	set_loss(e, (uint32_t)brk, "link-broken");
}

static void find_broken_link(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;
	uint32_t end = e->slice[e->slice_cnt - 1].path_pos;
	uint8_t *checked, *other;
	int jumps = 0;

	if (!end)
		return;
	checked = calloc(end, 1);
	other = calloc(end, 1);
	if (!checked || !other)
		goto out;
	for (size_t i = 0; i + 1 < e->slice_cnt; i++)
		if (e->slice[i].role != BPFVET_SLICE_NARROW && e->slice[i].path_pos < end)
			checked[e->slice[i].path_pos] = 1;
	for (uint32_t j = end; j-- > 0 && jumps < LINK_JUMPS_MAX;) {
		const struct bpfvet_insn *insn = &e->prog->insns[t->path[j].insn];
		uint32_t reg;
		int64_t brk;

		if (!is_cond_jump(insn) || slice_has_pos(e, j))
			continue;
		jumps++;
		reg = insn->dst_reg;
		brk = try_link(e, checked, other, j, reg, end);
		if (brk < 0 && BPF_SRC(insn->code) == BPF_X) {
			reg = insn->src_reg;
			brk = try_link(e, checked, other, j, reg, end);
		}
		if (brk >= 0) {
			describe_link(e, j, reg, brk);
			break;
		}
	}
out:
	free(checked);
	free(other);
}

void explain_loss(struct bpfvet_explanation *e)
{
	if (!e->slice_cnt || !explain_about_value(e->res.error))
		return;
	find_broken_link(e);
	if (!e->has_loss)
		find_widening(e);
	if (!e->has_loss)
		find_helper_origin(e);
}
