/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Graphs of allocated objects: lists (struct bpf_list_head of struct
 * bpf_list_node) and red-black trees (struct bpf_rb_root of struct
 * bpf_rb_node). A root lives in a map value or in an allocated object,
 * whose record (map_fields.c) names, by the root's "contains:" tag, the
 * struct it holds and that struct's node member. The lock of the same
 * value or object guards the root: every graph kfunc needs it held.
 *
 * Ownership moves with the nodes. Pushing or adding a node gives the
 * program's owning reference to the graph: it becomes a non-owning one
 * (NON_OWN_REF, no reference held), which may still be read and written
 * until the lock is released, when every non-owning reference dies.
 * Popping or removing a node gives an owning reference back (maybe
 * NULL, pointing at the node member: R0's off is the node's offset);
 * peeking (first, front, back, root, left, right) gives a non-owning
 * one. bpf_rbtree_add's `less` callback runs under the lock and compares
 * two non-owning nodes; it may not take or release locks, nor change
 * the tree.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"

enum graph_kfunc {
	GRAPH_NONE,
	GRAPH_LIST_PUSH,	/* bpf_list_push_{front,back}_impl */
	GRAPH_LIST_POP,		/* bpf_list_pop_{front,back} */
	GRAPH_LIST_PEEK,	/* bpf_list_{front,back} */
	GRAPH_RB_ADD,		/* bpf_rbtree_add_impl */
	GRAPH_RB_REMOVE,	/* bpf_rbtree_remove */
	GRAPH_RB_PEEK,		/* bpf_rbtree_{first,root} */
	GRAPH_RB_WALK,		/* bpf_rbtree_{left,right} */
};

static int graph_kfunc_of(const char *name)
{
	static const struct {
		const char *name;
		int kind;
	} table[] = {
		{ "bpf_list_push_front_impl", GRAPH_LIST_PUSH },
		{ "bpf_list_push_back_impl", GRAPH_LIST_PUSH },
		{ "bpf_list_pop_front", GRAPH_LIST_POP },
		{ "bpf_list_pop_back", GRAPH_LIST_POP },
		{ "bpf_list_front", GRAPH_LIST_PEEK },
		{ "bpf_list_back", GRAPH_LIST_PEEK },
		{ "bpf_rbtree_add_impl", GRAPH_RB_ADD },
		{ "bpf_rbtree_remove", GRAPH_RB_REMOVE },
		{ "bpf_rbtree_first", GRAPH_RB_PEEK },
		{ "bpf_rbtree_root", GRAPH_RB_PEEK },
		{ "bpf_rbtree_left", GRAPH_RB_WALK },
		{ "bpf_rbtree_right", GRAPH_RB_WALK },
	};

	for (size_t i = 0; name && i < sizeof(table) / sizeof(table[0]); i++)
		if (!strcmp(name, table[i].name))
			return table[i].kind;
	return GRAPH_NONE;
}

bool graph_kfunc_modelled(const char *name)
{
	return graph_kfunc_of(name) != GRAPH_NONE;
}

bool graph_kfunc_inserts(const char *name)
{
	int kind = graph_kfunc_of(name);

	return kind == GRAPH_LIST_PUSH || kind == GRAPH_RB_ADD;
}

/* The special fields of what the register points to: a map value's or
 * an allocated object's. */
static const struct map_record *reg_record(const struct vet_env *env,
					   const struct reg_state *reg)
{
	if (base_type(reg->type) == PTR_TO_MAP_VALUE)
		return map_record_of(env, reg->map_ptr);
	return alloc_obj_record(env, reg);
}

/* The offset of the record's lock, -1 without one. */
static int lock_off(const struct map_record *rec)
{
	const struct map_field *f =
		record_field_of_type(rec, FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK);

	return f ? (int)f->off : -1;
}

/*
 * Is the lock of the register's value or object held? A lock is known by
 * the map (or, for objects, the BTF) and the pointer's id: each lookup of
 * an inner map, each allocation has its own; global data has id 0.
 */
static int check_root_locked(struct vet_env *env, const struct reg_state *reg)
{
	const void *ptr = reg->type == PTR_TO_MAP_VALUE ? (const void *)reg->map_ptr : reg->btf;
	const struct vstate *st = env->cur;

	if (!st->active_locks)
		return -EINVAL;
	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		const struct ref_state *r = &st->refs[i];

		if ((r->kind & (REF_TYPE_LOCK | REF_TYPE_RES_LOCK)) && r->id == reg->id &&
		    r->ptr == ptr)
			return 0;
	}
	verbose(env, "held lock and object are not in the same allocation\n");
	return -EINVAL;
}

/* The list head or tree root argument (field_type FIELD_LIST_HEAD or
 * FIELD_RB_ROOT): a field of that kind at a constant offset of a map
 * value or of an object the program owns, under its lock. */
int graph_root_arg(struct vet_env *env, uint32_t regno, uint32_t field_type,
		   struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const char *what = field_type_name(field_type);
	const struct map_record *rec;
	const struct map_field *f;
	uint32_t off;

	if (reg->type != PTR_TO_MAP_VALUE && reg->type != (PTR_TO_BTF_ID | MEM_ALLOC)) {
		verbose(env, "arg#%u expected pointer to map value or allocated object\n", regno - 1);
		return -EINVAL;
	}
	if (reg->type != PTR_TO_MAP_VALUE && !reg->ref_obj_id) {
		verbose(env, "allocated object must be referenced\n");
		return -EINVAL;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u doesn't have constant offset. %s has to be at the constant offset\n",
			regno, what);
		return -EINVAL;
	}
	rec = reg_record(env, reg);
	off = (uint32_t)reg->off + (uint32_t)reg->b.var_off.value;
	f = record_field_at(rec, off, field_type);
	if (!f) {
		verbose(env, "%s not found at offset=%u\n", what, off);
		return -EINVAL;
	}
	if (check_root_locked(env, reg)) {
		verbose(env, "bpf_spin_lock at off=%d must be held for %s\n", lock_off(rec), what);
		return -EINVAL;
	}
	if (meta->graph_root) {
		verbose(env, "%s: repeating %s arg\n", verifier_bug_prefix(env), what);
		return -EFAULT;
	}
	meta->graph_root = f;
	return 0;
}

static const char *struct_name(const void *btf, uint32_t id)
{
	const struct btf_type *t = btf ? btf__type_by_id(btf, id) : NULL;

	return t ? kbtf_msg_name(btf, t->name_off) : "";
}

/* Who may pass a node: add and push take an object the program owns,
 * remove and the walks a node of the tree, or (6.13 on) an owned one. */
static int check_node_owner(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int kind = graph_kfunc_of(k->name);
	bool owning_ok = env_has(env, KVER_GRAPH_OWNING_REMOVE);

	if (kind == GRAPH_RB_REMOVE || kind == GRAPH_RB_WALK) {
		bool non_owning = reg->type & NON_OWN_REF;

		if (owning_ok && !non_owning && !reg->ref_obj_id) {
			verbose(env, "%s can only take non-owning or refcounted bpf_rb_node pointer\n",
				k->name);
			return -EINVAL;
		}
		if (!owning_ok && (!non_owning || reg->ref_obj_id)) {
			verbose(env, "rbtree_remove node input must be non-owning ref\n");
			return -EINVAL;
		}
		if (in_rbtree_lock_required_cb(env)) {
			verbose(env, "%s not allowed in rbtree cb\n",
				owning_ok ? k->name : "rbtree_remove");
			return -EINVAL;
		}
		return 0;
	}
	if (reg->type != (PTR_TO_BTF_ID | MEM_ALLOC)) {
		verbose(env, "arg#%u expected pointer to allocated object\n", regno - 1);
		return -EINVAL;
	}
	if (!reg->ref_obj_id) {
		verbose(env, "allocated object must be referenced\n");
		return -EINVAL;
	}
	return 0;
}

/* The node argument (FIELD_LIST_NODE or FIELD_RB_NODE): the node member
 * of the struct the root before it holds, at that member's offset. */
int graph_node_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t regno,
		   uint32_t field_type, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const char *what = field_type_name(field_type);
	const struct map_field *root = meta->graph_root;
	uint32_t off;
	int err;

	err = check_node_owner(env, k, regno);
	if (err)
		return err;
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u doesn't have constant offset. %s has to be at the constant offset\n",
			regno, what);
		return -EINVAL;
	}
	off = (uint32_t)reg->off + (uint32_t)reg->b.var_off.value;
	if (!record_field_at(reg_record(env, reg), off, field_type)) {
		verbose(env, "%s not found at offset=%u\n", what, off);
		return -EINVAL;
	}
	if (!root) {
		verbose(env, "%s: no graph root before its node\n", verifier_bug_prefix(env));
		return -EFAULT;
	}
	if (reg->btf != env->prog_btf || reg->btf_id != root->graph_value_id) {
		verbose(env, "operation on %s expects arg#1 %s at offset=%d in struct %s, but arg is at offset=%d in struct %s\n",
			field_type_name(field_type == FIELD_LIST_NODE ? FIELD_LIST_HEAD : FIELD_RB_ROOT),
			what, (int)root->graph_node_off,
			struct_name(env->prog_btf, root->graph_value_id), (int)off,
			struct_name(reg->btf, reg->btf_id));
		return -EINVAL;
	}
	meta->arg_btf = reg->btf;
	meta->arg_btf_id = reg->btf_id;
	if (off != root->graph_node_off) {
		verbose(env, "arg#1 offset=%d, but expected %s at offset=%d in struct %s\n", (int)off,
			what, (int)root->graph_node_off,
			struct_name(env->prog_btf, root->graph_value_id));
		return -EINVAL;
	}
	return 0;
}

/* Gives the graph a non-owning reference: the lock is held, and a node
 * of a refcounted struct stays readable under RCU as well. */
static int set_non_owning(struct vet_env *env, struct reg_state *reg)
{
	const struct map_record *rec = alloc_obj_record(env, reg);

	if (!env->cur->active_locks) {
		verbose(env, "%s: ref_set_non_owning w/o active lock\n", verifier_bug_prefix(env));
		return -EFAULT;
	}
	if (reg->type & NON_OWN_REF) {
		verbose(env, "%s: NON_OWN_REF already set\n", verifier_bug_prefix(env));
		return -EFAULT;
	}
	reg->type |= NON_OWN_REF;
	if (rec && (rec->mask & FIELD_REFCOUNT))
		reg->type |= MEM_RCU;
	return 0;
}

struct convert_ctx {
	struct vet_env *env;
	uint32_t ref_obj_id;
	int err;
};

static void convert_one(struct reg_state *reg, void *arg)
{
	struct convert_ctx *c = arg;

	if (reg->ref_obj_id != c->ref_obj_id || c->err)
		return;
	reg->ref_obj_id = 0;
	c->err = set_non_owning(c->env, reg);
}

/*
 * After a push or an add (R2 was the node): every copy of the owning
 * reference becomes non-owning, then the reference itself goes, without
 * invalidating the copies it no longer names.
 */
int graph_insert_node(struct vet_env *env, const struct kfunc_desc *k)
{
	uint32_t ref_obj_id = cur_regs(env)[BPF_REG_2].ref_obj_id;
	struct convert_ctx c = { env, ref_obj_id, 0 };
	bool held = false;

	if (!ref_obj_id) {
		verbose(env, "%s: ref_obj_id is zero for owning -> non-owning conversion\n",
			verifier_bug_prefix(env));
		c.err = -EFAULT;
	}
	for (uint32_t i = 0; !c.err && i < env->cur->acquired_refs; i++)
		held |= env->cur->refs[i].id == ref_obj_id;
	if (!c.err && !held) {
		verbose(env, "%s: ref state missing for ref_obj_id\n", verifier_bug_prefix(env));
		c.err = -EFAULT;
	}
	if (!c.err)
		for_each_reg(env->cur, convert_one, &c);
	if (c.err) {
		verbose(env, "kfunc %s#%u conversion of owning ref to non-owning failed\n", k->name,
			k->func_id);
		return c.err;
	}
	if (release_reference(env, ref_obj_id)) {
		verbose(env, "kfunc %s#%u reference has not been acquired before\n", k->name,
			k->func_id);
		return -EINVAL;
	}
	return 0;
}

/* R0 of a kfunc returning a node: the struct the root holds, pointing at
 * its node member. */
int graph_set_return(struct vet_env *env, const struct kfunc_meta *meta, struct reg_state *r0)
{
	const struct map_field *root = meta->graph_root;

	if (!root) {
		verbose(env, "%s: graph node returned without its root\n", verifier_bug_prefix(env));
		return -EFAULT;
	}
	reg_mark_ptr(r0, PTR_TO_BTF_ID | MEM_ALLOC);
	r0->btf = env->prog_btf;
	r0->btf_id = root->graph_value_id;
	r0->off = (int32_t)root->graph_node_off;
	return 0;
}

/* R0 of a kfunc that peeks (no reference acquired): non-owning. */
int graph_return_non_owning(struct vet_env *env, const struct kfunc_desc *k,
			    struct reg_state *r0)
{
	int kind = graph_kfunc_of(k->name);

	if (kind != GRAPH_LIST_PEEK && kind != GRAPH_RB_PEEK && kind != GRAPH_RB_WALK)
		return 0;
	return set_non_owning(env, r0);
}

static void invalidate_non_owning(struct reg_state *reg, void *arg)
{
	struct vet_env *env = arg;

	if (!(reg->type & NON_OWN_REF))
		return;
	if (env->allow_ptr_leaks)
		reg_mark_unknown(env, reg);
	else
		reg_mark_not_init(reg);
}

void graph_invalidate_non_owning(struct vet_env *env)
{
	for_each_reg(env->cur, invalidate_non_owning, env);
}

/* Is the current frame bpf_rbtree_add's `less` callback? */
bool in_rbtree_lock_required_cb(const struct vet_env *env)
{
	const struct vstate *st = env->cur;
	const struct func_state *callee;
	struct kfunc_desc k;

	if (!st->curframe)
		return false;
	callee = st->frame[st->curframe];
	if (!callee->in_callback_fn || callee->callsite < 0)
		return false;
	if (env->insns[callee->callsite].src_reg != BPF_PSEUDO_KFUNC_CALL ||
	    kfunc_describe(env, &env->insns[callee->callsite], &k))
		return false;
	return graph_kfunc_of(k.name) == GRAPH_RB_ADD;
}

/*
 * bpf_rbtree_add's `less(a, b)`: both nodes of the struct the root
 * holds, non-owning. The node argument's reference is gone by the time
 * the callback runs, so the root says which struct.
 */
int set_rbtree_add_cb(struct vet_env *env, struct func_state *caller,
		      struct func_state *callee, uint32_t callsite)
{
	const struct reg_state *root_reg = &caller->regs[BPF_REG_1];
	const struct map_field *root;
	struct kfunc_meta meta;
	int err;

	(void)callsite;
	root = record_field_at(reg_record(env, root_reg),
			   (uint32_t)root_reg->off + (uint32_t)root_reg->b.var_off.value,
			   FIELD_RB_ROOT);
	if (!root || !root->graph_value_id)
		return -EFAULT;
	memset(&meta, 0, sizeof(meta));
	meta.graph_root = root;
	for (int r = BPF_REG_1; r <= BPF_REG_2; r++) {
		err = graph_set_return(env, &meta, &callee->regs[r]);
		if (!err)
			err = set_non_owning(env, &callee->regs[r]);
		if (err)
			return err;
	}
	for (int r = BPF_REG_3; r <= BPF_REG_5; r++)
		reg_mark_not_init(&callee->regs[r]);
	callee->in_callback_fn = true;
	callee->callback_ret_range = (struct retval_range){ 0, 1 };
	return 0;
}
