/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_program__kernel_load(): programs of tests/progs/kernel_*.c loaded
 * into the running kernel. That is what it is for, so these cases stay in
 * the normal run, but each first checks what it needs of the kernel,
 * asking the kernel directly and never bpfvet: BPF at all (else the whole
 * binary skips), the map types and kfuncs a program uses, and the
 * messages the expectations quote, as a hand-written program makes the
 * kernel print them. When one does not hold, that part is not run and the
 * case ends as SKIP with the reason; another build of 6.18 may lack an
 * arena, a kfunc or word a message differently. The log parsing cases run
 * everywhere.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loader/core.h"
#include "kernel/kernel_load.h"
#include "live.h"
#include "loader_util.h"
#include "test.h"
#include "base/uapi.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define LD64(d, s, lo, hi) INSN(BPF_LD | BPF_IMM | BPF_DW, d, s, 0, lo), INSN(0, 0, 0, 0, hi)
#define MOV0(v) INSN(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, v)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)

/* Shared by the cases of this binary: reading vmlinux BTF once is the
 * point of struct bpfvet_kernel. */
static struct bpfvet_kernel *kern;

static int load(const struct bpfvet_program *p, const struct bpfvet_kernel_opts *in,
		struct bpfvet_kernel_result *res)
{
	struct bpfvet_kernel_opts o = { .sz = sizeof(o) };

	if (in)
		o = *in;
	o.kernel = kern;
	memset(res, 0, sizeof(*res));
	res->sz = sizeof(*res);
	return bpfvet_program__kernel_load(p, &o, res);
}

/* Loads NAME from build/progs/OBJ.o; returns the verdict or -1. */
static int load_named(struct test_ctx *t, const char *obj_name, const char *prog,
		      const struct bpfvet_kernel_opts *o, struct bpfvet_kernel_result *res)
{
	struct bpfvet_object *obj = lu_open(t, obj_name, NULL);
	struct bpfvet_program *p = obj ? lu_prog(t, obj, prog) : NULL;
	int rc = -1;

	if (p) {
		rc = load(p, o, res);
		CHECK_MSG(t, rc == 0, "%s/%s: kernel_load returned %d", obj_name, prog, rc);
		rc = rc ? -1 : (int)res->verdict;
	}
	bpfvet_object__close(obj);
	return rc;
}

static void expect_accepted(struct test_ctx *t, const char *obj, const char *prog)
{
	struct bpfvet_kernel_result res;
	int v = load_named(t, obj, prog, NULL, &res);

	CHECK_MSG(t, v == BPFVET_KERNEL_ACCEPTED, "%s/%s: verdict %d err %d: %s", obj, prog,
		  v, res.err, res.error);
	CHECK_MSG(t, res.have_stats && res.insns_processed > 0, "%s/%s: no statistics",
		  obj, prog);
	CHECK_INT(t, res.stage, BPFVET_STAGE_VERIFIER);
	CHECK_INT(t, res.err, 0);
}

static void expect_rejected(struct test_ctx *t, const char *obj, const char *prog,
			    int err, const char *msg_prefix)
{
	struct bpfvet_kernel_result res;
	int v = load_named(t, obj, prog, NULL, &res);

	CHECK_MSG(t, v == BPFVET_KERNEL_REJECTED, "%s/%s: verdict %d: %s", obj, prog, v,
		  res.error);
	CHECK_INT(t, res.stage, BPFVET_STAGE_VERIFIER);
	CHECK_INT(t, res.err, err);
	CHECK_MSG(t, !strncmp(res.error, msg_prefix, strlen(msg_prefix)),
		  "%s/%s: error '%s', want '%s...'", obj, prog, res.error, msg_prefix);
}

static void expect_refused(struct test_ctx *t, const char *obj, const char *prog,
			   enum bpfvet_kernel_stage stage, int err, const char *msg_part)
{
	struct bpfvet_kernel_result res;
	int v = load_named(t, obj, prog, NULL, &res);

	CHECK_MSG(t, v == BPFVET_KERNEL_REFUSED, "%s/%s: verdict %d: %s", obj, prog, v,
		  res.error);
	CHECK_INT(t, res.stage, stage);
	CHECK_INT(t, res.err, err);
	CHECK_MSG(t, strstr(res.error, msg_part), "%s/%s: error '%s' lacks '%s'", obj, prog,
		  res.error, msg_part);
	CHECK(t, !res.have_stats);
}

/* ------------------------------------------------------------------ */
/* Preconditions: the kernel, asked directly                           */
/* ------------------------------------------------------------------ */

/* Does a precondition of part of a case hold? When not, that part is not
 * run and the case ends as skipped, with the first reason. */
static bool need(struct test_ctx *t, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static bool need(struct test_ctx *t, bool ok, const char *fmt, ...)
{
	char why[256];
	va_list ap;

	if (ok || t->skip_why)
		return ok;
	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	test_skip(t, "%s", why);
	return false;
}

static const char *errno_name(int err)
{
	const char *name = strerrorname_np(err);

	return name ? name : strerror(err);
}

static bool kernel_creates(struct test_ctx *t, const char *what, uint32_t type, uint32_t key,
			   uint32_t value, uint32_t max, uint32_t flags, uint64_t extra,
			   uint32_t inner_type)
{
	int err = live_map_errno(type, key, value, max, flags, extra, inner_type);

	return need(t, !err, "this kernel refuses %s maps (%s)", what, errno_name(-err));
}

static bool kernel_has(struct test_ctx *t, const char *name, const char *kind)
{
	return need(t, live_btf_has(name, kind), "this kernel's BTF has no %s %s", kind, name);
}

/* Does the kernel print `want` for `insns` (the recorded message)? */
static bool kernel_prints(struct test_ctx *t, const struct bpfvet_insn *insns, size_t cnt,
			  uint32_t log_level, const char *want)
{
	char said[256];
	bool ok = live_prog_says(insns, cnt, log_level, want, said, sizeof(said));

	return need(t, ok, "this kernel does not print \"%s\" where the recorded one did "
		    "(it says \"%s\")", want, said);
}

/* r1 = 0; r0 = *(u64 *)(r1 +0): the message of a load through a scalar. */
static bool kernel_says_scalar_deref(struct test_ctx *t)
{
	const struct bpfvet_insn insns[] = {
		MOV0(0), INSN(BPF_ALU64 | BPF_MOV | BPF_K, 1, 0, 0, 0),
		INSN(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0), EXIT,
	};

	return kernel_prints(t, insns, 4, 1, "R1 invalid mem access 'scalar'");
}

/* ------------------------------------------------------------------ */
/* Cases that need the kernel                                          */
/* ------------------------------------------------------------------ */

/* Two logs of the same program, equal in their first n bytes except for
 * kernel addresses (each load gets new maps: "r1 = 0xffff8881...").  */
static bool same_log_prefix(const char *a, const char *b, size_t n)
{
	size_t i = 0, j = 0;

	while (i < n && j < n) {
		if (!strncmp(a + i, "0xffff", 6) && !strncmp(b + j, "0xffff", 6)) {
			for (i += 6; i < n && isxdigit((unsigned char)a[i]); i++)
				;
			for (j += 6; j < n && isxdigit((unsigned char)b[j]); j++)
				;
			continue;
		}
		if (a[i++] != b[j++])
			return false;
	}
	return i == n && j == n;
}

/* The maps of tests/progs/kernel_maps.c, as the kernel is asked for them:
 * every program of the object needs them all. */
static const struct map_shape {
	const char *what;
	uint32_t type, key, value, max, flags;
	uint64_t extra;
	uint32_t inner_type;
} kernel_maps_shapes[] = {
	{ "BPF_MAP_TYPE_HASH", BPF_MAP_TYPE_HASH, 4, 8, 64, 0, 0, 0 },
	{ "BPF_MAP_TYPE_ARRAY", BPF_MAP_TYPE_ARRAY, 4, 8, 4, 0, 0, 0 },
	{ "BPF_MAP_TYPE_PERCPU_ARRAY", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0, 0, 0 },
	{ "BPF_MAP_TYPE_LRU_HASH", BPF_MAP_TYPE_LRU_HASH, 8, 4, 32, 0, 0, 0 },
	{ "BPF_MAP_TYPE_LPM_TRIE", BPF_MAP_TYPE_LPM_TRIE, 8, 4, 16, BPF_F_NO_PREALLOC, 0, 0 },
	{ "BPF_MAP_TYPE_QUEUE", BPF_MAP_TYPE_QUEUE, 0, 8, 8, 0, 0, 0 },
	{ "BPF_MAP_TYPE_STACK", BPF_MAP_TYPE_STACK, 0, 8, 8, 0, 0, 0 },
	{ "BPF_MAP_TYPE_BLOOM_FILTER", BPF_MAP_TYPE_BLOOM_FILTER, 0, 8, 16, 0, 3, 0 },
	{ "BPF_MAP_TYPE_RINGBUF", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0, 0, 0 },
	{ "BPF_MAP_TYPE_PERF_EVENT_ARRAY", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 1, 0, 0, 0 },
	{ "BPF_MAP_TYPE_ARRAY_OF_MAPS", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 2, 0, 0,
	  BPF_MAP_TYPE_ARRAY },
	{ "BPF_MAP_TYPE_HASH_OF_MAPS", BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 4, 0, 0,
	  BPF_MAP_TYPE_ARRAY },
	{ "BPF_MAP_TYPE_DEVMAP", BPF_MAP_TYPE_DEVMAP, 4, 4, 4, 0, 0, 0 },
	{ "BPF_MAP_TYPE_CPUMAP", BPF_MAP_TYPE_CPUMAP, 4, 4, 2, 0, 0, 0 },
	{ "BPF_MAP_TYPE_PROG_ARRAY", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0, 0, 0 },
};

/* Does the kernel create every map of kernel_maps.c? */
static bool kernel_maps_ok(struct test_ctx *t)
{
	bool ok = true;

	for (size_t i = 0; i < sizeof(kernel_maps_shapes) / sizeof(kernel_maps_shapes[0]); i++) {
		const struct map_shape *m = &kernel_maps_shapes[i];

		ok &= kernel_creates(t, m->what, m->type, m->key, m->value, m->max, m->flags,
				     m->extra, m->inner_type);
	}
	return ok;
}

static void test_map_kinds(struct test_ctx *t)
{
	static const char *const progs[] = {
		"plain_maps", "event_maps", "map_in_map", "redirect_maps",
		"tail_caller", "tail_target",
	};
	bool ok = kernel_maps_ok(t);

	for (size_t i = 0; ok && i < sizeof(progs) / sizeof(progs[0]); i++)
		expect_accepted(t, "kernel_maps", progs[i]);
}

static void test_arena(struct test_ctx *t)
{
	if (kernel_creates(t, "BPF_MAP_TYPE_ARENA", BPF_MAP_TYPE_ARENA, 0, 0, 4, BPF_F_MMAPABLE,
			   0, 0) &&
	    kernel_has(t, "bpf_arena_alloc_pages", "func"))
		expect_accepted(t, "kernel_arena", "arena_use");
}

/* The verifier prunes a dead branch only when it knows the global:
 * frozen .rodata and .kconfig, not .data. */
static void test_global_data(struct test_ctx *t)
{
	expect_accepted(t, "kernel_data", "rodata_known");
	expect_accepted(t, "kernel_data", "bss_counter");
	expect_accepted(t, "kernel_data", "kconfig_known");
	if (kernel_says_scalar_deref(t))
		expect_rejected(t, "kernel_data", "data_unknown", -EACCES,
				"R1 invalid mem access 'scalar'");
}

static void test_externs(struct test_ctx *t)
{
	/* libbpf's poisoned call: 2002000000 + the extern's index (the
	 * fifth extern by name). */
	const struct bpfvet_insn poisoned[] = {
		INSN(BPF_JMP | BPF_CALL, 0, 0, 0, 2002000004), MOV0(0), EXIT,
	};
	bool kfuncs = kernel_has(t, "bpf_rcu_read_lock", "func") &&
		      kernel_has(t, "bpf_rcu_read_unlock", "func");

	if (kfuncs)
		expect_accepted(t, "kernel_externs", "kfunc_call");
	expect_accepted(t, "kernel_externs", "weak_kfunc_guarded");
	if (need(t, live_kallsyms_has("__start_BTF"), "/proc/kallsyms has no __start_BTF"))
		expect_accepted(t, "kernel_externs", "typeless_ksym");
	if (kernel_prints(t, poisoned, 3, 1, "invalid func unknown#2002000004"))
		expect_rejected(t, "kernel_externs", "weak_kfunc_called", -EINVAL,
				"invalid func unknown#2002000004");
	/* The prototype is compared with the kernel's bpf_rcu_read_lock. */
	if (kfuncs)
		expect_refused(t, "kernel_externs", "kfunc_bad_proto", BPFVET_STAGE_SETUP,
			       -EINVAL, "func_proto");
}

static void test_attach_and_core(struct test_ctx *t)
{
	struct bpfvet_kernel_result res;
	int v;

	if (kernel_has(t, "btf_trace_sched_switch", "typedef"))
		expect_accepted(t, "kernel_multi", "on_switch");	/* tp_btf */
	expect_accepted(t, "kernel_multi", "core_read");		/* CO-RE */
	if (kernel_has(t, "tcp_congestion_ops", "struct"))
		expect_accepted(t, "kernel_multi", "ca_init");		/* struct_ops */
	expect_refused(t, "kernel_multi", "replacement", BPFVET_STAGE_SETUP, -EINVAL,
		       "freplace needs a target program");
	expect_refused(t, "kernel_multi", "no_type", BPFVET_STAGE_SETUP, -EINVAL,
		       "missing BPF prog type");
	/* fentry: kernels without trampolines refuse it before verifying;
	 * it is never a rejection. */
	v = load_named(t, "kernel_multi", "on_entry", NULL, &res);
	CHECK_MSG(t, v == BPFVET_KERNEL_ACCEPTED || v == BPFVET_KERNEL_REFUSED,
		  "on_entry: verdict %d: %s", v, res.error);
	if (v == BPFVET_KERNEL_REFUSED)
		CHECK_INT(t, res.stage, BPFVET_STAGE_KERNEL);
}

static void test_raw_fd(struct test_ctx *t)
{
	const struct bpfvet_insn fd0[] = { LD64(1, BPF_PSEUDO_MAP_FD, 0, 0), MOV0(0), EXIT };

	/* A hand-written BPF_PSEUDO_MAP_FD with imm 0 is fd 0, not map 0. */
	if (kernel_prints(t, fd0, 4, 1, "fd 0 is not pointing to valid bpf_map"))
		expect_rejected(t, "kernel_rawfd", "raw_fd", -EINVAL,
				"fd 0 is not pointing to valid bpf_map");
}

struct logcap {
	char *text;
	size_t len;
	int calls;
};

static void capture(void *ctx, const char *text, size_t len)
{
	struct logcap *c = ctx;
	char *n = realloc(c->text, c->len + len + 1);

	c->calls++;
	if (!n)
		return;
	memcpy(n + c->len, text, len);
	c->len += len;
	n[c->len] = '\0';
	c->text = n;
}

static void test_log_levels(struct test_ctx *t)
{
	struct logcap c1 = { 0 }, c2 = { 0 }, small = { 0 };
	struct bpfvet_kernel_opts o1 = { .sz = sizeof(o1), .log_level = 1, .log_fn = capture,
					 .log_ctx = &c1 };
	struct bpfvet_kernel_opts o2 = { .sz = sizeof(o2), .log_level = 2, .log_fn = capture,
					 .log_ctx = &c2 };
	/* Too small for a level-2 log: the kernel says ENOSPC, we retry. */
	struct bpfvet_kernel_opts os = { .sz = sizeof(os), .log_level = 2, .log_fn = capture,
					 .log_ctx = &small, .log_size = 200 };
	const struct bpfvet_insn ret0[] = { MOV0(0), EXIT };
	struct bpfvet_kernel_result r1, r2, rs;

	/* The messages and the level-2 state line the checks quote, and the
	 * maps of plain_maps. */
	if (!kernel_says_scalar_deref(t) ||
	    !kernel_prints(t, ret0, 2, 2, "0: R1=ctx() R10=fp0") || !kernel_maps_ok(t))
		return;
	CHECK_INT(t, load_named(t, "kernel_data", "data_unknown", &o1, &r1),
		  BPFVET_KERNEL_REJECTED);
	CHECK_INT(t, load_named(t, "kernel_maps", "plain_maps", &o2, &r2),
		  BPFVET_KERNEL_ACCEPTED);
	CHECK_INT(t, load_named(t, "kernel_maps", "plain_maps", &os, &rs),
		  BPFVET_KERNEL_ACCEPTED);
	CHECK(t, c1.text && strstr(c1.text, "R1 invalid mem access 'scalar'\n"));
	CHECK(t, c2.text && strstr(c2.text, "processed ") && strstr(c2.text, "frame1:") == NULL);
	CHECK(t, c2.text && strstr(c2.text, "0: R1=ctx() R10=fp0"));
	CHECK_INT(t, c1.calls, 1);
	CHECK_INT(t, rs.insns_processed, r2.insns_processed);
	/* The same log, up to the time (its digits vary from run to run). */
	{
		const char *ts = small.text ? strstr(small.text, "verification time") : NULL;
		const char *t2 = c2.text ? strstr(c2.text, "verification time") : NULL;

		CHECK(t, ts && t2 && ts - small.text == t2 - c2.text &&
			 same_log_prefix(small.text, c2.text, (size_t)(ts - small.text)));
	}
	/* Statistics come from the log's last lines (level 4 is always on):
	 * the time is the kernel's, whatever it measured. */
	{
		const char *vt = c2.text ? strstr(c2.text, "verification time ") : NULL;
		unsigned long long usec = 0;

		CHECK(t, vt && sscanf(vt, "verification time %llu usec", &usec) == 1);
		CHECK_INT(t, r2.duration_ns, usec * 1000);
	}
	CHECK(t, r2.subprog_cnt >= 1);
	free(c1.text);
	free(c2.text);
	free(small.text);
}

static void test_prog_flags(struct test_ctx *t)
{
	struct bpfvet_kernel_opts sel = { .sz = sizeof(sel),
					  .prog_flags = BPF_F_TEST_RND_HI32 | BPF_F_TEST_REG_INVARIANTS };
	struct bpfvet_kernel_opts bad = { .sz = sizeof(bad), .prog_flags = 1u << 30 };
	struct bpfvet_kernel_result res;
	int sel_err = live_prog_flags_errno(sel.prog_flags);
	int bad_err = live_prog_flags_errno(bad.prog_flags);

	if (!need(t, !sel_err, "this kernel refuses prog_flags 0x%x (%s)", sel.prog_flags,
		  errno_name(-sel_err)) ||
	    !need(t, bad_err == -EINVAL, "this kernel answers prog_flags 0x%x with %s, "
		  "not EINVAL", bad.prog_flags, bad_err ? errno_name(-bad_err) : "success") ||
	    !kernel_maps_ok(t))
		return;
	CHECK_INT(t, load_named(t, "kernel_maps", "plain_maps", &sel, &res),
		  BPFVET_KERNEL_ACCEPTED);
	/* An unknown flag: the kernel refuses before verifying, with no log. */
	CHECK_INT(t, load_named(t, "kernel_maps", "plain_maps", &bad, &res),
		  BPFVET_KERNEL_REFUSED);
	CHECK_INT(t, res.stage, BPFVET_STAGE_KERNEL);
	CHECK_INT(t, res.err, -EINVAL);
}

static int unpriv_bpf_disabled(void)
{
	FILE *f = fopen("/proc/sys/kernel/unprivileged_bpf_disabled", "re");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

static void test_drop_caps(struct test_ctx *t)
{
	struct bpfvet_kernel_opts o = {
		.sz = sizeof(o),
		.drop_caps = BPFVET_CAP_BPF | BPFVET_CAP_PERFMON | BPFVET_CAP_NET_ADMIN |
			     BPFVET_CAP_SYS_ADMIN,
	};
	struct bpfvet_kernel_result res;
	int v = load_named(t, "kernel_data", "rodata_known", &o, &res);

	if (unpriv_bpf_disabled() > 0) {
		CHECK_INT(t, v, BPFVET_KERNEL_REFUSED);
		CHECK_INT(t, res.err, -EPERM);
	} else {
		CHECK(t, v == BPFVET_KERNEL_ACCEPTED || v == BPFVET_KERNEL_REFUSED);
	}
	/* The capabilities came back. */
	expect_accepted(t, "kernel_data", "rodata_known");
}

static void test_raw_programs(struct test_ctx *t)
{
	static const struct bpfvet_map_desc maps[] = {
		{ .sz = sizeof(struct bpfvet_map_desc), .name = "vals",
		  .type = BPF_MAP_TYPE_ARRAY, .key_size = 4, .value_size = 8,
		  .max_entries = 1, .inner_map_idx = -1 },
	};
	struct bpfvet_insn good[] = { LD64(1, BPF_PSEUDO_MAP_VALUE, 0, 0),
				      INSN(BPF_LDX | BPF_MEM | BPF_DW, 0, 1, 0, 0), EXIT };
	struct bpfvet_insn bad[] = { LD64(1, BPF_PSEUDO_MAP_FD, 3, 0), MOV0(0), EXIT };
	struct bpfvet_raw_opts ro = {
		.sz = sizeof(ro), .name = "raw", .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
		.insns = good, .insn_cnt = 4, .maps = maps, .map_cnt = 1,
	};
	struct bpfvet_kernel_result res;
	struct bpfvet_program *p = NULL;

	CHECK_INT(t, bpfvet_program__from_insns(&ro, &p), 0);
	if (p) {
		CHECK_INT(t, load(p, NULL, &res), 0);
		CHECK_MSG(t, res.verdict == BPFVET_KERNEL_ACCEPTED, "raw: %s", res.error);
		CHECK_INT(t, res.insns_processed, 3);
		bpfvet_program__free(p);
		p = NULL;
	}
	/* Map index 3 of a 1-map table: a clear refusal, no load. */
	ro.insns = bad;
	CHECK(t, bpfvet_program__from_insns(&ro, &p) != 0 || p);
	if (p) {
		CHECK_INT(t, load(p, NULL, &res), 0);
		CHECK_INT(t, res.verdict, BPFVET_KERNEL_REFUSED);
		CHECK_INT(t, res.stage, BPFVET_STAGE_SETUP);
		CHECK(t, strstr(res.error, "map") != NULL);
		bpfvet_program__free(p);
	}
}

/* ------------------------------------------------------------------ */
/* Cases that run everywhere                                           */
/* ------------------------------------------------------------------ */

static void test_bad_arguments(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "kernel_data", NULL);
	struct bpfvet_program *p = obj ? lu_prog(t, obj, "rodata_known") : NULL;
	struct bpfvet_kernel_result res = { .sz = sizeof(res) };
	struct {
		struct bpfvet_kernel_opts o;
		uint64_t future;
	} newer = { .o = { .sz = sizeof(newer) }, .future = 1 };

	CHECK_INT(t, bpfvet_program__kernel_load(NULL, NULL, &res), -EINVAL);
	CHECK_INT(t, bpfvet_program__kernel_load(p, NULL, NULL), -EINVAL);
	/* A newer caller's option we do not know, set: refused. */
	CHECK_INT(t, bpfvet_program__kernel_load(p, &newer.o, &res), -EINVAL);
	res.sz = 4;
	CHECK_INT(t, bpfvet_program__kernel_load(p, NULL, &res), -EINVAL);
	CHECK_INT(t, bpfvet_kernel__new(NULL), -EINVAL);
	bpfvet_kernel__free(NULL);
	bpfvet_object__close(obj);
}

static void test_log_parsing(struct test_ctx *t)
{
	struct bpfvet_kernel_result res = { .sz = sizeof(res) };
	char line[128];
	const char *ok =
		"CO-RE relocating STRUCT task_struct: found target candidate [140]\n"
		"0: R1=ctx() R10=fp0\n"
		"verification time 17 usec\n"
		"stack depth 8+0+16\n"
		"processed 9 insns (limit 1000000) max_states_per_insn 2 total_states 5 "
		"peak_states 4 mark_read 0\n";
	const char *glued =
		"insn 3 cannot call exception cb directlyverification time 56 usec\n"
		"stack depth 0\n"
		"processed 0 insns (limit 1000000) max_states_per_insn 0 total_states 0 "
		"peak_states 0 mark_read 0\n";
	/* Level 4: the source line of the failing instruction follows its
	 * message. */
	const char *source_last =
		"invalid bpf_context access off=72 size=4\n"
		"; asm volatile (\"					\\ @ verifier_lwt.c:179\n"
		"verification time 380 usec\n"
		"processed 1 insns (limit 1000000) max_states_per_insn 0 total_states 0 "
		"peak_states 0 mark_read 0\n";
	const char *loop_612 =
		"2: (05) goto pc-2\n"
		"infinite loop detected at insn 2\n"
		"cur state: R0_w=1 R1=ctx() R10=fp0\n"
		"old state: R0_w=1 R1=ctx() R10=fp0\n"
		"processed 4 insns (limit 1000000) max_states_per_insn 0 total_states 1 "
		"peak_states 1 mark_read 1\n";
	const char *core_only =
		"CO-RE relocating STRUCT task_struct: found target candidate [140]\n"
		"prog '': relo #0: <byte_off> [5] struct task_struct.pid (0:1 @ offset 4)\n";
	const char *core_fail =
		"prog '': relo #3: insn #7 (LDX/ST/STX) value too big: 70000\n"
		"processed 0 insns (limit 1000000) max_states_per_insn 0 total_states 0 "
		"peak_states 0 mark_read 0\n";

	CHECK(t, kstats_parse(ok, &res));
	CHECK_INT(t, res.insns_processed, 9);
	CHECK_INT(t, res.max_states_per_insn, 2);
	CHECK_INT(t, res.total_states, 5);
	CHECK_INT(t, res.peak_states, 4);
	CHECK_INT(t, res.duration_ns, 17000);
	CHECK_INT(t, res.subprog_cnt, 3);
	CHECK_INT(t, res.stack_depth[2], 16);
	CHECK(t, kstats_error_line(ok, line, sizeof(line)));
	CHECK_STR(t, line, "0: R1=ctx() R10=fp0");
	CHECK(t, kstats_verifier_ran(ok));
	/* A message without its newline: the statistic glued to it is cut. */
	CHECK(t, kstats_error_line(glued, line, sizeof(line)));
	CHECK_STR(t, line, "insn 3 cannot call exception cb directly");
	memset(&res, 0, sizeof(res));
	CHECK(t, kstats_parse(glued, &res));
	CHECK_INT(t, res.duration_ns, 56000);
	CHECK(t, kstats_error_line(source_last, line, sizeof(line)));
	CHECK_STR(t, line, "invalid bpf_context access off=72 size=4");
	/* 6.12's states after a loop are no message (verifier_cfg on Debian's
	 * 6.12.118, tests/conformance/kernel-6.12-logs.txt.xz). */
	CHECK(t, kstats_error_line(loop_612, line, sizeof(line)));
	CHECK_STR(t, line, "infinite loop detected at insn 2");
	/* CO-RE notes alone are no verifier output, and no complaint. */
	CHECK(t, !kstats_verifier_ran(core_only));
	CHECK(t, !kstats_error_line(core_only, line, sizeof(line)));
	CHECK(t, !kstats_core_error(core_only, line, sizeof(line)));
	CHECK(t, kstats_core_error(core_fail, line, sizeof(line)));
	CHECK(t, strstr(line, "value too big") != NULL);
	CHECK(t, !kstats_parse("", &res));
	CHECK(t, !kstats_verifier_ran(""));
	CHECK_INT(t, core_essential_len("task_struct___old"), 11);
	CHECK_INT(t, core_essential_len("a___b___c"), 5);	/* the last separator */
	CHECK_INT(t, core_essential_len("____x"), 5);
	CHECK_INT(t, core_essential_len("bpf_rcu_read_lock"), 17);
}

int main(void)
{
	struct test_ctx t = { 0 };
	char why[300];

	lu_quiet_libbpf();
	if (bpfvet_kernel__new(&kern)) {
		printf("FAIL test_kernel_load: out of memory\n");
		return 1;
	}
	RUN(&t, test_bad_arguments);
	RUN(&t, test_log_parsing);
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named("test_kernel_load", "%s", why);
	} else {
		RUN(&t, test_map_kinds);
		RUN(&t, test_arena);
		RUN(&t, test_global_data);
		RUN(&t, test_externs);
		RUN(&t, test_attach_and_core);
		RUN(&t, test_raw_fd);
		RUN(&t, test_log_levels);
		RUN(&t, test_prog_flags);
		RUN(&t, test_drop_caps);
		RUN(&t, test_raw_programs);
	}
	bpfvet_kernel__free(kern);
	live_free();
	return test_finish(&t);
}
