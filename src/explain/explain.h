/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Explanations of verdicts (bpfvet_program__explain(), docs/explain.md):
 * the verifier runs with its walk traced (state/trace.h), and the trace
 * of the failing path is read back into the error's place, the branch
 * decisions, the slice of the checked value, the point where knowledge
 * of it was lost, and a class with a hint. Above the verifier: it only
 * reads what a walk left.
 */
#ifndef BPFVET_EXPLAIN_H
#define BPFVET_EXPLAIN_H

#include "verifier/verifier.h"

/* Most slice items kept: the value's history near the error matters. */
#define EXPLAIN_SLICE_MAX 64

struct bpfvet_explanation {
	const struct bpfvet_program *prog;
	struct bpfvet_result res;
	struct vet_trace *trace;
	int64_t error_insn;
	int64_t root_insn;		/* what the explanation blames, -1: none */
	int checked_reg;		/* -1: none */
	char checked_name[8];
	struct bpfvet_path_step *path;
	size_t path_cnt;
	struct bpfvet_slice_item slice[EXPLAIN_SLICE_MAX];
	size_t slice_cnt;
	bool has_loss;
	struct bpfvet_loss loss;
	char loss_reason[320];
	enum bpfvet_explain_class cls;
	char hint[512];
	struct bpfvet_insn_stats *stats;
	size_t stats_cnt;
};

/* source.c: the line_info entry of an instruction. */
int explain_source_line(const struct bpfvet_program *prog, uint32_t insn,
			struct bpfvet_source_line *line);

/* slice.c: the values the failing check read, back over the path. */
/* The error is about a value's type or bounds (not a loop, a leak, a
 * limit, an unknown function): it has a checked value. */
bool explain_about_value(const char *msg);
void explain_slice(struct bpfvet_explanation *e);
/* The step of the path that last wrote (frame, reg) before pos, or -1;
 * *k is the index of the register in that step. */
int64_t explain_last_def(const struct vet_trace *t, uint32_t pos, uint32_t frame,
			 uint32_t reg, uint32_t *k);

/* Marks in mark[] (one byte per path step) the steps that made the value
 * of (frame, reg) as it is at path position end; false when none. */
bool explain_chain(const struct vet_trace *t, const struct bpfvet_program *prog,
		   uint32_t end, uint32_t frame, uint32_t reg, uint8_t *mark);

/* loss.c: where the checked value's knowledge was lost. */
void explain_loss(struct bpfvet_explanation *e);

/* classify.c: the class and the hint. */
void explain_classify(struct bpfvet_explanation *e);

#endif
