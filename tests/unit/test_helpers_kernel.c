/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The helper tables against the running kernel (root, Linux 6.18).
 *
 * For every configuration (program type, expected attach type, flags,
 * capabilities) and every helper id 0..212 we load
 *     r1 = 0 .. r5 = 0; call <id>; r0 = *(u64 *)(r10 + 8); exit
 * and classify the verifier log: "program of this type cannot use helper"
 * or "invalid func" means unavailable, anything else available. The load
 * always fails after the call (the stack read is out of bounds), so the
 * log always holds the instruction trace with the kernel's name of the
 * helper ("call bpf_map_lookup_elem#1"). With license "Proprietary" the
 * same program tells the GPL-only helpers apart.
 *
 * Argument types: for each prototype variant, in one configuration that
 * gets it, argument n is probed with the values of enum hfx_probe while
 * arguments before n hold valid values built from our own table (see
 * build_arg). The first log line after the call instruction is what the
 * kernel thinks of R<n+1>.
 *
 * Run as part of `make check` this compares live and skips (PASS ...
 * skipped) when BPF cannot be loaded. With `--update DIR` it also writes
 * the fixtures that tests/unit/test_helpers.c checks without a kernel
 * (`make helper-fixtures`).
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
#include "helper_protos.h"
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

struct kctx {
	struct btf *vmlinux;
	int array_fd;		/* ARRAY, key 4, value 8 */
	int rodata_fd;		/* frozen read-only ARRAY for const strings */
	char names[HFX_IDS][64];
	struct kres res[2 * N_KCFG];
	size_t nres;
	char *log;
	FILE *args_out;		/* fixture being written, or NULL */
	int arg_checked, arg_failed;
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

/* Every disagreement goes to the output; the harness keeps the first. */
#define MISMATCH(t, ...)                                                   \
	do {                                                               \
		printf("# mismatch: ");                                    \
		printf(__VA_ARGS__);                                       \
		printf("\n");                                              \
		CHECK_MSG(t, false, __VA_ARGS__);                          \
	} while (0)

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

/* Probe argument `a` four ways; one args.txt line. */
static void probe_arg(struct test_ctx *t, struct kctx *k,
		      const struct lcfg *l, const struct helper_proto *hp,
		      int a)
{
	char got[256], want[256];

	if (k->args_out)
		fprintf(k->args_out, "%s %s %d:", hp->variant, l->c.name,
			a + 1);
	for (int pr = 0; pr < HFX_PROBES; pr++) {
		run_probe(k, l, hp, a, pr);
		verdict(k->log, a, got, sizeof(got));
		hfx_predict(hp, a, pr, want, sizeof(want));
		if (k->args_out)
			fprintf(k->args_out, "%s%s", pr ? " | " : " ",
				hfx_abbrev(got));
		k->arg_checked++;
		if (strcmp(got, want)) {
			k->arg_failed++;
			MISMATCH(t, "%s in %s, R%d = %s: kernel \"%s\", "
				 "table \"%s\"", hp->variant, l->c.name,
				 a + 1, hfx_probe_names[pr], got, want);
		}
	}
	if (k->args_out)
		fprintf(k->args_out, "\n");
}

/* Probe every argument of every variant, each in one configuration. */
static void probe_args(struct test_ctx *t, struct kctx *k)
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
				probe_arg(t, k, &r->l, hp, a);
				if (!hfx_arg_constructible(hp, a))
					break;
			}
		}
	}
}

/* --- comparisons -------------------------------------------------------- */

static void compare_avail(struct test_ctx *t, struct kctx *k)
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
			MISMATCH(t, "%s (%s) helper %d: kernel %s, "
				  "table %s", r->l.c.name,
				  r->l.c.perfmon ? "full" : "noperfmon", id,
				  r->avail[id] ? "available" : "unavailable",
				  ours ? "available" : "unavailable");
		}
	}
	printf("# availability: %d/%d (config, helper) pairs agree\n",
	       agree, total);
}

static void compare_gpl(struct test_ctx *t, struct kctx *k)
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
			MISMATCH(t, "%s %s: kernel gpl_only=%d",
				  r->l.c.name, hp->variant, r->gpl[id]);
		}
	}
	printf("# gpl_only: %d/%d available (config, helper) pairs agree\n",
	       agree, total);
}

static void compare_names(struct test_ctx *t, struct kctx *k)
{
	for (int id = 0; id < HELPER_ID_MAX; id++)
		CHECK_STR(t, helper_name(id), k->names[id]);
	CHECK_STR(t, k->names[HELPER_ID_MAX], "unknown");
}

/* --- fixtures ----------------------------------------------------------- */

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

static int write_fixtures(struct kctx *k, const char *dir)
{
	FILE *av = open_fixture(dir, "avail.txt", "name prog_type attach "
				"prog_flags caps struct_ops_moff: helper ids "
				"the kernel offers");
	FILE *gpl = open_fixture(dir, "gpl.txt", "name: GPL-only helper ids "
				 "among the available ones (full caps)");
	FILE *nm = open_fixture(dir, "names.txt", "id name, from the "
				"verifier log");
	char buf[2048], cfg[160];

	if (!av || !gpl || !nm) {
		if (av)
			fclose(av);
		if (gpl)
			fclose(gpl);
		if (nm)
			fclose(nm);
		return -1;
	}
	for (size_t i = 0; i < k->nres; i++) {
		const struct kres *r = &k->res[i];

		if (!r->loaded)
			continue;
		hfx_format_config(&r->l.c, cfg, sizeof(cfg));
		hfx_format_ids(r->avail, buf, sizeof(buf));
		fprintf(av, "%s: %s\n", cfg, buf);
		if (!r->l.c.perfmon || !r->gpl_tested)
			continue;
		hfx_format_ids(r->gpl, buf, sizeof(buf));
		fprintf(gpl, "%s: %s\n", r->l.c.name, buf);
	}
	for (int id = 0; id < HFX_IDS; id++)
		fprintf(nm, "%d %s\n", id, k->names[id]);
	fclose(av);
	fclose(gpl);
	fclose(nm);
	return 0;
}

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
	k->log = malloc(LOG_SZ);
	k->array_fd = k->rodata_fd = -1;
	if (!k->log) {
		free(k);
		return NULL;
	}
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
	free(k->log);
	free(k);
}

static const char *update_dir;
static struct kctx *live;

static void test_helpers_live(struct test_ctx *t)
{
	struct kctx *k = live;
	char path[512];

	if (update_dir) {
		snprintf(path, sizeof(path), "%s/args.txt", update_dir);
		k->args_out = fopen(path, "w");
		CHECK(t, k->args_out != NULL);
		if (k->args_out)
			fprintf(k->args_out, "# variant config argno: what the "
				"log says about that register after the call, "
				"for the values 1 | 0 | -1 | unknown\n# (\"-\": "
				"accepted; codes: see hfx_abbrev; a bare list "
				"is \"type=scalar expected=<list>\")\n");
		CHECK(t, write_fixtures(k, update_dir) == 0);
	}
	compare_names(t, k);
	compare_avail(t, k);
	compare_gpl(t, k);
	probe_args(t, k);
	printf("# arguments: %d/%d probes agree\n",
	       k->arg_checked - k->arg_failed, k->arg_checked);
	if (k->args_out)
		fclose(k->args_out);
	k->args_out = NULL;
}

int main(int argc, char **argv)
{
	struct test_ctx t = { 0 };
	int rc;

	if (argc == 3 && !strcmp(argv[1], "--update"))
		update_dir = argv[2];
	live = kctx_new();
	if (!live)
		return 1;
	if (make_maps(live)) {
		printf("PASS test_helpers_live (skipped: cannot create BPF "
		       "maps: %s)\n", strerror(errno));
		kctx_free(live);
		return 0;
	}
	live->vmlinux = btf__load_vmlinux_btf();
	run_configs(live);
	if (!live->nres || !live->res[0].loaded) {
		printf("PASS test_helpers_live (skipped: the kernel does not "
		       "load socket filters here)\n");
		kctx_free(live);
		return 0;
	}
	RUN(&t, test_helpers_live);
	rc = test_finish(&t);
	kctx_free(live);
	return rc;
}
