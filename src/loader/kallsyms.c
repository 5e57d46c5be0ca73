/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Typeless ksyms (`extern const void sym __ksym;`): libbpf loads the
 * symbol's address from /proc/kallsyms into the LD_IMM64 as a plain
 * constant. Given a kallsyms file, bpfvet does the same, with libbpf's
 * rules (a weak symbol that is absent is 0, a strong one is an error, a
 * name with two addresses is ambiguous). Without one, each symbol gets a
 * made-up address: non-zero, as a present symbol's is, and distinct.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"

#define SYNTH_TYPELESS_BASE	0xffffffff83000000ull
#define SYNTH_TYPELESS_STRIDE	0x1000ull

static bool is_typeless(const struct ld_extern *e)
{
	return e->type == EXT_KSYM && !e->is_func && !e->type_id;
}

/* The extern a kallsyms line names; data symbols of LTO builds carry a
 * ".llvm.<hash>" suffix. */
static struct ld_extern *find(struct loader *ld, const char *name, char type)
{
	const char *llvm = type == 'd' ? strstr(name, ".llvm.") : NULL;
	size_t len = llvm ? (size_t)(llvm - name) : strlen(name);

	for (size_t i = 0; i < ld->ext_cnt; i++) {
		struct ld_extern *e = &ld->exts[i];

		if (e->type == EXT_KSYM && !e->is_func && strlen(e->name) == len &&
		    !strncmp(e->name, name, len))
			return e;
	}
	return NULL;
}

static int read_kallsyms(struct loader *ld, const char *path)
{
	FILE *f = fopen(path, "re");
	unsigned long long addr;
	char type, name[500];
	int n, err = 0;

	if (!f)
		return ld_problem(ld, NULL, -errno, "cannot read kallsyms %s: %s", path,
				  strerror(errno));
	while (!err && (n = fscanf(f, "%llx %c %499s%*[^\n]\n", &addr, &type, name)) != EOF) {
		struct ld_extern *e;

		if (n != 3) {
			err = ld_problem(ld, NULL, -EINVAL, "kallsyms %s: bad line", path);
			break;
		}
		e = find(ld, name, type);
		if (!e)
			continue;
		if (e->is_set && e->ksym_addr != addr)
			err = ld_problem(ld, NULL, -EINVAL,
					 "extern (ksym) '%s': resolution is ambiguous: 0x%llx or 0x%llx",
					 e->name, (unsigned long long)e->ksym_addr, addr);
		e->is_set = true;
		e->ksym_addr = addr;
	}
	fclose(f);
	return err;
}

int kallsyms_fill(struct loader *ld, const char *path)
{
	size_t i, n = 0;
	int err = 0;

	if (path)
		err = read_kallsyms(ld, path);
	for (i = 0; !err && i < ld->ext_cnt; i++) {
		struct ld_extern *e = &ld->exts[i];

		if (!is_typeless(e))
			continue;
		if (!path) {
			e->ksym_addr = SYNTH_TYPELESS_BASE + n++ * SYNTH_TYPELESS_STRIDE;
			e->is_set = true;
		} else if (!e->is_set && e->weak) {
			e->ksym_addr = 0;
			e->is_set = true;
		} else if (!e->is_set) {
			err = ld_problem(ld, NULL, -ESRCH, "extern '%s' (strong): not resolved",
					 e->name);
		}
	}
	return err;
}
