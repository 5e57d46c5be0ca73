/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_program__kernel_load(): one program into the running kernel, as
 * libbpf would load it, and back out. The steps are in libbpf's order:
 * program type, externs, struct_ops role, the object's BTF, maps and
 * global data, attach target, then BPF_PROG_LOAD with the BTF, func_info,
 * line_info, CO-RE relocations, flags, license and kern_version.
 *
 * CO-RE: an object opened with a target BTF has its instructions
 * relocated already, as libbpf relocates them before loading: they go as
 * they are. Otherwise we hand the relocation records to the kernel
 * (core_relos in BPF_PROG_LOAD), which applies them against its own BTF
 * with the same algorithm libbpf uses (relo_core.c is shared between the
 * two). The kernel notes each relocation in the log; kernel_stats.c
 * knows those lines apart from the verifier's.
 *
 * BTF: libbpf loads it quietly and carries on without it when the kernel
 * refuses it, unless something needs it (CO-RE, struct_ops); so do we.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kernel_load.h"
#include "kernel_sys.h"
#include "base/uapi.h"

#define LOG_STATS_SIZE	(1u << 20)	/* level 4 only: messages and stats */
#define LOG_FULL_SIZE	(16u << 20)	/* level 1 or 2 */
#define LOG_MAX_SIZE	(UINT32_MAX >> 2)	/* the kernel's limit */
#define BTF_LOG_SIZE	(64u << 10)
#define CORE_RELO_SIZE	16		/* sizeof(struct bpf_core_relo) */
#define FUNC_INFO_SIZE	8		/* sizeof(struct bpf_func_info) */
#define LINE_INFO_SIZE	16		/* sizeof(struct bpf_line_info) */

int kload_refuse(struct kload *kl, int err, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (!kl->setup_err)
		kl->setup_err = err;
	return errbuf_set(kl->eb, err, "%s", msg);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Options from a caller built against another version of bpfvet.h:
 * unknown trailing bytes must be zero; missing fields read as zero. */
static int copy_opts(const struct bpfvet_kernel_opts *in, struct bpfvet_kernel_opts *out)
{
	size_t sz;

	memset(out, 0, sizeof(*out));
	if (!in)
		return 0;
	if (in->sz < sizeof(size_t))
		return -EINVAL;
	for (size_t i = sizeof(*out); i < in->sz; i++)
		if (((const char *)in)[i])
			return -EINVAL;
	sz = in->sz < sizeof(*out) ? in->sz : sizeof(*out);
	memcpy(out, in, sz);
	return 0;
}

/* ------------------------------------------------------------------ */
/* BTF                                                                 */
/* ------------------------------------------------------------------ */

static bool kernel_applies_core(const struct bpfvet_program *prog);

/* libbpf goes on without the object's BTF unless the kernel is to apply
 * CO-RE (no target BTF in userspace) or struct_ops need it. */
static bool btf_required(const struct bpfvet_program *prog)
{
	return kernel_applies_core(prog) || prog->type == BPF_PROG_TYPE_STRUCT_OPS;
}

static const char *last_line(char *log)
{
	char *end = log + strlen(log);

	while (end > log && end[-1] == '\n')
		*--end = '\0';
	while (end > log && end[-1] != '\n')
		end--;
	return end;
}

static int load_btf(struct kload *kl)
{
	const struct bpfvet_object *obj = kl->prog->obj;
	char *log;

	if (!obj || !obj->btf_data || !obj->btf_size)
		return btf_required(kl->prog) ?
		       kload_refuse(kl, -ENOENT, "prog '%s': needs BTF, the object has none",
				    kl->prog->name) : 0;
	log = calloc(1, BTF_LOG_SIZE);
	if (!log)
		return -ENOMEM;
	log[0] = '\0';
	kl->btf_fd = ksys_btf_load(obj->btf_data, obj->btf_size, log, BTF_LOG_SIZE);
	if (kl->btf_fd < 0 && btf_required(kl->prog)) {
		int err = kl->btf_fd;

		kload_refuse(kl, err, "Error loading .BTF into kernel: %s%s%s", strerror(-err),
			     log[0] ? ": " : "", last_line(log));
		free(log);
		return err;
	}
	free(log);
	if (kl->btf_fd < 0)
		kl->btf_fd = -1;	/* optional: load without it, as libbpf */
	return 0;
}

/* ------------------------------------------------------------------ */
/* BPF_PROG_LOAD                                                       */
/* ------------------------------------------------------------------ */

struct load_bufs {
	struct bpfvet_core_relo *core;	/* insn_off in bytes */
	char *log;
	size_t log_size;
};

/* CO-RE records for the kernel to apply: none when the loader applied
 * them already (the kernel would find relocated offsets and refuse). */
static bool kernel_applies_core(const struct bpfvet_program *prog)
{
	return prog->core_relo_cnt && !(prog->obj && prog->obj->targ_btf);
}

static int prepare_core(const struct bpfvet_program *prog, struct load_bufs *b)
{
	if (!kernel_applies_core(prog))
		return 0;
	b->core = malloc(prog->core_relo_cnt * sizeof(*b->core));
	if (!b->core)
		return -ENOMEM;
	for (size_t i = 0; i < prog->core_relo_cnt; i++) {
		b->core[i] = prog->core_relos[i];
		b->core[i].insn_off *= 8;
	}
	return 0;
}

static const char *license_of(const struct bpfvet_program *prog)
{
	if (prog->obj)
		return prog->obj->license ? prog->obj->license : "";
	return prog->raw_license ? prog->raw_license : "GPL";
}

static void fill_attr(const struct kload *kl, const struct bpfvet_kernel_opts *o,
		      const struct load_bufs *b, struct ksys_prog_load *attr)
{
	const struct bpfvet_program *prog = kl->prog;
	uint32_t kver = prog->obj ? prog->obj->kversion : 0;

	memset(attr, 0, sizeof(*attr));
	attr->prog_type = prog->type;
	attr->expected_attach_type = kl->expected_attach_type;
	attr->insn_cnt = (uint32_t)kl->insn_cnt;
	attr->insns = ksys_ptr(kl->insns);
	attr->license = ksys_ptr(license_of(prog));
	attr->kern_version = kver ? kver : kfacts_version(kl->k);
	attr->prog_flags = prog->prog_flags | o->prog_flags;
	strncpy(attr->prog_name, prog->name ? prog->name : "", KSYS_OBJ_NAME_LEN - 1);
	attr->attach_btf_id = kl->attach_btf_id;
	attr->log_level = (o->log_level & (BPFVET_LOG_LEVEL1 | BPFVET_LOG_LEVEL2)) |
			  BPFVET_LOG_STATS;
	if (kl->btf_fd >= 0) {
		attr->prog_btf_fd = (uint32_t)kl->btf_fd;
		if (prog->func_info_cnt) {
			attr->func_info_rec_size = FUNC_INFO_SIZE;
			attr->func_info = ksys_ptr(prog->func_info);
			attr->func_info_cnt = (uint32_t)prog->func_info_cnt;
		}
		if (prog->line_info_cnt) {
			attr->line_info_rec_size = LINE_INFO_SIZE;
			attr->line_info = ksys_ptr(prog->line_info);
			attr->line_info_cnt = (uint32_t)prog->line_info_cnt;
		}
		if (kernel_applies_core(prog)) {
			attr->core_relo_rec_size = CORE_RELO_SIZE;
			attr->core_relos = ksys_ptr(b->core);
			attr->core_relo_cnt = (uint32_t)prog->core_relo_cnt;
		}
	}
}

static int load_once(struct kload *kl, const struct bpfvet_kernel_opts *o,
		     struct load_bufs *b, struct bpfvet_kernel_result *res,
		     uint32_t *true_size)
{
	struct ksys_prog_load attr;
	struct ksys_caps caps;
	uint64_t t0;
	int fd, err;

	fill_attr(kl, o, b, &attr);
	b->log[0] = '\0';
	attr.log_buf = ksys_ptr(b->log);
	attr.log_size = (uint32_t)b->log_size;
	err = ksys_caps_drop(o->drop_caps, &caps);
	if (err)
		return kload_refuse(kl, err, "cannot drop capabilities: %s", strerror(-err));
	t0 = now_ns();
	fd = ksys_prog_load(&attr);
	res->load_ns = now_ns() - t0;
	err = ksys_caps_restore(&caps);
	if (fd >= 0)
		close(fd);
	if (err)
		return kload_refuse(kl, err, "cannot restore capabilities: %s", strerror(-err));
	b->log[b->log_size - 1] = '\0';
	*true_size = attr.log_true_size;
	return fd >= 0 ? 0 : fd;
}

static size_t first_log_size(const struct bpfvet_kernel_opts *o)
{
	size_t sz = o->log_size;

	if (!sz)
		sz = o->log_level & (BPFVET_LOG_LEVEL1 | BPFVET_LOG_LEVEL2) ?
		     LOG_FULL_SIZE : LOG_STATS_SIZE;
	if (sz < 128)
		sz = 128;
	return sz > LOG_MAX_SIZE ? LOG_MAX_SIZE : sz;
}

/* Returns the load's errno (0: accepted), or a setup failure through
 * kl->setup_err. A log the buffer cannot hold makes the kernel fail the
 * load with ENOSPC whatever the verdict: we retry with the size it
 * reports, plus room for a log that comes out a little longer the second
 * time (the verification time, in microseconds, may gain digits). */
static int load_prog(struct kload *kl, const struct bpfvet_kernel_opts *o,
		     struct load_bufs *b, struct bpfvet_kernel_result *res)
{
	uint32_t true_size = 0;
	int err;

	err = prepare_core(kl->prog, b);
	if (err)
		return err;
	for (int attempt = 0; attempt < 3; attempt++) {
		free(b->log);
		b->log_size = attempt ? true_size + true_size / 8 + 4096 : first_log_size(o);
		if (b->log_size > LOG_MAX_SIZE)
			b->log_size = LOG_MAX_SIZE;
		/* calloc: large buffers come zeroed from mmap for free, and
		 * memory checkers cannot see what the kernel writes. */
		b->log = calloc(1, b->log_size);
		if (!b->log)
			return -ENOMEM;
		err = load_once(kl, o, b, res, &true_size);
		if (err != -ENOSPC || kl->setup_err || true_size <= b->log_size ||
		    true_size > LOG_MAX_SIZE)
			break;
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* Verdict                                                             */
/* ------------------------------------------------------------------ */

static void refused_by_kernel(struct bpfvet_kernel_result *res, int err)
{
	res->verdict = BPFVET_KERNEL_REFUSED;
	res->stage = BPFVET_STAGE_KERNEL;
	snprintf(res->error, sizeof(res->error), "%s",
		 err == -ENOTSUPP_KERNEL ? "Operation is not supported" : strerror(-err));
}

static void judge(int err, const char *log, struct bpfvet_kernel_result *res)
{
	char line[200];
	bool msg;

	res->err = err;
	res->have_stats = kstats_parse(log, res);
	if (!err) {
		res->verdict = BPFVET_KERNEL_ACCEPTED;
		res->stage = BPFVET_STAGE_VERIFIER;
		return;
	}
	if (!kstats_verifier_ran(log)) {
		refused_by_kernel(res, err);
		return;
	}
	msg = kstats_error_line(log, res->error, sizeof(res->error));
	if (!msg && !res->insns_processed) {
		/* The kernel stopped before the first instruction without
		 * saying why (EPERM for iterators here, ENOTSUPP for an
		 * unattached struct_ops program), or failed one of the CO-RE
		 * relocations we handed it, which libbpf would have failed
		 * before loading. Neither is a verdict on the program. */
		if (kstats_core_error(log, line, sizeof(line))) {
			res->verdict = BPFVET_KERNEL_REFUSED;
			res->stage = BPFVET_STAGE_SETUP;
			snprintf(res->error, sizeof(res->error), "CO-RE relocation failed: %s", line);
			return;
		}
		refused_by_kernel(res, err);
		return;
	}
	res->verdict = BPFVET_KERNEL_REJECTED;
	res->stage = BPFVET_STAGE_VERIFIER;
	if (!msg)
		res->error[0] = '\0';
}

/* ------------------------------------------------------------------ */
/* Entry point                                                         */
/* ------------------------------------------------------------------ */

/* The object's BTF and maps, created with the capabilities of the
 * process that loads the object (bpfvet_open_opts.loader_drop_caps):
 * without CAP_BPF the kernel refuses the BTF, without CAP_PERFMON it
 * hardens the maps against Spectre v1. */
static int load_as_loader(struct kload *kl)
{
	uint32_t drop = kl->prog->obj ? kl->prog->obj->loader_drop_caps : 0;
	struct ksys_caps caps;
	int err, rerr;

	err = ksys_caps_drop(drop, &caps);
	if (err)
		return kload_refuse(kl, err, "cannot drop capabilities: %s", strerror(-err));
	err = load_btf(kl);
	if (!err)
		err = kmaps_create(kl);
	rerr = ksys_caps_restore(&caps);
	if (rerr && !err)
		return kload_refuse(kl, rerr, "cannot restore capabilities: %s", strerror(-rerr));
	return err;
}

static int prepare(struct kload *kl)
{
	const struct bpfvet_program *prog = kl->prog;
	int err;

	/* The object's own loader would not load it either: the kernel is
	 * never asked, as bpfvet's verdict is "refused" for the same reason. */
	if (prog->problem)
		return kload_refuse(kl, prog->problem_err ? prog->problem_err : -ENOEXEC, "%s",
				    prog->problem);
	if (!prog->type_known || prog->type == BPF_PROG_TYPE_UNSPEC)
		return kload_refuse(kl, -EINVAL,
				    "prog '%s': missing BPF prog type, check ELF section name '%s'",
				    prog->name, prog->sec_name ? prog->sec_name : "");
	kl->insns = malloc((prog->insn_cnt ? prog->insn_cnt : 1) * sizeof(*kl->insns));
	if (!kl->insns)
		return -ENOMEM;
	memcpy(kl->insns, prog->insns, prog->insn_cnt * sizeof(*kl->insns));
	kl->insn_cnt = prog->insn_cnt;
	err = kext_patch(kl);
	if (!err)
		err = kattach_resolve(kl);
	if (!err)
		err = load_as_loader(kl);
	return err;
}

static void kload_free(struct kload *kl)
{
	kmaps_close(kl);
	if (kl->btf_fd >= 0)
		close(kl->btf_fd);
	free(kl->insns);
}

static void deliver_log(const struct bpfvet_kernel_opts *o, const char *log)
{
	if (o->log_fn && log && log[0])
		o->log_fn(o->log_ctx, log, strlen(log));
}

static int run(struct kload *kl, const struct bpfvet_kernel_opts *o,
	       struct bpfvet_kernel_result *res)
{
	struct load_bufs b = { 0 };
	int err;

	err = prepare(kl);
	if (!err && !kl->setup_err)
		err = load_prog(kl, o, &b, res);
	if (kl->setup_err) {
		res->verdict = BPFVET_KERNEL_REFUSED;
		res->stage = BPFVET_STAGE_SETUP;
		res->err = kl->setup_err;
		err = 0;
	} else if (err && !b.log) {
		/* Our own failure (no memory) before the kernel answered:
		 * the call could not run, there is no verdict. */
	} else {
		judge(err, b.log ? b.log : "", res);
		deliver_log(o, b.log);
		err = 0;
	}
	free(b.core);
	free(b.log);
	return err;
}

int bpfvet_program__kernel_load(const struct bpfvet_program *prog,
				const struct bpfvet_kernel_opts *opts,
				struct bpfvet_kernel_result *res)
{
	struct bpfvet_kernel_result out;
	struct bpfvet_kernel_opts o;
	struct bpfvet_kernel *tmp = NULL;
	struct errbuf eb;
	struct kload kl;
	size_t res_sz;
	int err;

	if (!prog || !res || res->sz < offsetof(struct bpfvet_kernel_result, have_stats) ||
	    copy_opts(opts, &o))
		return -EINVAL;
	res_sz = res->sz < sizeof(out) ? res->sz : sizeof(out);
	memset(&out, 0, sizeof(out));
	out.sz = res->sz;
	if (!o.kernel) {
		err = bpfvet_kernel__new(&tmp);
		if (err)
			return err;
		o.kernel = tmp;
	}
	memset(&kl, 0, sizeof(kl));
	kl.prog = prog;
	kl.k = o.kernel;
	kl.btf_fd = -1;
	kl.maps = prog_maps(prog, &kl.map_cnt);
	kl.eb = &eb;
	errbuf_init(&eb, out.error, sizeof(out.error));
	err = run(&kl, &o, &out);
	kload_free(&kl);
	bpfvet_kernel__free(tmp);
	if (err)
		return err;
	memcpy(res, &out, res_sz);
	return 0;
}
