/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Helper arguments that point at a special field of a map value, or at a
 * constant string: bpf_spin_lock/unlock (the lock, and the lock held by
 * the path), bpf_timer_* (the timer), bpf_kptr_xchg (the kptr slot) and
 * read-only format strings, dynamic pointers (dynptr.c) and per-CPU BTF
 * pointers. Locks may also sit in allocated objects (alloc_obj.c);
 * releasing one ends the non-owning references to graph nodes (graph.c).
 */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "rules/rules.h"
#include "verifier.h"

/*
 * The common prefix of lock, timer and workqueue arguments: a constant
 * offset into a BTF-described map value that holds a field of `type`
 * exactly there. `what` names the field in messages ("bpf_spin_lock",
 * "bpf_timer").
 */
int check_map_field_arg(struct vet_env *env, uint32_t regno, uint32_t type, const char *what)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct map_record *rec;
	const struct map_field *f;
	int64_t off = (int64_t)reg->b.var_off.value + reg->off;

	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u doesn't have constant offset. %s has to be at the constant offset\n",
			regno, what);
		return -EINVAL;
	}
	if (reg->type != PTR_TO_MAP_VALUE)
		return alloc_obj_field_arg(env, reg, type, what, off);
	rec = map_record_of(env, reg->map_ptr);
	if (!rec->has_btf) {
		verbose(env, "map '%s' has to have BTF in order to use %s\n",
			reg->map_ptr->name, what);
		return -EINVAL;
	}
	f = map_field_of_type(env, reg->map_ptr, type);
	if (!f) {
		verbose(env, "map '%s' has no valid %s\n", reg->map_ptr->name, what);
		return -EINVAL;
	}
	if (f->off != off) {
		verbose(env, "off %lld doesn't point to 'struct %s' that is at %u\n",
			(long long)off, what, f->off);
		return -EINVAL;
	}
	return 0;
}

/* What a lock belongs to: its map, or for allocated objects the BTF of
 * their type (the id tells the objects apart). */
static const void *lock_object(const struct reg_state *reg)
{
	return reg->type == PTR_TO_MAP_VALUE ? (const void *)reg->map_ptr : reg->btf;
}

/* A lock reference of `kind`; with id 0 and no object, any of them. */
static struct ref_state *find_lock(struct vstate *st, int kind, uint32_t id, const void *ptr)
{
	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		struct ref_state *r = &st->refs[i];

		if (!(r->kind & kind))
			continue;
		if ((!id && !ptr) || (r->id == id && r->ptr == ptr))
			return r;
	}
	return NULL;
}

/* The path takes a lock of `kind` (REF_TYPE_LOCK or a resilient one):
 * several resilient locks may be held, but not one twice, and only one
 * bpf_spin_lock. */
int lock_take(struct vet_env *env, const struct reg_state *reg, int kind)
{
	struct vstate *st = env->cur;
	int err;

	if (kind == REF_TYPE_LOCK && st->active_locks && find_lock(st, REF_TYPE_LOCK, 0, NULL)) {
		verbose(env, "Locking two bpf_spin_locks are not allowed\n");
		return -EINVAL;
	}
	if (kind != REF_TYPE_LOCK && st->active_locks &&
	    find_lock(st, REF_TYPE_RES_LOCK | REF_TYPE_RES_LOCK_IRQ, reg->id, lock_object(reg))) {
		verbose(env, "Acquiring the same lock again, AA deadlock detected\n");
		return -EINVAL;
	}
	err = ref_acquire(env, kind, reg->id, lock_object(reg));
	if (err)
		return err;
	st->active_locks++;
	st->active_lock_id = reg->id;
	st->active_lock_ptr = lock_object(reg);
	return 0;
}

/* Locks are released last-in first-out; the previous one becomes active. */
static void pop_lock(struct vstate *st, uint32_t idx)
{
	uint32_t prev_id = 0;
	const void *prev_ptr = NULL;

	for (uint32_t i = 0; i < idx; i++) {
		if (st->refs[i].kind & REF_TYPE_ANY_LOCK) {
			prev_id = st->refs[i].id;
			prev_ptr = st->refs[i].ptr;
		}
	}
	ref_remove(st, idx);
	st->active_locks--;
	st->active_lock_id = prev_id;
	st->active_lock_ptr = prev_ptr;
}

/* Unlocking a lock of `kind`; `word` names the lock family in messages
 * ("bpf_spin", "bpf_res_spin"). */
int lock_drop(struct vet_env *env, const struct reg_state *reg, int kind, const char *word)
{
	struct vstate *st = env->cur;
	struct ref_state *r;

	if (!st->active_locks) {
		verbose(env, "%s_unlock without taking a lock\n", word);
		return -EINVAL;
	}
	r = find_lock(st, kind, reg->id, lock_object(reg));
	if (!r) {
		verbose(env, "%s_unlock of different lock\n", word);
		return -EINVAL;
	}
	if (reg->id != st->active_lock_id || lock_object(reg) != st->active_lock_ptr) {
		verbose(env, "%s_unlock cannot be out of order\n", word);
		return -EINVAL;
	}
	pop_lock(st, (uint32_t)(r - st->refs));
	graph_invalidate_non_owning(env);
	return 0;
}

/* bpf_spin_lock / bpf_spin_unlock: the path holds at most one lock. */
static int process_spin_lock(struct vet_env *env, uint32_t regno, int func_id)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int err;

	if (in_rbtree_lock_required_cb(env)) {
		verbose(env, "can't spin_{lock,unlock} in rbtree cb\n");
		return -EACCES;
	}
	err = check_map_field_arg(env, regno, FIELD_SPIN_LOCK, "bpf_spin_lock");
	if (err)
		return err;
	if (func_id == FN_spin_lock)
		return lock_take(env, reg, REF_TYPE_LOCK);
	if (func_id == FN_spin_unlock)
		return lock_drop(env, reg, REF_TYPE_LOCK, "bpf_spin");
	verbose(env, "verifier internal error\n");
	return -EFAULT;
}

/* bpf_timer_*: the timer decides the map (and its inner-map identity). */
static int process_timer(struct vet_env *env, uint32_t regno, struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	int err = check_map_field_arg(env, regno, FIELD_TIMER, "bpf_timer");

	if (err)
		return err;
	if (meta->map_ptr) {
		verbose(env, "verifier bug. Two map pointers in a timer helper\n");
		return -EFAULT;
	}
	meta->map_ptr = reg->map_ptr;
	meta->map_uid = reg->map_uid;
	return 0;
}

/* bpf_kptr_xchg's destination: a referenced kptr slot of a map value or
 * of an allocated object. */
static int process_kptr_dest(struct vet_env *env, uint32_t regno, struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct map_record *rec;
	const struct map_field *f;
	uint32_t off;

	if (reg_is_alloc_obj(reg)) {
		rec = alloc_obj_record(env, reg);
	} else {
		rec = map_record_of(env, reg->map_ptr);
		if (!rec->has_btf) {
			verbose(env, "map '%s' has to have BTF in order to use bpf_kptr_xchg\n",
				reg->map_ptr->name);
			return -EINVAL;
		}
		meta->map_ptr = reg->map_ptr;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u doesn't have constant offset. kptr has to be at the constant offset\n",
			regno);
		return -EINVAL;
	}
	if (!rec || !(rec->mask & FIELD_KPTR)) {
		verbose(env, "R%u has no valid kptr\n", regno);
		return -EINVAL;
	}
	off = (uint32_t)reg->off + (uint32_t)reg->b.var_off.value;
	f = record_field_at(rec, off, FIELD_KPTR);
	if (!f) {
		verbose(env, "off=%d doesn't point to kptr\n", (int)off);
		return -EACCES;
	}
	if (f->type != FIELD_KPTR_REF && f->type != FIELD_KPTR_PERCPU) {
		verbose(env, "off=%d kptr isn't referenced kptr\n", (int)off);
		return -EACCES;
	}
	meta->kptr_field = f;
	return 0;
}

/*
 * A string the helper reads at load time: it must sit at a constant
 * offset in a frozen read-only map, and end with a NUL within the value.
 */
int check_const_str(struct vet_env *env, uint32_t regno)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	const struct bpfvet_map *map = reg->map_ptr;
	const char *data = map->init_data;
	uint64_t map_off;
	int err;

	if (reg->type != PTR_TO_MAP_VALUE)
		return -EINVAL;
	if (!map_is_frozen_rdonly(map)) {
		verbose(env, "R%u does not point to a readonly map'\n", regno);
		return -EACCES;
	}
	if (!tnum_is_const(reg->b.var_off)) {
		verbose(env, "R%u is not a constant address'\n", regno);
		return -EACCES;
	}
	err = check_map_value_access(env, regno, reg->off, (int)(map->value_size - (uint32_t)reg->off),
				     false, false);
	if (err)
		return err;
	map_off = (uint64_t)(int64_t)reg->off + reg->b.var_off.value;
	if (map->max_entries != 1 || map_off >= map->value_size) {
		verbose(env, "direct value access on string failed\n");
		return map->max_entries != 1 ? -EOPNOTSUPP : -EINVAL;
	}
	/* Bytes past the initial data are zero, so a NUL is found there. */
	if (!data || map_off >= map->init_size ||
	    memchr(data + map_off, 0, map->init_size - map_off))
		return 0;
	if (map->init_size < map->value_size)
		return 0;
	verbose(env, "string is not zero-terminated\n");
	return -EINVAL;
}

/* A byte of a global-data map as the kernel sees it after libbpf filled it. */
static unsigned char map_byte(const struct bpfvet_map *map, uint64_t off)
{
	if (!map->init_data || off >= map->init_size)
		return 0;
	return ((const unsigned char *)map->init_data)[off];
}

/*
 * The part of the kernel's printf format parser that validates: plain
 * text is printable, and each conversion (with flags and width) is one the
 * helpers implement and has an argument. Returns 0 or -EINVAL.
 */
static int check_format(const struct bpfvet_map *map, uint64_t start, uint32_t num_args)
{
	uint64_t len = 0, i;
	uint32_t num_spec = 0;

#define F(k) map_byte(map, start + (k))
	while (start + len < map->value_size && F(len))
		len++;
	for (i = 0; i < len; i++) {
		unsigned char c = F(i), n;

		if (isascii(c) && !isprint(c) && !isspace(c))
			return -EINVAL;
		if (c != '%')
			continue;
		if (F(i + 1) == '%') {
			i++;
			continue;
		}
		if (num_spec >= num_args)
			return -EINVAL;
		i++;
		if (!isascii(F(i)))
			return -EINVAL;
		while (F(i) == '0' || F(i) == '+' || F(i) == '-' || F(i) == ' ')
			i++;
		if (F(i) >= '1' && F(i) <= '9') {
			i++;
			while (F(i) >= '0' && F(i) <= '9')
				i++;
		}
		c = F(i);
		n = F(i + 1);
		num_spec++;
		if (c == 'p') {
			if (!n || isspace(n) || ispunct(n))
				continue;
			if ((n == 'k' || n == 'u') && F(i + 2) == 's') {
				i += 2;
				n = F(i + 1);
				if (n && !isspace(n) && !ispunct(n))
					return -EINVAL;
				continue;
			}
			if (n == 'K' || n == 'x' || n == 's' || n == 'S' || n == 'B') {
				i++;
				continue;
			}
			if ((n != 'i' && n != 'I') || (F(i + 2) != '4' && F(i + 2) != '6'))
				return -EINVAL;
			i += 2;
			continue;
		}
		if (c == 's') {
			if (n && !isspace(n) && !ispunct(n))
				return -EINVAL;
			continue;
		}
		if (c == 'c')
			continue;
		if (c == 'l')
			c = F(++i);
		if (c == 'l')
			c = F(++i);
		if (c != 'i' && c != 'd' && c != 'u' && c != 'x' && c != 'X')
			return -EINVAL;
	}
#undef F
	return 0;
}

/*
 * bpf_snprintf: its arguments are an array of u64 (R5 bytes) and its
 * format string (R3, already a checked constant string) must use them.
 */
int check_snprintf_call(struct vet_env *env)
{
	const struct reg_state *fmt = &cur_regs(env)[BPF_REG_3];
	const struct reg_state *len = &cur_regs(env)[BPF_REG_5];
	uint64_t off = (uint64_t)(int64_t)fmt->off + fmt->b.var_off.value;
	int err;

	if (len->b.var_off.value % 8)
		return -EINVAL;
	err = check_format(fmt->map_ptr, off, (uint32_t)(len->b.var_off.value / 8));
	if (err)
		verbose(env, "Invalid format string\n");
	return err;
}

/*
 * A dynptr argument (dynptr.c). Before dynptrs carried ids (6.3) only
 * what the kernel refuses of the constant dynptr a callback receives is
 * decided here: a helper may neither initialise it again nor change it.
 */
static int check_dynptr_arg(struct vet_env *env, uint32_t regno, uint32_t arg_type,
			    struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (dynptr_modelled(env))
		return process_dynptr_arg(env, regno, arg_type, 0, &meta->dynptr);
	if (reg->type != CONST_PTR_TO_DYNPTR || !env_has(env, KVER_CONST_DYNPTR_ARGS))
		return unsupported(env, "dynptr argument");
	if (arg_type & MEM_UNINIT) {
		verbose(env, "Dynptr has to be an uninitialized dynptr\n");
		return -EINVAL;
	}
	if (!(arg_type & MEM_RDONLY)) {
		verbose(env, "cannot pass pointer to const bpf_dynptr, the helper mutates it\n");
		return -EINVAL;
	}
	return unsupported(env, "dynptr argument");
}

/* bpf_per_cpu_ptr, bpf_this_cpu_ptr: the result points to the type of
 * the per-CPU variable passed (a typed ksym). */
static int check_percpu_btf_arg(struct vet_env *env, uint32_t regno, struct call_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];

	if (!reg->btf_id) {
		verbose(env, "Helper has invalid btf_id in R%u\n", regno);
		return -EACCES;
	}
	meta->ret_btf = reg->btf;
	meta->ret_btf_id = reg->btf_id;
	meta->ret_percpu_obj = reg->type & MEM_RCU;
	return 0;
}

int check_special_arg(struct vet_env *env, uint32_t regno, uint32_t arg_type,
		      struct call_meta *meta)
{
	switch (base_type(arg_type)) {
	case ARG_PTR_TO_SPIN_LOCK:
		return process_spin_lock(env, regno, meta->func_id);
	case ARG_PTR_TO_TIMER:
		return process_timer(env, regno, meta);
	case ARG_KPTR_XCHG_DEST:
		return process_kptr_dest(env, regno, meta);
	case ARG_PTR_TO_CONST_STR:
		return check_const_str(env, regno);
	case ARG_PTR_TO_DYNPTR:
		return check_dynptr_arg(env, regno, arg_type, meta);
	case ARG_PTR_TO_PERCPU_BTF_ID:
		return check_percpu_btf_arg(env, regno, meta);
	default:
		verbose(env, "verifier internal error: unexpected arg type %u\n", arg_type);
		return -EFAULT;
	}
}
