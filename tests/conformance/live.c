/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loads one selftest into the running kernel as the selftest loader
 * (test_loader.c, run_subtest) does: a fresh libbpf object per test, only
 * the test program and the auxiliary programs of its mode marked for
 * loading, the test's log buffer, log level and flags on the test program,
 * unprivileged map filtering, and the test's effective capabilities for the
 * whole open/load. libbpf reloads a failing program at log level 1, so the
 * log of a rejection is always there.
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <linux/capability.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "annotations.h"
#include "reference.h"

/* The selftest loader's log buffer (TEST_LOADER_LOG_BUF_SZ). */
#define LIVE_LOG_SZ (2u << 20)
#define CAPTURE_SZ (1u << 20)

struct live_ctx {
	char *log;
	char release[128];
	uint32_t default_flags;	/* the CONF_DEFAULT_FLAGS it accepts */
	unsigned int time_limit;	/* seconds per test, 0 for none */
};

/*
 * libbpf's print callback has no context argument, so what libbpf says
 * during one load is collected here. The runner is single-threaded.
 */
static struct {
	char *buf;
	size_t len;
} capture;

static int capture_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	if (level != LIBBPF_WARN || !capture.buf || capture.len + 1 >= CAPTURE_SZ)
		return 0;
	n = vsnprintf(capture.buf + capture.len, CAPTURE_SZ - capture.len, fmt, ap);
	if (n > 0)
		capture.len += (size_t)n < CAPTURE_SZ - capture.len ? (size_t)n :
			       CAPTURE_SZ - capture.len - 1;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Capabilities                                                        */
/* ------------------------------------------------------------------ */

struct caps {
	struct __user_cap_data_struct d[2];
};

static int caps_get(struct caps *c)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capget, &h, c->d) ? -errno : 0;
}

static int caps_put(struct caps *c)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };

	return syscall(SYS_capset, &h, c->d) ? -errno : 0;
}

static uint64_t caps_effective(const struct caps *c)
{
	return (uint64_t)c->d[0].effective | (uint64_t)c->d[1].effective << 32;
}

static void caps_set_effective(struct caps *c, uint64_t eff)
{
	c->d[0].effective = (uint32_t)eff;
	c->d[1].effective = (uint32_t)(eff >> 32);
}

/* Applies the test's capabilities; `saved` gets what to restore. */
static int caps_enter(const struct live_test *t, struct caps *saved)
{
	struct caps c;
	int err = caps_get(saved);

	if (err)
		return err;
	c = *saved;
	caps_set_effective(&c, (caps_effective(&c) & ~t->caps_off) | t->caps_on);
	return caps_put(&c);
}

/* ------------------------------------------------------------------ */
/* Context                                                             */
/* ------------------------------------------------------------------ */

static int read_int_file(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

int live_unpriv_disabled(void)
{
	return read_int_file("/proc/sys/kernel/unprivileged_bpf_disabled");
}

bool live_jit_enabled(void)
{
	return read_int_file("/proc/sys/net/core/bpf_jit_enable") != 0;
}

const char *live_kernel_release(struct live_ctx *ctx)
{
	return ctx->release;
}

void live_set_time_limit(struct live_ctx *ctx, unsigned int seconds)
{
	ctx->time_limit = seconds;
}

uint32_t live_default_flags(const struct live_ctx *ctx)
{
	return ctx->default_flags;
}

/* A two-instruction socket filter: can this process load programs, with
 * these flags? */
static int probe_load(uint32_t flags)
{
	static const struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_flags = flags);
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "conf_probe", "GPL", insns, 2, &o);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int live_open(struct live_ctx **ctxp, char *why, size_t why_sz)
{
	struct live_ctx *ctx;
	struct utsname u;
	int err;

	*ctxp = NULL;
	err = probe_load(0);
	if (err) {
		snprintf(why, why_sz, "the kernel refuses BPF_PROG_LOAD: %s", strerror(-err));
		return err;
	}
	ctx = calloc(1, sizeof(*ctx));
	if (!ctx || !(ctx->log = malloc(LIVE_LOG_SZ))) {
		free(ctx);
		snprintf(why, why_sz, "out of memory");
		return -ENOMEM;
	}
	capture.buf = malloc(CAPTURE_SZ);
	if (!capture.buf) {
		live_close(ctx);
		snprintf(why, why_sz, "out of memory");
		return -ENOMEM;
	}
	if (!uname(&u))
		snprintf(ctx->release, sizeof(ctx->release), "%s", u.release);
	/* The selftest loader keeps the test flags its kernel knows: 6.1 has
	 * no BPF_F_TEST_REG_INVARIANTS and fails any load that sets it. */
	for (uint32_t f = CONF_DEFAULT_FLAGS; f; f &= f - 1)
		if (!probe_load(f & -f))
			ctx->default_flags |= f & -f;
	libbpf_set_print(capture_print);
	*ctxp = ctx;
	return 0;
}

void live_close(struct live_ctx *ctx)
{
	if (!ctx)
		return;
	free(ctx->log);
	free(ctx);
	free(capture.buf);
	capture.buf = NULL;
	libbpf_set_print(NULL);
}

/* ------------------------------------------------------------------ */
/* One load                                                            */
/* ------------------------------------------------------------------ */

/* Map types an unprivileged user may create (test_loader.c). */
static bool unpriv_capable_map(const struct bpf_map *map)
{
	switch (bpf_map__type(map)) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return !(bpf_map__map_flags(map) & BPF_F_ZERO_SEED);
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
		return true;
	default:
		return false;
	}
}

/* The test's flags less the defaults this kernel does not know; a flag
 * the test names itself is kept, and fails the load as it would there. */
static uint32_t test_flags(const struct live_ctx *ctx, const struct live_test *t)
{
	uint32_t unknown = CONF_DEFAULT_FLAGS & ~ctx->default_flags & ~t->flags_named;

	return t->prog_flags & ~unknown;
}

static void on_alarm(int sig)
{
	(void)sig;
}

/* The verifier stops with EAGAIN when a signal is pending; libbpf retries
 * EAGAIN a few times, so the timer keeps firing until the load returns.
 * An emulated 6.1 takes an hour over verifier_search_pruning/short_loop1. */
static int load_in_time(const struct live_ctx *ctx, struct bpf_object *obj, bool *timed_out)
{
	struct itimerval on = {
		.it_value = { .tv_sec = ctx->time_limit },
		.it_interval = { .tv_usec = 50000 },
	}, off = { 0 };
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct timespec t0, t1;
	int err;

	*timed_out = false;
	if (!ctx->time_limit)
		return bpf_object__load(obj);
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, &old))
		return -errno;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	setitimer(ITIMER_REAL, &on, NULL);
	err = bpf_object__load(obj);
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	*timed_out = err && t1.tv_sec - t0.tv_sec >= (time_t)ctx->time_limit;
	return err;
}

static bool is_aux(const struct live_test *t, const char *name)
{
	for (size_t i = 0; i < t->aux_cnt; i++)
		if (!strcmp(t->aux[i], name))
			return true;
	return false;
}

static bool is_stats_line(const char *s, size_t n)
{
	static const char *const pfx[] = { "processed ", "verification time ", "stack depth " };

	for (size_t i = 0; i < sizeof(pfx) / sizeof(pfx[0]); i++)
		if (n >= strlen(pfx[i]) && !strncmp(s, pfx[i], strlen(pfx[i])))
			return true;
	return false;
}

/* A line of the trace: "12: ...", "from 3 to 7: ...", or precision
 * tracking ("mark_precise: ...", level 2, with kernel addresses in it). */
static bool is_trace_line(const char *s)
{
	bool from = !strncmp(s, "from ", 5);

	if (!strncmp(s, "mark_precise: ", 14))
		return true;

	if (from)
		s += 5;
	if (*s < '0' || *s > '9')
		return false;
	while (*s >= '0' && *s <= '9')
		s++;
	return from ? *s == ' ' : *s == ':';
}

/*
 * The message of a rejection: the lines after the last instruction or
 * state line of the log, statistics lines left out, joined by newlines
 * ("infinite loop detected at insn 1" comes with a cur/old state dump,
 * some checks print two lines). A log without trace lines (the structural
 * checks) gives its last line.
 */
static char *error_block(const char *log, size_t len)
{
	const char *end = log + len, *s = log, *from = NULL, *last = NULL;
	char *out = malloc(len + 1), *o = out;

	if (!out)
		return NULL;
	for (s = log; s < end;) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t n = e ? (size_t)(e - s) : (size_t)(end - s);

		if (n && !is_stats_line(s, n)) {
			if (is_trace_line(s))
				from = e ? e + 1 : end;
			else
				last = s;
		}
		s += n + 1;
	}
	if (!from || from >= end)
		from = last;
	for (s = from; s && s < end;) {
		const char *e = memchr(s, '\n', (size_t)(end - s));
		size_t n = e ? (size_t)(e - s) : (size_t)(end - s);

		while (n && s[n - 1] == ' ')
			n--;
		if (n && !is_stats_line(s, n)) {
			if (o != out)
				*o++ = '\n';
			memcpy(o, s, n);
			o += n;
		}
		if (!e || from == last)
			break;
		s = e + 1;
	}
	*o = 0;
	return out;
}

/* "prog 'NAME': BPF program load failed" in libbpf's output: which program
 * reached BPF_PROG_LOAD and failed. */
static char *failed_prog(const char *out)
{
	const char *s = out, *q, *e;

	while ((s = strstr(s, "prog '"))) {
		q = s + 6;
		e = strchr(q, '\'');
		if (!e)
			break;
		if (!strncmp(e, "': BPF program load failed", 26))
			return strndup(q, (size_t)(e - q));
		s = e;
	}
	return NULL;
}

/* The log libbpf printed for a program that used its own buffer. */
static const char *aux_log(const char *out, size_t *len)
{
	const char *b = strstr(out, "-- BEGIN PROG LOAD LOG --\n"), *e;

	if (!b)
		return NULL;
	b += strlen("-- BEGIN PROG LOAD LOG --\n");
	e = strstr(b, "-- END PROG LOAD LOG --");
	*len = e ? (size_t)(e - b) : strlen(b);
	return b;
}

/* The first libbpf complaint, for refusals before any program load. */
static char *first_line(const char *out)
{
	size_t n = strcspn(out, "\n");

	return n ? strndup(out, n) : strdup("libbpf failed without a message");
}

static char *fmt_dup(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static char *fmt_dup(const char *fmt, ...)
{
	va_list ap;
	char *s = NULL;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	return s;
}

/* Sorts a failed bpf_object__load into rejection or refusal. */
static void classify_failure(struct live_ctx *ctx, const struct live_test *t, int err,
			     struct kref *out)
{
	char *who = failed_prog(capture.buf);
	const char *alog;
	size_t alen = 0;

	out->err = err;
	if (!who) {
		out->verdict = KV_REFUSED;
		out->stage = strdup("libbpf");
		out->error = first_line(capture.buf);
	} else if (!strcmp(who, t->prog)) {
		/* A log of statistics alone ("processed 0 insns") is a load the
		 * kernel stopped before the walk without a message (EPERM for
		 * iterators on the recording machine): no verdict either. */
		char *block = ctx->log[0] ? error_block(ctx->log, strlen(ctx->log)) : NULL;
		bool ran = block && block[0];

		out->verdict = ran ? KV_FAILURE : KV_REFUSED;
		out->stage = strdup(ran ? "verifier" : "pre-verifier");
		if (ran) {
			out->error = block;
		} else {
			free(block);
			out->error = fmt_dup("BPF_PROG_LOAD: %s", strerror(-err));
		}
	} else {
		alog = aux_log(capture.buf, &alen);
		out->verdict = alog && alen ? KV_FAILURE : KV_REFUSED;
		out->stage = fmt_dup("%s %s", alog && alen ? "auxiliary" : "pre-verifier auxiliary",
				     who);
		out->error = alog && alen ? error_block(alog, alen) :
			     fmt_dup("BPF_PROG_LOAD: %s", strerror(-err));
	}
	free(who);
}

/* What the kernel counted for an accepted program (bpf_prog_info). */
static long long verified_insns(const struct bpf_program *prog)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_obj_get_info_by_fd(bpf_program__fd(prog), &info, &len))
		return -1;
	return info.verified_insns;
}

/* The "processed N insns" line of a rejection's log (level 1 or more). */
static long long processed_insns(const char *log)
{
	const char *s = log;
	long long n;

	while ((s = strstr(s, "processed "))) {
		if ((s == log || s[-1] == '\n') && sscanf(s, "processed %lld insns", &n) == 1)
			return n;
		s += 10;
	}
	return -1;
}

static struct bpf_program *select_programs(struct bpf_object *obj, const struct live_test *t)
{
	struct bpf_program *p, *test = NULL;

	bpf_object__for_each_program(p, obj) {
		bool me = !strcmp(bpf_program__name(p), t->prog);

		if (me)
			test = p;
		bpf_program__set_autoload(p, me || is_aux(t, bpf_program__name(p)));
	}
	return test;
}

static void load_object(struct live_ctx *ctx, const struct live_test *t, struct kref *out)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = t->btf_custom_path);
	struct bpf_object *obj;
	struct bpf_program *prog;
	struct bpf_map *map;
	bool timed_out;
	int err;

	obj = bpf_object__open_file(t->path, &oo);
	if (!obj) {
		out->verdict = KV_REFUSED;
		out->err = -errno;
		out->stage = strdup("libbpf");
		out->error = capture.len ? first_line(capture.buf) :
			     fmt_dup("cannot open: %s", strerror(errno));
		return;
	}
	prog = select_programs(obj, t);
	if (!prog) {
		out->verdict = KV_REFUSED;
		out->stage = strdup("libbpf");
		out->error = strdup("libbpf does not see the program");
		bpf_object__close(obj);
		return;
	}
	ctx->log[0] = 0;
	bpf_program__set_log_buf(prog, ctx->log, LIVE_LOG_SZ);
	bpf_program__set_log_level(prog, t->log_level);
	bpf_program__set_flags(prog, bpf_program__flags(prog) | test_flags(ctx, t));
	bpf_object__for_each_map(map, obj)
		bpf_map__set_autocreate(map, !t->unpriv || unpriv_capable_map(map));
	err = load_in_time(ctx, obj, &timed_out);
	if (timed_out) {
		out->verdict = KV_SKIPPED;
		out->err = err;
		out->stage = fmt_dup("time limit %u s", ctx->time_limit);
		out->error = fmt_dup("no verdict within %u s: the load was interrupted",
				     ctx->time_limit);
	} else if (!err) {
		out->verdict = KV_SUCCESS;
		out->stage = strdup("verifier");
		out->error = strdup("");
		out->insns = verified_insns(prog);
	} else {
		classify_failure(ctx, t, err, out);
		if (out->verdict == KV_FAILURE && !strcmp(out->stage, "verifier"))
			out->insns = processed_insns(ctx->log);
	}
	out->log = strdup(ctx->log);
	bpf_object__close(obj);
}

int live_run(struct live_ctx *ctx, const struct live_test *t, struct kref *out)
{
	struct caps saved;
	int err;

	memset(out, 0, sizeof(*out));
	out->msg_match = -1;
	out->insns = -1;
	capture.len = 0;
	capture.buf[0] = 0;
	err = caps_enter(t, &saved);
	if (err)
		return err;
	load_object(ctx, t, out);
	err = caps_put(&saved);
	if (!err && (!out->stage || !out->error))
		err = -ENOMEM;
	return err;
}
