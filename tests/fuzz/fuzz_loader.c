/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libFuzzer entry for the ELF loader: open the input as an object, walk
 * every map and program, disassemble every instruction, close. Any crash,
 * sanitizer report or leak is a bug; so is a failure without a message.
 * Odd-sized inputs are opened leniently; CO-RE records are applied
 * against the BTF of build/progs/core_crafted.o when it is there
 * ($BPFVET_FUZZ_BTF overrides), a small target that some seeds match.
 */
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/libbpf.h>

#include "loader/object.h"

static int quiet(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static const char *target_btf;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *env = getenv("BPFVET_FUZZ_BTF");

	(void)argc;
	(void)argv;
	libbpf_set_print(quiet);
	target_btf = env ? env : "build/progs/core_crafted.o";
	if (access(target_btf, R_OK))
		target_btf = NULL;
	return 0;
}

static unsigned long walk_map(const struct bpfvet_map *m)
{
	const struct bpfvet_map *in = bpfvet_map__inner(m);
	const uint8_t *v;
	unsigned long sum = strlen(bpfvet_map__name(m)) + bpfvet_map__type(m);
	size_t i, n;

	v = bpfvet_map__initial_value(m, &n);
	for (i = 0; v && i < n; i++)
		sum += v[i];
	for (i = 0; i < m->init_cnt; i++)
		sum += m->init_slots[i] ? strlen(m->init_slots[i]) : 0;
	if (in)
		sum += strlen(bpfvet_map__name(in));
	return sum;
}

static unsigned long walk_prog(const struct bpfvet_program *p)
{
	unsigned long sum = strlen(bpfvet_program__name(p)) +
			    strlen(bpfvet_program__section(p));
	char buf[256];
	size_t i, n;

	bpfvet_program__insns(p, &n);
	for (i = 0; i < n;) {
		int r = bpfvet_program__disasm(p, i, buf, sizeof(buf));

		sum += strlen(buf);
		i += r > 0 ? (size_t)r : 1;
	}
	for (i = 0; i < p->subprog_cnt; i++) {
		if (p->subprogs[i].start + p->subprogs[i].len > n)
			abort();	/* a subprogram outside its program */
		sum += strlen(p->subprogs[i].name);
	}
	for (i = 0; i < p->extern_cnt; i++)
		sum += strlen(p->externs[i].name);
	for (i = 0; i < p->func_info_cnt; i++)
		if (p->func_info[i].insn_off >= n)
			abort();
	for (i = 0; i < p->line_info_cnt; i++)
		if (p->line_info[i].insn_off >= n)
			abort();
	for (i = 0; i < p->core_relo_cnt; i++)
		if (p->core_relos[i].insn_off >= n)
			abort();
	return sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256] = "";
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts),
		.errbuf = err,
		.errbuf_sz = sizeof(err),
		.lenient = size & 1,
		.btf_custom_path = target_btf,
	};
	struct bpfvet_object *obj = NULL;
	volatile unsigned long sum = 0;
	size_t i;

	if (bpfvet_object__open_mem(data, size, "fuzz", &opts, &obj)) {
		if (!err[0] && size)
			abort();	/* every failure must say why */
		return 0;
	}
	for (i = 0; i < bpfvet_object__map_cnt(obj); i++)
		sum += walk_map(bpfvet_object__map(obj, i));
	for (i = 0; i < bpfvet_object__prog_cnt(obj); i++)
		sum += walk_prog(bpfvet_object__prog(obj, i));
	(void)sum;
	bpfvet_object__close(obj);
	return 0;
}
