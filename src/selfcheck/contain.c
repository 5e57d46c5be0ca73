/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Containment of a concrete run's state (interp/) in an abstract state
 * of the verifier: each register's value in its scalar's tnum and four
 * ranges, or its pointer in the right region at an offset the abstract
 * fixed and variable offsets allow; each stack byte the abstract state
 * knows (spilled registers, zeros) as the run holds it. Written apart
 * from the verifier's own comparisons (regsafe, stacksafe), which are
 * among the things it checks.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "selfcheck.h"

struct contain {
	struct vet_env *env;
	const struct interp *it;
	enum contain_mode mode;
	bool at_callback_call;	/* CONTAIN_AT_CALLBACK_CALL */
	int base;		/* the run's frame that is the state's frame 0 */
	struct contain_stats *cs;
	char *why;
	size_t why_sz;
};

/* The abstract register as the kernel's log prints it (print_reg writes
 * to the log: borrow a private one, as trace.c does). */
static void render_reg(struct vet_env *env, const struct reg_state *r, uint32_t frame,
		       char *buf, size_t sz)
{
	struct vet_log saved = env->log;

	log_init(&env->log, LOG_LEVEL1, NULL, NULL);
	print_reg(env, frame, r);
	snprintf(buf, sz, "%s", env->log.buf ? env->log.buf : "?");
	log_free(&env->log);
	env->log = saved;
}

static void render_conc(const struct interp *it, struct interp_reg c, char *buf, size_t sz)
{
	long long off = (long long)interp_ptr_off(it, c);

	switch (c.tag.kind) {
	case IK_SCALAR:
		snprintf(buf, sz, "%llu (0x%llx)", (unsigned long long)c.val,
			 (unsigned long long)c.val);
		break;
	case IK_STACK:
		snprintf(buf, sz, "fp%+lld of frame %u", off - INTERP_STACK_SIZE, c.tag.frame);
		break;
	case IK_MAP_VALUE:
		snprintf(buf, sz, "a value of map %u%+lld", c.tag.map, off);
		break;
	case IK_MAP:
		snprintf(buf, sz, "map %u", c.tag.map);
		break;
	default:
		snprintf(buf, sz, "%s%+lld", interp_kind_name(c.tag.kind), off);
	}
}

static int differ(struct contain *c, const char *what, const struct reg_state *a,
		  uint32_t frame, struct interp_reg conc, const char *how)
{
	char as[256], cs[96];

	render_reg(c->env, a, frame, as, sizeof(as));
	render_conc(c->it, conc, cs, sizeof(cs));
	snprintf(c->why, c->why_sz, "%s: the run has %s, the verifier %s (%s)", what, cs, as, how);
	return -1;
}

static bool in_bounds(const struct bounds *b, uint64_t v)
{
	uint32_t v32 = (uint32_t)v;

	return tnum_contains(b->var_off, v) && v >= b->umin && v <= b->umax &&
	       (int64_t)v >= b->smin && (int64_t)v <= b->smax &&
	       v32 >= b->u32_min && v32 <= b->u32_max &&
	       (int32_t)v32 >= b->s32_min && (int32_t)v32 <= b->s32_max;
}

/* A pointer's variable offset: the whole offset less the fixed one. */
static bool var_in_bounds(const struct bounds *b, int64_t var)
{
	return tnum_contains(b->var_off, (uint64_t)var) && var >= b->smin && var <= b->smax;
}

static int kind_of(uint32_t base)
{
	switch (base) {
	case PTR_TO_STACK: return IK_STACK;
	case PTR_TO_CTX: return IK_CTX;
	case PTR_TO_PACKET: return IK_PKT;
	case PTR_TO_PACKET_END: return IK_PKT_END;
	case PTR_TO_PACKET_META: return IK_PKT_META;
	case PTR_TO_MAP_VALUE: return IK_MAP_VALUE;
	case CONST_PTR_TO_MAP: return IK_MAP;
	case PTR_TO_FUNC: return IK_FUNC;
	default: return -1;
	}
}

/* The map a map pointer or map value pointer names, as the interpreter
 * numbers them (the program's maps), or -1 when it is an inner map. */
static int map_index(const struct vet_env *env, const struct reg_state *a)
{
	if (a->map_meta || !a->map_ptr || a->map_ptr < env->maps ||
	    a->map_ptr >= env->maps + env->map_cnt)
		return -1;
	return (int)(a->map_ptr - env->maps);
}

static int contain_ptr(struct contain *c, const char *what, const struct reg_state *a,
		       uint32_t frame, struct interp_reg conc)
{
	int kind = kind_of(base_type(a->type));
	int64_t off, var;

	if (kind < 0) {
		c->cs->unchecked++;
		return 0;
	}
	if (conc.tag.kind != kind)
		return differ(c, what, a, frame, conc, "another kind of value");
	off = interp_ptr_off(c->it, conc);
	switch (kind) {
	case IK_STACK:
		if (conc.tag.frame != a->frameno + (uint32_t)c->base)
			return differ(c, what, a, frame, conc, "another frame's stack");
		off -= INTERP_STACK_SIZE;
		break;
	case IK_MAP_VALUE:
	case IK_MAP:
		if (map_index(c->env, a) >= 0 && map_index(c->env, a) != conc.tag.map)
			return differ(c, what, a, frame, conc, "another map");
		break;
	case IK_FUNC:
		if (a->subprogno >= c->env->subprog_cnt ||
		    (int64_t)c->env->subprogs[a->subprogno].start != off)
			return differ(c, what, a, frame, conc, "another function");
		return 0;
	case IK_PKT_END:
		return 0;
	case IK_PKT_META:
		/* The verifier counts a meta pointer's offset from data_meta. */
		off -= interp_meta_off(c->it);
		break;
	default:
		break;
	}
	if (kind == IK_MAP)
		return 0;
	var = off - a->off;
	if (!var_in_bounds(&a->b, var))
		return differ(c, what, a, frame, conc, "offset outside its bounds");
	/* The bytes a packet pointer's range vouches for are in the packet. */
	if (kind == IK_PKT && a->range > 0 && var + a->range > (int64_t)interp_pkt_len(c->it))
		return differ(c, what, a, frame, conc, "range past the packet's end");
	if (kind == IK_PKT_META && a->range > 0 && var + a->range > -interp_meta_off(c->it))
		return differ(c, what, a, frame, conc, "range past the metadata's end");
	return 0;
}

static bool precise_enough(const struct contain *c, const struct reg_state *a)
{
	return c->mode != CONTAIN_CHECKPOINT || a->precise ||
	       (c->env->opts_off & BPFVET_NO_PRECISION);
}

static int contain_reg(struct contain *c, const char *what, const struct reg_state *a,
		       uint32_t frame, struct interp_reg conc)
{
	if (a->type == NOT_INIT)
		return 0;
	c->cs->regs++;
	if (a->type == SCALAR_VALUE) {
		if (!precise_enough(c, a))
			return 0;
		if (!in_bounds(&a->b, conc.val))
			return differ(c, what, a, frame, conc, "value outside its bounds");
		return 0;
	}
	if (type_may_be_null(a->type) && conc.tag.kind == IK_SCALAR && !conc.val)
		return 0;
	if (conc.tag.kind == IK_SCALAR && kind_of(base_type(a->type)) >= 0)
		return differ(c, what, a, frame, conc, "a number where a pointer should be");
	return contain_ptr(c, what, a, frame, conc);
}

/* Registers compared in a frame: in a checkpoint, those the equivalence
 * compares. A caller's R0-R5 are the run's no longer (the interpreter
 * keeps a caller's R6-R10; bpf_loop its arguments). */
static uint16_t regs_compared(const struct contain *c, const struct vstate *st, uint32_t fr)
{
	uint16_t live = 0x7ff;

	if (c->mode != CONTAIN_WALK && !(c->env->opts_off & BPFVET_NO_LIVENESS))
		live = c->env->aux[state_frame_ip(st, fr)].live_regs_before;
	if (fr < st->curframe || c->at_callback_call)
		live &= 0x7c0;
	return live;
}

static int contain_regs(struct contain *c, const struct vstate *st, uint32_t fr)
{
	const struct func_state *f = st->frame[fr];
	uint16_t live = regs_compared(c, st, fr);
	char what[32];

	for (int r = 0; r < MAX_BPF_REG; r++) {
		if (!(live & (1u << r)))
			continue;
		snprintf(what, sizeof(what), "frame %u R%d", fr, r);
		if (contain_reg(c, what, &f->regs[r], fr, interp_reg(c->it, c->base + (int)fr, r)))
			return -1;
	}
	return 0;
}

/* The run's bytes of one 8-byte slot, lowest address first: b[k] is the
 * byte at fp-8*(spi+1)+k, which the verifier's slot_type[7 - k] types
 * (the kernel numbers a slot's bytes down from its top). */
static int slot_bytes(const struct contain *c, uint32_t fr, int spi, uint8_t b[8],
		      struct interp_tag *tag)
{
	int base = INTERP_STACK_SIZE - 8 * (spi + 1);

	for (int i = 0; i < 8; i++)
		if (interp_stack_byte(c->it, c->base + (int)fr, base + i, &b[i], tag))
			return -1;
	return 0;
}

/* A narrow spill keeps the whole register's state (the kernel's
 * save_register_state): the slot holds its low n bytes. When the value
 * fits in them, they are the value; else only the tnum's low bits say
 * something about them. */
static int contain_narrow(struct contain *c, const char *what, const struct reg_state *a,
			  uint32_t frame, struct interp_reg conc, int n)
{
	uint64_t low = (1ull << (8 * n)) - 1;

	if (a->b.umax <= low)
		return contain_reg(c, what, a, frame, conc);
	if (!precise_enough(c, a))
		return 0;
	c->cs->regs++;
	if ((conc.val ^ a->b.var_off.value) & ~a->b.var_off.mask & low)
		return differ(c, what, a, frame, conc, "low bytes outside its tnum");
	return 0;
}

/* A spilled register: the whole slot, or a scalar in its first n bytes
 * (a narrow spill at the slot's address). */
static int contain_spill(struct contain *c, const struct stack_slot *s, uint32_t fr, int spi,
			 const uint8_t b[8], struct interp_tag tag)
{
	struct interp_reg conc = { .tag = tag };
	char what[48];
	int n = 0;

	while (n < 8 && s->slot_type[7 - n] == STACK_SPILL)
		n++;
	for (int i = 0; i < n; i++)
		conc.val |= (uint64_t)b[i] << (8 * i);
	if (n < 8) {
		if (s->spilled_ptr.type != SCALAR_VALUE) {
			c->cs->unchecked++;
			return 0;
		}
		conc.tag.kind = IK_SCALAR;
	}
	snprintf(what, sizeof(what), "frame %u fp-%d (spilled)", fr, 8 * (spi + 1));
	if (n < 8)
		return contain_narrow(c, what, &s->spilled_ptr, fr, conc, n);
	return contain_reg(c, what, &s->spilled_ptr, fr, conc);
}

static int contain_stack(struct contain *c, const struct vstate *st, uint32_t fr)
{
	const struct func_state *f = st->frame[fr];

	for (int spi = 0; spi < f->allocated_stack / 8; spi++) {
		const struct stack_slot *s = stack_slot_at(f, spi);
		struct interp_tag tag;
		uint8_t b[8];

		if (slot_bytes(c, fr, spi, b, &tag)) {
			snprintf(c->why, c->why_sz, "frame %u fp-%d: the run has no such stack",
				 fr, 8 * (spi + 1));
			return -1;
		}
		c->cs->slots++;
		if (s->slot_type[7] == STACK_SPILL) {
			if (contain_spill(c, s, fr, spi, b, tag))
				return -1;
			continue;
		}
		for (int k = 0; k < 8; k++) {
			if (s->slot_type[7 - k] != STACK_ZERO || !b[k])
				continue;
			snprintf(c->why, c->why_sz,
				 "frame %u fp-%d: the run has byte 0x%02x, the verifier knows zero",
				 fr, 8 * (spi + 1) - k, b[k]);
			return -1;
		}
	}
	return 0;
}

int contain_state(struct vet_env *env, const struct vstate *st, const struct interp *it,
		  int base, unsigned mode, struct contain_stats *cs, char *why,
		  size_t why_sz)
{
	struct contain c = {
		.env = env, .it = it, .mode = (enum contain_mode)(mode & ~CONTAIN_AT_CALLBACK_CALL),
		.at_callback_call = mode & CONTAIN_AT_CALLBACK_CALL, .base = base, .cs = cs,
		.why = why, .why_sz = why_sz,
	};
	int depth = (int)st->curframe + base;

	/* Back at a bpf_loop call, the run may be in the callback's next
	 * call. */
	if (depth != interp_frame_depth(it) &&
	    !(c.at_callback_call && depth + 1 == interp_frame_depth(it))) {
		snprintf(why, why_sz, "the run is %d calls deep, the verifier %u",
			 interp_frame_depth(it) - base, st->curframe);
		return -1;
	}
	for (uint32_t fr = 0; fr <= st->curframe; fr++)
		if (contain_regs(&c, st, fr) || contain_stack(&c, st, fr))
			return -1;
	return 0;
}
