/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The value of the .kconfig map, with libbpf's rules: CONFIG_* from the
 * kernel config (y/n/m for bool, tristate and char, numbers for integers,
 * quoted strings for char arrays), LINUX_KERNEL_VERSION,
 * LINUX_HAS_BPF_COOKIE and LINUX_HAS_SYSCALL_WRAPPER from the kernel; an
 * option the config lacks is 0 for a weak extern and refuses the load for
 * a strong one. Only the externs the program uses are filled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "kernel_load.h"
#include "loader.h"

enum kk_type { KK_UNKNOWN, KK_BOOL, KK_TRISTATE, KK_CHAR, KK_INT, KK_CHAR_ARR };

struct kcfg {
	const struct bpfvet_extern *e;
	enum kk_type type;
	bool is_signed;
	uint32_t size;
	uint8_t *val;		/* where it goes in the .kconfig value */
};

static enum kk_type kcfg_type_of(const struct btf *btf, uint32_t id, bool *is_signed,
				   int depth)
{
	const struct btf_type *t = btf_skip_mods(btf, id, NULL);
	const char *name;

	*is_signed = false;
	if (!t || depth > 4)
		return KK_UNKNOWN;
	name = btf__name_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			return t->size == 1 ? KK_BOOL : KK_UNKNOWN;
		*is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		if (t->size == 1)
			return KK_CHAR;
		if (t->size > 8 || (t->size & (t->size - 1)))
			return KK_UNKNOWN;
		return KK_INT;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (btf_is_enum(t) && t->size != 4)
			return KK_UNKNOWN;
		return name && !strcmp(name, "libbpf_tristate") ? KK_TRISTATE : KK_UNKNOWN;
	case BTF_KIND_ARRAY: {
		bool sgn;

		if (!btf_array(t)->nelems ||
		    kcfg_type_of(btf, btf_array(t)->type, &sgn, depth + 1) != KK_CHAR)
			return KK_UNKNOWN;
		return KK_CHAR_ARR;
	}
	default:
		return KK_UNKNOWN;
	}
}

static bool fits(const struct kcfg *c, uint64_t v)
{
	unsigned bits = c->size * 8;

	if (c->size >= 8)
		return true;
	if (c->is_signed)
		return v + (1ULL << (bits - 1)) < (1ULL << bits);
	return (v >> bits) == 0;
}

static int set_num(struct kload *kl, const struct kcfg *c, uint64_t v)
{
	if (c->type != KK_INT && c->type != KK_CHAR && c->type != KK_BOOL)
		return kload_refuse(kl, -EINVAL,
				    "extern (kcfg) '%s': value '%llu' implies integer, char, or boolean type",
				    c->e->name, (unsigned long long)v);
	if (c->type == KK_BOOL && v > 1)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%llu' isn't boolean compatible",
				    c->e->name, (unsigned long long)v);
	if (!fits(c, v))
		return kload_refuse(kl, -ERANGE, "extern (kcfg) '%s': value '%llu' doesn't fit in %u bytes",
				    c->e->name, (unsigned long long)v, c->size);
	/* Little-endian host and target: the low bytes are the value. */
	memcpy(c->val, &v, c->size);
	return 0;
}

static int set_tristate(struct kload *kl, const struct kcfg *c, char v)
{
	uint32_t tri = v == 'y' ? 1 : v == 'm' ? 2 : 0;	/* enum libbpf_tristate */

	switch (c->type) {
	case KK_BOOL:
		if (v == 'm')
			return kload_refuse(kl, -EINVAL,
					    "extern (kcfg) '%s': value 'm' implies tristate or char type",
					    c->e->name);
		c->val[0] = v == 'y';
		return 0;
	case KK_TRISTATE:
		memcpy(c->val, &tri, c->size < sizeof(tri) ? c->size : sizeof(tri));
		return 0;
	case KK_CHAR:
		c->val[0] = (uint8_t)v;
		return 0;
	default:
		return kload_refuse(kl, -EINVAL,
				    "extern (kcfg) '%s': value '%c' implies bool, tristate, or char type",
				    c->e->name, v);
	}
}

static int set_string(struct kload *kl, const struct kcfg *c, const char *v, size_t len)
{
	if (c->type != KK_CHAR_ARR)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%.*s' implies char array type",
				    c->e->name, (int)len, v);
	if (len < 2 || v[len - 1] != '"')
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': invalid string config '%.*s'",
				    c->e->name, (int)len, v);
	len -= 2;
	if (len >= c->size)
		len = c->size - 1;	/* libbpf truncates, with a warning */
	memcpy(c->val, v + 1, len);
	c->val[len] = '\0';
	return 0;
}

static int set_config(struct kload *kl, const struct kcfg *c, const char *v, size_t len)
{
	char num[64], *end;
	uint64_t n;

	if (len == 1 && (v[0] == 'y' || v[0] == 'n' || v[0] == 'm'))
		return set_tristate(kl, c, v[0]);
	if (len && v[0] == '"')
		return set_string(kl, c, v, len);
	if (!len || len >= sizeof(num))
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%.*s' isn't a valid integer",
				    c->e->name, (int)len, v);
	memcpy(num, v, len);
	num[len] = '\0';
	errno = 0;
	n = strtoull(num, &end, 0);
	if (errno || *end)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%s' isn't a valid integer",
				    c->e->name, num);
	if (c->type != KK_INT && c->type != KK_CHAR)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%s' implies integer type",
				    c->e->name, num);
	return set_num(kl, c, n);
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
static bool has_syscall_wrapper(void)
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

/* Fills one extern; *set tells whether a value was found. */
static int kcfg_one(struct kload *kl, const struct kcfg *c, bool *set)
{
	const char *name = c->e->name, *v;
	size_t len;
	uint32_t ver;
	int err;

	*set = true;
	if (!strncmp(name, "CONFIG_", 7)) {
		err = kfacts_kconfig(kl->k, name, &v, &len);
		if (err)
			return kload_refuse(kl, err, "extern (kcfg) '%s': cannot read the kernel config (%s)",
					    name, strerror(-err));
		*set = v != NULL;
		return v ? set_config(kl, c, v, len) : 0;
	}
	if (!strcmp(name, "LINUX_KERNEL_VERSION")) {
		ver = kfacts_version(kl->k);
		if (!ver)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': failed to get kernel version",
					    name);
		return set_num(kl, c, ver);
	}
	if (!strcmp(name, "LINUX_HAS_BPF_COOKIE"))
		return set_num(kl, c, 1);	/* every kernel bpfvet models has it */
	if (!strcmp(name, "LINUX_HAS_SYSCALL_WRAPPER"))
		return set_num(kl, c, has_syscall_wrapper());
	if (strncmp(name, "LINUX_", 6) || !c->e->weak)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': unrecognized virtual extern",
				    name);
	*set = false;
	return 0;
}

int kext_kconfig_fill(struct kload *kl, void *data, size_t size)
{
	const struct bpfvet_program *prog = kl->prog;
	const struct btf *btf = prog->obj ? prog->obj->btf : NULL;

	for (size_t i = 0; i < prog->extern_cnt; i++) {
		const struct bpfvet_extern *e = &prog->externs[i];
		const struct btf_type *var;
		struct kcfg c = { .e = e };
		long long sz;
		bool set;
		int err;

		if (e->kind != BPFVET_EXTERN_KCONFIG)
			continue;
		var = btf ? btf__type_by_id(btf, e->btf_id) : NULL;
		sz = var && btf_is_var(var) ? btf__resolve_size(btf, var->type) : -1;
		if (sz <= 0 || (uint64_t)e->kcfg_off + (uint64_t)sz > size)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': bad type or place", e->name);
		c.type = kcfg_type_of(btf, var->type, &c.is_signed, 0);
		c.size = (uint32_t)sz;
		c.val = (uint8_t *)data + e->kcfg_off;
		err = kcfg_one(kl, &c, &set);
		if (err)
			return err;
		if (!set && !e->weak)
			return kload_refuse(kl, -ESRCH, "extern '%s' (strong): not resolved", e->name);
	}
	return 0;
}
