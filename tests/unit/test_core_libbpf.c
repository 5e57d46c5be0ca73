/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbpf (1.1, the system's) as the oracle for CO-RE. For each program we
 * let libbpf relocate it against the same target BTF (btf_custom_path)
 * and load it into the running kernel; whether the kernel accepts it does
 * not matter: bpf_program__insns() returns what libbpf relocated, the
 * instructions it handed to the kernel. bpfvet must then
 *  - fail the program exactly when libbpf's CO-RE step failed, and
 *  - leave at every CO-RE site the instruction libbpf left.
 * (Reading back xlated instructions would not do: the kernel rewrites
 * many of them.) Pairs: tests/progs/core_crafted.o with core_target.c's
 * BTF, core_kernel.o and loader_core.o with the recorded target's BTF
 * (target.h), never the running kernel's, and, when the corpus is built,
 * every selftest test_core_reloc_*.bpf.o with the btf__core_reloc_*.bpf.o
 * files made for it and with the target. With BPFVET_CORE_ORACLE_ALL=1,
 * also every object of the corpus and of build/realworld against the
 * target (slow: minutes).
 *
 * libbpf creates maps and probes the kernel before it relocates, so this
 * needs a process that may load BPF (asked of the kernel with bpf(), not
 * through either loader); it skips otherwise.
 */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "core_target.h"
#include "live.h"
#include "loader_util.h"
#include "target.h"

#define CORPUS "build/corpus/progs"

struct tally {
	int programs;	/* compared */
	int sites;	/* CO-RE instructions compared */
	int failures;	/* programs both refused */
	int skipped;	/* libbpf did not get to relocate */
};

/* libbpf's messages of the current load (the callback has no context). */
static char liblog[1 << 16];
static size_t liblog_len;

static int capture(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	int n;

	(void)level;
	if (liblog_len >= sizeof(liblog) - 1)
		return 0;
	n = vsnprintf(liblog + liblog_len, sizeof(liblog) - liblog_len, fmt, ap);
	if (n > 0)
		liblog_len += (size_t)n < sizeof(liblog) - liblog_len ?
			      (size_t)n : sizeof(liblog) - liblog_len - 1;
	return 0;
}

static bool core_site(const struct bpfvet_program *p, size_t i)
{
	size_t r;

	for (r = 0; r < p->core_relo_cnt; r++) {
		const struct bpfvet_insn *in = &p->insns[p->core_relos[r].insn_off];

		if (p->core_relos[r].insn_off == i)
			return true;
		/* the second half of an LD_IMM64 (or of its poisoned form) */
		if (p->core_relos[r].insn_off + 1 == i &&
		    (in->code == 0x18 || (in->code == 0x85 && in->imm == 0xbad2310 &&
					  p->insns[i].code == 0x85)))
			return true;
	}
	return false;
}

static bool ours_failed(const struct bpfvet_program *vp)
{
	return vp->problem && strstr(vp->problem, "CO-RE relocation");
}

/* 1: libbpf's CO-RE step failed, 0: it succeeded (the program reached
 * the kernel), -1: libbpf stopped before relocating. */
static int libbpf_outcome(int err, const char *prog)
{
	char reached[256];

	if (strstr(liblog, "failed to relocate") || strstr(liblog, "failed to patch"))
		return 1;
	snprintf(reached, sizeof(reached), "prog '%s': failed to load", prog);
	if (!err || strstr(liblog, reached))
		return 0;
	return -1;
}

static void compare_insns(struct test_ctx *t, const char *what, struct bpf_program *lp,
			  const struct bpfvet_program *vp, struct tally *tl)
{
	const struct bpf_insn *li = bpf_program__insns(lp);
	size_t n = bpf_program__insn_cnt(lp), i;

	CHECK_MSG(t, n == vp->insn_cnt, "%s: libbpf has %zu insns, we %zu", what, n,
		  vp->insn_cnt);
	for (i = 0; i < n && i < vp->insn_cnt; i++) {
		if (!core_site(vp, i))
			continue;
		tl->sites++;
		CHECK_MSG(t, !memcmp(&li[i], &vp->insns[i], sizeof(li[i])),
			  "%s: insn %zu: libbpf %02x %u %u %d %d, bpfvet %02x %u %u %d %d",
			  what, i, li[i].code, li[i].dst_reg, li[i].src_reg, li[i].off, li[i].imm,
			  vp->insns[i].code, vp->insns[i].dst_reg, vp->insns[i].src_reg,
			  vp->insns[i].off, vp->insns[i].imm);
	}
}

/* Loads only program vp of the object with libbpf and compares. */
static void check_prog(struct test_ctx *t, const char *path, const char *btf,
		       const struct bpfvet_program *vp, struct tally *tl)
{
	LIBBPF_OPTS(bpf_object_open_opts, oo, .btf_custom_path = btf);
	struct bpf_object *lo = bpf_object__open_file(path, &oo);
	struct bpf_program *lp, *target = NULL;
	char what[512];
	int err, lib;

	snprintf(what, sizeof(what), "%s/%s against %s", path, vp->name, btf);
	if (!lo) {
		tl->skipped++;
		return;
	}
	bpf_object__for_each_program(lp, lo) {
		bool me = !strcmp(bpf_program__name(lp), vp->name);

		bpf_program__set_autoload(lp, me);
		if (me)
			target = lp;
	}
	liblog_len = 0;
	liblog[0] = '\0';
	err = target ? bpf_object__load(lo) : -ENOENT;
	lib = target ? libbpf_outcome(err, vp->name) : -1;
	if (lib < 0) {
		tl->skipped++;
	} else if (lib || ours_failed(vp)) {
		CHECK_MSG(t, lib == ours_failed(vp), "%s: libbpf %s, bpfvet %s", what,
			  lib ? "failed" : "relocated", vp->problem ? vp->problem : "relocated");
		tl->failures++;
	} else {
		compare_insns(t, what, target, vp, tl);
		tl->programs++;
	}
	bpf_object__close(lo);
}

static void check_pair(struct test_ctx *t, const char *path, const char *btf,
		       struct tally *tl)
{
	char err[256] = "";
	struct bpfvet_open_opts o = {
		.sz = sizeof(o), .errbuf = err, .errbuf_sz = sizeof(err),
		.lenient = true, .btf_custom_path = btf,
	};
	struct bpfvet_object *obj = NULL;
	size_t i;
	int rc;

	rc = bpfvet_object__open(path, &o, &obj);
	CHECK_MSG(t, rc == 0, "open %s against %s: %d %s", path, btf, rc, err);
	if (rc)
		return;
	for (i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		const struct bpfvet_program *vp = bpfvet_object__prog(obj, i);

		if (vp->core_relo_cnt && !(vp->problem && !ours_failed(vp)))
			check_prog(t, path, btf, vp, tl);
	}
	bpfvet_object__close(obj);
}

static bool has_prefix(const char *s, const char *p)
{
	return !strncmp(s, p, strlen(p));
}

/* btf__core_reloc_<case>[___<variant>].bpf.o goes with
 * test_core_reloc_<case>[_<more>].bpf.o. */
static bool goes_with(const char *btf_file, const char *obj_file)
{
	const char *c = btf_file + strlen("btf__core_reloc_");
	const char *o = obj_file + strlen("test_core_reloc_");
	size_t n = strcspn(c, ".");
	const char *flavor = strstr(c, "___");

	if (flavor && (size_t)(flavor - c) < n)
		n = (size_t)(flavor - c);
	return !strncmp(c, o, n) && (o[n] == '.' || o[n] == '_');
}

static int corpus_files_in(const char *dir, const char *prefix, char ***out)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **v = NULL;
	int n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char **nv;

		if (!has_prefix(e->d_name, prefix) || !strstr(e->d_name, ".o"))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n] = strdup(e->d_name);
		if (v[n])
			n++;
	}
	closedir(d);
	*out = v;
	return n;
}

static int corpus_files(const char *prefix, char ***out)
{
	return corpus_files_in(CORPUS, prefix, out);
}

static void free_files(char **v, int n)
{
	for (int i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void check_corpus(struct test_ctx *t, struct tally *tl)
{
	char **objs = NULL, **btfs = NULL, a[512], b[512];
	int no = corpus_files("test_core_reloc_", &objs);
	int nb = corpus_files("btf__core_reloc_", &btfs);

	if (!no)
		printf("  no %s/test_core_reloc_*.o (scripts/build-corpus.sh): only "
		       "tests/progs compared\n", CORPUS);

	for (int i = 0; i < no; i++) {
		snprintf(a, sizeof(a), "%s/%s", CORPUS, objs[i]);
		check_pair(t, a, TARGET_BTF, tl);
		for (int j = 0; j < nb; j++) {
			if (!goes_with(btfs[j], objs[i]))
				continue;
			snprintf(b, sizeof(b), "%s/%s", CORPUS, btfs[j]);
			check_pair(t, a, b, tl);
		}
	}
	free_files(objs, no);
	free_files(btfs, nb);
}

static void check_everything(struct test_ctx *t, struct tally *tl)
{
	static const char *const dirs[] = {
		CORPUS, "build/corpus/verifier", "build/realworld",
	};
	char path[512];

	for (size_t d = 0; d < sizeof(dirs) / sizeof(dirs[0]); d++) {
		char **v = NULL;
		int n = corpus_files_in(dirs[d], "", &v);

		for (int i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "%s/%s", dirs[d], v[i]);
			check_pair(t, path, TARGET_BTF, tl);
		}
		free_files(v, n);
	}
}

int main(void)
{
	struct test_ctx t = { 0 };
	struct tally tl = { 0 };
	char dir[] = "/tmp/bpfvet-core-XXXXXX", target[256], path[256], why[256];

	t.name = "test_core_libbpf";
	if (access(TARGET_BTF, R_OK)) {
		printf("FAIL test_core_libbpf: %s: %s (make target unpacks it)\n",
		       TARGET_BTF, strerror(errno));
		return 1;
	}
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named(t.name, "%s", why);
		return 0;
	}
	if (!mkdtemp(dir) || core_target_write(dir, target, sizeof(target))) {
		printf("FAIL test_core_libbpf: cannot write the target BTF\n");
		return 1;
	}
	libbpf_set_print(capture);
	check_pair(&t, test_prog_path(path, sizeof(path), "core_crafted"), target, &tl);
	check_pair(&t, test_prog_path(path, sizeof(path), "core_kernel"), TARGET_BTF, &tl);
	check_pair(&t, test_prog_path(path, sizeof(path), "loader_core"), TARGET_BTF, &tl);
	check_corpus(&t, &tl);
	if (getenv("BPFVET_CORE_ORACLE_ALL"))
		check_everything(&t, &tl);
	unlink(target);
	rmdir(dir);
	if (t.failures) {
		t.failed++;
	} else if (!tl.programs) {
		test_skip_named(t.name, "libbpf relocated none of the programs here "
				"(%d stopped before relocating)", tl.skipped);
		t.skipped++;
	} else {
		printf("PASS test_core_libbpf (%d programs, %d CO-RE instructions equal, "
		       "%d refused by both, %d not relocated by libbpf)\n",
		       tl.programs, tl.sites, tl.failures, tl.skipped);
		t.passed++;
	}
	return test_finish(&t);
}
