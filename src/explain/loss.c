/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Where the checked value's knowledge was lost. The patterns looked for
 * on the failing path, in this order:
 *  - a broken link: a conditional jump bounded a register that shares
 *    an ancestor with the checked value, but the check did not reach the
 *    checked value, because a step after the common ancestor made a new
 *    value (new id) of it: the bounds stayed with the copy. A re-read of
 *    memory whose earlier read was checked is one too (loads are not
 *    linked);
 *  - widening: a step of the slice whose inputs were narrow scalars
 *    and whose result is much wider (a 32-bit operation, arithmetic the
 *    domain cannot follow, a fill of a slot a narrow store or a helper
 *    overwrote);
 *  - a loop-carried value: a step of the slice repeated round after
 *    round, growing the value the walk cannot count the rounds of;
 *  - a join: the value was made unbounded on one arm of a branch whose
 *    other arm joins the path again before the check.
 * A broken link is the better story when several are seen: it says
 * where the program's own check went.
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
	if (call >= 0 && in_bits + 3 < out_bits && out_bits >= 32 && !recovered(e, i, in_bits)) {
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

/* A step whose result keeps the id of its input stays linked: the
 * verifier passes a check on either to the other. That is a 64-bit
 * register copy, and an addition of a constant to a linked value (the
 * kernel's BPF_ADD_CONST links, the delta kept aside). */
static bool keeps_link(const struct bpfvet_explanation *e, uint32_t pos)
{
	const struct trace_step *s = &e->trace->path[pos];
	const struct bpfvet_insn *insn = &e->prog->insns[s->insn];
	const uint32_t flags = BPF_ADD_CONST64 | BPF_ADD_CONST32;
	const struct reg_state *in;
	uint32_t id;

	if (!s->nregs || !(id = s->regs[0].r.id & ~flags))
		return false;
	if (BPF_CLASS(insn->code) == BPF_ALU64 && BPF_OP(insn->code) == BPF_MOV &&
	    BPF_SRC(insn->code) == BPF_X && insn->off == 0)
		return true;
	if (BPF_OP(insn->code) != BPF_ADD && BPF_OP(insn->code) != BPF_SUB)
		return false;
	in = state_before(e->trace, pos, s->frame, insn->dst_reg);
	return in && (in->id & ~flags) == id;
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

/* Two loads of the same memory: the same size and offset from the same
 * pointer (type, map, id, offset). */
static bool same_load(const struct bpfvet_explanation *e, uint32_t a, uint32_t b)
{
	const struct vet_trace *t = e->trace;
	const struct bpfvet_insn *ia = &e->prog->insns[t->path[a].insn];
	const struct bpfvet_insn *ib = &e->prog->insns[t->path[b].insn];
	const struct reg_state *pa, *pb;

	if (ia->code != ib->code || ia->off != ib->off)
		return false;
	pa = state_before(t, a, t->path[a].frame, ia->src_reg);
	pb = state_before(t, b, t->path[b].frame, ib->src_reg);
	return pa && pb && pa->type == pb->type && pa->off == pb->off && pa->id == pb->id &&
	       pa->raw[0] == pb->raw[0] && pa->b.var_off.value == pb->b.var_off.value &&
	       pa->b.var_off.mask == pb->b.var_off.mask;
}

/* The load at origin o read memory a check had already bounded through
 * an earlier read: the jump at j on reg, whose value came from a load of
 * the same place. Loads are not linked: the second read knows nothing. */
static bool reread_of(struct bpfvet_explanation *e, uint32_t o, uint32_t j, uint32_t reg,
		      uint8_t *mark)
{
	const struct vet_trace *t = e->trace;
	const struct reg_state *x = state_before(t, j, t->path[j].frame, reg);

	if (!x || x->type != SCALAR_VALUE)
		return false;
	memset(mark, 0, j);
	if (!explain_chain(t, e->prog, j, t->path[j].frame, reg, mark))
		return false;
	for (uint32_t l = 0; l < j; l++) {
		if (!mark[l] || BPF_CLASS(e->prog->insns[t->path[l].insn].code) != BPF_LDX ||
		    t->path[l].slot_known || !same_load(e, l, o))
			continue;
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "R%u was checked at insn %u after the read at insn %u, but insn %u reads the same memory again: a new value the check never bounded (loads are not linked)",
			 reg, t->path[j].insn, t->path[l].insn, t->path[o].insn);
		set_loss(e, o, "link-broken");
		return true;
	}
	return false;
}

/* The checked value was read from memory after a check on an earlier
 * read of the same memory. */
static void find_reread(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;
	uint8_t *mark;

	for (size_t i = 0; i + 1 < e->slice_cnt && !e->has_loss; i++) {
		const struct bpfvet_slice_item *it = &e->slice[i];
		uint32_t o = it->path_pos;
		const struct bpfvet_insn *insn = &e->prog->insns[t->path[o].insn];

		if (it->role != BPFVET_SLICE_ORIGIN || BPF_CLASS(insn->code) != BPF_LDX ||
		    item_bits(e, it) < 32 || !o)
			continue;
		mark = calloc(o, 1);
		if (!mark)
			return;
		int jumps = 0;

		for (uint32_t j = o; j-- > 0 && !e->has_loss && jumps < LINK_JUMPS_MAX;) {
			const struct bpfvet_insn *ji = &e->prog->insns[t->path[j].insn];

			if (!is_cond_jump(ji) || slice_has_pos(e, j))
				continue;
			jumps++;
			if (!reread_of(e, o, j, ji->dst_reg, mark) && BPF_SRC(ji->code) == BPF_X)
				reread_of(e, o, j, ji->src_reg, mark);
		}
		free(mark);
	}
}

/* A step of the slice repeated round after round of a loop: the value
 * is carried from round to round and grows at that step, and the walk
 * does not know how many rounds there are. */
static void find_loop_carried(struct bpfvet_explanation *e)
{
	for (size_t i = 0; i + 1 < e->slice_cnt; i++) {
		const struct bpfvet_slice_item *a = &e->slice[i];
		int rounds = 1;

		if (a->role != BPFVET_SLICE_DEF)
			continue;
		for (size_t j = i + 1; j + 1 < e->slice_cnt; j++)
			if (e->slice[j].role == BPFVET_SLICE_DEF && e->slice[j].insn == a->insn)
				rounds++;
		if (rounds < 3)
			continue;
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "insn %u updates the value round after round of a loop (%d rounds on this path): the verifier walks the rounds without knowing their count, and the value grows past the check",
			 a->insn, rounds);
		set_loss(e, a->path_pos, "loop-widening");
		return;
	}
}

/* The instructions after insn i in the program's flow (not into calls). */
static int successors(const struct bpfvet_program *prog, uint32_t i, uint32_t out[2])
{
	const struct bpfvet_insn *insn = &prog->insns[i];
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);
	int n = 0;

	if (cls == BPF_LD && insn->code == (BPF_LD | BPF_IMM | BPF_DW)) {
		out[n++] = i + 2;
		return n;
	}
	if (cls != BPF_JMP && cls != BPF_JMP32) {
		out[n++] = i + 1;
		return n;
	}
	if (op == BPF_EXIT)
		return 0;
	if (op == BPF_CALL) {
		out[n++] = i + 1;
		return n;
	}
	if (op == BPF_JA) {
		out[n++] = (uint32_t)((int64_t)i + 1 + (cls == BPF_JMP32 ? insn->imm : insn->off));
		return n;
	}
	out[n++] = i + 1;
	out[n++] = (uint32_t)((int64_t)i + 1 + insn->off);
	return n;
}

/* Marks in seen[] the instructions the flow from insn from reaches
 * without passing insn avoid; false without memory. */
static bool flow_from(const struct bpfvet_program *prog, uint32_t from, uint32_t avoid,
		      uint8_t *seen)
{
	uint32_t n = prog->insn_cnt, *stack, top = 0;

	memset(seen, 0, n);
	if (from >= n || from == avoid)
		return true;
	stack = calloc(n, sizeof(*stack));
	if (!stack)
		return false;
	stack[top++] = from;
	seen[from] = 1;
	while (top) {
		uint32_t i = stack[--top], next[2];
		int k = successors(prog, i, next);

		for (int m = 0; m < k; m++) {
			if (next[m] >= n || next[m] == avoid || seen[next[m]])
				continue;
			seen[next[m]] = 1;
			stack[top++] = next[m];
		}
	}
	free(stack);
	return true;
}

/* Conditional jumps before a value's origin examined for a join. */
#define JOIN_JUMPS_MAX 16

/* The jump before d whose other arm joins the failing path after d
 * (before end) without running d: d ran on one arm only; -1 when none.
 * *join is the first instruction of the path the two arms share. */
static int64_t arm_of(const struct bpfvet_explanation *e, uint32_t d, uint32_t end,
		      uint8_t *seen, uint32_t *join)
{
	const struct vet_trace *t = e->trace;
	const struct bpfvet_program *prog = e->prog;
	int jumps = 0;

	for (uint32_t j = d; j-- > 0 && jumps < JOIN_JUMPS_MAX;) {
		const struct trace_step *s = &t->path[j];
		const struct bpfvet_insn *insn = &prog->insns[s->insn];
		uint32_t next[2], other;

		if (s->frame != t->path[d].frame)
			break;
		if (!is_cond_jump(insn) || successors(prog, s->insn, next) != 2 ||
		    next[0] == next[1])
			continue;
		jumps++;
		other = t->path[j + 1].insn == next[0] ? next[1] : next[0];
		if (!flow_from(prog, other, t->path[d].insn, seen))
			return -1;
		for (uint32_t p = d + 1; p < end; p++) {
			if (t->path[p].frame == s->frame && seen[t->path[p].insn]) {
				*join = t->path[p].insn;
				return j;
			}
		}
	}
	return -1;
}

/* The checked value was made, unbounded, on one arm of a branch that
 * joins the failing path again before the check: the other arm made
 * another value, and this arm's is the one the check cannot take. */
static void find_join(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;
	uint32_t end = e->slice[e->slice_cnt - 1].path_pos, join = 0;
	uint8_t *after;

	for (size_t i = 0; i + 1 < e->slice_cnt; i++)
		if (narrows_scalar(e, &e->slice[i]))
			return;
	after = calloc(e->prog->insn_cnt ? e->prog->insn_cnt : 1, 1);
	if (!after)
		return;
	for (size_t i = 0; i + 1 < e->slice_cnt && !e->has_loss; i++) {
		const struct bpfvet_slice_item *it = &e->slice[i];
		int64_t j;

		if (it->role != BPFVET_SLICE_ORIGIN || item_bits(e, it) < 32)
			continue;
		j = arm_of(e, it->path_pos, end, after, &join);
		if (j < 0)
			continue;
		snprintf(e->loss_reason, sizeof(e->loss_reason),
			 "insn %u made the value (any %u-bit value) on one arm of the branch at insn %u, which joins the other at insn %u%s: on this arm nothing bounds it",
			 it->insn, item_bits(e, it), t->path[j].insn, join,
			 join < t->insn_cnt && t->stats[join].prune_misses ?
			 ", where the state of the other arm did not match" : "");
		set_loss(e, it->path_pos, "pruned-join");
	}
	free(after);
}

void explain_loss(struct bpfvet_explanation *e)
{
	if (!e->slice_cnt || !explain_about_value(e->res.error))
		return;
	find_broken_link(e);
	if (!e->has_loss)
		find_reread(e);
	if (!e->has_loss)
		find_widening(e);
	if (!e->has_loss)
		find_loop_carried(e);
	if (!e->has_loss)
		find_join(e);
	if (!e->has_loss)
		find_helper_origin(e);
}
