/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Iterator programs (iter/TARGET): their context is the prototype of
 * bpf_iter_TARGET (struct bpf_iter_meta *meta, then the target's objects),
 * read like any BTF-typed context (btf_ctx.c), except that each target
 * registers, for some arguments, the register type a read gives: objects
 * that may be NULL at the end of the iteration, and buffers (a map
 * element's key and value) that the program reads, or writes, in place.
 *
 * Those registrations are the kernel's, per target, below. A target not
 * listed leaves the program unsupported.
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

#define OR_NULL		(PTR_TO_BTF_ID | PTR_MAYBE_NULL)
#define BUF_OR_NULL	(PTR_TO_BUF | PTR_MAYBE_NULL)

/* Register types of the arguments, by index in bpf_iter_TARGET's
 * prototype (0 is meta); 0: the default rule. */
struct iter_target {
	const char *name;
	uint32_t arg_type[5];
};

static const struct iter_target targets[] = {
	{ "task", { [1] = OR_NULL | PTR_TRUSTED } },
	{ "task_file", { [1] = OR_NULL, [3] = OR_NULL } },	/* task, fd, file */
	{ "task_vma", { [1] = OR_NULL, [2] = OR_NULL } },
	{ "bpf_map", { [1] = OR_NULL | PTR_TRUSTED } },
	{ "bpf_map_elem", { [2] = BUF_OR_NULL | MEM_RDONLY, [3] = BUF_OR_NULL } },
	{ "bpf_sk_storage_map", { [2] = OR_NULL, [3] = BUF_OR_NULL } },
	{ "sockmap", { [2] = BUF_OR_NULL | MEM_RDONLY, [3] = OR_NULL } },
	{ "bpf_link", { [1] = OR_NULL } },
	{ "bpf_prog", { [1] = OR_NULL } },
	{ "cgroup", { [1] = OR_NULL | PTR_TRUSTED } },
	{ "tcp", { [1] = OR_NULL | PTR_TRUSTED } },
	{ "udp", { [1] = OR_NULL | PTR_TRUSTED } },
	{ "unix", { [1] = OR_NULL } },
	{ "netlink", { [1] = OR_NULL } },
	{ "ipv6_route", { [1] = OR_NULL } },
	{ "ksym", { [1] = OR_NULL } },
};

static const struct iter_target *find_target(const char *name)
{
	for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
		if (!strcmp(name, targets[i].name))
			return &targets[i];
	return NULL;
}

bool iter_target_known(const struct vet_env *env)
{
	const char *t = env->prog->attach_target;

	if (t && !strncmp(t, "vmlinux:", strlen("vmlinux:")))
		t += strlen("vmlinux:");
	return t && find_target(t);
}

uint32_t iter_ctx_arg_type(const struct vet_env *env, uint32_t arg)
{
	const char *t = env->attach.name;
	const struct iter_target *it;

	if (!t || strncmp(t, "bpf_iter_", strlen("bpf_iter_")))
		return 0;
	it = find_target(t + strlen("bpf_iter_"));
	if (!it || arg >= sizeof(it->arg_type) / sizeof(it->arg_type[0]))
		return 0;
	return it->arg_type[arg];
}

int check_buf_region(struct vet_env *env, uint32_t regno, int off, int size,
		     enum access_type t)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool rdonly = reg->type & MEM_RDONLY;
	char tb[64], tn[48];

	if (rdonly && t == ACCESS_WRITE) {
		verbose(env, "R%u cannot write into %s\n", regno,
			reg_type_str(tb, sizeof(tb), reg->type));
		return -EACCES;
	}
	if (off < 0) {
		verbose(env, "R%u invalid %s buffer access: off=%d, size=%d\n", regno,
			rdonly ? "rdonly" : "rdwr", off, size);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off) || reg->b.var_off.value) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "R%u invalid variable buffer offset: off=%d, var_off=%s\n", regno,
			off, tn);
		return -EACCES;
	}
	/* The kernel notes the furthest byte for the attach-time check
	 * against the map's key and value sizes; nothing to do here. */
	return 0;
}

int check_buf_access(struct vet_env *env, uint32_t regno, int off, int size,
		     enum access_type t, int value_regno)
{
	bool rdonly = cur_regs(env)[regno].type & MEM_RDONLY;
	int err = check_buf_region(env, regno, off, size, t);

	if (!err && value_regno >= 0 && (rdonly || t == ACCESS_READ))
		reg_mark_unknown(env, &cur_regs(env)[value_regno]);
	return err;
}
