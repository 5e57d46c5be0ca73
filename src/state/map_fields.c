/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Special fields of map values, read from the object's BTF as Linux 6.18
 * reads them when the map is created (btf_parse_fields and map_check_btf).
 *
 * The walk goes through struct members, DATASEC variables (global data),
 * arrays (flattened: their fields repeat once per element) and nested
 * structs. A field is recognised by its type's name (struct bpf_spin_lock,
 * bpf_timer, ...) or, for pointers, by a BTF type tag (__kptr, ...). Like
 * the kernel, the walk does not look through typedefs or qualifiers, and
 * ignores a field at an offset misaligned for its kind.
 *
 * A malformed layout (two locks, an unknown pointer tag, too many fields)
 * leaves the map with BTF but without fields, as the kernel does. Fields
 * the map type cannot hold make the kernel refuse the map; libbpf then
 * creates it again without BTF, and so does this model.
 *
 * Records are computed once per verification, for every map, before the
 * walk (records_init), so that lookups need no mutable state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/loader.h"
#include "state.h"

#define MAX_DEPTH 32	/* the kernel's MAX_RESOLVE_DEPTH */

/* Kinds a map value may hold (the mask map_check_btf passes). */
#define MAP_VALUE_FIELDS (FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK | FIELD_TIMER | \
			  FIELD_KPTR | FIELD_UPTR | FIELD_LIST_HEAD | FIELD_RB_ROOT | \
			  FIELD_REFCOUNT | FIELD_WORKQUEUE | FIELD_TASK_WORK)

struct field_kind {
	uint32_t type;
	const char *name;	/* struct name, or the kernel's printed name */
	uint32_t size;
	uint32_t align;
	bool unique;		/* at most one per value */
};

/* Struct-typed kinds, in the order the kernel tries their names. */
static const struct field_kind struct_kinds[] = {
	{ FIELD_SPIN_LOCK, "bpf_spin_lock", 4, 4, true },
	{ FIELD_RES_SPIN_LOCK, "bpf_res_spin_lock", 4, 4, true },
	{ FIELD_TIMER, "bpf_timer", 16, 8, true },
	{ FIELD_WORKQUEUE, "bpf_wq", 16, 8, true },
	{ FIELD_TASK_WORK, "bpf_task_work", 8, 8, true },
	{ FIELD_LIST_HEAD, "bpf_list_head", 16, 8, false },
	{ FIELD_LIST_NODE, "bpf_list_node", 24, 8, false },
	{ FIELD_RB_ROOT, "bpf_rb_root", 16, 8, false },
	{ FIELD_RB_NODE, "bpf_rb_node", 32, 8, false },
	{ FIELD_REFCOUNT, "bpf_refcount", 4, 4, true },
};

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

const char *field_type_name(uint32_t type)
{
	switch (type) {
	case FIELD_KPTR_UNREF:
	case FIELD_KPTR_REF:
		return "kptr";
	case FIELD_KPTR_PERCPU:
		return "percpu_kptr";
	case FIELD_UPTR:
		return "uptr";
	default:
		for (size_t i = 0; i < ARRAY_LEN(struct_kinds); i++)
			if (struct_kinds[i].type == type)
				return struct_kinds[i].name;
		return "unknown";
	}
}

static const struct field_kind *kind_of(uint32_t type)
{
	static const struct field_kind ptr_kind = { 0, NULL, 8, 8, false };

	for (size_t i = 0; i < ARRAY_LEN(struct_kinds); i++)
		if (struct_kinds[i].type == type)
			return &struct_kinds[i];
	return &ptr_kind;
}

/* One walk over a value type. `out` receives fields in discovery order. */
struct finder {
	const struct btf *btf;
	uint32_t mask;
	uint32_t seen;		/* unique kinds met so far */
	bool old_kptr_tags;	/* the target predates KVER_KPTR_TAG_NAMES */
};

/* Where a member or variable sits: for decl tags on graph roots. */
struct site {
	uint32_t parent_id;	/* struct type, or VAR for global data */
	int comp_idx;		/* member index, -1 for a variable */
	uint32_t off;
	uint32_t expected_size;	/* DATASEC size of the variable, or 0 */
};

static bool is_composite(const struct btf_type *t)
{
	return t && (btf_is_struct(t) || btf_is_union(t));
}

static const char *type_name(const struct btf *btf, const struct btf_type *t)
{
	const char *n = btf__name_by_offset(btf, t->name_off);

	return n ? n : "";
}

/*
 * The kind a type's name announces, 0 for none, or -E2BIG for a second
 * unique field. Pointers (anything not a struct) are kptr candidates.
 */
static int kind_by_name(struct finder *f, const struct btf_type *t)
{
	const char *name = type_name(f->btf, t);

	for (size_t i = 0; i < ARRAY_LEN(struct_kinds); i++) {
		const struct field_kind *k = &struct_kinds[i];

		if (!(f->mask & k->type) || strcmp(name, k->name))
			continue;
		if (k->unique) {
			if (f->seen & k->type)
				return -E2BIG;
			f->seen |= k->type;
		}
		return (int)k->type;
	}
	if ((f->mask & (FIELD_KPTR | FIELD_UPTR)) && !is_composite(t))
		return FIELD_KPTR_REF;
	return 0;
}

/* The field kind a kptr type tag names, 0 for an unknown tag. */
static uint32_t kptr_tag_type(const struct finder *f, const char *name)
{
	if (f->old_kptr_tags)
		return !strcmp(name, "kptr") ? FIELD_KPTR_UNREF :
		       !strcmp(name, "kptr_ref") ? FIELD_KPTR_REF : 0;
	if (!strcmp(name, "kptr_untrusted"))
		return FIELD_KPTR_UNREF;
	if (!strcmp(name, "kptr"))
		return FIELD_KPTR_REF;
	if (!strcmp(name, "percpu_kptr"))
		return FIELD_KPTR_PERCPU;
	if (!strcmp(name, "uptr") && (f->mask & FIELD_UPTR))
		return FIELD_UPTR;
	return 0;
}

/* A pointer with one recognised type tag to a struct, or not a field. */
static int find_kptr(const struct finder *f, const struct btf_type *t, uint32_t off,
		     struct map_field *out)
{
	const struct btf_type *tag;
	uint32_t type, id;

	if (btf_is_volatile(t))
		t = btf__type_by_id(f->btf, t->type);
	if (!t || !btf_is_ptr(t))
		return 0;
	tag = btf__type_by_id(f->btf, t->type);
	if (!tag || !btf_is_type_tag(tag))
		return 0;
	t = btf__type_by_id(f->btf, tag->type);
	if (t && btf_is_type_tag(t))
		return -EINVAL;
	type = kptr_tag_type(f, type_name(f->btf, tag));
	if (!type)
		return -EINVAL;
	if (!(f->mask & type))
		return 0;
	t = btf_skip_mods(f->btf, tag->type, &id);
	if (!is_composite(t))
		return -EINVAL;
	out->type = type;
	out->off = off;
	out->kptr_type_id = id;
	return 1;
}

/* The value of the one "contains:" decl tag on a member or variable. */
static const char *contains_tag(const struct btf *btf, const struct site *s)
{
	const char *found = NULL;
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t id = 1; id < n; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_decl_tag(t) || t->type != s->parent_id ||
		    btf_decl_tag(t)->component_idx != s->comp_idx)
			continue;
		name = type_name(btf, t);
		if (strncmp(name, "contains:", 9))
			continue;
		if (found)
			return NULL;
		found = name + 9;
	}
	return found;
}

/*
 * A list head or rbtree root names the struct it holds and that struct's
 * node member ("contains:foo:node"); the node must have the right type
 * and alignment. `out` gets the struct and the node's offset.
 */
static int check_graph_root(const struct btf *btf, const struct site *s, uint32_t type,
			    struct map_field *out)
{
	const char *node_type = type == FIELD_LIST_HEAD ? "bpf_list_node" : "bpf_rb_node";
	const char *tag = contains_tag(btf, s), *colon;
	const struct btf_type *vt, *node = NULL;
	const struct btf_member *m;
	char value_type[256];
	int id;

	if (!tag)
		return -EINVAL;
	colon = strchr(tag, ':');
	if (!colon || !colon[1] || (size_t)(colon - tag) >= sizeof(value_type))
		return -EINVAL;
	memcpy(value_type, tag, (size_t)(colon - tag));
	value_type[colon - tag] = '\0';
	id = btf__find_by_name_kind(btf, value_type, BTF_KIND_STRUCT);
	if (id < 0)
		return id;
	vt = btf__type_by_id(btf, (uint32_t)id);
	m = btf_members(vt);
	for (uint16_t i = 0; i < btf_vlen(vt); i++, m++) {
		uint32_t bits = btf_member_bit_offset(vt, i);

		if (strcmp(colon + 1, btf__name_by_offset(btf, m->name_off)))
			continue;
		if (node)
			return -EINVAL;
		node = btf__type_by_id(btf, m->type);
		if (!is_composite(node) || strcmp(type_name(btf, node), node_type))
			return -EINVAL;
		if (bits % 8 || (bits / 8) % 8)
			return -EINVAL;
		out->graph_node_off = bits / 8;
	}
	out->graph_value_id = (uint32_t)id;
	return node ? 0 : -ENOENT;
}

/* Copies the first `cnt` fields `repeats` more times, elem_size apart. */
static int repeat_fields(struct map_field *info, int cap, int cnt, uint32_t repeats,
			 uint32_t elem_size)
{
	uint64_t total = (uint64_t)cnt * ((uint64_t)repeats + 1);

	for (int i = 0; i < cnt; i++)
		if (!(info[i].type & (FIELD_KPTR | FIELD_GRAPH_ROOT)))
			return -EINVAL;
	if (total > (uint64_t)cap)
		return -E2BIG;
	for (uint32_t r = 1; r <= repeats; r++)
		for (int i = 0; i < cnt; i++) {
			info[r * cnt + i] = info[i];
			info[r * cnt + i].off += r * elem_size;
		}
	return 0;
}

static int find_in_struct(struct finder *f, uint32_t struct_id, struct map_field *info,
			  int cap, uint32_t level);

static int find_nested(struct finder *f, uint32_t struct_id, const struct btf_type *t,
		       uint32_t off, uint32_t nelems, struct map_field *info, int cap,
		       uint32_t level)
{
	int cnt, err;

	if (level + 1 >= MAX_DEPTH)
		return -E2BIG;
	cnt = find_in_struct(f, struct_id, info, cap, level + 1);
	if (cnt <= 0)
		return cnt;
	for (int i = 0; i < cnt; i++)
		info[i].off += off;
	if (nelems > 1) {
		err = repeat_fields(info, cap, cnt, nelems - 1, t->size);
		if (err)
			return err;
		cnt *= (int)nelems;
	}
	return cnt;
}

/* Fields of one member or variable of type `type_id` at s->off. */
static int find_one(struct finder *f, uint32_t type_id, const struct site *s,
		    struct map_field *info, int cap, uint32_t level)
{
	const struct btf_type *t = btf__type_by_id(f->btf, type_id);
	const struct field_kind *k;
	struct map_field tmp = { 0 };
	uint32_t nelems = 1, sz;
	int kind, found, i;

	for (i = 0; i < MAX_DEPTH && t && btf_is_array(t); i++) {
		nelems *= btf_array(t)->nelems;
		type_id = btf_array(t)->type;
		t = btf__type_by_id(f->btf, type_id);
	}
	if (i == MAX_DEPTH)
		return -E2BIG;
	if (!t)
		return -EINVAL;
	if (nelems == 0)
		return 0;
	kind = kind_by_name(f, t);
	if (kind < 0)
		return kind;
	if (!kind) {
		if (!is_composite(t))
			return 0;
		if (s->expected_size && s->expected_size != t->size * nelems)
			return 0;
		return find_nested(f, type_id, t, s->off, nelems, info, cap, level);
	}
	k = kind_of((uint32_t)kind);
	sz = k->size;
	if (s->expected_size && s->expected_size != sz * nelems)
		return 0;
	if (s->off % k->align)
		return 0;
	if (kind == FIELD_KPTR_REF) {
		found = find_kptr(f, t, s->off, cap ? &info[0] : &tmp);
		if (found <= 0)
			return found;
	} else {
		if (!is_composite(t) || t->size != sz)
			return 0;
		if (kind & FIELD_GRAPH_ROOT) {
			int err = check_graph_root(f->btf, s, (uint32_t)kind, &tmp);

			if (err)
				return err;
		}
		if (cap) {
			info[0] = tmp;
			info[0].type = (uint32_t)kind;
			info[0].off = s->off;
			info[0].kptr_type_id = 0;
		}
	}
	if (!cap)
		return -E2BIG;
	info[0].size = sz;
	if (nelems > 1) {
		int err = repeat_fields(info, cap, 1, nelems - 1, sz);

		if (err)
			return err;
	}
	return (int)nelems;
}

static int find_in_struct(struct finder *f, uint32_t struct_id, struct map_field *info,
			  int cap, uint32_t level)
{
	const struct btf_type *t = btf__type_by_id(f->btf, struct_id);
	const struct btf_member *m = btf_members(t);
	int idx = 0;

	for (uint16_t i = 0; i < btf_vlen(t); i++, m++) {
		uint32_t bits = btf_member_bit_offset(t, i);
		struct site s = { struct_id, i, bits / 8, 0 };
		int n;

		if (bits % 8)
			return -EINVAL;
		n = find_one(f, m->type, &s, &info[idx], cap - idx, level);
		if (n < 0)
			return n;
		idx += n;
	}
	return idx;
}

static int find_in_datasec(struct finder *f, const struct btf_type *t,
			   struct map_field *info, int cap)
{
	const struct btf_var_secinfo *v = btf_var_secinfos(t);
	int idx = 0;

	for (uint16_t i = 0; i < btf_vlen(t); i++, v++) {
		const struct btf_type *var = btf__type_by_id(f->btf, v->type);
		struct site s = { v->type, -1, v->offset, v->size };
		int n;

		if (!var)
			return -EINVAL;
		n = find_one(f, var->type, &s, &info[idx], cap - idx, 0);
		if (n < 0)
			return n;
		idx += n;
	}
	return idx;
}

static int cmp_off(const void *a, const void *b)
{
	const struct map_field *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The kernel's record for a value type of `value_size` bytes: fields in
 * bounds, not overlapping, graph roots guarded by a lock, one lock kind.
 * Negative errno when the layout is refused.
 */
static int parse_fields(const struct btf *btf, uint32_t type_id, uint32_t value_size,
			uint32_t mask, bool old_kptr_tags, struct map_record *rec)
{
	struct finder f = { btf, mask, 0, old_kptr_tags };
	const struct btf_type *t = btf__type_by_id(btf, type_id);
	uint32_t next_off = 0;
	int cnt;

	if (is_composite(t))
		cnt = find_in_struct(&f, type_id, rec->fields, MAP_FIELDS_MAX, 0);
	else if (t && btf_is_datasec(t))
		cnt = find_in_datasec(&f, t, rec->fields, MAP_FIELDS_MAX);
	else
		cnt = -EINVAL;
	if (cnt < 0)
		return cnt;
	for (int i = 0; i < cnt; i++) {
		const struct map_field *fd = &rec->fields[i];

		if ((uint64_t)fd->off + fd->size > value_size)
			return -EFAULT;
		if (fd->off < next_off)
			return -EEXIST;
		next_off = fd->off + fd->size;
		rec->mask |= fd->type;
	}
	if ((rec->mask & FIELD_GRAPH_ROOT) &&
	    !(rec->mask & (FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK)))
		return -EINVAL;
	if ((rec->mask & FIELD_SPIN_LOCK) && (rec->mask & FIELD_RES_SPIN_LOCK))
		return -EINVAL;
	rec->cnt = (uint32_t)cnt;
	qsort(rec->fields, rec->cnt, sizeof(rec->fields[0]), cmp_off);
	return 0;
}

/*
 * Structs that may be allocated objects (bpf_obj_new) are checked when the
 * kernel loads the object's BTF: every struct with a lock, graph or
 * refcount member, or a kptr-tagged pointer member, must have a valid
 * layout. One bad struct (two locks, say) makes the kernel refuse the
 * whole BTF; libbpf then goes on without it, and no map gets BTF.
 */
static const char *const alloc_obj_fields[] = {
	"bpf_spin_lock", "bpf_res_spin_lock", "bpf_list_head", "bpf_list_node",
	"bpf_rb_root", "bpf_rb_node", "bpf_refcount",
};

#define ALLOC_OBJ_MASK (FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK | FIELD_LIST_HEAD | \
			FIELD_LIST_NODE | FIELD_RB_ROOT | FIELD_RB_NODE | FIELD_REFCOUNT | \
			FIELD_KPTR)

/* Does type `id` mark its struct as a possible allocated object? */
static bool is_alloc_obj_member(const struct btf *btf, uint32_t id, const int *named,
				size_t named_cnt)
{
	struct finder f = { btf, FIELD_KPTR, 0 };
	struct map_field tmp;
	const struct btf_type *t;

	for (size_t i = 0; i < named_cnt; i++)
		if (named[i] > 0 && (uint32_t)named[i] == id)
			return true;
	t = btf__type_by_id(btf, id);
	return t && find_kptr(&f, t, 0, &tmp) == 1;
}

static void find_alloc_obj_names(const struct btf *btf, int *named)
{
	for (size_t i = 0; i < ARRAY_LEN(alloc_obj_fields); i++)
		named[i] = btf__find_by_name_kind(btf, alloc_obj_fields[i], BTF_KIND_STRUCT);
}

/* A struct the kernel keeps a record for: one of its own members (not
 * nested ones) is a special struct or a kptr. */
static bool is_meta_struct(const struct btf *btf, const struct btf_type *t, const int *named)
{
	const struct btf_member *m;

	if (!is_composite(t))
		return false;
	m = btf_members(t);
	for (uint16_t i = 0; i < btf_vlen(t); i++, m++)
		if (is_alloc_obj_member(btf, m->type, named, ARRAY_LEN(alloc_obj_fields)))
			return true;
	return false;
}

static int parse_meta_struct(const struct btf *btf, uint32_t id, struct map_record *rec)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	memset(rec, 0, sizeof(*rec));
	if (parse_fields(btf, id, t->size, ALLOC_OBJ_MASK, false, rec))
		return -EINVAL;
	return rec->cnt ? 0 : -EFAULT;
}

bool map_btf_refused(const struct btf *btf)
{
	int named[ARRAY_LEN(alloc_obj_fields)];
	uint32_t n = btf__type_cnt(btf);

	find_alloc_obj_names(btf, named);
	for (uint32_t id = 1; id < n; id++) {
		struct map_record rec;

		if (is_meta_struct(btf, btf__type_by_id(btf, id), named) &&
		    parse_meta_struct(btf, id, &rec))
			return true;
	}
	return false;
}

/* The records of the program BTF's structs, in id order. */
static int struct_metas_init(struct vet_env *env, const struct btf *btf)
{
	int named[ARRAY_LEN(alloc_obj_fields)];
	uint32_t n = btf__type_cnt(btf), cnt = 0;

	find_alloc_obj_names(btf, named);
	for (uint32_t id = 1; id < n; id++)
		cnt += is_meta_struct(btf, btf__type_by_id(btf, id), named);
	if (!cnt)
		return 0;
	env->struct_metas = vet_calloc(env, cnt, sizeof(*env->struct_metas));
	if (!env->struct_metas)
		return -ENOMEM;
	for (uint32_t id = 1; id < n; id++) {
		struct struct_meta *m = &env->struct_metas[env->struct_meta_cnt];

		if (!is_meta_struct(btf, btf__type_by_id(btf, id), named))
			continue;
		m->btf_id = id;
		if (parse_meta_struct(btf, id, &m->rec))
			return -EFAULT;	/* map_btf_refused said otherwise */
		env->struct_meta_cnt++;
	}
	return 0;
}

const struct map_record *struct_meta_record(const struct vet_env *env, const void *btf,
					    uint32_t btf_id)
{
	uint32_t lo = 0, hi = env->struct_meta_cnt;

	if (!btf || btf != env->prog_btf)
		return NULL;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (env->struct_metas[mid].btf_id == btf_id)
			return &env->struct_metas[mid].rec;
		if (env->struct_metas[mid].btf_id < btf_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

/* Map types each field kind may live in (map_check_btf). */
static bool type_holds(uint32_t map_type, uint32_t field)
{
	static const uint32_t locks[] = {
		BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_CGROUP_STORAGE,
		BPF_MAP_TYPE_SK_STORAGE, BPF_MAP_TYPE_INODE_STORAGE,
		BPF_MAP_TYPE_TASK_STORAGE, BPF_MAP_TYPE_CGRP_STORAGE, 0,
	};
	static const uint32_t async[] = {
		BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_LRU_HASH, BPF_MAP_TYPE_ARRAY, 0,
	};
	static const uint32_t ptrs[] = {
		BPF_MAP_TYPE_HASH, BPF_MAP_TYPE_PERCPU_HASH, BPF_MAP_TYPE_LRU_HASH,
		BPF_MAP_TYPE_LRU_PERCPU_HASH, BPF_MAP_TYPE_ARRAY, BPF_MAP_TYPE_PERCPU_ARRAY,
		BPF_MAP_TYPE_SK_STORAGE, BPF_MAP_TYPE_INODE_STORAGE,
		BPF_MAP_TYPE_TASK_STORAGE, BPF_MAP_TYPE_CGRP_STORAGE, 0,
	};
	static const uint32_t uptrs[] = { BPF_MAP_TYPE_TASK_STORAGE, 0 };
	const uint32_t *ok;

	if (field & (FIELD_SPIN_LOCK | FIELD_RES_SPIN_LOCK))
		ok = locks;
	else if (field & (FIELD_TIMER | FIELD_WORKQUEUE | FIELD_TASK_WORK | FIELD_GRAPH_ROOT))
		ok = async;
	else if (field & (FIELD_KPTR | FIELD_REFCOUNT))
		ok = ptrs;
	else if (field & FIELD_UPTR)
		ok = uptrs;
	else
		return false;
	for (; *ok; ok++)
		if (*ok == map_type)
			return true;
	return false;
}

/* Map types libbpf always creates without BTF. */
static bool libbpf_drops_btf(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_STACK_TRACE:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
		return true;
	default:
		return false;
	}
}

/* Map types that refuse any BTF (the kernel's map_check_no_btf). */
static bool kernel_refuses_btf(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_PROG_ARRAY:
	case BPF_MAP_TYPE_REUSEPORT_SOCKARRAY:
	case BPF_MAP_TYPE_RINGBUF:
	case BPF_MAP_TYPE_USER_RINGBUF:
	case BPF_MAP_TYPE_STRUCT_OPS:
		return true;
	default:
		return libbpf_drops_btf(type);
	}
}

/* The key and value types the kernel checks against the sizes. */
static bool key_value_ok(const struct btf *btf, const struct bpfvet_map *map)
{
	const struct btf_type *v = btf_skip_mods(btf, map->btf_value_type_id, NULL);
	int64_t vsz = btf__resolve_size(btf, map->btf_value_type_id);
	bool array = map->type == BPF_MAP_TYPE_ARRAY || map->type == BPF_MAP_TYPE_PERCPU_ARRAY;

	if (vsz < 0 || (uint64_t)vsz != map->value_size || !v)
		return false;
	if (!map->btf_key_type_id) {
		/* Only global data goes without a key type. */
		return (map->type == BPF_MAP_TYPE_ARRAY && map->max_entries == 1 &&
			btf_is_datasec(v)) || map->type == BPF_MAP_TYPE_BLOOM_FILTER;
	}
	if (btf__resolve_size(btf, map->btf_key_type_id) != (int64_t)map->key_size)
		return false;
	if (array) {
		const struct btf_type *k = btf_skip_mods(btf, map->btf_key_type_id, NULL);

		return k && btf_is_int(k) && btf_int_bits(k) == 32 && !btf_int_offset(k);
	}
	return true;
}

void map_record_build(const struct btf *btf, const struct bpfvet_map *map,
		      struct map_record *rec)
{
	map_record_build_for(btf, map, 0, rec);
}

void map_record_build_for(const struct btf *btf, const struct bpfvet_map *map, uint32_t kver,
			  struct map_record *rec)
{
	bool old_tags = !kver_has(kver, KVER_KPTR_TAG_NAMES);

	memset(rec, 0, sizeof(*rec));
	if (!btf || !map->btf_value_type_id || kernel_refuses_btf(map->type) ||
	    !key_value_ok(btf, map))
		return;
	rec->has_btf = true;
	if (parse_fields(btf, map->btf_value_type_id, map->value_size, MAP_VALUE_FIELDS, old_tags,
			 rec)) {
		/* The kernel keeps the map (and its BTF) but no fields. */
		memset(rec, 0, sizeof(*rec));
		rec->has_btf = true;
		return;
	}
	if (!rec->cnt)
		return;
	for (uint32_t b = 1; b; b <<= 1) {
		if ((rec->mask & b) && !type_holds(map->type, b)) {
			memset(rec, 0, sizeof(*rec));
			return;
		}
	}
	if (map->flags & (BPF_F_RDONLY_PROG | BPF_F_WRONLY_PROG))
		memset(rec, 0, sizeof(*rec));
}

int records_init(struct vet_env *env)
{
	const struct btf *btf = env->prog->obj ? env->prog->obj->btf : NULL;
	uint32_t kver = env->prog->obj ? env->prog->obj->target_kver : 0;
	int err;

	/* The kernel got no BTF from a loader without CAP_BPF: maps without
	 * types, no program BTF. */
	if (btf && (map_btf_refused(btf) || env->prog->obj->btf_unloaded))
		btf = NULL;
	env->prog_btf = btf;
	if (btf) {
		err = struct_metas_init(env, btf);
		if (err)
			return err;
	}
	if (!env->map_cnt)
		return 0;
	env->map_records = vet_calloc(env, env->map_cnt, sizeof(*env->map_records));
	if (!env->map_records)
		return -ENOMEM;
	for (size_t i = 0; i < env->map_cnt; i++)
		map_record_build_for(btf, &env->maps[i], kver, &env->map_records[i]);
	return 0;
}

void records_free(struct vet_env *env)
{
	vet_free(env, env->map_records);
	env->map_records = NULL;
	vet_free(env, env->struct_metas);
	env->struct_metas = NULL;
	env->struct_meta_cnt = 0;
}

const struct map_record *map_record_of(const struct vet_env *env,
				       const struct bpfvet_map *map)
{
	static const struct map_record none;

	if (!map || !env->map_records || map < env->maps || map >= env->maps + env->map_cnt)
		return &none;
	return &env->map_records[map - env->maps];
}

bool map_has_field(const struct vet_env *env, const struct bpfvet_map *map, uint32_t mask)
{
	return map_record_of(env, map)->mask & mask;
}

const struct map_field *record_field_at(const struct map_record *rec, uint32_t off,
					uint32_t mask)
{
	for (uint32_t i = 0; rec && i < rec->cnt; i++)
		if (rec->fields[i].off == off && (rec->fields[i].type & mask))
			return &rec->fields[i];
	return NULL;
}

const struct map_field *map_field_at(const struct vet_env *env,
				     const struct bpfvet_map *map, uint32_t off,
				     uint32_t mask)
{
	return record_field_at(map_record_of(env, map), off, mask);
}

const struct map_field *record_field_of_type(const struct map_record *rec, uint32_t mask)
{
	for (uint32_t i = 0; rec && i < rec->cnt; i++)
		if (rec->fields[i].type & mask)
			return &rec->fields[i];
	return NULL;
}

const struct map_field *map_field_of_type(const struct vet_env *env,
					  const struct bpfvet_map *map, uint32_t type)
{
	return record_field_of_type(map_record_of(env, map), type);
}
