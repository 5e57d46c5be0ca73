/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The slice: the registers and stack slots the failing check read,
 * followed back over the failing path to where their values were made.
 * Walking the path backwards, a step that wrote a wanted register (or
 * stored to a wanted slot) joins the slice and what it read becomes
 * wanted in turn; a conditional jump on a wanted register joins it as
 * the check that bounded it. Values that come from outside (constants,
 * loads from memory, helper returns) end their branch of the slice.
 */
#include <stdio.h>
#include <string.h>

#include "explain.h"

#define WANT_SLOTS 16

struct want {
	uint16_t regs[MAX_CALL_FRAMES];	/* bit r: (frame, r) wanted */
	struct { uint8_t frame; int16_t spi; } slots[WANT_SLOTS];
	int nslots;
};

static int spi_of(int16_t off)
{
	return (-off - 1) / BPF_REG_SIZE;
}

static bool want_reg(const struct want *w, uint32_t frame, uint32_t reg)
{
	return frame < MAX_CALL_FRAMES && reg < MAX_BPF_REG && (w->regs[frame] >> reg & 1);
}

static void add_reg(struct want *w, uint32_t frame, uint32_t reg)
{
	if (frame < MAX_CALL_FRAMES && reg < MAX_BPF_REG && reg != BPF_REG_FP)
		w->regs[frame] |= (uint16_t)(1u << reg);
}

static void drop_reg(struct want *w, uint32_t frame, uint32_t reg)
{
	if (frame < MAX_CALL_FRAMES && reg < MAX_BPF_REG)
		w->regs[frame] &= (uint16_t)~(1u << reg);
}

static int find_slot(const struct want *w, uint8_t frame, int spi)
{
	for (int i = 0; i < w->nslots; i++)
		if (w->slots[i].frame == frame && w->slots[i].spi == spi)
			return i;
	return -1;
}

static void add_slot(struct want *w, uint8_t frame, int spi)
{
	if (find_slot(w, frame, spi) >= 0 || w->nslots >= WANT_SLOTS)
		return;
	w->slots[w->nslots].frame = frame;
	w->slots[w->nslots].spi = (int16_t)spi;
	w->nslots++;
}

static bool take_slot(struct want *w, uint8_t frame, int spi)
{
	int i = find_slot(w, frame, spi);

	if (i < 0)
		return false;
	w->slots[i] = w->slots[--w->nslots];
	return true;
}

static bool want_empty(const struct want *w)
{
	for (int f = 0; f < MAX_CALL_FRAMES; f++)
		if (w->regs[f])
			return false;
	return !w->nslots;
}

int64_t explain_last_def(const struct vet_trace *t, uint32_t pos, uint32_t frame,
			 uint32_t reg, uint32_t *k)
{
	uint32_t n = trace_kept(t);

	if (pos > n)
		pos = n;
	while (pos--) {
		const struct trace_step *s = &t->path[pos];

		if (s->post_frame != frame)
			continue;
		for (uint8_t i = 0; i < s->nregs; i++) {
			if (s->regno[i] == reg) {
				*k = i;
				return pos;
			}
		}
	}
	return -1;
}

static const char *reg_text(const struct trace_step *s, uint32_t reg)
{
	for (uint8_t i = 0; i < s->nregs; i++)
		if (s->regno[i] == reg && s->regs[i].text)
			return s->regs[i].text;
	return "";
}

/* One walk: its wants, and where its items go. */
struct slice_walk {
	const struct vet_trace *t;
	const struct bpfvet_program *prog;
	struct want w;
	struct bpfvet_slice_item items[EXPLAIN_SLICE_MAX];
	size_t cnt;
};

static void add_item(struct slice_walk *sw, uint32_t pos, int32_t reg, int32_t slot_off,
		     enum bpfvet_slice_role role)
{
	const struct trace_step *s = &sw->t->path[pos];
	struct bpfvet_slice_item *it;

	if (sw->cnt >= EXPLAIN_SLICE_MAX)
		return;
	it = &sw->items[sw->cnt++];
	it->insn = s->insn;
	it->path_pos = pos;
	it->frame = s->post_frame;
	it->reg = reg;
	it->slot_off = slot_off;
	it->role = role;
	it->state = reg >= 0 ? reg_text(s, (uint32_t)reg) :
		    s->nregs ? (s->regs[0].text ? s->regs[0].text : "") : "";
}

static void walk_alu(struct slice_walk *sw, uint32_t pos, const struct bpfvet_insn *insn)
{
	const struct trace_step *s = &sw->t->path[pos];
	uint8_t op = BPF_OP(insn->code);
	bool x = BPF_SRC(insn->code) == BPF_X;

	if (!want_reg(&sw->w, s->frame, insn->dst_reg))
		return;
	drop_reg(&sw->w, s->frame, insn->dst_reg);
	if (op == BPF_MOV && !x) {
		add_item(sw, pos, insn->dst_reg, 0, BPFVET_SLICE_ORIGIN);
		return;
	}
	add_item(sw, pos, insn->dst_reg, 0, BPFVET_SLICE_DEF);
	if (x)
		add_reg(&sw->w, s->frame, insn->src_reg);
	if (op != BPF_MOV)
		add_reg(&sw->w, s->frame, insn->dst_reg);
}

static void walk_ldx(struct slice_walk *sw, uint32_t pos, const struct bpfvet_insn *insn)
{
	const struct trace_step *s = &sw->t->path[pos];

	if (!want_reg(&sw->w, s->frame, insn->dst_reg))
		return;
	drop_reg(&sw->w, s->frame, insn->dst_reg);
	if (s->slot_known) {
		add_item(sw, pos, insn->dst_reg, 0, BPFVET_SLICE_FILL);
		add_slot(&sw->w, s->slot_frame, spi_of(s->slot_off));
		return;
	}
	add_item(sw, pos, insn->dst_reg, 0, BPFVET_SLICE_ORIGIN);
}

static void walk_store(struct slice_walk *sw, uint32_t pos, const struct bpfvet_insn *insn)
{
	const struct trace_step *s = &sw->t->path[pos];

	if (!s->slot_known || !take_slot(&sw->w, s->slot_frame, spi_of(s->slot_off)))
		return;
	add_item(sw, pos, -1, s->slot_off, BPFVET_SLICE_SPILL);
	if (BPF_CLASS(insn->code) == BPF_STX && BPF_MODE(insn->code) == BPF_MEM)
		add_reg(&sw->w, s->frame, insn->src_reg);
}

static void walk_jmp(struct slice_walk *sw, uint32_t pos, const struct bpfvet_insn *insn)
{
	const struct trace_step *s = &sw->t->path[pos];
	uint8_t op = BPF_OP(insn->code);

	if (op == BPF_JA)
		return;
	if (op == BPF_CALL) {
		if (s->post_frame == s->frame) {
			if (want_reg(&sw->w, s->frame, BPF_REG_0)) {
				drop_reg(&sw->w, s->frame, BPF_REG_0);
				add_item(sw, pos, BPF_REG_0, 0, BPFVET_SLICE_ORIGIN);
			}
			return;
		}
		/* Into a subprogram: its R1-R5 are the caller's. */
		for (uint32_t r = BPF_REG_1; r <= BPF_REG_5; r++) {
			if (!want_reg(&sw->w, s->post_frame, r))
				continue;
			drop_reg(&sw->w, s->post_frame, r);
			add_reg(&sw->w, s->frame, r);
			add_item(sw, pos, (int32_t)r, 0, BPFVET_SLICE_ARG);
		}
		return;
	}
	if (op == BPF_EXIT) {
		if (s->post_frame != s->frame && want_reg(&sw->w, s->post_frame, BPF_REG_0)) {
			drop_reg(&sw->w, s->post_frame, BPF_REG_0);
			add_reg(&sw->w, s->frame, BPF_REG_0);
			add_item(sw, pos, BPF_REG_0, 0, BPFVET_SLICE_ARG);
		}
		return;
	}
	if (want_reg(&sw->w, s->frame, insn->dst_reg))
		add_item(sw, pos, insn->dst_reg, 0, BPFVET_SLICE_NARROW);
	else if (BPF_SRC(insn->code) == BPF_X && want_reg(&sw->w, s->frame, insn->src_reg))
		add_item(sw, pos, insn->src_reg, 0, BPFVET_SLICE_NARROW);
}

static void walk_step(struct slice_walk *sw, uint32_t pos)
{
	const struct bpfvet_insn *insn = &sw->prog->insns[sw->t->path[pos].insn];
	const struct trace_step *s = &sw->t->path[pos];

	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		walk_alu(sw, pos, insn);
		break;
	case BPF_LDX:
		walk_ldx(sw, pos, insn);
		break;
	case BPF_LD:
		if (want_reg(&sw->w, s->frame, s->nregs ? s->regno[0] : insn->dst_reg)) {
			uint32_t r = s->nregs ? s->regno[0] : insn->dst_reg;

			drop_reg(&sw->w, s->frame, r);
			add_item(sw, pos, (int32_t)r, 0, BPFVET_SLICE_ORIGIN);
		}
		break;
	case BPF_ST:
	case BPF_STX:
		walk_store(sw, pos, insn);
		break;
	default:
		walk_jmp(sw, pos, insn);
		break;
	}
}

/* Walks back from path position end (excluded); items come out newest
 * first. */
static void walk_back(struct slice_walk *sw, uint32_t end)
{
	for (uint32_t pos = end; pos-- > 0 && !want_empty(&sw->w) &&
	     sw->cnt < EXPLAIN_SLICE_MAX;)
		walk_step(sw, pos);
}

bool explain_chain(const struct vet_trace *t, const struct bpfvet_program *prog,
		   uint32_t end, uint32_t frame, uint32_t reg, uint8_t *mark)
{
	struct slice_walk sw = { .t = t, .prog = prog };
	bool any = false;

	add_reg(&sw.w, frame, reg);
	walk_back(&sw, end);
	for (size_t i = 0; i < sw.cnt; i++) {
		if (sw.items[i].role == BPFVET_SLICE_NARROW)
			continue;
		mark[sw.items[i].path_pos] = 1;
		any = true;
	}
	return any;
}

/* "R1 ..." anywhere in the message, as a word: the register it blames. */
static int message_reg(const char *msg)
{
	for (const char *p = msg; (p = strchr(p, 'R')); p++) {
		int r;

		if (p != msg && p[-1] != ' ' && p[-1] != '(' && p[-1] != '=')
			continue;
		if (p[1] < '0' || p[1] > '9')
			continue;
		r = p[1] - '0';
		if (p[2] >= '0' && p[2] <= '9')
			r = r * 10 + p[2] - '0';
		if (r < MAX_BPF_REG)
			return r;
	}
	return -1;
}

/* Without a register in the message: the operand the check is about. */
static int insn_reg(const struct bpfvet_explanation *e, const struct bpfvet_insn *insn)
{
	const struct vet_trace *t = e->trace;

	switch (BPF_CLASS(insn->code)) {
	case BPF_LDX:
		return insn->src_reg;
	case BPF_ST:
	case BPF_STX:
		return insn->dst_reg;
	case BPF_ALU:
	case BPF_ALU64:
		if (BPF_SRC(insn->code) == BPF_X && t->error_regs[insn->src_reg].r.type == SCALAR_VALUE &&
		    t->error_regs[insn->dst_reg].r.type != SCALAR_VALUE)
			return insn->src_reg;
		return insn->dst_reg;
	default:
		break;
	}
	if (BPF_OP(insn->code) == BPF_EXIT)
		return BPF_REG_0;
	if (BPF_OP(insn->code) == BPF_CALL)
		return BPF_REG_1;
	return insn->dst_reg;
}

static void add_check(struct bpfvet_explanation *e, uint32_t pos)
{
	const struct vet_trace *t = e->trace;
	struct bpfvet_slice_item *it = &e->slice[e->slice_cnt++];

	it->insn = (uint32_t)e->error_insn;
	it->path_pos = pos;
	it->frame = t->error_frame;
	it->reg = e->checked_reg;
	it->slot_off = 0;
	it->role = BPFVET_SLICE_CHECK;
	it->state = t->error_regs[e->checked_reg].text ? t->error_regs[e->checked_reg].text : "";
}

/* Errors about a value's type or bounds; the others (loops, leaks,
 * limits, unknown functions) are not about a checked value. */
bool explain_about_value(const char *msg)
{
	static const char *const not_values[] = {
		"infinite loop", "too large", "too complex", "reference leak",
		"Unreleased reference", "unknown func", "cannot use helper", "back-edge",
		"unreachable", "jump out of range", "is missing",
	};

	for (size_t i = 0; i < sizeof(not_values) / sizeof(not_values[0]); i++)
		if (strstr(msg, not_values[i]))
			return false;
	return true;
}

void explain_slice(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;
	struct slice_walk sw = { .t = t, .prog = e->prog };
	const struct bpfvet_insn *insn;
	uint32_t end;

	if (!t->walk_failed || e->error_insn < 0 || !e->path_cnt ||
	    !explain_about_value(e->res.error))
		return;
	insn = &e->prog->insns[e->error_insn];
	e->checked_reg = message_reg(e->res.error);
	if (e->checked_reg < 0)
		e->checked_reg = insn_reg(e, insn);
	/* A malformed instruction names registers that do not exist. */
	if (e->checked_reg >= MAX_BPF_REG) {
		e->checked_reg = -1;
		return;
	}
	snprintf(e->checked_name, sizeof(e->checked_name), "R%d", e->checked_reg);
	/* The error's own step is the last of the path: the walk starts
	 * before it. */
	end = (uint32_t)e->path_cnt;
	if (e->path[end - 1].insn == (uint32_t)e->error_insn)
		end--;
	add_reg(&sw.w, t->error_frame, (uint32_t)e->checked_reg);
	walk_back(&sw, end);
	/* Oldest first, then the check itself. */
	for (size_t i = sw.cnt; i-- > 0 && e->slice_cnt < EXPLAIN_SLICE_MAX - 1;)
		e->slice[e->slice_cnt++] = sw.items[i];
	add_check(e, end);
}
