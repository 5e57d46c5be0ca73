/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compares our disassembly with the running kernel's: programs covering
 * every opcode are loaded at log level 2, and each instruction line of the
 * log (trace lines and "Live regs" rows) must equal disasm_insn()'s text
 * byte for byte. Only the address printed by ld_imm64 of a map, map value
 * or ksym is masked. Needs root and a Linux 6.18 kernel; skips otherwise.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/btf.h>

#include "disasm.h"
#include "kernel_log.h"
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
	/* Optional BTF for func_info (programs with callbacks). */
	int btf_fd;
	struct bpf_func_info finfo[4];
	size_t finfo_cnt;
	/* Optional fd_array for ld_imm64 MAP_IDX / MAP_IDX_VALUE. */
	int fd_array[2];
	bool use_fd_array;
};

/* Shared state of the run: vmlinux BTF for kfunc names, scratch log. */
struct env {
	struct btf *vmlinux;
	char *log;
};

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

/* --- comparison ----------------------------------------------------- */

static const char *kfunc_from_vmlinux(void *priv, const struct bpfvet_insn *insn,
				      int32_t *id)
{
	const struct btf_type *t = btf__type_by_id(priv, (uint32_t)insn->imm);

	(void)id;	/* the kernel prints the vmlinux id, which imm holds */
	return t ? btf__name_by_offset(priv, t->name_off) : NULL;
}

static bool is_masked_ldimm64(const struct bpfvet_insn *insn)
{
	return insn->code == 0x18 && insn->src_reg != 0 &&
	       insn->src_reg != PSEUDO_FUNC;
}

static bool all_hex(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strchr("0123456789abcdef", s[i]))
			return false;
	return n > 0;
}

/* Kernel text vs ours, with the address of pointer ld_imm64 masked. */
static bool same_text(const struct bpfvet_insn *insn, const char *kern,
		      size_t klen, const char *ours)
{
	size_t olen = strlen(ours);
	const char *ox;

	if (!is_masked_ldimm64(insn))
		return klen == olen && memcmp(kern, ours, olen) == 0;
	ox = strstr(ours, "= 0x");
	if (!ox)
		return false;
	olen = (size_t)(ox - ours) + 4;
	return klen > olen && memcmp(kern, ours, olen) == 0 &&
	       all_hex(kern + olen, klen - olen);
}

struct seen {
	bool trace[MAX_INSNS];
	bool live[MAX_INSNS];
	size_t precise;		/* mark_precise lines quoting an insn */
	size_t lines;
};

static void compare_line(struct test_ctx *t, const struct kprog *p,
			 const struct disasm_ops *ops,
			 const struct klog_insn *k, struct seen *seen)
{
	char ours[256];
	int r;

	CHECK_MSG(t, k->idx < p->cnt, "%s: log names insn %lu of %zu",
		  p->name, k->idx, p->cnt);
	if (k->idx >= p->cnt)
		return;
	r = disasm_insn(p->insns, p->cnt, k->idx, ops, ours, sizeof(ours));
	CHECK_MSG(t, r > 0, "%s: insn %lu: disasm_insn returned %d", p->name,
		  k->idx, r);
	CHECK_MSG(t, r <= 0 || same_text(&p->insns[k->idx], k->text,
					 k->text_len, ours),
		  "%s: insn %lu: kernel \"%.*s\", ours \"%s\"", p->name, k->idx,
		  (int)k->text_len, k->text, ours);
	CHECK_MSG(t, k->pad_ok, "%s: insn %lu: state not at the expected column",
		  p->name, k->idx);
	if (k->kind == KLOG_TRACE)
		seen->trace[k->idx] = true;
	else if (k->kind == KLOG_LIVE)
		seen->live[k->idx] = true;
	else
		seen->precise++;
	seen->lines++;
}

static void compare_log(struct test_ctx *t, const struct kprog *p,
			const struct env *env, struct seen *seen)
{
	const struct disasm_ops ops = {
		.kfunc_name = env->vmlinux ? kfunc_from_vmlinux : NULL,
		.priv = env->vmlinux,
	};
	const char *cur = env->log, *line;
	struct klog_insn k;
	size_t len;

	memset(seen, 0, sizeof(*seen));
	while (klog_next_line(&cur, &line, &len))
		if (klog_parse_line(line, len, &k) != KLOG_OTHER)
			compare_line(t, p, &ops, &k, seen);
}

/* Last non-empty line of the log, for failure messages. */
static const char *last_line(const char *log, char *buf, size_t sz)
{
	const char *cur = log, *line, *best = "";
	size_t len, best_len = 0;

	while (klog_next_line(&cur, &line, &len))
		if (len && strncmp(line, "processed ", 10) != 0) {
			best = line;
			best_len = len;
		}
	snprintf(buf, sz, "%.*s", (int)best_len, best);
	return buf;
}

static int load(const struct kprog *p, struct env *env)
{
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .log_buf = env->log,
		    .log_size = LOG_SIZE, .log_level = 2);

	if (p->finfo_cnt) {
		opts.prog_btf_fd = (uint32_t)p->btf_fd;
		opts.func_info = p->finfo;
		opts.func_info_cnt = (uint32_t)p->finfo_cnt;
		opts.func_info_rec_size = sizeof(p->finfo[0]);
	}
	if (p->use_fd_array)
		opts.fd_array = p->fd_array;
	env->log[0] = '\0';
	return bpf_prog_load(PROG_TYPE_SOCKET_FILTER, p->name, "GPL",
			     (const struct bpf_insn *)p->insns, p->cnt, &opts);
}

/* With BPFVET_KLOG_DIR set, keeps each kernel log for inspection. */
static void dump_log(const struct kprog *p, const struct env *env)
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
	fputs(env->log, f);
	fclose(f);
}

/*
 * Loads `p`, checks the verdict and compares every instruction line.
 * Accepted programs must show every instruction both in the live table and
 * in the trace (they are written so that every instruction is reached).
 * Returns how many mark_precise lines quoting an instruction were compared.
 */
static size_t run_prog(struct test_ctx *t, struct env *env,
		       const struct kprog *p)
{
	struct seen *seen = calloc(1, sizeof(*seen));
	size_t i, precise;
	char why[256];
	int fd;

	if (!seen) {
		CHECK(t, seen != NULL);
		return 0;
	}
	fd = load(p, env);
	CHECK_MSG(t, (fd >= 0) == p->want_ok, "%s: load returned %d (%s): %s",
		  p->name, fd, strerror(errno), last_line(env->log, why, sizeof(why)));
	if (fd >= 0)
		close(fd);
	dump_log(p, env);
	compare_log(t, p, env, seen);
	for (i = 0; i < p->cnt; i++) {
		if (disasm_is_ldimm64_tail(p->insns, p->cnt, i))
			continue;
		CHECK_MSG(t, seen->live[i], "%s: insn %zu not in the live table",
			  p->name, i);
		CHECK_MSG(t, !p->want_ok || seen->trace[i],
			  "%s: insn %zu never traced", p->name, i);
	}
	precise = seen->precise;
	free(seen);
	return precise;
}

/* --- programs ------------------------------------------------------- */

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

static int make_map(uint32_t type, uint32_t key, uint32_t val, uint32_t n,
		    uint32_t flags, uint64_t extra)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags,
		    .map_extra = extra);

	return bpf_map_create(type, "disasm", key, val, n, &opts);
}

static void build_calls(struct kprog *p, int map_fd)
{
	p->name = "calls";
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
 * kfunc calls; ids come from the running kernel. (ld_imm64 of a ksym cannot
 * be loaded here: the kernel resolves ksyms through kallsyms, which lists
 * no variables without CONFIG_KALLSYMS_ALL.)
 */
static bool build_kfunc(struct kprog *p, const struct env *env)
{
	int lock, unlock;

	if (!env->vmlinux)
		return false;
	lock = btf__find_by_name_kind(env->vmlinux, "bpf_rcu_read_lock",
				      BTF_KIND_FUNC);
	unlock = btf__find_by_name_kind(env->vmlinux, "bpf_rcu_read_unlock",
					BTF_KIND_FUNC);
	if (lock <= 0 || unlock <= 0)
		return false;
	p->name = "kfunc";
	p->want_ok = true;
	emit(p, I(0x85, 0, PSEUDO_KFUNC_CALL, 0, lock));
	emit(p, I(0x85, 0, PSEUDO_KFUNC_CALL, 0, unlock));
	emit_exit0(p);
	return true;
}

/* bpf_loop with a callback: ld_imm64 of a function needs func_info. */
static bool build_callback(struct kprog *p)
{
	struct btf *btf = btf__new_empty();
	int i32, l64, u64, vp, main_proto, cb_proto, main_fn, cb_fn;

	if (!btf)
		return false;
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
		btf__free(btf);
		return false;
	}
	p->btf_fd = dup(btf__fd(btf));
	btf__free(btf);
	if (p->btf_fd < 0)
		return false;
	p->name = "callback";
	p->want_ok = true;
	emit(p, I(0xb7, 1, 0, 0, 4));			/* 0: nr_loops */
	emit_ldimm64(p, 2, PSEUDO_FUNC, 6, 0);		/* 1: cb at 8 */
	emit(p, I(0xb7, 3, 0, 0, 0));			/* 3 */
	emit(p, I(0xb7, 4, 0, 0, 0));			/* 4 */
	emit(p, I(0x85, 0, 0, 0, HELPER_LOOP));		/* 5 */
	emit_exit0(p);					/* 6, 7 */
	emit_exit0(p);					/* 8: cb */
	p->finfo[0] = (struct bpf_func_info){ .insn_off = 0,
					      .type_id = (uint32_t)main_fn };
	p->finfo[1] = (struct bpf_func_info){ .insn_off = 8,
					      .type_id = (uint32_t)cb_fn };
	p->finfo_cnt = 2;
	return true;
}

static bool build_arena(struct kprog *p, int arena_fd)
{
	if (arena_fd < 0)
		return false;
	p->name = "arena";
	p->want_ok = true;
	emit_ldimm64(p, 1, PSEUDO_MAP_FD, arena_fd, 0);
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

/* --- cases ---------------------------------------------------------- */

static struct env g_env;

static struct kprog *new_prog(void)
{
	struct kprog *p = calloc(1, sizeof(*p));

	if (p)
		p->btf_fd = -1;
	return p;
}

static void free_prog(struct kprog *p)
{
	if (p && p->btf_fd >= 0)
		close(p->btf_fd);
	free(p);
}

static void kernel_alu(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	if (!p)
		return;
	build_alu(p);
	run_prog(t, &g_env, p);
	free_prog(p);
}

static void kernel_mem(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	if (!p)
		return;
	build_mem(p);
	run_prog(t, &g_env, p);
	free_prog(p);
}

static void kernel_jumps(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	if (!p)
		return;
	build_jumps(p);
	run_prog(t, &g_env, p);
	free_prog(p);
}

static void kernel_calls(struct test_ctx *t)
{
	struct kprog *p = new_prog();
	int fd = make_map(MAP_TYPE_ARRAY, 4, 16, 1, 0, 0);

	CHECK_MSG(t, fd >= 0, "array map: %s", strerror(errno));
	if (p && fd >= 0) {
		build_calls(p, fd);
		run_prog(t, &g_env, p);
	}
	if (fd >= 0)
		close(fd);
	free_prog(p);
}

static void kernel_ld_abs(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	if (!p)
		return;
	build_ld_abs(p);
	run_prog(t, &g_env, p);
	free_prog(p);
}

static void kernel_kfunc(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	CHECK_MSG(t, p && build_kfunc(p, &g_env),
		  "no vmlinux BTF or kfunc/ksym not found");
	if (p && p->cnt)
		run_prog(t, &g_env, p);
	free_prog(p);
}

static void kernel_callback(struct test_ctx *t)
{
	struct kprog *p = new_prog();

	CHECK(t, p != NULL);
	CHECK_MSG(t, p && build_callback(p), "cannot load BTF: %s",
		  strerror(errno));
	/* bpf_loop's constant arguments are backtracked for precision. */
	if (p && p->cnt)
		CHECK(t, run_prog(t, &g_env, p) > 0);
	free_prog(p);
}

static void kernel_arena(struct test_ctx *t)
{
	struct kprog *p = new_prog();
	int fd = make_map(MAP_TYPE_ARENA, 0, 0, 1, MAP_F_MMAPABLE,
			  ARENA_USER_ADDR);

	CHECK_MSG(t, fd >= 0, "arena map: %s", strerror(errno));
	if (p && build_arena(p, fd))
		run_prog(t, &g_env, p);
	if (fd >= 0)
		close(fd);
	free_prog(p);
}

static void kernel_odd(struct test_ctx *t)
{
	size_t i;

	for (i = 0; i < sizeof(odd_insns) / sizeof(odd_insns[0]); i++) {
		struct kprog *p = new_prog();

		CHECK(t, p != NULL);
		if (!p)
			return;
		build_odd(p, &odd_insns[i], i);
		run_prog(t, &g_env, p);
		free_prog(p);
	}
	for (i = 0; i < 3; i++) {
		struct kprog *p = new_prog();

		CHECK(t, p != NULL);
		if (!p)
			return;
		build_odd_tail(p, i);
		run_prog(t, &g_env, p);
		free_prog(p);
	}
}

/* Loads a program with a bpf-to-bpf call, which needs CAP_BPF: without it
 * the logs would differ (no pointer values, no kfuncs). */
static bool kernel_can_load(char *why, size_t sz)
{
	const struct bpfvet_insn insns[] = {
		I(0x85, 0, 1, 0, 2), I(0xb7, 0, 0, 0, 0), I(0x95, 0, 0, 0, 0),
		I(0xb7, 0, 0, 0, 0), I(0x95, 0, 0, 0, 0),
	};
	int fd = bpf_prog_load(PROG_TYPE_SOCKET_FILTER, "probe", "GPL",
			       (const struct bpf_insn *)insns, 5, NULL);

	if (fd < 0) {
		snprintf(why, sz, "cannot load privileged BPF programs: %s",
			 strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

int main(void)
{
	struct test_ctx t = { 0 };
	char why[128];

	if (!kernel_can_load(why, sizeof(why))) {
		printf("SKIP test_disasm_kernel: %s\n", why);
		return 0;
	}
	g_env.log = malloc(LOG_SIZE);
	if (!g_env.log) {
		printf("FAIL test_disasm_kernel: out of memory\n");
		return 1;
	}
	/* NULL when the kernel has no BTF; the kfunc case then fails. */
	g_env.vmlinux = btf__load_vmlinux_btf();
	RUN(&t, kernel_alu);
	RUN(&t, kernel_mem);
	RUN(&t, kernel_jumps);
	RUN(&t, kernel_calls);
	RUN(&t, kernel_ld_abs);
	RUN(&t, kernel_kfunc);
	RUN(&t, kernel_callback);
	RUN(&t, kernel_arena);
	RUN(&t, kernel_odd);
	btf__free(g_env.vmlinux);
	free(g_env.log);
	return test_finish(&t);
}
