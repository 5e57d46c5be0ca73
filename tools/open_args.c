/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Options of `verify` and `dump` that describe the target kernel, turned
 * into bpfvet_open_opts fields. BPFVET_BTF in the environment stands for
 * --btf (the library itself reads no environment).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char open_args_usage[] =
	"  --btf FILE     target kernel BTF for CO-RE relocations (raw BTF such as\n"
	"                 /sys/kernel/btf/vmlinux, or an ELF file with .BTF);\n"
	"                 default: $BPFVET_BTF; without one, programs with CO-RE\n"
	"                 relocations are reported unsupported\n";

static const char *value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		fprintf(stderr, "bpfvet: option %s needs a value\n", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

int open_args_parse(int argc, char **argv, int *i, struct open_args *a)
{
	const char *s = argv[*i];

	if (strcmp(s, "--btf"))
		return 0;
	a->btf = value(argc, argv, i);
	return a->btf ? 1 : -1;
}

int open_args_apply(const struct open_args *a, struct bpfvet_open_opts *o)
{
	const char *env = getenv("BPFVET_BTF");

	o->btf_custom_path = a->btf ? a->btf : env && env[0] ? env : NULL;
	return 0;
}
