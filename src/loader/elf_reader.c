/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "elf_reader.h"

/* DWARF and its relocations are never read: skipping them keeps a broken
 * debug section from failing an otherwise loadable object. */
static bool sec_is_skipped(const Elf64_Shdr *sh, const char *name)
{
	if (sh->sh_type == SHT_STRTAB || sh->sh_type == SHT_LLVM_ADDRSIG)
		return true;
	if (!strncmp(name, ".rel", 4))
		name += 4;
	return !strncmp(name, ".debug_", 7);
}

static int check_header(Elf *elf, struct errbuf *eb)
{
	Elf64_Ehdr *eh;

	if (elf_kind(elf) != ELF_K_ELF)
		return errbuf_set(eb, -EINVAL, "not an ELF file");
	if (gelf_getclass(elf) != ELFCLASS64)
		return errbuf_set(eb, -EINVAL, "not a 64-bit ELF file");
	eh = elf64_getehdr(elf);
	if (!eh)
		return errbuf_set(eb, -EINVAL, "cannot read the ELF header: %s",
				  elf_errmsg(-1));
	if (eh->e_ident[EI_DATA] != ELFDATA2LSB)
		return errbuf_set(eb, -EINVAL, "not a little-endian ELF file");
	/* Old LLVM left e_machine as EM_NONE; libbpf accepts that too. */
	if (eh->e_machine != EM_BPF && eh->e_machine != EM_NONE)
		return errbuf_set(eb, -EINVAL,
				  "not a BPF object (e_machine %u, want %u)",
				  eh->e_machine, EM_BPF);
	if (eh->e_type != ET_REL)
		return errbuf_set(eb, -EINVAL,
				  "not a relocatable object (e_type %u)",
				  eh->e_type);
	return 0;
}

/* libelf quietly reports zero sections when the header table is cut off:
 * say what is wrong instead. */
static int check_shdrs(Elf *elf, size_t size, size_t cnt, struct errbuf *eb)
{
	Elf64_Ehdr *eh = elf64_getehdr(elf);
	size_t want = eh && eh->e_shnum ? eh->e_shnum : cnt;

	if (!eh || eh->e_shoff == 0 || want == 0)
		return errbuf_set(eb, -EINVAL, "no section headers");
	if (eh->e_shentsize != sizeof(Elf64_Shdr))
		return errbuf_set(eb, -EINVAL, "section header size %u, want %zu",
				  eh->e_shentsize, sizeof(Elf64_Shdr));
	if (eh->e_shoff > size || want > (size - eh->e_shoff) / sizeof(Elf64_Shdr))
		return errbuf_set(eb, -EINVAL,
				  "section headers lie outside the file (truncated?)");
	if (cnt == 0)
		return errbuf_set(eb, -EINVAL, "no section headers");
	return 0;
}

static int read_sec(struct elf_file *ef, Elf_Scn *scn, size_t shstrndx,
		    struct errbuf *eb)
{
	size_t idx = elf_ndxscn(scn);
	struct elf_sec *sec;
	GElf_Shdr gsh, *sh = &gsh;
	Elf_Data *d;

	if (idx == 0 || idx >= ef->sec_cnt)
		return errbuf_set(eb, -EINVAL, "bad section index %zu", idx);
	sec = &ef->secs[idx];
	/* gelf copies the header: libelf may hand out misaligned
	 * pointers into the image on x86. */
	if (!gelf_getshdr(scn, sh))
		return errbuf_set(eb, -EINVAL, "cannot read section header %zu: %s",
				  idx, elf_errmsg(-1));
	sec->shdr = *sh;
	sec->name = elf_strptr(ef->elf, shstrndx, sh->sh_name);
	if (!sec->name)
		return errbuf_set(eb, -EINVAL, "section %zu has a bad name offset %u",
				  idx, sh->sh_name);
	if (sec_is_skipped(sh, sec->name))
		return 0;
	d = elf_getdata(scn, NULL);
	if (!d)
		return errbuf_set(eb, -EINVAL, "cannot read section %zu (%s): %s",
				  idx, sec->name, elf_errmsg(-1));
	sec->data = d->d_buf;
	sec->size = d->d_size;
	sec->loaded = true;
	if (sh->sh_type != SHT_NOBITS && sec->size && !sec->data)
		return errbuf_set(eb, -EINVAL, "section %s has no contents",
				  sec->name);
	return 0;
}

static int read_symtab(struct elf_file *ef, struct errbuf *eb)
{
	size_t i;

	for (i = 1; i < ef->sec_cnt; i++) {
		const struct elf_sec *sec = &ef->secs[i];

		if (sec->shdr.sh_type != SHT_SYMTAB)
			continue;
		if (ef->syms)
			return errbuf_set(eb, -EINVAL, "more than one symbol table");
		if (sec->shdr.sh_entsize != sizeof(Elf64_Sym))
			return errbuf_set(eb, -EINVAL,
					  "symbol table entry size %llu, want %zu",
					  (unsigned long long)sec->shdr.sh_entsize,
					  sizeof(Elf64_Sym));
		/* A private, aligned copy: symbols are read field by field. */
		ef->sym_cnt = sec->size / sizeof(Elf64_Sym);
		ef->syms = calloc(ef->sym_cnt ? ef->sym_cnt : 1, sizeof(Elf64_Sym));
		if (!ef->syms)
			return errbuf_set(eb, -ENOMEM, "out of memory");
		if (ef->sym_cnt)
			memcpy(ef->syms, sec->data, ef->sym_cnt * sizeof(Elf64_Sym));
		ef->symtab_idx = i;
		ef->strtab_idx = sec->shdr.sh_link;
	}
	if (!ef->syms)
		return errbuf_set(eb, -ENOENT,
				  "no symbol table (stripped object?)");
	if (ef->strtab_idx == 0 || ef->strtab_idx >= ef->sec_cnt ||
	    ef->secs[ef->strtab_idx].shdr.sh_type != SHT_STRTAB)
		return errbuf_set(eb, -EINVAL,
				  "symbol table links to bad string section %zu",
				  ef->strtab_idx);
	return 0;
}

int elf_file_open(struct elf_file *ef, const void *buf, size_t size,
		  struct errbuf *eb)
{
	size_t shstrndx, i;
	Elf_Scn *scn = NULL;
	int err;

	memset(ef, 0, sizeof(*ef));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return errbuf_set(eb, -EINVAL, "libelf is too old");
	ef->elf = elf_memory((char *)buf, size);
	if (!ef->elf)
		return errbuf_set(eb, -EINVAL, "not an ELF file: %s", elf_errmsg(-1));
	err = check_header(ef->elf, eb);
	if (err)
		return err;
	if (elf_getshdrnum(ef->elf, &ef->sec_cnt))
		return errbuf_set(eb, -EINVAL, "cannot read the section count: %s",
				  elf_errmsg(-1));
	err = check_shdrs(ef->elf, size, ef->sec_cnt, eb);
	if (err)
		return err;
	if (elf_getshdrstrndx(ef->elf, &shstrndx) || shstrndx == 0 ||
	    shstrndx >= ef->sec_cnt)
		return errbuf_set(eb, -EINVAL, "bad section name table index");
	/* Rejects a truncated name table before elf_strptr() reads it. */
	if (!elf_rawdata(elf_getscn(ef->elf, shstrndx), NULL))
		return errbuf_set(eb, -EINVAL, "cannot read section names: %s",
				  elf_errmsg(-1));
	ef->secs = calloc(ef->sec_cnt, sizeof(*ef->secs));
	if (!ef->secs)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	for (i = 0; i < ef->sec_cnt; i++)
		ef->secs[i].name = "";
	while ((scn = elf_nextscn(ef->elf, scn)) != NULL) {
		err = read_sec(ef, scn, shstrndx, eb);
		if (err)
			return err;
	}
	return read_symtab(ef, eb);
}

void elf_file_close(struct elf_file *ef)
{
	if (ef->elf)
		elf_end(ef->elf);
	free(ef->secs);
	free(ef->syms);
	memset(ef, 0, sizeof(*ef));
}

const struct elf_sec *elf_file_sec(const struct elf_file *ef, size_t idx)
{
	if (idx == 0 || idx >= ef->sec_cnt)
		return NULL;
	return &ef->secs[idx];
}

size_t elf_file_sec_by_name(const struct elf_file *ef, const char *name)
{
	size_t i;

	for (i = 1; i < ef->sec_cnt; i++)
		if (!strcmp(ef->secs[i].name, name))
			return i;
	return 0;
}

const Elf64_Sym *elf_file_sym(const struct elf_file *ef, size_t idx)
{
	if (idx >= ef->sym_cnt)
		return NULL;
	return &ef->syms[idx];
}

const char *elf_file_sym_name(const struct elf_file *ef, const Elf64_Sym *sym)
{
	const struct elf_sec *sec;

	if (ELF64_ST_TYPE(sym->st_info) == STT_SECTION && sym->st_name == 0) {
		sec = elf_file_sec(ef, sym->st_shndx);
		return sec ? sec->name : NULL;
	}
	return elf_strptr(ef->elf, ef->strtab_idx, sym->st_name);
}

size_t elf_file_rel_cnt(const struct elf_sec *sec)
{
	return sec->data ? sec->size / sizeof(Elf64_Rel) : 0;
}

void elf_file_rel(const struct elf_sec *sec, size_t idx, Elf64_Rel *rel)
{
	memcpy(rel, (const char *)sec->data + idx * sizeof(*rel), sizeof(*rel));
}
