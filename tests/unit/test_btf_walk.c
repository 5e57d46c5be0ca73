/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BTF tracing without a kernel: a made-up target BTF (built here with
 * libbpf's BTF writer) describes a tracepoint `fake` whose argument points
 * to a struct with every kind of member; the programs of
 * tests/progs/btf_walk.c read through it. Also the BTF helpers of
 * btf_kern.c: kind names, modifiers, flattened arrays, attach targets.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "bpfvet.h"
#include "base/btf_kern.h"
#include "test.h"
#include "base/uapi.h"

/* Ids of the types built by make_target(), for the helper tests. */
struct target_ids {
	int u32, inner, inner_ptr, arr2x2, fake, proto, tp_typedef, func;
};

static int add_fields(struct btf *b, const struct target_ids *ids, int un, int buf, int flex)
{
	int err = 0;

	err = err ?: btf__add_field(b, "x", 1, 0, 0);
	err = err ?: btf__add_field(b, "bf1", ids->u32, 32, 3);
	err = err ?: btf__add_field(b, "bf2", ids->u32, 35, 5);
	err = err ?: btf__add_field(b, "in", ids->inner, 64, 0);
	err = err ?: btf__add_field(b, "arr", ids->arr2x2, 128, 0);
	err = err ?: btf__add_field(b, "ptr", ids->inner_ptr, 384, 0);
	err = err ?: btf__add_field(b, "un", un, 448, 0);
	err = err ?: btf__add_field(b, "buf", buf, 512, 0);
	err = err ?: btf__add_field(b, "flex", flex, 576, 0);
	return err;
}

/* Tracepoint `loop` on struct loop { struct loop self; }: malformed. */
static int add_self_nested(struct btf *b, int voidp)
{
	int loop = btf__add_struct(b, "loop", 8), loopp, proto, err;

	/* Fields and parameters follow their struct or prototype. */
	err = btf__add_field(b, "self", loop, 0, 0);
	loopp = btf__add_ptr(b, loop);
	proto = btf__add_func_proto(b, 0);
	err = err ?: btf__add_func_param(b, "__data", voidp);
	err = err ?: btf__add_func_param(b, "l", loopp);
	return err ?: btf__add_typedef(b, "btf_trace_loop", btf__add_ptr(b, proto)) < 0;
}

/* The struct of tests/progs/btf_walk.c, the tracepoint, and a function. */
static struct btf *make_target(struct target_ids *ids)
{
	struct btf *b = btf__new_empty();
	int chr, lng, arr2, un, buf, flex, voidp, fakep, err = 0;

	if (!b)
		return NULL;
	btf__add_int(b, "int", 4, BTF_INT_SIGNED);			/* 1 */
	ids->u32 = btf__add_int(b, "unsigned int", 4, 0);
	chr = btf__add_int(b, "char", 1, BTF_INT_SIGNED);
	lng = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	ids->inner = btf__add_struct(b, "inner", 8);
	err = err ?: btf__add_field(b, "a", 1, 0, 0);
	err = err ?: btf__add_field(b, "b", 1, 32, 0);
	ids->inner_ptr = btf__add_ptr(b, ids->inner);
	arr2 = btf__add_array(b, 1, ids->inner, 2);
	ids->arr2x2 = btf__add_array(b, 1, arr2, 2);
	un = btf__add_union(b, NULL, 8);
	err = err ?: btf__add_field(b, "p", ids->inner_ptr, 0, 0);
	err = err ?: btf__add_field(b, "l", lng, 0, 0);
	buf = btf__add_array(b, 1, chr, 8);
	flex = btf__add_array(b, 1, ids->inner, 0);
	ids->fake = btf__add_struct(b, "fake", 72);
	err = err ?: add_fields(b, ids, un, buf, flex);
	voidp = btf__add_ptr(b, 0);
	fakep = btf__add_ptr(b, ids->fake);
	ids->proto = btf__add_func_proto(b, 0);
	err = err ?: btf__add_func_param(b, "__data", voidp);
	err = err ?: btf__add_func_param(b, "f", fakep);
	ids->tp_typedef = btf__add_typedef(b, "btf_trace_fake", btf__add_ptr(b, ids->proto));
	ids->func = btf__add_func(b, "do_fake", BTF_FUNC_GLOBAL, ids->proto);
	err = err ?: add_self_nested(b, voidp);
	if (err || ids->func < 0 || ids->tp_typedef < 0) {
		btf__free(b);
		return NULL;
	}
	return b;
}

static int write_target(const struct btf *b, char *path, size_t sz)
{
	uint32_t size;
	const void *data = btf__raw_data(b, &size);
	int fd;
	ssize_t n;

	snprintf(path, sz, "/tmp/bpfvet-btf-walk-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !data)
		return -1;
	n = write(fd, data, size);
	close(fd);
	return n == (ssize_t)size ? 0 : -1;
}

struct expect {
	const char *prog;
	enum bpfvet_verdict verdict;
	const char *error;	/* NULL: no message expected */
};

static const struct expect walks[] = {
	{ "w_int", BPFVET_ACCEPTED, NULL },
	{ "w_bitfield", BPFVET_ACCEPTED, NULL },
	{ "w_nested", BPFVET_ACCEPTED, NULL },
	{ "w_array", BPFVET_ACCEPTED, NULL },
	{ "w_ptr", BPFVET_ACCEPTED, NULL },
	{ "w_ptr_narrow", BPFVET_REJECTED,
	  "cannot access ptr member ptr with moff 48 in struct fake with off 48 size 4" },
	{ "w_union", BPFVET_ACCEPTED, NULL },
	{ "w_buf", BPFVET_ACCEPTED, NULL },
	{ "w_beyond", BPFVET_REJECTED, "access beyond struct fake at off 68 size 8" },
	{ "w_flex", BPFVET_ACCEPTED, NULL },
	{ "w_hole", BPFVET_REJECTED, "struct fake doesn't have field at offset 5" },
	{ "w_member_end", BPFVET_REJECTED,
	  "access beyond the end of member x (mend:4) in struct fake with off 0 size 8" },
	{ "w_self_nested", BPFVET_UNSUPPORTED, "bpfvet: unsupported: BTF types nested too deep" },
	/* Refused by the loader, in libbpf's words: verify says -ENOEXEC. */
	{ "w_no_target", BPFVET_UNSUPPORTED,
	  "prog 'w_no_target': failed to find kernel BTF type ID of 'no_such_tracepoint': -3" },
};

struct log_buf {
	char text[8192];
	size_t len;
};

static void collect(void *ctx, const char *text, size_t n)
{
	struct log_buf *l = ctx;

	if (l->len + n < sizeof(l->text)) {
		memcpy(l->text + l->len, text, n);
		l->len += n;
		l->text[l->len] = 0;
	}
}

static struct bpfvet_program *find_prog(struct bpfvet_object *obj, const char *name)
{
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (!strcmp(bpfvet_program__name(p), name))
			return p;
	}
	return NULL;
}

static void verify_one(struct test_ctx *t, struct bpfvet_object *obj, const struct expect *e,
		       struct log_buf *log)
{
	struct bpfvet_verify_opts vo = {
		.sz = sizeof(vo), .log_level = 2, .log_fn = collect, .log_ctx = log,
	};
	struct bpfvet_result res = { .sz = sizeof(res) };
	struct bpfvet_program *p = find_prog(obj, e->prog);

	log->len = 0;
	log->text[0] = 0;
	CHECK_MSG(t, p, "no program %s", e->prog);
	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__verify(p, &vo, &res),
		  bpfvet_program__problem(p) ? -ENOEXEC : 0);
	CHECK_MSG(t, res.verdict == e->verdict, "%s: verdict %d, want %d (%s)", e->prog,
		  res.verdict, e->verdict, res.error);
	if (e->error)
		CHECK_STR(t, res.error, e->error);
}

static struct bpfvet_object *open_walks(struct test_ctx *t, const char *btf_path)
{
	struct bpfvet_open_opts oo = { .sz = sizeof(oo), .btf_custom_path = btf_path };
	struct bpfvet_object *obj = NULL;
	char path[256];

	CHECK_INT(t, bpfvet_object__open(test_prog_path(path, sizeof(path), "btf_walk"), &oo, &obj),
		  0);
	return obj;
}

static void test_walks(struct test_ctx *t)
{
	struct target_ids ids;
	struct btf *b = make_target(&ids);
	struct bpfvet_object *obj;
	struct log_buf *log = calloc(1, sizeof(*log));
	char path[64], want_arg[64];

	CHECK(t, b && log);
	snprintf(want_arg, sizeof(want_arg), "func 'fake' arg0 has btf_id %d type STRUCT 'fake'",
		 ids.fake);
	if (!b || !log || write_target(b, path, sizeof(path))) {
		CHECK_MSG(t, false, "cannot write the target BTF");
		btf__free(b);
		free(log);
		return;
	}
	obj = open_walks(t, path);
	for (size_t i = 0; obj && i < sizeof(walks) / sizeof(walks[0]); i++) {
		verify_one(t, obj, &walks[i], log);
		/* The register types the walk gives, as the kernel prints them. */
		if (!strcmp(walks[i].prog, "w_ptr"))
			CHECK_MSG(t, strstr(log->text, "R3=untrusted_ptr_inner()"), "w_ptr log: %s",
				  log->text);
		if (!strcmp(walks[i].prog, "w_int"))
			CHECK_MSG(t, strstr(log->text, want_arg), "w_int log: %s", log->text);
	}
	bpfvet_object__close(obj);
	unlink(path);
	btf__free(b);
	free(log);
}

/* Without a target BTF nothing is refused: the context is unknown. */
static void test_no_target(struct test_ctx *t)
{
	struct bpfvet_object *obj = open_walks(t, NULL);
	struct log_buf *log = calloc(1, sizeof(*log));
	const struct expect e = { "w_int", BPFVET_UNSUPPORTED,
				  "bpfvet: unsupported: BTF-typed context without target BTF" };

	CHECK(t, log != NULL);
	if (obj && log)
		verify_one(t, obj, &e, log);
	bpfvet_object__close(obj);
	free(log);
}

static void test_kern_helpers(struct test_ctx *t)
{
	struct target_ids ids;
	struct btf *b = make_target(&ids);
	struct kbtf_size rs = { 0 };
	const struct btf_type *r;
	uint32_t id = 0;

	CHECK(t, b != NULL);
	if (!b)
		return;
	CHECK_STR(t, kbtf_kind_str(btf__type_by_id(b, ids.fake)), "STRUCT");
	CHECK_STR(t, kbtf_kind_str(btf__type_by_id(b, 0)), "UNKNOWN");
	CHECK_STR(t, kbtf_name(b, ids.fake), "fake");
	CHECK_STR(t, kbtf_name(b, 999999), "");
	/* Typedefs are skipped like the other modifiers. */
	r = kbtf_skip_mods(b, (uint32_t)ids.tp_typedef, &id);
	CHECK(t, r && btf_is_ptr(r));
	/* struct inner arr[2][2]: 32 bytes, four elements of 8. */
	r = kbtf_resolve_size(b, btf__type_by_id(b, ids.arr2x2), &rs);
	CHECK(t, r && btf_is_array(r));
	CHECK_INT(t, rs.size, 32);
	CHECK_INT(t, rs.nelems, 4);
	CHECK_INT(t, rs.elem_id, ids.inner);
	CHECK(t, !kbtf_resolve_size(b, btf__type_by_id(b, ids.proto), &rs));
	CHECK_INT(t, kbtf_attach_find(b, NULL, "fake", BPF_TRACE_RAW_TP), ids.tp_typedef);
	CHECK_INT(t, kbtf_attach_find(b, NULL, "vmlinux:do_fake", BPF_TRACE_FENTRY), ids.func);
	CHECK_INT(t, kbtf_attach_find(b, NULL, "mod:do_fake", BPF_TRACE_FENTRY), -ESRCH);
	CHECK_INT(t, kbtf_attach_find(b, NULL, "do_fake", BPF_LSM_MAC), -ESRCH);
	btf__free(b);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_kern_helpers);
	RUN(&t, test_walks);
	RUN(&t, test_no_target);
	return test_finish(&t);
}
