/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Extern symbols: __ksym variables and kfuncs (".ksyms") and __kconfig
 * variables (".kconfig"). As libbpf does, each is matched with its BTF
 * VAR or FUNC, and kconfig externs get their place in the .kconfig map.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "core.h"
#include "steps.h"

static int find_extern_btf_id(const struct btf *btf, const char *name)
{
	uint32_t i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *tname;

		if (!t || (!btf_is_var(t) && !btf_is_func(t)))
			continue;
		tname = btf__name_by_offset(btf, t->name_off);
		if (!tname || strcmp(tname, name))
			continue;
		if (btf_is_var(t) && btf_var(t)->linkage != BTF_VAR_GLOBAL_EXTERN)
			return -EINVAL;
		if (btf_is_func(t) && btf_func_linkage(t) != BTF_FUNC_EXTERN)
			return -EINVAL;
		return i;
	}
	return -ENOENT;
}

static int find_datasec_of(const struct btf *btf, uint32_t var_id)
{
	uint32_t i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const struct btf_var_secinfo *vs;
		uint16_t j;

		if (!t || !btf_is_datasec(t))
			continue;
		vs = btf_var_secinfos(t);
		for (j = 0; j < btf_vlen(t); j++)
			if (vs[j].type == var_id)
				return i;
	}
	return -ENOENT;
}

/* An extern libbpf cannot resolve: fatal, or (lenient open) left
 * unresolved for the static linker that should have handled it. */
static int ext_fail(struct loader *ld, struct ld_extern *ext, int err,
		    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int ext_fail(struct loader *ld, struct ld_extern *ext, int err,
		    const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ret = ld_problem(ld, &ext->problem, err, "%s", msg);
	if (!ret)
		ext->type = EXT_UNRESOLVED;
	return ret;
}

static int init_kcfg(struct loader *ld, struct ld_extern *ext,
		     const struct btf_type *t)
{
	struct btf *btf = ld->obj->btf;
	long long sz;
	int align;

	if (ext->is_func)
		return ext_fail(ld, ext, -EOPNOTSUPP,
				"extern function %s cannot be in .kconfig", ext->name);
	sz = btf__resolve_size(btf, t->type);
	align = btf_align_of(btf, t->type, 0);
	if (sz <= 0 || sz > UINT32_MAX || align <= 0)
		return ext_fail(ld, ext, -EINVAL,
				"extern (kconfig) %s: cannot size its type", ext->name);
	ext->kcfg_type = kconfig_type_of(btf, t->type, &ext->kcfg_signed);
	if (ext->kcfg_type == KCFG_UNKNOWN)
		return ext_fail(ld, ext, -EOPNOTSUPP,
				"extern (kconfig) %s: type is unsupported", ext->name);
	ext->type = EXT_KCFG;
	ext->kcfg_sz = (uint32_t)sz;
	ext->kcfg_align = (uint32_t)align;
	return 0;
}

static int init_extern(struct loader *ld, struct ld_extern *ext, const char *name)
{
	struct btf *btf = ld->obj->btf;
	const struct btf_type *t, *sec;
	const char *sec_name;
	uint32_t res;
	int id;

	ext->no_btf = true;
	if (!btf)
		return ext_fail(ld, ext, -ESRCH,
				"extern %s needs BTF, but the object has none", name);
	id = find_extern_btf_id(btf, name);
	if (id <= 0)
		return ext_fail(ld, ext, id ? id : -ENOENT, "no BTF for extern %s", name);
	ext->no_btf = false;
	ext->btf_id = id;
	t = btf__type_by_id(btf, ext->btf_id);
	ext->is_func = btf_is_func(t);
	ext->sec_btf_id = find_datasec_of(btf, ext->btf_id);
	if (ext->sec_btf_id <= 0)
		return ext_fail(ld, ext, -ENOENT, "no BTF section for extern %s", name);
	sec = btf__type_by_id(btf, ext->sec_btf_id);
	sec_name = btf__name_by_offset(btf, sec->name_off);
	if (sec_name && !strcmp(sec_name, ".kconfig"))
		return init_kcfg(ld, ext, t);
	if (!sec_name || strcmp(sec_name, ".ksyms"))
		return ext_fail(ld, ext, -EOPNOTSUPP, "extern %s is in unknown section %s",
				name, sec_name ? sec_name : "?");
	ext->type = EXT_KSYM;
	res = 0;
	if (!ext->is_func && btf_skip_mods(btf, t->type, &res))
		ext->type_id = res;
	else if (ext->is_func)
		ext->type_id = t->type;
	return 0;
}

static int cmp_externs(const void *pa, const void *pb)
{
	const struct ld_extern *a = pa, *b = pb;

	if (a->type != b->type)
		return a->type < b->type ? -1 : 1;
	if (a->type == EXT_KCFG) {
		/* Strictest alignment first, then smallest, as libbpf lays out
		 * the .kconfig map. */
		if (a->kcfg_align != b->kcfg_align)
			return a->kcfg_align > b->kcfg_align ? -1 : 1;
		if (a->kcfg_sz != b->kcfg_sz)
			return a->kcfg_sz < b->kcfg_sz ? -1 : 1;
	}
	return strcmp(a->name, b->name);
}

static void layout_kconfig(struct loader *ld)
{
	uint64_t off = 0;
	size_t i;

	for (i = 0; i < ld->ext_cnt; i++) {
		struct ld_extern *ext = &ld->exts[i];

		if (ext->type != EXT_KCFG)
			continue;
		off = (off + ext->kcfg_align - 1) / ext->kcfg_align * ext->kcfg_align;
		ext->kcfg_off = (uint32_t)off;
		off += ext->kcfg_sz;
	}
}

static int add_extern(struct loader *ld, size_t sym_idx, const Elf64_Sym *sym,
		      const char *name)
{
	struct ld_extern *exts, *ext;
	int err;

	exts = realloc(ld->exts, (ld->ext_cnt + 1) * sizeof(*exts));
	if (!exts)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->exts = exts;
	ext = &exts[ld->ext_cnt];
	memset(ext, 0, sizeof(*ext));
	ext->name = strdup(name);
	if (!ext->name)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->ext_cnt++;
	ext->sym_idx = sym_idx;
	ext->weak = ELF64_ST_BIND(sym->st_info) == STB_WEAK;
	err = init_extern(ld, ext, name);
	return err;
}

int externs_collect(struct loader *ld)
{
	uint64_t total = 0;
	size_t i;
	int err;

	for (i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];
		const char *name;

		if (!sym_is_extern(sym))
			continue;
		name = elf_file_sym_name(&ld->elf, sym);
		if (!name || !name[0])
			continue;
		err = add_extern(ld, i, sym, name);
		if (err)
			return err;
	}
	if (!ld->ext_cnt)
		return 0;
	qsort(ld->exts, ld->ext_cnt, sizeof(*ld->exts), cmp_externs);
	layout_kconfig(ld);
	for (i = 0; i < ld->ext_cnt; i++)
		if (ld->exts[i].type == EXT_KCFG)
			total = (uint64_t)ld->exts[i].kcfg_off + ld->exts[i].kcfg_sz;
	if (total > UINT32_MAX)
		return errbuf_set(ld->eb, -E2BIG, ".kconfig externs are too large");
	return 0;
}

const struct ld_extern *externs_by_sym(const struct loader *ld, size_t sym_idx,
				       size_t *idx)
{
	size_t i;

	for (i = 0; i < ld->ext_cnt; i++) {
		if (ld->exts[i].sym_idx == sym_idx) {
			*idx = i;
			return &ld->exts[i];
		}
	}
	return NULL;
}

void externs_free(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->ext_cnt; i++)
		free(ld->exts[i].name);
	free(ld->exts);
	ld->exts = NULL;
	ld->ext_cnt = 0;
}

/* The kernel's FUNC or VAR for the extern as libbpf resolves it: the
 * name without its ___flavor, and a compatible type; -ENOENT if none. */
int extern_kernel_id(const struct bpfvet_program *prog, const struct btf *targ,
		     const struct bpfvet_extern *e)
{
	const struct btf *local = prog->obj ? prog->obj->btf : NULL;
	int kind = e->kind == BPFVET_EXTERN_KFUNC ? BTF_KIND_FUNC : BTF_KIND_VAR;
	const struct btf_index *ix = prog->obj && targ == prog->obj->targ_btf ?
				     prog->obj->targ_index : NULL;
	int id = kbtf_find_essential(targ, ix, e->name, kind);

	if (id <= 0 || !local)
		return -ENOENT;
	if (core_types_compat_unqual(local, e->type_id, targ,
				     btf__type_by_id(targ, (uint32_t)id)->type) <= 0)
		return -ENOENT;
	return id;
}

bool ksym_weak_absent(const struct bpfvet_program *prog, uint32_t ext)
{
	const struct btf *targ = prog->obj ? prog->obj->targ_btf : NULL;
	const struct bpfvet_extern *e;

	if (!targ || ext >= prog->extern_cnt)
		return false;
	e = &prog->externs[ext];
	return e->weak && (e->kind == BPFVET_EXTERN_KFUNC || e->kind == BPFVET_EXTERN_KSYM) &&
	       extern_kernel_id(prog, targ, e) < 0;
}

/* libbpf's words for a strong extern the target lacks, or whose type
 * does not match the target's. */
static int refuse_extern(struct loader *ld, struct bpfvet_program *p,
			 const struct bpfvet_extern *e)
{
	bool func = e->kind == BPFVET_EXTERN_KFUNC;
	int id = kbtf_find_essential(ld->targ_btf, NULL, e->name,
				     func ? BTF_KIND_FUNC : BTF_KIND_VAR);

	if (id <= 0 && func)
		return ld_refuse(ld, p, -ESRCH,
				 "extern (func ksym) '%s': not found in kernel or module BTFs",
				 e->name);
	if (id <= 0)
		return ld_refuse(ld, p, -ESRCH, "extern (var ksym) '%s': not found in kernel BTF",
				 e->name);
	if (func)
		return ld_refuse(ld, p, -EINVAL,
				 "extern (func ksym) '%s': func_proto [%u] incompatible with vmlinux [%u]",
				 e->name, e->type_id,
				 btf__type_by_id(ld->targ_btf, (uint32_t)id)->type);
	return ld_refuse(ld, p, -EINVAL,
			 "extern (var ksym) '%s': incompatible types, expected [%u], actual [%u]",
			 e->name, e->type_id, btf__type_by_id(ld->targ_btf, (uint32_t)id)->type);
}

int externs_check(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;

	if (!ld->targ_btf)
		return 0;
	for (size_t i = 0; i < obj->prog_cnt; i++) {
		struct bpfvet_program *p = &obj->progs[i];

		for (size_t k = 0; !p->problem && k < p->extern_cnt; k++) {
			const struct bpfvet_extern *e = &p->externs[k];
			int err;

			if (e->weak || (e->kind != BPFVET_EXTERN_KFUNC &&
					(e->kind != BPFVET_EXTERN_KSYM || !e->type_id)))
				continue;
			if (extern_kernel_id(p, ld->targ_btf, e) > 0)
				continue;
			err = refuse_extern(ld, p, e);
			if (err)
				return err;
		}
	}
	return 0;
}

