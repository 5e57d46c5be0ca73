/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The target kernel's BTF as the verifier reads it: type kinds under the
 * kernel's names, modifiers skipped the kernel's way (typedefs included),
 * member sizes with arrays linearised, and the attach target of a
 * BTF-based program (tp_btf/X -> typedef btf_trace_X, fentry/X -> func X,
 * lsm/X -> func bpf_lsm_X, iter/X -> func bpf_iter_X).
 *
 * Built on libbpf's BTF API; the verifier stores `const struct btf *` in
 * reg_state.btf, so these helpers take that pointer.
 */
#ifndef BPFVET_BTF_KERN_H
#define BPFVET_BTF_KERN_H

#include <stdbool.h>
#include <stdint.h>

struct btf;
struct btf_index;	/* btf_index.h: the name index of `btf`, or NULL */
struct btf_type;
struct bpfvet_program;

/* The kernel's name of a kind ("STRUCT", "PTR", ...), "UNKNOWN" if unknown. */
const char *kbtf_kind_str(const struct btf_type *t);

/* Name of type `id`, "" when it has none or the id is bad. */
const char *kbtf_name(const struct btf *btf, uint32_t id);
/* A name as most of the kernel's messages print it: "(anon)" for none. */
const char *kbtf_msg_name(const struct btf *btf, uint32_t name_off);

/* Skips const/volatile/restrict/type tags and typedefs from `id`; the id
 * reached goes to *res_id (when not NULL). NULL on a bad id or a loop. */
const struct btf_type *kbtf_skip_mods(const struct btf *btf, uint32_t id,
				      uint32_t *res_id);

bool kbtf_is_small_int(const struct btf_type *t);
bool kbtf_is_struct(const struct btf_type *t);	/* struct or union */
bool kbtf_is_modifier(const struct btf_type *t);	/* typedefs included */

/* Size of a member type, arrays of arrays counted as one flat array. */
struct kbtf_size {
	uint32_t size;		/* bytes of the whole member */
	uint32_t nelems;	/* elements when an array, else 1 */
	const struct btf_type *elem;	/* element type (the type itself if no array) */
	uint32_t elem_id;	/* innermost array's element type id, 0 if no array */
	uint32_t type_id;	/* id reached after the last modifier, 0 if none */
};
/* The resolved type (the outermost array for arrays), or NULL when the
 * type has no size (void, functions, loops). */
const struct btf_type *kbtf_resolve_size(const struct btf *btf, const struct btf_type *t,
					 struct kbtf_size *out);

/* Id of the type of kind `kind` named as `name` without its ___flavor
 * suffix, as the kernel matches program types to its own; -ENOENT. */
int kbtf_find_essential(const struct btf *btf, const struct btf_index *ix, const char *name,
			int kind);

/* BTF id of the attach target named in a section ("vmlinux:" prefix
 * allowed) for an expected attach type: -ESRCH when absent (modules are
 * not searched), -ENAMETOOLONG for a name libbpf would refuse. */
int kbtf_attach_find(const struct btf *btf, const struct btf_index *ix, const char *target,
		     uint32_t attach_type);


#endif
