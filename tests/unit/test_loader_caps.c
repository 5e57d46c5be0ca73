/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_open_opts.loader_drop_caps, one capability at a time: what the
 * CLI's --unpriv (all four) and --privileged-maps (none) do not show.
 * Without CAP_BPF alone the object's BTF stays out of the kernel but the
 * maps are made by a process that may bypass Spectre v1; without
 * CAP_PERFMON alone the BTF is loaded and the maps are hardened, so the
 * tail call over two prog arrays is refused even to a privileged program
 * (the kernel's do_misc_fixups looks at the map, not at the program).
 * The fully unprivileged and privileged-maps verdicts of the same
 * programs are the live kernel's (tests/cli/unpriv.sh).
 */
#include <errno.h>
#include <string.h>

#include "loader_util.h"

#define ALL_CAPS (BPFVET_CAP_BPF | BPFVET_CAP_PERFMON | BPFVET_CAP_NET_ADMIN | \
		  BPFVET_CAP_SYS_ADMIN)

static struct bpfvet_object *open_as(struct test_ctx *t, const char *name, uint32_t drop)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .errbuf = err, .errbuf_sz = sizeof(err),
		.loader_drop_caps = drop,
	};
	struct bpfvet_object *obj = NULL;
	int rc;

	test_prog_path(path, sizeof(path), name);
	rc = bpfvet_object__open(path, &oo, &obj);
	CHECK_MSG(t, rc == 0, "open %s: %d (%s)", path, rc, err);
	return rc ? NULL : obj;
}

static void check_verdict(struct test_ctx *t, const struct bpfvet_object *obj, const char *name,
			  uint32_t drop, int err, const char *msg)
{
	struct bpfvet_verify_opts vo = { .sz = sizeof(vo), .drop_caps = drop };
	struct bpfvet_result res = { .sz = sizeof(res) };
	const struct bpfvet_program *p = lu_prog(t, obj, name);

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__verify(p, &vo, &res), 0);
	CHECK_INT(t, res.err, err);
	CHECK_STR(t, res.error, msg);
}

static void test_no_bpf(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_as(t, "unpriv_loader", BPFVET_CAP_BPF);
	const struct bpfvet_program *p;

	if (!obj)
		return;
	CHECK(t, obj->btf_unloaded);
	CHECK(t, !obj->maps_unpriv);
	p = lu_prog(t, obj, "lock_count");
	if (p) {
		CHECK_INT(t, p->func_info_cnt, 0);
		CHECK_INT(t, p->line_info_cnt, 0);
		CHECK(t, !p->subprogs[0].global && !p->subprogs[0].btf_func_id);
	}
	check_verdict(t, obj, "lock_count", ALL_CAPS, -EINVAL,
		      "program of this type cannot use helper bpf_spin_lock#93");
	check_verdict(t, obj, "tail_two_arrays", ALL_CAPS, 0, "");
	p = lu_prog(t, obj, "lru_read");
	if (p)
		CHECK_STR(t, bpfvet_program__problem(p),
			  "map 'recent': failed to create: Operation not permitted (-1)");
	bpfvet_object__close(obj);
}

static void test_no_perfmon(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_as(t, "unpriv_loader", BPFVET_CAP_PERFMON);
	const struct bpfvet_program *p;

	if (!obj)
		return;
	CHECK(t, !obj->btf_unloaded);
	CHECK(t, obj->maps_unpriv);
	p = lu_prog(t, obj, "lock_count");
	CHECK(t, p && p->func_info_cnt > 0);
	check_verdict(t, obj, "lock_count", ALL_CAPS, -EACCES,
		      "R6 pointer arithmetic of map value goes out of range, prohibited for !root");
	check_verdict(t, obj, "tail_two_arrays", 0, -EINVAL, "tail_call abusing map_ptr");
	check_verdict(t, obj, "tail_one_array", 0, 0, "");
	p = lu_prog(t, obj, "lru_read");
	CHECK(t, p && !bpfvet_program__problem(p));
	bpfvet_object__close(obj);
}

/* The struct_ops object needs its BTF: every program is refused, with
 * one warning for the object. */
static void test_struct_ops(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_as(t, "struct_ops", BPFVET_CAP_BPF);
	const char *msg = "Error loading .BTF into kernel: -95. BTF is mandatory, can't proceed.";

	if (!obj)
		return;
	CHECK_INT(t, bpfvet_object__warning_cnt(obj), 1);
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		const char *why = bpfvet_program__problem(bpfvet_object__prog(obj, i));

		CHECK_STR(t, why ? why : "", msg);
	}
	bpfvet_object__close(obj);
}

int main(void)
{
	struct test_ctx t = { 0 };

	lu_quiet_libbpf();
	RUN(&t, test_no_bpf);
	RUN(&t, test_no_perfmon);
	RUN(&t, test_struct_ops);
	return test_finish(&t);
}
