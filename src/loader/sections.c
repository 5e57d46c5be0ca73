/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * First pass over an ELF object, following libbpf's rules: what each
 * section is, the license and version, and the function bodies that make
 * programs (every FUNC symbol of an executable section) and subprograms
 * (functions in .text).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "steps.h"

#define LICENSE_MAX 64	/* libbpf keeps 63 characters of the license */

static bool has_prefix(const char *s, const char *pfx)
{
	return !strncmp(s, pfx, strlen(pfx));
}

/* "name" or "name.suffix", as libbpf matches data sections. */
static bool is_dotted(const char *s, const char *base)
{
	size_t n = strlen(base);

	return !strncmp(s, base, n) && (s[n] == '\0' || s[n] == '.');
}

static bool is_struct_ops(const char *name)
{
	if (name[0] == '?')
		name++;
	return !strcmp(name, ".struct_ops") || !strcmp(name, ".struct_ops.link");
}

static int read_license(struct loader *ld, const struct elf_sec *sec)
{
	size_t len;

	if (!sec->data)
		return errbuf_set(ld->eb, -EINVAL, "license section has no contents");
	len = strnlen(sec->data, sec->size);
	if (len > LICENSE_MAX - 1)
		len = LICENSE_MAX - 1;
	free(ld->obj->license);
	ld->obj->license = strndup(sec->data, len);
	if (!ld->obj->license)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	return 0;
}

static int read_version(struct loader *ld, const struct elf_sec *sec)
{
	if (!sec->data || sec->size != sizeof(uint32_t))
		return errbuf_set(ld->eb, -EINVAL,
				  "version section has size %zu, want 4", sec->size);
	memcpy(&ld->obj->kversion, sec->data, sizeof(uint32_t));
	return 0;
}

static bool relo_target_wanted(const struct loader *ld, size_t targ)
{
	const struct elf_sec *t = &ld->elf.secs[targ];

	if (t->shdr.sh_type == SHT_PROGBITS && (t->shdr.sh_flags & SHF_EXECINSTR))
		return true;
	return !strcmp(t->name, ".maps") || is_struct_ops(t->name);
}

/* Sections whose relocations matter to debuggers, never to a loader. */
static bool relo_target_inert(const struct elf_sec *t)
{
	return !strcmp(t->name, ".BTF") || !strcmp(t->name, ".BTF.ext") ||
	       !strcmp(t->name, ".eh_frame") || !strncmp(t->name, ".debug_", 7) ||
	       !strncmp(t->name, ".llvm", 5);
}

/* Relocations no loader applies are said, never dropped unseen: a pointer
 * in .data, say, stays what the compiler wrote. */
static int warn_unapplied(struct loader *ld, const struct elf_sec *sec, size_t targ)
{
	const struct elf_sec *t = &ld->elf.secs[targ];
	size_t n = sec->shdr.sh_entsize ? sec->size / sec->shdr.sh_entsize : 0;

	if (relo_target_inert(t) || !n)
		return 0;
	return ld_warning(ld, "relocation section %s: %zu relocation%s of section %s %s not applied: "
			  "loaders do not relocate that section", sec->name, n,
			  n == 1 ? "" : "s", t->name, n == 1 ? "is" : "are");
}

/* The section a REL or RELA section relocates: 1 when no loader applies
 * it (a warning said so), 0 when loaders do, or a negative error. */
static int relo_target_check(struct loader *ld, const struct elf_sec *sec)
{
	size_t targ = sec->shdr.sh_info;
	int err;

	if (targ == 0 || targ >= ld->elf.sec_cnt)
		return errbuf_set(ld->eb, -EINVAL,
				  "relocation section %s targets bad section %zu",
				  sec->name, targ);
	if (relo_target_wanted(ld, targ))
		return 0;
	err = warn_unapplied(ld, sec, targ);
	return err ? err : 1;
}

/* RELA entries carry their addend apart; BPF loaders read REL only. */
static int classify_rela(struct loader *ld, const struct elf_sec *sec)
{
	size_t targ = sec->shdr.sh_info;
	int err = relo_target_check(ld, sec);

	if (err)
		return err < 0 ? err : 0;
	return ld_problem(ld, NULL, -EOPNOTSUPP,
			  "relocation section %s holds RELA entries for %s, which BPF loaders do not read",
			  sec->name, ld->elf.secs[targ].name);
}

static int classify_rel(struct loader *ld, size_t idx, const struct elf_sec *sec)
{
	int err;

	if (sec->shdr.sh_entsize != sizeof(Elf64_Rel))
		return errbuf_set(ld->eb, -EINVAL,
				  "relocation section %s has entry size %llu, want %zu",
				  sec->name, (unsigned long long)sec->shdr.sh_entsize,
				  sizeof(Elf64_Rel));
	err = relo_target_check(ld, sec);
	if (err)
		return err < 0 ? err : 0;
	ld->sec_kind[idx] = SEC_RELO;
	return 0;
}

static int classify_progbits(struct loader *ld, size_t idx,
			     const struct elf_sec *sec)
{
	const char *name = sec->name;

	if (sec->shdr.sh_flags & SHF_EXECINSTR) {
		if (!strcmp(name, ".text"))
			ld->text_shndx = idx;
		ld->sec_kind[idx] = SEC_CODE;
	} else if (is_dotted(name, ".data")) {
		ld->sec_kind[idx] = SEC_DATA;
	} else if (is_dotted(name, ".rodata")) {
		ld->sec_kind[idx] = SEC_RODATA;
	} else if (is_struct_ops(name)) {
		ld->sec_kind[idx] = SEC_STRUCT_OPS;
	} else if (!strcmp(name, ".addr_space.1")) {
		ld->sec_kind[idx] = SEC_ARENA;
		ld->arena_shndx = idx;
	} else {
		/* A loader of its own may read it (Falco's "kernel_version");
		 * none that bpfvet follows does. */
		return ld_warning(ld, "section %s: data the loader does not read (a tool of "
				  "its own may), ignored", name);
	}
	return 0;
}

static int classify_one(struct loader *ld, size_t idx)
{
	const struct elf_sec *sec = &ld->elf.secs[idx];
	const char *name = sec->name;
	uint32_t type = sec->shdr.sh_type;

	if (!sec->loaded)
		return 0;
	if (!strcmp(name, "license"))
		return read_license(ld, sec);
	if (!strcmp(name, "version"))
		return read_version(ld, sec);
	if (!strcmp(name, "maps") || has_prefix(name, "maps/")) {
		ld->sec_kind[idx] = SEC_LEGACY_MAPS;
		return 0;
	}
	if (!strcmp(name, ".maps")) {
		ld->sec_kind[idx] = SEC_BTF_MAPS;
		ld->btf_maps_shndx = idx;
		return 0;
	}
	if (!strcmp(name, ".BTF") || !strcmp(name, ".BTF.ext")) {
		if (type != SHT_PROGBITS)
			return errbuf_set(ld->eb, -EINVAL, "%s is not SHT_PROGBITS", name);
		if (name[4])
			ld->btf_ext_shndx = idx;
		else
			ld->btf_shndx = idx;
		return 0;
	}
	if (type == SHT_PROGBITS && sec->size > 0)
		return classify_progbits(ld, idx, sec);
	if (type == SHT_REL)
		return classify_rel(ld, idx, sec);
	if (type == SHT_RELA)
		return classify_rela(ld, sec);
	if (type == SHT_NOBITS && is_dotted(name, ".bss"))
		ld->sec_kind[idx] = SEC_BSS;
	return 0;
}

int sections_classify(struct loader *ld)
{
	size_t i;
	int err;

	ld->sec_kind = calloc(ld->elf.sec_cnt, 1);
	if (!ld->sec_kind)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	for (i = 1; i < ld->elf.sec_cnt; i++) {
		err = classify_one(ld, i);
		if (err)
			return err;
	}
	return 0;
}

bool sym_is_extern(const Elf64_Sym *sym)
{
	int bind = ELF64_ST_BIND(sym->st_info);

	return sym->st_shndx == SHN_UNDEF &&
	       (bind == STB_GLOBAL || bind == STB_WEAK) &&
	       ELF64_ST_TYPE(sym->st_info) == STT_NOTYPE;
}

static int add_func(struct loader *ld, const struct elf_sec *sec, size_t sec_idx,
		    const char *name, uint64_t off, uint64_t size)
{
	struct func *fn, *funcs;

	if (size == 0 || size % INSN_SZ || off % INSN_SZ)
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: function %s has bad offset %llu or size %llu",
				  sec->name, name, (unsigned long long)off,
				  (unsigned long long)size);
	if (off > sec->size || size > sec->size - off)
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: function %s at offset %llu crosses the section end",
				  sec->name, name, (unsigned long long)off);
	funcs = realloc(ld->funcs, (ld->func_cnt + 1) * sizeof(*funcs));
	if (!funcs)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	ld->funcs = funcs;
	fn = &funcs[ld->func_cnt];
	memset(fn, 0, sizeof(*fn));
	fn->name = strdup(name);
	fn->insns = malloc(size);
	if (!fn->name || !fn->insns) {
		free(fn->name);
		free(fn->insns);
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	}
	memcpy(fn->insns, (const char *)sec->data + off, size);
	fn->sec_idx = sec_idx;
	fn->sec_insn_off = off / INSN_SZ;
	fn->insn_cnt = size / INSN_SZ;
	fn->in_text = sec_idx == ld->text_shndx;
	fn->entry = !fn->in_text;
	ld->func_cnt++;
	return 0;
}

static int add_sym_func(struct loader *ld, const struct elf_sec *sec,
			size_t sec_idx, const Elf64_Sym *sym)
{
	const char *name = elf_file_sym_name(&ld->elf, sym);
	int bind = ELF64_ST_BIND(sym->st_info);
	int vis = ELF64_ST_VISIBILITY(sym->st_other);
	struct func *fn;
	int err;

	if (!name || !name[0])
		return errbuf_set(ld->eb, -EINVAL,
				  "section %s: function at offset %llu has no name",
				  sec->name, (unsigned long long)sym->st_value);
	if (sec_idx != ld->text_shndx && bind == STB_LOCAL) {
		if (ld->obj->conv == BPFVET_CONV_LIBBPF)
			return errbuf_set(ld->eb, -EOPNOTSUPP,
					  "section %s: program %s is static, which libbpf does not support",
					  sec->name, name);
		err = conv_warn_libbpf(ld, "section %s: program %s is static", sec->name, name);
		if (err)
			return err;
	}
	err = add_func(ld, sec, sec_idx, name, sym->st_value, sym->st_size);
	if (err)
		return err;
	fn = &ld->funcs[ld->func_cnt - 1];
	fn->sym_global = bind != STB_LOCAL;
	fn->hidden = fn->sym_global &&
		     (vis == STV_HIDDEN || vis == STV_INTERNAL);
	return 0;
}

/*
 * Objects from compilers that emitted no FUNC symbols hold one program
 * per section, named after a global symbol at its start when there is
 * one, else after the section.
 */
static int add_whole_section(struct loader *ld, const struct elf_sec *sec,
			     size_t sec_idx)
{
	const char *name = sec->name;
	size_t i;

	for (i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];
		const char *sname;

		if (sym->st_shndx != sec_idx || sym->st_value != 0 ||
		    ELF64_ST_BIND(sym->st_info) != STB_GLOBAL)
			continue;
		sname = elf_file_sym_name(&ld->elf, sym);
		if (sname && sname[0]) {
			name = sname;
			break;
		}
	}
	return add_func(ld, sec, sec_idx, name, 0, sec->size);
}

static int collect_section(struct loader *ld, size_t sec_idx)
{
	const struct elf_sec *sec = &ld->elf.secs[sec_idx];
	size_t before = ld->func_cnt, i;
	int err;

	if (sec->size % INSN_SZ)
		return errbuf_set(ld->eb, -EINVAL,
				  "code section %s has size %zu, not a multiple of %d",
				  sec->name, sec->size, INSN_SZ);
	for (i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];

		if (sym->st_shndx != sec_idx || ELF64_ST_TYPE(sym->st_info) != STT_FUNC)
			continue;
		err = add_sym_func(ld, sec, sec_idx, sym);
		if (err)
			return err;
	}
	if (ld->func_cnt == before)
		return add_whole_section(ld, sec, sec_idx);
	return 0;
}

static int cmp_funcs(const void *pa, const void *pb)
{
	const struct func *a = pa, *b = pb;

	if (a->sec_idx != b->sec_idx)
		return a->sec_idx < b->sec_idx ? -1 : 1;
	if (a->sec_insn_off != b->sec_insn_off)
		return a->sec_insn_off < b->sec_insn_off ? -1 : 1;
	return 0;
}

/* Lookups by instruction assume disjoint functions. */
static int check_overlaps(struct loader *ld)
{
	size_t i;

	for (i = 1; i < ld->func_cnt; i++) {
		const struct func *a = &ld->funcs[i - 1], *b = &ld->funcs[i];

		if (a->sec_idx == b->sec_idx &&
		    a->sec_insn_off + a->insn_cnt > b->sec_insn_off)
			return errbuf_set(ld->eb, -EINVAL,
					  "section %s: functions %s and %s overlap",
					  ld->elf.secs[a->sec_idx].name, a->name, b->name);
	}
	return 0;
}

/*
 * libbpf never loads .text functions on their own. When the object has no
 * other program and the caller names a program type, .text's global
 * functions become the programs, so that an object built without SEC()
 * can still be checked; without a type the object has no program, as in
 * libbpf.
 */
static void promote_text(struct loader *ld)
{
	size_t i;

	if (!ld->have_override)
		return;
	for (i = 0; i < ld->func_cnt; i++)
		if (ld->funcs[i].entry)
			return;
	for (i = 0; i < ld->func_cnt; i++)
		if (ld->funcs[i].sym_global || ld->func_cnt == 1)
			ld->funcs[i].entry = true;
}

int sections_collect_funcs(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 1; i < ld->elf.sec_cnt; i++) {
		if (ld->sec_kind[i] != SEC_CODE)
			continue;
		err = collect_section(ld, i);
		if (err)
			return err;
	}
	if (ld->func_cnt)
		qsort(ld->funcs, ld->func_cnt, sizeof(*ld->funcs), cmp_funcs);
	promote_text(ld);
	return check_overlaps(ld);
}

struct func *funcs_find(const struct loader *ld, size_t sec_idx, size_t insn)
{
	size_t lo = 0, hi = ld->func_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		struct func *fn = &ld->funcs[mid];

		if (fn->sec_idx < sec_idx ||
		    (fn->sec_idx == sec_idx && fn->sec_insn_off + fn->insn_cnt <= insn))
			lo = mid + 1;
		else if (fn->sec_idx > sec_idx || fn->sec_insn_off > insn)
			hi = mid;
		else
			return fn;
	}
	return NULL;
}

void funcs_free(struct loader *ld)
{
	size_t i;

	for (i = 0; i < ld->func_cnt; i++) {
		free(ld->funcs[i].name);
		free(ld->funcs[i].insns);
		free(ld->funcs[i].relos);
	}
	free(ld->funcs);
	ld->funcs = NULL;
	ld->func_cnt = 0;
}
