/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * conformance-runner: measures bpfvet's verdicts against Linux on the
 * annotated selftests (the verifier_*.bpf.o objects of build/corpus/verifier).
 *
 * For every program it applies the rules of the kernel's selftest loader
 * (tools/testing/selftests/bpf/test_loader.c and prog_tests/verifier.c of
 * Linux 6.12, the corpus' version): modes, default and __flag load flags,
 * log level, capabilities, auxiliary programs, architecture, message
 * patterns. It runs bpfvet with those options and compares with the kernel:
 * the running kernel when this process may load programs, else a recorded
 * verdict file. The annotation is reported as a second opinion.
 *
 * Output: one table row per test, then the summary, ending with
 * "unprivileged runs: N passed, N failed" and, last, the privileged
 * runs' "N passed, N failed" (the floor's count), where passed means
 * bpfvet's verdict equals the kernel's. --markdown writes docs/conformance.md, --record the kernel's
 * verdicts for later runs without privileges.
 */
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "annotations.h"
#include "cli.h"
#include "runner.h"

/* The kernel's log buffer in the selftest loader (2 MiB); bpfvet's log is
 * held to the same size so that overflow behaves alike. */
#define LOG_CAP (2u << 20)

/* Recorded first: the default is the record, never today's kernel. */
enum ref_mode { REF_RECORDED, REF_LIVE, REF_AUTO };

struct options {
	const char **inputs;
	size_t input_cnt;
	enum ref_mode ref;
	const char *recorded_path;
	const char *record_path;
	const char *markdown_path;
	const char *btf_path;	/* bpfvet's CO-RE target, --btf */
	struct bpfvet_target *target;	/* read once from btf_path */
	/* --target: the kernel bpfvet plays (its version's rules, config,
	 * syscall wrapper), as `bpfvet --target` reads it (tools/profile.c) */
	struct target_profile *profile;
	uint32_t kernel_version;	/* 0: the newest rules */
	const char *glob;
	bool quiet;
	bool verbose;
	bool caps_override;
	uint64_t caps_off_priv;	/* --priv-caps-off */
	unsigned int time_limit;	/* --time-limit, live loads */
};

struct runner {
	struct options opt;
	struct live_ctx *live;
	struct recorded *rec;
	char *reference;
	char *reference_note;
	char unpriv_note[160];
	int unpriv_disabled;	/* the sysctl during the run, live mode only */
	struct bpfvet_unpriv_bpf *unpriv_guard;	/* lowered 2 to 0: restore */
	struct row *rows;
	size_t row_cnt, row_cap;
	size_t programs, aux_programs, bad_specs, objects;
	uint64_t bv_ns, kernel_ns;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* ------------------------------------------------------------------ */
/* A bounded log sink                                                  */
/* ------------------------------------------------------------------ */

/* Keeps the last LOG_CAP - 1 bytes, as the kernel's rotating buffer does. */
struct logbuf {
	char *buf;
	size_t len, cap;
	size_t total;		/* bytes ever written */
	bool oom;
};

static void logbuf_write(void *ctx, const char *text, size_t n)
{
	struct logbuf *lb = ctx;
	size_t keep = LOG_CAP - 1;

	lb->total += n;
	if (n >= keep) {
		text += n - keep;
		n = keep;
		lb->len = 0;
	}
	if (lb->len + n > keep) {
		size_t drop = lb->len + n - keep;

		memmove(lb->buf, lb->buf + drop, lb->len - drop);
		lb->len -= drop;
	}
	if (lb->len + n + 1 > lb->cap) {
		size_t cap = lb->cap ? lb->cap : 4096;
		char *nb;

		while (cap < lb->len + n + 1)
			cap *= 2;
		nb = realloc(lb->buf, cap);
		if (!nb) {
			lb->oom = true;
			return;
		}
		lb->buf = nb;
		lb->cap = cap;
	}
	memcpy(lb->buf + lb->len, text, n);
	lb->len += n;
	lb->buf[lb->len] = 0;
}

static const char *logbuf_str(const struct logbuf *lb)
{
	return lb->buf ? lb->buf : "";
}

static void logbuf_reset(struct logbuf *lb)
{
	lb->len = lb->total = 0;
	if (lb->buf)
		lb->buf[0] = 0;
}

/* ------------------------------------------------------------------ */
/* Objects and their specs                                             */
/* ------------------------------------------------------------------ */

struct obj_ctx {
	const struct options *opt;
	const char *path;
	const char *base;
	struct btf *btf;
	struct bpfvet_object *obj;
	struct bpfvet_target *target;	/* bpfvet's CO-RE target, shared */
	size_t prog_cnt;
	struct conf_spec *specs;
	char **spec_err;	/* NULL when the spec parsed */
	uint64_t caps_off;	/* the object's capability rule */
	uint64_t caps_on;
};

#define ALL_FOUR (KCAP(CONF_CAP_SYS_ADMIN) | KCAP(CONF_CAP_NET_ADMIN) | \
		  KCAP(CONF_CAP_PERFMON) | KCAP(CONF_CAP_BPF))

/*
 * Capabilities of the privileged run, per object, as the selftests set
 * them: prog_tests/verifier.c drops CAP_SYS_ADMIN for every verifier_*
 * object; verifier_mtu runs with CAP_BPF and CAP_NET_ADMIN but without
 * CAP_SYS_ADMIN and CAP_PERFMON; verifier_kfunc_prog_types has its own
 * prog_tests file that keeps every capability.
 */
static void object_caps(const struct options *o, struct obj_ctx *oc)
{
	if (o->caps_override) {
		oc->caps_off = o->caps_off_priv;
		oc->caps_on = 0;
	} else if (!strcmp(oc->base, "verifier_mtu.bpf.o")) {
		oc->caps_off = KCAP(CONF_CAP_SYS_ADMIN) | KCAP(CONF_CAP_PERFMON);
		oc->caps_on = KCAP(CONF_CAP_BPF) | KCAP(CONF_CAP_NET_ADMIN);
	} else if (!strcmp(oc->base, "verifier_kfunc_prog_types.bpf.o")) {
		oc->caps_off = oc->caps_on = 0;
	} else {
		oc->caps_off = KCAP(CONF_CAP_SYS_ADMIN);
		oc->caps_on = 0;
	}
}

/* The effective set of a run, relative to a process that has all four. */
static void run_caps(const struct obj_ctx *oc, const struct conf_spec *sp, int mode,
		     uint64_t *off, uint64_t *on)
{
	*off = oc->caps_off;
	*on = oc->caps_on & ~oc->caps_off;
	if (mode == CONF_UNPRIV) {
		*off |= ALL_FOUR;
		*on = (*on & ~ALL_FOUR) | sp->caps_unpriv;
		*off &= ~sp->caps_unpriv;
	}
}

static uint32_t bpfvet_drop_caps(uint64_t off, uint64_t on)
{
	uint64_t eff = ~off | on;
	uint32_t drop = 0;

	if (!(eff & KCAP(CONF_CAP_NET_ADMIN)))
		drop |= BPFVET_CAP_NET_ADMIN;
	if (!(eff & KCAP(CONF_CAP_SYS_ADMIN)))
		drop |= BPFVET_CAP_SYS_ADMIN;
	if (!(eff & KCAP(CONF_CAP_PERFMON)))
		drop |= BPFVET_CAP_PERFMON;
	if (!(eff & KCAP(CONF_CAP_BPF)))
		drop |= BPFVET_CAP_BPF;
	return drop;
}

static void obj_close(struct obj_ctx *oc)
{
	for (size_t i = 0; i < oc->prog_cnt && oc->specs; i++) {
		conf_spec_free(&oc->specs[i]);
		free(oc->spec_err[i]);
	}
	free(oc->specs);
	free(oc->spec_err);
	bpfvet_object__close(oc->obj);
	btf__free(oc->btf);
}

/* What a target profile says of its kernel besides its BTF. */
static void open_target_facts(const struct options *o, struct bpfvet_open_opts *oo)
{
	const struct target_profile *p = o->profile;

	oo->kernel_version = o->kernel_version;
	if (!p)
		return;
	oo->kconfig_path = p->config;
	oo->kallsyms_path = p->kallsyms;
	oo->no_syscall_wrapper = p->syscall_wrapper == 0;
}

static int obj_open(const struct options *o, const char *path, struct obj_ctx *oc)
{
	char errbuf[256] = "";
	/* bpfvet relocates CO-RE against the target's BTF: the recorded
	 * target by default, never silently the running kernel's. */
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .errbuf = errbuf, .errbuf_sz = sizeof(errbuf),
		.target = o->target,
	};
	const char *slash = strrchr(path, '/');
	int err;

	memset(oc, 0, sizeof(*oc));
	oc->opt = o;
	open_target_facts(o, &oo);
	oc->path = path;
	oc->base = slash ? slash + 1 : path;
	oc->target = o->target;
	object_caps(o, oc);
	oc->btf = btf__parse(path, NULL);
	if (!oc->btf) {
		fprintf(stderr, "conformance-runner: %s: no BTF: %s\n", path, strerror(errno));
		return -errno;
	}
	err = bpfvet_object__open(path, &oo, &oc->obj);
	if (err) {
		fprintf(stderr, "conformance-runner: %s: bpfvet cannot open it: %s\n", path,
			errbuf[0] ? errbuf : strerror(-err));
		oc->obj = NULL;
		return err;
	}
	oc->prog_cnt = bpfvet_object__prog_cnt(oc->obj);
	oc->specs = calloc(oc->prog_cnt ? oc->prog_cnt : 1, sizeof(*oc->specs));
	oc->spec_err = calloc(oc->prog_cnt ? oc->prog_cnt : 1, sizeof(*oc->spec_err));
	if (!oc->specs || !oc->spec_err)
		return -ENOMEM;
	for (size_t i = 0; i < oc->prog_cnt; i++) {
		const char *name = bpfvet_program__name(bpfvet_object__prog(oc->obj, i));
		char why[256];

		err = conf_spec_parse(oc->btf, name, CONF_DEFAULT_FLAGS, CONF_ARCH_X86_64,
				      &oc->specs[i], why, sizeof(why));
		if (err == -ENOMEM)
			return err;
		if (err && !(oc->spec_err[i] = strdup(why)))
			return -ENOMEM;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* bpfvet's run                                                        */
/* ------------------------------------------------------------------ */

static bool aux_loaded(const struct obj_ctx *oc, size_t i, int mode)
{
	return !oc->spec_err[i] && oc->specs[i].auxiliary && (oc->specs[i].mode_mask & mode);
}

static int verify_one(const struct bpfvet_program *p, uint32_t level, uint32_t flags,
		      uint32_t drop, struct logbuf *lb, struct bpfvet_result *res)
{
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo), .log_level = level, .log_fn = lb ? logbuf_write : NULL,
		.log_ctx = lb, .prog_flags = flags, .drop_caps = drop,
	};

	memset(res, 0, sizeof(*res));
	res->sz = sizeof(*res);
	if (lb)
		logbuf_reset(lb);
	return bpfvet_program__verify(p, &vo, res);
}

static enum bv_verdict bv_of(const struct bpfvet_result *res)
{
	switch (res->verdict) {
	case BPFVET_ACCEPTED: return BV_SUCCESS;
	case BPFVET_REJECTED: return BV_FAILURE;
	default: return res->err == -ENOEXEC ? BV_REFUSED : BV_UNSUPPORTED;
	}
}

/* Auxiliary programs before the test in ELF order are loaded first, as
 * libbpf does; the first failure ends the load. A rejected test is verified
 * again at log level 1, as libbpf reloads it, but only when its log is
 * needed for __msg: the message itself is known at level 0 already, and
 * level 1 of a program that runs into the 1M-instruction limit is slow. */
static char *resolve_btf_path(const char *obj_path, const char *btf_path);

/* A test with __btf_path is relocated against that BTF, as libbpf does
 * with btf_custom_path, and a test whose loader lacks CAP_BPF or
 * CAP_PERFMON gets the object as libbpf then loads it (no BTF in the
 * kernel, hardened maps: the live loader holds the test's capabilities
 * around the whole load): either gets its own copy of the object. */
static int open_for_run(const struct obj_ctx *oc, const char *btf_path, uint32_t loader_drop,
			struct bpfvet_object **objp)
{
	char *btf = btf_path ? resolve_btf_path(oc->path, btf_path) : NULL;
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .btf_custom_path = btf, .target = btf ? NULL : oc->target,
		.loader_drop_caps = loader_drop,
	};
	int err;

	if (btf_path && !btf)
		return -ENOMEM;
	open_target_facts(oc->opt, &oo);
	err = bpfvet_object__open(oc->path, &oo, objp);
	free(btf);
	if (!err && bpfvet_object__prog_cnt(*objp) != oc->prog_cnt) {
		bpfvet_object__close(*objp);
		*objp = NULL;
		err = -EINVAL;
	}
	return err;
}

static int run_bpfvet(const struct obj_ctx *oc, size_t ti, struct row *r, uint32_t drop,
		      bool want_log, struct logbuf *lb)
{
	const struct conf_spec *sp = &oc->specs[ti];
	struct bpfvet_object *own = NULL, *obj = oc->obj;
	uint32_t loader_drop = drop & (BPFVET_CAP_BPF | BPFVET_CAP_PERFMON);
	struct bpfvet_result res;
	uint64_t t0 = now_ns();
	int err = 0;

	r->bv = BV_SUCCESS;
	logbuf_reset(lb);
	if (sp->btf_path || loader_drop) {
		err = open_for_run(oc, sp->btf_path, loader_drop, &own);
		obj = own;
	}
	for (size_t i = 0; !err && i < oc->prog_cnt && r->bv == BV_SUCCESS; i++) {
		const struct bpfvet_program *p = bpfvet_object__prog(obj, i);
		bool test = i == ti;

		if (!test && !aux_loaded(oc, i, r->mode))
			continue;
		err = test ? verify_one(p, sp->log_level, sp->prog_flags, drop, lb, &res) :
			     verify_one(p, 0, 0, drop, NULL, &res);
		if (err)
			break;
		r->bv = bv_of(&res);
		r->bv_insns += res.insns_processed;
		if (test)
			r->bv_test_insns = (long long)res.insns_processed;
		if (r->bv == BV_SUCCESS)
			continue;
		r->bv_error = strdup(res.error);
		if (!test)
			r->bv_aux = strdup(bpfvet_program__name(p));
		else if (!sp->log_level && want_log)	/* libbpf's reload at level 1 */
			err = verify_one(p, 1, sp->prog_flags, drop, lb, &res);
	}
	if (!err && r->bv == BV_SUCCESS && sp->log_level && lb->total >= LOG_CAP) {
		/* The kernel turns a log overflow into ENOSPC. */
		r->bv = BV_FAILURE;
		r->bv_error = strdup("log buffer overflow (ENOSPC)");
	}
	r->bv_ns = now_ns() - t0;
	if (err || lb->oom) {
		r->bv = BV_ERROR;
		free(r->bv_error);
		r->bv_error = xasprintf("bpfvet could not verify: %s",
					strerror(err ? -err : ENOMEM));
	}
	bpfvet_object__close(own);
	return r->bv_error || r->bv == BV_SUCCESS ? 0 : -ENOMEM;
}

static int check_bpfvet_msgs(const struct conf_subspec *sub, const struct logbuf *lb,
			     struct row *r)
{
	size_t idx = 0;
	enum conf_msg_status st;

	r->bv_msg_match = -1;
	if (!sub->msgs.cnt || r->bv == BV_ERROR)
		return 0;
	st = conf_msgs_check(&sub->msgs, logbuf_str(lb), &idx);
	r->bv_msg_match = st == CONF_MSG_OK;
	if (st == CONF_MSG_OK)
		return 0;
	r->bv_msg_detail = xasprintf("%s '%s'", st == CONF_MSG_MISSING ? "missing" : "unexpected",
				     sub->msgs.v[idx].text);
	return r->bv_msg_detail ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* The kernel's side                                                   */
/* ------------------------------------------------------------------ */

/* __btf_path names a file of the selftests directory: look next to the
 * object and in the corpus' progs/. */
static char *resolve_btf_path(const char *obj_path, const char *btf_path)
{
	const char *slash = strrchr(obj_path, '/');
	int dir_len = slash ? (int)(slash - obj_path) : 1;
	const char *dir = slash ? obj_path : ".";
	char *cand;

	if (btf_path[0] == '/')
		return strdup(btf_path);
	cand = xasprintf("%.*s/%s", dir_len, dir, btf_path);
	if (cand && !access(cand, R_OK))
		return cand;
	free(cand);
	cand = xasprintf("%.*s/../progs/%s", dir_len, dir, btf_path);
	if (cand && !access(cand, R_OK))
		return cand;
	free(cand);
	return strdup(btf_path);
}

static int run_live(struct runner *rn, const struct obj_ctx *oc, size_t ti, struct row *r,
		    uint64_t off, uint64_t on)
{
	const struct conf_spec *sp = &oc->specs[ti];
	const char **aux = calloc(oc->prog_cnt, sizeof(*aux));
	struct live_test t = {
		.path = oc->path, .prog = r->prog, .unpriv = r->mode == CONF_UNPRIV,
		.log_level = sp->log_level, .prog_flags = sp->prog_flags,
		.flags_named = sp->flags_named, .caps_off = off, .caps_on = on, .aux = aux,
	};
	char *btf = NULL;
	uint64_t t0 = now_ns();
	int err;

	if (!aux)
		return -ENOMEM;
	for (size_t i = 0; i < oc->prog_cnt; i++)
		if (aux_loaded(oc, i, r->mode))
			aux[t.aux_cnt++] = oc->specs[i].prog_name;
	if (sp->btf_path) {
		btf = resolve_btf_path(oc->path, sp->btf_path);
		t.btf_custom_path = btf;
	}
	err = live_run(rn->live, &t, &r->kernel);
	rn->kernel_ns += now_ns() - t0;
	free(btf);
	free(aux);
	return err;
}

static void check_kernel_msgs(const struct conf_subspec *sub, struct row *r)
{
	size_t idx;

	if (!r->kernel.log || !sub->msgs.cnt ||
	    (r->kernel.verdict != KV_SUCCESS && r->kernel.verdict != KV_FAILURE))
		return;
	r->kernel.msg_match = conf_msgs_check(&sub->msgs, r->kernel.log, &idx) == CONF_MSG_OK;
}

static int fill_kernel(struct runner *rn, const struct obj_ctx *oc, size_t ti, struct row *r,
		       uint64_t off, uint64_t on)
{
	const struct conf_spec *sp = &oc->specs[ti];
	const char *mode = r->mode == CONF_PRIV ? "priv" : "unpriv";

	if (rn->live) {
		if (r->mode == CONF_UNPRIV && rn->unpriv_disabled != 0) {
			r->kernel.verdict = KV_SKIPPED;
			r->kernel.stage = xasprintf("unprivileged_bpf_disabled=%d",
						    rn->unpriv_disabled);
			r->kernel.error = strdup("");
			r->kernel.msg_match = -1;
			return r->kernel.stage && r->kernel.error ? 0 : -ENOMEM;
		}
		int err = run_live(rn, oc, ti, r, off, on);

		if (err)
			return err;
		check_kernel_msgs(r->mode == CONF_PRIV ? &sp->priv : &sp->unpriv, r);
		return 0;
	}
	if (rn->rec && recorded_find(rn->rec, oc->base, r->prog, mode, &r->kernel))
		return 0;
	kref_free(&r->kernel);
	r->kernel.verdict = KV_NONE;
	r->kernel.msg_match = -1;
	r->kernel.insns = -1;
	r->kernel.stage = strdup("not recorded");
	r->kernel.error = strdup("");
	return r->kernel.stage && r->kernel.error ? 0 : -ENOMEM;
}

/* ------------------------------------------------------------------ */
/* Comparison                                                          */
/* ------------------------------------------------------------------ */

static bool is_complexity(const char *msg)
{
	return msg && (strstr(msg, "BPF program is too large") || strstr(msg, "is too complex"));
}

/* Is `msg` one of the lines of `block`? */
static bool is_line_of(const char *msg, const char *block)
{
	size_t n = strlen(msg);

	for (const char *s = block; s && *s;) {
		size_t len = strcspn(s, "\n");

		if (len == n && !strncmp(s, msg, n))
			return true;
		s += len;
		if (*s)
			s++;
	}
	return false;
}

static int classify(struct row *r)
{
	const char *pfx = "bpfvet: unsupported: ";
	enum kverdict k = r->kernel.verdict;
	const char *ke = r->kernel.error ? r->kernel.error : "";

	r->msg_same = -1;
	r->kernel_msg = strndup(ke, strcspn(ke, "\n"));
	if (!r->kernel_msg)
		return -ENOMEM;
	if (r->bv == BV_NOT_RUN || (k != KV_SUCCESS && k != KV_FAILURE)) {
		r->cause = CAUSE_NOT_COMPARED;
		return 0;
	}
	if (r->bv == BV_ERROR) {
		r->cause = CAUSE_BPFVET_ERROR;
	} else if (r->bv == BV_REFUSED) {
		r->cause = CAUSE_FALSE_REFUSAL;
	} else if (r->bv == BV_UNSUPPORTED) {
		const char *f = r->bv_error ? strstr(r->bv_error, pfx) : NULL;

		r->cause = CAUSE_UNSUPPORTED;
		/* A later message can follow the one that names the feature. */
		r->feature = f ? strdup(f + strlen(pfx)) :
			     xasprintf("not named; last message: %s", r->bv_error ? r->bv_error : "");
		if (!r->feature)
			return -ENOMEM;
	} else if ((r->bv == BV_SUCCESS) == (k == KV_SUCCESS)) {
		r->cause = CAUSE_PASS;
		if (k == KV_FAILURE)
			r->msg_same = is_line_of(r->bv_error ? r->bv_error : "", ke);
	} else if (is_complexity(r->bv_error) || is_complexity(ke)) {
		r->cause = CAUSE_COMPLEXITY;
	} else {
		r->cause = r->bv == BV_FAILURE ? CAUSE_FALSE_REJECT : CAUSE_FALSE_ACCEPT;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Rows                                                                */
/* ------------------------------------------------------------------ */

static struct row *row_add(struct runner *rn)
{
	if (rn->row_cnt == rn->row_cap) {
		size_t cap = rn->row_cap ? rn->row_cap * 2 : 1024;
		struct row *v = realloc(rn->rows, cap * sizeof(*v));

		if (!v)
			return NULL;
		rn->rows = v;
		rn->row_cap = cap;
	}
	memset(&rn->rows[rn->row_cnt], 0, sizeof(rn->rows[0]));
	return &rn->rows[rn->row_cnt++];
}

static void row_free(struct row *r)
{
	free(r->object);
	free(r->prog);
	free(r->skip);
	kref_free(&r->kernel);
	free(r->kernel_msg);
	free(r->bv_error);
	free(r->bv_aux);
	free(r->bv_msg_detail);
	free(r->feature);
}

/* Why the selftest loader would not run this test on x86_64, or NULL. */
static const char *static_skip(const struct conf_spec *sp)
{
	if (sp->arch_mask && !(sp->arch_mask & CONF_ARCH_X86_64))
		return "arch: not for x86_64";
	/* x86_64 kernels have the JIT on (CONFIG_BPF_JIT_ALWAYS_ON on most). */
	if (sp->load_mode == CONF_LOAD_NO_JITED)
		return "load_mode: only without JIT";
	return NULL;
}

static int run_test(struct runner *rn, const struct obj_ctx *oc, size_t ti, int mode,
		    struct logbuf *lb)
{
	const struct conf_spec *sp = &oc->specs[ti];
	const struct conf_subspec *sub = mode == CONF_PRIV ? &sp->priv : &sp->unpriv;
	struct row *r = row_add(rn);
	const char *skip = static_skip(sp);
	uint64_t off, on;
	int err;

	if (!r)
		return -ENOMEM;
	r->object = strdup(oc->base);
	r->prog = strdup(sp->prog_name);
	r->mode = mode;
	r->expect_failure = sub->expect_failure;
	r->msg_cnt = sub->msgs.cnt;
	r->bv_msg_match = -1;
	r->bv_test_insns = -1;
	r->kernel.msg_match = -1;
	r->kernel.insns = -1;
	r->scope = scope_classify(oc->obj, bpfvet_object__prog(oc->obj, ti));
	if (!r->object || !r->prog)
		return -ENOMEM;
	if (skip) {
		r->skip = strdup(skip);
		r->kernel.verdict = KV_SKIPPED;
		r->kernel.stage = strdup(skip);
		r->kernel.error = strdup("");
		r->cause = CAUSE_NOT_COMPARED;
		return r->skip && r->kernel.stage && r->kernel.error ? 0 : -ENOMEM;
	}
	run_caps(oc, sp, mode, &off, &on);
	err = run_bpfvet(oc, ti, r, bpfvet_drop_caps(off, on), sub->msgs.cnt > 0, lb);
	if (!err)
		err = check_bpfvet_msgs(sub, lb, r);
	if (!err)
		err = fill_kernel(rn, oc, ti, r, off, on);
	if (!err && r->kernel.verdict == KV_SKIPPED && !(r->skip = strdup(r->kernel.stage)))
		err = -ENOMEM;
	if (!err)
		err = classify(r);
	return err;
}

static int run_object(struct runner *rn, const char *path, struct logbuf *lb)
{
	struct obj_ctx oc;
	int err = obj_open(&rn->opt, path, &oc);

	if (err) {
		obj_close(&oc);
		return err;
	}
	rn->objects++;
	for (size_t i = 0; i < oc.prog_cnt && !err; i++) {
		const struct conf_spec *sp = &oc.specs[i];

		rn->programs++;
		if (oc.spec_err[i]) {
			rn->bad_specs++;
			fprintf(stderr, "conformance-runner: %s/%s: annotation: %s\n", oc.base,
				bpfvet_program__name(bpfvet_object__prog(oc.obj, i)), oc.spec_err[i]);
			continue;
		}
		if (sp->auxiliary) {
			rn->aux_programs++;
			continue;
		}
		if (rn->opt.glob && fnmatch(rn->opt.glob, sp->prog_name, 0))
			continue;
		if (sp->mode_mask & CONF_PRIV)
			err = run_test(rn, &oc, i, CONF_PRIV, lb);
		if (!err && (sp->mode_mask & CONF_UNPRIV))
			err = run_test(rn, &oc, i, CONF_UNPRIV, lb);
	}
	obj_close(&oc);
	return err;
}

/* ------------------------------------------------------------------ */
/* Inputs                                                              */
/* ------------------------------------------------------------------ */

struct paths {
	char **v;
	size_t cnt, cap;
};

static int paths_add(struct paths *p, char *s)
{
	if (!s)
		return -ENOMEM;
	if (p->cnt == p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 128;
		char **v = realloc(p->v, cap * sizeof(*v));

		if (!v) {
			free(s);
			return -ENOMEM;
		}
		p->v = v;
		p->cap = cap;
	}
	p->v[p->cnt++] = s;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int collect_dir(const char *dir, struct paths *p)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int err = 0;

	if (!d) {
		fprintf(stderr, "conformance-runner: %s: %s\n", dir, strerror(errno));
		return -errno;
	}
	while (!err && (e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (n > 6 && !strcmp(e->d_name + n - 6, ".bpf.o"))
			err = paths_add(p, xasprintf("%s/%s", dir, e->d_name));
	}
	closedir(d);
	return err;
}

static int collect_inputs(const struct options *o, struct paths *p)
{
	int err = 0;

	for (size_t i = 0; i < o->input_cnt && !err; i++) {
		DIR *d = opendir(o->inputs[i]);

		if (d) {
			closedir(d);
			err = collect_dir(o->inputs[i], p);
		} else {
			err = paths_add(p, strdup(o->inputs[i]));
		}
	}
	if (!err)
		qsort(p->v, p->cnt, sizeof(*p->v), cmp_str);
	return err;
}

static void paths_free(struct paths *p)
{
	for (size_t i = 0; i < p->cnt; i++)
		free(p->v[i]);
	free(p->v);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */
/* ------------------------------------------------------------------ */

static const char *expected_name(const struct row *r)
{
	return r->expect_failure ? "failure" : "success";
}

static const char *match_name(const struct row *r)
{
	if (r->cause == CAUSE_NOT_COMPARED)
		return "-";
	return r->cause == CAUSE_PASS ? "yes" : "no";
}

/* The reason column: short, one line. */
static void reason(const struct row *r, char *buf, size_t sz)
{
	const char *ke = r->kernel_msg ? r->kernel_msg : "";
	const char *be = r->bv_error ? r->bv_error : "";

	switch (r->cause) {
	case CAUSE_PASS:
		if (r->kernel.verdict == KV_FAILURE)
			snprintf(buf, sz, "message %s%s%s", r->msg_same ? "same" : "differs",
				 r->bv_msg_match == 0 ? "; __msg " : "",
				 r->bv_msg_match == 0 ? r->bv_msg_detail : "");
		else if (r->bv_msg_match == 0)
			snprintf(buf, sz, "__msg %s", r->bv_msg_detail);
		else
			buf[0] = 0;
		break;
	case CAUSE_UNSUPPORTED:
		snprintf(buf, sz, "unsupported: %s", r->feature);
		break;
	case CAUSE_FALSE_REJECT:
		snprintf(buf, sz, "kernel accepts; bpfvet: %s%s%s", r->bv_aux ? r->bv_aux : "",
			 r->bv_aux ? ": " : "", be);
		break;
	case CAUSE_FALSE_ACCEPT:
		snprintf(buf, sz, "bpfvet accepts; kernel: %s", ke);
		break;
	case CAUSE_COMPLEXITY:
		snprintf(buf, sz, "complexity; kernel: %s; bpfvet: %s",
			 r->kernel.verdict == KV_SUCCESS ? "accepts" : ke,
			 r->bv == BV_SUCCESS ? "accepts" : be);
		break;
	case CAUSE_BPFVET_ERROR:
		snprintf(buf, sz, "%s", be);
		break;
	case CAUSE_FALSE_REFUSAL:
		snprintf(buf, sz, "kernel verifies; bpfvet refuses: %s", be);
		break;
	default:
		snprintf(buf, sz, "%s%s%s", r->kernel.stage ? r->kernel.stage : "",
			 ke[0] ? ": " : "", ke);
		break;
	}
	if (r->cause == CAUSE_PASS && r->kernel.insns >= 0 && r->bv_test_insns >= 0 &&
	    r->kernel.insns != r->bv_test_insns) {
		size_t n = strlen(buf);

		snprintf(buf + n, sz - n, "%sinsns %lld, kernel %lld", n ? "; " : "",
			 r->bv_test_insns, r->kernel.insns);
	}
}

static void print_table(const struct runner *rn)
{
	char why[512], prog[256];

	printf("%-64s %-6s %-8s %-8s %-11s %-5s %s\n", "program", "mode", "expected", "kernel",
	       "bpfvet", "match", "reason");
	for (size_t i = 0; i < rn->row_cnt; i++) {
		const struct row *r = &rn->rows[i];
		size_t n = strlen(r->object);

		if (n > 6 && !strcmp(r->object + n - 6, ".bpf.o"))
			n -= 6;
		snprintf(prog, sizeof(prog), "%.*s/%s", (int)n, r->object, r->prog);
		reason(r, why, sizeof(why));
		printf("%-64s %-6s %-8s %-8s %-11s %-5s %s\n", prog,
		       r->mode == CONF_PRIV ? "priv" : "unpriv", expected_name(r),
		       kverdict_name(r->kernel.verdict), bv_name(r->bv), match_name(r), why);
	}
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * (double)a / (double)b : 0.0;
}

/* The five slowest bpfvet runs, to keep an eye on the runner's speed. */
static void print_slowest(const struct runner *rn)
{
	const struct row *top[5] = { 0 };

	for (size_t i = 0; i < rn->row_cnt; i++) {
		const struct row *r = &rn->rows[i];

		for (size_t j = 0; j < 5; j++) {
			if (top[j] && top[j]->bv_ns >= r->bv_ns)
				continue;
			memmove(&top[j + 1], &top[j], (4 - j) * sizeof(top[0]));
			top[j] = r;
			break;
		}
	}
	printf("slowest bpfvet runs:");
	for (size_t j = 0; j < 5 && top[j]; j++)
		printf("%s %s/%s %.2f s", j ? "," : "", top[j]->object, top[j]->prog,
		       (double)top[j]->bv_ns / 1e9);
	printf("\n");
}

static void print_summary(const struct runner *rn, const struct summary *s)
{
	printf("\nreference: %s\n", rn->reference);
	printf("objects %zu, programs %zu (%zu auxiliary, %zu with annotations the loader refuses)\n",
	       s->objects, s->programs, s->aux_programs, s->bad_specs);
	printf("test runs %zu: %zu priv, %zu unpriv; skipped: %zu arch, %zu unprivileged_bpf_disabled, %zu other\n",
	       s->runs, s->runs_priv, s->runs_unpriv, s->skipped_arch, s->skipped_unpriv,
	       s->skipped_other);
	printf("kernel refused to load (not a verdict): %zu, bpfvet refuses %zu of them; "
	       "no kernel verdict: %zu\n", s->refused, s->refused_both, s->no_ref);
	printf("compared with the kernel: %zu; agree %zu (%.1f%%)\n", s->compared, s->passed,
	       pct(s->passed, s->compared));
	printf("  privileged runs: agree %zu of %zu (%.1f%%); unprivileged runs: agree %zu of %zu "
	       "(%.1f%%)\n", s->mode_passed[0], s->mode_compared[0],
	       pct(s->mode_passed[0], s->mode_compared[0]), s->mode_passed[1], s->mode_compared[1],
	       pct(s->mode_passed[1], s->mode_compared[1]));
	for (int c = CAUSE_UNSUPPORTED; c < CAUSE_NOT_COMPARED; c++)
		printf("  %-22s %zu\n", cause_name((enum cause)c), s->by_cause[c]);
	printf("instruction count the same as the kernel's (same verdict, count recorded): "
	       "privileged %zu of %zu, unprivileged %zu of %zu\n", s->mode_insns_same[0],
	       s->mode_insns_known[0], s->mode_insns_same[1], s->mode_insns_known[1]);
	printf("rejections both agree on: %zu; same first message as the kernel: %zu (%.1f%%); "
	       "__msg satisfied: %zu of %zu\n", s->both_reject, s->both_reject_msg_same,
	       pct(s->both_reject_msg_same, s->both_reject), s->both_reject_msgs_ok,
	       s->both_reject_with_msgs);
	printf("  same first message: privileged %zu of %zu (%.1f%%), unprivileged %zu of %zu "
	       "(%.1f%%)\n", s->mode_msg_same[0], s->mode_both_reject[0],
	       pct(s->mode_msg_same[0], s->mode_both_reject[0]), s->mode_msg_same[1],
	       s->mode_both_reject[1], pct(s->mode_msg_same[1], s->mode_both_reject[1]));
	printf("agrees with the annotation: %zu of %zu verdicts (%.1f%%); __msg satisfied %zu of %zu\n",
	       s->ann_agree, s->ann_runs, pct(s->ann_agree, s->ann_runs), s->ann_msgs_ok,
	       s->ann_msgs);
	printf("kernel agrees with the annotation: %zu of %zu verdicts; __msg %zu of %zu\n",
	       s->kern_ann_agree, s->compared, s->kern_msgs_ok, s->kern_msgs);
	printf("time: bpfvet %.2f s, kernel %.2f s\n", (double)rn->bv_ns / 1e9,
	       (double)rn->kernel_ns / 1e9);
	print_slowest(rn);
	printf("unprivileged runs: %zu passed, %zu failed\n", s->mode_passed[1], s->mode_failed[1]);
	printf("%zu passed, %zu failed\n", s->mode_passed[0], s->mode_failed[0]);
}

static int write_record(const struct runner *rn, const char *path)
{
	FILE *f = fopen(path, "w");

	if (!f) {
		fprintf(stderr, "conformance-runner: %s: %s\n", path, strerror(errno));
		return -errno;
	}
	fprintf(f, "# Kernel verdicts for the bpfvet conformance runner (tests/conformance/README.md).\n");
	fprintf(f, "# Recorded with build/conformance-runner --record on Linux %s, libbpf %s,\n",
		live_kernel_release(rn->live), libbpf_version_string());
	fprintf(f, "# following the Linux 6.12 selftest loader's rules. %s\n", rn->unpriv_note);
	fprintf(f, "object,program,mode,verdict,errno,stage,msg_match,insns,error\n");
	for (size_t i = 0; i < rn->row_cnt; i++) {
		const struct row *r = &rn->rows[i];
		char num[16], insns[24] = "";

		/* Static skips are decided from the annotations (bpfvet did not
		 * run either); the kernel's own (the sysctl, the time limit) are
		 * facts of the recording. */
		if (r->skip && r->kernel.verdict == KV_SKIPPED && r->bv == BV_NOT_RUN &&
		    strncmp(r->skip, "unpriv", 6))
			continue;
		snprintf(num, sizeof(num), "%d", r->kernel.err);
		if (r->kernel.insns >= 0)
			snprintf(insns, sizeof(insns), "%lld", r->kernel.insns);
		csv_field(f, r->object, false);
		csv_field(f, r->prog, false);
		csv_field(f, r->mode == CONF_PRIV ? "priv" : "unpriv", false);
		csv_field(f, kverdict_name(r->kernel.verdict), false);
		csv_field(f, num, false);
		csv_field(f, r->kernel.stage, false);
		csv_field(f, r->kernel.msg_match < 0 ? "" : r->kernel.msg_match ? "yes" : "no", false);
		csv_field(f, insns, false);
		csv_field(f, r->kernel.error, true);
	}
	return fclose(f) ? -errno : 0;
}

/* ------------------------------------------------------------------ */
/* Setup                                                               */
/* ------------------------------------------------------------------ */

/* The recording with the selftest loader's semantics (README.md). */
#define DEFAULT_RECORDED "tests/conformance/kernel-6.18-testloader.csv"
/* The recorded target's BTF, unpacked by `make target`. */
#define DEFAULT_BTF "build/target-6.18/btf"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: conformance-runner [options] OBJ.bpf.o|DIR...\n"
		"  --reference recorded|live|auto  kernel verdicts: a recorded file (default),\n"
		"                       the running kernel (live), or live when possible\n"
		"  --recorded FILE      recorded verdicts (default " DEFAULT_RECORDED ")\n"
		"  --btf FILE           bpfvet's CO-RE target BTF (default " DEFAULT_BTF ",\n"
		"                       the recorded target; \"none\" for none)\n"
		"  --target NAME|DIR    the kernel bpfvet verifies for, a target profile\n"
		"                       (bpfvet --target): its BTF unless --btf, version, config\n"
		"  --record FILE        write the live kernel's verdicts to FILE\n"
		"  --time-limit S       a live load undecided after S seconds gets no verdict\n"
		"  --markdown FILE      write the report (docs/conformance.md)\n"
		"  --priv-caps-off LIST drop these capability numbers (comma separated) in priv\n"
		"                       mode instead of the selftests' per-object rule\n"
		"  -p GLOB              only programs whose name matches\n"
		"  -q                   no table, only the summary\n");
}

static int parse_caps_list(const char *s, uint64_t *caps)
{
	char *end;

	*caps = 0;
	while (*s) {
		long n = strtol(s, &end, 10);

		if (end == s || n < 0 || n > 63 || (*end && *end != ','))
			return -EINVAL;
		*caps |= 1ull << n;
		s = *end ? end + 1 : end;
	}
	return 0;
}

static int parse_ref(const char *v, enum ref_mode *m)
{
	if (!strcmp(v, "auto"))
		*m = REF_AUTO;
	else if (!strcmp(v, "live"))
		*m = REF_LIVE;
	else if (!strcmp(v, "recorded"))
		*m = REF_RECORDED;
	else
		return -EINVAL;
	return 0;
}

/* A profile's kernel_version ("6.12.57"), as KERNEL_VERSION(a, b, c). */
static int parse_kernel_version(const struct target_profile *p, uint32_t *v)
{
	if (!p->kernel_version[0] || !kernel_version_parse(p->kernel_version, v))
		return 0;
	fprintf(stderr, "conformance-runner: profile %s: bad kernel_version '%s'\n", p->name,
		p->kernel_version);
	return -EINVAL;
}

static int parse_args(int argc, char **argv, struct options *o)
{
	o->inputs = calloc((size_t)argc, sizeof(*o->inputs));
	if (!o->inputs)
		return -ENOMEM;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		bool has_val = i + 1 < argc;

		if (!strcmp(a, "-q")) {
			o->quiet = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 1;
		} else if (has_val && !strcmp(a, "--reference")) {
			if (parse_ref(argv[++i], &o->ref))
				return -EINVAL;
		} else if (has_val && !strcmp(a, "--recorded")) {
			o->recorded_path = argv[++i];
		} else if (has_val && !strcmp(a, "--btf")) {
			o->btf_path = argv[++i];
		} else if (has_val && !strcmp(a, "--target")) {
			target_profile_free(o->profile);
			o->profile = target_profile_load(argv[++i]);
			if (!o->profile || parse_kernel_version(o->profile, &o->kernel_version))
				return -EINVAL;
		} else if (has_val && !strcmp(a, "--time-limit")) {
			char *end;
			unsigned long n = strtoul(argv[++i], &end, 10);

			if (*end || !n || n > 86400)
				return -EINVAL;
			o->time_limit = (unsigned int)n;
		} else if (has_val && !strcmp(a, "--record")) {
			o->record_path = argv[++i];
		} else if (has_val && !strcmp(a, "--markdown")) {
			o->markdown_path = argv[++i];
		} else if (has_val && !strcmp(a, "--priv-caps-off")) {
			o->caps_override = true;
			if (parse_caps_list(argv[++i], &o->caps_off_priv))
				return -EINVAL;
		} else if (has_val && !strcmp(a, "-p")) {
			o->glob = argv[++i];
		} else if (a[0] == '-') {
			return -EINVAL;
		} else {
			o->inputs[o->input_cnt++] = a;
		}
	}
	if (!o->btf_path)
		o->btf_path = o->profile && o->profile->btf ? o->profile->btf : DEFAULT_BTF;
	else if (!strcmp(o->btf_path, "none"))
		o->btf_path = NULL;
	if (o->btf_path && access(o->btf_path, R_OK)) {
		fprintf(stderr, "conformance-runner: cannot read the target BTF %s: %s%s\n",
			o->btf_path, strerror(errno),
			strcmp(o->btf_path, DEFAULT_BTF) ? "" : " (make target)");
		return -EINVAL;
	}
	return o->input_cnt ? 0 : -EINVAL;
}

/* Unprivileged runs need kernel.unprivileged_bpf_disabled=0: root lowers
 * 2 for the run (restored in main, at exit or on a signal); 1 is final. */
static int open_unpriv(struct runner *rn)
{
	char why[160];
	int st = bpfvet_unpriv_bpf__open(&rn->unpriv_guard, why, sizeof(why));

	if (st < 0) {
		fprintf(stderr, "conformance-runner: unprivileged_bpf_disabled: %s\n",
			strerror(-st));
		return st;
	}
	rn->unpriv_disabled = live_unpriv_disabled();
	if (st != BPFVET_UNPRIV_ALLOWED)
		fprintf(stderr, "conformance-runner: %s%s\n", why,
			rn->unpriv_disabled ? "; unprivileged runs are skipped" : "");
	snprintf(rn->unpriv_note, sizeof(rn->unpriv_note),
		 "kernel.unprivileged_bpf_disabled=%d%s: unprivileged runs are %s.",
		 rn->unpriv_disabled, st == BPFVET_UNPRIV_OPENED ? " (lowered from 2 for the run)" : "",
		 rn->unpriv_disabled ? "skipped" : "loaded");
	return 0;
}

static int setup_live(struct runner *rn)
{
	char why[256];
	int err = live_open(&rn->live, why, sizeof(why));

	if (err) {
		if (rn->opt.ref == REF_LIVE)
			fprintf(stderr, "conformance-runner: %s\n", why);
		return err;
	}
	live_set_time_limit(rn->live, rn->opt.time_limit);
	err = open_unpriv(rn);
	if (err)
		return err;
	rn->reference = xasprintf("live kernel (Linux %s)", live_kernel_release(rn->live));
	rn->reference_note = xasprintf("Loaded now with libbpf %s, following the selftest loader.",
				       libbpf_version_string());
	return rn->reference && rn->reference_note ? 0 : -ENOMEM;
}

static int setup_recorded(struct runner *rn)
{
	const char *path = rn->opt.recorded_path ? rn->opt.recorded_path : DEFAULT_RECORDED;
	char why[256];
	int err = recorded_load(path, &rn->rec, why, sizeof(why));

	if (err) {
		fprintf(stderr, "conformance-runner: recorded verdicts %s: %s\n", path, why);
		return err;
	}
	rn->reference = xasprintf("recorded file %s (%zu entries)", path,
				  recorded_count(rn->rec));
	rn->reference_note = strdup(recorded_comment(rn->rec));
	snprintf(rn->unpriv_note, sizeof(rn->unpriv_note),
		 "Unprivileged runs follow the recorded file.");
	return rn->reference && rn->reference_note ? 0 : -ENOMEM;
}

static int setup_reference(struct runner *rn)
{
	int err;

	if (rn->opt.ref != REF_RECORDED) {
		err = setup_live(rn);
		if (!err || rn->opt.ref == REF_LIVE)
			return err;
	}
	if (rn->opt.record_path) {
		fprintf(stderr, "conformance-runner: --record needs the live kernel\n");
		return -EINVAL;
	}
	return setup_recorded(rn);
}

static int finish(struct runner *rn)
{
	struct summary s;
	struct report_info info = {
		.reference = rn->reference,
		.reference_note = rn->reference_note,
		.unpriv_note = rn->unpriv_note,
	};
	int err = 0;

	summary_compute(rn->rows, rn->row_cnt, &s);
	s.objects = rn->objects;
	s.programs = rn->programs;
	s.aux_programs = rn->aux_programs;
	s.bad_specs = rn->bad_specs;
	if (!rn->opt.quiet)
		print_table(rn);
	print_summary(rn, &s);
	if (rn->opt.record_path)
		err = write_record(rn, rn->opt.record_path);
	if (!err && rn->opt.markdown_path)
		err = report_write(rn->opt.markdown_path, rn->rows, rn->row_cnt, &s, &info);
	return err;
}

/* The target BTF, read once for all the objects. */
static int open_target(struct options *o)
{
	char err[256] = "";
	struct bpfvet_target_opts to = {
		.sz = sizeof(to), .btf_path = o->btf_path, .errbuf = err, .errbuf_sz = sizeof(err),
	};
	int rc;

	if (!o->btf_path)
		return 0;
	rc = bpfvet_target__open(&to, &o->target);
	if (rc)
		fprintf(stderr, "conformance-runner: %s\n", err);
	return rc;
}

int main(int argc, char **argv)
{
	struct runner rn = { .unpriv_disabled = -1 };
	struct logbuf lb = { 0 };
	struct paths paths = { 0 };
	uint64_t t0;
	int err, rc;

	err = parse_args(argc, argv, &rn.opt);
	if (err) {
		if (err < 0)
			usage(stderr);
		free(rn.opt.inputs);
		return err < 0 ? 2 : 0;
	}
	err = setup_reference(&rn);
	if (!err)
		err = open_target(&rn.opt);
	if (!err)
		err = collect_inputs(&rn.opt, &paths);
	t0 = now_ns();
	for (size_t i = 0; !err && i < paths.cnt; i++)
		err = run_object(&rn, paths.v[i], &lb);
	rn.bv_ns = now_ns() - t0 - rn.kernel_ns;
	if (!err)
		err = finish(&rn);
	if (err)
		fprintf(stderr, "conformance-runner: %s\n", strerror(-err));
	for (size_t i = 0; i < rn.row_cnt; i++)
		row_free(&rn.rows[i]);
	free(rn.rows);
	free(lb.buf);
	paths_free(&paths);
	live_close(rn.live);
	rc = bpfvet_unpriv_bpf__restore(rn.unpriv_guard);
	if (rc) {
		fprintf(stderr, "conformance-runner: cannot restore kernel.unprivileged_bpf_disabled=2: "
			"%s\n", strerror(-rc));
		err = rc;
	}
	recorded_free(rn.rec);
	free(rn.reference);
	free(rn.reference_note);
	free(rn.opt.inputs);
	bpfvet_target__close(rn.opt.target);
	target_profile_free(rn.opt.profile);
	return err ? 2 : 0;
}
