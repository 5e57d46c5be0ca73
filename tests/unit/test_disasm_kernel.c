/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Our disassembly against Linux 6.18's. Programs covering every opcode
 * (and odd encodings) were loaded at log level 2, and every instruction
 * line of the kernel's log (trace lines, "Live regs" rows, instructions
 * quoted by mark_precise) is recorded in tests/fixtures/disasm/insns.txt,
 * with the address printed by ld_imm64 of a map or map value masked.
 *
 * Normal run: every recorded line must equal disasm_insn()'s text for the
 * same instruction of the same program, byte for byte; the record must
 * show every instruction in the live table and, for accepted programs, in
 * the trace, with the verdict the program is written for. kfunc names
 * and ids come from the recorded target's BTF. No kernel is needed.
 * --live: loads the programs into the running kernel and prints a DRIFT
 * line for each recorded line or verdict it now prints differently.
 * --update DIR: loads them, checks disasm_insn() against the kernel as the
 * normal run checks it against the record, and writes DIR/insns.txt with
 * the kernel's lines for the programs that pass; a program the kernel
 * cannot load here, or whose lines disagree, keeps its previous record.
 * Both need root on Linux 6.18.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "output/disasm.h"
#include "kernel_log.h"
#include "live.h"
#include "target.h"
#include "test.h"

/* v4 / 6.18 ABI pieces missing from Debian's <linux/bpf.h> (Linux 6.1). */
#define PROG_TYPE_SOCKET_FILTER	1
#define MAP_TYPE_ARRAY		2
#define MAP_TYPE_ARENA		33
#define MAP_F_MMAPABLE		(1U << 10)
#define ARENA_USER_ADDR		(1ULL << 32)	/* user address of the arena */
#define PSEUDO_MAP_FD		1
#define PSEUDO_MAP_VALUE	2
#define PSEUDO_FUNC		4
#define PSEUDO_MAP_IDX		5
#define PSEUDO_MAP_IDX_VALUE	6
#define PSEUDO_KFUNC_CALL	2
#define HELPER_GET_PRANDOM_U32	7
#define HELPER_KTIME_GET_NS	5
#define HELPER_MAP_LOOKUP_ELEM	1
#define HELPER_LOOP		181

#define LOG_SIZE (4u << 20)
#define MAX_INSNS 512
#define RECORD_DIR "tests/fixtures/disasm"
#define RECORD_FILE "insns.txt"
/* The fd a normal run writes into map references: they are masked. */
#define STAND_IN_FD 3

#define I(c, d, s, o, i) \
	((struct bpfvet_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), \
			       .off = (o), .imm = (i) })

/* A program under construction. */
struct kprog {
	const char *name;
	char label[32];
	struct bpfvet_insn insns[MAX_INSNS];
	size_t cnt;
	bool want_ok;
	bool want_precise;	/* the log must quote instructions in
				 * mark_precise lines */
	/* Optional BTF for func_info (programs with callbacks). */
	int btf_fd;
	struct bpf_func_info finfo[4];
	size_t finfo_cnt;
	/* Optional fd_array for ld_imm64 MAP_IDX / MAP_IDX_VALUE. */
	int fd_array[2];
	bool use_fd_array;
	int map_fd;		/* a map made for the program, closed with it */
};

/* --- the record ----------------------------------------------------- */

/* One instruction line of a log: 'L' live regs row, 'T' trace line, 'P'
 * mark_precise quote; the text is masked (see mask_text). */
struct rline {
	char kind;
	unsigned long idx;
	char text[160];
	bool pad_ok;		/* live logs only: the state at its column */
};

/* A program's lines, each distinct line once, in log order. */
struct rprog {
	char name[32];
	char release[65];	/* the kernel that printed them */
	bool accepted;
	bool unrecorded;	/* the kernel could not load it: why */
	char why[200];
	struct rline *lines;
	size_t n, cap;
};

struct record {
	struct rprog *progs;
	size_t n, cap;
};

static void rprog_free(struct rprog *r)
{
	free(r->lines);
	r->lines = NULL;
	r->n = r->cap = 0;
}

static void record_free(struct record *rec)
{
	for (size_t i = 0; i < rec->n; i++)
		rprog_free(&rec->progs[i]);
	free(rec->progs);
	memset(rec, 0, sizeof(*rec));
}

/* Adds a line unless the same one is there; 0 or -ENOMEM. */
static int rprog_add(struct rprog *r, char kind, unsigned long idx,
		     const char *text, bool pad_ok)
{
	for (size_t i = 0; i < r->n; i++) {
		struct rline *l = &r->lines[i];

		if (l->kind == kind && l->idx == idx && !strcmp(l->text, text)) {
			l->pad_ok &= pad_ok;
			return 0;
		}
	}
	if (test_grow(&r->lines, r->n, &r->cap, sizeof(*r->lines)))
		return -ENOMEM;
	r->lines[r->n] = (struct rline){ .kind = kind, .idx = idx, .pad_ok = pad_ok };
	snprintf(r->lines[r->n].text, sizeof(r->lines[0].text), "%s", text);
	r->n++;
	return 0;
}

/* Appends an empty program; NULL when out of memory. */
static struct rprog *record_add(struct record *rec, const char *name)
{
	struct rprog *r;

	if (test_grow(&rec->progs, rec->n, &rec->cap, sizeof(*rec->progs)))
		return NULL;
	r = &rec->progs[rec->n++];
	memset(r, 0, sizeof(*r));
	snprintf(r->name, sizeof(r->name), "%s", name);
	return r;
}

static const struct rprog *record_find(const struct record *rec, const char *name)
{
	for (size_t i = 0; i < rec->n; i++)
		if (!strcmp(rec->progs[i].name, name))
			return &rec->progs[i];
	return NULL;
}

/*
 * "program NAME accepted|rejected RELEASE", "unrecorded NAME RELEASE: WHY"
 * or "KIND INDEX TEXT" for the program above it.
 */
static int parse_record_line(struct record *rec, const char *line)
{
	char name[32], verdict[16], release[65];
	struct rprog *r = rec->n ? &rec->progs[rec->n - 1] : NULL;
	unsigned long idx;
	char kind;
	int n = 0;

	if (sscanf(line, "program %31s %15s %64s", name, verdict, release) == 3) {
		r = record_add(rec, name);
		if (!r || (strcmp(verdict, "accepted") && strcmp(verdict, "rejected")))
			return -EINVAL;
		r->accepted = !strcmp(verdict, "accepted");
		snprintf(r->release, sizeof(r->release), "%s", release);
		return 0;
	}
	if (sscanf(line, "unrecorded %31s %64[^:]: %n", name, release, &n) == 2 && n) {
		r = record_add(rec, name);
		if (!r)
			return -ENOMEM;
		r->unrecorded = true;
		snprintf(r->release, sizeof(r->release), "%s", release);
		snprintf(r->why, sizeof(r->why), "%s", line + n);
		return 0;
	}
	if (sscanf(line, "%c %lu %n", &kind, &idx, &n) != 2 || !n || !r ||
	    r->unrecorded || !strchr("LTP", kind))
		return -EINVAL;
	return rprog_add(r, kind, idx, line + n, true);
}

static int record_read(struct record *rec, const char *path, char *err, size_t sz)
{
	FILE *f = fopen(path, "r");
	char line[512];
	int lineno = 0, rc = 0;

	if (!f) {
		snprintf(err, sz, "%s: %s", path, strerror(errno));
		return -errno;
	}
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		rc = parse_record_line(rec, line);
	}
	fclose(f);
	if (rc)
		snprintf(err, sz, "%s:%d: bad line", path, lineno);
	return rc;
}

/* `release`: the running kernel's (uname -r). */
static int record_write(const struct record *rec, const char *path,
			const char *release)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "# The instruction lines of Linux 6.18's verifier log (level 2) for the\n"
		   "# programs of tests/unit/test_disasm_kernel.c, which a normal run of it\n"
		   "# holds disasm_insn() to. Written on Linux %s (uname -r) by\n"
		   "# test_disasm_kernel --update DIR; a program it could not record keeps\n"
		   "# its earlier entry, so each entry names its own kernel:\n"
		   "#   program NAME accepted|rejected RELEASE\n"
		   "#   KIND INDEX TEXT   (L live regs row, T trace line, P mark_precise\n"
		   "#                      quote; each distinct line once, in log order;\n"
		   "#                      map addresses of ld_imm64 as 0xADDR)\n"
		   "#   unrecorded NAME RELEASE: WHY   (that kernel could not load it)\n",
		release);
	for (size_t i = 0; i < rec->n; i++) {
		const struct rprog *r = &rec->progs[i];

		if (r->unrecorded) {
			fprintf(f, "unrecorded %s %s: %s\n", r->name, r->release, r->why);
			continue;
		}
		fprintf(f, "program %s %s %s\n", r->name,
			r->accepted ? "accepted" : "rejected", r->release);
		for (size_t j = 0; j < r->n; j++)
			fprintf(f, "%c %lu %s\n", r->lines[j].kind, r->lines[j].idx,
				r->lines[j].text);
	}
	return fclose(f) ? -errno : 0;
}

/* Copies rprog `from` into a new entry of `rec`. */
static int record_copy(struct record *rec, const struct rprog *from)
{
	struct rprog *r = record_add(rec, from->name);

	if (!r)
		return -ENOMEM;
	*r = *from;
	r->lines = NULL;
	r->n = r->cap = 0;
	for (size_t i = 0; i < from->n; i++)
		if (rprog_add(r, from->lines[i].kind, from->lines[i].idx,
			      from->lines[i].text, true))
			return -ENOMEM;
	return 0;
}

/* --- the kernel's lines ---------------------------------------------- */

static bool is_masked_ldimm64(const struct bpfvet_insn *insn)
{
	return insn->code == 0x18 && insn->src_reg != 0 &&
	       insn->src_reg != PSEUDO_FUNC;
}

static bool all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return n > 0;
}

/* The text of `insn` with the address of a map ld_imm64 (which differs
 * from load to load) replaced by "ADDR". */
static void mask_text(const struct bpfvet_insn *insn, const char *text, size_t len,
		      char *out, size_t sz)
{
	const char *x = memmem(text, len, "= 0x", 4);
	size_t keep = x ? (size_t)(x - text) + 4 : 0;

	if (is_masked_ldimm64(insn) && x && all_hex(text + keep, len - keep))
		snprintf(out, sz, "%.*sADDR", (int)keep, text);
	else
		snprintf(out, sz, "%.*s", (int)len, text);
}

static char kind_letter(enum klog_kind k)
{
	return k == KLOG_LIVE ? 'L' : k == KLOG_TRACE ? 'T' : 'P';
}

/* The instruction lines of a kernel log; 0 or -ENOMEM. */
static int parse_log(const struct kprog *p, const char *log, struct rprog *r)
{
	const char *cur = log, *line;
	struct klog_insn k;
	char text[160];
	size_t len;

	while (klog_next_line(&cur, &line, &len)) {
		if (klog_parse_line(line, len, &k) == KLOG_OTHER)
			continue;
		/* An index past the program is kept unmasked: it fails. */
		if (k.idx < p->cnt)
			mask_text(&p->insns[k.idx], k.text, k.text_len, text, sizeof(text));
		else
			snprintf(text, sizeof(text), "%.*s", (int)k.text_len, k.text);
		if (rprog_add(r, kind_letter(k.kind), k.idx, text, k.pad_ok))
			return -ENOMEM;
	}
	return 0;
}

/* --- comparison ------------------------------------------------------ */

/* Shared state of the run. */
struct env {
	bool kernel;		/* programs are loaded into the running kernel */
	struct btf *btf;	/* kfunc names and ids: the running kernel's BTF
				 * when loading, else the target's */
	struct btf *target;	/* the target's BTF (--update: both) */
	char *log;
	char release[65];
	struct record rec;	/* the record */
	struct record out;	/* --update: the new record */
	struct drift drift;	/* --live */
};

static struct env g_env;

static const char *kfunc_from_btf(void *priv, const struct bpfvet_insn *insn,
				  int32_t *id)
{
	const struct btf_type *t = btf__type_by_id(priv, (uint32_t)insn->imm);

	(void)id;	/* the kernel prints the BTF id, which imm holds */
	return t ? btf__name_by_offset(priv, t->name_off) : NULL;
}

/* Which instructions the lines show. */
struct seen {
	bool trace[MAX_INSNS];
	bool live[MAX_INSNS];
	size_t precise;		/* mark_precise lines quoting an insn */
};

static void check_line(struct test_ctx *t, const struct kprog *p, const char *whose,
		       const struct rline *l, struct seen *seen)
{
	const struct disasm_ops ops = {
		.kfunc_name = g_env.btf ? kfunc_from_btf : NULL,
		.priv = g_env.btf,
	};
	char ours[256], masked[256];
	int r;

	CHECK_MSG(t, l->idx < p->cnt, "%s: %s line names insn %lu of %zu", p->name,
		  whose, l->idx, p->cnt);
	if (l->idx >= p->cnt)
		return;
	r = disasm_insn(p->insns, p->cnt, l->idx, &ops, ours, sizeof(ours));
	CHECK_MSG(t, r > 0, "%s: insn %lu: disasm_insn returned %d", p->name, l->idx, r);
	mask_text(&p->insns[l->idx], ours, strlen(ours), masked, sizeof(masked));
	CHECK_MSG(t, r <= 0 || !strcmp(l->text, masked), "%s: insn %lu: %s \"%s\", ours \"%s\"",
		  p->name, l->idx, whose, l->text, masked);
	CHECK_MSG(t, l->pad_ok, "%s: insn %lu: state not at the expected column", p->name,
		  l->idx);
	if (l->kind == 'T')
		seen->trace[l->idx] = true;
	else if (l->kind == 'L')
		seen->live[l->idx] = true;
	else
		seen->precise++;
}

/*
 * The kernel's lines for `p` (`whose`: recorded or live) against
 * disasm_insn(), and the verdict against the one `p` is written for.
 * Accepted programs must show every instruction both in the live table
 * and in the trace (they are written so that every instruction is
 * reached).
 */
static void check_prog(struct test_ctx *t, const struct kprog *p, const char *whose,
		       const struct rprog *r)
{
	struct seen *seen = calloc(1, sizeof(*seen));

	if (!seen) {
		CHECK(t, seen != NULL);
		return;
	}
	CHECK_MSG(t, r->accepted == p->want_ok, "%s: %s %s, written to be %s", p->name,
		  whose, r->accepted ? "accepted" : "rejected",
		  p->want_ok ? "accepted" : "rejected");
	for (size_t i = 0; i < r->n; i++)
		check_line(t, p, whose, &r->lines[i], seen);
	for (size_t i = 0; i < p->cnt; i++) {
		if (disasm_is_ldimm64_tail(p->insns, p->cnt, i))
			continue;
		CHECK_MSG(t, seen->live[i], "%s: insn %zu not in the live table", p->name, i);
		CHECK_MSG(t, !p->want_ok || seen->trace[i], "%s: insn %zu never traced",
			  p->name, i);
	}
	CHECK_MSG(t, !p->want_precise || seen->precise > 0,
		  "%s: no mark_precise line quotes an instruction", p->name);
	free(seen);
}

/* --- programs -------------------------------------------------------- */

static void emit(struct kprog *p, struct bpfvet_insn insn)
{
	if (p->cnt < MAX_INSNS)
		p->insns[p->cnt++] = insn;
}

static void emit_ldimm64(struct kprog *p, int dst, int src, int32_t lo,
			 int32_t hi)
{
	emit(p, I(0x18, dst, src, 0, lo));
	emit(p, I(0x00, 0, 0, 0, hi));
}

static void emit_exit0(struct kprog *p)
{
	emit(p, I(0xb7, 0, 0, 0, 0));	/* r0 = 0 */
	emit(p, I(0x95, 0, 0, 0, 0));	/* exit */
}

/* r2 = skb->len, r3 = skb->pkt_type: unknown scalars. */
static void emit_scalars(struct kprog *p)
{
	emit(p, I(0xbf, 6, 1, 0, 0));	/* r6 = r1 */
	emit(p, I(0x61, 2, 6, 0, 0));	/* r2 = *(u32 *)(r6 +0) */
	emit(p, I(0x61, 3, 6, 4, 0));	/* r3 = *(u32 *)(r6 +4) */
}

/* Every ALU op of a class in K and X form, on r1 with r3 as source. */
static void emit_alu_ops(struct kprog *p, uint8_t cls)
{
	static const uint8_t ops[] = {
		0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70,
		0x90, 0xa0, 0xb0, 0xc0,
	};
	size_t i;

	emit(p, I(0xbf, 1, 2, 0, 0));	/* r1 = r2 */
	for (i = 0; i < sizeof(ops); i++) {
		int32_t k = ops[i] == 0x60 || ops[i] == 0x70 || ops[i] == 0xc0
				    ? 3 : 10;

		emit(p, I(cls | ops[i], 1, 0, 0, k));
		emit(p, I(cls | ops[i] | 0x08, 1, 3, 0, 0));
	}
	emit(p, I(cls | 0x80, 1, 0, 0, 0));	/* neg */
}

static void build_alu(struct kprog *p)
{
	p->name = "alu";
	p->want_ok = true;
	emit_scalars(p);
	emit_alu_ops(p, 0x07);
	emit_alu_ops(p, 0x04);
	/* v4: signed div/mod, sign-extending moves, byte swaps */
	emit(p, I(0x37, 1, 0, 1, 3));
	emit(p, I(0x3f, 1, 3, 1, 0));
	emit(p, I(0x97, 1, 0, 1, -3));
	emit(p, I(0x9f, 1, 3, 1, 0));
	emit(p, I(0x34, 1, 0, 1, 3));
	emit(p, I(0x3c, 1, 3, 1, 0));
	emit(p, I(0x94, 1, 0, 1, 3));
	emit(p, I(0x9c, 1, 3, 1, 0));
	emit(p, I(0xbf, 4, 2, 8, 0));
	emit(p, I(0xbf, 4, 2, 16, 0));
	emit(p, I(0xbf, 4, 2, 32, 0));
	emit(p, I(0xbc, 4, 2, 8, 0));
	emit(p, I(0xbc, 4, 2, 16, 0));
	emit(p, I(0xd4, 4, 0, 0, 16));
	emit(p, I(0xd4, 4, 0, 0, 32));
	emit(p, I(0xd4, 4, 0, 0, 64));
	emit(p, I(0xdc, 4, 0, 0, 16));
	emit(p, I(0xdc, 4, 0, 0, 32));
	emit(p, I(0xdc, 4, 0, 0, 64));
	emit(p, I(0xd7, 4, 0, 0, 16));
	emit(p, I(0xd7, 4, 0, 0, 32));
	emit(p, I(0xd7, 4, 0, 0, 64));
	/* constants that print in decimal and negative */
	emit(p, I(0xb7, 5, 0, 0, -2147483647 - 1));
	emit(p, I(0xb4, 5, 0, 0, -1));
	emit(p, I(0x07, 5, 0, 0, 0x7fffffff));
	emit_exit0(p);
}

static void build_mem(struct kprog *p)
{
	static const int32_t rmw[] = {
		0x00, 0x40, 0x50, 0xa0, 0x01, 0x41, 0x51, 0xa1, 0xe1,
	};
	size_t i;

	p->name = "mem";
	p->want_ok = true;
	emit(p, I(0xb7, 1, 0, 0, 0x1122));		/* r1 = 0x1122 */
	/* STX of each size, filling fp-8 and fp-16 */
	emit(p, I(0x7b, 10, 1, -8, 0));
	emit(p, I(0x63, 10, 1, -16, 0));
	emit(p, I(0x6b, 10, 1, -12, 0));
	emit(p, I(0x73, 10, 1, -10, 0));
	emit(p, I(0x73, 10, 1, -9, 0));
	/* ST of each size into fp-24 and fp-32 */
	emit(p, I(0x7a, 10, 0, -24, 5));
	emit(p, I(0x62, 10, 0, -32, -1));
	emit(p, I(0x6a, 10, 0, -28, 2));
	emit(p, I(0x72, 10, 0, -26, 255));
	emit(p, I(0x72, 10, 0, -25, -128));
	/* LDX and LDSX of each size */
	emit(p, I(0x79, 2, 10, -8, 0));
	emit(p, I(0x61, 2, 10, -16, 0));
	emit(p, I(0x69, 2, 10, -12, 0));
	emit(p, I(0x71, 2, 10, -10, 0));
	emit(p, I(0x81, 2, 10, -32, 0));
	emit(p, I(0x89, 2, 10, -28, 0));
	emit(p, I(0x91, 2, 10, -25, 0));
	/* RMW atomics, W and DW */
	for (i = 0; i < sizeof(rmw) / sizeof(rmw[0]); i++) {
		emit(p, I(0xdb, 10, 1, -8, rmw[i]));
		emit(p, I(0xc3, 10, 1, -16, rmw[i]));
	}
	emit(p, I(0xb7, 0, 0, 0, 0));
	emit(p, I(0xdb, 10, 1, -8, 0xf1));
	emit(p, I(0xc3, 10, 1, -16, 0xf1));
	/* 6.18 load-acquire / store-release, every size */
	emit(p, I(0xdb, 2, 10, -8, 0x100));
	emit(p, I(0xc3, 2, 10, -16, 0x100));
	emit(p, I(0xcb, 2, 10, -12, 0x100));
	emit(p, I(0xd3, 2, 10, -10, 0x100));
	emit(p, I(0xdb, 10, 1, -8, 0x110));
	emit(p, I(0xc3, 10, 1, -16, 0x110));
	emit(p, I(0xcb, 10, 1, -12, 0x110));
	emit(p, I(0xd3, 10, 1, -10, 0x110));
	/* access through a derived frame pointer */
	emit(p, I(0xbf, 1, 10, 0, 0));
	emit(p, I(0x07, 1, 0, 0, -32));
	emit(p, I(0x79, 3, 1, 8, 0));
	emit_exit0(p);
}

/* Every conditional jump op in K and X form for one class. */
static void emit_jcc(struct kprog *p, uint8_t cls)
{
	static const uint8_t ops[] = {
		0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70,
		0xa0, 0xb0, 0xc0, 0xd0,
	};
	size_t i;

	/* Fresh unknown operands for every jump keep both outcomes open, so
	 * that no register becomes precise and the paths are pruned. */
	for (i = 0; i < sizeof(ops); i++) {
		emit(p, I(0x61, 2, 6, 0, 0));
		emit(p, I(0x61, 3, 6, 4, 0));
		emit(p, I(cls | ops[i], 2, 0, 0, i == 4 ? -5 : 10));
		emit(p, I(cls | ops[i] | 0x08, 2, 3, 0, 0));
	}
}

static void build_jumps(struct kprog *p)
{
	p->name = "jumps";
	p->want_ok = true;
	emit_scalars(p);
	emit_jcc(p, 0x05);
	emit_jcc(p, 0x06);
	emit(p, I(0x05, 0, 0, 0, 0));			/* goto pc+0 */
	emit(p, I(0x06, 0, 0, 0, 0));			/* gotol pc+0 */
	emit(p, I(0x25, 2, 0, 1, 10));			/* both targets of */
	emit(p, I(0x05, 0, 0, 1, 0));			/* each jump are */
	emit(p, I(0x06, 0, 0, 0, 0));			/* reachable */
	emit(p, I(0xe5, 0, 0, 1, 0));			/* may_goto pc+1 */
	emit(p, I(0xb7, 0, 0, 0, 1));
	/* bounded loops, for backward offsets */
	emit(p, I(0xb7, 4, 0, 0, 0));
	emit(p, I(0x07, 4, 0, 0, 1));
	emit(p, I(0xa5, 4, 0, -2, 4));			/* if r4 < 0x4 goto pc-2 */
	emit(p, I(0xb4, 4, 0, 0, 0));
	emit(p, I(0x04, 4, 0, 0, 1));
	emit(p, I(0xa6, 4, 0, -2, 4));			/* if w4 < 0x4 goto pc-2 */
	emit(p, I(0xb4, 4, 0, 0, 0));
	emit(p, I(0x04, 4, 0, 0, 1));
	emit(p, I(0x26, 4, 0, 1, 4));			/* if w4 > 0x4 goto pc+1 */
	emit(p, I(0x06, 0, 0, 0, -3));			/* gotol pc-3 */
	emit_exit0(p);
}

/* A map for `p` when loading into the kernel, else the stand-in fd. */
static int make_map(struct kprog *p, uint32_t type, uint32_t key, uint32_t val,
		    uint32_t n, uint32_t flags, uint64_t extra)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags,
		    .map_extra = extra);

	if (!g_env.kernel)
		return STAND_IN_FD;
	p->map_fd = bpf_map_create(type, "disasm", key, val, n, &opts);
	return p->map_fd;
}

static bool build_calls(struct kprog *p, char *why, size_t sz)
{
	int map_fd = make_map(p, MAP_TYPE_ARRAY, 4, 16, 1, 0, 0);

	p->name = "calls";
	if (map_fd < 0) {
		snprintf(why, sz, "array map: %s", strerror(errno));
		return false;
	}
	p->want_ok = true;
	emit(p, I(0x85, 0, 0, 0, HELPER_GET_PRANDOM_U32));
	emit(p, I(0x85, 0, 0, 0, HELPER_KTIME_GET_NS));
	emit_ldimm64(p, 1, PSEUDO_MAP_FD, map_fd, 0);
	emit(p, I(0x62, 10, 0, -4, 0));			/* key = 0 */
	emit(p, I(0xbf, 2, 10, 0, 0));
	emit(p, I(0x07, 2, 0, 0, -4));
	emit(p, I(0x85, 0, 0, 0, HELPER_MAP_LOOKUP_ELEM));
	emit_ldimm64(p, 1, PSEUDO_MAP_VALUE, map_fd, 4);
	emit_ldimm64(p, 1, PSEUDO_MAP_IDX, 1, 0);
	emit_ldimm64(p, 1, PSEUDO_MAP_IDX_VALUE, 1, 8);
	p->fd_array[0] = -1;
	p->fd_array[1] = map_fd;
	p->use_fd_array = true;
	emit_ldimm64(p, 1, 0, 0x23456789, 1);
	emit_ldimm64(p, 1, 0, -1, -1);
	emit_ldimm64(p, 1, 0, 0, 0);
	emit(p, I(0x85, 0, 1, 0, 2));			/* call pc+2 */
	emit_exit0(p);
	/* subprogram */
	emit(p, I(0xb7, 0, 0, 0, 0));
	emit(p, I(0x95, 0, 0, 0, 0));
	return true;
}

static void build_ld_abs(struct kprog *p)
{
	p->name = "ld_abs";
	p->want_ok = true;
	emit(p, I(0xbf, 6, 1, 0, 0));
	emit(p, I(0x30, 0, 0, 0, 0));
	emit(p, I(0x28, 0, 0, 0, 12));
	emit(p, I(0x20, 0, 0, 0, 2));
	emit(p, I(0xb7, 7, 0, 0, 1));
	emit(p, I(0x50, 0, 7, 0, 0));
	emit(p, I(0x48, 0, 7, 0, 4));
	emit(p, I(0x40, 0, 7, 0, -1));
	emit_exit0(p);
}

/*
 * kfunc calls, with the ids of g_env.btf. (ld_imm64 of a ksym cannot be
 * loaded here: the kernel resolves ksyms through kallsyms, which lists no
 * variables without CONFIG_KALLSYMS_ALL.)
 */
static bool build_kfunc(struct kprog *p, char *why, size_t sz)
{
	int lock, unlock;

	p->name = "kfunc";
	if (!g_env.btf) {
		snprintf(why, sz, "no BTF to take kfunc ids from (%s)",
			 g_env.kernel ? "the kernel has none" : TARGET_BTF);
		return false;
	}
	lock = btf__find_by_name_kind(g_env.btf, "bpf_rcu_read_lock", BTF_KIND_FUNC);
	unlock = btf__find_by_name_kind(g_env.btf, "bpf_rcu_read_unlock", BTF_KIND_FUNC);
	if (lock <= 0 || unlock <= 0) {
		snprintf(why, sz, "no bpf_rcu_read_lock/unlock in the BTF");
		return false;
	}
	p->want_ok = true;
	emit(p, I(0x85, 0, PSEUDO_KFUNC_CALL, 0, lock));
	emit(p, I(0x85, 0, PSEUDO_KFUNC_CALL, 0, unlock));
	emit_exit0(p);
	return true;
}

/* The BTF of the callback program's two functions, loaded into the
 * kernel for func_info; ld_imm64 of a function needs it. */
static bool load_callback_btf(struct kprog *p, char *why, size_t sz)
{
	struct btf *btf = btf__new_empty();
	int i32, l64, u64, vp, main_proto, cb_proto, main_fn, cb_fn;

	if (!btf) {
		snprintf(why, sz, "out of memory");
		return false;
	}
	i32 = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	l64 = btf__add_int(btf, "long", 8, BTF_INT_SIGNED);
	u64 = btf__add_int(btf, "unsigned long", 8, 0);
	vp = btf__add_ptr(btf, 0);
	main_proto = btf__add_func_proto(btf, i32);
	btf__add_func_param(btf, "ctx", vp);
	cb_proto = btf__add_func_proto(btf, l64);
	btf__add_func_param(btf, "idx", u64);
	btf__add_func_param(btf, "data", vp);
	main_fn = btf__add_func(btf, "prog", BTF_FUNC_GLOBAL, main_proto);
	cb_fn = btf__add_func(btf, "cb", BTF_FUNC_STATIC, cb_proto);
	if (main_fn < 0 || cb_fn < 0 || btf__load_into_kernel(btf)) {
		snprintf(why, sz, "cannot load BTF: %s", strerror(errno));
		btf__free(btf);
		return false;
	}
	p->btf_fd = dup(btf__fd(btf));
	btf__free(btf);
	if (p->btf_fd < 0) {
		snprintf(why, sz, "dup: %s", strerror(errno));
		return false;
	}
	p->finfo[0] = (struct bpf_func_info){ .insn_off = 0, .type_id = (uint32_t)main_fn };
	p->finfo[1] = (struct bpf_func_info){ .insn_off = 8, .type_id = (uint32_t)cb_fn };
	p->finfo_cnt = 2;
	return true;
}

/* bpf_loop with a callback, whose constant arguments are backtracked for
 * precision. */
static bool build_callback(struct kprog *p, char *why, size_t sz)
{
	p->name = "callback";
	if (g_env.kernel && !load_callback_btf(p, why, sz))
		return false;
	p->want_ok = true;
	p->want_precise = true;
	emit(p, I(0xb7, 1, 0, 0, 4));			/* 0: nr_loops */
	emit_ldimm64(p, 2, PSEUDO_FUNC, 6, 0);		/* 1: cb at 8 */
	emit(p, I(0xb7, 3, 0, 0, 0));			/* 3 */
	emit(p, I(0xb7, 4, 0, 0, 0));			/* 4 */
	emit(p, I(0x85, 0, 0, 0, HELPER_LOOP));		/* 5 */
	emit_exit0(p);					/* 6, 7 */
	emit_exit0(p);					/* 8: cb */
	return true;
}

static bool build_arena(struct kprog *p, char *why, size_t sz)
{
	int fd = make_map(p, MAP_TYPE_ARENA, 0, 0, 1, MAP_F_MMAPABLE, ARENA_USER_ADDR);

	p->name = "arena";
	if (fd < 0) {
		snprintf(why, sz, "the kernel refuses BPF_MAP_TYPE_ARENA maps (%s)",
			 strerror(errno));
		return false;
	}
	p->want_ok = true;
	emit_ldimm64(p, 1, PSEUDO_MAP_FD, fd, 0);
	emit(p, I(0xb7, 2, 0, 0, 0));
	emit(p, I(0xbf, 3, 2, 1, 1));			/* cast to 1 from 0 */
	emit(p, I(0xbf, 4, 3, 1, 0x10000));		/* cast to 0 from 1 */
	emit_exit0(p);
	return true;
}

/*
 * Encodings with reserved fields set, sizes or ids out of range: the kernel
 * prints the instruction (in the live table and the trace) and then
 * rejects it, so its rendering of odd encodings is observable. (LDX with
 * imm != 0 is refused before anything is printed.)
 */
struct odd {
	struct bpfvet_insn insn;
	bool ok;
};

static const struct odd odd_insns[] = {
	{ I(0xbf, 1, 2, -1, 0), false },	/* percpu address move */
	{ I(0xbc, 1, 2, 32, 0), false },	/* movsx32 from 32 bits */
	{ I(0xbc, 1, 10, 8, 0), true },		/* w1 = (s8)w10 */
	{ I(0xb7, 1, 0, 8, 5), false },		/* MOV K with off */
	{ I(0x07, 1, 2, 0, 5), false },		/* K form with src */
	{ I(0x0f, 1, 10, 0, 5), false },	/* X form with imm */
	{ I(0x0f, 1, 10, 8, 0), false },	/* ADD X with off */
	{ I(0x37, 1, 0, 2, 3), false },		/* DIV with off 2 */
	{ I(0x87, 1, 2, 0, 5), false },		/* NEG with src/imm */
	{ I(0x84, 1, 0, 3, 0), false },
	{ I(0xdc, 1, 0, 0, 33), false },	/* be33 */
	{ I(0xd7, 1, 0, 5, 16), false },	/* bswap with off */
	{ I(0xbf, 1, 2, 1, 5), false },		/* bad address spaces */
	{ I(0xbf, 11, 1, 0, 0), false },	/* r11 */
	{ I(0xbf, 1, 12, 0, 0), false },	/* r12 */
	{ I(0x7b, 10, 1, -8, 5), false },	/* STX with imm */
	{ I(0x7a, 10, 1, -8, 0), false },	/* ST with src */
	{ I(0x71, 1, 10, -32768, 0), false },
	{ I(0x72, 10, 0, 32767, -1), false },
	{ I(0xdb, 10, 1, -8, 0x02), false },	/* unknown atomic op */
	{ I(0xdb, 10, 1, -8, 0x101), false },
	{ I(0xdb, 10, 1, -8, 0x111), false },
	{ I(0xd3, 10, 1, -8, 0x00), false },	/* RMW on a byte */
	{ I(0xcb, 10, 1, -8, 0x01), false },
	{ I(0xd3, 10, 1, -8, 0xe1), false },
	{ I(0xcb, 10, 1, -8, 0xf1), false },
	{ I(0x85, 0, 3, 0, 1), false },		/* call with bad src */
	{ I(0x85, 0, 0, 0, 212), false },	/* unknown helper ids */
	{ I(0x85, 0, 0, 0, 1000), false },
	{ I(0x85, 0, 0, 0, -1), false },
	{ I(0x85, 1, 0, 0, 7), false },		/* call with dst */
	{ I(0x85, 0, 0, 3, 7), false },		/* call with off */
	{ I(0x05, 1, 2, 0, 7), false },		/* JA with reserved fields */
	{ I(0x06, 0, 0, 3, 0), false },
	{ I(0x06, 1, 0, 0, 0), false },
	{ I(0xe5, 0, 1, 0, 0), false },		/* JCOND, src 1 */
	{ I(0xe5, 0, 0, 0, 7), false },		/* may_goto with imm */
	{ I(0xe5, 1, 0, 0, 0), false },
	{ I(0x1d, 1, 10, 0, 5), false },	/* Jcc X with imm */
	{ I(0x15, 1, 2, 0, 5), false },		/* Jcc K with src */
	{ I(0x30, 1, 2, 3, 4), false },		/* LD_ABS with fields */
	{ I(0x50, 0, 2, 0, -4), false },	/* LD_IND without r6 */
};

static void build_odd(struct kprog *p, const struct odd *o, size_t i)
{
	snprintf(p->label, sizeof(p->label), "odd_%zu", i);
	p->name = p->label;
	p->want_ok = o->ok;
	emit(p, I(0xb7, 0, 0, 0, 0));
	emit(p, o->insn);
	emit(p, I(0x95, 0, 0, 0, 0));
}

/* EXIT with reserved fields must be last, and ld_imm64 takes two slots. */
static void build_odd_tail(struct kprog *p, size_t which)
{
	snprintf(p->label, sizeof(p->label), "odd_tail_%zu", which);
	p->name = p->label;
	p->want_ok = false;
	emit(p, I(0xb7, 0, 0, 0, 0));
	switch (which) {
	case 0:
		emit(p, I(0x95, 1, 0, 0, 0));
		break;
	case 1:
		emit(p, I(0x95, 0, 0, 0, 3));
		break;
	default:
		emit_ldimm64(p, 1, 0, 1, 2);
		p->insns[1].off = 5;
		emit(p, I(0x95, 0, 0, 0, 0));
		break;
	}
}

/* --- the programs, in record order ----------------------------------- */

enum {
	P_ALU, P_MEM, P_JUMPS, P_CALLS, P_LD_ABS, P_KFUNC, P_CALLBACK, P_ARENA,
	P_ODD,
};
#define N_ODD (sizeof(odd_insns) / sizeof(odd_insns[0]))
#define N_ODD_TAIL 3
#define N_PROGS (P_ODD + N_ODD + N_ODD_TAIL)

/* Builds program `i`: false, with the reason, when this kernel cannot
 * take it (a map type, a kfunc, BTF). */
static bool build(size_t i, struct kprog *p, char *why, size_t sz)
{
	switch (i) {
	case P_ALU:
		build_alu(p);
		return true;
	case P_MEM:
		build_mem(p);
		return true;
	case P_JUMPS:
		build_jumps(p);
		return true;
	case P_CALLS:
		return build_calls(p, why, sz);
	case P_LD_ABS:
		build_ld_abs(p);
		return true;
	case P_KFUNC:
		return build_kfunc(p, why, sz);
	case P_CALLBACK:
		return build_callback(p, why, sz);
	case P_ARENA:
		return build_arena(p, why, sz);
	}
	if (i < P_ODD + N_ODD)
		build_odd(p, &odd_insns[i - P_ODD], i - P_ODD);
	else
		build_odd_tail(p, i - P_ODD - N_ODD);
	return true;
}

static struct kprog *new_prog(void)
{
	struct kprog *p = calloc(1, sizeof(*p));

	if (p)
		p->btf_fd = p->map_fd = -1;
	return p;
}

static void free_prog(struct kprog *p)
{
	if (p && p->btf_fd >= 0)
		close(p->btf_fd);
	if (p && p->map_fd >= 0)
		close(p->map_fd);
	free(p);
}

/* Loads `p` into the kernel; its verdict and lines go to `r`. */
static int load(const struct kprog *p, struct rprog *r)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = g_env.log,
		    .log_size = LOG_SIZE, .log_level = 2);
	int fd;

	if (p->finfo_cnt) {
		opts.prog_btf_fd = (uint32_t)p->btf_fd;
		opts.func_info = p->finfo;
		opts.func_info_cnt = (uint32_t)p->finfo_cnt;
		opts.func_info_rec_size = sizeof(p->finfo[0]);
	}
	if (p->use_fd_array)
		opts.fd_array = p->fd_array;
	g_env.log[0] = '\0';
	fd = bpf_prog_load(PROG_TYPE_SOCKET_FILTER, p->name, "GPL",
			   (const struct bpf_insn *)p->insns, p->cnt, &opts);
	if (fd >= 0)
		close(fd);
	r->accepted = fd >= 0;
	snprintf(r->name, sizeof(r->name), "%s", p->name);
	snprintf(r->release, sizeof(r->release), "%s", g_env.release);
	return parse_log(p, g_env.log, r);
}

/* With BPFVET_KLOG_DIR set, keeps each kernel log for inspection. */
static void dump_log(const struct kprog *p)
{
	const char *dir = getenv("BPFVET_KLOG_DIR");
	char path[512];
	FILE *f;

	if (!dir)
		return;
	snprintf(path, sizeof(path), "%s/%s.log", dir, p->name);
	f = fopen(path, "w");
	if (!f)
		return;
	fputs(g_env.log, f);
	fclose(f);
}

/* --- normal run: disasm_insn() against the record --------------------- */

static void check_recorded(struct test_ctx *t, size_t i)
{
	struct kprog *p = new_prog();
	const struct rprog *r;
	char why[200];

	CHECK(t, p != NULL);
	if (!p)
		return;
	if (!build(i, p, why, sizeof(why))) {
		CHECK_MSG(t, 0, "program %zu: %s", i, why);
	} else if (!(r = record_find(&g_env.rec, p->name))) {
		CHECK_MSG(t, 0, "%s: not in %s/%s (test_disasm_kernel --update)",
			  p->name, RECORD_DIR, RECORD_FILE);
	} else if (r->unrecorded) {
		test_skip(t, "%s: not recorded: %s could not load it: %s", p->name,
			  r->release, r->why);
	} else {
		check_prog(t, p, "recorded", r);
	}
	free_prog(p);
}

/* --- --update: disasm_insn() against the kernel, which is recorded ---- */

/* Are the kfunc ids of this kernel the target's? A normal run takes them
 * from the target. */
static bool same_kfunc_ids(const struct kprog *p, char *why, size_t sz)
{
	struct btf *live = g_env.btf;
	struct kprog *q = new_prog();
	bool same;

	g_env.btf = g_env.target;
	same = q && build_kfunc(q, why, sz) && q->cnt == p->cnt &&
	       !memcmp(q->insns, p->insns, p->cnt * sizeof(p->insns[0]));
	g_env.btf = live;
	free_prog(q);
	if (!same)
		snprintf(why, sz, "its kfunc ids are not those of %s", TARGET_BTF);
	return same;
}

/* Keeps the previous record of a program this kernel cannot record. */
static void keep_previous(struct test_ctx *t, const char *name, const char *why)
{
	const struct rprog *old = record_find(&g_env.rec, name);
	struct rprog *r;

	printf("  %s: %s; %s\n", name, why,
	       old ? "the previous record stays" : "marked unrecorded");
	if (old) {
		CHECK(t, record_copy(&g_env.out, old) == 0);
		return;
	}
	r = record_add(&g_env.out, name);
	CHECK(t, r != NULL);
	if (!r)
		return;
	r->unrecorded = true;
	snprintf(r->release, sizeof(r->release), "%s", g_env.release);
	snprintf(r->why, sizeof(r->why), "%s", why);
}

static void check_and_record(struct test_ctx *t, size_t i)
{
	struct kprog *p = new_prog();
	struct rprog live = { 0 };
	char why[200];
	int failures = t->failures;
	bool recorded = false;

	CHECK(t, p != NULL);
	if (!p)
		return;
	if (!build(i, p, why, sizeof(why))) {
		test_skip(t, "%s", why);
		keep_previous(t, p->name, why);
		free_prog(p);
		return;
	}
	CHECK(t, load(p, &live) == 0);
	dump_log(p);
	check_prog(t, p, "kernel", &live);
	if (t->failures != failures)
		snprintf(why, sizeof(why), "disasm_insn() disagrees with it");
	else if (i == P_KFUNC && !same_kfunc_ids(p, why, sizeof(why)))
		test_skip(t, "%s", why);
	else if (record_copy(&g_env.out, &live) == 0)
		recorded = true;
	else
		CHECK_MSG(t, 0, "out of memory");
	if (!recorded)
		keep_previous(t, p->name, why);
	rprog_free(&live);
	free_prog(p);
}

/* --- --live: the kernel against the record ----------------------------- */

static const struct rline *find_line(const struct rprog *r, char kind,
				     unsigned long idx, const char *text)
{
	const struct rline *any = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct rline *l = &r->lines[i];

		if (l->kind != kind || l->idx != idx)
			continue;
		if (!text || !strcmp(l->text, text))
			return l;
		any = any ? any : l;
	}
	return any;
}

static void drift_line(struct drift *d, const char *prog, const struct rline *rec,
		       const struct rline *live)
{
	const struct rline *l = rec ? rec : live;
	char item[96], r[200], v[200];

	snprintf(item, sizeof(item), "disasm/%s %c %lu", prog, l->kind, l->idx);
	snprintf(r, sizeof(r), rec ? "\"%s\"" : "(not printed)", rec ? rec->text : "");
	snprintf(v, sizeof(v), live ? "\"%s\"" : "(not printed)", live ? live->text : "");
	if (strcmp(r, v))
		drift_field(d, item, "text", r, v);
	if (live && !live->pad_ok)
		drift_field(d, item, "state column", "the kernel's rule",
			    "elsewhere (kernel_log.h)");
	drift_item_end(d);
}

static void drift_prog(struct drift *d, const struct rprog *rec, const struct rprog *live)
{
	char item[64];

	snprintf(item, sizeof(item), "disasm/%s", rec->name);
	if (rec->accepted != live->accepted)
		drift_field(d, item, "verdict", rec->accepted ? "accepted" : "rejected",
			    live->accepted ? "accepted" : "rejected");
	drift_item_end(d);
	for (size_t i = 0; i < rec->n; i++) {
		const struct rline *l = &rec->lines[i];

		drift_line(d, rec->name, l, find_line(live, l->kind, l->idx, l->text));
	}
	for (size_t i = 0; i < live->n; i++) {
		const struct rline *l = &live->lines[i];

		if (!find_line(rec, l->kind, l->idx, NULL))
			drift_line(d, rec->name, NULL, l);
	}
}

static int live_prog(size_t i)
{
	struct kprog *p = new_prog();
	struct rprog live = { 0 };
	const struct rprog *rec;
	char why[200], item[64];
	int rc = 0;

	if (!p)
		return -ENOMEM;
	if (!build(i, p, why, sizeof(why))) {
		rec = record_find(&g_env.rec, p->name);
		snprintf(item, sizeof(item), "disasm/%s", p->name);
		if (rec && !rec->unrecorded) {
			drift_field(&g_env.drift, item, "loads", "yes", why);
			drift_item_end(&g_env.drift);
		} else {
			printf("# %s: not recorded, not loadable here: %s\n", item, why);
		}
		free_prog(p);
		return 0;
	}
	rc = load(p, &live);
	rec = record_find(&g_env.rec, p->name);
	if (!rc && rec && !rec->unrecorded)
		drift_prog(&g_env.drift, rec, &live);
	else if (!rc)
		printf("# disasm/%s: not recorded; %s here\n", p->name,
		       live.accepted ? "accepted" : "rejected");
	rprog_free(&live);
	free_prog(p);
	return rc;
}

/* --- cases ------------------------------------------------------------ */

static const struct {
	const char *name;
	size_t first, count;
} cases[] = {
	{ "kernel_alu", P_ALU, 1 },
	{ "kernel_mem", P_MEM, 1 },
	{ "kernel_jumps", P_JUMPS, 1 },
	{ "kernel_calls", P_CALLS, 1 },
	{ "kernel_ld_abs", P_LD_ABS, 1 },
	{ "kernel_kfunc", P_KFUNC, 1 },
	{ "kernel_callback", P_CALLBACK, 1 },
	{ "kernel_arena", P_ARENA, 1 },
	{ "kernel_odd", P_ODD, N_ODD + N_ODD_TAIL },
};
static size_t g_case;

static void run_case(struct test_ctx *t)
{
	for (size_t i = 0; i < cases[g_case].count; i++) {
		size_t prog = cases[g_case].first + i;

		if (g_env.kernel)
			check_and_record(t, prog);
		else
			check_recorded(t, prog);
	}
}

/* Every recorded program is one of ours: --live compares what the
 * record holds, so a stale entry would go unnoticed. */
static void record_complete(struct test_ctx *t)
{
	for (size_t r = 0; r < g_env.rec.n; r++) {
		const char *name = g_env.rec.progs[r].name;
		bool found = false;

		for (size_t i = 0; i < N_PROGS && !found; i++) {
			struct kprog *p = new_prog();
			char why[200];

			if (!p)
				break;
			build(i, p, why, sizeof(why));
			found = p->name && !strcmp(p->name, name);
			free_prog(p);
		}
		CHECK_MSG(t, found, "%s/%s: %s is no program of this test", RECORD_DIR,
			  RECORD_FILE, name);
	}
}

static int run_cases(void)
{
	struct test_ctx t = { 0 };

	for (g_case = 0; g_case < sizeof(cases) / sizeof(cases[0]); g_case++)
		test_run(&t, cases[g_case].name, run_case);
	if (!g_env.kernel)
		test_run(&t, "disasm_record_complete", record_complete);
	return test_finish(&t);
}

static int run_live(void)
{
	drift_init(&g_env.drift, "test_disasm_kernel");
	for (size_t i = 0; i < N_PROGS; i++) {
		if (live_prog(i)) {
			printf("FAIL test_disasm_kernel: --live: out of memory\n");
			return 1;
		}
	}
	drift_summary(&g_env.drift);
	return 0;
}

static int run_update(const char *dir)
{
	char path[512];
	int rc = run_cases();

	snprintf(path, sizeof(path), "%s/%s", dir, RECORD_FILE);
	if (record_write(&g_env.out, path, g_env.release)) {
		printf("FAIL test_disasm_kernel: cannot write %s: %s\n", path,
		       strerror(errno));
		return 1;
	}
	printf("# wrote %zu programs to %s\n", g_env.out.n, path);
	return rc;
}

/* Needs the running kernel: its BTF (for kfunc ids) and a log buffer. */
static int setup_kernel(void)
{
	char why[256];

	if (!live_is_6_18(g_env.release, sizeof(g_env.release))) {
		test_skip_named("test_disasm_kernel", "the running kernel is %s, the "
				"record is of Linux 6.18", g_env.release);
		return 1;
	}
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named("test_disasm_kernel", "%s", why);
		return 1;
	}
	g_env.kernel = true;
	/* NULL when the kernel has no BTF; the kfunc program then is not
	 * loadable here. */
	g_env.btf = btf__load_vmlinux_btf();
	g_env.log = malloc(LOG_SIZE);
	return g_env.log ? 0 : -1;
}

int main(int argc, char **argv)
{
	const char *update = NULL;
	char err[300];
	bool live = false;
	int rc;

	if (argc == 3 && !strcmp(argv[1], "--update"))
		update = argv[2];
	else if (live_parse_args(argc, argv, "--update DIR", &live))
		return 2;
	if (record_read(&g_env.rec, RECORD_DIR "/" RECORD_FILE, err, sizeof(err)) &&
	    !update) {
		printf("FAIL test_disasm_kernel: %s\n", err);
		return 1;
	}
	g_env.target = btf__parse(TARGET_BTF, NULL);
	if (!update && !live) {
		/* kfunc ids and names as the target has them */
		g_env.btf = g_env.target;
		rc = run_cases();
	} else if ((rc = setup_kernel()) > 0) {
		rc = 0;
	} else if (rc < 0) {
		printf("FAIL test_disasm_kernel: out of memory\n");
	} else {
		rc = live ? run_live() : run_update(update);
	}
	if (g_env.btf != g_env.target)
		btf__free(g_env.btf);
	btf__free(g_env.target);
	free(g_env.log);
	record_free(&g_env.rec);
	record_free(&g_env.out);
	return rc;
}
