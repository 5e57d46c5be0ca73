/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Target profiles (--target): a folder of files that describe one kernel,
 * the way scripts/kernel-vm.sh writes them for Debian's 6.1 and 6.12 and
 * `make profiles` for the recorded 6.18. A name without a slash is looked
 * up in the profile cache, ${XDG_CACHE_HOME:-~/.cache}/bpfvet/profiles;
 * "host" means the running kernel. Every file is optional but the BTF;
 * verifier_rules names the rules by which its build differs from the
 * reference (docs/verifier-rules.md), none when absent.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

static char *path_in(const char *dir, const char *file)
{
	char *p = NULL;

	if (asprintf(&p, "%s/%s", dir, file) < 0)
		return NULL;
	return p;
}

/* dir/file when it exists, in *out; -ENOMEM only on failure. */
static int optional_file(const char *dir, const char *file, char **out)
{
	char *p = path_in(dir, file);

	if (!p)
		return -ENOMEM;
	if (access(p, R_OK)) {
		free(p);
		p = NULL;
	}
	*out = p;
	return 0;
}

/* The first line of dir/file, in buf ("" when absent). */
static void read_line(const char *dir, const char *file, char *buf, size_t sz)
{
	char *p = path_in(dir, file);
	FILE *f = p ? fopen(p, "r") : NULL;

	buf[0] = '\0';
	if (f && fgets(buf, (int)sz, f))
		buf[strcspn(buf, "\r\n")] = '\0';
	if (f)
		fclose(f);
	free(p);
}

static int profile_dir(const char *name, char *dir, size_t sz)
{
	const char *cache = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");
	int n;

	if (strchr(name, '/'))
		n = snprintf(dir, sz, "%s", name);
	else if (cache && cache[0])
		n = snprintf(dir, sz, "%s/bpfvet/profiles/%s", cache, name);
	else
		n = snprintf(dir, sz, "%s/.cache/bpfvet/profiles/%s", home ? home : "/root", name);
	return n < 0 || (size_t)n >= sz ? -ENAMETOOLONG : 0;
}

/* dir/verifier_rules: one rule name a line (docs/verifier-rules.md);
 * absent, the target follows none. -1 after reporting a bad name. */
static int read_rules(const char *name, const char *dir, uint32_t *rules)
{
	char *p = path_in(dir, "verifier_rules"), line[128];
	FILE *f = p ? fopen(p, "r") : NULL;
	uint32_t bit;
	int err = 0;

	*rules = 0;
	while (f && !err && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0] || line[0] == '#')
			continue;
		err = bpfvet_verifier_rules_parse(line, &bit);
		if (err)
			fprintf(stderr, "bpfvet: profile %s: unknown verifier rule '%s' in %s\n",
				name, line, p);
		*rules |= bit;
	}
	if (f)
		fclose(f);
	free(p);
	return err ? -1 : 0;
}

static struct target_profile *load_dir(const char *name, const char *dir)
{
	struct target_profile *p = calloc(1, sizeof(*p));
	char wrapper[8];

	if (!p || !(p->name = strdup(name)))
		goto nomem;
	if (optional_file(dir, "btf", &p->btf) || optional_file(dir, "config", &p->config) ||
	    optional_file(dir, "kallsyms", &p->kallsyms))
		goto nomem;
	if (!p->btf) {
		fprintf(stderr, "bpfvet: profile %s (%s) has no btf file\n", name, dir);
		target_profile_free(p);
		return NULL;
	}
	read_line(dir, "kernel_version", p->kernel_version, sizeof(p->kernel_version));
	read_line(dir, "syscall_wrapper", wrapper, sizeof(wrapper));
	p->syscall_wrapper = !strcmp(wrapper, "1") ? 1 : !strcmp(wrapper, "0") ? 0 : -1;
	if (read_rules(name, dir, &p->verifier_rules)) {
		target_profile_free(p);
		return NULL;
	}
	return p;
nomem:
	fprintf(stderr, "bpfvet: out of memory\n");
	target_profile_free(p);
	return NULL;
}

struct target_profile *target_profile_load(const char *name)
{
	struct target_profile *p;
	char dir[PATH_MAX];
	struct stat st;

	if (!strcmp(name, "host")) {
		p = calloc(1, sizeof(*p));
		if (!p || !(p->name = strdup(name))) {
			free(p);
			fprintf(stderr, "bpfvet: out of memory\n");
			return NULL;
		}
		p->host = 1;
		p->syscall_wrapper = -1;
		return p;
	}
	if (profile_dir(name, dir, sizeof(dir))) {
		fprintf(stderr, "bpfvet: target '%s': name too long\n", name);
		return NULL;
	}
	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		if (strchr(name, '/'))
			fprintf(stderr, "bpfvet: target %s is not a profile folder\n", name);
		else
			fprintf(stderr, "bpfvet: no profile for target '%s' in %s: make profiles "
				"makes 6.1, 6.12 and 6.18\n", name, dir);
		return NULL;
	}
	return load_dir(name, dir);
}

void target_profile_free(struct target_profile *p)
{
	if (!p)
		return;
	free(p->name);
	free(p->btf);
	free(p->config);
	free(p->kallsyms);
	free(p);
}

/* "6.18.44" -> KERNEL_VERSION(6, 18, 44); the patch level saturates at
 * 255 as in libbpf; "6.18" means 6.18.0. */
int kernel_version_parse(const char *s, uint32_t *v)
{
	unsigned int a, b, c = 0;
	int n = 0;

	if (sscanf(s, "%u.%u%n.%u%n", &a, &b, &n, &c, &n) < 2 || s[n] || a > 255 ||
	    b > 255 || (!a && !b && !c))
		return -1;
	*v = a << 16 | b << 8 | (c > 255 ? 255 : c);
	return 0;
}
