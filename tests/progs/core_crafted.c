// SPDX-License-Identifier: BSD-2-Clause
/* CO-RE relocations whose target is a small BTF that the tests build
 * (tests/unit/core_target.c): moved, widened, missing and renamed fields,
 * flavors, bitfields, arrays, enums and type facts, one program each so
 * that a failure names its case. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define PAI __attribute__((preserve_access_index))

struct cr_point {
	int x;
	int y;
	unsigned int u;
	int s;
	int z;			/* absent from the target */
} PAI;

typedef struct cr_point cr_point_t;

struct cr_flav___a {
	int a;
} PAI;

struct cr_bits {
	unsigned int a : 3;
	unsigned int b : 5;
	int c : 7;
} PAI;

struct cr_arr {
	int a[4];
	int m[2][3];
} PAI;

struct cr_nest {
	int inner;
} PAI;

struct cr_none {
	int q;
} PAI;

struct cr_match {
	int k;
	long l;
} PAI;

enum cr_color {
	CR_RED = 1,
	CR_GREEN = 2,
	CR_BLACK = 3,		/* absent from the target */
};

enum cr_big {
	CR_HUGE = 0x100000000ull,
};

long out[8];

SEC("raw_tp/a")
int moved(struct cr_point *p)
{
	return p->x + p->y;
}

SEC("raw_tp/a")
int widened_unsigned(struct cr_point *p)
{
	return p->u;
}

SEC("raw_tp/a")
int widened_signed(struct cr_point *p)
{
	return p->s;
}

SEC("raw_tp/a")
int missing(struct cr_point *p)
{
	return p->z;
}

SEC("raw_tp/a")
int exists(struct cr_point *p)
{
	out[0] = bpf_core_field_exists(p->z);
	out[1] = bpf_core_field_exists(p->x);
	out[2] = bpf_core_field_size(p->u);
	out[3] = bpf_core_field_offset(p->s);
	out[4] = __builtin_preserve_field_info(p->s, BPF_FIELD_SIGNED);
	out[5] = __builtin_preserve_field_info(p->u, BPF_FIELD_SIGNED);
	return 0;
}

SEC("raw_tp/a")
int ambiguous(struct cr_flav___a *f)
{
	return f->a;
}

SEC("raw_tp/a")
int bits(struct cr_bits *b)
{
	out[0] = BPF_CORE_READ_BITFIELD(b, a);
	out[1] = BPF_CORE_READ_BITFIELD(b, b);
	out[2] = BPF_CORE_READ_BITFIELD(b, c);
	return 0;
}

SEC("raw_tp/a")
int arrays(struct cr_arr *r)
{
	return r->a[2] + r->m[1][2];
}

SEC("raw_tp/a")
int array_out_of_range(struct cr_arr *r)
{
	return r->a[3];
}

SEC("raw_tp/a")
int first_index(struct cr_point *p)
{
	return p[1].y;
}

SEC("raw_tp/a")
int nested(struct cr_nest *n)
{
	return n->inner;
}

SEC("raw_tp/a")
int types(void *ctx)
{
	out[0] = bpf_core_type_size(struct cr_point);
	out[1] = bpf_core_type_size(cr_point_t);
	out[2] = bpf_core_type_exists(struct cr_none);
	out[3] = bpf_core_type_id_kernel(struct cr_point);
	out[4] = bpf_core_type_id_local(struct cr_point);
	out[5] = bpf_core_type_matches(struct cr_nest);
	out[6] = bpf_core_type_matches(struct cr_point);
	out[7] = bpf_core_type_matches(struct cr_match);
	return 0;
}

SEC("raw_tp/a")
int enums(void *ctx)
{
	out[0] = bpf_core_enum_value(enum cr_color, CR_GREEN);
	out[1] = bpf_core_enum_value_exists(enum cr_color, CR_BLACK);
	out[2] = bpf_core_enum_value(enum cr_big, CR_HUGE);
	return 0;
}

SEC("raw_tp/a")
int enum_missing(void *ctx)
{
	return bpf_core_enum_value(enum cr_color, CR_BLACK);
}

SEC("raw_tp/a")
int absent_type(struct cr_none *n)
{
	return n->q;
}

char LICENSE[] SEC("license") = "GPL";
