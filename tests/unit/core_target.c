/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The "kernel" that tests/progs/core_crafted.c is relocated against: the
 * same type names with fields moved, widened, renamed or gone, two
 * flavors that disagree, an anonymous member, other array bounds and
 * other enumerator values.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>

#include <bpf/btf.h>

#include "core_target.h"

struct ids {
	int i32, u32, i64, u64;
};

static int add_base(struct btf *b, struct ids *id)
{
	id->i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	id->u32 = btf__add_int(b, "unsigned int", 4, 0);
	id->i64 = btf__add_int(b, "long", 8, BTF_INT_SIGNED);
	id->u64 = btf__add_int(b, "unsigned long", 8, 0);
	return id->i32 > 0 && id->u32 > 0 && id->i64 > 0 && id->u64 > 0 ? 0 : -EINVAL;
}

/* cr_point: x and y swapped behind a pad, u and s widened, z gone. */
static int add_point(struct btf *b, const struct ids *id)
{
	int pt = btf__add_struct(b, "cr_point", 32);
	int err = pt < 0 ? pt : 0;

	err = err ?: btf__add_field(b, "pad", id->i64, 0, 0);
	err = err ?: btf__add_field(b, "y", id->i32, 64, 0);
	err = err ?: btf__add_field(b, "x", id->i32, 96, 0);
	err = err ?: btf__add_field(b, "u", id->u64, 128, 0);
	err = err ?: btf__add_field(b, "s", id->i64, 192, 0);
	if (!err && btf__add_typedef(b, "cr_point_t", pt) < 0)
		err = -EINVAL;
	return err;
}

/* Two flavors of cr_flav that put `a` at different offsets. */
static int add_flavors(struct btf *b, const struct ids *id)
{
	int err = btf__add_struct(b, "cr_flav___x", 8) < 0 ? -EINVAL : 0;

	err = err ?: btf__add_field(b, "b", id->i32, 0, 0);
	err = err ?: btf__add_field(b, "a", id->i32, 32, 0);
	if (!err && btf__add_struct(b, "cr_flav___y", 4) < 0)
		err = -EINVAL;
	err = err ?: btf__add_field(b, "a", id->i32, 0, 0);
	return err;
}

/* Bitfields moved past a 32-bit pad and reordered. */
static int add_bits(struct btf *b, const struct ids *id)
{
	int err = btf__add_struct(b, "cr_bits", 8) < 0 ? -EINVAL : 0;

	err = err ?: btf__add_field(b, "pad", id->i32, 0, 0);
	err = err ?: btf__add_field(b, "b", id->u32, 32, 5);
	err = err ?: btf__add_field(b, "a", id->u32, 37, 3);
	err = err ?: btf__add_field(b, "c", id->i32, 40, 7);
	return err;
}

/* A pad, a[3] (was a[4]) and m[2][4] (was m[2][3]). */
static int add_arrays(struct btf *b, const struct ids *id)
{
	int a = btf__add_array(b, id->i32, id->i32, 3);
	int row = btf__add_array(b, id->i32, id->i32, 4);
	int m = row > 0 ? btf__add_array(b, id->i32, row, 2) : -EINVAL;
	int err = a > 0 && m > 0 ? 0 : -EINVAL;

	if (!err && btf__add_struct(b, "cr_arr", 48) < 0)
		err = -EINVAL;
	err = err ?: btf__add_field(b, "pad", id->i32, 0, 0);
	err = err ?: btf__add_field(b, "a", a, 32, 0);
	err = err ?: btf__add_field(b, "m", m, 128, 0);
	return err;
}

/* cr_match with its members reordered and one more: still a match. */
static int add_match(struct btf *b, const struct ids *id)
{
	int err = btf__add_struct(b, "cr_match", 16) < 0 ? -EINVAL : 0;

	err = err ?: btf__add_field(b, "l", id->i64, 0, 0);
	err = err ?: btf__add_field(b, "k", id->i32, 64, 0);
	err = err ?: btf__add_field(b, "extra", id->i32, 96, 0);
	return err;
}

/* cr_nest.inner inside an anonymous struct after a pad. */
static int add_nest(struct btf *b, const struct ids *id)
{
	int anon = btf__add_struct(b, NULL, 4);
	int err = anon < 0 ? -EINVAL : 0;

	err = err ?: btf__add_field(b, "inner", id->i32, 0, 0);
	if (!err && btf__add_struct(b, "cr_nest", 8) < 0)
		err = -EINVAL;
	err = err ?: btf__add_field(b, "pad", id->i32, 0, 0);
	err = err ?: btf__add_field(b, NULL, anon, 32, 0);
	return err;
}

static int add_enums(struct btf *b)
{
	int err = btf__add_enum(b, "cr_color", 4) < 0 ? -EINVAL : 0;

	err = err ?: btf__add_enum_value(b, "CR_GREEN", 7);
	err = err ?: btf__add_enum_value(b, "CR_BLUE", 8);
	err = err ?: btf__add_enum_value(b, "CR_RED", 9);
	if (!err && btf__add_enum64(b, "cr_big", 8, false) < 0)
		err = -EINVAL;
	err = err ?: btf__add_enum64_value(b, "CR_HUGE", 0x300000005ull);
	return err;
}

static int build(struct btf *b)
{
	struct ids id;
	int err = add_base(b, &id);

	err = err ?: add_point(b, &id);
	err = err ?: add_flavors(b, &id);
	err = err ?: add_bits(b, &id);
	err = err ?: add_arrays(b, &id);
	err = err ?: add_nest(b, &id);
	err = err ?: add_match(b, &id);
	err = err ?: add_enums(b);
	return err;
}

int core_target_write(const char *dir, char *path, size_t path_sz)
{
	struct btf *b = btf__new_empty();
	const void *raw;
	uint32_t size = 0;
	FILE *f;
	int err;

	if (!b)
		return -ENOMEM;
	err = build(b);
	raw = err ? NULL : btf__raw_data(b, &size);
	if (!err && !raw)
		err = -ENOMEM;
	snprintf(path, path_sz, "%s/core_target.btf", dir);
	f = err ? NULL : fopen(path, "w");
	if (!err && !f)
		err = -errno;
	if (f) {
		if (fwrite(raw, 1, size, f) != size)
			err = -EIO;
		if (fclose(f))
			err = -EIO;
	}
	btf__free(b);
	return err;
}
