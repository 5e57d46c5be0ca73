/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loads through BTF pointers (PTR_TO_BTF_ID): the access is located in
 * the pointed-to struct of the target kernel BTF by walking its members
 * (nested structs and unions, arrays flattened, bitfields, a trailing
 * flexible array), and the loaded register becomes a scalar for data or
 * a BTF pointer for a pointer member. The trust of that pointer follows
 * the kernel's rules: walking an untrusted pointer stays untrusted;
 * walking a trusted one gives a plain pointer unless the kernel lists the
 * field as safe (the `<struct>__safe_trusted`, `__safe_rcu`, ... types it
 * keeps in its BTF for that purpose).
 *
 * Also the BTF-typed parts of helper calls: pointer arguments checked
 * against the struct the helper expects, and BTF pointers returned.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "verifier.h"

/* Nesting bound: the kernel's BTF is validated, a target file may not be
 * (a struct that contains itself must not hang the walk). */
#define MAX_WALK_STEPS 64
/* check_btf_ptr_regs: a write the struct's rule allowed, nothing left to check. */
#define BTF_WRITE_DONE 1

/* WALK_PTR_UNTRUSTED: a pointer to something other than a struct, which
 * Linux 6.18 gives as read-only untrusted memory of unknown size
 * (KVER_WALK_PTR_UNTRUSTED_MEM). */
enum walk_result { WALK_SCALAR, WALK_PTR, WALK_PTR_UNTRUSTED, WALK_STRUCT };

/* Where one step of the walk ended. */
struct walk {
	uint32_t next_id;	/* WALK_PTR: pointee; WALK_STRUCT: nested struct */
	uint32_t flag;		/* PTR_UNTRUSTED, MEM_USER, MEM_PERCPU, MEM_RCU */
	const char *field;	/* WALK_PTR: the member's name */
};

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n ? n : "";
}

/* The walk's messages print anonymous types and members as "(anon)". */
static const char *msg_name(const struct btf *btf, const struct btf_type *t)
{
	return kbtf_msg_name(btf, t->name_off);
}

bool reg_is_trusted(const struct reg_state *reg)
{
	uint32_t flags = reg->type & ~BASE_TYPE_MASK;
	bool safe = !(flags & ~TRUSTED_MODIFIERS);

	if (reg->ref_obj_id)
		return true;
	/* Socket and map pointers have kernel types the kernel trusts. */
	switch (base_type(reg->type)) {
	case PTR_TO_SOCKET:
	case PTR_TO_SOCK_COMMON:
	case PTR_TO_TCP_SOCK:
	case CONST_PTR_TO_MAP:
		return safe;
	default:
		return (flags & TRUSTED_MODIFIERS) && safe;
	}
}

void btf_ptr_set_struct(struct vet_env *env, struct reg_state *reg, const char *name)
{
	int id = env->targ_btf && name ?
		 btf_index_find(env->targ_index, env->targ_btf, name, BTF_KIND_STRUCT) : -1;

	reg->btf = id > 0 ? env->targ_btf : NULL;
	reg->btf_id = id > 0 ? (uint32_t)id : 0;
}

/* Past the end of the struct: only a trailing flexible array of ints or
 * structs may be indexed there. Returns the element struct to continue
 * in (with *off inside it), or NULL when the access is refused or reads
 * an int (*scalar set). */
static const struct btf_type *flex_elem(const struct btf *btf, const struct btf_type *t,
					int *off, bool *scalar)
{
	const struct btf_member *m;
	const struct btf_type *mt;
	const struct btf_array *a;
	uint32_t moff;

	*scalar = false;
	if (!btf_vlen(t))
		return NULL;
	m = btf_members(t) + btf_vlen(t) - 1;
	mt = kbtf_skip_mods(btf, m->type, NULL);
	if (!mt || !btf_is_array(mt))
		return NULL;
	a = btf_array(mt);
	if (a->nelems)
		return NULL;
	moff = btf_member_bit_offset(t, btf_vlen(t) - 1) / 8;
	if ((uint32_t)*off < moff)
		return NULL;
	t = kbtf_skip_mods(btf, a->type, NULL);
	if (t && btf_is_int(t)) {
		*scalar = true;
		return NULL;
	}
	if (!t || !kbtf_is_struct(t) || !t->size)
		return NULL;
	*off = (int)(((uint32_t)*off - moff) % t->size);
	return t;
}

/* The flags a __user, __percpu or __rcu tag on a pointer member gives. */
static uint32_t tag_flag(const struct btf *btf, uint32_t pointee)
{
	const struct btf_type *t = btf__type_by_id(btf, pointee);
	const char *tag;

	if (!t || !btf_is_type_tag(t))
		return 0;
	tag = type_name(btf, t);
	if (!strcmp(tag, "user"))
		return MEM_USER;
	if (!strcmp(tag, "percpu"))
		return MEM_PERCPU;
	if (!strcmp(tag, "rcu"))
		return MEM_RCU;
	return 0;
}

/* What one member told the walk. */
enum step {
	STEP_NEXT,	/* no overlap: try the next member */
	STEP_INTO,	/* the access is inside a nested struct: walk it */
	STEP_END,	/* found: *res holds a walk_result */
};

/* A member starting at or before the access: what lies at `off` in it. */
static int walk_member(struct vet_env *env, const struct btf *btf, const struct btf_type **tp,
		       uint32_t idx, int *off, int size, struct walk *w, int *res)
{
	const struct btf_type *t = *tp;
	const struct btf_member *m = btf_members(t) + idx;
	const char *mname = kbtf_msg_name(btf, m->name_off);
	uint32_t moff = btf_member_bit_offset(t, idx) / 8, mend, mid = m->type;
	uint32_t uoff = (uint32_t)*off, usize = (uint32_t)size;
	const struct btf_type *mt;
	struct kbtf_size rs = { 0 };

	mname = mname ? mname : "";
	mt = kbtf_resolve_size(btf, btf__type_by_id(btf, m->type), &rs);
	if (!mt) {
		verbose(env, "field %s doesn't have size\n", mname);
		return -EFAULT;
	}
	if (rs.type_id)
		mid = rs.type_id;
	mend = moff + rs.size;
	if (uoff >= mend)
		return STEP_NEXT;
	if (btf_is_array(mt)) {
		/* Arrays read as their element at the right index. */
		if (moff == mend)
			return STEP_NEXT;
		rs.size /= rs.nelems;
		moff += (uoff - moff) / rs.size * rs.size;
		mt = rs.elem;
		mid = rs.elem_id;
	}
	*res = WALK_SCALAR;
	if (kbtf_is_struct(mt)) {
		*tp = mt;
		if (uoff == moff) {
			w->next_id = mid;
			*res = WALK_STRUCT;
			return STEP_END;
		}
		*off -= (int)moff;
		return STEP_INTO;
	}
	if (btf_is_ptr(mt)) {
		const struct btf_type *st;
		uint32_t id = 0;

		if (rs.size != usize || uoff != moff) {
			verbose(env, "cannot access ptr member %s with moff %u in struct %s with off %u size %u\n",
				mname, moff, msg_name(btf, t), uoff, usize);
			return -EACCES;
		}
		st = kbtf_skip_mods(btf, mt->type, &id);
		w->field = mname;
		if (st && kbtf_is_struct(st)) {
			w->next_id = id;
			w->flag |= tag_flag(btf, mt->type);
			*res = WALK_PTR;
			return STEP_END;
		}
		/* Older kernels read any other pointer as a number. */
		if (env_has(env, KVER_WALK_PTR_UNTRUSTED_MEM)) {
			*res = WALK_PTR_UNTRUSTED;
			return STEP_END;
		}
	}
	/* Ints, and int arrays used as scratch space, up to the member's end. */
	if (uoff + usize > mend && !(w->flag & PTR_UNTRUSTED)) {
		verbose(env, "access beyond the end of member %s (mend:%u) in struct %s with off %u size %u\n",
			mname, mend, msg_name(btf, t), uoff, usize);
		return -EACCES;
	}
	return STEP_END;
}

/* Members of *tp in order: a walk_result, STEP_INTO with *tp and *off
 * moved into a nested struct, or a negative errno. */
static int walk_members(struct vet_env *env, const struct btf *btf, const struct btf_type **tp,
			int *off, int size, struct walk *w, int *res)
{
	const struct btf_type *t = *tp;
	uint32_t uoff = (uint32_t)*off, usize = (uint32_t)size;
	/* The members of a kernel struct do not overlap: a member (not a
	 * bitfield) followed by one that starts at or before the offset ends
	 * before it, and is passed without resolving its type (tcp_sock has
	 * some 200 members, and each resolution reads cold BTF). */
	bool ordered = btf == env->targ_btf && btf_is_struct(t);

	for (uint32_t i = 0; i < btf_vlen(t); i++) {
		uint32_t bit = btf_member_bit_offset(t, i), moff = bit / 8;
		uint32_t bsz = btf_member_bitfield_size(t, i);
		int r;

		if (uoff + usize <= moff)
			break;
		if (bsz) {
			/* Whole bitfields only; <= because clang leaves no
			 * member for anonymous padding bitfields. */
			if (uoff <= moff && (bit + bsz + 7) / 8 <= uoff + usize) {
				*res = WALK_SCALAR;
				return STEP_END;
			}
			continue;
		}
		if (uoff < moff)
			break;	/* a hole */
		if (ordered && i + 1 < btf_vlen(t) && btf_member_bit_offset(t, i + 1) / 8 <= uoff)
			continue;
		r = walk_member(env, btf, tp, i, off, size, w, res);
		if (r != STEP_NEXT)
			return r;
	}
	verbose(env, "struct %s doesn't have field at offset %d\n", msg_name(btf, t), *off);
	return -EINVAL;
}

/* The kernel's btf_struct_walk: one struct level (and the structs nested
 * in it, but not at offset 0 of a member: those end a step). */
static int struct_walk(struct vet_env *env, const struct btf *btf, const struct btf_type *t,
		       int off, int size, bool flex, struct walk *w)
{
	for (int steps = 0;; steps++) {
		int r, res = WALK_SCALAR;

		if (steps >= MAX_WALK_STEPS)
			return unsupported(env, "BTF types nested too deep");
		if (kbtf_is_modifier(t))
			t = kbtf_skip_mods(btf, t->type, NULL);
		if (!t || !kbtf_is_struct(t)) {
			verbose(env, "Type '%s' is not a struct\n", t ? msg_name(btf, t) : "(anon)");
			return -EINVAL;
		}
		/* Unions of several members make any pointer read through
		 * them untrusted. */
		if (btf_is_union(t) && btf_vlen(t) != 1 && env_has(env, KVER_UNION_WALK_UNTRUSTED))
			w->flag |= PTR_UNTRUSTED;
		if ((uint64_t)(uint32_t)off + (uint32_t)size > t->size) {
			const struct btf_type *e = NULL;
			bool scalar = false;

			if (flex)
				e = flex_elem(btf, t, &off, &scalar);
			if (scalar)
				return WALK_SCALAR;
			if (e) {
				t = e;
				continue;
			}
			verbose(env, "access beyond struct %s at off %u size %u\n",
				msg_name(btf, t), (uint32_t)off, (uint32_t)size);
			return -EACCES;
		}
		r = walk_members(env, btf, &t, &off, size, w, &res);
		if (r < 0)
			return r;
		if (r == STEP_END)
			return res;
	}
}

/* The kernel's btf_struct_access: walk from the register's struct until a
 * scalar or a pointer member is reached. Returns SCALAR_VALUE or
 * PTR_TO_BTF_ID, or a negative errno. */
static int struct_access(struct vet_env *env, const struct reg_state *reg, int off, int size,
			 struct walk *w)
{
	const struct btf *btf = reg->btf;
	const struct btf_type *t = btf__type_by_id(btf, reg->btf_id);
	bool alloc = reg->type & MEM_ALLOC;

	for (int steps = 0; t; steps++) {
		struct walk step = { .flag = w->flag };

		if (steps >= MAX_WALK_STEPS)
			return unsupported(env, "BTF types nested too deep");
		int r = struct_walk(env, btf, t, off, size, !alloc, &step);

		w->flag = step.flag;
		switch (r) {
		case WALK_PTR:
			if (alloc)
				return SCALAR_VALUE;
			w->next_id = step.next_id;
			w->field = step.field;
			return PTR_TO_BTF_ID;
		case WALK_SCALAR:
			return SCALAR_VALUE;
		case WALK_PTR_UNTRUSTED:
			w->flag = MEM_RDONLY | PTR_UNTRUSTED;
			return PTR_TO_MEM;
		case WALK_STRUCT:
			t = btf__type_by_id(btf, step.next_id);
			off = 0;
			break;
		default:
			return r < 0 ? r : -EINVAL;
		}
	}
	return -EINVAL;
}

/* Is `field` of the register's struct listed in `<struct><suffix>` with
 * a pointer to the same type? */
static bool field_listed(const struct vet_env *env, const struct reg_state *reg,
			 const char *field, uint32_t id, const char *suffix)
{
	const struct btf *btf = reg->btf;
	const struct btf_index *ix = btf == env->targ_btf ? env->targ_index : NULL;
	const struct btf_type *t = btf__type_by_id(btf, reg->btf_id), *st;
	const struct btf_member *m;
	char name[64];
	int n, sid;

	if (!t || !field)
		return false;
	n = snprintf(name, sizeof(name), "%s%s", type_name(btf, t), suffix);
	if (n < 0 || (size_t)n >= sizeof(name))
		return false;
	sid = btf_index_find(ix, btf, name, (uint32_t)btf_kind(t));
	st = sid > 0 ? btf__type_by_id(btf, (uint32_t)sid) : NULL;
	if (!st || !kbtf_is_struct(st))
		return false;
	m = btf_members(st);
	for (uint32_t i = 0; i < btf_vlen(st); i++) {
		const struct btf_type *mt = btf__type_by_id(btf, m[i].type);
		const char *mname;
		uint32_t pid = 0;

		if (!mt || !btf_is_ptr(mt))
			continue;
		kbtf_skip_mods(btf, mt->type, &pid);
		mname = btf__name_by_offset(btf, m[i].name_off);
		if (pid == id && mname && !strcmp(field, mname))
			return true;
	}
	return false;
}

bool in_rcu_cs(const struct vet_env *env)
{
	return env->cur->active_rcu_lock || env->cur->active_locks || !env->cur->in_sleepable;
}

/* Trust of a pointer loaded from a trusted or RCU-protected struct. */
static uint32_t walked_trust(const struct vet_env *env, const struct reg_state *reg,
			     const struct walk *w)
{
	uint32_t flag = w->flag;
	bool rcu_or_null = field_listed(env, reg, w->field, w->next_id, "__safe_rcu_or_null");

	if (field_listed(env, reg, w->field, w->next_id, "__safe_trusted"))
		return flag | PTR_TRUSTED;
	if (field_listed(env, reg, w->field, w->next_id, "__safe_trusted_or_null"))
		return flag | PTR_TRUSTED | PTR_MAYBE_NULL;
	if (!in_rcu_cs(env) || type_may_be_null(reg->type))
		return PTR_UNTRUSTED;
	if (field_listed(env, reg, w->field, w->next_id, "__safe_rcu"))
		return flag | MEM_RCU;
	if ((flag & MEM_RCU) || rcu_or_null) {
		flag |= MEM_RCU | PTR_MAYBE_NULL;
		if (rcu_or_null)
			flag &= ~PTR_UNTRUSTED;
		return flag;
	}
	if (flag & (MEM_PERCPU | MEM_USER))
		return flag;
	/* Linux 6.18: any other field of a trusted struct is untrusted
	 * (observed: trusted task_struct -> mm gives untrusted_ptr_);
	 * 6.12 gave the plain pointer. */
	if (!env_has(env, KVER_WALK_UNTRUSTED))
		return flag & ~(PTR_TRUSTED | MEM_RCU);
	return PTR_UNTRUSTED;
}

/* Trust of a pointer loaded from any BTF pointer. */
static uint32_t walk_trust(const struct vet_env *env, const struct reg_state *reg,
			   const struct walk *w)
{
	/* Before 6.2 there was no trust to follow: the walk's own flags
	 * (__user, __percpu), and untrusted from an untrusted source. */
	if (!env_has(env, KVER_PTR_TRUSTED))
		return (w->flag & ~MEM_RCU) | (reg->type & PTR_UNTRUSTED);
	if (reg_is_trusted(reg) || (reg->type & MEM_RCU))
		return walked_trust(env, reg, w);
	/* Linux 6.18: walking a pointer that is neither trusted nor RCU
	 * gives an untrusted one (observed on plain ptr_ from iterator
	 * contexts and helpers); 6.12 kept it plain. */
	if (!env_has(env, KVER_WALK_UNTRUSTED))
		return (w->flag & ~(PTR_TRUSTED | MEM_RCU)) | (reg->type & PTR_UNTRUSTED);
	return PTR_UNTRUSTED;
}

static int check_btf_ptr_regs(struct vet_env *env, uint32_t regno, const struct reg_state *reg,
			      int off, int size, enum access_type t, const char *tname)
{
	char tn[48];

	if (!env->allow_ptr_leaks) {
		verbose(env, "'struct %s' access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN\n",
			tname);
		return -EPERM;
	}
	if (!env->gpl && reg->btf == env->targ_btf && env_has(env, KVER_BTF_ACCESS_GPL_ONLY)) {
		verbose(env, "Cannot access kernel 'struct %s' from non-GPL compatible program\n",
			tname);
		return -EINVAL;
	}
	if (off < 0) {
		verbose(env, "R%u is ptr_%s invalid negative access: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off) || reg->b.var_off.value) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "R%u is ptr_%s invalid variable offset: off=%d, var_off=%s\n",
			regno, tname, off, tn);
		return -EACCES;
	}
	if (reg->type & MEM_USER) {
		verbose(env, "R%u is ptr_%s access user memory: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (reg->type & MEM_PERCPU) {
		verbose(env, "R%u is ptr_%s access percpu memory: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	/* The program's own objects: written freely, but for special fields. */
	if (reg->type & MEM_ALLOC)
		return alloc_obj_check_access(env, reg, off, size, t);
	/* struct_ops types write kernel structs by their own rules; other
	 * writes are the struct owners' (btf_write.c). */
	if (t != ACCESS_READ && env->prog_type == BPF_PROG_TYPE_STRUCT_OPS) {
		int err = struct_ops_btf_write(env, reg, off, size);

		return err ? err : BTF_WRITE_DONE;
	}
	if (t != ACCESS_READ)
		return check_btf_write(env, reg, off, size);
	return 0;
}

/* The destination of a load that walked to data or to untrusted memory. */
static void mark_walked_reg(struct vet_env *env, int value_regno, int ret, const struct walk *w)
{
	struct reg_state *dst = &cur_regs(env)[value_regno];

	if (ret == SCALAR_VALUE) {
		reg_mark_unknown(env, dst);
		return;
	}
	reg_mark_ptr(dst, PTR_TO_MEM | w->flag);
	dst->mem_size = 0;
}

int check_ptr_to_btf_access(struct vet_env *env, uint32_t regno, int off, int size,
			    enum access_type t, int value_regno)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	struct walk w = { 0 };
	uint32_t flag;
	int ret;

	if (!reg->btf || !btf__type_by_id(reg->btf, reg->btf_id))
		return unsupported(env, "BTF pointer without target BTF");
	ret = check_btf_ptr_regs(env, regno, reg, off, size, t, kbtf_name(reg->btf, reg->btf_id));
	if (ret)
		return ret == BTF_WRITE_DONE ? 0 : ret;
	ret = struct_access(env, reg, off, size, &w);
	if (ret < 0)
		return ret;
	if (value_regno < 0 || t != ACCESS_READ)
		return 0;
	if (ret != PTR_TO_BTF_ID) {
		mark_walked_reg(env, value_regno, ret, &w);
		return 0;
	}
	flag = walk_trust(env, reg, &w);
	/* reg may alias the destination: copy what is needed first. */
	{
		const void *btf = reg->btf;
		struct reg_state *dst = &cur_regs(env)[value_regno];

		reg_mark_ptr(dst, PTR_TO_BTF_ID | flag);
		dst->btf = btf;
		dst->btf_id = w.next_id;
		if (type_may_be_null(flag))
			dst->id = ++env->id_gen;
	}
	return 0;
}

bool btf_struct_ids_match(struct vet_env *env, const void *btf, uint32_t id, int off,
			  uint32_t need_id, bool strict)
{
	if (!off && id == need_id)
		return true;
	if (strict)
		return false;
	/* Look for the wanted struct nested at `off`, one level at a time. */
	for (int steps = 0; steps < MAX_WALK_STEPS; steps++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		struct walk w = { 0 };

		if (!t || struct_walk(env, btf, t, off, 1, true, &w) != WALK_STRUCT)
			return false;
		id = w.next_id;
		if (id == need_id)
			return true;
		off = 0;
	}
	return false;
}

/* The kernel struct behind a map of each type (its map_btf_id). */
static const char *map_struct_name(uint32_t map_type)
{
	switch (map_type) {
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
		return "bpf_htab";
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
		return "bpf_array";
	case BPF_MAP_TYPE_STACK_TRACE: return "bpf_stack_map";
	case BPF_MAP_TYPE_LPM_TRIE: return "lpm_trie";
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
		return "bpf_dtab";
	case BPF_MAP_TYPE_SOCKMAP: return "bpf_stab";
	case BPF_MAP_TYPE_SOCKHASH: return "bpf_shtab";
	case BPF_MAP_TYPE_CPUMAP: return "bpf_cpu_map";
	case BPF_MAP_TYPE_XSKMAP: return "xsk_map";
	case BPF_MAP_TYPE_CGROUP_STORAGE:
	case BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE:
		return "bpf_cgroup_storage_map";
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY: return "reuseport_array";
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return "bpf_queue_stack";
	case BPF_MAP_TYPE_SK_STORAGE:
	case BPF_MAP_TYPE_INODE_STORAGE:
	case BPF_MAP_TYPE_TASK_STORAGE:
	case BPF_MAP_TYPE_CGRP_STORAGE:
		return "bpf_local_storage_map";
	case BPF_MAP_TYPE_STRUCT_OPS: return "bpf_struct_ops_map";
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
		return "bpf_ringbuf_map";
	case BPF_MAP_TYPE_BLOOM_FILTER: return "bpf_bloom_filter";
	case BPF_MAP_TYPE_ARENA: return "bpf_arena";
	default: return NULL;
	}
}

/* Reads of the kernel's map struct through a map pointer: a walk from the
 * map type's struct, as if through a plain BTF pointer to it. */
int check_ptr_to_map_access(struct vet_env *env, uint32_t regno, int off, int size,
			    enum access_type t, int value_regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const char *tname = map_struct_name(reg->map_ptr->type);
	struct reg_state map_reg = { 0 };
	struct walk w = { 0 };
	int id, ret;

	if (!tname) {
		verbose(env, "map_ptr access not supported for map type %u\n", reg->map_ptr->type);
		return -ENOTSUPP_KERNEL;
	}
	id = env->targ_btf ? btf_index_find(env->targ_index, env->targ_btf, tname,
					    BTF_KIND_STRUCT) : -1;
	if (id <= 0)
		return unsupported(env, "struct bpf_map access without target BTF");
	if (!env->allow_ptr_leaks) {
		verbose(env, env_has(env, KVER_MSG_MAP_PTR_STRUCT) ?
			"'struct %s' access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN\n" :
			"%s access is allowed only to CAP_PERFMON and CAP_SYS_ADMIN\n", tname);
		return -EPERM;
	}
	if (off < 0) {
		verbose(env, "R%u is %s invalid negative access: off=%d\n", regno, tname, off);
		return -EACCES;
	}
	if (t != ACCESS_READ) {
		verbose(env, "only read from %s is supported\n", tname);
		return -EACCES;
	}
	map_reg.type = PTR_TO_BTF_ID;
	map_reg.btf = env->targ_btf;
	map_reg.btf_id = (uint32_t)id;
	ret = struct_access(env, &map_reg, off, size, &w);
	if (ret < 0 || value_regno < 0)
		return ret < 0 ? ret : 0;
	if (ret != PTR_TO_BTF_ID) {
		mark_walked_reg(env, value_regno, ret, &w);
		return 0;
	}
	{
		struct reg_state *dst = &cur_regs(env)[value_regno];

		reg_mark_ptr(dst, PTR_TO_BTF_ID | w.flag);
		dst->btf = env->targ_btf;
		dst->btf_id = w.next_id;
		if (type_may_be_null(w.flag))
			dst->id = ++env->id_gen;
	}
	return 0;
}
