/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Map rules without a kernel: the special fields found in the test
 * objects' map values, and bpfvet's verdict, statistics and message for
 * every program of tests/progs/maps_*.c against the fixture that
 * test_maps_kernel.c recorded from Linux 6.18.
 */
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "loader_util.h"
#include "state/map_fields.h"
#include "maps_fixture.h"
#include "test.h"

/* ------------------------------------------------------------------ */
/* Special fields                                                      */
/* ------------------------------------------------------------------ */

struct want_field {
	uint32_t type;
	uint32_t off;
	uint32_t size;
};

struct want_record {
	const char *map;
	bool has_btf;
	uint32_t cnt;
	struct want_field fields[3];
};

static void check_record(struct test_ctx *t, const struct bpfvet_object *obj,
			 const struct want_record *w)
{
	const struct bpfvet_map *map = lu_map(t, obj, w->map, NULL);
	struct map_record rec;

	if (!map)
		return;
	map_record_build(obj->btf, map, &rec);
	CHECK_MSG(t, rec.has_btf == w->has_btf, "%s: has_btf %d", w->map, rec.has_btf);
	CHECK_MSG(t, rec.cnt == w->cnt, "%s: %u fields, want %u", w->map, rec.cnt, w->cnt);
	for (uint32_t i = 0; i < rec.cnt && i < w->cnt; i++) {
		const struct map_field *f = &rec.fields[i];
		const struct want_field *e = &w->fields[i];

		CHECK_MSG(t, f->type == e->type && f->off == e->off && f->size == e->size,
			  "%s: field %u is %s at %u (%u bytes), want %s at %u (%u bytes)",
			  w->map, i, field_type_name(f->type), f->off, f->size,
			  field_type_name(e->type), e->off, e->size);
	}
}

static void test_lock_fields(struct test_ctx *t)
{
	static const struct want_record want[] = {
		{ "lock_hash", true, 1, { { FIELD_SPIN_LOCK, 4, 4 } } },
		{ "lock_array", true, 1, { { FIELD_SPIN_LOCK, 4, 4 } } },
		{ "nested", true, 1, { { FIELD_SPIN_LOCK, 12, 4 } } },
		{ "nobtf", false, 0, { { 0 } } },
		{ "nolock", true, 0, { { 0 } } },
		/* Refused by the kernel with the lock; libbpf drops the BTF. */
		{ "percpu_lock", false, 0, { { 0 } } },
		{ ".data.A", true, 1, { { FIELD_SPIN_LOCK, 0, 4 } } },
	};
	struct bpfvet_object *obj = lu_open(t, "maps_spin_lock", NULL);

	CHECK(t, obj && !map_btf_refused(obj->btf));
	for (size_t i = 0; obj && i < sizeof(want) / sizeof(want[0]); i++)
		check_record(t, obj, &want[i]);
	bpfvet_object__close(obj);
}

static void test_refused_btf(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "maps_btf_refused", NULL);

	/* struct two_locks makes the kernel refuse the whole BTF. */
	CHECK(t, obj && map_btf_refused(obj->btf));
	bpfvet_object__close(obj);
}

static void test_kptr_fields(struct test_ctx *t)
{
	static const struct want_record want[] = {
		{ "kmap", true, 2, { { FIELD_KPTR_REF, 8, 8 }, { FIELD_KPTR_UNREF, 16, 8 } } },
		{ "plain", true, 0, { { 0 } } },
	};
	struct bpfvet_object *obj = lu_open(t, "maps_kptr", NULL);
	const struct bpfvet_map *kmap;
	struct map_record rec;

	for (size_t i = 0; obj && i < sizeof(want) / sizeof(want[0]); i++)
		check_record(t, obj, &want[i]);
	kmap = obj ? lu_map(t, obj, "kmap", NULL) : NULL;
	if (kmap) {
		/* The pointee is the program's own struct vet_node. */
		map_record_build(obj->btf, kmap, &rec);
		CHECK(t, rec.cnt == 2 && rec.fields[0].kptr_type_id &&
			 rec.fields[0].kptr_type_id == rec.fields[1].kptr_type_id);
	}
	bpfvet_object__close(obj);
}

static void test_timer_fields(struct test_ctx *t)
{
	static const struct want_record want[] = {
		{ "timers", true, 1, { { FIELD_TIMER, 8, 16 } } },
		{ "timers2", true, 1, { { FIELD_TIMER, 8, 16 } } },
		{ "notimer", true, 0, { { 0 } } },
		{ "percpu_timers", false, 0, { { 0 } } },
	};
	struct bpfvet_object *obj = lu_open(t, "maps_timer", NULL);

	for (size_t i = 0; obj && i < sizeof(want) / sizeof(want[0]); i++)
		check_record(t, obj, &want[i]);
	bpfvet_object__close(obj);
}

static void test_other_fields(struct test_ctx *t)
{
	static const struct want_record want[] = {
		{ "res_map", true, 1, { { FIELD_RES_SPIN_LOCK, 8, 4 } } },
		{ "wq_map", true, 1, { { FIELD_WORKQUEUE, 8, 16 } } },
		{ "tw_map", true, 1, { { FIELD_TASK_WORK, 8, 8 } } },
		{ "tw_percpu", false, 0, { { 0 } } },
		/* List nodes are fields of allocated objects, not of maps. */
		{ "elem_map", true, 0, { { 0 } } },
		{ "list_map", true, 2, { { FIELD_SPIN_LOCK, 0, 4 }, { FIELD_LIST_HEAD, 8, 16 } } },
	};
	struct bpfvet_object *obj = lu_open(t, "maps_fields", NULL);

	CHECK(t, obj && !map_btf_refused(obj->btf));
	for (size_t i = 0; obj && i < sizeof(want) / sizeof(want[0]); i++)
		check_record(t, obj, &want[i]);
	bpfvet_object__close(obj);
}

static void test_btf_less_maps(struct test_ctx *t)
{
	static const struct want_record want[] = {
		/* libbpf creates these map types without BTF. */
		{ "progs", false, 0, { { 0 } } },
		{ "events", false, 0, { { 0 } } },
		{ "socks", false, 0, { { 0 } } },
		{ "hash", true, 0, { { 0 } } },
	};
	struct bpfvet_object *obj = lu_open(t, "maps_compat", NULL);

	for (size_t i = 0; obj && i < sizeof(want) / sizeof(want[0]); i++)
		check_record(t, obj, &want[i]);
	bpfvet_object__close(obj);
}

/* Level 1, as the kernel was asked: a silent rejection then ends on the
 * failing instruction's line. The log itself is not kept. */
static void discard_log(void *ctx, const char *text, size_t len)
{
	(void)ctx;
	(void)text;
	(void)len;
}

static const struct bpfvet_verify_opts level1 = {
	.sz = sizeof(level1),
	.log_level = BPFVET_LOG_LEVEL1,
	.log_fn = discard_log,
};

/* ------------------------------------------------------------------ */
/* Verdicts against the kernel's, recorded                             */
/* ------------------------------------------------------------------ */

static struct mapsfix_row *g_rows;
static size_t g_nrows;

static void check_object(struct test_ctx *t, const char *name)
{
	struct bpfvet_object *obj = lu_open(t, name, NULL);

	for (size_t i = 0; obj && i < bpfvet_object__prog_cnt(obj); i++) {
		const struct bpfvet_program *prog = bpfvet_object__prog(obj, i);
		const char *pname = bpfvet_program__name(prog);
		const struct mapsfix_row *w = mapsfix_find(g_rows, g_nrows, name, pname);
		struct bpfvet_result res = { .sz = sizeof(res) };
		bool ok;

		CHECK_MSG(t, w, "%s/%s: not in %s", name, pname, MAPSFIX_PATH);
		if (!w || bpfvet_program__verify(prog, &level1, &res)) {
			CHECK_MSG(t, w == NULL, "%s/%s: verify failed", name, pname);
			continue;
		}
		ok = (res.verdict == BPFVET_ACCEPTED) == w->success &&
		     res.verdict != BPFVET_UNSUPPORTED && res.insns_processed == w->insns &&
		     res.total_states == w->states && res.peak_states == w->peak &&
		     !strcmp(w->success ? "" : res.error, w->message);
		CHECK_MSG(t, ok, "%s/%s: verdict %d %llu/%llu/%llu \"%s\", kernel %s %llu/%llu/%llu \"%s\"",
			  name, pname, res.verdict, (unsigned long long)res.insns_processed,
			  (unsigned long long)res.total_states, (unsigned long long)res.peak_states,
			  res.error, w->success ? "success" : "failure",
			  (unsigned long long)w->insns, (unsigned long long)w->states,
			  (unsigned long long)w->peak, w->message);
	}
	bpfvet_object__close(obj);
}

#define OBJ_CASE(name) \
	static void test_##name(struct test_ctx *t) { check_object(t, #name); }
OBJ_CASE(maps_spin_lock)
OBJ_CASE(maps_btf_refused)
OBJ_CASE(maps_kptr)
OBJ_CASE(maps_timer)
OBJ_CASE(maps_compat)
OBJ_CASE(maps_str)
OBJ_CASE(maps_fields)

/* Every object the fixture covers has a case above. */
static void test_objects_listed(struct test_ctx *t)
{
	CHECK_INT(t, mapsfix_nobjects, 7);
	for (size_t i = 0; i < g_nrows; i++) {
		bool known = false;

		for (size_t j = 0; j < mapsfix_nobjects; j++)
			known |= !strcmp(g_rows[i].object, mapsfix_objects[j]);
		CHECK_MSG(t, known, "%s: unknown object %s", MAPSFIX_PATH, g_rows[i].object);
	}
}

int main(void)
{
	struct test_ctx t = { 0 };
	int n;

	lu_quiet_libbpf();
	RUN(&t, test_lock_fields);
	RUN(&t, test_refused_btf);
	RUN(&t, test_kptr_fields);
	RUN(&t, test_timer_fields);
	RUN(&t, test_other_fields);
	RUN(&t, test_btf_less_maps);
	n = mapsfix_read(MAPSFIX_PATH, &g_rows);
	if (n <= 0) {
		printf("FAIL test_maps: cannot read %s: %d\n", MAPSFIX_PATH, n);
		return 1;
	}
	g_nrows = (size_t)n;
	RUN(&t, test_objects_listed);
	RUN(&t, test_maps_spin_lock);
	RUN(&t, test_maps_btf_refused);
	RUN(&t, test_maps_kptr);
	RUN(&t, test_maps_timer);
	RUN(&t, test_maps_compat);
	RUN(&t, test_maps_str);
	RUN(&t, test_maps_fields);
	free(g_rows);
	return test_finish(&t);
}
