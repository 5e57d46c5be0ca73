/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The loader's contract. It opens a BPF ELF object as libbpf would load
 * it (maps, relocations, CO-RE against the target BTF, externs, .kconfig,
 * struct_ops) and offers:
 *  - the in-memory object model (object.h): maps, programs, relocated
 *    instructions, func/line info, externs, the shared target;
 *  - program types from section names (progtype.h) and map type names
 *    (maps.h);
 *  - CO-RE matching (core.h): essential names, type compatibility;
 *  - the two parsers the kernel loader shares: .kconfig values and BTF
 *    modifier skipping.
 * It may use base/ only. Its internals (the open steps, steps.h; the ELF
 * reader) are not for other folders.
 */
#ifndef BPFVET_LOADER_H
#define BPFVET_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"
#include "core.h"
#include "maps.h"
#include "object.h"
#include "progtype.h"

struct btf;
struct btf_type;

/* btf_fixup.c: follows typedefs and modifiers; NULL on a bad or looping
 * id. */
const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t id,
				     uint32_t *res_id);

/* struct_ops.c: the member of a kernel struct_ops type named `name`
 * (its index, or -1), and whether a member's type is a function pointer,
 * which is what a struct_ops member must be. The loader and the kernel
 * loader (src/kernel) both ask. */
int struct_ops_member_named(const struct btf *btf, const struct btf_type *t, const char *name);
bool struct_ops_member_is_func_ptr(const struct btf *btf, uint32_t type);

/* kconfig.c */
enum kcfg_type {
	KCFG_UNKNOWN,
	KCFG_CHAR,		/* 1-byte integer: also takes 'y', 'n', 'm' */
	KCFG_BOOL,
	KCFG_INT,		/* 2, 4 or 8 bytes */
	KCFG_TRISTATE,		/* enum libbpf_tristate */
	KCFG_CHAR_ARR,		/* string */
};

/* What libbpf can fill from the kernel config into a variable of BTF type
 * type_id (bool, tristate, char, integers of 2, 4 or 8 bytes, char
 * arrays); *is_signed for integers. */
enum kcfg_type kconfig_type_of(const struct btf *btf, uint32_t type_id, bool *is_signed);

/* The loader (bpfvet verify --kconfig) and the kernel loader (bpfvet
 * kernel) parse values alike, but the kernel loader words its refusals as
 * libbpf does (a number as the decimal it parsed to, "invalid string
 * config"), takes y/n/m only as the whole value (the loader, like libbpf,
 * goes by the first character) and numbers of at most 63 characters. */
enum kconfig_style { KCONFIG_STYLE_LOADER, KCONFIG_STYLE_KERNEL };

/* One __kconfig value to write, with libbpf's rules. */
struct kconfig_slot {
	const char *name;	/* the extern, for messages */
	enum kcfg_type type;
	bool is_signed;
	uint32_t size;
	uint8_t *val;		/* where the value goes */
	enum kconfig_style style;
	/* Takes a refusal ("extern (kcfg) 'X': ..."); its return value is
	 * returned: 0 to go on without the value, or a negative errno. */
	int (*refuse)(void *ctx, int err, const char *msg);
	void *ctx;
};

/* A config value of len bytes (y, 250, 0x10, a quoted string): 1 when
 * written, otherwise what refuse() returned (or -ENOMEM). */
int kconfig_set_value(const struct kconfig_slot *s, const char *v, size_t len);
/* A number (the LINUX_* values): same returns. */
int kconfig_set_num(const struct kconfig_slot *s, uint64_t v);

#endif
