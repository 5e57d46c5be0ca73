/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Allocated objects: structs of the program's own BTF that the program
 * allocates with bpf_obj_new (bpf_percpu_obj_new for per-CPU ones) and
 * frees with bpf_obj_drop. Such a pointer is PTR_TO_BTF_ID | MEM_ALLOC
 * (| MEM_PERCPU), its btf the program's BTF and its btf_id the local
 * type; while the program owns it, it holds a reference (ref_obj_id).
 * A non-owning reference (NON_OWN_REF, the graph kfuncs' business) may
 * still be read and written but not freed. bpf_refcount_acquire takes
 * either kind to a struct with a bpf_refcount and returns a new owning
 * one.
 *
 * The object's ordinary fields may be read and written; its special
 * fields (locks, graph nodes and roots, the refcount, kptrs), as the
 * kernel records them for the struct (struct_meta_record), only through
 * their kfuncs and helpers: bpf_spin_lock on its lock (special_args.c),
 * bpf_kptr_xchg on its kptrs (kptr.c holds the kptrs that hold objects).
 *
 * The kernel passes each of these calls its type's size and record,
 * patched into the call once; since 6.18 a call instruction reached with
 * two types is refused (check_one_type).
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

/* The kernel's per-CPU allocator serves objects up to this size. */
#define PERCPU_OBJ_MAX_SIZE 512
/* The nesting the kernel walks when it looks for a struct of scalars. */
#define SCALAR_STRUCT_MAX_DEPTH 3

enum alloc_kfunc {
	ALLOC_NONE,
	ALLOC_OBJ_NEW,
	ALLOC_OBJ_DROP,
	ALLOC_PERCPU_NEW,
	ALLOC_PERCPU_DROP,
	ALLOC_REFCOUNT_ACQUIRE,
};

const char *verifier_bug_prefix(const struct vet_env *env)
{
	return env_has(env, KVER_MSG_VERIFIER_BUG) ? "verifier bug" : "verifier internal error";
}

static int alloc_kfunc_of(const char *name)
{
	static const struct {
		const char *name;
		int kind;
	} table[] = {
		{ "bpf_obj_new_impl", ALLOC_OBJ_NEW },
		{ "bpf_obj_drop_impl", ALLOC_OBJ_DROP },
		{ "bpf_percpu_obj_new_impl", ALLOC_PERCPU_NEW },
		{ "bpf_percpu_obj_drop_impl", ALLOC_PERCPU_DROP },
		{ "bpf_refcount_acquire_impl", ALLOC_REFCOUNT_ACQUIRE },
	};

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(name, table[i].name))
			return table[i].kind;
	return ALLOC_NONE;
}

bool alloc_kfunc_modelled(const char *name)
{
	return alloc_kfunc_of(name) != ALLOC_NONE;
}

bool alloc_kfunc_returns_obj(const char *name)
{
	int kind = alloc_kfunc_of(name);

	return kind == ALLOC_OBJ_NEW || kind == ALLOC_PERCPU_NEW ||
	       kind == ALLOC_REFCOUNT_ACQUIRE;
}

bool reg_is_alloc_obj(const struct reg_state *reg)
{
	return base_type(reg->type) == PTR_TO_BTF_ID && (reg->type & MEM_ALLOC);
}

const struct map_record *alloc_obj_record(const struct vet_env *env, const struct reg_state *reg)
{
	return reg_is_alloc_obj(reg) ? struct_meta_record(env, reg->btf, reg->btf_id) : NULL;
}

static bool is_scalar_type(const struct btf_type *t)
{
	return t && (btf_is_int(t) || btf_kind(t) == BTF_KIND_ENUM);
}

/* Per-CPU objects hold ints, enums and fixed arrays of them, also in
 * nested structs; nothing the kernel would have to find or free. */
static bool is_scalar_struct(struct vet_env *env, const struct btf *btf,
			     const struct btf_type *t, int depth)
{
	const struct btf_member *m = btf_members(t);

	if (!btf_is_struct(t) && !btf_is_union(t))
		return false;
	for (uint16_t i = 0; i < btf_vlen(t); i++) {
		const struct btf_type *mt = kbtf_skip_mods(btf, m[i].type, NULL);

		if (mt && (btf_is_struct(mt) || btf_is_union(mt))) {
			if (depth >= SCALAR_STRUCT_MAX_DEPTH) {
				verbose(env, "max struct nesting depth exceeded\n");
				return false;
			}
			if (!is_scalar_struct(env, btf, mt, depth + 1))
				return false;
			continue;
		}
		if (mt && btf_is_array(mt)) {
			if (!btf_array(mt)->nelems)
				return false;
			mt = kbtf_skip_mods(btf, btf_array(mt)->type, NULL);
		}
		if (!is_scalar_type(mt))
			return false;
	}
	return true;
}

/* The local type bpf_obj_new and bpf_percpu_obj_new are given. */
static int check_new_type(struct vet_env *env, int kind, const struct kfunc_meta *meta,
			  const struct btf_type **out)
{
	const struct btf *btf = env->prog_btf;
	const struct btf_type *t;

	if (meta->const_value > UINT32_MAX) {
		verbose(env, "local type ID argument must be in range [0, U32_MAX]\n");
		return -EINVAL;
	}
	if (!btf) {
		verbose(env, "bpf_obj_new/bpf_percpu_obj_new requires prog BTF\n");
		return -EINVAL;
	}
	t = btf__type_by_id(btf, (uint32_t)meta->const_value);
	if (!t || !btf_is_struct(t)) {
		verbose(env, "bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct\n");
		return -EINVAL;
	}
	if (kind == ALLOC_PERCPU_NEW) {
		if (t->size > PERCPU_OBJ_MAX_SIZE) {
			verbose(env, "bpf_percpu_obj_new type size (%u) is greater than %d\n",
				t->size, PERCPU_OBJ_MAX_SIZE);
			return -EINVAL;
		}
		if (!is_scalar_struct(env, btf, t, 0)) {
			verbose(env, "bpf_percpu_obj_new type ID argument must be of a struct of scalars\n");
			return -EINVAL;
		}
		if (struct_meta_record(env, btf, (uint32_t)meta->const_value)) {
			verbose(env, "bpf_percpu_obj_new type ID argument must not contain special fields\n");
			return -EINVAL;
		}
	}
	*out = t;
	return 0;
}

/* One call instruction, one type: its size (bpf_obj_new) and its record
 * of special fields, which the kernel passes to the kfunc. */
static int check_one_type(struct vet_env *env, uint32_t size, const struct map_record *rec)
{
	struct insn_aux *aux = &env->aux[env->insn_idx];

	if (!env_has(env, KVER_ALLOC_CALL_ONE_TYPE))
		return 0;
	if (aux->alloc_seen && (aux->alloc_size != size || aux->alloc_meta != rec)) {
		verbose(env, "same call cannot be used with different types\n"
			"use one call for each type: inline the static function that holds the call,\n"
			"or mark the callee with __attribute__((nomerge))\n");
		return -EINVAL;
	}
	aux->alloc_seen = true;
	aux->alloc_size = size;
	aux->alloc_meta = rec;
	return 0;
}

int alloc_obj_drop_done(struct vet_env *env, const struct kfunc_meta *meta)
{
	return check_one_type(env, 0, struct_meta_record(env, meta->arg_btf, meta->arg_btf_id));
}

int alloc_obj_set_return(struct vet_env *env, const struct kfunc_desc *k,
			 const struct kfunc_meta *meta, struct reg_state *r0, bool *ret_null)
{
	int kind = alloc_kfunc_of(k->name);
	const struct btf_type *t;
	int err;

	if (kind == ALLOC_REFCOUNT_ACQUIRE) {
		err = check_one_type(env, 0, struct_meta_record(env, meta->arg_btf,
								meta->arg_btf_id));
		if (err)
			return err;
		reg_mark_ptr(r0, PTR_TO_BTF_ID | MEM_ALLOC);
		r0->btf = meta->arg_btf;
		r0->btf_id = meta->arg_btf_id;
		/* An owning reference keeps the object alive: the new one
		 * cannot be NULL. */
		*ret_null = !meta->arg_owning_ref;
		return 0;
	}
	err = check_new_type(env, kind, meta, &t);
	if (!err)
		err = check_one_type(env, t->size,
				     struct_meta_record(env, env->prog_btf,
							(uint32_t)meta->const_value));
	if (err)
		return err;
	reg_mark_ptr(r0, PTR_TO_BTF_ID | MEM_ALLOC | (kind == ALLOC_PERCPU_NEW ? MEM_PERCPU : 0));
	r0->btf = env->prog_btf;
	r0->btf_id = (uint32_t)meta->const_value;
	*ret_null = true;
	return 0;
}

/* The `__alloc` argument of bpf_obj_drop and bpf_percpu_obj_drop: an
 * owned object of the kind each frees. */
int alloc_obj_drop_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
		       struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int kind = alloc_kfunc_of(k->name);

	if (reg->type == (PTR_TO_BTF_ID | MEM_ALLOC)) {
		if (kind != ALLOC_OBJ_DROP) {
			verbose(env, "arg#%u expected for bpf_obj_drop_impl()\n", regno - 1);
			return -EINVAL;
		}
	} else if (reg->type == (PTR_TO_BTF_ID | MEM_ALLOC | MEM_PERCPU)) {
		if (kind != ALLOC_PERCPU_DROP) {
			verbose(env, "arg#%u expected for bpf_percpu_obj_drop_impl()\n", regno - 1);
			return -EINVAL;
		}
	} else {
		verbose(env, "arg#%u expected pointer to allocated object\n", regno - 1);
		return -EINVAL;
	}
	if (!reg->ref_obj_id) {
		verbose(env, "allocated object must be referenced\n");
		return -EINVAL;
	}
	meta->arg_btf = reg->btf;
	meta->arg_btf_id = reg->btf_id;
	return 0;
}

/* The `__refcounted_kptr` argument of bpf_refcount_acquire: an owning or
 * non-owning reference to a struct with a bpf_refcount. */
int alloc_obj_refcounted_arg(struct vet_env *env, uint32_t regno, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct map_record *rec;

	if (!reg_is_alloc_obj(reg)) {
		verbose(env, "arg#%u is neither owning or non-owning ref\n", regno - 1);
		return -EINVAL;
	}
	if (!(reg->type & NON_OWN_REF) && reg->ref_obj_id)
		meta->arg_owning_ref = true;
	rec = alloc_obj_record(env, reg);
	if (!rec) {
		verbose(env, "%s: Couldn't find btf_record\n", verifier_bug_prefix(env));
		return -EFAULT;
	}
	if (!(rec->mask & FIELD_REFCOUNT)) {
		verbose(env, "arg#%u doesn't point to a type with bpf_refcount field\n", regno - 1);
		return -EINVAL;
	}
	meta->arg_btf = reg->btf;
	meta->arg_btf_id = reg->btf_id;
	return 0;
}

/*
 * A load or store through an allocated object, before the struct walk:
 * stores need the object itself (not an untrusted copy), an owning
 * reference must really be owned, and the special fields are off limits.
 */
int alloc_obj_check_access(struct vet_env *env, const struct reg_state *reg, int off, int size,
			   enum access_type t)
{
	const struct map_record *rec;

	if (t != ACCESS_READ && (reg->type & PTR_UNTRUSTED)) {
		verbose(env, "only read is supported\n");
		return -EACCES;
	}
	/* An object is owned, or the RCU section keeps it (or, in 6.18, it
	 * is an untrusted one the section left behind). */
	if (!(reg->type & (NON_OWN_REF | MEM_RCU)) && !reg->ref_obj_id &&
	    !((reg->type & PTR_UNTRUSTED) && env_has(env, KVER_UNTRUSTED_OBJ_READ))) {
		verbose(env, "%s: ref_obj_id for allocated object must be non-zero\n",
			verifier_bug_prefix(env));
		return -EFAULT;
	}
	rec = struct_meta_record(env, reg->btf, reg->btf_id);
	for (uint32_t i = 0; rec && i < rec->cnt; i++) {
		const struct map_field *f = &rec->fields[i];

		if ((int64_t)off < (int64_t)f->off + f->size && (int64_t)off + size > f->off) {
			verbose(env, "direct access to %s is disallowed\n", field_type_name(f->type));
			return -EACCES;
		}
	}
	return 0;
}

/* A lock argument inside an allocated object: its struct must have the
 * field, and the pointer must point at it. */
int alloc_obj_field_arg(struct vet_env *env, const struct reg_state *reg, uint32_t type,
			const char *what, int64_t off)
{
	const struct map_field *f = record_field_of_type(alloc_obj_record(env, reg), type);

	if (!f) {
		verbose(env, "local 'kptr' has no valid %s\n", what);
		return -EINVAL;
	}
	if (f->off != off) {
		verbose(env, "off %lld doesn't point to 'struct %s' that is at %u\n",
			(long long)off, what, f->off);
		return -EINVAL;
	}
	return 0;
}
