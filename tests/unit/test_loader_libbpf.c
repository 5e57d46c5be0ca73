/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbpf as the oracle: every program that libbpf (1.1, the system's) can
 * load into the running kernel must have exactly the instructions bpfvet
 * produced, once map fds are read as map indexes and kernel BTF ids as
 * extern indexes, and the kernel must report the same numbers of
 * func_info and line_info records. libbpf only gets that far by loading
 * into the kernel, so this runs in the normal run when this process may
 * load BPF (asked of the kernel with bpf(), not through either loader)
 * and skips otherwise. Which programs libbpf loads depends on the kernel
 * and on libbpf's age (fentry needs trampolines, libbpf 1.1 knows no tcx
 * sections...): those it cannot load are listed, not compared.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "live.h"
#include "loader_util.h"

struct tally {
	int compared;
	int skipped;
};

static int map_index(struct bpf_object *lo, int fd)
{
	struct bpf_map *m;
	int i = 0;

	bpf_object__for_each_map(m, lo) {
		if (bpf_map__fd(m) == fd)
			return i;
		i++;
	}
	return -1;
}

/* libbpf's instruction rewritten into bpfvet's conventions. */
static struct bpf_insn normalise(struct bpf_object *lo, const struct bpf_insn *li,
				 const struct bpfvet_insn *vi)
{
	struct bpf_insn a = *li;

	if (a.code == (BPF_LD | BPF_IMM | BPF_DW) &&
	    (a.src_reg == BPF_PSEUDO_MAP_FD || a.src_reg == BPF_PSEUDO_MAP_VALUE))
		a.imm = map_index(lo, a.imm);
	/* Kernel BTF ids against our extern indexes. */
	if ((a.code == (BPF_JMP | BPF_CALL) && a.src_reg == BPF_PSEUDO_KFUNC_CALL) ||
	    (a.code == (BPF_LD | BPF_IMM | BPF_DW) && a.src_reg == BPF_PSEUDO_BTF_ID)) {
		a.imm = vi->imm;
		a.off = vi->off;
	}
	return a;
}

static bool core_site(const struct bpfvet_program *p, size_t i)
{
	size_t r;

	for (r = 0; r < p->core_relo_cnt; r++)
		if (p->core_relos[r].insn_off == i || p->core_relos[r].insn_off + 1 == i)
			return true;
	return false;
}

static void compare(struct test_ctx *t, struct bpf_object *lo, struct bpf_program *lp,
		    const struct bpfvet_program *vp)
{
	const struct bpf_insn *li = bpf_program__insns(lp);
	size_t n = bpf_program__insn_cnt(lp), i;
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	CHECK_MSG(t, n == vp->insn_cnt, "%s: libbpf has %zu insns, we %zu", vp->name, n,
		  vp->insn_cnt);
	for (i = 0; i < n && i < vp->insn_cnt; i++) {
		struct bpf_insn a;

		/* A second LD_IMM64 half carries a kernel BTF object fd. */
		if (i && li[i - 1].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    li[i - 1].src_reg == BPF_PSEUDO_BTF_ID)
			continue;
		if (core_site(vp, i))	/* CO-RE is resolved against the kernel */
			continue;
		a = normalise(lo, &li[i], &vp->insns[i]);
		CHECK_MSG(t, !memcmp(&a, &vp->insns[i], sizeof(a)),
			  "%s: insn %zu: libbpf %02x %u %u %d %d, bpfvet %02x %u %u %d %d",
			  vp->name, i, a.code, a.dst_reg, a.src_reg, a.off, a.imm,
			  vp->insns[i].code, vp->insns[i].dst_reg, vp->insns[i].src_reg,
			  vp->insns[i].off, vp->insns[i].imm);
	}
	if (!bpf_obj_get_info_by_fd(bpf_program__fd(lp), &info, &len)) {
		CHECK_MSG(t, info.nr_func_info == vp->func_info_cnt, "%s: kernel has %u func_info, we %zu",
			  vp->name, info.nr_func_info, vp->func_info_cnt);
		CHECK_MSG(t, info.nr_line_info == vp->line_info_cnt, "%s: kernel has %u line_info, we %zu",
			  vp->name, info.nr_line_info, vp->line_info_cnt);
	}
	CHECK_MSG(t, bpf_program__type(lp) == vp->type, "%s: libbpf type %u, we %u", vp->name,
		  bpf_program__type(lp), vp->type);
}

/* Loads only program `name` of the object with libbpf. */
static void check_prog(struct test_ctx *t, const char *path, const struct bpfvet_program *vp,
		       struct tally *tl)
{
	struct bpf_object *lo = bpf_object__open(path);
	struct bpf_program *lp, *target = NULL;
	int err = lo ? -ENOENT : -errno;

	if (lo) {
		bpf_object__for_each_program(lp, lo) {
			bool me = !strcmp(bpf_program__name(lp), vp->name);

			bpf_program__set_autoload(lp, me);
			if (me)
				target = lp;
		}
	}
	if (target)
		err = bpf_object__load(lo);
	if (!err) {
		compare(t, lo, target, vp);
		tl->compared++;
	} else {
		printf("  not compared: %s/%s: libbpf cannot load it here (%s)\n", path,
		       vp->name, strerror(-err));
		tl->skipped++;
	}
	bpf_object__close(lo);
}

static void check_object(struct test_ctx *t, const char *name, struct tally *tl)
{
	struct bpfvet_object *obj = lu_open(t, name, NULL);
	char path[256];
	size_t i;

	if (!obj)
		return;
	test_prog_path(path, sizeof(path), name);
	for (i = 0; i < bpfvet_object__prog_cnt(obj); i++)
		check_prog(t, path, bpfvet_object__prog(obj, i), tl);
	bpfvet_object__close(obj);
}

int main(void)
{
	static const char *const objs[] = {
		"loader_maps", "loader_relocs", "loader_sections", "loader_core",
		"loader_textonly",
	};
	struct test_ctx t = { 0 };
	struct tally tl = { 0 };
	char why[256];
	size_t i;

	lu_quiet_libbpf();
	t.name = "test_libbpf_oracle";
	if (!live_bpf_usable(why, sizeof(why))) {
		test_skip_named(t.name, "%s", why);
		return 0;
	}
	for (i = 0; i < sizeof(objs) / sizeof(objs[0]); i++)
		check_object(&t, objs[i], &tl);
	if (t.failures) {
		t.failed++;
	} else if (!tl.compared) {
		test_skip_named(t.name, "libbpf could load none of the %d programs here",
				tl.skipped);
		t.skipped++;
	} else {
		printf("PASS test_libbpf_oracle (%d programs compared, %d not loadable)\n",
		       tl.compared, tl.skipped);
		t.passed++;
	}
	return test_finish(&t);
}
