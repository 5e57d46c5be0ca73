/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Precision against the kernel: replays every program recorded by
 * tests/scalar/gen.c (tests/fixtures/scalar/progs.txt.gz, format described
 * there) on our number domain with a deliberately tiny interpreter, and
 * compares the printed scalar states with the kernel's after each
 * instruction and at every resumed branch.
 *
 * The interpreter explores paths in the kernel's order (fall-through
 * first, pushed branches popped last-in first-out) and takes the kernel's
 * pruning decisions from the log ("safe" records) because pruning is not
 * part of the number domain. Everything else (which jumps are decided,
 * every register's bounds, invariant violations) is computed here.
 *
 * Set SCALAR_VERBOSE=1 to print every disagreeing program.
 *
 * --live: loads every recorded program into the running kernel again, as
 * gen.c did, and prints a DRIFT line for each program whose record the
 * kernel now writes differently (see live.h, scalar_live.c).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "kernel_log.h"
#include "live.h"
#include "domain/scalar.h"
#include "scalar_live.h"
#include "test.h"
#include "base/uapi.h"

#define MAX_INSNS 128
#define MAX_PENDING 64
#define LINE_MAX_LEN 65536

enum kind { K_NONE, K_SCALAR, K_CTX, K_FP };

struct reg {
	enum kind kind;
	struct bounds b;
};

struct state {
	struct reg r[11];
	int pc;
};

struct pending {
	int from, to;
	struct state st;
};

struct insn {
	uint8_t code, dst, src;
	int16_t off;
	int32_t imm;
};

struct prog {
	struct insn insn[MAX_INSNS];
	int len;
};

/* Replay of one program. */
struct replay {
	const struct prog *p;
	struct state cur;
	bool live;		/* a path is being executed */
	struct pending stack[MAX_PENDING];
	int depth;
	char err[512];		/* invariant violation of the last insn */
	/* First difference found, if any. */
	char diff[1024];
	/* Counters. */
	long insns, regs, reg_diffs;
	long alu[16], alu32, jmp_decided, jmp_open, forks, movsx, loads;
	/* Syncs go through one memo for the whole file: the recorded kernel
	 * states check its answers too. */
	struct bounds_memo *memo;
};

struct totals {
	long progs, agree, insns, regs, reg_diffs, rejected;
	long alu[16], alu32, jmp_decided, jmp_open, forks, movsx, loads;
	int shown;
	bool verbose;
	long unexpected;	/* differing programs not in known_differences */
};

/*
 * Programs of tests/fixtures/scalar/progs.txt.gz known to differ from the
 * kernel, each explained in docs/scalar-domain.md. Any other difference
 * fails the test. (Empty: every recorded program agrees.)
 */
static const long known_differences[] = { -1 };

static bool is_known_difference(long num)
{
	size_t i;

	for (i = 0; i < sizeof(known_differences) / sizeof(known_differences[0]); i++)
		if (known_differences[i] == num)
			return true;
	return false;
}

/* ---- Fixture parsing ----------------------------------------------------- */

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

static bool parse_code(const char *hex, struct prog *p)
{
	size_t n = strlen(hex), i, k;

	while (n && (hex[n - 1] == '\n' || hex[n - 1] == ' '))
		n--;
	if (n % 16 || n / 16 > MAX_INSNS)
		return false;
	p->len = (int)(n / 16);
	for (i = 0; i < (size_t)p->len; i++) {
		uint8_t b[8];

		for (k = 0; k < 8; k++) {
			int hi = hexval(hex[i * 16 + k * 2]);
			int lo = hexval(hex[i * 16 + k * 2 + 1]);

			if (hi < 0 || lo < 0)
				return false;
			b[k] = (uint8_t)(hi << 4 | lo);
		}
		p->insn[i].code = b[0];
		p->insn[i].dst = b[1] & 15;
		p->insn[i].src = b[1] >> 4;
		p->insn[i].off = (int16_t)(b[2] | b[3] << 8);
		p->insn[i].imm = (int32_t)((uint32_t)b[4] | (uint32_t)b[5] << 8 |
					   (uint32_t)b[6] << 16 |
					   (uint32_t)b[7] << 24);
	}
	return true;
}

/* ---- Differences ----------------------------------------------------------- */

static void differ(struct replay *rp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void differ(struct replay *rp, const char *fmt, ...)
{
	va_list ap;

	if (rp->diff[0])
		return;
	va_start(ap, fmt);
	vsnprintf(rp->diff, sizeof(rp->diff), fmt, ap);
	va_end(ap);
}

/* ---- Interpreter --------------------------------------------------------- */

static void set_scalar(struct reg *r, const struct bounds *b)
{
	r->kind = K_SCALAR;
	r->b = *b;
}

static void check_alu_invariants(struct replay *rp, const struct reg *r)
{
	if (r->kind == K_SCALAR)
		bounds_check_ctx(&r->b, "alu", rp->err, sizeof(rp->err));
}

static void exec_mov(struct replay *rp, const struct insn *in, bool alu32)
{
	struct reg *d = &rp->cur.r[in->dst];
	struct bounds b;

	if (!(in->code & BPF_X)) {
		if (alu32)
			bounds_const(&b, (uint32_t)in->imm);
		else
			bounds_const(&b, (uint64_t)(int64_t)in->imm);
		set_scalar(d, &b);
		return;
	}
	*d = rp->cur.r[in->src];
	if (d->kind != K_SCALAR)
		return;
	if (in->off)
		rp->movsx++;
	if (alu32) {
		if (in->off)
			bounds_sext32(&d->b, in->off / 8);
		else
			bounds_zext32(&d->b);
	} else if (in->off) {
		bounds_sext(&d->b, in->off / 8);
	}
	check_alu_invariants(rp, d);
}

static void push(struct replay *rp, int from, int to, const struct state *st)
{
	if (rp->depth >= MAX_PENDING) {
		differ(rp, "insn %d: too many pending branches", from);
		return;
	}
	rp->stack[rp->depth].from = from;
	rp->stack[rp->depth].to = to;
	rp->stack[rp->depth].st = *st;
	rp->depth++;
}

static void exec_alu(struct replay *rp, const struct insn *in)
{
	bool alu32 = BPF_CLASS(in->code) == BPF_ALU;
	uint8_t op = BPF_OP(in->code);
	struct reg *d = &rp->cur.r[in->dst];
	struct bounds src, zero;

	rp->alu[op >> 4]++;
	rp->alu32 += alu32;
	switch (op) {
	case BPF_MOV:
		exec_mov(rp, in, alu32);
		return;
	case BPF_NEG:
		scalar_neg(&d->b, alu32);
		break;
	case BPF_END:
		scalar_end(&d->b, in->imm, !alu32 ? false : !!(in->code & BPF_X),
			   !alu32);
		break;
	default:
		if (in->code & BPF_X)
			src = rp->cur.r[in->src].b;
		else
			bounds_const(&src, (uint64_t)(int64_t)in->imm);
		if (scalar_alu_fork(&d->b, &src, op, &zero)) {
			struct state other = rp->cur;

			other.r[in->dst].b = zero;
			push(rp, rp->cur.pc, rp->cur.pc, &other);
			rp->forks++;
		}
		scalar_alu(&d->b, &src, op, alu32, in->off, rp->memo);
		break;
	}
	check_alu_invariants(rp, d);
}

static void exec_ldx(struct replay *rp, const struct insn *in)
{
	static const int size_of[4] = { 4, 2, 1, 8 };
	int size = size_of[BPF_SIZE(in->code) >> 3];
	struct reg *d = &rp->cur.r[in->dst];

	rp->loads++;
	d->kind = K_SCALAR;
	bounds_unknown(&d->b);
	if (BPF_MODE(in->code) == BPF_MEMSX)
		bounds_sext(&d->b, size);
	else if (size < 8)
		bounds_truncate(&d->b, size);
}

static void refine_edge(struct state *st, const struct insn *in,
			struct bounds *fake, uint8_t op, bool is32,
			struct bounds_memo *memo)
{
	struct bounds *a = &st->r[in->dst].b;
	struct bounds *b = (in->code & BPF_X) ? &st->r[in->src].b : fake;

	scalar_branch_refine(a, b, op, is32, memo);
}

static void check_jmp_invariants(struct replay *rp, const struct insn *in,
				 struct state *taken, struct bounds *fake_t,
				 struct bounds *fake_f)
{
	bool x = in->code & BPF_X;
	struct bounds *checks[4] = {
		&taken->r[in->dst].b, x ? &taken->r[in->src].b : fake_t,
		&rp->cur.r[in->dst].b, x ? &rp->cur.r[in->src].b : fake_f,
	};
	static const char *const names[4] = {
		"true_reg1", "true_reg2", "false_reg1", "false_reg2",
	};
	int i;

	for (i = 0; i < 4; i++)
		if (bounds_check_ctx(checks[i], names[i], rp->err,
				     sizeof(rp->err)))
			return;
}

static void exec_jmp(struct replay *rp, const struct insn *in)
{
	bool is32 = BPF_CLASS(in->code) == BPF_JMP32;
	uint8_t op = BPF_OP(in->code);
	struct bounds fake_t, fake_f;
	const struct bounds *b;
	struct state taken;
	int pc = rp->cur.pc, r;

	bounds_const(&fake_t, (uint64_t)(int64_t)in->imm);
	fake_f = fake_t;
	b = (in->code & BPF_X) ? &rp->cur.r[in->src].b : &fake_t;
	r = scalar_branch_taken(&rp->cur.r[in->dst].b, b, op, is32);
	if (r >= 0)
		rp->jmp_decided++;
	else
		rp->jmp_open++;
	if (r == 1) {
		rp->cur.pc = pc + 1 + in->off;
		return;
	}
	if (r == 0) {
		rp->cur.pc = pc + 1;
		return;
	}
	taken = rp->cur;
	/* Fall-through edge first, as the kernel does. */
	refine_edge(&rp->cur, in, &fake_f, jmp_op_negate(op), is32, rp->memo);
	refine_edge(&taken, in, &fake_t, op, is32, rp->memo);
	check_jmp_invariants(rp, in, &taken, &fake_t, &fake_f);
	taken.pc = pc + 1 + in->off;
	push(rp, pc, taken.pc, &taken);
	rp->cur.pc = pc + 1;
}

/* Executes the instruction at cur.pc; returns false when the path ends. */
static bool exec_insn(struct replay *rp)
{
	const struct insn *in = &rp->p->insn[rp->cur.pc];
	uint8_t cls = BPF_CLASS(in->code);

	rp->err[0] = '\0';
	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		exec_alu(rp, in);
		rp->cur.pc++;
		return true;
	case BPF_LDX:
		exec_ldx(rp, in);
		rp->cur.pc++;
		return true;
	case BPF_LD: {
		struct bounds b;
		uint64_t v = (uint32_t)in->imm |
			     (uint64_t)(uint32_t)in[1].imm << 32;

		bounds_const(&b, v);
		set_scalar(&rp->cur.r[in->dst], &b);
		rp->cur.pc += 2;
		return true;
	}
	case BPF_JMP:
	case BPF_JMP32:
		if (BPF_OP(in->code) == BPF_EXIT)
			return false;
		exec_jmp(rp, in);
		return true;
	default:
		differ(rp, "insn %d: unsupported opcode 0x%x", rp->cur.pc,
		       in->code);
		return false;
	}
}

/* ---- Comparing printed states ------------------------------------------- */

/* Compares every "R<n>=<state>" of the kernel's list with ours. */
static void compare_regs(struct replay *rp, int idx, const char *list)
{
	char tok[512], ours[512];
	const char *s = list;

	while (klog_next_token(&s, tok, sizeof(tok))) {
		const char *eq = strchr(tok, '=');
		int reg;

		if (tok[0] != 'R' || !eq)
			continue;
		reg = atoi(tok + 1);
		if (reg < 0 || reg > 10)
			continue;
		rp->regs++;
		if (rp->cur.r[reg].kind != K_SCALAR)
			snprintf(ours, sizeof(ours), "(not a scalar)");
		else
			scalar_print(ours, sizeof(ours), &rp->cur.r[reg].b);
		if (strcmp(ours, eq + 1) != 0) {
			char what[600];

			rp->reg_diffs++;
			snprintf(what, sizeof(what), "R%d", reg);
			if (!rp->diff[0])
				snprintf(rp->diff, sizeof(rp->diff),
					 "insn %d %s: ours %s, kernel %s", idx,
					 what, ours, eq + 1);
		}
	}
}

/* ---- Records ------------------------------------------------------------- */

static void rec_insn(struct replay *rp, const char *rest)
{
	char *end;
	int idx = (int)strtol(rest, &end, 10);

	rp->insns++;
	if (!rp->live) {
		differ(rp, "insn %d: kernel runs it, we have no path", idx);
		return;
	}
	if (idx != rp->cur.pc) {
		differ(rp, "kernel at insn %d, we at %d", idx, rp->cur.pc);
		return;
	}
	if (idx < 0 || idx >= rp->p->len) {
		differ(rp, "insn %d out of range", idx);
		return;
	}
	rp->live = exec_insn(rp);
	compare_regs(rp, idx, end);
}

static bool pop(struct replay *rp, int a, int b, struct state *out)
{
	struct pending *top;

	if (rp->live) {
		differ(rp, "branch %d->%d resumes while our path at %d runs",
		       a, b, rp->cur.pc);
		return false;
	}
	if (!rp->depth) {
		differ(rp, "branch %d->%d resumes, we have none pending", a, b);
		return false;
	}
	top = &rp->stack[--rp->depth];
	if (top->from != a || top->to != b) {
		differ(rp, "kernel resumes %d->%d, we pending %d->%d", a, b,
		       top->from, top->to);
		return false;
	}
	*out = top->st;
	return true;
}

static void rec_from(struct replay *rp, const char *rest, bool safe)
{
	char *end;
	int a = (int)strtol(rest, &end, 10);
	int b = (int)strtol(end, &end, 10);
	struct state st;

	if (!pop(rp, a, b, &st))
		return;
	if (safe)
		return;
	rp->cur = st;
	rp->live = true;
	compare_regs(rp, b, end);
}

static void rec_safe(struct replay *rp, const char *rest)
{
	int idx = atoi(rest);

	if (!rp->live || rp->cur.pc != idx) {
		differ(rp, "kernel prunes at %d, we at %d", idx,
		       rp->live ? rp->cur.pc : -1);
		return;
	}
	rp->live = false;
}

static void rec_error(struct replay *rp, const char *rest)
{
	const char *msg = strchr(rest, ' ');

	msg = msg ? msg + 1 : "";
	if (strcmp(rp->err, msg) != 0)
		differ(rp, "kernel rejects: \"%s\", we: \"%s\"", msg, rp->err);
	rp->live = false;
	rp->depth = 0;
}

static void rec_end(struct replay *rp)
{
	if (rp->err[0])
		differ(rp, "kernel accepts, we report \"%s\"", rp->err);
	if (rp->live || rp->depth)
		differ(rp, "kernel done, we still have %d pending", rp->depth);
}

static void replay_init(struct replay *rp, const struct prog *p,
			struct bounds_memo *memo)
{
	int i;

	memset(rp, 0, sizeof(*rp));
	rp->p = p;
	rp->memo = memo;
	for (i = 0; i < 11; i++)
		rp->cur.r[i].kind = K_NONE;
	rp->cur.r[1].kind = K_CTX;
	rp->cur.r[10].kind = K_FP;
	rp->live = true;
}

static void finish_prog(struct totals *tot, struct replay *rp, long num)
{
	int i;

	tot->progs++;
	tot->insns += rp->insns;
	tot->regs += rp->regs;
	tot->reg_diffs += rp->reg_diffs;
	for (i = 0; i < 16; i++)
		tot->alu[i] += rp->alu[i];
	tot->alu32 += rp->alu32;
	tot->jmp_decided += rp->jmp_decided;
	tot->jmp_open += rp->jmp_open;
	tot->forks += rp->forks;
	tot->movsx += rp->movsx;
	tot->loads += rp->loads;
	if (!rp->diff[0]) {
		tot->agree++;
		return;
	}
	if (!is_known_difference(num))
		tot->unexpected++;
	if (tot->verbose || tot->shown < 10) {
		printf("  differs: program %ld: %s\n", num, rp->diff);
		tot->shown++;
	}
}

static bool replay_file(const char *path, struct totals *tot)
{
	static struct prog prog;
	static struct replay rp;
	static struct bounds_memo memo;
	char *line = malloc(LINE_MAX_LEN);
	gzFile in = gzopen(path, "rb");
	long num = -1;
	bool open_prog = false;

	if (!in || !line) {
		free(line);
		if (in)
			gzclose(in);
		return false;
	}
	while (gzgets(in, line, LINE_MAX_LEN)) {
		size_t n = strlen(line);

		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		switch (line[0]) {
		case 'p':
			num = atol(line + 2);
			open_prog = false;
			break;
		case 'c':
			open_prog = parse_code(line + 2, &prog);
			if (open_prog)
				replay_init(&rp, &prog, &memo);
			break;
		case 'i':
			if (open_prog && !rp.diff[0])
				rec_insn(&rp, line + 2);
			break;
		case 'f':
			if (open_prog && !rp.diff[0])
				rec_from(&rp, line + 2, false);
			break;
		case 'F':
			if (open_prog && !rp.diff[0])
				rec_from(&rp, line + 2, true);
			break;
		case 's':
			if (open_prog && !rp.diff[0])
				rec_safe(&rp, line + 2);
			break;
		case 'e':
			if (open_prog) {
				if (!rp.diff[0])
					rec_error(&rp, line + 2);
				tot->rejected++;
				finish_prog(tot, &rp, num);
			}
			open_prog = false;
			break;
		case '.':
			if (open_prog) {
				if (!rp.diff[0])
					rec_end(&rp);
				finish_prog(tot, &rp, num);
			}
			open_prog = false;
			break;
		default:
			break;
		}
	}
	gzclose(in);
	free(line);
	return true;
}

static void test_kernel_agreement(struct test_ctx *t)
{
	const char *path = getenv("BPFVET_SCALAR_FIXTURES");
	struct totals tot = { 0 };
	double share;

	tot.verbose = getenv("SCALAR_VERBOSE") != NULL;
	if (!path)
		path = "tests/fixtures/scalar/progs.txt.gz";
	if (!replay_file(path, &tot)) {
		CHECK_MSG(t, false, "cannot read %s", path);
		return;
	}
	share = tot.progs ? (double)tot.agree / (double)tot.progs : 0;
	printf("  kernel agreement: %ld/%ld programs (%.3f%%), %ld insns, "
	       "%ld register states compared, %ld differ, %ld rejected by "
	       "the kernel\n",
	       tot.agree, tot.progs, share * 100, tot.insns, tot.regs,
	       tot.reg_diffs, tot.rejected);
	printf("  replayed: %ld loads, ALU ops add %ld sub %ld mul %ld div %ld "
	       "or %ld and %ld lsh %ld rsh %ld neg %ld mod %ld xor %ld mov %ld "
	       "arsh %ld end %ld (%ld of them 32-bit), %ld movsx, %ld forks, "
	       "jumps %ld decided / %ld both ways\n",
	       tot.loads, tot.alu[0], tot.alu[1], tot.alu[2], tot.alu[3],
	       tot.alu[4], tot.alu[5], tot.alu[6], tot.alu[7], tot.alu[8],
	       tot.alu[9], tot.alu[10], tot.alu[11], tot.alu[12], tot.alu[13],
	       tot.alu32, tot.movsx, tot.forks, tot.jmp_decided, tot.jmp_open);
	CHECK_MSG(t, tot.progs >= 10000, "only %ld programs", tot.progs);
	CHECK_MSG(t, tot.unexpected == 0,
		  "%ld programs differ that are not in known_differences[]",
		  tot.unexpected);
	CHECK_MSG(t, share >= 0.999, "agreement %.3f%% below 99.9%%",
		  share * 100);
}

/* ---- --live: the kernel against the record -------------------------------- */

/* One recorded program: its instructions and its record lines. */
struct block {
	long num;
	uint8_t code[MAX_INSNS * 8];
	size_t cnt;
	char *lines;		/* the lines after "c", each with its newline */
	size_t len, cap;
};

static bool decode_code(const char *hex, struct block *b)
{
	size_t n = strcspn(hex, " \n");

	if (n % 16 || n / 16 > MAX_INSNS)
		return false;
	for (size_t i = 0; i < n / 2; i++) {
		int hi = hexval(hex[2 * i]), lo = hexval(hex[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return false;
		b->code[i] = (uint8_t)(hi << 4 | lo);
	}
	b->cnt = n / 16;
	return true;
}

static int add_line(struct block *b, const char *line)
{
	size_t n = strlen(line);

	if (b->len + n + 2 > b->cap) {
		size_t cap = 2 * (b->len + n + 2);
		char *grown = realloc(b->lines, cap);

		if (!grown)
			return -1;
		b->lines = grown;
		b->cap = cap;
	}
	memcpy(b->lines + b->len, line, n);
	b->len += n;
	b->lines[b->len++] = '\n';
	b->lines[b->len] = '\0';
	return 0;
}

/* Line k of a newline-separated text into buf; false past the end. */
static bool nth_line(const char *text, size_t k, char *buf, size_t sz)
{
	const char *p = text;

	for (; k && *p; k--)
		p += strcspn(p, "\n") + (p[strcspn(p, "\n")] == '\n');
	if (!*p)
		return false;
	snprintf(buf, sz, "%.*s", (int)strcspn(p, "\n"), p);
	return true;
}

static size_t count_lines(const char *text)
{
	size_t n = 0;

	for (const char *p = text; *p; p++)
		n += *p == '\n';
	return n;
}

/* One program: the first record line that differs, and the line count. */
static int drift_block(struct drift *d, const struct block *b)
{
	char item[32], r[512], l[512], field[32], *live = NULL;
	int err = scalar_live_record(b->code, b->cnt, &live);

	snprintf(item, sizeof(item), "scalar/p%ld", b->num);
	if (err == -ENOMEM)
		return err;
	if (err) {
		drift_field(d, item, "load", "a log", strerror(-err));
		drift_item_end(d);
		return 0;
	}
	for (size_t k = 0;; k++) {
		bool hr = nth_line(b->lines, k, r, sizeof(r));
		bool hl = nth_line(live, k, l, sizeof(l));

		if (!hr && !hl)
			break;
		if (hr && hl && !strcmp(r, l))
			continue;
		snprintf(field, sizeof(field), "record line %zu", k + 1);
		drift_str(d, item, field, hr ? r : "(none)", hl ? l : "(none)");
		break;
	}
	drift_num(d, item, "record lines", (long long)count_lines(b->lines),
		  (long long)count_lines(live));
	drift_item_end(d);
	free(live);
	return 0;
}

static int run_live(const char *path)
{
	static struct block b;
	char *line = malloc(LINE_MAX_LEN);
	gzFile in = gzopen(path, "rb");
	struct drift d;
	bool open_prog = false;
	int rc = 0;

	if (!in || !line) {
		printf("FAIL test_scalar_kernel: --live: cannot read %s\n", path);
		free(line);
		if (in)
			gzclose(in);
		return 1;
	}
	drift_init(&d, "test_scalar_kernel");
	while (!rc && gzgets(in, line, LINE_MAX_LEN)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == 'p') {
			b.num = atol(line + 2);
			b.len = 0;
			open_prog = false;
		} else if (line[0] == 'c') {
			open_prog = decode_code(line + 2, &b);
		} else if (open_prog && strchr("ifFse.", line[0])) {
			rc = add_line(&b, line);
			if (!rc && (line[0] == 'e' || line[0] == '.')) {
				rc = drift_block(&d, &b);
				open_prog = false;
			}
		}
	}
	gzclose(in);
	free(line);
	free(b.lines);
	scalar_live_free();
	if (rc) {
		printf("FAIL test_scalar_kernel: --live: out of memory\n");
		return 1;
	}
	drift_summary(&d);
	return 0;
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	const char *path = getenv("BPFVET_SCALAR_FIXTURES");
	char why[256];
	bool live;

	if (live_parse_args(argc, argv, NULL, &live))
		return 2;
	if (!live) {
		RUN(&t, test_kernel_agreement);
		return test_finish(&t);
	}
	if (!live_is_6_18(why, sizeof(why))) {
		test_skip_named("test_scalar_kernel", "the running kernel is %s, the "
				"record is of Linux 6.18", why);
		return 0;
	}
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named("test_scalar_kernel", "%s", why);
		return 0;
	}
	return run_live(path ? path : "tests/fixtures/scalar/progs.txt.gz");
}
