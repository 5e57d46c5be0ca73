/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet dump OBJ.o... [-p GLOB] [-t TYPE]: the maps and programs of each
 * object as a libbpf-style load leaves them, and the disassembly of each
 * program in the verifier's log format. Several objects are dumped one
 * after the other, each from a "file: PATH" line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bpfvet.h"
#include "cli.h"
#include "loader/maps.h"
#include "loader/object.h"
#include "loader/progtype.h"

struct dump_args {
	struct prog_filter filter;
	const char *type;
	struct open_args open;
};

static void dump_usage(FILE *f)
{
	fprintf(f,
		"usage: bpfvet dump OBJ.o... [-p GLOB] [-t TYPE] [options]\n"
		"  -p GLOB        only programs whose name or section matches GLOB\n"
		"                 (repeatable; !GLOB leaves out what it matches)\n"
		"  -t TYPE        program type for every program (xdp, sched_cls, ...);\n"
		"                 objects without SEC() then get their .text functions\n"
		"%s"
		"Problems that make libbpf refuse an object (externs left for static\n"
		"linking, ...) are printed as warnings; the items they spoil say so.\n",
		open_args_usage);
}

static int dump_option(int argc, char **argv, int *i, void *args)
{
	struct dump_args *a = args;
	const char *s = argv[*i];

	if ((!strcmp(s, "-p") || !strcmp(s, "-t")) && *i + 1 < argc) {
		const char *v = argv[++*i];

		if (s[1] == 't') {
			a->type = v;
			return 0;
		}
		return prog_filter_add(&a->filter, v);
	}
	return open_args_last(argc, argv, i, &a->open, "dump");
}

static const char *type_str(const char *name, char *buf, size_t sz, uint32_t v)
{
	if (name)
		return name;
	snprintf(buf, sz, "%u", v);
	return buf;
}

/* Initial contents of a map-in-map or prog_array: " init=0:a,2:b". */
static void print_slots(const struct bpfvet_map *m)
{
	const char *sep = " init=";
	size_t i;

	for (i = 0; i < m->init_cnt; i++) {
		if (!m->init_slots[i])
			continue;
		printf("%s%zu:%s", sep, i, m->init_slots[i]);
		sep = ",";
	}
}

/* " (warning N)" after an item that a lenient open found broken. */
static void print_problem(const struct bpfvet_object *obj, const char *problem)
{
	size_t i;

	if (!problem)
		return;
	for (i = 0; i < bpfvet_object__warning_cnt(obj); i++)
		if (bpfvet_object__warning(obj, i) == problem)
			printf(" (warning %zu)", i);
}

static void print_map(const struct bpfvet_object *obj, size_t i)
{
	const struct bpfvet_map *m = bpfvet_object__map(obj, i);
	const struct bpfvet_map *in = bpfvet_map__inner(m);
	char tb[16];

	printf("map %zu: name=%s type=%s key=%u value=%u max_entries=%u flags=0x%x",
	       i, bpfvet_map__name(m),
	       type_str(map_type_name(m->type), tb, sizeof(tb), m->type),
	       m->key_size, m->value_size, m->max_entries, m->flags);
	if (in)
		printf(" inner=%s", bpfvet_map__name(in));
	print_slots(m);
	if (m->origin == BPFVET_MAP_INNER)
		printf(" (inner map template)");
	print_problem(obj, bpfvet_map__problem(m));
	printf("\n");
}

static void print_prog(const struct bpfvet_object *obj, size_t i,
		       const struct bpfvet_program *p)
{
	const char *attach = attach_type_name(p->expected_attach_type);
	char tb[16];
	size_t s;

	printf("prog %zu: name=%s section=%s type=%s", i, p->name, p->sec_name,
	       p->type_known ? type_str(bpfvet_prog_type_name(p->type), tb,
					sizeof(tb), p->type) : "unknown");
	/* 0 is both "none" and cgroup_inet_ingress: only print non-zero. */
	if (p->expected_attach_type)
		printf(" attach=%s", attach ? attach : "?");
	printf(" flags=0x%x insns=%zu subprogs=%zu", p->prog_flags, p->insn_cnt,
	       p->subprog_cnt);
	print_problem(obj, bpfvet_program__problem(p));
	printf("\n");
	for (s = 0; s < p->subprog_cnt; s++) {
		const struct bpfvet_subprog *sp = &p->subprogs[s];

		printf("  subprog %zu: name=%s start=%zu len=%zu %s\n", s, sp->name,
		       sp->start, sp->len, sp->global ? "global" : "static");
	}
}

static void print_disasm(const struct bpfvet_program *p)
{
	char buf[256];
	size_t idx = 0;

	printf("\n%s:\n", p->name);
	while (idx < p->insn_cnt) {
		int n = bpfvet_program__disasm(p, idx, buf, sizeof(buf));

		if (n < 0 && n != -ENOSPC) {
			printf("%zu: (%02x) <invalid instruction>\n", idx, p->insns[idx].code);
			idx++;
			continue;
		}
		printf("%zu: %s\n", idx, buf);
		idx += n < 0 ? 1 : (size_t)n;
	}
}

static int dump(const struct bpfvet_object *obj, const char *path,
		const struct dump_args *a)
{
	size_t i, n = bpfvet_object__prog_cnt(obj), shown = 0;

	printf("object: name=%s license=\"%s\" kversion=0x%x maps=%zu progs=%zu\n",
	       bpfvet_object__name(obj), bpfvet_object__license(obj),
	       bpfvet_object__kversion(obj), bpfvet_object__map_cnt(obj), n);
	printf("loader: %s (%s)\n", bpfvet_conventions_name(bpfvet_object__conventions(obj)),
	       bpfvet_object__conventions_reason(obj));
	for (i = 0; i < bpfvet_object__warning_cnt(obj); i++)
		printf("warning %zu: %s\n", i, bpfvet_object__warning(obj, i));
	for (i = 0; i < bpfvet_object__map_cnt(obj); i++)
		print_map(obj, i);
	for (i = 0; i < n; i++) {
		const struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (prog_filter_match(&a->filter, p)) {
			print_prog(obj, i, p);
			shown++;
		}
	}
	for (i = 0; i < n; i++) {
		const struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (prog_filter_match(&a->filter, p))
			print_disasm(p);
	}
	if (a->filter.cnt && !shown) {
		fprintf(stderr, "bpfvet: %s: no program matches '%s'%s\n", path,
			a->filter.globs[0], a->filter.cnt > 1 ? " and the other -p filters" : "");
		return EXIT_USAGE;
	}
	return 0;
}

/* One object: opened, dumped, closed. EXIT_USAGE when it cannot be opened
 * or no program matches. */
static int dump_path(const char *path, const struct bpfvet_open_opts *base,
		     const struct dump_args *a)
{
	struct bpfvet_open_opts opts = *base;
	struct bpfvet_object *obj;
	char err[256] = "";
	int rc;

	opts.errbuf = err;
	opts.errbuf_sz = sizeof(err);
	rc = bpfvet_object__open(path, &opts, &obj);
	if (rc) {
		fprintf(stderr, "bpfvet: %s: %s\n", path, err[0] ? err : strerror(-rc));
		return EXIT_USAGE;
	}
	rc = dump(obj, path, a);
	bpfvet_object__close(obj);
	return rc;
}

int cmd_dump(int argc, char **argv)
{
	struct dump_args a = { 0 };
	struct obj_args_parser parser = {
		.option = dump_option, .args = &a, .usage = dump_usage,
	};
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts),
		/* Show what can be shown, as libbpf-based inspectors do not. */
		.lenient = true,
	};
	const char **paths = NULL;
	int rc, i, n = 0, worst = 0;
	char cfg[300];

	rc = obj_args_scan(argc, argv, &parser, &paths, &n);
	if (rc) {
		free(paths);
		prog_filter_free(&a.filter);
		return rc > 0 ? 0 : EXIT_USAGE;
	}
	opts.prog_type = a.type;
	if (open_args_apply(&a.open, &opts, cfg, sizeof(cfg)) ||
	    open_args_share_target(&a.open, &opts)) {
		free(paths);
		prog_filter_free(&a.filter);
		open_args_free(&a.open);
		return EXIT_USAGE;
	}
	/* An object that cannot be opened does not stop the others. With
	 * several, each starts with its path. */
	for (i = 0; i < n; i++) {
		if (i)
			printf("\n");
		if (n > 1)
			printf("file: %s\n", paths[i]);
		rc = dump_path(paths[i], &opts, &a);
		if (rc > worst)
			worst = rc;
	}
	free(paths);
	prog_filter_free(&a.filter);
	open_args_free(&a.open);
	return worst;
}
