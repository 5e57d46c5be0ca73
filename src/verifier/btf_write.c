/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Stores through BTF pointers. The kernel lets a program write a kernel
 * struct only where the struct's owner allows it: netfilter's conntrack
 * entries (struct nf_conn and the nf_conn___init that bpf_xdp_ct_alloc
 * returns) have a writable mark. Every other BTF pointer is read-only
 * here.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

/* The member `name` of struct `id`: its byte offset and end, or -ENOENT. */
static int member_span(const struct btf *btf, uint32_t id, const char *name, int *start,
		       int *end)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	const struct btf_member *m;
	struct kbtf_size sz;

	if (!t || !btf_is_struct(t))
		return -ENOENT;
	m = btf_members(t);
	for (int i = 0; i < btf_vlen(t); i++) {
		const char *mname = btf__name_by_offset(btf, m[i].name_off);

		if (!mname || strcmp(mname, name) || btf_member_bitfield_size(t, i))
			continue;
		if (!kbtf_resolve_size(btf, btf__type_by_id(btf, m[i].type), &sz))
			return -ENOENT;
		*start = (int)(btf_member_bit_offset(t, i) / 8);
		*end = *start + (int)sz.size;
		return 0;
	}
	return -ENOENT;
}

static int nf_conn_write(struct vet_env *env, const struct reg_state *reg, int off, int size)
{
	int start, end;

	if (member_span(reg->btf, reg->btf_id, "mark", &start, &end) || off != start) {
		verbose(env, "no write support to nf_conn at off %d\n", off);
		return -EACCES;
	}
	if (off + size > end) {
		verbose(env, "write access at off %d with size %d beyond the member of nf_conn ended at %d\n",
			off, size, end);
		return -EACCES;
	}
	return 0;
}

int check_btf_write(struct vet_env *env, const struct reg_state *reg, int off, int size)
{
	const char *name = kbtf_name(reg->btf, reg->btf_id);

	if (reg->btf == env->targ_btf &&
	    (!strcmp(name, "nf_conn") || !strcmp(name, "nf_conn___init")))
		return nf_conn_write(env, reg, off, size);
	verbose(env, "only read is supported\n");
	return -EACCES;
}
