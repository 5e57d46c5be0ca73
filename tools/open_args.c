/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Options of `verify` and `dump` that describe the target kernel, turned
 * into bpfvet_open_opts fields. BPFVET_BTF in the environment stands for
 * --btf (the library itself reads no environment).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "cli.h"

const char open_args_usage[] =
	"  --btf FILE     target kernel BTF for CO-RE relocations and BTF-typed\n"
	"                 programs (raw BTF such as /sys/kernel/btf/vmlinux, or an\n"
	"                 ELF file with .BTF); default: $BPFVET_BTF, else this\n"
	"                 machine's /sys/kernel/btf/vmlinux when readable, as\n"
	"                 libbpf does\n"
	"  --no-btf       no target BTF ($BPFVET_BTF=none too): programs with\n"
	"                 CO-RE relocations or a BTF-typed context are then\n"
	"                 reported unsupported\n"
	"  -v             say where the target BTF comes from\n"
	"  --loader NAME  whose conventions to load by: libbpf, cilium, iproute2,\n"
	"                 legacy (samples/bpf, bcc, custom loaders) or auto\n"
	"                 (default: chosen per object; dump says which and why)\n"
	"  --kconfig FILE kernel config (plain or .gz, e.g. /proc/config.gz) for\n"
	"                 __kconfig externs; without it their values are unknown\n"
	"  --kernel-version X.Y.Z  the target's LINUX_KERNEL_VERSION\n"
	"  --nr-cpus N    possible CPUs of the target (default: this machine's)\n"
	"  --kallsyms FILE  the target's /proc/kallsyms, for typeless __ksym externs\n"
	"  --no-syscall-wrapper  LINUX_HAS_SYSCALL_WRAPPER is 0 (libbpf's answer\n"
	"                 on a kernel without kprobes); default 1\n"
	"  --target NAME|DIR  the target kernel's profile, for what no option\n"
	"                 sets: 6.1, 6.12 or 6.18 (made by 'make profiles'), host\n"
	"                 (as --running-kernel) or a folder with btf, config,\n"
	"                 kallsyms, kernel_version, syscall_wrapper and\n"
	"                 verifier_rules files\n"
	"  --running-kernel  target this machine's kernel for what no option\n"
	"                 sets: its BTF, config, version, syscall wrapper and\n"
	"                 verifier rules, as 'bpfvet kernel' does\n"
	"  --verifier-rules LIST  rules by which builds of one release differ,\n"
	"                 comma-separated, or none (docs/verifier-rules.md):\n"
	"                 callback-scc, loop-slot-types; default: the profile's\n"
	"                 verifier_rules file, the running kernel's (found by\n"
	"                 loading probe programs) when it is the target, else none\n";

static const char *value(int argc, char **argv, int *i)
{
	if (*i + 1 >= argc || !argv[*i + 1][0]) {
		fprintf(stderr, "bpfvet: option %s needs a value\n", argv[*i]);
		return NULL;
	}
	return argv[++*i];
}

int open_args_parse(int argc, char **argv, int *i, struct open_args *a)
{
	static const struct {
		const char *name;
		size_t off;
	} opts[] = {
		{ "--btf", offsetof(struct open_args, btf) },
		{ "--kconfig", offsetof(struct open_args, kconfig) },
		{ "--kernel-version", offsetof(struct open_args, kernel_version) },
		{ "--nr-cpus", offsetof(struct open_args, nr_cpus) },
		{ "--kallsyms", offsetof(struct open_args, kallsyms) },
		{ "--loader", offsetof(struct open_args, loader) },
		{ "--verifier-rules", offsetof(struct open_args, verifier_rules) },
	};

	if (!strcmp(argv[*i], "--no-syscall-wrapper")) {
		a->no_syscall_wrapper = 1;
		return 1;
	}
	if (!strcmp(argv[*i], "--running-kernel")) {
		a->target_running = 1;
		return 1;
	}
	if (!strcmp(argv[*i], "--no-btf")) {
		a->no_btf = 1;
		return 1;
	}
	if (!strcmp(argv[*i], "-v")) {
		a->verbose = 1;
		return 1;
	}
	if (!strcmp(argv[*i], "--target")) {
		const char *name = value(argc, argv, i);

		if (!name)
			return -1;
		target_profile_free(a->profile);
		a->profile = target_profile_load(name);
		return a->profile ? 1 : -1;
	}
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		const char **slot = (const char **)((char *)a + opts[k].off);

		if (strcmp(argv[*i], opts[k].name))
			continue;
		*slot = value(argc, argv, i);
		return *slot ? 1 : -1;
	}
	return 0;
}

#define RUNNING_BTF "/sys/kernel/btf/vmlinux"

/* The target BTF: --btf, else $BPFVET_BTF ("none": no BTF), else the
 * running kernel's when readable, as libbpf does; NULL for none. */
static const char *default_btf(const struct open_args *a)
{
	const char *env = getenv("BPFVET_BTF");

	if (a->no_btf)
		return NULL;
	if (a->btf)
		return a->btf;
	if (env && env[0])
		return strcmp(env, "none") ? env : NULL;
	return access(RUNNING_BTF, R_OK) ? NULL : RUNNING_BTF;
}

/* A profile fills what no option set. */
static int apply_profile(const struct open_args *a, struct bpfvet_open_opts *o)
{
	const struct target_profile *p = a->profile;

	if (!a->btf && !a->no_btf && p->btf)
		o->btf_custom_path = p->btf;
	if (!a->kconfig)
		o->kconfig_path = p->config;
	if (!a->kallsyms)
		o->kallsyms_path = p->kallsyms;
	if (!a->kernel_version && p->kernel_version[0] &&
	    kernel_version_parse(p->kernel_version, &o->kernel_version)) {
		fprintf(stderr, "bpfvet: profile %s: bad kernel_version '%s'\n", p->name,
			p->kernel_version);
		return -1;
	}
	if (!a->no_syscall_wrapper && p->syscall_wrapper == 0)
		o->no_syscall_wrapper = 1;
	if (!a->verifier_rules)
		o->verifier_rules = p->verifier_rules;
	return 0;
}

int open_args_apply(const struct open_args *a, struct bpfvet_open_opts *o, char *cfg,
		    size_t cfg_sz)
{
	if (a->btf && a->no_btf) {
		fprintf(stderr, "bpfvet: --btf and --no-btf contradict each other\n");
		return -1;
	}
	o->btf_custom_path = default_btf(a);
	if (bpfvet_conventions_by_name(a->loader ? a->loader : "auto", &o->conventions)) {
		fprintf(stderr, "bpfvet: unknown loader '%s' (libbpf, cilium, iproute2, legacy "
			"or auto)\n", a->loader);
		return -1;
	}
	o->kconfig_path = a->kconfig;
	o->kallsyms_path = a->kallsyms;
	if (a->kernel_version && kernel_version_parse(a->kernel_version, &o->kernel_version)) {
		fprintf(stderr, "bpfvet: bad kernel version '%s' (want X.Y.Z)\n",
			a->kernel_version);
		return -1;
	}
	if (a->nr_cpus) {
		char *end;
		unsigned long n = strtoul(a->nr_cpus, &end, 10);

		if (*end || !n || n > 65536) {
			fprintf(stderr, "bpfvet: bad CPU count '%s'\n", a->nr_cpus);
			return -1;
		}
		o->nr_cpus = (uint32_t)n;
	}
	o->no_syscall_wrapper = a->no_syscall_wrapper;
	if (a->verifier_rules &&
	    bpfvet_verifier_rules_parse(a->verifier_rules, &o->verifier_rules)) {
		fprintf(stderr, "bpfvet: bad verifier rules '%s' (callback-scc, loop-slot-types, "
			"comma-separated, or none)\n", a->verifier_rules);
		return -1;
	}
	if (a->profile && !a->profile->host && apply_profile(a, o))
		return -1;
	if (a->target_running || (a->profile && a->profile->host))
		open_args_target_running(o, cfg, cfg_sz);
	if (a->no_btf)
		o->btf_custom_path = NULL;
	return 0;
}

/* The running kernel as the target, for the fields no option set: its BTF,
 * config, version and syscall wrapper. `bpfvet kernel` compares with this very kernel, so
 * anything else would compare different programs. Not kallsyms: a strong
 * ksym missing there would fail the whole object, where the kernel side
 * refuses only the programs that use it (typeless ksyms are plain
 * constants to the verifier, any address will do). */
void open_args_target_running(struct bpfvet_open_opts *o, char *cfg, size_t cfg_sz)
{
	struct bpfvet_kernel *k;
	struct utsname u;
	unsigned int a, b, c = 0;

	if (!o->no_syscall_wrapper && !bpfvet_kernel__new(&k)) {
		o->no_syscall_wrapper = !bpfvet_kernel__has_syscall_wrapper(k);
		bpfvet_kernel__free(k);
	}
	if (!o->btf_custom_path && !access("/sys/kernel/btf/vmlinux", R_OK))
		o->btf_custom_path = "/sys/kernel/btf/vmlinux";
	if (uname(&u))
		return;
	if (!o->kernel_version && sscanf(u.release, "%u.%u.%u", &a, &b, &c) >= 2 && a < 256 &&
	    b < 256)
		o->kernel_version = a << 16 | b << 8 | (c > 255 ? 255 : c);
	if (o->kconfig_path)
		return;
	if (!access("/proc/config.gz", R_OK)) {
		o->kconfig_path = "/proc/config.gz";
		return;
	}
	snprintf(cfg, cfg_sz, "/boot/config-%s", u.release);
	if (!access(cfg, R_OK))
		o->kconfig_path = cfg;
}

static const char *btf_origin(const struct open_args *a)
{
	const char *env = getenv("BPFVET_BTF");

	if (a->btf)
		return "--btf";
	if (a->profile && !a->profile->host && a->profile->btf)
		return "--target's profile";
	if (env && env[0])
		return "$BPFVET_BTF";
	return "the running kernel's, as libbpf uses it";
}

/* The running kernel's verifier rules, probed the first time; none when
 * the probe cannot tell (-v says why). */
static uint32_t running_rules(struct open_args *a)
{
	struct bpfvet_kernel *k;
	char names[64];

	if (a->rules_err)
		return a->running_rules;
	a->rules_err = bpfvet_kernel__new(&k);
	if (!a->rules_err) {
		a->rules_err = bpfvet_kernel__verifier_rules(k, &a->running_rules);
		bpfvet_kernel__free(k);
	}
	if (a->rules_err)
		a->running_rules = 0;
	bpfvet_verifier_rules_format(a->running_rules, names, sizeof(names));
	if (a->verbose && a->rules_err)
		fprintf(stderr, "bpfvet: verifier rules of the running kernel unknown: its probe "
			"failed (%s); none assumed\n", strerror(-a->rules_err));
	else if (a->verbose)
		fprintf(stderr, "bpfvet: verifier rules %s (the running kernel's, probed)\n",
			names);
	if (!a->rules_err)
		a->rules_err = 1;
	return a->running_rules;
}

/* Who sets the rules: the option or a profile, else the running kernel
 * when it is the target. */
static void share_rules(struct open_args *a, struct bpfvet_open_opts *o)
{
	bool profile = a->profile && !a->profile->host;

	if (a->verifier_rules || profile ||
	    !(a->target_running || (a->profile && a->profile->host)))
		return;
	o->verifier_rules = running_rules(a);
}

int open_args_share_target(struct open_args *a, struct bpfvet_open_opts *o)
{
	char err[256] = "";
	struct bpfvet_target_opts to = {
		.sz = sizeof(to), .btf_path = o->btf_custom_path,
		.errbuf = err, .errbuf_sz = sizeof(err),
	};

	share_rules(a, o);

	if (a->verbose && !a->told) {
		a->told = 1;
		if (!o->btf_custom_path)
			fprintf(stderr, "bpfvet: no target BTF%s\n", a->no_btf ? " (--no-btf)" :
				getenv("BPFVET_BTF") && getenv("BPFVET_BTF")[0] ?
				" ($BPFVET_BTF=none)" :
				": none given and " RUNNING_BTF " is not readable");
		else
			fprintf(stderr, "bpfvet: target BTF %s (%s)\n", o->btf_custom_path,
				btf_origin(a));
	}
	if (!o->btf_custom_path)
		return 0;
	/* One path for the whole run in practice; another one replaces it. */
	if (!a->target_path || strcmp(a->target_path, o->btf_custom_path)) {
		bpfvet_target__close(a->target);
		a->target = NULL;
		a->target_path = o->btf_custom_path;
		a->target_err = bpfvet_target__open(&to, &a->target);
		if (a->target_err)
			fprintf(stderr, "bpfvet: %s\n", err[0] ? err : strerror(-a->target_err));
	}
	if (a->target_err)
		return -1;
	o->target = a->target;
	o->btf_custom_path = NULL;
	return 0;
}

void open_args_free(struct open_args *a)
{
	bpfvet_target__close(a->target);
	a->target = NULL;
	target_profile_free(a->profile);
	a->profile = NULL;
}

int open_args_last(int argc, char **argv, int *i, struct open_args *a, const char *cmd)
{
	switch (open_args_parse(argc, argv, i, a)) {
	case 1:
		return 0;
	case -1:
		return -1;
	default:
		fprintf(stderr, "bpfvet %s: bad option '%s'\n", cmd, argv[*i]);
		return -1;
	}
}
