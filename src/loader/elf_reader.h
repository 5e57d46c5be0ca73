/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Read-only view of a relocatable BPF ELF file through libelf: section
 * headers, names and contents, the symbol table and relocation entries,
 * with every index and offset checked before use.
 */
#ifndef BPFVET_ELF_READER_H
#define BPFVET_ELF_READER_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>

#include "base/base.h"

#ifndef EM_BPF
#define EM_BPF 247
#endif
#ifndef SHT_LLVM_ADDRSIG
#define SHT_LLVM_ADDRSIG 0x6FFF4C03
#endif

struct elf_sec {
	const char *name;	/* "" when the name cannot be read */
	Elf64_Shdr shdr;
	/* Contents as libelf returns them; data is NULL for SHT_NOBITS and
	 * for sections whose contents were not loaded (debug info). */
	const void *data;
	size_t size;
	bool loaded;
};

struct elf_file {
	Elf *elf;
	struct elf_sec *secs;	/* indexed by ELF section index */
	size_t sec_cnt;		/* including the null section 0 */
	Elf64_Sym *syms;		/* aligned copy */
	size_t sym_cnt;
	size_t symtab_idx;
	size_t strtab_idx;
};

/* buf must stay valid and unmodified until elf_file_close(). */
int elf_file_open(struct elf_file *ef, const void *buf, size_t size,
		  struct errbuf *eb);
void elf_file_close(struct elf_file *ef);

const struct elf_sec *elf_file_sec(const struct elf_file *ef, size_t idx);
/* First section with this name, or 0 when there is none. */
size_t elf_file_sec_by_name(const struct elf_file *ef, const char *name);
const Elf64_Sym *elf_file_sym(const struct elf_file *ef, size_t idx);
/* Name of a symbol; section symbols without a name take their section's
 * name. NULL when the name offset is invalid. */
const char *elf_file_sym_name(const struct elf_file *ef, const Elf64_Sym *sym);

/* Relocation entries of a SHT_REL section. */
size_t elf_file_rel_cnt(const struct elf_sec *sec);
void elf_file_rel(const struct elf_sec *sec, size_t idx, Elf64_Rel *rel);

#endif
