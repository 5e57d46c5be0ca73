/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Tracing contexts without BTF: kprobe (struct pt_regs), tracepoint (the
 * raw perf record), raw_tracepoint(_writable) (u64 args[12]) and
 * perf_event (struct bpf_perf_event_data). All are read-only.
 */
#include <stddef.h>
#include <stdint.h>

#include "ctx_table.h"
#include "base/uapi.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define RO(s, e, rd) { (s), (e), rd, R_DENY, 0, NULL }

/* Any aligned read inside the window. */
static const struct ctx_row any_rows[] = {
	RO(0, 65535, R_ANY),
};

/*
 * Tracepoints hide the first 8 bytes of the record (common_type and
 * friends) and end at PERF_MAX_TRACE_SIZE, 8192 in Linux 6.18. The
 * kernel's lower bound compares the int offset with a sizeof, an
 * unsigned comparison, while the upper bound is signed: so every
 * negative offset passes both. Observed on 6.18 down to -32768.
 */
static const struct ctx_row tp_rows[] = {
	RO(INT32_MIN, 0, R_ANY),
	RO(8, 8192, R_ANY),
};

/* args[0] of a writable raw tracepoint is the tracepoint's buffer. */
static const struct ctx_row raw_tp_w_rows[] = {
	{ 0, 1, R_EXACT(8), R_DENY, CTX_PTR_TO_TP_BUFFER, NULL },
	RO(1, 96, R_ANY),
};

static const struct ctx_row perf_event_rows[] = {
	RO(0, 168, R_EXACT(8)),			/* regs: whole registers */
	RO(168, 184, R_NARROW(8)),		/* sample_period, addr */
};

/* pt_regs of x86-64 */
static const struct ctx_layout kprobe_layout = { any_rows, 1, 0, 168 };
static const struct ctx_layout tp_layout = {
	tp_rows, NROWS(tp_rows), INT32_MIN, 8192
};
/* MAX_BPF_FUNC_ARGS u64 arguments */
static const struct ctx_layout raw_tp_layout = { any_rows, 1, 0, 96 };
static const struct ctx_layout raw_tp_w_layout = {
	raw_tp_w_rows, NROWS(raw_tp_w_rows), 0, 96
};
static const struct ctx_layout perf_event_layout = {
	perf_event_rows, NROWS(perf_event_rows), 0, 184
};

bool ctx_trace_check(const struct ctx_query *q, struct ctx_access *out)
{
	switch (q->prog_type) {
	case BPF_PROG_TYPE_KPROBE:
		return ctx_layout_check(&kprobe_layout, q, out);
	case BPF_PROG_TYPE_TRACEPOINT:
		return ctx_layout_check(&tp_layout, q, out);
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
		return ctx_layout_check(&raw_tp_layout, q, out);
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
		return ctx_layout_check(&raw_tp_w_layout, q, out);
	case BPF_PROG_TYPE_PERF_EVENT:
		return ctx_layout_check(&perf_event_layout, q, out);
	default:
		return false;
	}
}
