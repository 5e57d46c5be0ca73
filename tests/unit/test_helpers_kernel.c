/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The helper tables against Linux 6.18's answers, recorded in
 * tests/fixtures/helpers.
 *
 * How they were asked: for every configuration (program type, expected
 * attach type, flags, capabilities) and every helper id 0..212 the kernel
 * got
 *     r1 = 0 .. r5 = 0; call <id>; r0 = *(u64 *)(r10 + 8); exit
 * and its verifier log was classified: "program of this type cannot use
 * helper" or "invalid func" means unavailable, anything else available.
 * The load always fails after the call (the stack read is out of bounds),
 * so the log always holds the instruction trace with the kernel's name of
 * the helper ("call bpf_map_lookup_elem#1"). With license "Proprietary"
 * the same program tells the GPL-only helpers apart.
 *
 * Argument types: for each prototype variant, in one configuration that
 * gets it, argument n is probed with the values of enum hfx_probe while
 * arguments before n hold valid values built from our own table (see
 * build_arg). The first log line after the call instruction is what the
 * kernel thinks of R<n+1>.
 *
 * Normal run: the tables against the record (names, availability,
 * gpl_only, argument messages), and the record against this file's
 * configurations: every one is recorded, nothing else is. No kernel is
 * needed; test_helpers.c holds the tables to the same record, plus the
 * per-id facts a record cannot show.
 * --live: asks the running kernel again and prints a DRIFT line for
 * every recorded answer it now gives differently (see live.h).
 * --update DIR: asks the running kernel, compares the tables with its
 * answers and writes them to DIR (make helper-fixtures).
 */
#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "helper_fixture.h"
#include "rules/data/helper_protos.h"
#include "live.h"
#include "test.h"

#define LOG_SZ (1 << 16)
#define MAX_INSNS 96
#define STACK_ZEROED 256

/* A configuration plus what is needed to load it. */
struct kcfg {
	struct hfx_config c;
	const char *btf_name;	/* attach target in vmlinux BTF, or NULL */
	int btf_kind;
	const char *member;	/* struct_ops member name */
	bool net_only;		/* loadable without CAP_PERFMON */
};

static const struct kcfg kcfgs[] = {
	{ { "socket_filter", 1, 0, 0 }, .net_only = true },
	{ { "kprobe", 2, 0, 0 } },
	{ { "kprobe.multi", 2, 42, 0 } },
	{ { "kprobe.session", 2, 56, 0 } },
	{ { "uprobe.multi", 2, 48, 0 } },
	{ { "uprobe.multi.s", 2, 48, 16 } },
	{ { "uprobe.session", 2, 57, 0 } },
	{ { "sched_cls", 3, 0, 0 }, .net_only = true },
	{ { "sched_act", 4, 0, 0 }, .net_only = true },
	{ { "tracepoint", 5, 0, 0 } },
	{ { "xdp", 6, 0, 0 }, .net_only = true },
	{ { "xdp.devmap", 6, 33, 0 }, .net_only = true },
	{ { "xdp.cpumap", 6, 35, 0 }, .net_only = true },
	{ { "xdp.frags", 6, 0, 32 }, .net_only = true },
	{ { "perf_event", 7, 0, 0 } },
	{ { "cgroup_skb.ingress", 8, 0, 0 }, .net_only = true },
	{ { "cgroup_skb.egress", 8, 1, 0 }, .net_only = true },
	{ { "cgroup_sock.create", 9, 2, 0 }, .net_only = true },
	{ { "cgroup_sock.release", 9, 34, 0 }, .net_only = true },
	{ { "cgroup_sock.post_bind4", 9, 12, 0 }, .net_only = true },
	{ { "cgroup_sock.post_bind6", 9, 13, 0 }, .net_only = true },
	{ { "lwt_in", 10, 0, 0 }, .net_only = true },
	{ { "lwt_out", 11, 0, 0 }, .net_only = true },
	{ { "lwt_xmit", 12, 0, 0 }, .net_only = true },
	{ { "sock_ops", 13, 0, 0 }, .net_only = true },
	{ { "sk_skb.parser", 14, 4, 0 }, .net_only = true },
	{ { "sk_skb.verdict", 14, 5, 0 }, .net_only = true },
	{ { "cgroup_device", 15, 0, 0 }, .net_only = true },
	{ { "sk_msg", 16, 7, 0 }, .net_only = true },
	{ { "raw_tp", 17, 0, 0 } },
	{ { "sock_addr.bind4", 18, 8, 0 }, .net_only = true },
	{ { "sock_addr.bind6", 18, 9, 0 }, .net_only = true },
	{ { "sock_addr.connect4", 18, 10, 0 }, .net_only = true },
	{ { "sock_addr.connect6", 18, 11, 0 }, .net_only = true },
	{ { "sock_addr.connect_unix", 18, 49, 0 }, .net_only = true },
	{ { "sock_addr.getpeername4", 18, 29, 0 }, .net_only = true },
	{ { "sock_addr.getpeername6", 18, 30, 0 }, .net_only = true },
	{ { "sock_addr.getpeername_unix", 18, 52, 0 }, .net_only = true },
	{ { "sock_addr.getsockname4", 18, 31, 0 }, .net_only = true },
	{ { "sock_addr.getsockname6", 18, 32, 0 }, .net_only = true },
	{ { "sock_addr.getsockname_unix", 18, 53, 0 }, .net_only = true },
	{ { "sock_addr.sendmsg4", 18, 14, 0 }, .net_only = true },
	{ { "sock_addr.sendmsg6", 18, 15, 0 }, .net_only = true },
	{ { "sock_addr.sendmsg_unix", 18, 50, 0 }, .net_only = true },
	{ { "sock_addr.recvmsg4", 18, 19, 0 }, .net_only = true },
	{ { "sock_addr.recvmsg6", 18, 20, 0 }, .net_only = true },
	{ { "sock_addr.recvmsg_unix", 18, 51, 0 }, .net_only = true },
	{ { "lwt_seg6local", 19, 0, 0 }, .net_only = true },
	{ { "sk_reuseport.select", 21, 39, 0 }, .net_only = true },
	{ { "sk_reuseport.migrate", 21, 40, 0 }, .net_only = true },
	{ { "flow_dissector", 22, 17, 0 }, .net_only = true },
	{ { "cgroup_sysctl", 23, 18, 0 }, .net_only = true },
	{ { "raw_tp.w", 24, 0, 0 } },
	{ { "sockopt.get", 25, 21, 0 }, .net_only = true },
	{ { "sockopt.set", 25, 22, 0 }, .net_only = true },
	{ { "tp_btf", 26, 23, 0 }, "btf_trace_sched_switch", BTF_KIND_TYPEDEF },
	{ { "iter.task", 26, 28, 0 }, "bpf_iter_task", BTF_KIND_FUNC },
	{ { "iter.task.s", 26, 28, 16 }, "bpf_iter_task", BTF_KIND_FUNC },
	{ { "struct_ops.tcp_ca.ssthresh", 27, 0, 0 }, "tcp_congestion_ops",
	  BTF_KIND_STRUCT, "ssthresh" },
	{ { "struct_ops.tcp_ca.release", 27, 0, 0 }, "tcp_congestion_ops",
	  BTF_KIND_STRUCT, "release" },
	{ { "sk_lookup", 30, 36, 0 }, .net_only = true },
	{ { "syscall.s", 31, 0, 16 }, .net_only = true },
	{ { "netfilter", 32, 45, 0 }, .net_only = true },
};
#define N_KCFG (sizeof(kcfgs) / sizeof(kcfgs[0]))

/* One configuration as resolved for loading. */
struct lcfg {
	struct hfx_config c;
	uint32_t btf_id;
	uint32_t member_idx;
};

/* What the kernel said about one configuration. */
struct kres {
	struct lcfg l;
	bool loaded;		/* the configuration loads at all */
	bool avail[HFX_IDS];
	bool gpl[HFX_IDS];
	bool gpl_tested;	/* non-GPL programs of this kind load at all */
};

/*
 * One args.txt line: what the kernel said about argument `argno` of a
 * prototype variant, probed in configuration `config`, for each probe
 * value (abbreviated by hfx_abbrev, as the file keeps it).
 */
struct argrec {
	char variant[64];
	char config[64];
	int argno;		/* 1-based, as R<argno> */
	char said[HFX_PROBES][160];
};

/* The kernel's answers, asked live or read from the record. */
struct kctx {
	struct btf *vmlinux;
	int array_fd;		/* ARRAY, key 4, value 8 */
	int rodata_fd;		/* frozen read-only ARRAY for const strings */
	char names[HFX_IDS][64];
	struct kres res[2 * N_KCFG];
	size_t nres;
	char *log;
	struct argrec *args;
	size_t nargs, args_cap;
	const char *whose;	/* "recorded" or "kernel", for messages */
};

static struct bpf_insn mov_imm(int dst, int32_t imm)
{
	return (struct bpf_insn){ .code = 0xb7, .dst_reg = dst, .imm = imm };
}

static struct bpf_insn mov_reg(int dst, int src)
{
	return (struct bpf_insn){ .code = 0xbf, .dst_reg = dst, .src_reg = src };
}

static struct bpf_insn add_imm(int dst, int32_t imm)
{
	return (struct bpf_insn){ .code = 0x07, .dst_reg = dst, .imm = imm };
}

static struct bpf_insn call(int32_t id)
{
	return (struct bpf_insn){ .code = 0x85, .imm = id };
}

static int load(const struct lcfg *l, const struct bpf_insn *insns, int cnt,
		const char *license, char *log)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .log_buf = log, .log_size = LOG_SZ,
		    .log_level = 1, .expected_attach_type = l->c.attach,
		    .prog_flags = l->c.flags, .attach_btf_id = l->btf_id);
	int fd;

	if (l->c.prog_type == 27)
		o.expected_attach_type = l->member_idx;
	log[0] = '\0';
	fd = bpf_prog_load(l->c.prog_type, "hx", license, insns, cnt, &o);
	if (fd >= 0)
		close(fd);
	return fd >= 0 ? 0 : -errno;
}

/* Drop or restore CAP_PERFMON and CAP_SYS_ADMIN in the effective set. */
static int set_perfmon(bool on)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return -errno;
	if (on) {
		d[0].effective = d[0].permitted;
		d[1].effective = d[1].permitted;
	} else {
		d[0].effective &= ~(1u << CAP_SYS_ADMIN);
		d[1].effective &= ~(1u << (CAP_PERFMON - 32));
	}
	return syscall(SYS_capset, &h, d) ? -errno : 0;
}

/* The helper name from "call NAME#ID" or "... helper NAME#ID". */
static void note_name(struct kctx *k, int id, const char *log)
{
	char pat[16];
	const char *p, *e = NULL;

	if (k->names[id][0])
		return;
	snprintf(pat, sizeof(pat), "#%d", id);
	for (p = strstr(log, pat); p; p = strstr(p + 1, pat)) {
		char next = p[strlen(pat)];

		if (next == ' ' || next == '\n') {
			e = p;
			break;
		}
	}
	if (!e)
		return;
	p = e;
	while (p > log && p[-1] != ' ')
		p--;
	snprintf(k->names[id], sizeof(k->names[id]), "%.*s", (int)(e - p), p);
}

static bool unavailable(const char *log)
{
	return strstr(log, "cannot use helper") || strstr(log, "invalid func");
}

static void sweep(struct kctx *k, struct kres *r)
{
	struct bpf_insn p[] = {
		mov_imm(1, 0), mov_imm(2, 0), mov_imm(3, 0), mov_imm(4, 0),
		mov_imm(5, 0), call(0),
		{ .code = 0x79, .dst_reg = 0, .src_reg = 10, .off = 8 },
		{ .code = 0x95 },
	};

	r->loaded = false;
	for (int id = 0; id < HFX_IDS; id++) {
		p[5].imm = id;
		load(&r->l, p, 8, "GPL", k->log);
		if (!strstr(k->log, "(85) call"))
			return;	/* refused before the walk: not loadable */
		note_name(k, id, k->log);
		r->avail[id] = !unavailable(k->log);
		if (!r->avail[id] || !r->l.c.perfmon)
			continue;
		load(&r->l, p, 8, "Proprietary", k->log);
		r->gpl[id] = strstr(k->log, "cannot call GPL-restricted") != NULL;
		/* Some types refuse non-GPL programs before the walk. */
		if (strstr(k->log, "(85) call"))
			r->gpl_tested = true;
	}
	r->loaded = true;
}

static int resolve(struct kctx *k, const struct kcfg *kc, struct lcfg *l)
{
	memset(l, 0, sizeof(*l));
	l->c = kc->c;
	if (!kc->btf_name)
		return 0;
	if (!k->vmlinux)
		return -ENOENT;
	int id = btf__find_by_name_kind(k->vmlinux, kc->btf_name, kc->btf_kind);
	if (id <= 0)
		return -ENOENT;
	l->btf_id = id;
	if (kc->member) {
		const struct btf_type *t = btf__type_by_id(k->vmlinux, id);
		const struct btf_member *m = btf_members(t);

		for (int i = 0; i < btf_vlen(t); i++, m++) {
			const char *n = btf__name_by_offset(k->vmlinux, m->name_off);

			if (n && !strcmp(n, kc->member)) {
				l->member_idx = i;
				l->c.moff = btf_member_bit_offset(t, i) / 8;
				return 0;
			}
		}
		return -ENOENT;
	}
	return 0;
}

/* --- argument probes ---------------------------------------------------- */

static int emit_ldmap(struct bpf_insn *p, int n, int reg, int fd, int pseudo)
{
	p[n] = (struct bpf_insn){ .code = 0x18, .dst_reg = reg,
				  .src_reg = pseudo, .imm = fd };
	p[n + 1] = (struct bpf_insn){ 0 };
	return n + 2;
}

/* Put a valid value for argument `a` of `hp` into R<a+1>. */
static int build_arg(struct kctx *k, const struct helper_proto *hp, int a,
		     struct bpf_insn *p, int n)
{
	uint32_t base = hp->arg_type[a] & BASE_TYPE_MASK;
	int reg = a + 1;

	switch (base) {
	case ARG_CONST_MAP_PTR:
		return emit_ldmap(p, n, reg, k->array_fd, 1);
	case ARG_PTR_TO_CONST_STR:
		return emit_ldmap(p, n, reg, k->rodata_fd, 2);
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
	case ARG_PTR_TO_MEM:
	case ARG_PTR_TO_STACK:
		p[n++] = mov_reg(reg, 10);
		p[n++] = add_imm(reg, -STACK_ZEROED);
		return n;
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
		p[n++] = mov_imm(reg, 8);
		return n;
	case ARG_PTR_TO_CTX:
		p[n++] = mov_reg(reg, 6);
		return n;
	case ARG_PTR_TO_BTF_ID:
		p[n++] = mov_reg(reg, 7);
		return n;
	default:
		p[n++] = mov_imm(reg, 0);
		return n;
	}
}

static int put_probe(enum hfx_probe pr, int reg, struct bpf_insn *p, int n)
{
	switch (pr) {
	case HFX_ONE:
		p[n++] = mov_imm(reg, 1);
		break;
	case HFX_ZERO:
		p[n++] = mov_imm(reg, 0);
		break;
	case HFX_NEG:
		p[n++] = mov_imm(reg, -1);
		break;
	default:
		p[n++] = mov_reg(reg, 8);
		break;
	}
	return n;
}

/* The kernel's verdict on R<a+1>: "-" or the message without "R<n> ". */
static void verdict(const char *log, int a, char *buf, size_t sz)
{
	const char *c = NULL, *s, *e;
	char pre[8];

	for (s = strstr(log, "(85) call"); s; s = strstr(s + 1, "(85) call"))
		c = s;
	snprintf(buf, sz, "-");
	if (!c || !(s = strchr(c, '\n')))
		return;
	s++;
	e = strchr(s, '\n');
	if (!e)
		e = s + strlen(s);
	snprintf(pre, sizeof(pre), "R%d ", a + 1);
	if (strncmp(s, pre, strlen(pre)))
		return;
	s += strlen(pre);
	snprintf(buf, sz, "%.*s", (int)(e - s), s);
}

/* Load the probe program for argument `a`; the log is left in k->log. */
static void run_probe(struct kctx *k, const struct lcfg *l,
		      const struct helper_proto *hp, int a, enum hfx_probe pr)
{
	struct bpf_insn p[MAX_INSNS];
	int n = 0;

	p[n++] = mov_reg(6, 1);
	for (int off = 8; off <= STACK_ZEROED; off += 8)
		p[n++] = (struct bpf_insn){ .code = 0x7a, .dst_reg = 10,
					    .off = -off };
	p[n++] = call(FN_get_prandom_u32);
	p[n++] = mov_reg(8, 0);
	p[n++] = call(FN_get_current_task_btf);
	p[n++] = mov_reg(7, 0);
	for (int i = 0; i < a; i++)
		n = build_arg(k, hp, i, p, n);
	n = put_probe(pr, a + 1, p, n);
	for (int i = a + 1; i < 5; i++)
		p[n++] = mov_imm(i + 1, 0);
	p[n++] = call(hp->id);
	p[n++] = mov_imm(0, 0);
	p[n++] = (struct bpf_insn){ .code = 0x95 };
	load(l, p, n, "GPL", k->log);
}

/*
 * Checks that run before the arguments (sleepable helper in a
 * non-sleepable program, a proto's allowed() hook) hide them: such a
 * configuration cannot probe this variant.
 */
static bool args_hidden(const char *log)
{
	return strstr(log, "might sleep in a non-sleepable prog") ||
	       strstr(log, "is not allowed in probe");
}

static struct argrec *new_argrec(struct kctx *k)
{
	if (test_grow(&k->args, k->nargs, &k->args_cap, sizeof(*k->args)))
		return NULL;
	memset(&k->args[k->nargs], 0, sizeof(k->args[0]));
	return &k->args[k->nargs++];
}

/* Probe argument `a` four ways: one args.txt line. */
static int probe_arg(struct kctx *k, const struct lcfg *l,
		     const struct helper_proto *hp, int a)
{
	struct argrec *ar = new_argrec(k);
	char got[256];

	if (!ar)
		return -ENOMEM;
	snprintf(ar->variant, sizeof(ar->variant), "%s", hp->variant);
	snprintf(ar->config, sizeof(ar->config), "%s", l->c.name);
	ar->argno = a + 1;
	for (int pr = 0; pr < HFX_PROBES; pr++) {
		run_probe(k, l, hp, a, pr);
		verdict(k->log, a, got, sizeof(got));
		snprintf(ar->said[pr], sizeof(ar->said[pr]), "%s",
			 hfx_abbrev(got));
	}
	return 0;
}

/* Probe every argument of every variant, each in one configuration. */
static int probe_args(struct kctx *k)
{
	bool done[HP__COUNT] = { false };

	for (size_t i = 0; i < k->nres; i++) {
		struct kres *r = &k->res[i];
		struct helper_query q;

		if (!r->loaded || !r->l.c.perfmon)
			continue;
		hfx_query(&r->l.c, &q);
		for (int id = 0; id < HELPER_ID_MAX; id++) {
			const struct helper_proto *hp = helper_proto_query(&q, id);
			size_t idx;

			if (!hp || !r->avail[id])
				continue;
			idx = (size_t)(hp - helper_protos);
			if (done[idx] || hp->arg_type[0] == ARG_DONTCARE)
				continue;
			run_probe(k, &r->l, hp, 0, HFX_ONE);
			if (args_hidden(k->log))
				continue;
			done[idx] = true;
			for (int a = 0; a < 5; a++) {
				if (hp->arg_type[a] == ARG_DONTCARE)
					break;
				if (probe_arg(k, &r->l, hp, a))
					return -ENOMEM;
				if (!hfx_arg_constructible(hp, a))
					break;
			}
		}
	}
	return 0;
}

/* --- comparisons with the tables ---------------------------------------- */

/* Every disagreement goes to the output; the harness keeps the first. */
#define MISMATCH(t, ...)                                                   \
	do {                                                               \
		printf("# mismatch: ");                                    \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		CHECK_MSG(t, false, __VA_ARGS__);                          \
	} while (0)

static void compare_avail(struct test_ctx *t, const struct kctx *k)
{
	int agree = 0, total = 0;

	for (size_t i = 0; i < k->nres; i++) {
		const struct kres *r = &k->res[i];
		struct helper_query q;

		if (!r->loaded)
			continue;
		hfx_query(&r->l.c, &q);
		for (int id = 0; id < HFX_IDS; id++) {
			bool ours = helper_proto_query(&q, id) != NULL;

			total++;
			if (ours == r->avail[id]) {
				agree++;
				continue;
			}
			MISMATCH(t, "%s (%s) helper %d: %s %s, table %s",
				 r->l.c.name,
				 r->l.c.perfmon ? "full" : "noperfmon", id,
				 k->whose,
				 r->avail[id] ? "available" : "unavailable",
				 ours ? "available" : "unavailable");
		}
	}
	printf("# availability: %d/%d (config, helper) pairs agree\n",
	       agree, total);
	CHECK(t, total > 20000);
}

static void compare_gpl(struct test_ctx *t, const struct kctx *k)
{
	int agree = 0, total = 0;

	for (size_t i = 0; i < k->nres; i++) {
		const struct kres *r = &k->res[i];
		struct helper_query q;

		if (!r->loaded || !r->l.c.perfmon || !r->gpl_tested)
			continue;
		hfx_query(&r->l.c, &q);
		for (int id = 0; id < HELPER_ID_MAX; id++) {
			const struct helper_proto *hp = helper_proto_query(&q, id);

			if (!r->avail[id] || !hp)
				continue;
			total++;
			if (hp->gpl_only == r->gpl[id]) {
				agree++;
				continue;
			}
			MISMATCH(t, "%s %s: %s gpl_only=%d", r->l.c.name,
				 hp->variant, k->whose, r->gpl[id]);
		}
	}
	printf("# gpl_only: %d/%d available (config, helper) pairs agree\n",
	       agree, total);
	CHECK(t, total > 1000);
}

static void compare_names(struct test_ctx *t, const struct kctx *k)
{
	for (int id = 0; id < HELPER_ID_MAX; id++)
		CHECK_STR(t, helper_name(id), k->names[id]);
	CHECK_STR(t, k->names[HELPER_ID_MAX], "unknown");
}

static const struct helper_proto *find_variant(const char *v)
{
	for (size_t i = 0; i < HP__COUNT; i++)
		if (!strcmp(helper_protos[i].variant, v))
			return &helper_protos[i];
	return NULL;
}

static void compare_args(struct test_ctx *t, const struct kctx *k)
{
	char want[256];
	int agree = 0, total = 0;

	for (size_t i = 0; i < k->nargs; i++) {
		const struct argrec *ar = &k->args[i];
		const struct helper_proto *hp = find_variant(ar->variant);

		CHECK_MSG(t, hp != NULL, "args: unknown variant %s", ar->variant);
		if (!hp || ar->argno < 1 || ar->argno > 5)
			continue;
		for (int pr = 0; pr < HFX_PROBES; pr++) {
			hfx_predict(hp, ar->argno - 1, pr, want, sizeof(want));
			total++;
			if (!strcmp(hfx_abbrev(want), ar->said[pr])) {
				agree++;
				continue;
			}
			MISMATCH(t, "%s in %s, R%d = %s: %s \"%s\", table \"%s\"",
				 ar->variant, ar->config, ar->argno,
				 hfx_probe_names[pr], k->whose, ar->said[pr],
				 hfx_abbrev(want));
		}
	}
	printf("# arguments: %d/%d probes agree\n", agree, total);
	CHECK(t, total > 2000);
}

static void compare_tables(struct test_ctx *t, const struct kctx *k)
{
	compare_names(t, k);
	compare_avail(t, k);
	compare_gpl(t, k);
	compare_args(t, k);
}

/* --- the record --------------------------------------------------------- */

static FILE *open_fixture(const char *dir, const char *file, const char *head)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (f)
		fprintf(f, "# %s\n# Written by test_helpers_kernel --update "
			"on Linux 6.18 (make helper-fixtures).\n", head);
	return f;
}

static void write_args(FILE *f, const struct kctx *k)
{
	fprintf(f, "# variant config argno: what the log says about that "
		"register after the call, for the values 1 | 0 | -1 | unknown\n"
		"# (\"-\": accepted; codes: see hfx_abbrev; a bare list is "
		"\"type=scalar expected=<list>\")\n");
	for (size_t i = 0; i < k->nargs; i++) {
		const struct argrec *ar = &k->args[i];

		fprintf(f, "%s %s %d:", ar->variant, ar->config, ar->argno);
		for (int pr = 0; pr < HFX_PROBES; pr++)
			fprintf(f, "%s%s", pr ? " | " : " ", ar->said[pr]);
		fprintf(f, "\n");
	}
}

static int close_all(FILE **f, int n)
{
	int rc = 0;

	for (int i = 0; i < n; i++)
		if (!f[i] || fclose(f[i]))
			rc = -1;
	return rc;
}

static int write_fixtures(const struct kctx *k, const char *dir)
{
	FILE *f[4];
	char buf[2048], cfg[160], path[512];

	f[0] = open_fixture(dir, "avail.txt", "name prog_type attach "
			    "prog_flags caps struct_ops_moff: helper ids "
			    "the kernel offers");
	f[1] = open_fixture(dir, "gpl.txt", "name: GPL-only helper ids "
			    "among the available ones (full caps)");
	f[2] = open_fixture(dir, "names.txt", "id name, from the verifier log");
	snprintf(path, sizeof(path), "%s/args.txt", dir);
	f[3] = fopen(path, "w");
	if (!f[0] || !f[1] || !f[2] || !f[3]) {
		close_all(f, 4);
		return -1;
	}
	for (size_t i = 0; i < k->nres; i++) {
		const struct kres *r = &k->res[i];

		if (!r->loaded)
			continue;
		hfx_format_config(&r->l.c, cfg, sizeof(cfg));
		hfx_format_ids(r->avail, buf, sizeof(buf));
		fprintf(f[0], "%s: %s\n", cfg, buf);
		if (!r->l.c.perfmon || !r->gpl_tested)
			continue;
		hfx_format_ids(r->gpl, buf, sizeof(buf));
		fprintf(f[1], "%s: %s\n", r->l.c.name, buf);
	}
	for (int id = 0; id < HFX_IDS; id++)
		fprintf(f[2], "%d %s\n", id, k->names[id]);
	write_args(f[3], k);
	return close_all(f, 4);
}

static struct kres *find_res(struct kctx *k, const char *name, bool perfmon)
{
	for (size_t i = 0; i < k->nres; i++)
		if (k->res[i].l.c.perfmon == perfmon &&
		    !strcmp(k->res[i].l.c.name, name))
			return &k->res[i];
	return NULL;
}

static FILE *open_record(const char *file, char *err, size_t errsz)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", HFX_DIR, file);
	f = fopen(path, "r");
	if (!f)
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
	return f;
}

static int read_avail(struct kctx *k, char *err, size_t errsz)
{
	FILE *f = open_record("avail.txt", err, errsz);
	char line[4096];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct kres *r = &k->res[k->nres];

		if (line[0] == '#')
			continue;
		if (k->nres == 2 * N_KCFG || hfx_parse_config(line, &r->l.c, r->avail)) {
			snprintf(err, errsz, "avail.txt: bad or extra line: %s", line);
			fclose(f);
			return -1;
		}
		r->loaded = true;
		k->nres++;
	}
	fclose(f);
	return 0;
}

static int read_gpl(struct kctx *k, char *err, size_t errsz)
{
	FILE *f = open_record("gpl.txt", err, errsz);
	char line[4096], name[64];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		const char *colon = strchr(line, ':');
		struct kres *r;

		if (line[0] == '#' || !colon)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(colon - line), line);
		r = find_res(k, name, true);
		if (!r || hfx_parse_ids(colon + 1, r->gpl)) {
			snprintf(err, errsz, "gpl.txt: bad line or no such "
				 "configuration in avail.txt: %s", line);
			fclose(f);
			return -1;
		}
		r->gpl_tested = true;
	}
	fclose(f);
	return 0;
}

static int read_names(struct kctx *k, char *err, size_t errsz)
{
	FILE *f = open_record("names.txt", err, errsz);
	char line[256], name[64];
	int id;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#')
			continue;
		if (sscanf(line, "%d %63s", &id, name) != 2 || id < 0 ||
		    id >= HFX_IDS) {
			snprintf(err, errsz, "names.txt: bad line: %s", line);
			fclose(f);
			return -1;
		}
		snprintf(k->names[id], sizeof(k->names[id]), "%s", name);
	}
	fclose(f);
	return 0;
}

/* "VARIANT CONFIG ARGNO: a | b | c | d" */
static int parse_argrec(char *line, struct argrec *ar)
{
	char *rest = strchr(line, ':'), *tok, *save = NULL;
	int pr = 0;

	if (!rest || sscanf(line, "%63s %63s %d", ar->variant, ar->config,
			    &ar->argno) != 3)
		return -1;
	rest[strcspn(rest, "\n")] = '\0';
	for (tok = strtok_r(rest + 1, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save), pr++) {
		size_t len;

		if (pr == HFX_PROBES)
			return -1;
		while (*tok == ' ')
			tok++;
		len = strlen(tok);
		while (len && tok[len - 1] == ' ')
			tok[--len] = '\0';
		snprintf(ar->said[pr], sizeof(ar->said[pr]), "%s", tok);
	}
	return pr == HFX_PROBES ? 0 : -1;
}

static int read_args(struct kctx *k, char *err, size_t errsz)
{
	FILE *f = open_record("args.txt", err, errsz);
	char line[1024];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		struct argrec *ar;

		if (line[0] == '#')
			continue;
		ar = new_argrec(k);
		if (!ar || parse_argrec(line, ar)) {
			snprintf(err, errsz, "args.txt: %s: %s",
				 ar ? "bad line" : "out of memory", line);
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

static int read_record(struct kctx *k, char *err, size_t errsz)
{
	k->whose = "recorded";
	if (read_avail(k, err, errsz) || read_gpl(k, err, errsz) ||
	    read_names(k, err, errsz) || read_args(k, err, errsz))
		return -1;
	return 0;
}

/*
 * The record answers exactly the questions --live asks: every
 * configuration of kcfgs[] (also without CAP_PERFMON when net_only) is
 * recorded with its numbers, and nothing else is.
 */
static void record_complete(struct test_ctx *t, struct kctx *k)
{
	size_t asked = 0;

	for (size_t i = 0; i < N_KCFG; i++) {
		for (int pass = 0; pass < 2; pass++) {
			bool perfmon = pass == 0;
			const struct hfx_config *c = &kcfgs[i].c;
			struct kres *r;

			if (!perfmon && !kcfgs[i].net_only)
				continue;
			asked++;
			r = find_res(k, c->name, perfmon);
			CHECK_MSG(t, r != NULL, "%s (%s): not recorded", c->name,
				  perfmon ? "full" : "noperfmon");
			CHECK_MSG(t, !r || (r->l.c.prog_type == c->prog_type &&
					    r->l.c.attach == c->attach &&
					    r->l.c.flags == c->flags),
				  "%s: recorded as %u %u %u, asked as %u %u %u",
				  c->name, r->l.c.prog_type, r->l.c.attach,
				  r->l.c.flags, c->prog_type, c->attach, c->flags);
		}
	}
	CHECK_MSG(t, k->nres == asked, "%zu configurations recorded, %zu asked",
		  k->nres, asked);
	for (size_t i = 0; i < k->nargs; i++)
		CHECK_MSG(t, find_res(k, k->args[i].config, true),
			  "args.txt: %s probed in %s, which is not recorded",
			  k->args[i].variant, k->args[i].config);
}

/* --- drift of the live answers from the record -------------------------- */

static void drift_config(struct drift *d, const struct kctx *rk,
			 const struct kres *rec, const struct kres *live)
{
	const char *caps = rec->l.c.perfmon ? "full" : "noperfmon";
	char item[160];

	snprintf(item, sizeof(item), "helpers/%s (%s)", rec->l.c.name, caps);
	if (!live || !live->loaded) {
		drift_field(d, item, "loads", "yes", "no");
		drift_item_end(d);
		return;
	}
	if (rec->l.c.prog_type == 27)
		drift_num(d, item, "struct_ops_moff", rec->l.c.moff, live->l.c.moff);
	drift_item_end(d);
	for (int id = 0; id < HFX_IDS; id++) {
		snprintf(item, sizeof(item), "helpers/%s (%s) #%d %s",
			 rec->l.c.name, caps, id, rk->names[id]);
		if (rec->avail[id] != live->avail[id])
			drift_field(d, item, "available", rec->avail[id] ? "yes" : "no",
				    live->avail[id] ? "yes" : "no");
		else if (rec->avail[id] && rec->gpl_tested && live->gpl_tested &&
			 rec->gpl[id] != live->gpl[id])
			drift_field(d, item, "gpl_only", rec->gpl[id] ? "yes" : "no",
				    live->gpl[id] ? "yes" : "no");
		drift_item_end(d);
	}
}

static void drift_configs(struct drift *d, struct kctx *rec, struct kctx *live)
{
	char item[160];

	for (size_t i = 0; i < rec->nres; i++) {
		const struct kres *r = &rec->res[i];

		drift_config(d, rec, r, find_res(live, r->l.c.name, r->l.c.perfmon));
	}
	for (size_t i = 0; i < live->nres; i++) {
		const struct kres *l = &live->res[i];

		if (!l->loaded || find_res(rec, l->l.c.name, l->l.c.perfmon))
			continue;
		snprintf(item, sizeof(item), "helpers/%s (%s)", l->l.c.name,
			 l->l.c.perfmon ? "full" : "noperfmon");
		drift_field(d, item, "loads", "no (not recorded)", "yes");
		drift_item_end(d);
	}
}

static void drift_names(struct drift *d, const struct kctx *rec,
			const struct kctx *live)
{
	char item[32];

	for (int id = 0; id < HFX_IDS; id++) {
		snprintf(item, sizeof(item), "helpers/#%d", id);
		drift_str(d, item, "name", rec->names[id], live->names[id]);
		drift_item_end(d);
	}
}

static const struct argrec *find_argrec(const struct kctx *k, const char *variant,
					int argno)
{
	for (size_t i = 0; i < k->nargs; i++)
		if (k->args[i].argno == argno && !strcmp(k->args[i].variant, variant))
			return &k->args[i];
	return NULL;
}

static void drift_args(struct drift *d, const struct kctx *rec,
		       const struct kctx *live)
{
	char item[160];

	for (size_t i = 0; i < rec->nargs; i++) {
		const struct argrec *r = &rec->args[i];
		const struct argrec *l = find_argrec(live, r->variant, r->argno);

		snprintf(item, sizeof(item), "helpers/args %s R%d", r->variant,
			 r->argno);
		if (!l)
			drift_field(d, item, "probed in", r->config, "(not probed)");
		else if (strcmp(r->config, l->config))
			drift_field(d, item, "probed in", r->config, l->config);
		for (int pr = 0; l && pr < HFX_PROBES; pr++)
			drift_str(d, item, hfx_probe_names[pr], r->said[pr],
				  l->said[pr]);
		drift_item_end(d);
	}
	for (size_t i = 0; i < live->nargs; i++) {
		const struct argrec *l = &live->args[i];

		if (find_argrec(rec, l->variant, l->argno))
			continue;
		snprintf(item, sizeof(item), "helpers/args %s R%d", l->variant,
			 l->argno);
		drift_field(d, item, "probed in", "(not recorded)", l->config);
		drift_item_end(d);
	}
}

/* --- running ------------------------------------------------------------ */

static int make_maps(struct kctx *k)
{
	LIBBPF_OPTS(bpf_map_create_opts, ro, .map_flags = 1u << 7);
	uint32_t key = 0;
	uint64_t zero = 0;

	k->array_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "hx", 4, 8, 1, NULL);
	k->rodata_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, "hx_ro", 4, 8, 1, &ro);
	if (k->array_fd < 0 || k->rodata_fd < 0)
		return -1;
	if (bpf_map_update_elem(k->rodata_fd, &key, &zero, 0) ||
	    bpf_map_freeze(k->rodata_fd))
		return -1;
	return 0;
}

static void run_configs(struct kctx *k)
{
	for (int pass = 0; pass < 2; pass++) {
		bool perfmon = pass == 0;

		if (set_perfmon(perfmon))
			break;
		for (size_t i = 0; i < N_KCFG; i++) {
			struct kres *r = &k->res[k->nres];

			if (!perfmon && !kcfgs[i].net_only)
				continue;
			if (resolve(k, &kcfgs[i], &r->l))
				continue;
			r->l.c.perfmon = perfmon;
			sweep(k, r);
			k->nres++;
		}
	}
	set_perfmon(true);
}

static struct kctx *kctx_new(void)
{
	struct kctx *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->array_fd = k->rodata_fd = -1;
	k->whose = "kernel";
	return k;
}

static void kctx_free(struct kctx *k)
{
	if (!k)
		return;
	if (k->array_fd >= 0)
		close(k->array_fd);
	if (k->rodata_fd >= 0)
		close(k->rodata_fd);
	btf__free(k->vmlinux);
	free(k->args);
	free(k->log);
	free(k);
}

/* Asks the running kernel everything; 0, or -1 with the reason in why. */
static int ask_kernel(struct kctx *k, char *why, size_t sz)
{
	k->log = malloc(LOG_SZ);
	if (!k->log) {
		snprintf(why, sz, "out of memory");
		return -1;
	}
	if (make_maps(k)) {
		snprintf(why, sz, "cannot create BPF maps: %s", strerror(errno));
		return -1;
	}
	k->vmlinux = btf__load_vmlinux_btf();
	run_configs(k);
	if (!k->nres || !k->res[0].loaded) {
		snprintf(why, sz, "the kernel does not load socket filters here");
		return -1;
	}
	if (probe_args(k)) {
		snprintf(why, sz, "out of memory");
		return -1;
	}
	return 0;
}

/* The kctx a case works on. */
static struct kctx *g_k;

static void helpers_recorded(struct test_ctx *t)
{
	compare_tables(t, g_k);
}

static void helpers_record_complete(struct test_ctx *t)
{
	record_complete(t, g_k);
}

static int run_recorded(void)
{
	struct test_ctx t = { 0 };
	struct kctx *k = kctx_new();
	char err[512];

	if (!k || read_record(k, err, sizeof(err))) {
		printf("FAIL test_helpers_kernel: %s\n", k ? err : "out of memory");
		kctx_free(k);
		return 1;
	}
	g_k = k;
	RUN(&t, helpers_recorded);
	RUN(&t, helpers_record_complete);
	kctx_free(k);
	return test_finish(&t);
}

static const char *update_dir;

/* --update DIR: the tables against the kernel, whose answers are kept. */
static void helpers_update(struct test_ctx *t)
{
	compare_tables(t, g_k);
	CHECK_MSG(t, write_fixtures(g_k, update_dir) == 0, "cannot write %s/*.txt",
		  update_dir);
}

static int run_kernel(bool live)
{
	struct test_ctx t = { 0 };
	struct kctx *k = kctx_new(), *rec = live ? kctx_new() : NULL;
	struct drift d;
	char why[512];
	int rc = 1;

	if (!k || (live && !rec)) {
		printf("FAIL test_helpers_kernel: out of memory\n");
	} else if (live && read_record(rec, why, sizeof(why))) {
		printf("FAIL test_helpers_kernel: --live: %s\n", why);
	} else if (ask_kernel(k, why, sizeof(why))) {
		test_skip_named("test_helpers_kernel", "%s", why);
		rc = 0;
	} else if (live) {
		drift_init(&d, "test_helpers_kernel");
		drift_names(&d, rec, k);
		drift_configs(&d, rec, k);
		drift_args(&d, rec, k);
		drift_summary(&d);
		rc = 0;
	} else {
		g_k = k;
		RUN(&t, helpers_update);
		rc = test_finish(&t);
	}
	kctx_free(rec);
	kctx_free(k);
	return rc;
}

int main(int argc, char **argv)
{
	char why[256];
	bool live = false;

	if (argc == 3 && !strcmp(argv[1], "--update"))
		update_dir = argv[2];
	else if (live_parse_args(argc, argv, "--update DIR", &live))
		return 2;
	if (!live && !update_dir)
		return run_recorded();
	if (live && !live_is_6_18(why, sizeof(why))) {
		test_skip_named("test_helpers_kernel", "the running kernel is %s, the "
				"record is of Linux 6.18", why);
		return 0;
	}
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named("test_helpers_kernel", "%s", why);
		return 0;
	}
	return run_kernel(live);
}
