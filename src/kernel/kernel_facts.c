/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Facts about the running kernel, read where libbpf reads them: the BTF
 * in /sys/kernel/btf/vmlinux, the config in /boot/config-$(uname -r) or
 * /proc/config.gz, symbols in /proc/kallsyms, the version from uname (or
 * the Ubuntu/Debian version strings) and the possible CPUs from sysfs.
 * Each is read on first use and kept in the bpfvet_kernel.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <zlib.h>

#include "kernel_load.h"

#define KCONFIG_MAX (64u << 20)		/* far above any real config */

int bpfvet_kernel__new(struct bpfvet_kernel **kp)
{
	if (!kp)
		return -EINVAL;
	*kp = calloc(1, sizeof(**kp));
	return *kp ? 0 : -ENOMEM;
}

void bpfvet_kernel__free(struct bpfvet_kernel *k)
{
	if (!k)
		return;
	btf__free(k->vmlinux);
	free(k->kconfig);
	free(k);
}

int kfacts_vmlinux(struct bpfvet_kernel *k, const struct btf **btf)
{
	if (!k->vmlinux_err) {
		k->vmlinux = btf__load_vmlinux_btf();
		if (!k->vmlinux)
			k->vmlinux_err = errno ? -errno : -ENOENT;
		else
			k->vmlinux_err = 1;
	}
	*btf = k->vmlinux;
	return k->vmlinux_err < 0 ? k->vmlinux_err : 0;
}

/* ------------------------------------------------------------------ */
/* Kernel config                                                       */
/* ------------------------------------------------------------------ */

/* gzopen() reads plain files as they are, so one reader serves both. */
static int read_gz(const char *path, char **out)
{
	gzFile f = gzopen(path, "re");
	char *buf = NULL, *nbuf;
	size_t len = 0, cap = 0;
	int n;

	if (!f)
		return errno ? -errno : -ENOENT;
	for (;;) {
		if (cap - len < 65536) {
			if (cap >= KCONFIG_MAX) {
				free(buf);
				gzclose(f);
				return -E2BIG;
			}
			cap = cap ? cap * 2 : 262144;
			nbuf = realloc(buf, cap + 1);
			if (!nbuf) {
				free(buf);
				gzclose(f);
				return -ENOMEM;
			}
			buf = nbuf;
		}
		n = gzread(f, buf + len, (unsigned int)(cap - len));
		if (n < 0) {
			free(buf);
			gzclose(f);
			return -EIO;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	gzclose(f);
	buf[len] = '\0';
	*out = buf;
	return 0;
}

static int load_kconfig(struct bpfvet_kernel *k)
{
	struct utsname uts;
	char path[512];
	int err;

	if (uname(&uts))
		return -errno;
	snprintf(path, sizeof(path), "/boot/config-%s", uts.release);
	err = read_gz(path, &k->kconfig);
	if (err)
		err = read_gz("/proc/config.gz", &k->kconfig);
	return err;
}

int kfacts_kconfig(struct bpfvet_kernel *k, const char *name, const char **value,
		   size_t *len)
{
	size_t nlen = strlen(name);
	const char *p;

	if (!k->kconfig_err) {
		int err = load_kconfig(k);

		k->kconfig_err = err ? err : 1;
	}
	if (k->kconfig_err < 0)
		return k->kconfig_err;
	*value = NULL;
	*len = 0;
	for (p = k->kconfig; *p; ) {
		const char *eol = strchr(p, '\n');
		size_t l = eol ? (size_t)(eol - p) : strlen(p);

		if (l > nlen && !strncmp(p, name, nlen) && p[nlen] == '=') {
			*value = p + nlen + 1;
			*len = l - nlen - 1;
			return 0;
		}
		p += l + (eol ? 1 : 0);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Version, CPUs, kallsyms                                             */
/* ------------------------------------------------------------------ */

static uint32_t version_code(unsigned a, unsigned b, unsigned c)
{
	return (a << 16) + (b << 8) + (c > 255 ? 255 : c);
}

/* Ubuntu and Debian kernels carry the upstream version elsewhere than in
 * the release string; libbpf looks there first. */
static uint32_t distro_version(const struct utsname *uts)
{
	unsigned a, b, c;
	const char *p;
	FILE *f = fopen("/proc/version_signature", "re");

	if (f) {
		int n = fscanf(f, "%*s %*s %u.%u.%u", &a, &b, &c);

		fclose(f);
		if (n == 3)
			return version_code(a, b, c);
	}
	p = strstr(uts->version, "Debian ");
	if (p && sscanf(p, "Debian %u.%u.%u", &a, &b, &c) == 3)
		return version_code(a, b, c);
	return 0;
}

uint32_t kfacts_version(struct bpfvet_kernel *k)
{
	struct utsname uts;
	unsigned a, b, c;

	if (k->version || uname(&uts))
		return k->version;
	k->version = distro_version(&uts);
	if (!k->version && sscanf(uts.release, "%u.%u.%u", &a, &b, &c) == 3)
		k->version = version_code(a, b, c);
	return k->version;
}

/* "0-3,5,7-8": counts the CPUs named. */
static int count_cpus(const char *s)
{
	int cnt = 0;

	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b;

		if (end == s || a < 0)
			return -EINVAL;
		b = a;
		s = end;
		if (*s == '-') {
			b = strtol(s + 1, &end, 10);
			if (end == s + 1 || b < a)
				return -EINVAL;
			s = end;
		}
		cnt += (int)(b - a + 1);
		if (*s == ',')
			s++;
		else if (*s && *s != '\n')
			return -EINVAL;
	}
	return cnt > 0 ? cnt : -EINVAL;
}

int kfacts_cpus(struct bpfvet_kernel *k)
{
	char buf[4096];
	FILE *f;

	if (k->cpus)
		return k->cpus;
	f = fopen("/sys/devices/system/cpu/possible", "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	k->cpus = count_cpus(buf);
	if (k->cpus < 0) {
		int err = k->cpus;

		k->cpus = 0;
		return err;
	}
	return k->cpus;
}

/* A kallsyms line: "ffffffff81000000 T _stext [module]". Clang may
 * rename a static variable "x.llvm.12345": such data symbols also answer
 * to their plain name, as libbpf allows. */
static bool sym_matches(const char *sym, char type, const char *name)
{
	const char *llvm = strstr(sym, ".llvm.");
	size_t nlen = strlen(name);

	if (type == 'd' && llvm)
		return (size_t)(llvm - sym) == nlen && !strncmp(sym, name, nlen);
	return !strcmp(sym, name);
}

int kfacts_kallsyms(const char *const *names, size_t cnt, uint64_t *addrs)
{
	char line[640], sym[512];
	unsigned long long addr;
	int err = 0;
	char type;
	FILE *f;

	for (size_t i = 0; i < cnt; i++)
		addrs[i] = 0;
	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %511s", &addr, &type, sym) != 3)
			continue;
		for (size_t i = 0; i < cnt; i++) {
			if (!sym_matches(sym, type, names[i]))
				continue;
			/* Two different addresses: libbpf refuses to guess. */
			if (addrs[i] && addrs[i] != addr)
				err = -ENOTUNIQ;
			else
				addrs[i] = addr;
		}
	}
	fclose(f);
	return err;
}

/* libbpf's arch_specific_syscall_pfx(). */
static const char *syscall_prefix(void)
{
	static const struct { const char *machine, *pfx; } arch[] = {
		{ "x86_64", "x64" }, { "i686", "ia32" }, { "aarch64", "arm64" },
		{ "s390x", "s390x" }, { "ppc64le", "powerpc" }, { "ppc64", "powerpc" },
		{ "riscv64", "riscv" }, { "loongarch64", "loongarch" },
	};
	struct utsname uts;

	if (uname(&uts))
		return NULL;
	for (size_t i = 0; i < sizeof(arch) / sizeof(arch[0]); i++)
		if (!strcmp(uts.machine, arch[i].machine))
			return arch[i].pfx;
	return NULL;
}

/* libbpf answers by trying to attach a kprobe to __<arch>_sys_bpf. We do
 * not create probes; we ask whether kprobes exist at all (a kprobe PMU, or
 * tracefs kprobe_events for libbpf's legacy path) and whether the kernel
 * has the symbol. Without kprobes libbpf's probe fails, and says 0. */
static bool probe_syscall_wrapper(void)
{
	const char *pfx = syscall_prefix();
	char name[64];
	const char *names[1] = { name };
	uint64_t addr = 0;

	if (!pfx)
		return false;
	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) &&
	    access("/sys/kernel/tracing/kprobe_events", F_OK) &&
	    access("/sys/kernel/debug/tracing/kprobe_events", F_OK))
		return false;
	snprintf(name, sizeof(name), "__%s_sys_bpf", pfx);
	return kfacts_kallsyms(names, 1, &addr) == 0 && addr;
}

bool bpfvet_kernel__has_syscall_wrapper(struct bpfvet_kernel *k)
{
	if (!k->syscall_wrapper)
		k->syscall_wrapper = probe_syscall_wrapper() ? 1 : -1;
	return k->syscall_wrapper > 0;
}
