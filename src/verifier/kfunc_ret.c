/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * R0 after a kfunc call, from the prototype's return type: a scalar, a
 * BTF pointer to a kernel struct (referenced when the kfunc acquires,
 * maybe NULL with KF_RET_NULL), or memory of the pointee's size. The two
 * casts type R0 themselves: bpf_cast_to_kern_ctx gives the kernel's
 * struct behind the program's context, bpf_rdonly_cast an untrusted
 * pointer to the struct whose id the program passes; so do the slices of
 * a dynptr, and the graph kfuncs, whose nodes are the program's structs
 * (graph.c).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

/* The kernel struct behind a program type's context. */
static const char *kern_ctx_struct(uint32_t prog_type)
{
	if (ctx_is_sk_buff(prog_type))
		return "sk_buff";
	switch (prog_type) {
	case BPF_PROG_TYPE_XDP: return "xdp_buff";
	case BPF_PROG_TYPE_CGROUP_SOCK: return "sock";
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR: return "bpf_sock_addr_kern";
	case BPF_PROG_TYPE_SOCK_OPS: return "bpf_sock_ops_kern";
	case BPF_PROG_TYPE_SK_MSG: return "sk_msg";
	case BPF_PROG_TYPE_PERF_EVENT: return "bpf_perf_event_data_kern";
	case BPF_PROG_TYPE_CGROUP_SYSCTL: return "bpf_sysctl_kern";
	case BPF_PROG_TYPE_CGROUP_SOCKOPT: return "bpf_sockopt_kern";
	case BPF_PROG_TYPE_SK_LOOKUP: return "bpf_sk_lookup_kern";
	case BPF_PROG_TYPE_NETFILTER: return "bpf_nf_ctx";
	default: return NULL;
	}
}

static int cast_to_kern_ctx(struct vet_env *env, const struct kfunc_desc *k,
			    struct reg_state *r0)
{
	const char *name = kern_ctx_struct(env->prog_type);
	int id = name ? btf_index_find(env->targ_index, k->btf, name, BTF_KIND_STRUCT) : -1;

	if (id <= 0)
		return unsupported(env, "bpf_cast_to_kern_ctx for this program type");
	reg_mark_ptr(r0, PTR_TO_BTF_ID | PTR_TRUSTED);
	r0->btf = k->btf;
	r0->btf_id = (uint32_t)id;
	return 0;
}

static int rdonly_cast(struct vet_env *env, const struct kfunc_desc *k,
		       const struct kfunc_meta *meta, struct reg_state *r0)
{
	const struct btf_type *t = meta->const_value <= UINT32_MAX ?
				   btf__type_by_id(k->btf, (uint32_t)meta->const_value) : NULL;

	bool to_void = env_has(env, KVER_RDONLY_CAST_VOID);

	if (to_void && t && btf_kind(t) == BTF_KIND_UNKN) {
		/* Id 0: untrusted read-only memory of no size, for the
		 * probe-read helpers. */
		reg_mark_ptr(r0, PTR_TO_MEM | MEM_RDONLY | PTR_UNTRUSTED);
		r0->mem_size = 0;
		return 0;
	}
	if (!t || !kbtf_is_struct(t)) {
		verbose(env, "kfunc bpf_rdonly_cast type ID argument must be of a struct%s\n",
			to_void ? " or void" : "");
		return -EINVAL;
	}
	reg_mark_ptr(r0, PTR_TO_BTF_ID | PTR_UNTRUSTED);
	r0->btf = k->btf;
	r0->btf_id = (uint32_t)meta->const_value;
	return 0;
}

/* The iterator's slot type decides: an RCU-protected iterator yields RCU
 * pointers, the others trusted ones. */
static uint32_t iter_next_trust(const struct vet_env *env, const struct kfunc_meta *meta)
{
	const struct reg_state *slot =
		&stack_slot_at(env->cur->frame[meta->it.frameno], meta->it.spi)->spilled_ptr;

	return (slot->type & MEM_RCU) ? MEM_RCU : PTR_TRUSTED;
}

static int set_mem_return(struct vet_env *env, const struct kfunc_desc *k,
			  const struct btf_type *pointee, struct kfunc_meta *meta,
			  struct reg_state *r0)
{
	struct kbtf_size sz;
	char what[96];

	if (!meta->r0_size && kbtf_resolve_size(k->btf, pointee, &sz)) {
		meta->r0_size = sz.size;
		meta->r0_rdonly = true;
	}
	if (!meta->r0_size) {
		verbose(env, "kernel function %s returns pointer type %s %s is not supported\n",
			k->name, kbtf_kind_str(pointee), kbtf_msg_name(k->btf, pointee->name_off));
		return -EINVAL;
	}
	if (meta->r0_size > UINT32_MAX) {
		snprintf(what, sizeof(what), "kfunc %s returning more than 4 GiB", k->name);
		return unsupported(env, what);
	}
	reg_mark_ptr(r0, PTR_TO_MEM | (meta->r0_rdonly ? MEM_RDONLY : 0));
	r0->mem_size = (uint32_t)meta->r0_size;
	r0->ref_obj_id = meta->ref_obj_id;
	return 0;
}

/* bpf_dynptr_slice(_rdwr): memory of the constant buffer size, of the
 * dynptr's kind and tied to it by its id; the read-only slice may not be
 * written, and the writable one needs a program that may write packets. */
static int dynptr_slice(struct vet_env *env, const struct kfunc_desc *k,
			const struct kfunc_meta *meta, struct reg_state *r0)
{
	bool rdwr = !strcmp(k->name, "bpf_dynptr_slice_rdwr");

	if (!meta->const_found) {
		verbose(env, "verifier internal error: bpf_dynptr_slice(_rdwr) no constant size\n");
		return -EFAULT;
	}
	if (meta->const_value > UINT32_MAX)
		return unsupported(env, "dynptr slice of more than 4 GiB");
	/* 6.18 writes an skb's metadata through the dynptr only. */
	if (rdwr && (uint32_t)meta->dynptr.kind == DYNPTR_TYPE_SKB_META) {
		verbose(env, "%s() is not allowed\n", k->name);
		return -EINVAL;
	}
	reg_mark_ptr(r0, PTR_TO_MEM | (uint32_t)meta->dynptr.kind | (rdwr ? 0 : MEM_RDONLY));
	r0->mem_size = (uint32_t)meta->const_value;
	if (rdwr && !may_access_direct_pkt_data(env, ACCESS_WRITE)) {
		verbose(env, "the prog does not allow writes to packet data\n");
		return -EINVAL;
	}
	if (!meta->dynptr.id) {
		verbose(env, "verifier internal error: no dynptr id\n");
		return -EFAULT;
	}
	r0->dynptr_id = meta->dynptr.id;
	return 0;
}

static int set_ptr_return(struct vet_env *env, const struct kfunc_desc *k,
			  const struct btf_type *t, struct kfunc_meta *meta)
{
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];
	uint32_t pid = 0;
	const struct btf_type *pointee = kbtf_skip_mods(k->btf, t->type, &pid);
	bool ret_null = k->flags & KF_RET_NULL;
	int err;

	if (alloc_kfunc_returns_obj(k->name)) {
		err = alloc_obj_set_return(env, k, meta, r0, &ret_null);
	} else if (!strcmp(k->name, "bpf_cast_to_kern_ctx")) {
		err = cast_to_kern_ctx(env, k, r0);
	} else if (!strcmp(k->name, "bpf_rdonly_cast")) {
		err = rdonly_cast(env, k, meta, r0);
	} else if (!strcmp(k->name, "bpf_dynptr_slice") ||
		   !strcmp(k->name, "bpf_dynptr_slice_rdwr")) {
		err = dynptr_slice(env, k, meta, r0);
	} else if (graph_kfunc_modelled(k->name) && pointee && kbtf_is_struct(pointee)) {
		err = graph_set_return(env, meta, r0);
	} else if (!pointee || btf_kind(pointee) == BTF_KIND_UNKN) {
		reg_mark_unknown(env, r0);	/* void *: a number to the program */
		return 0;
	} else if (!btf_is_struct(pointee)) {
		err = set_mem_return(env, k, pointee, meta, r0);
	} else {
		reg_mark_ptr(r0, PTR_TO_BTF_ID);
		r0->btf = k->btf;
		r0->btf_id = pid;
		if (k->kind == KFUNC_ITER_NEXT)
			r0->type |= iter_next_trust(env, meta);
		/* A cache found from any address is not to be trusted. */
		if (!strcmp(k->name, "bpf_get_kmem_cache"))
			r0->type |= PTR_UNTRUSTED;
		err = 0;
	}
	if (err)
		return err;
	if (ret_null) {
		r0->type |= PTR_MAYBE_NULL;
		r0->id = ++env->id_gen;
	}
	if (k->flags & KF_ACQUIRE) {
		uint32_t id = ++env->id_gen;

		err = ref_acquire(env, REF_TYPE_PTR, id, NULL);
		if (err)
			return err;
		if (ret_null)
			r0->id = id;
		r0->ref_obj_id = id;
	} else if (graph_kfunc_modelled(k->name)) {
		err = graph_return_non_owning(env, k, r0);
		if (err)
			return err;
	}
	/* A lock's owner is told by the pointer's id. */
	if (reg_may_point_to_spin_lock(env, r0) && !r0->id)
		r0->id = ++env->id_gen;
	return 0;
}

int set_kfunc_return(struct vet_env *env, const struct kfunc_desc *k, struct kfunc_meta *meta)
{
	const struct btf_type *proto = btf__type_by_id(k->btf, k->proto_id);
	const struct btf_type *t = kbtf_skip_mods(k->btf, proto->type, NULL);
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];

	if ((k->flags & KF_ACQUIRE) && !alloc_kfunc_returns_obj(k->name) &&
	    !(t && btf_is_ptr(t) && kbtf_is_struct(kbtf_skip_mods(k->btf, t->type, NULL)))) {
		verbose(env, "acquire kernel function does not return PTR_TO_BTF_ID\n");
		return -EINVAL;
	}
	if (!strcmp(k->name, "bpf_session_cookie")) {
		meta->r0_size = 8;
		meta->r0_rdonly = false;
	}
	if (!t || btf_kind(t) == BTF_KIND_UNKN)	/* void: R0 stays unreadable */
		return alloc_kfunc_modelled(k->name) ? alloc_obj_drop_done(env, meta) : 0;
	if (btf_is_int(t) || btf_is_enum(t) || btf_is_enum64(t)) {
		reg_mark_unknown(env, r0);
		if (t->size < 8)
			r0->subreg_def = (int32_t)env->insn_idx + 1;
		return 0;
	}
	if (btf_is_ptr(t))
		return set_ptr_return(env, k, t, meta);
	return unsupported(env, "kfunc returning a struct");
}
