/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which members of a kernel struct_ops type a BPF program may implement.
 * The kernel refuses a member its struct_ops type gives no stub for (it
 * could never be called), and each type may add its own rule (a check
 * of the program against the member). These are facts of Linux 6.18,
 * for the struct_ops types bpfvet knows; for the others nothing is
 * refused here.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/loader.h"
#include "verifier.h"

struct st_ops_rule {
	const char *type;
	/* Function-pointer members without a stub: never attachable. */
	const char *const *no_stub;
	/* The only member a sleepable program may implement, if any rule. */
	const char *sleepable_member;
};

static const char *const tcp_ca_no_stub[] = { "get_info", NULL };

static const struct st_ops_rule rules[] = {
	{ "tcp_congestion_ops", tcp_ca_no_stub, NULL },
	{ "bpf_dummy_ops", NULL, "test_sleepable" },
};

static const struct st_ops_rule *rule_for(const char *type)
{
	size_t n = core_essential_len(type);

	for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (strlen(rules[i].type) == n && !strncmp(rules[i].type, type, n))
			return &rules[i];
	return NULL;
}

static bool listed(const char *const *names, const char *name)
{
	for (; names && *names; names++)
		if (!strcmp(*names, name))
			return true;
	return false;
}

/* The struct_ops type and member that name the program, from its object. */
static bool program_member(const struct bpfvet_program *prog, const char **type,
			   const char **member)
{
	const struct btf *btf = prog->obj ? prog->obj->btf : NULL;
	const struct btf_type *t;

	if (!btf || prog->st_ops_map < 0 || (size_t)prog->st_ops_map >= prog->obj->map_cnt)
		return false;
	t = btf__type_by_id(btf, prog->obj->maps[prog->st_ops_map].btf_value_type_id);
	if (!t || !btf_is_composite(t) || prog->st_ops_member >= btf_vlen(t))
		return false;
	*type = btf__name_by_offset(btf, t->name_off);
	*member = btf__name_by_offset(btf, btf_members(t)[prog->st_ops_member].name_off);
	return *type && *member;
}

int struct_ops_check_member(struct vet_env *env)
{
	const char *type, *member;
	const struct st_ops_rule *r;
	size_t n;
	int err = 0;

	/* No map implements it: libbpf loads it with attach_btf_id 0. Newer
	 * kernels refuse that before the verifier speaks, which bpfvet
	 * leaves to the loader's view. */
	if (env->prog->st_ops_map < 0 && !env_has(env, KVER_STRUCT_OPS_UNSET_QUIET)) {
		verbose(env, "attach_btf_id 0 is not a supported struct\n");
		return -ENOTSUPP_KERNEL;
	}
	if (!program_member(env->prog, &type, &member) || !(r = rule_for(type)))
		return 0;
	n = core_essential_len(type);
	if (listed(r->no_stub, member))
		err = -ENOTSUPP_KERNEL;
	else if (r->sleepable_member && (env->prog_flags & BPF_F_SLEEPABLE) &&
		 strcmp(member, r->sleepable_member))
		err = -EINVAL;	/* the type's own check refuses it */
	if (err)
		verbose(env, "attach to unsupported member %s of struct %.*s\n", member,
			(int)n, type);
	return err;
}
