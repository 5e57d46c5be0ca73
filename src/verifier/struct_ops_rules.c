/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * struct_ops programs: each implements one member of a kernel struct_ops
 * type, and the type's rules apply on top of the tracing context.
 *  - Which members a program may implement. The kernel refuses a member
 *    its struct_ops type gives no stub for (it could never be called),
 *    and each type may add its own rule (a check of the program against
 *    the member). Facts of Linux 6.18 for the types bpfvet knows; for the
 *    others nothing is refused here.
 *  - The context: the member's prototype in the target BTF, read by
 *    btf_ctx.c, with the tags of the member's stub and the type's own
 *    retyping (tcp_congestion_ops' sock -> tcp_sock).
 *  - Writes through BTF pointers, which each type allows its own way
 *    (tcp_congestion_ops, bpf_dummy_ops; unsupported for the others).
 *  - The return value, which a void member does not have.
 * docs/btf.md describes them; tests/progs/struct_ops.c checks them.
 */
#include <errno.h>
#include <stdio.h>
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

	/* Before 6.3 no struct_ops program could sleep; the kernel says so
	 * before it looks at the struct. */
	if ((env->prog_flags & BPF_F_SLEEPABLE) && !env_has(env, KVER_STRUCT_OPS_SLEEPABLE)) {
		verbose(env, "Only fentry/fexit/fmod_ret, lsm, and kprobe/uprobe programs can be sleepable\n");
		return -EINVAL;
	}
	/* No map implements it: libbpf loads it with attach_btf_id 0. Newer
	 * kernels refuse that with ENOTSUPP and an empty log, before their
	 * verifier runs: a refusal, as the recorded kernels count it. */
	if (env->prog->st_ops_map < 0 && !env_has(env, KVER_STRUCT_OPS_UNSET_QUIET)) {
		verbose(env, "attach_btf_id 0 is not a supported struct\n");
		return -ENOTSUPP_KERNEL;
	}
	if (env->prog->st_ops_map < 0) {
		env->refused = "Operation is not supported";
		return -ENOTSUPP_KERNEL;
	}
	if (!program_member(env->prog, &type, &member) || !(r = rule_for(type)))
		return struct_ops_check_refs(env);
	n = core_essential_len(type);
	if (listed(r->no_stub, member))
		err = -ENOTSUPP_KERNEL;
	else if (r->sleepable_member && (env->prog_flags & BPF_F_SLEEPABLE) &&
		 strcmp(member, r->sleepable_member))
		err = -EINVAL;	/* the type's own check refuses it */
	if (err) {
		verbose(env, "attach to unsupported member %s of struct %.*s\n", member,
			(int)n, type);
		return err;
	}
	return struct_ops_check_refs(env);
}

/* ------------------------------------------------------------------ */
/* The member's prototype and its stub                                 */
/* ------------------------------------------------------------------ */

#define NULLABLE_SUFFIX	"__nullable"
#define REF_SUFFIX	"__ref"

static bool has_suffix(const char *name, const char *sfx)
{
	size_t n = name ? strlen(name) : 0, k = strlen(sfx);

	return n >= k && !strcmp(name + n - k, sfx);
}

/*
 * The arguments the member's stub function tags __nullable or __ref. The
 * kernel finds the stub by its address (the struct_ops type's cfi_stubs)
 * and reads the tags from the stub's BTF; bpfvet has only the BTF, and
 * finds the stub by the name "<struct>__<member>", which every stub with
 * tagged arguments follows (bpf_dummy_ops__test_1 on 6.18, sched_ext's,
 * Qdisc_ops' and the selftests' bpf_testmod_ops'). Stubs named otherwise
 * (tcp_congestion_ops': bpf_tcp_ca_*) tag nothing. Kernels before stubs
 * were read (6.1) have no such function, so nothing is tagged there
 * either. Only pointers to structs count, as the kernel refuses to
 * register a type that tags anything else.
 */
static void stub_tags(struct vet_env *env, const struct btf_type *proto)
{
	const struct btf *btf = env->targ_btf;
	struct attach_info *a = &env->attach;
	const struct btf_type *st;
	const struct btf_param *sp, *pp = btf_params(proto);
	char name[256];
	int id;

	snprintf(name, sizeof(name), "%s__%s", a->st_name, a->name);
	id = btf_index_find(env->targ_index, btf, name, BTF_KIND_FUNC);
	st = id > 0 ? btf__type_by_id(btf, btf__type_by_id(btf, (uint32_t)id)->type) : NULL;
	if (!st || !btf_is_func_proto(st) || btf_vlen(st) != btf_vlen(proto))
		return;
	sp = btf_params(st);
	for (uint16_t i = 0; i < btf_vlen(st) && i < 32; i++) {
		const char *pname = btf__name_by_offset(btf, sp[i].name_off);
		const struct btf_type *t = kbtf_skip_mods(btf, pp[i].type, NULL);

		if (!t || !btf_is_ptr(t) || !kbtf_is_struct(kbtf_skip_mods(btf, t->type, NULL)))
			continue;
		if (has_suffix(pname, NULLABLE_SUFFIX))
			a->st_nullable |= 1u << i;
		else if (has_suffix(pname, REF_SUFFIX))
			a->st_ref |= 1u << i;
	}
}

int struct_ops_ctx_init(struct vet_env *env)
{
	const struct bpfvet_program *prog = env->prog;
	const struct btf *btf = env->targ_btf;
	struct attach_info *a = &env->attach;
	const struct btf_type *kt, *t;
	const struct btf_member *m;

	/* The loader resolved the member in this BTF, or refused the
	 * program; 0 when no struct_ops variable names it. */
	if (!prog->st_ops_kern_type || !prog->obj || prog->obj->targ_btf != btf)
		return 0;
	kt = btf__type_by_id(btf, prog->st_ops_kern_type);
	if (!kt || !btf_is_composite(kt) || prog->st_ops_kern_member >= btf_vlen(kt))
		return unsupported(env, "struct_ops member not in the target BTF");
	m = &btf_members(kt)[prog->st_ops_kern_member];
	t = kbtf_skip_mods(btf, m->type, NULL);
	t = t && btf_is_ptr(t) ? kbtf_skip_mods(btf, t->type, &a->proto_id) : NULL;
	if (!t || !btf_is_func_proto(t))
		return unsupported(env, "struct_ops member not in the target BTF");
	a->btf_id = prog->st_ops_kern_type;
	a->name = btf__name_by_offset(btf, m->name_off);
	a->st_name = btf__name_by_offset(btf, kt->name_off);
	a->st_member = prog->st_ops_kern_member;
	a->st_moff = btf_member_bit_offset(kt, prog->st_ops_kern_member) / 8;
	if (!a->name || !a->st_name) {
		a->proto_id = 0;
		a->st_name = NULL;
		return unsupported(env, "struct_ops member not in the target BTF");
	}
	stub_tags(env, t);
	return 0;
}

bool struct_ops_tagged_arg(const struct vet_env *env, uint32_t arg, const struct btf_type *ptr,
			   uint32_t *reg_type, uint32_t *btf_id)
{
	const struct attach_info *a = &env->attach;

	if (arg >= 32 || !((a->st_nullable | a->st_ref) >> arg & 1))
		return false;
	/* The stub's tags make a trusted pointer, on any kernel that has
	 * them; no "has btf_id" line is printed for it. */
	*reg_type = PTR_TO_BTF_ID | PTR_TRUSTED;
	if (a->st_nullable >> arg & 1)
		*reg_type |= PTR_MAYBE_NULL;
	kbtf_skip_mods(env->targ_btf, ptr->type, btf_id);
	return true;
}

/* tcp_congestion_ops reads its struct sock arguments as the tcp_sock
 * they are, unless a flag other than trust qualifies the pointer. */
void struct_ops_ctx_promote(const struct vet_env *env, uint32_t reg_type, uint32_t *btf_id)
{
	const uint32_t safe = MEM_ALLOC | PTR_TRUSTED | NON_OWN_REF;
	int sock, tcp_sock;

	if (!env->attach.st_name || strcmp(env->attach.st_name, "tcp_congestion_ops") ||
	    base_type(reg_type) != PTR_TO_BTF_ID || (reg_type & ~BASE_TYPE_MASK & ~safe))
		return;
	sock = btf_index_find(env->targ_index, env->targ_btf, "sock", BTF_KIND_STRUCT);
	tcp_sock = btf_index_find(env->targ_index, env->targ_btf, "tcp_sock", BTF_KIND_STRUCT);
	if (sock > 0 && tcp_sock > 0 && *btf_id == (uint32_t)sock)
		*btf_id = (uint32_t)tcp_sock;
}

bool struct_ops_helpers_known(const struct vet_env *env)
{
	const char *st = env->attach.st_name;

	return st && (!strcmp(st, "tcp_congestion_ops") || !strcmp(st, "bpf_dummy_ops"));
}

int struct_ops_check_refs(struct vet_env *env)
{
	/* The kernel takes a reference for each __ref argument at entry,
	 * which the program must release or return. */
	if (env->attach.st_ref)
		return unsupported(env, "struct_ops __ref argument");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Writes to kernel structs                                            */
/* ------------------------------------------------------------------ */

/*
 * Byte offset and end of member `path` ("a" or "a.b") of struct `sname`
 * in `btf`, looking through anonymous members as C's offsetof does.
 * False when the BTF lacks it.
 */
static bool find_member(const struct btf *btf, uint32_t id, const char *name, size_t len,
			uint32_t *off, uint32_t *type, int depth)
{
	const struct btf_type *t = kbtf_skip_mods(btf, id, NULL);
	const struct btf_member *m;

	if (!t || !btf_is_composite(t) || depth > 8)
		return false;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf__name_by_offset(btf, m[i].name_off);
		uint32_t inner;

		if (btf_member_bitfield_size(t, i))
			continue;
		if (mname && mname[0] && !strncmp(mname, name, len) && !mname[len]) {
			*off = btf_member_bit_offset(t, i) / 8;
			*type = m[i].type;
			return true;
		}
		if ((!mname || !mname[0]) &&
		    find_member(btf, m[i].type, name, len, &inner, type, depth + 1)) {
			*off = btf_member_bit_offset(t, i) / 8 + inner;
			return true;
		}
	}
	return false;
}

static bool member_range(const struct vet_env *env, const char *sname, const char *path,
			 uint32_t *off, uint32_t *end)
{
	const struct btf *btf = env->targ_btf;
	int sid = btf_index_find(env->targ_index, btf, sname, BTF_KIND_STRUCT);
	uint32_t id = sid > 0 ? (uint32_t)sid : 0, at = 0, o;
	struct kbtf_size sz;

	while (id) {
		const char *dot = strchr(path, '.');
		size_t len = dot ? (size_t)(dot - path) : strlen(path);

		if (!find_member(btf, id, path, len, &o, &id, 0))
			return false;
		at += o;
		if (!dot) {
			if (!kbtf_resolve_size(btf, btf__type_by_id(btf, id), &sz))
				return false;
			*off = at;
			*end = at + sz.size;
			return true;
		}
		path = dot + 1;
	}
	return false;
}

/* The fields of tcp_sock a tcp_congestion_ops program may write, each
 * from its first version: struct and member (C's offsetof), and whether
 * any offset inside the member starts a write (bpf_ctx_range). */
static const struct {
	const char *sname, *path;
	bool range;
	enum kver_feature since;
} tcp_ca_writable[] = {
	{ "sock", "sk_pacing_rate", false, KVER__COUNT },
	{ "sock", "sk_pacing_status", false, KVER__COUNT },
	{ "inet_connection_sock", "icsk_ca_priv", true, KVER__COUNT },
	{ "inet_connection_sock", "icsk_ack.pending", false, KVER__COUNT },
	{ "tcp_sock", "snd_cwnd", false, KVER__COUNT },
	{ "tcp_sock", "snd_cwnd_cnt", false, KVER__COUNT },
	{ "tcp_sock", "snd_cwnd_stamp", false, KVER_TCP_CA_WRITE_CWND_STAMP },
	{ "tcp_sock", "snd_ssthresh", false, KVER__COUNT },
	{ "tcp_sock", "ecn_flags", false, KVER__COUNT },
	{ "tcp_sock", "app_limited", false, KVER_TCP_CA_WRITE_CWND_STAMP },
};

_Static_assert(sizeof(tcp_ca_writable) / sizeof(tcp_ca_writable[0]) <= TCP_CA_FIELDS_MAX,
	       "room in the env for each writable field");

/* Field i's byte range, found in the target BTF at its first use in this
 * verification: each search reads hundreds of member names. */
static bool tcp_ca_field(struct vet_env *env, size_t i, uint32_t *start, uint32_t *end)
{
	struct tcp_ca_field *c = &env->tcp_ca_fields[i];

	if (!c->state)
		c->state = member_range(env, tcp_ca_writable[i].sname, tcp_ca_writable[i].path,
					&c->start, &c->end) ? 1 : 2;
	*start = c->start;
	*end = c->end;
	return c->state == 1;
}

static int tcp_ca_write(struct vet_env *env, const struct reg_state *reg, int off, int size)
{
	const struct btf *btf = env->targ_btf;
	int tcp_sock = btf_index_find(env->targ_index, btf, "tcp_sock", BTF_KIND_STRUCT);
	uint32_t start, end;

	if (tcp_sock <= 0 || reg->btf != btf || reg->btf_id != (uint32_t)tcp_sock) {
		verbose(env, "only read is supported\n");
		return -EACCES;
	}
	for (size_t i = 0; i < sizeof(tcp_ca_writable) / sizeof(tcp_ca_writable[0]); i++) {
		if (tcp_ca_writable[i].since != KVER__COUNT && !env_has(env, tcp_ca_writable[i].since))
			continue;
		if (!tcp_ca_field(env, i, &start, &end))
			return unsupported(env, "tcp_sock field missing from the target BTF");
		if (tcp_ca_writable[i].range ? (uint32_t)off < start || (uint32_t)off >= end :
		    (uint32_t)off != start)
			continue;
		if ((uint32_t)off + (uint32_t)size > end) {
			verbose(env, "write access at off %d with size %d beyond the member of tcp_sock ended at %u\n",
				off, size, end);
			return -EACCES;
		}
		return 0;
	}
	verbose(env, "no write support to tcp_sock at off %d\n", off);
	return -EACCES;
}

static int dummy_ops_write(struct vet_env *env, const struct reg_state *reg, int off, int size)
{
	int state = btf_index_find(reg->btf == env->targ_btf ? env->targ_index : NULL, reg->btf,
				   "bpf_dummy_ops_state", BTF_KIND_STRUCT);
	const struct btf_type *t;

	if (state <= 0)
		return -EINVAL;
	if (reg->btf_id != (uint32_t)state) {
		verbose(env, "only access to bpf_dummy_ops_state is supported\n");
		return -EACCES;
	}
	t = btf__type_by_id(reg->btf, (uint32_t)state);
	if ((uint32_t)off + (uint32_t)size > t->size) {
		verbose(env, "write access at off %d with size %d\n", off, size);
		return -EACCES;
	}
	return 0;
}

int struct_ops_btf_write(struct vet_env *env, const struct reg_state *reg, int off, int size)
{
	const char *st = env->attach.st_name;

	if (!st)
		return unsupported(env, "struct_ops write to a kernel struct");
	if (!strcmp(st, "tcp_congestion_ops"))
		return tcp_ca_write(env, reg, off, size);
	if (!strcmp(st, "bpf_dummy_ops"))
		return dummy_ops_write(env, reg, off, size);
	return unsupported(env, "struct_ops write to a kernel struct");
}

/* ------------------------------------------------------------------ */
/* Return values                                                       */
/* ------------------------------------------------------------------ */

int struct_ops_check_return(struct vet_env *env, int regno, bool exception_cb)
{
	const struct btf *btf = env->targ_btf;
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct btf_type *proto, *rt;

	/* Without the member's prototype a set R0 is checked as any
	 * other; an unset one may be right (a void member) or not. */
	if (!env->attach.proto_id || !env->attach.st_name) {
		if (reg->type == NOT_INIT)
			return unsupported(env, "struct_ops return value");
		return 0;
	}
	proto = btf__type_by_id(btf, env->attach.proto_id);
	/* A void member: R0 is not read. */
	if (!proto->type)
		return 1;
	if (exception_cb)
		return 0;
	/* A member that returns a pointer takes back a referenced kptr of
	 * its type (or NULL), which only kfuncs make. */
	rt = kbtf_skip_mods(btf, proto->type, NULL);
	if (rt && btf_is_ptr(rt) && reg->type != SCALAR_VALUE && reg->type != NOT_INIT)
		return unsupported(env, "struct_ops return of a pointer");
	return 0;
}
