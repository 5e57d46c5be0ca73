/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet: a userspace eBPF verifier.
 *
 * Conventions (libbpf style):
 *  - objects are opaque and owned by whoever opened them;
 *  - every opts struct starts with its size (`sz`), so that new fields can
 *    be appended without breaking callers built against an older header;
 *  - functions return 0 or a positive count on success and a negative errno
 *    on failure; a human-readable reason goes into the caller's error buffer
 *    when one is given.
 *
 * Nothing in the library uses global mutable state: two threads may open,
 * inspect and verify different objects concurrently.
 */
#ifndef BPFVET_H
#define BPFVET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BPFVET_VERSION_MAJOR 0
#define BPFVET_VERSION_MINOR 1

/* Same layout as the kernel's struct bpf_insn, so callers may cast. */
struct bpfvet_insn {
	uint8_t code;
	uint8_t dst_reg : 4;
	uint8_t src_reg : 4;
	int16_t off;
	int32_t imm;
};

struct bpfvet_object;
struct bpfvet_program;
struct bpfvet_map;

/* ------------------------------------------------------------------ */
/* Target kernels                                                      */
/* ------------------------------------------------------------------ */

/*
 * A target kernel's BTF, read once and shared by the objects opened for
 * it (bpfvet_open_opts.target): opening many objects for one kernel then
 * parses its BTF (megabytes) once instead of once per object. Each object
 * keeps a reference; bpfvet_target__close() drops the caller's, and the
 * target goes when the last object that uses it is closed. Not
 * thread-safe: share a target between the objects of one thread.
 */
struct bpfvet_target;

struct bpfvet_target_opts {
	size_t sz;
	/* Raw BTF (/sys/kernel/btf/vmlinux) or an ELF file with .BTF, as
	 * bpfvet_open_opts.btf_custom_path. Required. */
	const char *btf_path;
	/* Where to write a one-line reason when opening fails. */
	char *errbuf;
	size_t errbuf_sz;
};
#define bpfvet_target_opts__last_field errbuf_sz

int bpfvet_target__open(const struct bpfvet_target_opts *opts,
			struct bpfvet_target **targetp);
void bpfvet_target__close(struct bpfvet_target *target);

/* ------------------------------------------------------------------ */
/* Opening ELF objects                                                 */
/* ------------------------------------------------------------------ */

/*
 * Whose conventions an object is loaded by. libbpf's are strict; the other
 * loaders accept objects that libbpf refuses, and read some sections their
 * own way. AUTO, the default, chooses per object from what it contains
 * (bpfvet_object__conventions() says which, and why).
 */
enum bpfvet_conventions {
	BPFVET_CONV_AUTO = 0,
	BPFVET_CONV_LIBBPF,	/* libbpf 1.x */
	BPFVET_CONV_CILIUM,	/* the Go library cilium/ebpf */
	BPFVET_CONV_IPROUTE2,	/* tc and ip: struct bpf_elf_map, "id/key" tail sections */
	BPFVET_CONV_LEGACY,	/* samples/bpf, bcc and custom loaders (Falco, OVS, Suricata) */
};

/* "libbpf", "cilium", "iproute2", "legacy", "auto"; NULL for others. */
const char *bpfvet_conventions_name(enum bpfvet_conventions c);
/* The conventions of that name; -EINVAL when unknown. */
int bpfvet_conventions_by_name(const char *name, enum bpfvet_conventions *c);

struct bpfvet_open_opts {
	size_t sz;
	/* Program type for every program, by kernel name ("xdp",
	 * "socket_filter", "sched_cls", ...) or by libbpf section name
	 * ("cgroup/connect4", which also gives the attach type). NULL
	 * infers it from the section name with libbpf's rules. With a type,
	 * an object whose code is all in .text (built without SEC()) gets
	 * its global functions as programs; libbpf would find none. */
	const char *prog_type;
	/* Where to write a one-line reason when opening fails. */
	char *errbuf;
	size_t errbuf_sz;
	/* Inspection mode. Problems that make libbpf refuse the whole
	 * object, though its contents can still be read (externs left for
	 * the static linker, a relocation with no target, an invalid map
	 * attribute), become warnings of the object (bpfvet_object__warning)
	 * instead of failing the open; the programs and maps they spoil say
	 * so (bpfvet_program__problem, bpfvet_map__problem). Malformed ELF,
	 * BTF or relocation sections still fail. false: libbpf's behaviour. */
	bool lenient;
	/* Target kernel BTF for CO-RE relocations: raw BTF
	 * (/sys/kernel/btf/vmlinux) or an ELF file with a .BTF section, as
	 * libbpf's btf_custom_path. NULL: CO-RE relocations that need a
	 * target are not applied, and bpfvet_program__verify() reports such
	 * programs as unsupported. Module BTFs are not searched. */
	const char *btf_custom_path;
	/* Kernel config for __kconfig externs (CONFIG_*), plain or gzip
	 * ("/boot/config-$(uname -r)", "/proc/config.gz"). With it, and with
	 * kernel_version when the object reads LINUX_KERNEL_VERSION, the
	 * .kconfig map is filled and frozen as libbpf does, and the verifier
	 * reads its values as constants. Without them it reads unknown
	 * values. Absent weak externs are 0; absent strong ones fail. */
	const char *kconfig_path;
	/* LINUX_KERNEL_VERSION, KERNEL_VERSION(a, b, c) encoded
	 * (a << 16 | b << 8 | min(c, 255)); 0: unknown. */
	uint32_t kernel_version;
	/* Possible CPUs of the target, the size libbpf gives to a
	 * perf_event_array without max_entries. 0: the host's, read from
	 * /sys/devices/system/cpu/possible as libbpf does (1 if unreadable). */
	uint32_t nr_cpus;
	/* /proc/kallsyms of the target, for typeless ksyms (extern const void
	 * x __ksym), loaded as their address like libbpf does. NULL: each gets
	 * a made-up non-zero kernel address. */
	const char *kallsyms_path;
	/* LINUX_HAS_SYSCALL_WRAPPER reads 0, as libbpf finds where it cannot
	 * probe for the wrapper (bpfvet_kernel__has_syscall_wrapper). false:
	 * 1, as on Linux 6.18 x86-64 with kprobes. */
	bool no_syscall_wrapper;
	/* The target's BTF, opened once for many objects
	 * (bpfvet_target__open); takes the place of btf_custom_path, which
	 * must then be NULL. The object keeps a reference. */
	struct bpfvet_target *target;
	/* Whose conventions to load by; 0 is libbpf's. Under another
	 * loader's, a problem that spoils only some programs or maps (an
	 * extern nothing resolves, a bad map) spoils just those, as in a
	 * lenient open, and what libbpf alone would refuse is a warning that
	 * names the libbpf rule (bpfvet_object__warning). */
	enum bpfvet_conventions conventions;
	/* BPFVET_CAP_* bits the process that loads the object lacks while
	 * libbpf's bpf_object__load creates its BTF and maps; 0: it has them
	 * all (root, or maps and BTF handed over by a privileged process).
	 * Without CAP_BPF the kernel refuses BPF_BTF_LOAD and libbpf goes on
	 * without the BTF: maps have no BTF types, hence no special fields
	 * (bpf_spin_lock, bpf_timer, kptrs), and programs no func_info or
	 * line_info (every subprogram is static); libbpf fails an object
	 * with struct_ops ("BTF is mandatory"). Without CAP_PERFMON the
	 * maps are created under Spectre v1 hardening (the kernel's
	 * map->bypass_spec_v1 is false): a tail call site that sees two
	 * prog arrays is then rejected. A fully unprivileged loader sets all
	 * four, as 'bpfvet verify --unpriv' does. */
	uint32_t loader_drop_caps;
	/* BPFVET_RULE_* bits: verifier rules by which builds of one kernel
	 * release differ (docs/verifier-rules.md), which the target's
	 * verifier follows. 0: none, the recorded reference's behaviour
	 * (Linux 6.18.44 build v1098). bpfvet_kernel__verifier_rules() finds
	 * those of the running kernel. */
	uint32_t verifier_rules;
};
#define bpfvet_open_opts__last_field verifier_rules

/* Verifier rules (bpfvet_open_opts.verifier_rules). */
/* A call that runs a callback synchronously (bpf_loop,
 * bpf_for_each_map_elem, bpf_rbtree_add, ...) is a loop of its own: an
 * SCC, whose pruned callback returns are back-edges. */
#define BPFVET_RULE_CALLBACK_SCC	(1u << 0)
/* Comparing with a checkpoint of a loop still being explored (the
 * RANGE_WITHIN comparison) no longer requires equal stack slot types;
 * only the exact one, that finds infinite loops, does. */
#define BPFVET_RULE_LOOP_SLOT_TYPES	(1u << 1)
#define BPFVET_RULES_ALL		(BPFVET_RULE_CALLBACK_SCC | BPFVET_RULE_LOOP_SLOT_TYPES)
/* "callback-scc", "loop-slot-types" for one bit; NULL for others. */
const char *bpfvet_verifier_rule_name(uint32_t rule);
/* A comma-separated list of rule names, or "none", as bits; -EINVAL for
 * an unknown name or an empty list. */
int bpfvet_verifier_rules_parse(const char *list, uint32_t *rules);
/* The rules as a list for bpfvet_verifier_rules_parse() ("none" for 0),
 * cut to sz bytes; returns the length it needs, as snprintf. */
int bpfvet_verifier_rules_format(uint32_t rules, char *buf, size_t sz);

int bpfvet_object__open(const char *path, const struct bpfvet_open_opts *opts,
			struct bpfvet_object **objp);
int bpfvet_object__open_mem(const void *buf, size_t size, const char *name,
			    const struct bpfvet_open_opts *opts,
			    struct bpfvet_object **objp);
void bpfvet_object__close(struct bpfvet_object *obj);

const char *bpfvet_object__name(const struct bpfvet_object *obj);
const char *bpfvet_object__license(const struct bpfvet_object *obj);
uint32_t bpfvet_object__kversion(const struct bpfvet_object *obj);
size_t bpfvet_object__map_cnt(const struct bpfvet_object *obj);
const struct bpfvet_map *bpfvet_object__map(const struct bpfvet_object *obj,
					    size_t idx);
size_t bpfvet_object__prog_cnt(const struct bpfvet_object *obj);
struct bpfvet_program *bpfvet_object__prog(const struct bpfvet_object *obj,
					   size_t idx);
/* The conventions the object was loaded by (never AUTO), and why: for
 * AUTO, what in the object made the choice. */
enum bpfvet_conventions bpfvet_object__conventions(const struct bpfvet_object *obj);
const char *bpfvet_object__conventions_reason(const struct bpfvet_object *obj);
/* Warnings of the open, in the order found: the problems of a lenient
 * open (see bpfvet_open_opts.lenient) and the rules of libbpf that
 * another loader's conventions set aside. */
size_t bpfvet_object__warning_cnt(const struct bpfvet_object *obj);
const char *bpfvet_object__warning(const struct bpfvet_object *obj, size_t idx);

/* ------------------------------------------------------------------ */
/* Maps                                                                */
/* ------------------------------------------------------------------ */

enum bpfvet_map_origin {
	BPFVET_MAP_LEGACY,	/* SEC("maps"), struct bpf_map_def */
	BPFVET_MAP_BTF,		/* SEC(".maps") */
	BPFVET_MAP_DATA,	/* .data*, .bss*, .rodata*, .kconfig */
	BPFVET_MAP_INNER,	/* template of an inner map (map-in-map) */
	BPFVET_MAP_RAW,		/* described by a bpfvet_map_desc */
};

const char *bpfvet_map__name(const struct bpfvet_map *map);
uint32_t bpfvet_map__type(const struct bpfvet_map *map);
uint32_t bpfvet_map__key_size(const struct bpfvet_map *map);
uint32_t bpfvet_map__value_size(const struct bpfvet_map *map);
uint32_t bpfvet_map__max_entries(const struct bpfvet_map *map);
uint32_t bpfvet_map__flags(const struct bpfvet_map *map);
enum bpfvet_map_origin bpfvet_map__origin(const struct bpfvet_map *map);
/* Inner map template of a map-in-map, or NULL. */
const struct bpfvet_map *bpfvet_map__inner(const struct bpfvet_map *map);
/* Initial contents of a global-data map (NULL for .bss and other maps).
 * For .kconfig: the values bpfvet was given (bpfvet_open_opts.kconfig_path,
 * kernel_version), 0 where it was not. */
const void *bpfvet_map__initial_value(const struct bpfvet_map *map,
				      size_t *size);
/* After a lenient open: why libbpf would not create this map as shown
 * (one of the object's warnings), or NULL. */
const char *bpfvet_map__problem(const struct bpfvet_map *map);

/* ------------------------------------------------------------------ */
/* Programs                                                            */
/* ------------------------------------------------------------------ */

const char *bpfvet_program__name(const struct bpfvet_program *prog);
const char *bpfvet_program__section(const struct bpfvet_program *prog);
uint32_t bpfvet_program__type(const struct bpfvet_program *prog);
uint32_t bpfvet_program__expected_attach_type(const struct bpfvet_program *prog);
/* BPF_F_SLEEPABLE, BPF_F_XDP_HAS_FRAGS, ... implied by the section. */
uint32_t bpfvet_program__flags(const struct bpfvet_program *prog);
/* Instructions after relocation, subprograms appended, as the kernel
 * receives them (map references carry map indexes, not fds). */
const struct bpfvet_insn *bpfvet_program__insns(const struct bpfvet_program *prog,
					       size_t *cnt);
/* Why the object's loader would not load this program (one of the
 * object's warnings), or NULL: a problem of a lenient open or of another
 * loader's conventions, or an attach target the target BTF lacks (libbpf
 * refuses that program at load). Its instructions keep whatever could
 * not be relocated as compiled; bpfvet_program__verify() refuses it. */
const char *bpfvet_program__problem(const struct bpfvet_program *prog);

/* The program's functions as the verifier splits its instructions: the
 * entry function first, then each subprogram that relocation appended
 * (raw programs: one per call target, named sub_N). */
struct bpfvet_func {
	const char *name;
	uint32_t insn_off;	/* first instruction */
	uint32_t insn_cnt;
	bool global;		/* verified on its own, by its BTF signature */
};
size_t bpfvet_program__func_cnt(const struct bpfvet_program *prog);
/* The kernel whose verifier judges the program, KERNEL_VERSION(a, b, c)
 * encoded: bpfvet_open_opts.kernel_version of its object; 0 when none
 * was given (and for raw programs), which means the newest target,
 * Linux 6.18. */
uint32_t bpfvet_program__target_version(const struct bpfvet_program *prog);
/* 0, or -ERANGE when idx is not below bpfvet_program__func_cnt(). */
int bpfvet_program__func(const struct bpfvet_program *prog, size_t idx,
			 struct bpfvet_func *func);

/* Kernel program-type names ("xdp", "sched_cls", ...) <-> numbers. */
int bpfvet_prog_type_by_name(const char *name, uint32_t *type);
const char *bpfvet_prog_type_name(uint32_t type);

/* ------------------------------------------------------------------ */
/* Raw programs, for userspace runtimes without an ELF file            */
/* ------------------------------------------------------------------ */

struct bpfvet_map_desc {
	size_t sz;
	const char *name;
	uint32_t type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t flags;
	int inner_map_idx;	/* index in the same table, or -1 */
};
#define bpfvet_map_desc__last_field inner_map_idx

/*
 * In a raw program, LD_IMM64 with src_reg BPF_PSEUDO_MAP_FD or
 * BPF_PSEUDO_MAP_VALUE carries an index into `maps` in its imm field.
 */
struct bpfvet_raw_opts {
	size_t sz;
	const char *name;
	uint32_t prog_type;
	uint32_t expected_attach_type;
	const struct bpfvet_insn *insns;
	size_t insn_cnt;
	const struct bpfvet_map_desc *maps;
	size_t map_cnt;
	const char *license;	/* "GPL" when NULL */
	char *errbuf;
	size_t errbuf_sz;
};
#define bpfvet_raw_opts__last_field errbuf_sz

int bpfvet_program__from_insns(const struct bpfvet_raw_opts *opts,
			       struct bpfvet_program **progp);
/* Frees a program made by bpfvet_program__from_insns(); programs that
 * belong to an object are freed with the object. */
void bpfvet_program__free(struct bpfvet_program *prog);

/* ------------------------------------------------------------------ */
/* Disassembly                                                         */
/* ------------------------------------------------------------------ */

/*
 * Writes the kernel verifier's text for instruction `idx` (without the
 * "idx: " prefix), e.g. "(b7) r0 = 0". Returns the number of instruction
 * slots consumed (2 for LD_IMM64) or a negative errno: -EINVAL when idx is
 * out of range, is the second slot of an LD_IMM64 or is an LD_IMM64 with no
 * second slot; -ENOSPC when the text does not fit (buf then holds as much
 * as fits, NUL-terminated). 128 bytes always suffice except for calls of
 * kfuncs with very long names.
 *
 * The text equals the Linux 6.18 verifier's byte for byte, except that
 * LD_IMM64 of a map or map value prints a synthetic address instead of the
 * kernel's (0xffff888100000000 + map_index * 0x100000, plus 0x1000 + offset
 * for a value), LD_IMM64 of a ksym prints 0xffffffff82000000 +
 * extern_index * 0x1000, and a kfunc call prints the object's BTF id of the
 * extern after '#' where the kernel prints the vmlinux BTF id.
 */
int bpfvet_program__disasm(const struct bpfvet_program *prog, size_t idx,
			   char *buf, size_t buf_sz);

/* ------------------------------------------------------------------ */
/* Verification                                                        */
/* ------------------------------------------------------------------ */

enum bpfvet_verdict {
	BPFVET_ACCEPTED = 0,
	BPFVET_REJECTED = 1,
	/* The program uses something bpfvet does not model yet; `error`
	 * names it. Never counted as an acceptance or a rejection. */
	BPFVET_UNSUPPORTED = 2,
};

/* Log levels, as the kernel's log_level bits. */
#define BPFVET_LOG_LEVEL1	1u	/* the failing path */
#define BPFVET_LOG_LEVEL2	2u	/* every path, with states */
#define BPFVET_LOG_STATS	4u	/* verification time and stack depth */

/* Capabilities the program is loaded with (all of them by default). */
#define BPFVET_CAP_NET_ADMIN	(1u << 0)
#define BPFVET_CAP_SYS_ADMIN	(1u << 1)
#define BPFVET_CAP_PERFMON	(1u << 2)
#define BPFVET_CAP_BPF		(1u << 3)

/*
 * Pruning techniques that can be switched off one by one (opts.disable).
 * None changes a verdict, except by hitting the complexity limit.
 */
#define BPFVET_NO_PRUNE		(1ull << 0)	/* never compare states */
#define BPFVET_NO_LIVENESS	(1ull << 1)	/* every register live */
#define BPFVET_NO_STACK_LIVENESS (1ull << 2)	/* every stack slot live */
#define BPFVET_NO_PRECISION	(1ull << 3)	/* every scalar precise */
#define BPFVET_NO_WIDEN		(1ull << 4)	/* no widening in loops */
#define BPFVET_NO_EVICT		(1ull << 5)	/* keep every checkpoint */

/*
 * Checkpoint placement beyond the kernel's heuristics (opts.enable). They
 * change processed instructions and states, never a verdict, except that
 * a program the kernel finds too complex may pass. Outside loops only:
 * inside them the kernel's placement is kept. BPFVET_PRUNE_MAX is the
 * profile 'bpfvet --prune=max' (docs/pruning.md has the measurements).
 */
#define BPFVET_CHECKPOINT_EVERY	(1ull << 6)	/* at every prune point, loops too */
#define BPFVET_USEFUL_CHECKPOINTS (1ull << 7)	/* only where a queued path can arrive */
#define BPFVET_EVICT_UNREACHABLE (1ull << 8)	/* drop those no queued path reaches */
#define BPFVET_JOIN_CHECKPOINTS	(1ull << 9)	/* only where paths join */
#define BPFVET_EAGER_CHECKPOINTS (1ull << 10)	/* at every chance, not every 8 insns */
#define BPFVET_PRUNE_MAX	(BPFVET_USEFUL_CHECKPOINTS | BPFVET_EVICT_UNREACHABLE | \
				 BPFVET_JOIN_CHECKPOINTS)

/*
 * Ingredients of --explore=join (opts.explore), switched off one by one
 * in opts.disable. docs/pruning.md says why each is sound.
 */
#define BPFVET_NO_JOIN_POINTS	(1ull << 11)	/* no merging where paths meet */
#define BPFVET_NO_LOOP_WIDEN	(1ull << 12)	/* loops walked trip by trip */
#define BPFVET_NO_THRESHOLDS	(1ull << 13)	/* widen straight to the extremes */
#define BPFVET_NO_FALLBACK	(1ull << 14)	/* no exact walk after a rejection */
#define BPFVET_NO_CALL_SUMMARIES (1ull << 15)	/* every call walks its callee */
#define BPFVET_NO_CALL_WIDEN	(1ull << 16)	/* callees walked with their own arguments */
#define BPFVET_NO_STACK_FOLD	(1ull << 17)	/* stack pointers a loop moves stay exact */
#define BPFVET_NO_NESTED_DELTAS	(1ull << 18)	/* inner loops not summed up whole */

/* How the walk explores paths. */
enum bpfvet_explore {
	BPFVET_EXPLORE_KERNEL = 0,	/* path by path, as the kernel */
	BPFVET_EXPLORE_JOIN,		/* states merged where paths meet */
};

typedef void (*bpfvet_log_fn)(void *ctx, const char *text, size_t len);

struct bpfvet_verify_opts {
	size_t sz;
	uint32_t log_level;
	/* Receives the kernel-format log as it is produced. */
	bpfvet_log_fn log_fn;
	void *log_ctx;
	/* BPF_F_* load flags, added to those the section name implies. */
	uint32_t prog_flags;
	/* BPFVET_CAP_* bits to drop; 0 verifies as root. */
	uint32_t drop_caps;
	/* BPFVET_NO_* switches of individual pruning techniques. */
	uint64_t disable;
	/* Beyond-kernel pruning to switch on (BPFVET_PRUNE_MAX: all). */
	uint64_t enable;
	/* One part of the verifier made unsound on purpose, to show that a
	 * checker of it catches that (bpfvet_fault_name() lists them; the
	 * CLI reads BPFVET_FAULT). NULL: none. An unknown name: -EINVAL. */
	const char *fault;
	/* BPFVET_EXPLORE_KERNEL (0) or BPFVET_EXPLORE_JOIN. */
	enum bpfvet_explore explore;
};
#define bpfvet_verify_opts__last_field explore

/* The injectable faults, idx from 0 until NULL: name and what it breaks. */
const char *bpfvet_fault_name(size_t idx);
const char *bpfvet_fault_about(size_t idx);

struct bpfvet_result {
	size_t sz;
	enum bpfvet_verdict verdict;
	int err;			/* the kernel's errno, negative; 0 if accepted */
	char error[256];		/* the message that explains a rejection */
	uint64_t insns_processed;
	uint64_t total_states;
	uint64_t peak_states;
	uint64_t max_states_per_insn;
	uint64_t mark_read;		/* always 0, as in Linux 6.18 */
	uint64_t duration_ns;		/* the verifier proper, loading excluded */
	uint32_t subprog_cnt;
	uint32_t stack_depth[256];	/* bytes, per subprogram */
	/* Most bytes the verifier held at once for this program: its
	 * environment, states, checkpoints and analysis tables, counted by
	 * its own allocator; loading and the log buffer excluded. */
	uint64_t mem_peak;
	/* Instructions processed at least once: the fewest processed
	 * instructions any pruning could reach on this program. */
	uint64_t insns_distinct;
	/* --explore=join. The verdict above is the final one; these say how
	 * the joined walk alone fared, and whether the exact walk ran after
	 * it (fallback). insns_processed then sums both walks. */
	enum bpfvet_explore explore;
	enum bpfvet_verdict join_verdict;
	uint64_t join_insns;
	uint64_t exact_insns;		/* 0 when the exact walk did not run */
	bool fallback;
	uint64_t join_sites;		/* sites where paths were merged */
	uint64_t join_arrivals;		/* paths merged into them */
	uint64_t join_resumes;		/* summaries walked on */
	uint64_t join_loop_merges;	/* trips merged into a loop head */
	/* When a first joined walk, loops merged, rejected and a second one
	 * took every loop trip by trip: the first walk's instructions (part
	 * of join_insns); 0 otherwise. */
	uint64_t join_rewalk_insns;
	char join_error[256];		/* the joined walk's rejection */
	/* Calls of static subprograms a call summary answered (no walk of
	 * the callee), and callees walked with the join of their calls'
	 * arguments. */
	uint64_t join_call_reuses;
	uint64_t join_call_widens;
};
#define bpfvet_result__last_field join_call_widens

/*
 * Verifies a program as the Linux 6.18 verifier would. Returns 0 when a
 * verdict was reached (accepted, rejected or unsupported: see res), or a
 * negative errno when verification could not run: -EINVAL for bad
 * arguments, -ENOMEM, -ENOEXEC for a program that libbpf could not load
 * (bpfvet_program__problem(); res->error then repeats the reason).
 */
int bpfvet_program__verify(const struct bpfvet_program *prog,
			   const struct bpfvet_verify_opts *opts,
			   struct bpfvet_result *res);

/* ------------------------------------------------------------------ */
/* Explanations (bpfvet explain; docs/explain.md)                      */
/* ------------------------------------------------------------------ */

/* Why a program was rejected, in broad terms. */
enum bpfvet_explain_class {
	BPFVET_EXPLAIN_NONE = 0,	/* accepted: nothing to explain */
	BPFVET_EXPLAIN_PROGRAM_BUG,	/* a missing check, an uninitialised read... */
	BPFVET_EXPLAIN_COMPILER,	/* the compiler's code lost what the source knew */
	BPFVET_EXPLAIN_VERIFIER_LIMIT,	/* complexity, the 512-byte stack, jump sequence */
	BPFVET_EXPLAIN_UNSUPPORTED,	/* bpfvet itself stopped (or the load was refused) */
};

/* "program-bug", "compiler", "verifier-limit", "unsupported", "none". */
const char *bpfvet_explain_class_name(enum bpfvet_explain_class c);

struct bpfvet_explain_opts {
	size_t sz;
	/* How to verify (capabilities, flags); NULL: as root, defaults. The
	 * log options are honoured too. */
	const struct bpfvet_verify_opts *verify;
};
#define bpfvet_explain_opts__last_field verify

/* Work the verifier did at one instruction (all its visits). */
struct bpfvet_insn_stats {
	uint32_t visits;	/* times processed (sums to insns_processed) */
	uint32_t states;	/* checkpoints stored (sums to total_states) */
	uint32_t prune_hits;	/* paths pruned here */
	uint32_t prune_misses;	/* prune-point visits no checkpoint matched */
	uint32_t precise_marks;	/* precision backtracking walked over it */
};

struct bpfvet_source_line {
	const char *file;	/* base name */
	uint32_t line;
	uint32_t col;
	const char *text;	/* the source line, leading blanks removed */
};

enum bpfvet_branch {
	BPFVET_BRANCH_NONE = 0,		/* not a conditional jump */
	BPFVET_BRANCH_TAKEN,
	BPFVET_BRANCH_NOT_TAKEN,
};

/* One instruction of the failing path, from the entry to the error. */
struct bpfvet_path_step {
	uint32_t insn;
	uint32_t frame;			/* call depth it ran at */
	enum bpfvet_branch branch;
	/* The registers it wrote (a store: the value stored; a jump: both
	 * operands on the branch followed), as the kernel's log prints
	 * them: "R1=scalar(umax=255)"; "" when none. */
	const char *state;
};

enum bpfvet_slice_role {
	BPFVET_SLICE_CHECK = 0,	/* the failing check's operand, at the error */
	BPFVET_SLICE_DEF,	/* computed from other values of the slice */
	BPFVET_SLICE_ORIGIN,	/* came from outside: constant, load, helper, context */
	BPFVET_SLICE_SPILL,	/* stored to a stack slot */
	BPFVET_SLICE_FILL,	/* loaded back from a stack slot */
	BPFVET_SLICE_NARROW,	/* a conditional jump that bounded it */
	BPFVET_SLICE_ARG,	/* passed into or out of a subprogram */
};

/* One place the checked value came through, in path order. */
struct bpfvet_slice_item {
	uint32_t insn;
	uint32_t path_pos;	/* index in the path */
	uint32_t frame;
	int32_t reg;		/* register, or -1 for a stack slot */
	int32_t slot_off;	/* the slot's offset from fp (reg == -1) */
	enum bpfvet_slice_role role;
	const char *state;	/* the value after the instruction */
};

/* Where the checked value's bounds or its link to a checked copy were
 * lost, when that can be seen on the path. */
struct bpfvet_loss {
	uint32_t insn;
	uint32_t path_pos;
	/* "link-broken", "32-bit-op", "spill-fill", "arithmetic",
	 * "loop-widening", "pruned-join", or "helper-return" (never bounded
	 * rather than lost). */
	const char *kind;
	const char *reason;	/* a sentence */
};

struct bpfvet_explanation;

/*
 * Verifies prog with its walk traced and explains the verdict: for a
 * rejection the error's instruction and source line, the failing path,
 * the slice of the checked value, where knowledge was lost, a class and
 * a hint; for every verdict the work per instruction. Returns 0 and
 * *out (free it with bpfvet_explanation__free) or a negative errno as
 * bpfvet_program__verify() does.
 */
int bpfvet_program__explain(const struct bpfvet_program *prog,
			    const struct bpfvet_explain_opts *opts,
			    struct bpfvet_explanation **out);
void bpfvet_explanation__free(struct bpfvet_explanation *e);

const struct bpfvet_result *bpfvet_explanation__result(const struct bpfvet_explanation *e);
/* The failing instruction, -1 when the error names none. */
int64_t bpfvet_explanation__error_insn(const struct bpfvet_explanation *e);
/* The instruction the explanation blames: where knowledge was lost when
 * the compiler's code is the cause, the acquiring call of a leaked
 * reference, else the error's; -1 when none. */
int64_t bpfvet_explanation__root_insn(const struct bpfvet_explanation *e);
/* The register the failing check read ("R1"), or NULL. */
const char *bpfvet_explanation__checked(const struct bpfvet_explanation *e);
/* Source line of any instruction (BTF line_info): 0, or -ENOENT. */
int bpfvet_explanation__line(const struct bpfvet_explanation *e, uint32_t insn,
			     struct bpfvet_source_line *line);
const struct bpfvet_path_step *bpfvet_explanation__path(const struct bpfvet_explanation *e,
							 size_t *cnt);
/* The path lost its beginning to the length cap (the steps nearest the
 * error are kept). */
bool bpfvet_explanation__path_truncated(const struct bpfvet_explanation *e);
const struct bpfvet_slice_item *bpfvet_explanation__slice(const struct bpfvet_explanation *e,
							   size_t *cnt);
/* NULL when no loss was seen. */
const struct bpfvet_loss *bpfvet_explanation__loss(const struct bpfvet_explanation *e);
enum bpfvet_explain_class bpfvet_explanation__class(const struct bpfvet_explanation *e);
const char *bpfvet_explanation__hint(const struct bpfvet_explanation *e);
/* One entry per instruction of the program. */
const struct bpfvet_insn_stats *bpfvet_explanation__insn_stats(const struct bpfvet_explanation *e,
								size_t *cnt);

/* ------------------------------------------------------------------ */
/* Loading into the running kernel (the reference verifier)            */
/* ------------------------------------------------------------------ */

/*
 * Facts about the running kernel that loading needs: its BTF
 * (/sys/kernel/btf/vmlinux), its config, its version and CPU count. Read
 * on first use and kept, so that loading many programs reads them once.
 * Not thread-safe: use one per thread.
 */
struct bpfvet_kernel;

int bpfvet_kernel__new(struct bpfvet_kernel **kp);
void bpfvet_kernel__free(struct bpfvet_kernel *k);
/* What libbpf would set LINUX_HAS_SYSCALL_WRAPPER to on this kernel: it
 * probes with a kprobe on __<arch>_sys_bpf, which fails (0) where the
 * kernel has no kprobe support. */
bool bpfvet_kernel__has_syscall_wrapper(struct bpfvet_kernel *k);
/* The verifier rules (BPFVET_RULE_*) the running kernel follows, found
 * once per bpfvet_kernel by loading tiny probe programs at log level 2
 * and reading their logs and figures. 0 with *rules set; a negative
 * errno when the probes cannot tell (-EPERM without BPF privileges,
 * -EPROTO for figures neither rule set gives), *rules then 0. */
int bpfvet_kernel__verifier_rules(struct bpfvet_kernel *k, uint32_t *rules);

enum bpfvet_kernel_verdict {
	BPFVET_KERNEL_ACCEPTED = 0,
	/* The verifier ran and rejected the program. */
	BPFVET_KERNEL_REJECTED = 1,
	/* The program could not reach the verifier: the kernel refused the
	 * load before verifying (EPERM for fentry or lsm programs on a kernel
	 * that does not allow them, E2BIG, an unknown type, ...), or bpfvet could not prepare
	 * it (an extern the kernel lacks, a map the kernel cannot create, no
	 * attach target). Never a rejection. */
	BPFVET_KERNEL_REFUSED = 2,
};

enum bpfvet_kernel_stage {
	BPFVET_STAGE_VERIFIER = 0,	/* the verifier ran */
	BPFVET_STAGE_KERNEL = 1,	/* BPF_PROG_LOAD failed before verifying */
	BPFVET_STAGE_SETUP = 2,		/* maps, BTF, externs, attach target */
};

struct bpfvet_kernel_opts {
	size_t sz;
	/* Kernel facts to reuse; NULL reads them for this call only. */
	struct bpfvet_kernel *kernel;
	/* BPFVET_LOG_LEVEL1 / LEVEL2; BPFVET_LOG_STATS is always added, the
	 * statistics come from it. */
	uint32_t log_level;
	/* BPF_F_* load flags, added to those the section name implies
	 * (e.g. BPF_F_TEST_RND_HI32 | BPF_F_TEST_REG_INVARIANTS). */
	uint32_t prog_flags;
	/* BPFVET_CAP_* bits dropped from the effective set around
	 * BPF_PROG_LOAD (maps and BTF are created with full rights). */
	uint32_t drop_caps;
	/* First log buffer size in bytes; 0 picks one by log level. A log
	 * that does not fit is retried once with the size the kernel asks
	 * for (up to 1 GiB). */
	size_t log_size;
	/* Receives the whole kernel log once the load is over. */
	bpfvet_log_fn log_fn;
	void *log_ctx;
};
#define bpfvet_kernel_opts__last_field log_ctx

struct bpfvet_kernel_result {
	size_t sz;
	enum bpfvet_kernel_verdict verdict;
	enum bpfvet_kernel_stage stage;
	int err;			/* negative errno; 0 if accepted */
	/* Rejected: the last line of the log that is not a statistic.
	 * Refused: why, e.g. "extern (func ksym) 'x': not found in kernel BTF". */
	char error[256];
	bool have_stats;		/* the log had a "processed N insns" line */
	uint64_t insns_processed;
	uint64_t total_states;
	uint64_t peak_states;
	uint64_t max_states_per_insn;
	uint64_t mark_read;
	uint64_t duration_ns;		/* the log's "verification time" */
	uint64_t load_ns;		/* wall time of BPF_PROG_LOAD calls */
	uint32_t subprog_cnt;		/* from the "stack depth" line */
	uint32_t stack_depth[256];
};
#define bpfvet_kernel_result__last_field stack_depth

/*
 * Loads a program into the running kernel the way libbpf would (maps,
 * global data, externs, CO-RE, BTF, func/line info, attach target),
 * records the verdict and statistics, and unloads everything again.
 * Returns 0 when a verdict was reached (see res; a refusal is a verdict),
 * or a negative errno when the call itself could not run (bad arguments,
 * no memory).
 */
int bpfvet_program__kernel_load(const struct bpfvet_program *prog,
				const struct bpfvet_kernel_opts *opts,
				struct bpfvet_kernel_result *res);

/*
 * kernel.unprivileged_bpf_disabled for the length of a run that loads
 * programs without capabilities. 2 is lowered to 0 when this process may
 * (root), and put back by bpfvet_unpriv_bpf__restore, at exit, or on
 * SIGINT, SIGTERM and SIGHUP (the handler restores, then the signal ends
 * the process as it would have). 1 cannot be lowered before a reboot.
 * One guard per process; not thread-safe.
 */
enum bpfvet_unpriv_state {
	BPFVET_UNPRIV_ALLOWED = 0,	/* already 0: nothing changed */
	BPFVET_UNPRIV_OPENED = 1,	/* was 2, now 0 until restored */
	BPFVET_UNPRIV_LOCKED = 2,	/* 1: impossible until reboot */
	BPFVET_UNPRIV_DISABLED = 3,	/* 2, and this process may not lower it */
	BPFVET_UNPRIV_UNKNOWN = 4,	/* the sysctl cannot be read */
};

struct bpfvet_unpriv_bpf;

/* Returns a bpfvet_unpriv_state (*gp set only for OPENED; `why` says it in
 * words) or a negative errno (-EBUSY: a guard is open already). */
int bpfvet_unpriv_bpf__open(struct bpfvet_unpriv_bpf **gp, char *why, size_t why_sz);
/* Puts the saved value back and frees the guard; NULL is a no-op.
 * Returns 0 or the negative errno of the write. */
int bpfvet_unpriv_bpf__restore(struct bpfvet_unpriv_bpf *g);


/* ------------------------------------------------------------------ */
/* Running programs on concrete inputs (docs/interp.md)                */
/* ------------------------------------------------------------------ */

/*
 * What BPF_PROG_TEST_RUN takes and gives, for socket filters, tc
 * (sched_cls, sched_act) and XDP programs, run by bpfvet's interpreter of
 * the BPF ISA instead of the kernel. As bpf_test_run_opts: data_out and
 * ctx_out are optional buffers whose sizes go in and the full sizes come
 * back (-ENOSPC when a buffer was too small; what fitted is copied).
 */
struct bpfvet_test_run_opts {
	size_t sz;
	const void *data_in;
	uint32_t data_size_in;
	void *data_out;
	uint32_t data_size_out;		/* in: buffer size (0: large enough) */
	const void *ctx_in;		/* struct __sk_buff or struct xdp_md */
	uint32_t ctx_size_in;
	void *ctx_out;
	uint32_t ctx_size_out;		/* in: buffer size (0: large enough) */
	uint32_t retval;		/* out */
	/* Seeds ktime_get_ns (monotonic), get_prandom_u32: a run is a
	 * function of its input, its seed and the maps' contents. */
	uint64_t seed;
	uint64_t max_steps;		/* 0: 2^26 instructions */
	uint64_t steps;			/* out: instructions run */
	int64_t fault_pc;		/* out: the faulting insn, or -1 */
	char *errbuf;			/* why TEST_RUN refused, or the fault */
	size_t errbuf_sz;
	/* Replays what a kernel run's varying helpers answered: the i-th call
	 * of ktime_get_ns, ktime_get_boot_ns, ktime_get_coarse_ns,
	 * ktime_get_tai_ns or get_prandom_u32, in the order of the calls,
	 * returns replay[i] (prandom its low 32 bits); calls past replay_cnt
	 * fall back to the seeded values. NULL: the seeded values only. */
	const uint64_t *replay;
	uint32_t replay_cnt;
};
#define bpfvet_test_run_opts__last_field replay_cnt

/*
 * A program with its maps, for several runs: map contents persist from
 * one run to the next, as in the kernel (arrays start zero-filled, or
 * with an object's global data; hashes start empty). Not thread-safe.
 */
struct bpfvet_runner;

int bpfvet_runner__new(const struct bpfvet_program *prog, struct bpfvet_runner **runner);
/*
 * One run. Returns 0 when the program exited (opts->retval, data_out,
 * ctx_out set); where the kernel's TEST_RUN would refuse the input, its
 * errno (-EINVAL: too short, a ctx field it does not take; -E2BIG);
 * -EFAULT when the program faulted (an access outside its region: a
 * finding, since a verified program never does it), -EOPNOTSUPP when it
 * needs something the interpreter does not model (a helper, a kfunc, a
 * context field), with the reason and opts->fault_pc; -ENOSPC as above.
 */
int bpfvet_runner__run(struct bpfvet_runner *runner, struct bpfvet_test_run_opts *opts);
void bpfvet_runner__free(struct bpfvet_runner *runner);

/* One run with fresh maps. */
int bpfvet_program__test_run(const struct bpfvet_program *prog,
			     struct bpfvet_test_run_opts *opts);

/* ------------------------------------------------------------------ */
/* Self-check: the verifier's states against concrete runs             */
/* ------------------------------------------------------------------ */

/*
 * Verifies the program, then runs it on random packets in the
 * interpreter (socket filters, tc and XDP programs) and walks the
 * verifier along each run: at every instruction the run's registers and
 * stack must lie inside the abstract state the verifier holds there, and
 * at every prune point inside each checkpoint of the verification that
 * would subsume that state; the run must take only branches the
 * verifier found possible, never fault, and the walk along it must pass
 * every check (a failure there is one that pruning hid). docs/selfcheck.md.
 */
struct bpfvet_selfcheck_opts {
	size_t sz;
	uint32_t runs;			/* 0: 100 */
	uint64_t seed;			/* runs are (seed, i), i = 0..runs-1 */
	const struct bpfvet_verify_opts *verify;	/* log, caps, switches, fault */
};
#define bpfvet_selfcheck_opts__last_field verify

struct bpfvet_selfcheck_result {
	size_t sz;
	/* The verification's verdict and error; no run is made unless it
	 * accepts. */
	enum bpfvet_verdict verdict;
	char error[256];
	uint64_t runs;			/* runs made */
	uint64_t runs_checked;		/* followed to their end */
	uint64_t runs_unsupported;	/* a helper or field the interpreter lacks */
	uint64_t steps;			/* instructions compared */
	uint64_t prune_checks;		/* checkpoints that subsumed a walk's state */
	uint64_t unchecked;		/* pointers of kinds not compared */
	uint64_t violations;
	/* The first violation: the run (seed, i) and its packet, the
	 * instruction, what the run held and what the verifier did. */
	char violation[1024];
};
#define bpfvet_selfcheck_result__last_field violation

/* 0 when the check ran (see res), -EOPNOTSUPP for a program type the
 * interpreter does not run, -ENOEXEC for a program the loader spoiled,
 * other negative errnos for bad arguments or no memory. */
int bpfvet_program__selfcheck(const struct bpfvet_program *prog,
			      const struct bpfvet_selfcheck_opts *opts,
			      struct bpfvet_selfcheck_result *res);

#ifdef __cplusplus
}
#endif

#endif /* BPFVET_H */
