/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Values the loader gives externs, as libbpf does at load time: the
 * .kconfig map from a kernel config and a kernel version (libbpf's value
 * parsing, weak and strong externs, errors), typeless ksyms from a
 * kallsyms file, and the size of a perf event array without max_entries.
 * Uses tests/progs/extern_values.c and files written here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <zlib.h>

#include "loader_util.h"

static char dir[] = "/tmp/bpfvet-kcfg-XXXXXX";

/* A kernel config with everything the object reads, overridable line by
 * line: each `extra` line goes first, and the first definition wins. */
static const char base_config[] =
	"# Automatically generated file\n"
	"CONFIG_HZ=250\n"
	"CONFIG_BPF_SYSCALL=y\n"
	"CONFIG_BPFVET_TRI=m\n"
	"CONFIG_BPFVET_CHAR=y\n"
	"CONFIG_LOCALVERSION=\"-a-long-version\"\n"
	"CONFIG_BPFVET_NEG=-5\n"
	"# CONFIG_BPFVET_ABSENT is not set\n";

static const char *write_file(const char *name, const char *extra, const char *body)
{
	static char path[4][256];
	static int next;
	char *p = path[next++ % 4];
	FILE *f;

	snprintf(p, 256, "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f)
		return NULL;
	fputs(extra ? extra : "", f);
	fputs(body, f);
	fclose(f);
	return p;
}

struct opened {
	struct bpfvet_object *obj;
	int err;
	char msg[256];
};

static void open_with(struct opened *o, const char *kconfig, uint32_t version,
		      const char *kallsyms, uint32_t cpus, bool lenient)
{
	char path[256];
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts), .errbuf = o->msg, .errbuf_sz = sizeof(o->msg),
		.kconfig_path = kconfig, .kernel_version = version,
		.kallsyms_path = kallsyms, .nr_cpus = cpus, .lenient = lenient,
	};

	o->msg[0] = '\0';
	o->obj = NULL;
	test_prog_path(path, sizeof(path), "extern_values");
	o->err = bpfvet_object__open(path, &opts, &o->obj);
}

static const struct bpfvet_map *kconfig_map(const struct bpfvet_object *obj)
{
	for (size_t i = 0; i < bpfvet_object__map_cnt(obj); i++)
		if (strstr(bpfvet_map__name(bpfvet_object__map(obj, i)), ".kconfig"))
			return bpfvet_object__map(obj, i);
	return NULL;
}

/* Offset of a .kconfig variable, from the loader's fixed-up BTF. */
static int kcfg_off(const struct bpfvet_object *obj, const char *name)
{
	int id = btf__find_by_name_kind(obj->btf, ".kconfig", BTF_KIND_DATASEC);
	const struct btf_type *sec = id > 0 ? btf__type_by_id(obj->btf, id) : NULL;

	for (int i = 0; sec && i < btf_vlen(sec); i++) {
		const struct btf_var_secinfo *vs = &btf_var_secinfos(sec)[i];
		const struct btf_type *v = btf__type_by_id(obj->btf, vs->type);

		if (!strcmp(btf__name_by_offset(obj->btf, v->name_off), name))
			return (int)vs->offset;
	}
	return -1;
}

static long long value(const struct bpfvet_object *obj, const char *name, int size)
{
	const struct bpfvet_map *m = kconfig_map(obj);
	int off = kcfg_off(obj, name);
	unsigned long long v = 0;

	if (!m || off < 0 || !m->init_data)
		return -999;
	for (int i = size - 1; i >= 0; i--)
		v = v << 8 | ((const unsigned char *)m->init_data)[off + i];
	return (long long)v;
}

static bool known(const struct bpfvet_object *obj, const char *name)
{
	const struct bpfvet_map *m = kconfig_map(obj);
	int off = kcfg_off(obj, name);

	return m && off >= 0 && (!m->init_known || m->init_known[off]);
}

static void test_values(struct test_ctx *t)
{
	struct opened o;
	const struct bpfvet_map *m;

	open_with(&o, write_file("config", NULL, base_config), 0x061262, NULL, 0, false);
	CHECK_MSG(t, !o.err, "%d %s", o.err, o.msg);
	if (o.err)
		return;
	m = kconfig_map(o.obj);
	CHECK(t, m && m->frozen && !m->init_known);
	CHECK_INT(t, value(o.obj, "CONFIG_HZ", 4), 250);
	CHECK_INT(t, value(o.obj, "CONFIG_BPF_SYSCALL", 1), 1);
	CHECK_INT(t, value(o.obj, "CONFIG_BPFVET_TRI", 4), 2);		/* TRI_MODULE */
	CHECK_INT(t, value(o.obj, "CONFIG_BPFVET_CHAR", 1), 'y');
	CHECK_INT(t, value(o.obj, "CONFIG_BPFVET_NEG", 2), 0xfffb);	/* -5 */
	CHECK_INT(t, value(o.obj, "CONFIG_BPFVET_ABSENT", 8), 0);	/* weak */
	CHECK_INT(t, value(o.obj, "LINUX_KERNEL_VERSION", 4), 0x061262);
	/* The same version says whose verifier judges the programs. */
	CHECK_INT(t, bpfvet_program__target_version(bpfvet_object__prog(o.obj, 0)), 0x061262);
	CHECK_INT(t, value(o.obj, "LINUX_HAS_BPF_COOKIE", 4), 1);
	CHECK_INT(t, value(o.obj, "LINUX_HAS_SYSCALL_WRAPPER", 4), 1);
	/* Strings are truncated to the array, NUL included. */
	CHECK(t, m && !memcmp((const char *)m->init_data +
			      kcfg_off(o.obj, "CONFIG_LOCALVERSION"), "-a-long", 8));
	bpfvet_object__close(o.obj);
}

/* Without a config or a version those values are unknown bytes. */
static void test_unknown(struct test_ctx *t)
{
	struct opened o;

	open_with(&o, NULL, 0, NULL, 0, false);
	CHECK_MSG(t, !o.err, "%d %s", o.err, o.msg);
	if (o.err)
		return;
	CHECK(t, kconfig_map(o.obj)->frozen);
	CHECK(t, !known(o.obj, "CONFIG_HZ"));
	CHECK(t, !known(o.obj, "LINUX_KERNEL_VERSION"));
	CHECK(t, known(o.obj, "LINUX_HAS_BPF_COOKIE"));
	CHECK_INT(t, bpfvet_program__target_version(bpfvet_object__prog(o.obj, 0)), 0);
	bpfvet_object__close(o.obj);
	open_with(&o, write_file("config", NULL, base_config), 0, NULL, 0, false);
	CHECK(t, known(o.obj, "CONFIG_HZ"));
	CHECK(t, !known(o.obj, "LINUX_KERNEL_VERSION"));
	bpfvet_object__close(o.obj);
}

/* Where libbpf's kprobe probe fails, LINUX_HAS_SYSCALL_WRAPPER is 0. */
static void test_syscall_wrapper(struct test_ctx *t)
{
	char path[256], msg[256] = "";
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts), .errbuf = msg, .errbuf_sz = sizeof(msg),
		.no_syscall_wrapper = true,
	};
	struct bpfvet_kernel *k = NULL;
	struct bpfvet_object *obj = NULL;

	test_prog_path(path, sizeof(path), "extern_values");
	CHECK_INT(t, bpfvet_object__open(path, &opts, &obj), 0);
	if (!obj)
		return;
	CHECK_INT(t, value(obj, "LINUX_HAS_SYSCALL_WRAPPER", 4), 0);
	CHECK(t, known(obj, "LINUX_HAS_SYSCALL_WRAPPER"));
	bpfvet_object__close(obj);
	/* The probe answers the same twice (it is kept). */
	CHECK_INT(t, bpfvet_kernel__new(&k), 0);
	if (k)
		CHECK(t, bpfvet_kernel__has_syscall_wrapper(k) ==
			 bpfvet_kernel__has_syscall_wrapper(k));
	bpfvet_kernel__free(k);
}

static void check_verdict(struct test_ctx *t, const struct bpfvet_object *obj,
			  const char *prog, enum bpfvet_verdict want)
{
	struct bpfvet_result res = { .sz = sizeof(res) };
	const struct bpfvet_program *p = lu_prog(t, obj, prog);

	if (!p)
		return;
	CHECK_INT(t, bpfvet_program__verify(p, NULL, &res), 0);
	CHECK_MSG(t, res.verdict == want, "%s: verdict %d, want %d (%s)", prog,
		  res.verdict, want, res.error);
}

/* The verifier reads known values as constants: dead branches vanish. */
static void test_verdicts(struct test_ctx *t)
{
	struct opened o;

	open_with(&o, write_file("config", NULL, base_config), 0x061200, NULL, 0, false);
	if (!o.obj)
		return;
	check_verdict(t, o.obj, "hz_is_250", BPFVET_ACCEPTED);
	check_verdict(t, o.obj, "version_at_least_6_18", BPFVET_ACCEPTED);
	check_verdict(t, o.obj, "syscall_and_absent", BPFVET_ACCEPTED);
	check_verdict(t, o.obj, "needs_syscall_wrapper", BPFVET_ACCEPTED);
	bpfvet_object__close(o.obj);
	open_with(&o, write_file("config", "CONFIG_HZ=1000\n", base_config), 0x060c00,
		  NULL, 0, false);
	if (!o.obj)
		return;
	check_verdict(t, o.obj, "hz_is_250", BPFVET_REJECTED);
	check_verdict(t, o.obj, "version_at_least_6_18", BPFVET_REJECTED);
	bpfvet_object__close(o.obj);
	open_with(&o, NULL, 0, NULL, 0, false);
	if (!o.obj)
		return;
	check_verdict(t, o.obj, "hz_is_250", BPFVET_REJECTED);	/* unknown HZ */
	bpfvet_object__close(o.obj);
}

static void expect_error(struct test_ctx *t, const char *extra, const char *msg)
{
	struct opened o;

	open_with(&o, write_file("config", extra, base_config), 0, NULL, 0, false);
	CHECK_MSG(t, o.err < 0 && !o.obj, "'%s' was accepted", extra);
	CHECK_STR(t, o.msg, msg);
	bpfvet_object__close(o.obj);
}

static void test_errors(struct test_ctx *t)
{
	struct opened o;
	char want[512];

	expect_error(t, "CONFIG_BPF_SYSCALL=m\n",
		     "extern (kcfg) 'CONFIG_BPF_SYSCALL': value 'm' implies tristate or char type");
	expect_error(t, "CONFIG_HZ=fast\n",
		     "extern (kcfg) 'CONFIG_HZ': value 'fast' isn't a valid integer");
	expect_error(t, "CONFIG_HZ=\"250\"\n",
		     "extern (kcfg) 'CONFIG_HZ': value '\"250\"' implies char array type");
	expect_error(t, "CONFIG_BPFVET_NEG=70000\n",
		     "extern (kcfg) 'CONFIG_BPFVET_NEG': value '70000' doesn't fit in 2 bytes");
	expect_error(t, "CONFIG_LOCALVERSION=\"open\n",
		     "extern (kcfg) 'CONFIG_LOCALVERSION': value '\"open' is an invalid string");
	snprintf(want, sizeof(want), "kconfig %s/config: no '=' in 'CONFIG_HZ'", dir);
	expect_error(t, "CONFIG_HZ\n", want);
	/* A strong extern the config does not define. */
	open_with(&o, write_file("short", NULL, "CONFIG_BPF_SYSCALL=y\n"), 0, NULL, 0, false);
	CHECK_STR(t, o.msg, "extern 'CONFIG_HZ' (strong): not resolved");
	open_with(&o, "/nonexistent/config", 0, NULL, 0, false);
	CHECK_STR(t, o.msg, "cannot read kernel config /nonexistent/config: No such file or directory");
	/* Lenient: a warning on the map, whose values are then not shown. */
	open_with(&o, write_file("config", "CONFIG_HZ=fast\n", base_config), 0, NULL, 0,
		  true);
	CHECK_MSG(t, !o.err, "%d %s", o.err, o.msg);
	if (o.obj) {
		const struct bpfvet_map *m = kconfig_map(o.obj);

		CHECK_STR(t, bpfvet_map__problem(m),
			  "extern (kcfg) 'CONFIG_HZ': value 'fast' isn't a valid integer");
		CHECK(t, !m->frozen && !m->init_data);
	}
	bpfvet_object__close(o.obj);
}

static void test_gzip(struct test_ctx *t)
{
	char path[256];
	struct opened o;
	gzFile f;

	snprintf(path, sizeof(path), "%s/config.gz", dir);
	f = gzopen(path, "wb");
	CHECK(t, f != NULL);
	if (!f)
		return;
	gzputs(f, "CONFIG_HZ=300\n");
	gzputs(f, base_config);
	gzclose(f);
	open_with(&o, path, 0, NULL, 0, false);
	CHECK_MSG(t, !o.err, "%d %s", o.err, o.msg);
	if (o.obj)
		CHECK_INT(t, value(o.obj, "CONFIG_HZ", 4), 300);
	bpfvet_object__close(o.obj);
}

static int64_t ksym_value(struct test_ctx *t, const struct bpfvet_object *obj)
{
	const struct bpfvet_program *p = lu_prog(t, obj, "ksym_present");

	/* insns 2-3: r2 = &__start_rodata; 9-10: r1 = &bpfvet_no_such_symbol */
	if (!p || p->insn_cnt < 11)
		return -1;
	return (int64_t)((uint32_t)p->insns[2].imm | (uint64_t)(uint32_t)p->insns[3].imm << 32);
}

static void test_kallsyms(struct test_ctx *t)
{
	const char *ks = write_file("kallsyms", NULL,
				    "ffffffff81000000 T _stext\n"
				    "ffffffff82400000 D __start_rodata\n"
				    "ffffffffc0001000 t helper\t[some_module]\n");
	const struct bpfvet_program *p;
	struct opened o;

	open_with(&o, NULL, 0, ks, 0, false);
	CHECK_MSG(t, !o.err, "%d %s", o.err, o.msg);
	if (!o.obj)
		return;
	CHECK_INT(t, ksym_value(t, o.obj), 0xffffffff82400000ll);
	p = lu_prog(t, o.obj, "ksym_present");
	CHECK(t, p && p->insns[9].imm == 0 && p->insns[10].imm == 0);	/* weak, absent */
	check_verdict(t, o.obj, "ksym_present", BPFVET_ACCEPTED);
	bpfvet_object__close(o.obj);
	/* Without kallsyms: a made-up kernel address. */
	open_with(&o, NULL, 0, NULL, 0, false);
	CHECK(t, ksym_value(t, o.obj) == (int64_t)0xffffffff83000000ull);
	bpfvet_object__close(o.obj);
	/* Strong and absent; two addresses for one name. */
	open_with(&o, NULL, 0, write_file("ks2", NULL, "ffffffff81000000 T _stext\n"), 0,
		  false);
	CHECK_STR(t, o.msg, "extern '__start_rodata' (strong): not resolved");
	open_with(&o, NULL, 0, write_file("ks3", NULL, "ffffffff82400000 D __start_rodata\n"
					  "ffffffff82500000 d __start_rodata\n"), 0, false);
	CHECK_STR(t, o.msg, "extern (ksym) '__start_rodata': resolution is ambiguous: "
			    "0xffffffff82400000 or 0xffffffff82500000");
}

static void test_nr_cpus(struct test_ctx *t)
{
	struct opened o;
	int idx;

	open_with(&o, NULL, 0, NULL, 7, false);
	if (o.obj)
		CHECK_INT(t, bpfvet_map__max_entries(lu_map(t, o.obj, "events", &idx)), 7);
	bpfvet_object__close(o.obj);
	open_with(&o, NULL, 0, NULL, 0, false);
	if (o.obj)
		CHECK(t, bpfvet_map__max_entries(lu_map(t, o.obj, "events", &idx)) >= 1);
	bpfvet_object__close(o.obj);
}

int main(void)
{
	struct test_ctx t = { 0 };
	char cmd[512];

	lu_quiet_libbpf();
	if (!mkdtemp(dir)) {
		printf("FAIL test_extern_values: mkdtemp: %s\n", strerror(errno));
		return 1;
	}
	RUN(&t, test_values);
	RUN(&t, test_unknown);
	RUN(&t, test_syscall_wrapper);
	RUN(&t, test_verdicts);
	RUN(&t, test_errors);
	RUN(&t, test_gzip);
	RUN(&t, test_kallsyms);
	RUN(&t, test_nr_cpus);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("note: could not remove %s\n", dir);
	return test_finish(&t);
}
