/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * State shared by the steps of opening an ELF object (object.c drives
 * them in libbpf's order): section classification and function
 * collection (sections.c), externs (externs.c), BTF fix-ups
 * (btf_fixup.c), maps (maps.c), .BTF.ext (btf_ext.c) and relocation
 * (reloc.c). It lives only while bpfvet_object__open*() runs.
 */
#ifndef BPFVET_LOADER_STEPS_H
#define BPFVET_LOADER_STEPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elf_reader.h"
#include "loader.h"

#define INSN_SZ 8

enum sec_kind {
	SEC_OTHER,
	SEC_CODE,		/* executable: programs or subprograms */
	SEC_DATA,		/* .data, .data.* */
	SEC_RODATA,		/* .rodata, .rodata.* */
	SEC_BSS,		/* .bss, .bss.* */
	SEC_LEGACY_MAPS,	/* maps, maps/... (struct bpf_map_def) */
	SEC_BTF_MAPS,		/* .maps */
	SEC_STRUCT_OPS,		/* .struct_ops, .struct_ops.link */
	SEC_ARENA,		/* .addr_space.1 */
	SEC_RELO,		/* relocations we act on */
};

enum relo_kind {
	RELO_MAP,		/* LD_IMM64 of a map (legacy or BTF) */
	RELO_DATA,		/* LD_IMM64 of global data: map value + offset */
	RELO_CALL,		/* bpf-to-bpf call into .text */
	RELO_SUBPROG_ADDR,	/* LD_IMM64 of a .text function (callback) */
	RELO_EXTERN_LD64,	/* LD_IMM64 of a __ksym or __kconfig extern */
	RELO_EXTERN_CALL,	/* call of an extern kfunc */
	RELO_UNRESOLVED,	/* lenient open: left as compiled (see func.problem) */
};

struct relo {
	enum relo_kind kind;
	size_t insn;		/* index inside the owning function */
	size_t map_idx;
	size_t ext_idx;
	uint64_t sym_off;	/* symbol value, in bytes */
	size_t sec_idx;		/* RELO_CALL: the callee's section */
	size_t seq;		/* order in the file, for a stable sort */
};

/* One function body: an entry program or a .text subprogram. */
struct func {
	char *name;
	size_t sec_idx;
	size_t sec_insn_off;
	size_t insn_cnt;
	struct bpfvet_insn *insns;	/* private copy, never relocated */
	bool in_text;			/* lives in .text: appended by callers */
	bool entry;			/* exposed as a program */
	bool sym_global;
	bool hidden;			/* global with hidden visibility */
	struct relo *relos;		/* sorted by insn */
	size_t relo_cnt;
	/* Position inside the program being built, valid when appended. */
	size_t sub_insn_off;
	bool appended;
	/* Lenient open: first problem that spoils every program containing
	 * this function (an entry in obj->warnings), or NULL. */
	const char *problem;
	/* Has CO-RE records left as compiled for want of a target BTF. */
	bool core_pending;
};

/* Sorted in this order; unresolved externs (lenient open only) last. */
enum ext_type { EXT_KCFG, EXT_KSYM, EXT_UNRESOLVED };

/* What a .kconfig extern can hold, as libbpf classifies it. */

struct ld_extern {
	char *name;
	enum ext_type type;
	int btf_id;		/* VAR or FUNC */
	int sec_btf_id;		/* DATASEC holding it */
	bool is_func;
	bool weak;
	uint32_t type_id;	/* ksym: target type, 0 when typeless */
	size_t sym_idx;
	/* kconfig layout inside the .kconfig map */
	uint32_t kcfg_off;
	uint32_t kcfg_sz;
	uint32_t kcfg_align;
	enum kcfg_type kcfg_type;
	bool kcfg_signed;
	/* Value known (kconfig.c, kallsyms.c); typeless ksyms: ksym_addr. */
	bool is_set;
	uint64_t ksym_addr;
	/* EXT_UNRESOLVED: why (an entry in obj->warnings). */
	const char *problem;
	/* EXT_UNRESOLVED for want of BTF: cilium/ebpf leaves the
	 * instructions that load it as the constant the compiler wrote. */
	bool no_btf;
};

/* One .BTF.ext sub-section (func_info, line_info or CO-RE). */
struct ext_info_sec {
	size_t elf_sec;		/* 0 when its section is unknown */
	const uint8_t *recs;
	uint32_t cnt;
};

struct ext_info {
	uint32_t rec_size;
	struct ext_info_sec *secs;
	size_t sec_cnt;
};

struct btf_ext_view {
	bool present;
	struct ext_info func;
	struct ext_info line;
	struct ext_info core;
};

/* A struct_ops member that points to a program (struct_ops.c). */
struct st_ops_slot {
	int map;		/* index in obj->maps */
	uint32_t member;	/* member index in the map's local struct */
	size_t sec_idx;		/* the program's section and first insn */
	size_t insn;
};

/* Extra facts about legacy maps that only matter while linking them. */
struct legacy_def {
	size_t map_idx;
	uint32_t id;		/* iproute2 */
	uint32_t inner_id;
	uint32_t inner_idx;
	uint32_t inner_map_idx;	/* samples/bpf 28-byte form */
	bool iproute2;
	bool samples;
};

struct loader {
	struct bpfvet_object *obj;
	struct errbuf *eb;
	/* Record libbpf's fatal semantic problems as warnings (problems.c). */
	bool lenient;
	struct btf *targ_btf;		/* CO-RE target, NULL when none */
	uint32_t nr_cpus;		/* possible CPUs of the target */
	bool no_syscall_wrapper;	/* LINUX_HAS_SYSCALL_WRAPPER reads 0 */
	struct elf_file elf;
	uint8_t *sec_kind;		/* enum sec_kind, per ELF section */
	size_t text_shndx;		/* 0 when there is no .text */
	size_t btf_maps_shndx;
	size_t arena_shndx;
	size_t btf_shndx;
	size_t btf_ext_shndx;
	uint32_t maps_datasec_id;	/* DATASEC ".maps" */

	struct func *funcs;		/* sorted by (sec_idx, sec_insn_off) */
	size_t func_cnt;
	struct ld_extern *exts;
	size_t ext_cnt;
	struct btf_ext_view ext;

	struct legacy_def *legacy;
	size_t legacy_cnt;
	/* Inner map templates waiting to be appended after all maps. */
	struct bpfvet_map *inner;
	size_t *inner_outer;		/* outer map index of each template */
	size_t inner_cnt;
	struct st_ops_slot *st_slots;
	size_t st_slot_cnt;
	int kconfig_map;		/* -1 when absent */
	int arena_map;

	/* opts->prog_type, resolved: a kernel type name, or a section name
	 * whose attach type and flags come along. */
	bool have_override;
	bool override_from_sec;
	uint32_t override_type;
	uint32_t override_attach;
	uint32_t override_flags;
};

/* problems.c: strict, sets the error and returns err; lenient, records a
 * warning, stores its text in *textp (may be NULL) and returns 0. Either
 * way -ENOMEM when out of memory. */
int ld_problem(struct loader *ld, const char **textp, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void problems_free(struct bpfvet_object *obj);
/* A warning of the object, strict or lenient; -ENOMEM or 0. */
int ld_warning(struct loader *ld, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A problem of one program that every loader has at load time, whatever
 * the conventions: a warning, and the program's problem (refused). */
int ld_refuse(struct loader *ld, struct bpfvet_program *prog, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* externs.c: after progs_build, with a target BTF: programs that use a
 * strong kfunc or typed ksym it lacks are refused, as by libbpf at load. */
int externs_check(struct loader *ld);
/* map_target.c: after progs_build, with a target BTF: programs that use
 * a map of a type it lacks are refused, as the kernel refuses to create
 * the map. */
int maps_check_target(struct loader *ld);
/* The first map, in the object's order (libbpf creates them in it), that
 * program p names and `fails` says cannot be created; -1 when none. */
int prog_first_map(const struct loader *ld, const struct bpfvet_program *p,
		   bool (*fails)(const struct bpfvet_map *m, const void *ctx), const void *ctx);
/* attach.c: after progs_build, with a target BTF: programs whose attach
 * target it lacks are refused, as by libbpf at load. */
int attach_check(struct loader *ld);

/* conventions.c: whose conventions to load by (after sections_classify);
 * sets obj->conv and obj->conv_reason, and makes a non-libbpf open
 * lenient. */
int conventions_choose(struct loader *ld, enum bpfvet_conventions asked);
bool conv_is_tail_section(const char *name);
/* After progs_build: the types other loaders give to sections libbpf's
 * table does not know. */
int conventions_types(struct loader *ld);
int conv_warn_libbpf(struct loader *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* sections.c */
int sections_classify(struct loader *ld);
int sections_collect_funcs(struct loader *ld);
bool sym_is_extern(const Elf64_Sym *sym);
struct func *funcs_find(const struct loader *ld, size_t sec_idx, size_t insn);
void funcs_free(struct loader *ld);

/* externs.c */
int externs_collect(struct loader *ld);
const struct ld_extern *externs_by_sym(const struct loader *ld, size_t sym_idx,
				       size_t *idx);
void externs_free(struct loader *ld);

/* btf_fixup.c */
int btf_open(struct loader *ld);
int btf_fixup_datasecs(struct loader *ld);
int btf_fixup_externs(struct loader *ld);
int btf_finalize(struct loader *ld);
/* Alignment of a type as libbpf computes it, without trusting the BTF. */
int btf_align_of(const struct btf *btf, uint32_t id, int depth);
/* Linkage of a BTF FUNC (kept in its vlen bits). */
#define btf_func_linkage(t) ((unsigned int)btf_vlen(t))

/* btf_ext.c */
void btf_ext_parse(struct loader *ld);
void btf_ext_free(struct loader *ld);
int btf_ext_append(struct loader *ld, struct bpfvet_program *prog,
		   const struct func *fn);

/* maps.c, maps_legacy.c, maps_btf.c */
int maps_init(struct loader *ld);
int maps_legacy(struct loader *ld);
int maps_legacy_link(struct loader *ld);
int maps_btf(struct loader *ld);
struct bpfvet_map *maps_add(struct loader *ld);
int maps_set_names(struct loader *ld, struct bpfvet_map *m, const char *name,
		   const char *real_name);
/* maps_add() and maps_set_names(), with where the map comes from; NULL
 * (the error already in ld->eb) on failure. */
struct bpfvet_map *maps_add_named(struct loader *ld, const char *name,
				  const char *real_name, enum bpfvet_map_origin origin,
				  size_t sec_idx);
int maps_set_slot(struct loader *ld, struct bpfvet_map *m, size_t slot,
		  const char *target);
bool map_is_map_in_map(uint32_t type);
int maps_collect_btf_relos(struct loader *ld, const struct elf_sec *rsec);
int maps_link(struct loader *ld);
void maps_free_one(struct bpfvet_map *map);
/* Sets each map's inner pointer once the table no longer moves. */
void maps_resolve_inner(struct bpfvet_map *maps, size_t cnt);
const char *map_type_name(uint32_t type);

/* struct_ops.c */
int struct_ops_collect_relos(struct loader *ld, const struct elf_sec *rsec);
/* Sets st_ops_map/st_ops_member of every program once they are built. */
void struct_ops_assign(struct loader *ld);
/* After struct_ops_assign, with a target BTF: each program's struct and
 * member in the kernel's BTF; a program whose struct or member the target
 * lacks is refused, as by libbpf when it prepares the struct_ops map. */
int struct_ops_resolve(struct loader *ld);

/* loader_caps.c: last, what libbpf's load does for a process without
 * the BPFVET_CAP_* bits in `drop` (bpfvet_open_opts.loader_drop_caps). */
int loader_caps_apply(struct loader *ld, uint32_t drop);

/* progtype.c: see progtype.h */

/* kconfig.c: fills the .kconfig map (path: kernel config or NULL;
 * kernel_version: KERNEL_VERSION(a, b, c) or 0 for unknown). */
int kconfig_fill(struct loader *ld, const char *path, uint32_t kernel_version);
void kconfig_target_facts(struct loader *ld, const char *path);
void kconfig_target_switches(struct loader *ld, const char *path);

/* kallsyms.c: addresses of typeless ksyms, from a kallsyms file or, when
 * path is NULL, made up (non-zero, distinct). */
int kallsyms_fill(struct loader *ld, const char *path);

/* core_relo.c: CO-RE relocations of every function, against targ (NULL:
 * only those that need no target). */
int core_apply(struct loader *ld, const struct btf *targ);

/* reloc.c */
int relos_collect(struct loader *ld);
int progs_build(struct loader *ld);

/* object.c */
void prog_free_contents(struct bpfvet_program *prog);

#endif
