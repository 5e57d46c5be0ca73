/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_program__explain(): a traced verification, then the reading of
 * its trace (slice.c, loss.c, classify.c), and the accessors.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain.h"

const char *bpfvet_explain_class_name(enum bpfvet_explain_class c)
{
	switch (c) {
	case BPFVET_EXPLAIN_PROGRAM_BUG:
		return "program-bug";
	case BPFVET_EXPLAIN_COMPILER:
		return "compiler";
	case BPFVET_EXPLAIN_VERIFIER_LIMIT:
		return "verifier-limit";
	case BPFVET_EXPLAIN_UNSUPPORTED:
		return "unsupported";
	default:
		return "none";
	}
}

static bool is_cond_jump(const struct bpfvet_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), op = BPF_OP(insn->code);

	return (cls == BPF_JMP || cls == BPF_JMP32) && op != BPF_JA && op != BPF_CALL &&
	       op != BPF_EXIT;
}

/* The registers a step kept, joined as the log prints them. */
static const char *join_state(const struct trace_step *s, char **owned)
{
	size_t n = 0;
	char *buf;

	*owned = NULL;
	for (uint8_t k = 0; k < s->nregs; k++)
		n += 8 + (s->regs[k].text ? strlen(s->regs[k].text) : 1);
	if (!n)
		return "";
	buf = malloc(n + 1);
	if (!buf)
		return "";
	buf[0] = 0;
	for (uint8_t k = 0, m = 0; k < s->nregs; k++) {
		size_t len = strlen(buf);

		/* A comparison with itself names the register once. */
		if (k && s->regno[k] == s->regno[0])
			continue;
		snprintf(buf + len, n + 1 - len, "%sR%u=%s", m++ ? " " : "", s->regno[k],
			 s->regs[k].text ? s->regs[k].text : "?");
	}
	*owned = buf;
	return buf;
}

static int build_path(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;
	size_t n = trace_kept(t);

	if (!t->walk_failed || !n)
		return 0;
	e->path = calloc(n + 1, sizeof(*e->path));
	if (!e->path)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct trace_step *s = &t->path[i];
		struct bpfvet_path_step *p = &e->path[i];
		char *owned;

		p->insn = s->insn;
		p->frame = s->frame;
		p->state = join_state(s, &owned);
		/* The step owns its text: the trace's texts are freed with it. */
		if (!owned)
			p->state = "";
		else
			p->state = owned;
		if (i + 1 < n && is_cond_jump(&e->prog->insns[s->insn]))
			p->branch = t->path[i + 1].insn == s->insn + 1 ?
				    BPFVET_BRANCH_NOT_TAKEN : BPFVET_BRANCH_TAKEN;
		e->path_cnt++;
	}
	/* Errors found at a prune point (an infinite loop) or by the
	 * instruction count stop before their step begins. */
	if (e->error_insn >= 0 && e->path[n - 1].insn != (uint32_t)e->error_insn) {
		e->path[n].insn = (uint32_t)e->error_insn;
		e->path[n].frame = t->error_frame;
		e->path[n].state = "";
		e->path_cnt++;
	}
	return 0;
}

/* Errors found before or after the walk name their instruction in the
 * message, if at all ("... insn 12 ...", "from insn 3 to 7"). */
static int64_t insn_from_message(const char *msg)
{
	const char *p = strstr(msg, "insn ");

	while (p) {
		char *end;
		long v = strtol(p + 5, &end, 10);

		if (end != p + 5 && v >= 0)
			return v;
		p = strstr(p + 5, "insn ");
	}
	return -1;
}

static void find_error_insn(struct bpfvet_explanation *e)
{
	e->error_insn = -1;
	if (e->res.verdict == BPFVET_ACCEPTED)
		return;
	/* Past the instruction limit the walk stops before the next
	 * instruction: the kernel's log ends at the last one processed. */
	if (e->trace->walk_failed && strstr(e->res.error, "BPF program is too large"))
		e->error_insn = e->trace->error_prev_insn;
	else if (e->trace->walk_failed)
		e->error_insn = e->trace->error_insn;
	else if (e->res.verdict == BPFVET_REJECTED)
		e->error_insn = insn_from_message(e->res.error);
	if (e->error_insn >= (int64_t)e->prog->insn_cnt)
		e->error_insn = -1;
}

static int copy_stats(struct bpfvet_explanation *e)
{
	const struct vet_trace *t = e->trace;

	e->stats = calloc(t->insn_cnt ? t->insn_cnt : 1, sizeof(*e->stats));
	if (!e->stats)
		return -ENOMEM;
	for (uint32_t i = 0; i < t->insn_cnt; i++) {
		e->stats[i].visits = t->stats[i].visits;
		e->stats[i].states = t->stats[i].states;
		e->stats[i].prune_hits = t->stats[i].prune_hits;
		e->stats[i].prune_misses = t->stats[i].prune_misses;
		e->stats[i].precise_marks = t->stats[i].precise;
	}
	e->stats_cnt = t->insn_cnt;
	return 0;
}

static int explain(struct bpfvet_explanation *e)
{
	int err = copy_stats(e);

	if (err)
		return err;
	find_error_insn(e);
	if (e->res.verdict == BPFVET_ACCEPTED)
		return 0;
	err = build_path(e);
	if (err)
		return err;
	explain_slice(e);
	explain_loss(e);
	explain_classify(e);
	return 0;
}

int bpfvet_program__explain(const struct bpfvet_program *prog,
			    const struct bpfvet_explain_opts *opts,
			    struct bpfvet_explanation **out)
{
	struct bpfvet_explanation *e;
	int err;

	if (!prog || !out)
		return -EINVAL;
	*out = NULL;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	e->prog = prog;
	e->checked_reg = -1;
	e->error_insn = -1;
	e->root_insn = -1;
	e->res.sz = sizeof(e->res);
	e->trace = trace_new((uint32_t)prog->insn_cnt);
	if (!e->trace) {
		free(e);
		return -ENOMEM;
	}
	err = verify_traced(prog, OPTS_GET(opts, verify, NULL), &e->res, e->trace);
	if (!err)
		err = explain(e);
	if (err && err != -ENOEXEC) {
		bpfvet_explanation__free(e);
		return err;
	}
	if (err == -ENOEXEC)
		explain_classify(e);
	*out = e;
	return 0;
}

void bpfvet_explanation__free(struct bpfvet_explanation *e)
{
	if (!e)
		return;
	for (size_t i = 0; i < e->path_cnt; i++)
		if (e->path[i].state[0])
			free((char *)e->path[i].state);
	free(e->path);
	free(e->stats);
	trace_free(e->trace);
	free(e);
}

const struct bpfvet_result *bpfvet_explanation__result(const struct bpfvet_explanation *e)
{
	return &e->res;
}

int64_t bpfvet_explanation__error_insn(const struct bpfvet_explanation *e)
{
	return e->error_insn;
}

int64_t bpfvet_explanation__root_insn(const struct bpfvet_explanation *e)
{
	return e->root_insn;
}

const char *bpfvet_explanation__checked(const struct bpfvet_explanation *e)
{
	return e->checked_reg >= 0 ? e->checked_name : NULL;
}

int bpfvet_explanation__line(const struct bpfvet_explanation *e, uint32_t insn,
			     struct bpfvet_source_line *line)
{
	return explain_source_line(e->prog, insn, line);
}

const struct bpfvet_path_step *bpfvet_explanation__path(const struct bpfvet_explanation *e,
							 size_t *cnt)
{
	*cnt = e->path_cnt;
	return e->path;
}

bool bpfvet_explanation__path_truncated(const struct bpfvet_explanation *e)
{
	return e->trace->truncated;
}

const struct bpfvet_slice_item *bpfvet_explanation__slice(const struct bpfvet_explanation *e,
							   size_t *cnt)
{
	*cnt = e->slice_cnt;
	return e->slice;
}

const struct bpfvet_loss *bpfvet_explanation__loss(const struct bpfvet_explanation *e)
{
	return e->has_loss ? &e->loss : NULL;
}

enum bpfvet_explain_class bpfvet_explanation__class(const struct bpfvet_explanation *e)
{
	return e->cls;
}

const char *bpfvet_explanation__hint(const struct bpfvet_explanation *e)
{
	return e->hint;
}

const struct bpfvet_insn_stats *bpfvet_explanation__insn_stats(const struct bpfvet_explanation *e,
								size_t *cnt)
{
	*cnt = e->stats_cnt;
	return e->stats;
}
