/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Rules that two callers share through one function each: the __kconfig
 * value parser (kconfig.c) in the loader's and the kernel loader's styles,
 * libbpf's type compatibility (core_match.c) with and without the check of
 * the two roots' kinds, and the instruction a frame is at (state.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/core.h"
#include "loader/loader.h"
#include "test.h"
#include "verifier/verifier.h"

/* ------------------------------------------------------------------ */
/* __kconfig values                                                    */
/* ------------------------------------------------------------------ */

struct sink {
	char msg[256];
	int err;
	int ret;		/* what the sink answers: 0 goes on */
};

static int keep(void *ctx, int err, const char *msg)
{
	struct sink *s = ctx;

	snprintf(s->msg, sizeof(s->msg), "%s", msg);
	s->err = err;
	return s->ret ? s->ret : 0;
}

static struct kconfig_slot slot(enum kcfg_type type, uint32_t size, bool sgn, uint8_t *val,
				enum kconfig_style style, struct sink *s)
{
	return (struct kconfig_slot){
		.name = "CONFIG_X", .type = type, .is_signed = sgn, .size = size,
		.val = val, .style = style, .refuse = keep, .ctx = s,
	};
}

static int set(struct kconfig_slot *k, const char *v)
{
	return kconfig_set_value(k, v, strlen(v));
}

static void kconfig_values_written(struct test_ctx *t)
{
	for (int style = KCONFIG_STYLE_LOADER; style <= KCONFIG_STYLE_KERNEL; style++) {
		uint8_t v[8] = { 0 };
		struct sink s = { .ret = -EINVAL };
		struct kconfig_slot k = slot(KCFG_INT, 2, true, v, style, &s);

		CHECK_INT(t, set(&k, "-5"), 1);
		CHECK_INT(t, v[0] | v[1] << 8, 0xfffb);
		CHECK_INT(t, v[2], 0);
		k = slot(KCFG_TRISTATE, 4, false, v, style, &s);
		CHECK_INT(t, set(&k, "m"), 1);
		CHECK_INT(t, v[0], 2);
		k = slot(KCFG_CHAR_ARR, 4, false, v, style, &s);
		CHECK_INT(t, set(&k, "\"abcdef\""), 1);
		CHECK_STR(t, (const char *)v, "abc");	/* truncated as libbpf does */
		k = slot(KCFG_BOOL, 1, false, v, style, &s);
		CHECK_INT(t, kconfig_set_num(&k, 1), 1);
		CHECK_INT(t, v[0], 1);
		CHECK_STR(t, s.msg, "");
	}
}

/* The loader goes by the first character and shows the text it read; the
 * kernel loader wants the whole value and words it as libbpf does. */
static void kconfig_styles_differ(struct test_ctx *t)
{
	uint8_t v[8] = { 0 };
	struct sink s = { .ret = -EINVAL };
	struct kconfig_slot lk = slot(KCFG_INT, 2, false, v, KCONFIG_STYLE_LOADER, &s);
	struct kconfig_slot kk = slot(KCFG_INT, 2, false, v, KCONFIG_STYLE_KERNEL, &s);

	CHECK_INT(t, set(&lk, "0x10000"), -EINVAL);
	CHECK_INT(t, s.err, -ERANGE);
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value '0x10000' doesn't fit in 2 bytes");
	CHECK_INT(t, set(&kk, "0x10000"), -EINVAL);
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value '65536' doesn't fit in 2 bytes");

	lk = slot(KCFG_CHAR_ARR, 8, false, v, KCONFIG_STYLE_LOADER, &s);
	kk = slot(KCFG_CHAR_ARR, 8, false, v, KCONFIG_STYLE_KERNEL, &s);
	set(&lk, "\"open");
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value '\"open' is an invalid string");
	set(&kk, "\"open");
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': invalid string config '\"open'");

	memset(v, 0, sizeof(v));
	lk = slot(KCFG_BOOL, 1, false, v, KCONFIG_STYLE_LOADER, &s);
	kk = slot(KCFG_BOOL, 1, false, v, KCONFIG_STYLE_KERNEL, &s);
	s.msg[0] = '\0';
	CHECK_INT(t, set(&lk, "yes"), 1);
	CHECK_INT(t, v[0], 1);
	CHECK_STR(t, s.msg, "");
	set(&kk, "yes");
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value 'yes' isn't a valid integer");
}

/* A lenient sink (0) means "go on without the value": nothing is written
 * and the caller is told so by the 0. */
static void kconfig_refusal_goes_on(struct test_ctx *t)
{
	uint8_t v[4] = { 7, 7, 7, 7 };
	struct sink s = { .ret = 0 };
	struct kconfig_slot k = slot(KCFG_BOOL, 1, false, v, KCONFIG_STYLE_LOADER, &s);

	CHECK_INT(t, set(&k, "m"), 0);
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value 'm' implies tristate or char type");
	CHECK_INT(t, v[0], 7);
	CHECK_INT(t, kconfig_set_num(&k, 2), 0);
	CHECK_STR(t, s.msg, "extern (kcfg) 'CONFIG_X': value '2' isn't boolean compatible");
}

static void kconfig_types(struct test_ctx *t)
{
	struct btf *b = btf__new_empty();
	int i32, u8b, ch, arr, tri, td;
	bool sgn = false;

	if (!b) {
		CHECK(t, b != NULL);
		return;
	}
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	u8b = btf__add_int(b, "_Bool", 1, BTF_INT_BOOL);
	ch = btf__add_int(b, "char", 1, 0);
	arr = btf__add_array(b, i32, ch, 8);
	tri = btf__add_enum(b, "libbpf_tristate", 4);
	td = btf__add_typedef(b, "s32", i32);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)i32, &sgn), KCFG_INT);
	CHECK(t, sgn);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)td, &sgn), KCFG_INT);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)u8b, &sgn), KCFG_BOOL);
	CHECK(t, !sgn);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)ch, &sgn), KCFG_CHAR);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)arr, &sgn), KCFG_CHAR_ARR);
	CHECK_INT(t, kconfig_type_of(b, (uint32_t)tri, &sgn), KCFG_TRISTATE);
	btf__free(b);
}

/* ------------------------------------------------------------------ */
/* Type compatibility                                                  */
/* ------------------------------------------------------------------ */

/* A typedef root is not compatible with its int for a CO-RE type
 * relocation, but is for a ksym, whose roots are stripped first. */
static void compat_roots(struct test_ctx *t)
{
	struct btf *b = btf__new_empty();
	int i32, td, cst, st, ptr, cptr, proto, proto2;

	if (!b) {
		CHECK(t, b != NULL);
		return;
	}
	i32 = btf__add_int(b, "int", 4, BTF_INT_SIGNED);
	td = btf__add_typedef(b, "s32", i32);
	st = btf__add_struct(b, "rq", 8);
	cst = btf__add_const(b, st);
	ptr = btf__add_ptr(b, st);
	cptr = btf__add_ptr(b, cst);
	proto = btf__add_func_proto(b, i32);
	btf__add_func_param(b, "p", ptr);
	proto2 = btf__add_func_proto(b, td);
	btf__add_func_param(b, "p", cptr);

	CHECK_INT(t, core_types_compat(b, (uint32_t)td, b, (uint32_t)i32, 32), 0);
	CHECK_INT(t, core_types_compat_unqual(b, (uint32_t)td, b, (uint32_t)i32), 1);
	CHECK_INT(t, core_types_compat(b, (uint32_t)cst, b, (uint32_t)st, 32), 0);
	CHECK_INT(t, core_types_compat_unqual(b, (uint32_t)cst, b, (uint32_t)st), 1);
	/* Below the roots both skip modifiers. */
	CHECK_INT(t, core_types_compat(b, (uint32_t)proto, b, (uint32_t)proto2, 32), 1);
	CHECK_INT(t, core_types_compat_unqual(b, (uint32_t)proto, b, (uint32_t)proto2), 1);
	CHECK_INT(t, core_types_compat_unqual(b, (uint32_t)ptr, b, (uint32_t)i32), 0);
	CHECK_INT(t, core_types_compat_unqual(b, 9999, b, (uint32_t)i32), -EINVAL);
	btf__free(b);
}

/* ------------------------------------------------------------------ */
/* Frames                                                              */
/* ------------------------------------------------------------------ */

static void frame_ip(struct test_ctx *t)
{
	struct func_state f[3] = { { .callsite = -1 }, { .callsite = 10 }, { .callsite = 42 } };
	struct vstate st = { .insn_idx = 57, .curframe = 2 };

	for (int i = 0; i < 3; i++)
		st.frame[i] = &f[i];
	CHECK_INT(t, state_frame_ip(&st, 2), 57);
	CHECK_INT(t, state_frame_ip(&st, 1), 42);	/* waits at its call to frame 2 */
	CHECK_INT(t, state_frame_ip(&st, 0), 10);
	st.curframe = 0;
	CHECK_INT(t, state_frame_ip(&st, 0), 57);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, kconfig_values_written);
	RUN(&t, kconfig_styles_differ);
	RUN(&t, kconfig_refusal_goes_on);
	RUN(&t, kconfig_types);
	RUN(&t, compat_roots);
	RUN(&t, frame_ip);
	return test_finish(&t);
}
