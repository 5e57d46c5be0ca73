/* SPDX-License-Identifier: BSD-2-Clause */
#ifndef BPFVET_CLI_H
#define BPFVET_CLI_H

/* Exit statuses shared by every subcommand. */
#define EXIT_ACCEPTED	0	/* every program accepted */
#define EXIT_REJECTED	1	/* some program rejected (or a verdict differs) */
#define EXIT_USAGE	2	/* usage or load error */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bpfvet.h"

struct technique {
	const char *flag;	/* command-line switch */
	const char *name;	/* column name in the ablation report */
	uint64_t bit;		/* BPFVET_NO_*, or a beyond-kernel bit if on; 0: a mode */
	int on;			/* switches a beyond-kernel technique on */
	/* The walk it belongs to: BPFVET_EXPLORE_JOIN for --explore=join
	 * and its ingredients, whose rows bpfvet ablate runs in that mode,
	 * and which mean nothing without it (technique_check). */
	enum bpfvet_explore explore;
};

/* The pruning switches of one run (bpfvet_verify_opts.disable/enable). */
struct prune_switches {
	uint64_t disable;
	uint64_t enable;
	enum bpfvet_explore explore;
};

/* Terminated by an entry with a NULL flag. */
extern const struct technique techniques[];
/* 0 if arg is a technique switch or --prune=PROFILE (and records it),
 * -1 otherwise. */
int parse_technique_flag(const char *arg, struct prune_switches *sw);
/* 0 if arg is --explore=kernel|join (and records it), -1 otherwise. */
int parse_explore_flag(const char *arg, enum bpfvet_explore *explore);
/* "kernel" or "join": the walk a result says ran (-e explore). */
const char *explore_name(enum bpfvet_explore explore);
/* After the whole command line: -1, after saying so on stderr, when an
 * ingredient of --explore=join is switched off without that mode. */
int technique_check(const struct prune_switches *sw);

/* Target-kernel options shared by verify and dump (open_args.c). */
struct open_args {
	const char *btf;
	const char *kconfig;
	const char *kernel_version;
	const char *nr_cpus;
	const char *kallsyms;
	int no_syscall_wrapper;
	int target_running;	/* --running-kernel */
	int no_btf;		/* --no-btf */
	const char *loader;	/* --loader NAME, default auto */
	/* --target NAME|DIR: a target profile's files (profile.c), for what
	 * no option sets; freed by open_args_free. */
	struct target_profile *profile;
	int verbose;		/* -v: say where the target's facts come from */
	int told;		/* -v said it already */
	/* The target BTF, opened once for all the objects of the run
	 * (open_args_share_target), closed by open_args_free. */
	struct bpfvet_target *target;
	const char *target_path;
	int target_err;
	/* --verifier-rules LIST, else the profile's, else the running
	 * kernel's when it is the target (probed once: rules_err 0 until
	 * then, 1 or -errno after). */
	const char *verifier_rules;
	int rules_err;
	uint32_t running_rules;
};

/* profile.c: a target profile, a folder that describes a kernel
 * (scripts/kernel-vm.sh writes them: btf, config, kallsyms, release,
 * kernel_version, syscall_wrapper; verifier_rules by hand, absent in
 * those). "host" is the running kernel. */
struct target_profile {
	char *name;
	int host;
	char *btf, *config, *kallsyms;	/* NULL when the profile has none */
	char kernel_version[32];	/* "" when unknown */
	int syscall_wrapper;		/* -1 when unknown */
	uint32_t verifier_rules;	/* BPFVET_RULE_*: its verifier_rules file */
};

/* NULL after reporting why (no such profile: how to make it). */
struct target_profile *target_profile_load(const char *name);
void target_profile_free(struct target_profile *p);
/* "6.18.44" (a profile's kernel_version, --kernel-version) as
 * KERNEL_VERSION(6, 18, 44); -1 when malformed. */
int kernel_version_parse(const char *s, uint32_t *v);

extern const char open_args_usage[];
/* 1: argv[*i] (and its value) consumed; 0: not such an option; -1: error,
 * already reported. */
int open_args_parse(int argc, char **argv, int *i, struct open_args *a);
/* Fills the open options (environment defaults included); cfg receives
 * the running kernel's config path with --running-kernel. -1 on error,
 * already reported. */
int open_args_apply(const struct open_args *a, struct bpfvet_open_opts *o, char *cfg,
		    size_t cfg_sz);
/* Opens the target BTF that o names once, and shares it with every
 * object opened with o (o->target instead of o->btf_custom_path); so the
 * running kernel's verifier rules, probed once, when it is the target
 * and neither --verifier-rules nor a profile says them. -1 when the BTF
 * cannot be read, reported the first time. */
int open_args_share_target(struct open_args *a, struct bpfvet_open_opts *o);
void open_args_free(struct open_args *a);
/* The last resort of a command's option parser: a target option, or an
 * error naming the command ("bpfvet CMD: bad option"). 0 or -1. */
int open_args_last(int argc, char **argv, int *i, struct open_args *a, const char *cmd);
/* Fills what is still unset from the running kernel (/sys/kernel/btf/vmlinux,
 * its config and release, what libbpf would probe); cfg holds the config
 * path. */
void open_args_target_running(struct bpfvet_open_opts *o, char *cfg, size_t cfg_sz);

/* --unpriv: a user without any of the four capabilities. The loader that
 * creates the object's BTF and maps lacks them too (the default unless
 * --privileged-maps), and so does the program's load. */
#define UNPRIV_DROP_CAPS (BPFVET_CAP_BPF | BPFVET_CAP_PERFMON | BPFVET_CAP_NET_ADMIN | \
			  BPFVET_CAP_SYS_ADMIN)

/* caps_args.c: --unpriv, --test-caps, --privileged-maps. drop_caps is what
 * the program load lacks; privileged_maps says the object's BTF and maps
 * were made by a process with every capability. */
struct caps_args {
	uint32_t drop_caps;
	bool privileged_maps;
};
extern const char caps_args_usage[];
/* true when s is one of the three switches (then applied to a). */
bool caps_args_parse(const char *s, struct caps_args *a);
/* What the loader that creates the object's BTF and maps lacks. */
uint32_t caps_args_loader(const struct caps_args *a);

/* fault_env.c: BPFVET_FAULT, checked against bpfvet_fault_name() and
 * said on stderr; *fault NULL when unset. -1 (the list printed) for an
 * unknown name. */
int fault_env_get(const char **fault);

/* prog_filter.c: -p GLOB, repeatable, '!GLOB' excludes. The globs are
 * the caller's strings (argv); the array is the filter's own. */
struct prog_filter {
	const char **globs;
	int cnt, cap;
};

/* -1 after reporting that memory ran out. */
int prog_filter_add(struct prog_filter *f, const char *glob);
void prog_filter_free(struct prog_filter *f);
bool prog_filter_match(const struct prog_filter *f, const struct bpfvet_program *p);
/* Opens path with base's options and calls fn on each program f keeps
 * (nth counts them from 0). Returns the worst exit code fn gave, or
 * EXIT_USAGE when the object does not open or no program matches. */
typedef int (*prog_visit_fn)(void *ctx, const char *path, struct bpfvet_program *p,
			     int nth);
int prog_filter_each(const struct prog_filter *f, const char *path,
		     const struct bpfvet_open_opts *base, prog_visit_fn fn, void *ctx);

/* obj_args.c: the command line of verify, kernel and dump. */
struct obj_args_parser {
	/* Consumes argv[*i] (and its value, moving *i on); non-zero after
	 * reporting an error. */
	int (*option)(int argc, char **argv, int *i, void *args);
	void *args;			/* the subcommand's own options */
	void (*usage)(FILE *f);
};

/* Collects the paths into *paths (allocated; the caller frees it, on
 * errors too) and hands each option to p->option. Returns 0; 1 after
 * printing the usage for --help; -EINVAL on a bad option or without a
 * path (the usage then printed to stderr); -ENOMEM. */
int obj_args_scan(int argc, char **argv, const struct obj_args_parser *p,
		  const char ***paths, int *path_cnt);

/* rows.c: one row per program, for verify and kernel. */
struct rows {
	void *v;		/* the caller's row type */
	size_t cnt, cap;
};

/* Appends a zeroed row of size bytes and returns it; NULL when out of
 * memory (the rows so far are kept). */
void *rows_add(struct rows *r, size_t size);
/* The file column: path without its directories. */
const char *rows_base_name(const char *path);
/* One csv value or json string on stdout, quoted as each format needs. */
void rows_csv_value(const char *s);
void rows_json_string(const char *s);
/* The versioned JSON document around the rows (docs/json.md): opens
 * {"schema": SCHEMA, ..., "KEY": [ and closes it; rows go one a line.
 * rows_json_open_fields leaves the object open for fields of the caller's
 * (each printed as ", \"name\": value") before rows_json_open_list. */
#define JSON_SCHEMA_VERIFY "bpfvet-verify/1"
#define JSON_SCHEMA_MATRIX "bpfvet-verify-matrix/1"
#define JSON_SCHEMA_KERNEL "bpfvet-kernel/1"
#define JSON_SCHEMA_ABLATE "bpfvet-ablate/1"
void rows_json_open_fields(const char *schema);
void rows_json_open_list(const char *key);
void rows_json_row_start(bool first);
void rows_json_close(void);

enum out_fmt { OUT_TABLE, OUT_CSV, OUT_JSON };

/* matrix.c: verdicts of each program for several targets (--target
 * A,B,C). The strings are the caller's; NULL where a target has no such
 * program (its object did not open). */
#define MATRIX_MAX_TARGETS 8
struct matrix_row {
	const char *file, *prog;
	const char *verdict[MATRIX_MAX_TARGETS];
	const char *error[MATRIX_MAX_TARGETS];
};
struct matrix {
	const char *const *targets;
	int target_cnt;
	struct matrix_row *rows;
	size_t cnt;
	bool errors;		/* -e error: the first error of each target too */
};
void matrix_print(const struct matrix *m, enum out_fmt fmt);

int cmd_dump(int argc, char **argv);
int cmd_ablate(int argc, char **argv);
int cmd_verify(int argc, char **argv);
int cmd_kernel(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_selfcheck(int argc, char **argv);

#endif
