/* SPDX-License-Identifier: BSD-2-Clause */
/* The verifier log line parser of tests/unit/kernel_log.c, on lines taken
 * from Linux 6.18 logs. */
#include <string.h>

#include "kernel_log.h"
#include "test.h"

static enum klog_kind parse(const char *line, struct klog_insn *k)
{
	return klog_parse_line(line, strlen(line), k);
}

static void check_text(struct test_ctx *t, const struct klog_insn *k,
		       const char *want)
{
	CHECK_INT(t, k->text_len, strlen(want));
	CHECK(t, k->text && strncmp(k->text, want, k->text_len) == 0);
}

static void trace_lines(struct test_ctx *t)
{
	struct klog_insn k;

	CHECK_INT(t, parse("0: (b7) r0 = 0                        ; R0=0", &k),
		  KLOG_TRACE);
	CHECK_INT(t, k.idx, 0);
	check_text(t, &k, "(b7) r0 = 0");
	CHECK(t, k.pad_ok);
	CHECK_INT(t, k.state_len, 4);
	CHECK(t, strncmp(k.state, "R0=0", 4) == 0);

	CHECK_INT(t, parse("1: (db) r2 = load_acquire((u64 *)(r10 -8))    ; "
			   "R2=0 R10=fp0 fp-8=0", &k), KLOG_TRACE);
	check_text(t, &k, "(db) r2 = load_acquire((u64 *)(r10 -8))");
	CHECK(t, k.pad_ok);

	/* A call that changed nothing prints an empty state. */
	CHECK_INT(t, parse("0: (85) call bpf_rcu_read_lock#65420          ;", &k),
		  KLOG_TRACE);
	check_text(t, &k, "(85) call bpf_rcu_read_lock#65420");
	CHECK(t, k.pad_ok);
	CHECK_INT(t, k.state_len, 0);

	/* One column off. */
	CHECK_INT(t, parse("0: (b7) r0 = 0                         ; R0=0", &k),
		  KLOG_TRACE);
	CHECK(t, !k.pad_ok);

	CHECK_INT(t, parse("123: (95) exit", &k), KLOG_TRACE);
	CHECK_INT(t, k.idx, 123);
	check_text(t, &k, "(95) exit");
	CHECK(t, k.state == NULL);
	CHECK(t, k.pad_ok);

	CHECK_INT(t, parse("1: BUG_db", &k), KLOG_TRACE);
	check_text(t, &k, "BUG_db");

	/* var_off's ';' is inside the state, after the first one. */
	CHECK_INT(t, parse("1: (61) r2 = *(u32 *)(r6 +0)          ; "
			   "R2=scalar(var_off=(0x0; 0xffffffff))", &k), KLOG_TRACE);
	check_text(t, &k, "(61) r2 = *(u32 *)(r6 +0)");
	CHECK(t, k.pad_ok);
}

static void live_rows(struct test_ctx *t)
{
	struct klog_insn k;

	CHECK_INT(t, parse("      0: .......... (b7) r0 = 0", &k), KLOG_LIVE);
	CHECK_INT(t, k.idx, 0);
	CHECK_INT(t, k.scc, 0);
	check_text(t, &k, "(b7) r0 = 0");
	CHECK(t, strncmp(k.live, "..........", 10) == 0);

	CHECK_INT(t, parse("  3  55: ....4..... (07) r4 += 1", &k), KLOG_LIVE);
	CHECK_INT(t, k.scc, 3);
	CHECK_INT(t, k.idx, 55);
	check_text(t, &k, "(07) r4 += 1");

	CHECK_INT(t, parse("   1234: 0123456789 (30) r0 = *(u8 *)skb[0]", &k),
		  KLOG_LIVE);
	CHECK_INT(t, k.idx, 1234);

	/* "; zext" is aligned relative to the start of the text. */
	CHECK_INT(t, parse("      7: .1........ (04) w1 += 1"
			   "                           ; zext", &k), KLOG_LIVE);
	check_text(t, &k, "(04) w1 += 1");
	CHECK(t, k.pad_ok);
	CHECK_INT(t, k.state_len, 4);
	CHECK_INT(t, klog_live_note_column(12), 39);
}

static void precise_lines(struct test_ctx *t)
{
	struct klog_insn k;

	CHECK_INT(t, parse("mark_precise: frame0: regs=r3 stack= before 4: "
			   "(b7) r4 = 0", &k), KLOG_PRECISE);
	CHECK_INT(t, k.idx, 4);
	check_text(t, &k, "(b7) r4 = 0");
	CHECK_INT(t, parse("mark_precise: frame1: regs= stack= before 5: "
			   "(85) call bpf_loop#181", &k), KLOG_PRECISE);
	check_text(t, &k, "(85) call bpf_loop#181");
	CHECK_INT(t, parse("mark_precise: frame0: last_idx 5 first_idx 5 "
			   "subseq_idx -1 ", &k), KLOG_OTHER);
}

static void other_lines(struct test_ctx *t)
{
	static const char *const lines[] = {
		"0: R1=ctx() R10=fp0",
		"8: frame1: R1=scalar() R2=0 R10=fp0 cb",
		"from 5 to 8: frame1: R1=scalar() R2=0 R10=fp0 cb",
		"from 9 to 5: safe",
		"6: safe",
		"func#0 @0",
		"Live regs before insn:",
		"processed 2 insns (limit 1000000) max_states_per_insn 0",
		"R0 !read_ok",
		"; return 0; @ prog.c:12",
		"",
		"12:",
		" R1=4 R2=func() R3=0 R4=0 R10=fp0",
		"      0: ......... (b7) r0 = 0",
	};
	struct klog_insn k;
	size_t i;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		CHECK_MSG(t, parse(lines[i], &k) == KLOG_OTHER,
			  "\"%s\" taken for an instruction", lines[i]);
}

static void columns(struct test_ctx *t)
{
	/* Observed: short lines put ';' at 38, a 36-character line at 46. */
	CHECK_INT(t, klog_state_column(14), 38);
	CHECK_INT(t, klog_state_column(34), 38);
	CHECK_INT(t, klog_state_column(35), 38);
	CHECK_INT(t, klog_state_column(36), 46);
	CHECK_INT(t, klog_state_column(43), 46);
	CHECK_INT(t, klog_state_column(44), 54);
}

static void iterate(struct test_ctx *t)
{
	const char *log = "a\n\nbc\nd", *cur = log, *line;
	size_t len, n = 0, total = 0;

	while (klog_next_line(&cur, &line, &len)) {
		n++;
		total += len;
	}
	CHECK_INT(t, n, 4);
	CHECK_INT(t, total, 4);
	cur = "";
	CHECK(t, !klog_next_line(&cur, &line, &len));
	cur = NULL;
	CHECK(t, !klog_next_line(&cur, &line, &len));
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, trace_lines);
	RUN(&t, live_rows);
	RUN(&t, precise_lines);
	RUN(&t, other_lines);
	RUN(&t, columns);
	RUN(&t, iterate);
	return test_finish(&t);
}
