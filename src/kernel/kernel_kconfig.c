/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The value of the .kconfig map, with libbpf's rules: CONFIG_* from the
 * kernel config (y/n/m for bool, tristate and char, numbers for integers,
 * quoted strings for char arrays), LINUX_KERNEL_VERSION,
 * LINUX_HAS_BPF_COOKIE and LINUX_HAS_SYSCALL_WRAPPER from the kernel; an
 * option the config lacks is 0 for a weak extern and refuses the load for
 * a strong one. Only the externs the program uses are filled. Types and
 * values are read by kconfig.c's parser, in the kernel loader's style.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "kernel_load.h"
#include "loader/loader.h"

static int refuse_load(void *ctx, int err, const char *msg)
{
	return kload_refuse(ctx, err, "%s", msg);
}

/* A value written, or the load refused (kload_refuse never goes on). */
static int written(int ret)
{
	return ret < 0 ? ret : 0;
}

/* Fills one extern; *set tells whether a value was found. */
static int kcfg_one(struct kload *kl, const struct kconfig_slot *c, bool weak, bool *set)
{
	const char *name = c->name, *v;
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
		return v ? written(kconfig_set_value(c, v, len)) : 0;
	}
	if (!strcmp(name, "LINUX_KERNEL_VERSION")) {
		ver = kfacts_version(kl->k);
		if (!ver)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': failed to get kernel version",
					    name);
		return written(kconfig_set_num(c, ver));
	}
	if (!strcmp(name, "LINUX_HAS_BPF_COOKIE"))
		return written(kconfig_set_num(c, 1));	/* every kernel bpfvet models has it */
	if (!strcmp(name, "LINUX_HAS_SYSCALL_WRAPPER"))
		return written(kconfig_set_num(c, bpfvet_kernel__has_syscall_wrapper(kl->k)));
	if (strncmp(name, "LINUX_", 6) || !weak)
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
		struct kconfig_slot c = {
			.name = e->name, .style = KCONFIG_STYLE_KERNEL,
			.refuse = refuse_load, .ctx = kl,
		};
		long long sz;
		bool set;
		int err;

		if (e->kind != BPFVET_EXTERN_KCONFIG)
			continue;
		var = btf ? btf__type_by_id(btf, e->btf_id) : NULL;
		sz = var && btf_is_var(var) ? btf__resolve_size(btf, var->type) : -1;
		if (sz <= 0 || (uint64_t)e->kcfg_off + (uint64_t)sz > size)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': bad type or place", e->name);
		c.type = kconfig_type_of(btf, var->type, &c.is_signed);
		c.size = (uint32_t)sz;
		c.val = (uint8_t *)data + e->kcfg_off;
		err = kcfg_one(kl, &c, e->weak, &set);
		if (err)
			return err;
		if (!set && !e->weak)
			return kload_refuse(kl, -ESRCH, "extern '%s' (strong): not resolved", e->name);
	}
	return 0;
}
