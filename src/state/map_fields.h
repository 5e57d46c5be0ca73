/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Special fields inside map values, found in the object's BTF the way the
 * Linux 6.18 kernel finds them when a map is created (its btf_record): the
 * lock, timer, workqueue, kptr and graph structures that a program may not
 * touch directly.
 */
#ifndef BPFVET_MAP_FIELDS_H
#define BPFVET_MAP_FIELDS_H

#include <stdbool.h>
#include <stdint.h>

/* Field kinds; values match the kernel's enum btf_field_type. */
enum field_type {
	FIELD_SPIN_LOCK		= 1u << 0,
	FIELD_TIMER		= 1u << 1,
	FIELD_KPTR_UNREF	= 1u << 2,	/* __kptr_untrusted */
	FIELD_KPTR_REF		= 1u << 3,	/* __kptr */
	FIELD_KPTR_PERCPU	= 1u << 4,	/* __percpu_kptr */
	FIELD_LIST_HEAD		= 1u << 5,
	FIELD_LIST_NODE		= 1u << 6,
	FIELD_RB_ROOT		= 1u << 7,
	FIELD_RB_NODE		= 1u << 8,
	FIELD_REFCOUNT		= 1u << 9,
	FIELD_WORKQUEUE		= 1u << 10,
	FIELD_UPTR		= 1u << 11,	/* __uptr */
	FIELD_RES_SPIN_LOCK	= 1u << 12,
	FIELD_TASK_WORK		= 1u << 13,
};

#define FIELD_KPTR	(FIELD_KPTR_UNREF | FIELD_KPTR_REF | FIELD_KPTR_PERCPU)
#define FIELD_GRAPH_ROOT (FIELD_LIST_HEAD | FIELD_RB_ROOT)
#define FIELD_GRAPH_NODE (FIELD_LIST_NODE | FIELD_RB_NODE)

/* At most this many fields per value, as in the kernel (BTF_FIELDS_MAX). */
#define MAP_FIELDS_MAX 11

struct map_field {
	uint32_t type;		/* one enum field_type bit */
	uint32_t off;		/* bytes from the start of the value */
	uint32_t size;
	uint32_t kptr_type_id;	/* kptrs: pointee struct in the object's BTF */
	/* Graph roots: the struct their __contains tag names (in the
	 * object's BTF) and the offset of its node member. */
	uint32_t graph_value_id;
	uint32_t graph_node_off;
};

/*
 * What the kernel knows about one map's value. The kernel may end up
 * without BTF for a map even when the object describes it: libbpf leaves
 * BTF out for some map types, and retries without it when the kernel
 * refuses the map with it (special fields in a map type that cannot hold
 * them, or in a read-only map).
 */
struct map_record {
	bool has_btf;
	uint32_t mask;		/* union of the fields' types */
	uint32_t cnt;
	struct map_field fields[MAP_FIELDS_MAX];	/* by offset */
};

/* One struct of the program's BTF with special fields, which the kernel
 * parses when it loads the BTF (btf_parse_struct_metas). */
struct struct_meta {
	uint32_t btf_id;
	struct map_record rec;
};

struct btf;
struct bpfvet_map;

/* The kernel's name of a field kind ("bpf_spin_lock", "kptr", ...). */
const char *field_type_name(uint32_t type);

/* Whether Linux refuses the object's BTF as a whole (an allocatable
 * struct with a bad layout); then no map gets BTF. */
bool map_btf_refused(const struct btf *btf);

/* The record of one map, given the object's BTF as the kernel accepted
 * it (NULL when it has none or refused it). */
void map_record_build(const struct btf *btf, const struct bpfvet_map *map,
		      struct map_record *rec);
/* The same for a target of version `kver` (rules/kver.h; 0 the newest),
 * whose kernel may name the fields' tags otherwise. */
void map_record_build_for(const struct btf *btf, const struct bpfvet_map *map, uint32_t kver,
			  struct map_record *rec);

#endif
