/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The walk's trace for explanations (trace.h): counters per instruction
 * and the current path as a log of steps. A queued branch remembers the
 * path's length when it was queued; resuming it cuts the log back there,
 * so the log is always the path from the entry to the instruction being
 * simulated, at the price of one append per processed instruction.
 */
#include <stdlib.h>
#include <string.h>

#include "state.h"

struct vet_trace *trace_new(uint32_t insn_cnt)
{
	struct vet_trace *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->stats = calloc(insn_cnt ? insn_cnt : 1, sizeof(*t->stats));
	if (!t->stats) {
		free(t);
		return NULL;
	}
	t->insn_cnt = insn_cnt;
	t->held_ref_insn = -1;
	return t;
}

static void free_texts(struct trace_reg *regs, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		free(regs[i].text);
		regs[i].text = NULL;
	}
}

void trace_free(struct vet_trace *t)
{
	if (!t)
		return;
	for (uint32_t i = 0; i < trace_kept(t); i++)
		free_texts(t->path[i].regs, TRACE_STEP_REGS);
	free_texts(t->error_regs, MAX_BPF_REG);
	free(t->path);
	free(t->stats);
	free(t);
}

void trace_pass_begin(struct vet_env *env)
{
	struct vet_trace *t = env->trace;

	if (!t)
		return;
	t->len = 0;
	t->base = 0;
	t->truncated = false;
	t->walk_failed = false;
}

void trace_do_visit(struct vet_env *env, uint32_t insn)
{
	if (env->trace && insn < env->trace->insn_cnt)
		env->trace->stats[insn].visits++;
}

void trace_state_stored(struct vet_env *env, uint32_t insn)
{
	if (env->trace && insn < env->trace->insn_cnt)
		env->trace->stats[insn].states++;
}

void trace_prune(struct vet_env *env, uint32_t insn, bool hit)
{
	if (!env->trace || insn >= env->trace->insn_cnt)
		return;
	if (hit)
		env->trace->stats[insn].prune_hits++;
	else
		env->trace->stats[insn].prune_misses++;
}

void trace_precise(struct vet_env *env, uint32_t insn)
{
	if (env->trace && insn < env->trace->insn_cnt)
		env->trace->stats[insn].precise++;
}

static void copy_reg(struct trace_reg *dst, const struct reg_state *r)
{
	dst->r = *r;
	dst->text = NULL;
}

/* The stack slot behind a load's or store's pointer, when it is fixed. */
static void note_slot(struct vet_env *env, struct trace_step *s, uint32_t ptr_reg, int16_t off)
{
	const struct reg_state *r = &cur_regs(env)[ptr_reg];

	if (base_type(r->type) != PTR_TO_STACK || !tnum_is_const(r->b.var_off))
		return;
	s->slot_known = true;
	s->slot_frame = (uint8_t)r->frameno;
	s->slot_off = (int16_t)((int64_t)r->b.var_off.value + r->off + off);
}

uint32_t trace_kept(const struct vet_trace *t)
{
	return t->oom ? 0 : t->len - t->base;
}

/* Room for one more step; the oldest half goes when the path is full
 * (nothing is rendered yet, the steps move whole). */
static struct trace_step *grow(struct vet_trace *t)
{
	if (t->oom)
		return NULL;
	if (t->len - t->base >= TRACE_PATH_MAX) {
		uint32_t drop = TRACE_PATH_MAX / 2;

		memmove(t->path, t->path + drop, (size_t)(TRACE_PATH_MAX - drop) * sizeof(*t->path));
		t->base += drop;
		t->truncated = true;
	}
	if (t->len - t->base >= t->cap) {
		uint32_t cap = t->cap ? t->cap * 2 : 1024;
		struct trace_step *p = realloc(t->path, (size_t)cap * sizeof(*p));

		if (!p) {
			t->oom = true;
			return NULL;
		}
		t->path = p;
		t->cap = cap;
	}
	return &t->path[t->len - t->base];
}

void trace_do_step_begin(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct vet_trace *t = env->trace;
	struct trace_step *s;
	uint8_t cls;

	if (!t)
		return;
	s = grow(t);
	t->len++;
	if (!s)
		return;
	memset(s, 0, sizeof(*s));
	s->insn = env->insn_idx;
	s->frame = (uint8_t)env->cur->curframe;
	cls = BPF_CLASS(insn->code);
	if (cls == BPF_LDX)
		note_slot(env, s, insn->src_reg, insn->off);
	else if (cls == BPF_STX || cls == BPF_ST)
		note_slot(env, s, insn->dst_reg, insn->off);
}

/* The registers a step keeps: what it wrote, or for stores and
 * comparisons what it read. */
static uint8_t step_regs(const struct bpfvet_insn *insn, uint8_t frame, uint8_t post_frame,
			 uint8_t regno[TRACE_STEP_REGS])
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
	case BPF_LDX:
		regno[0] = insn->dst_reg;
		return 1;
	case BPF_LD:
		regno[0] = BPF_MODE(insn->code) == BPF_IMM ? insn->dst_reg : BPF_REG_0;
		return 1;
	case BPF_STX:
		regno[0] = BPF_MODE(insn->code) == BPF_ATOMIC && insn->imm == BPF_CMPXCHG ?
			   BPF_REG_0 : insn->src_reg;
		return 1;
	case BPF_ST:
		return 0;
	default:
		break;
	}
	if (op == BPF_JA)
		return 0;
	if (op == BPF_CALL) {
		if (post_frame != frame)
			return 0;
		regno[0] = BPF_REG_0;
		return 1;
	}
	if (op == BPF_EXIT) {
		if (post_frame == frame)
			return 0;
		regno[0] = BPF_REG_0;
		return 1;
	}
	regno[0] = insn->dst_reg;
	if (BPF_SRC(insn->code) != BPF_X)
		return 1;
	regno[1] = insn->src_reg;
	return 2;
}

static void snapshot(struct vet_env *env, struct trace_step *s)
{
	const struct reg_state *regs = cur_regs(env);

	for (uint8_t i = 0; i < s->nregs; i++)
		copy_reg(&s->regs[i], &regs[s->regno[i]]);
}

void trace_do_step_end(struct vet_env *env)
{
	struct vet_trace *t = env->trace;
	struct trace_step *s;

	if (!t || !trace_kept(t) || !env->cur)
		return;
	s = &t->path[t->len - 1 - t->base];
	s->post_frame = (uint8_t)env->cur->curframe;
	s->nregs = step_regs(&env->insns[s->insn], s->frame, s->post_frame, s->regno);
	snapshot(env, s);
}

uint32_t trace_len(const struct vet_env *env)
{
	return env->trace ? env->trace->len : 0;
}

/* A queued branch resumes: the path is the one up to its fork, and the
 * fork's registers are those of the branch now followed. */
void trace_rewind(struct vet_env *env, uint32_t len)
{
	struct vet_trace *t = env->trace;
	struct trace_step *s;

	if (!t || len > t->len)
		return;
	/* Back before the kept steps: the window starts again there. */
	if (len < t->base)
		t->base = len;
	t->len = len;
	t->truncated = t->base > 0;
	if (len == t->base || t->oom || !env->cur)
		return;
	s = &t->path[len - 1 - t->base];
	if (s->post_frame == env->cur->curframe)
		snapshot(env, s);
}

void trace_walk_failed(struct vet_env *env)
{
	struct vet_trace *t = env->trace;
	const struct reg_state *regs;

	if (!t || !env->cur || !env->cur->frame[env->cur->curframe])
		return;
	t->walk_failed = true;
	t->error_insn = env->insn_idx;
	t->error_prev_insn = env->prev_insn_idx;
	t->error_frame = (uint8_t)env->cur->curframe;
	t->held_ref_insn = -1;
	for (uint32_t i = 0; i < env->cur->acquired_refs; i++) {
		if (env->cur->refs[i].kind == REF_TYPE_PTR) {
			t->held_ref_insn = env->cur->refs[i].insn_idx;
			break;
		}
	}
	regs = cur_regs(env);
	for (int i = 0; i < MAX_BPF_REG; i++) {
		t->error_reg_set[i] = regs[i].type != NOT_INIT;
		copy_reg(&t->error_regs[i], &regs[i]);
	}
}

/* print_reg() writes to the log: borrow a private one. */
static char *render(struct vet_env *env, const struct trace_reg *tr, uint8_t frame)
{
	struct vet_log saved = env->log;
	char *text = NULL;

	log_init(&env->log, LOG_LEVEL1, NULL, NULL);
	if (tr->r.type == NOT_INIT)
		log_printf(&env->log, "?");
	else
		print_reg(env, frame, &tr->r);
	if (env->log.buf)
		text = strdup(env->log.buf);
	log_free(&env->log);
	env->log = saved;
	return text;
}

void trace_render(struct vet_env *env)
{
	struct vet_trace *t = env->trace;
	uint32_t n;

	if (!t)
		return;
	n = trace_kept(t);
	for (uint32_t i = 0; i < n; i++) {
		struct trace_step *s = &t->path[i];

		for (uint8_t k = 0; k < s->nregs; k++)
			s->regs[k].text = render(env, &s->regs[k], s->post_frame);
	}
	if (!t->walk_failed)
		return;
	for (int i = 0; i < MAX_BPF_REG; i++)
		if (t->error_reg_set[i])
			t->error_regs[i].text = render(env, &t->error_regs[i], t->error_frame);
}
