/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * In-memory form of a BPF object after a libbpf-style load: maps, programs
 * with their relocated instructions and the BTF side tables. The loader
 * (object.c and the steps listed in loader.h) fills these; everything
 * else only reads them.
 *
 * Conventions for relocated instructions (what the kernel would see, with
 * map indexes where the kernel would see fds):
 *  - LD_IMM64 src=BPF_PSEUDO_MAP_FD:    imm = index in obj->maps;
 *  - LD_IMM64 src=BPF_PSEUDO_MAP_VALUE: imm = map index, next imm = offset;
 *  - LD_IMM64 src=BPF_PSEUDO_FUNC:      imm = relative insn offset (kernel form);
 *  - CALL src=BPF_PSEUDO_CALL:          imm = relative insn offset (kernel form);
 *  - CALL src=BPF_PSEUDO_KFUNC_CALL and LD_IMM64 src=BPF_PSEUDO_BTF_ID:
 *                                       imm = index in prog->externs, off = 0.
 * except where prog->insn_flags says otherwise (INSN_F_LITERAL_FD).
 */
#ifndef BPFVET_OBJECT_H
#define BPFVET_OBJECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfvet.h"

struct btf;

struct bpfvet_map {
	char *name;
	/* Full source name: the ELF section of a data map (".rodata.str1.1"),
	 * the variable of other maps. */
	char *real_name;
	enum bpfvet_map_origin origin;
	uint32_t type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;
	uint64_t map_extra;	/* 64 bits: an arena's address */
	uint32_t numa_node;
	uint32_t pinning;
	/* BTF type ids in the object's BTF (0 when absent). */
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	/* For data maps: the DATASEC type id; for BTF maps: the VAR type. */
	uint32_t btf_var_type_id;
	/* Index in obj->maps of the inner map template, or -1. */
	int inner_idx;
	/* The same, as a pointer into the final table (NULL when none). */
	const struct bpfvet_map *inner;
	/* Source section and offset of the definition. */
	int sec_idx;
	size_t sec_off;
	/* Initial value of global data (.data, .rodata) and of a .kconfig
	 * map whose values are all known; NULL for .bss. */
	void *init_data;
	size_t init_size;
	/* Frozen before any program runs, as libbpf freezes .rodata and a
	 * filled .kconfig: the verifier may read init_data as constants. */
	bool frozen;
	/* A frozen map whose contents bpfvet knows only in part (a .kconfig
	 * with some values not given): init_size flags, 1 per known byte.
	 * NULL: every byte is known. */
	uint8_t *init_known;
	/* Initial contents of a map-in-map or prog_array: slot -> map/prog
	 * name (from `.values = { ... }`), `init_cnt` entries. */
	char **init_slots;
	size_t init_cnt;
	/* Lenient open: why this map is not what libbpf would create (an
	 * entry in obj->warnings), or NULL. */
	const char *problem;
};

/* One subprogram inside a relocated program. Index 0 is the entry. */
struct bpfvet_subprog {
	char *name;
	size_t start;		/* first insn in prog->insns */
	size_t len;
	bool global;		/* BTF FUNC with global linkage */
	uint32_t btf_func_id;	/* BTF_KIND_FUNC id, 0 when unknown */
};

enum bpfvet_extern_kind {
	BPFVET_EXTERN_KFUNC,	/* extern function called with PSEUDO_KFUNC_CALL */
	BPFVET_EXTERN_KSYM,	/* extern variable (__ksym) */
	BPFVET_EXTERN_KCONFIG,	/* extern in .kconfig */
};

struct bpfvet_extern {
	char *name;
	enum bpfvet_extern_kind kind;
	uint32_t btf_id;	/* FUNC or VAR id in the object's BTF */
	bool weak;
	/* __ksym variables: 0 for typeless ones (`extern const void x
	 * __ksym`), which stay plain LD_IMM64 constants (src_reg 0). */
	uint32_t type_id;
	/* __kconfig: offset of the value in the .kconfig map. */
	uint32_t kcfg_off;
	/* Index among all the object's externs, in libbpf's order: libbpf
	 * names an unresolved weak kfunc by it (call 2002000000 + index). */
	uint32_t obj_idx;
};

/* An LD_IMM64 of a typeless __ksym extern (`extern const void x
 * __ksym`): the instruction stays a plain constant 0 here, and the kernel
 * loader writes the kallsyms address into it. */
struct bpfvet_ksym_ref {
	uint32_t insn;		/* index in prog->insns */
	uint32_t ext;		/* index in prog->externs */
};

/* func_info / line_info / CO-RE records, re-indexed to prog->insns: every
 * insn_off is an instruction index (the kernel wants CO-RE insn_off in
 * bytes: multiply by 8). Layouts match the kernel's bpf_func_info,
 * bpf_line_info and bpf_core_relo. */
struct bpfvet_func_info {
	uint32_t insn_off;
	uint32_t type_id;
};

struct bpfvet_line_info {
	uint32_t insn_off;
	uint32_t file_name_off;	/* offsets in the object's BTF strings */
	uint32_t line_off;
	uint32_t line_col;	/* line << 10 | col, as in .BTF.ext */
};

struct bpfvet_core_relo {
	uint32_t insn_off;
	uint32_t type_id;
	uint32_t access_str_off;
	uint32_t kind;
};

/* Bits of bpfvet_program.insn_flags[i]. */
enum {
	/* LD_IMM64 src=BPF_PSEUDO_MAP_FD or BPF_PSEUDO_MAP_VALUE that no
	 * relocation rewrote (hand-written code): imm is the file descriptor
	 * the author wrote, which the kernel would look up, not a map index. */
	INSN_F_LITERAL_FD = 1u << 0,
};

struct bpfvet_program {
	struct bpfvet_object *obj;	/* NULL for raw programs */
	char *name;
	char *sec_name;
	uint32_t type;
	uint32_t expected_attach_type;
	uint32_t prog_flags;		/* implied by the section name */
	char *attach_target;		/* text after "fentry/" etc., or NULL */
	bool type_known;		/* false: section name not recognised */
	bool autoload;			/* false for SEC("?...") */
	int sec_idx;
	size_t sec_insn_off;		/* entry function's offset in its section */

	struct bpfvet_insn *insns;
	size_t insn_cnt;
	/* INSN_F_* per instruction, insn_cnt entries; NULL when none is set. */
	uint8_t *insn_flags;

	struct bpfvet_subprog *subprogs;
	size_t subprog_cnt;

	struct bpfvet_extern *externs;
	size_t extern_cnt;

	struct bpfvet_func_info *func_info;
	size_t func_info_cnt;
	struct bpfvet_line_info *line_info;
	size_t line_info_cnt;
	struct bpfvet_core_relo *core_relos;
	size_t core_relo_cnt;
	/* Some CO-RE records needed a target BTF and none was given: the
	 * instructions they point at are as the compiler wrote them. */
	bool core_pending;

	struct bpfvet_ksym_ref *ksym_refs;
	size_t ksym_ref_cnt;

	/* struct_ops programs: the struct_ops map (index in obj->maps) and
	 * the member of its local struct type that points to the program;
	 * st_ops_map is -1 when no struct_ops variable names the program. */
	int st_ops_map;
	uint32_t st_ops_member;
	/* The same role in the target BTF, as libbpf resolves it at load:
	 * the kernel's struct (0 when unresolved: no target BTF, no map, or
	 * the program is refused) and the index of the member there, which
	 * libbpf passes as expected_attach_type. */
	uint32_t st_ops_kern_type;
	uint32_t st_ops_kern_member;

	/* Raw programs own a private map table; object programs use obj's. */
	struct bpfvet_map *raw_maps;
	size_t raw_map_cnt;
	char *raw_license;

	/* Why its loader could not load this program (an entry in
	 * obj->warnings), or NULL. Such a program is not verified. */
	const char *problem;
	/* The loader's errno for it when known (-ESRCH: no attach target),
	 * else 0. */
	int problem_err;
};

struct bpfvet_object {
	char *name;
	char *license;
	uint32_t kversion;
	/* The target's KERNEL_VERSION (bpfvet_open_opts.kernel_version), 0
	 * when unknown: which verifier's rules apply (rules/kver.h). */
	uint32_t target_kver;
	/* KRULE_* bits (bpfvet_open_opts.verifier_rules): the rules of the
	 * target's build that no version tells (rules/kver.h). */
	uint32_t verifier_rules;
	struct btf *btf;		/* NULL when the object has no .BTF */
	/* The conventions it was loaded by, and why (conventions.c). */
	enum bpfvet_conventions conv;
	char *conv_reason;
	/* The target kernel (bpfvet_open_opts.target, or one of its own
	 * from btf_custom_path): a reference, NULL when none was given. */
	struct bpfvet_target *target;
	/* Its BTF, for the verifier: attach targets and the types of BTF
	 * pointers. NULL without a target. */
	struct btf *targ_btf;
	/* Its name index (btf_index.c), NULL without target or memory. */
	struct btf_index *targ_index;
	/* Whether the target's kallsyms lists data symbols (its config's
	 * CONFIG_KALLSYMS_ALL): 1 yes, -1 no, 0 unknown (no config read).
	 * Without them the kernel cannot load a typed ksym variable. */
	int targ_data_syms;
	/* Whether the target lists functions for error injection (its
	 * config's CONFIG_FUNCTION_ERROR_INJECTION): 1 yes, -1 no (the
	 * config says "is not set"), 0 unknown (no config, or one that does
	 * not name it). Sleepable and fmod_ret programs attach to listed
	 * functions; the attach check needs the answer. */
	int targ_error_injection;
	/* Whether the target locks itself down at boot (its config's
	 * CONFIG_LOCK_DOWN_KERNEL_FORCE_*): 1 integrity or confidentiality,
	 * -1 none, 0 unknown. Locked down, it offers no
	 * bpf_probe_write_user. (Debian's "none" kernels still lock down
	 * under EFI secure boot, which a config cannot tell.) */
	int targ_lockdown;
	/* .BTF bytes as libbpf would pass them to the kernel (DATASEC sizes
	 * and offsets, extern sections and hidden functions fixed up), and
	 * the raw .BTF.ext bytes (NULL when absent or malformed). */
	void *btf_data;
	size_t btf_size;
	void *btf_ext_data;
	size_t btf_ext_size;
	/* What the loading process lacked (bpfvet_open_opts.loader_drop_caps)
	 * and what that changed: the kernel never got the object's BTF (no
	 * CAP_BPF; func_info and line_info are then gone from the programs,
	 * and maps are created without BTF types), and the maps were created
	 * without CAP_PERFMON (the kernel's map->bypass_spec_v1 is false). */
	uint32_t loader_drop_caps;
	bool btf_unloaded;
	bool maps_unpriv;

	struct bpfvet_map *maps;
	size_t map_cnt;
	struct bpfvet_program *progs;
	size_t prog_cnt;

	/* Problems a lenient open recorded instead of failing, in the order
	 * found; programs and maps point at the ones that concern them. */
	char **warnings;
	size_t warning_cnt;
};

static inline bool prog_insn_flag(const struct bpfvet_program *prog, size_t idx,
				  unsigned int flag)
{
	return prog->insn_flags && idx < prog->insn_cnt && (prog->insn_flags[idx] & flag);
}

/* Map table and license that apply to a program, object or raw. */
static inline const struct bpfvet_map *prog_maps(const struct bpfvet_program *prog,
						 size_t *cnt)
{
	if (prog->obj) {
		*cnt = prog->obj->map_cnt;
		return prog->obj->maps;
	}
	*cnt = prog->raw_map_cnt;
	return prog->raw_maps;
}

/* externs.c: the kernel's FUNC or VAR for an extern, as libbpf resolves
 * it against the target BTF (the name without its ___flavor, a compatible
 * type), or -ENOENT; and whether the extern is a weak ksym or kfunc that
 * the target lacks (libbpf leaves 0 for it). */
int extern_kernel_id(const struct bpfvet_program *prog, const struct btf *targ,
		     const struct bpfvet_extern *e);
bool ksym_weak_absent(const struct bpfvet_program *prog, uint32_t ext);

/* libbpf turns a call of a weak kfunc that the target lacks into a call
 * of helper 2002000000 + the extern's index among the object's externs,
 * which the kernel refuses only if the walk reaches it. */
#define BPFVET_POISON_KFUNC_BASE 2002000000

/* target.c: a target kernel's BTF, shared by reference count. */
struct errbuf;
struct bpfvet_target {
	struct btf *btf;
	struct btf_index *index;	/* NULL without memory for it */
	int refs;
};

int target_open(const char *path, struct errbuf *eb, struct bpfvet_target **tp);
struct bpfvet_target *target_get(struct bpfvet_target *t);
void target_put(struct bpfvet_target *t);

/* object.c: libbpf's rule for opts structs from newer callers, whose
 * bytes past the fields we know must be zero; OPTS_HAS says whether the
 * caller's struct reaches a field. */
bool opts_valid(const void *opts, size_t known);
#define OPTS_HAS(o, field) \
	((o) && (o)->sz >= offsetof(__typeof__(*(o)), field) + sizeof((o)->field))

#endif /* BPFVET_OBJECT_H */
