/* SPDX-License-Identifier: BSD-2-Clause */
/* The target BTF's name index answers as btf__find_by_name_kind(). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/btf_index.h"
#include "target.h"
#include "test.h"

/* Same answer as libbpf, index or not. */
static void check_same(struct test_ctx *t, const struct btf_index *ix, const struct btf *btf,
		       const char *name, uint32_t kind)
{
	int want = btf__find_by_name_kind(btf, name, kind);
	int got = btf_index_find(ix, btf, name, kind);

	CHECK_MSG(t, got == want, "'%s' kind %u: index %d, libbpf %d", name, kind, got, want);
	CHECK_INT(t, btf_index_find(NULL, btf, name, kind), want);
}

/* Duplicate names: the lowest id wins, per kind. */
static void test_crafted(struct test_ctx *t)
{
	struct btf *btf = btf__new_empty();
	struct btf_index *ix;
	int s1, s2, u1;

	if (!btf) {
		CHECK(t, btf != NULL);
		return;
	}
	btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	s1 = btf__add_struct(btf, "dup", 4);
	btf__add_field(btf, "a", 1, 0, 0);
	u1 = btf__add_union(btf, "dup", 4);
	s2 = btf__add_struct(btf, "dup", 8);
	btf__add_struct(btf, "", 4);
	btf__add_typedef(btf, "dup_t", s2);
	ix = btf_index_build(btf);
	CHECK(t, ix != NULL);
	CHECK_INT(t, btf_index_find(ix, btf, "dup", BTF_KIND_STRUCT), s1);
	CHECK_INT(t, btf_index_find(ix, btf, "dup", BTF_KIND_UNION), u1);
	CHECK_INT(t, btf_index_find(ix, btf, "dup", BTF_KIND_ENUM), -ENOENT);
	CHECK_INT(t, btf_index_find(ix, btf, "nope", BTF_KIND_STRUCT), -ENOENT);
	CHECK(t, s2 > s1);
	check_same(t, ix, btf, "dup", BTF_KIND_STRUCT);
	check_same(t, ix, btf, "dup_t", BTF_KIND_TYPEDEF);
	check_same(t, ix, btf, "int", BTF_KIND_INT);
	check_same(t, ix, btf, "void", BTF_KIND_STRUCT);
	check_same(t, ix, btf, "int", BTF_KIND_UNKN);
	check_same(t, ix, btf, "", BTF_KIND_STRUCT);
	btf_index_free(ix);
	btf_index_free(NULL);
	btf__free(btf);
}

/* A sample of the recorded target's types (a whole kernel's BTF), and
 * names it does not have. */
static void test_target(struct test_ctx *t)
{
	struct btf_index *ix;
	struct btf *btf;
	uint32_t n, checked = 0;

	btf = btf__parse(TARGET_BTF, NULL);
	CHECK_MSG(t, btf != NULL, "%s: %s (make target unpacks it)", TARGET_BTF,
		  strerror(errno));
	if (!btf)
		return;
	ix = btf_index_build(btf);
	CHECK(t, ix != NULL);
	n = btf__type_cnt(btf);
	for (uint32_t id = 1; id < n && ix; id += 97) {
		const struct btf_type *bt = btf__type_by_id(btf, id);
		const char *name = btf__name_by_offset(btf, bt->name_off);

		if (!name || !*name)
			continue;
		check_same(t, ix, btf, name, btf_kind(bt));
		checked++;
	}
	CHECK(t, checked > 100);
	check_same(t, ix, btf, "task_struct", BTF_KIND_STRUCT);
	check_same(t, ix, btf, "task_struct", BTF_KIND_UNION);
	check_same(t, ix, btf, "no_such_type_in_the_kernel", BTF_KIND_STRUCT);
	btf_index_free(ix);
	btf__free(btf);
}

int main(void)
{
	struct test_ctx t = { 0 };

	test_run(&t, "btf_index_crafted", test_crafted);
	test_run(&t, "btf_index_target", test_target);
	return test_finish(&t);
}
