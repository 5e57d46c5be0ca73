/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loading a program into the running kernel, as libbpf would (see
 * bpfvet_program__kernel_load() in bpfvet.h). The steps, each in its own
 * file, share one `struct kload`:
 *
 *   kernel_facts.c    the running kernel: vmlinux BTF, config, kallsyms
 *   kernel_attach.c   attach BTF id and expected attach type
 *   kernel_maps.c     maps the program uses, global data, freezing
 *   kernel_externs.c  kfuncs and __ksym externs
 *   kernel_kconfig.c  __kconfig values
 *   kernel_stats.c    reading the verifier log
 *   kernel_rules.c    which verifier rules the kernel follows (probes)
 *   kernel_load.c     BTF, BPF_PROG_LOAD, verdict, clean-up
 *
 * Everything a load creates (fds, mappings, buffers) is owned by the
 * kload and released by kload_free(), whatever happened before.
 */
#ifndef BPFVET_KERNEL_LOAD_H
#define BPFVET_KERNEL_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bpfvet.h"
#include "base/base.h"
#include "loader/loader.h"

struct btf;

struct bpfvet_kernel {
	struct btf *vmlinux;
	int vmlinux_err;		/* 0 until tried; then 1 or -errno */
	char *kconfig;			/* the config text, NUL-terminated */
	int kconfig_err;		/* same convention */
	uint32_t version;		/* KERNEL_VERSION(a, b, c), 0 if unknown */
	int cpus;			/* possible CPUs, 0 until read */
	int syscall_wrapper;		/* 0 until probed; then 1 or -1 */
	/* kernel_rules.c: the verifier rules it follows (BPFVET_RULE_*). */
	int rules_err;			/* 0 until probed; then 1 or -errno */
	uint32_t rules;
};

struct kload {
	const struct bpfvet_program *prog;
	struct bpfvet_kernel *k;
	struct errbuf *eb;		/* into res->error */
	int setup_err;			/* what refused the load, when it is not the kernel */

	/* Instructions being patched for the kernel (a copy). */
	struct bpfvet_insn *insns;
	size_t insn_cnt;

	int btf_fd;			/* -1 without BTF */
	const struct bpfvet_map *maps;
	size_t map_cnt;
	int *map_fds;			/* -1 for maps the program does not need */
	void **map_mem;			/* arena mappings */
	size_t *map_mem_sz;

	uint32_t attach_btf_id;
	uint32_t expected_attach_type;
};

/* kernel_load.c: records why bpfvet could not bring the program to the
 * kernel (stage SETUP) and returns err. */
int kload_refuse(struct kload *kl, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* kernel_facts.c */
int kfacts_vmlinux(struct bpfvet_kernel *k, const struct btf **btf);
/* The value text after "NAME=" in the kernel config, or NULL when the
 * option is absent ("is not set" included). Negative errno when the config
 * cannot be read. */
int kfacts_kconfig(struct bpfvet_kernel *k, const char *name, const char **value,
		   size_t *len);
uint32_t kfacts_version(struct bpfvet_kernel *k);
int kfacts_cpus(struct bpfvet_kernel *k);
/* Looks names up in /proc/kallsyms in one pass: addrs[i] gets the address
 * of names[i], or stays 0 when absent. */
int kfacts_kallsyms(const char *const *names, size_t cnt, uint64_t *addrs);
/* Length of a name without its "___flavor" suffix (CO-RE's rule). */

/* kernel_attach.c */
int kattach_resolve(struct kload *kl);

/* kernel_maps.c */
int kmaps_create(struct kload *kl);
void kmaps_close(struct kload *kl);
/* kernel_kconfig.c: fills the .kconfig map's value. */
int kext_kconfig_fill(struct kload *kl, void *data, size_t size);

/* kernel_externs.c */
int kext_patch(struct kload *kl);

/* kernel_stats.c */
struct bpfvet_kernel_result;
/* Fills the statistics of res from a log; true when a "processed N insns"
 * line was found. */
bool kstats_parse(const char *log, struct bpfvet_kernel_result *res);
/* Copies into buf the last line of the log that is not a statistic, a
 * CO-RE note or empty. False when there is none. */
bool kstats_error_line(const char *log, char *buf, size_t sz);
/* True when the last line that is not a statistic is a CO-RE complaint
 * (the kernel failed a relocation, not just noted one); it is copied into
 * buf. */
bool kstats_core_error(const char *log, char *buf, size_t sz);
/* True when the log holds output of the verifier proper, not only the
 * kernel's CO-RE relocation notes. */
bool kstats_verifier_ran(const char *log);
/* True when `line` (len bytes) is one of the kernel's CO-RE relocation
 * notes, which only appear because we let the kernel relocate. */
bool kstats_is_core_line(const char *line, size_t len);

#endif
