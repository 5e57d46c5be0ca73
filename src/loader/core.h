/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BPF CO-RE ("compile once, run everywhere") relocations, with libbpf's
 * semantics: each .BTF.ext record names a local BTF type, an access string
 * and a kind; the loader finds the matching types of the target kernel's
 * BTF and rewrites the instruction (an offset, a size, an immediate) so
 * that it means on the target what it meant on the compiler's types.
 *
 *   core_match.c  candidates, type compatibility and matching, and the
 *                 field specifications (access strings) on both sides;
 *   core_relo.c   the values a relocation produces, the patching of the
 *                 instruction, and the loader step that applies every
 *                 record to the functions of an object.
 */
#ifndef BPFVET_CORE_H
#define BPFVET_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct btf;

/* enum bpf_core_relo_kind (the kernel's uapi). */
enum core_kind {
	CORE_FIELD_BYTE_OFFSET = 0,
	CORE_FIELD_BYTE_SIZE = 1,
	CORE_FIELD_EXISTS = 2,
	CORE_FIELD_SIGNED = 3,
	CORE_FIELD_LSHIFT_U64 = 4,
	CORE_FIELD_RSHIFT_U64 = 5,
	CORE_TYPE_ID_LOCAL = 6,
	CORE_TYPE_ID_TARGET = 7,
	CORE_TYPE_EXISTS = 8,
	CORE_TYPE_SIZE = 9,
	CORE_ENUMVAL_EXISTS = 10,
	CORE_ENUMVAL_VALUE = 11,
	CORE_TYPE_MATCHES = 12,
};

/* libbpf's limit on access string length and on nesting. */
#define CORE_SPEC_MAX 64

/* One meaningful step of an access: a named field or an array index. */
struct core_acc {
	uint32_t type_id;	/* the struct/union, or the array element type */
	uint32_t idx;		/* member index or array index */
	const char *name;	/* field name; NULL for an array index */
};

/* An access string resolved against one BTF. */
struct core_spec {
	const struct btf *btf;
	uint32_t root_id;	/* as written in the record, typedefs kept */
	uint32_t kind;
	struct core_acc acc[CORE_SPEC_MAX];
	int len;
	int raw[CORE_SPEC_MAX];	/* every index, anonymous members included */
	int raw_len;
	uint32_t bit_off;
};

/* Candidate target types of one local type. */
struct core_cands {
	uint32_t *ids;
	size_t cnt;
	bool searched;
};

/* What resolving one record produced. */
struct core_res {
	uint64_t orig_val;	/* expected in the instruction (if validate) */
	uint64_t new_val;
	bool poison;		/* unresolvable: make the insn an invalid call */
	bool validate;
	bool bad_size_change;	/* load/store size change that is not safe */
	uint32_t orig_sz, new_sz;
	uint32_t orig_type_id, new_type_id;
};

bool core_kind_is_field(uint32_t kind);
bool core_kind_is_type(uint32_t kind);
bool core_kind_is_enumval(uint32_t kind);
const char *core_kind_name(uint32_t kind);

/* core_match.c */
size_t core_essential_len(const char *name);
/* Fills c with every type of targ whose kind and essential name match
 * local type local_id. -EINVAL for an anonymous local type. */
int core_find_cands(const struct btf *local, uint32_t local_id,
		    const struct btf *targ, struct core_cands *c);
/* libbpf's loose compatibility of two types: 1 yes, 0 no, <0 error (bad
 * BTF, or nested too deep). The two roots must have the same kind as they
 * are: a typedef is not compatible with the int it names. */
int core_types_compat(const struct btf *local, uint32_t local_id,
		      const struct btf *targ, uint32_t targ_id, int level);
/* The same rule with the roots' modifiers and typedefs skipped first, as
 * libbpf compares a __ksym extern with the kernel's variable or function
 * prototype ("const struct rq" is compatible with "struct rq"). */
int core_types_compat_unqual(const struct btf *local, uint32_t local_id,
			     const struct btf *targ, uint32_t targ_id);
int core_types_match(const struct btf *local, uint32_t local_id,
		     const struct btf *targ, uint32_t targ_id, bool behind_ptr,
		     int level);
/* Parses the access string of a record against the local BTF. */
int core_spec_parse(const struct btf *btf, uint32_t type_id, const char *access,
		    uint32_t kind, struct core_spec *spec);
/* 1 when local matches candidate targ_id (filling targ), 0 when it does
 * not, a negative errno on malformed BTF. */
int core_spec_match(const struct core_spec *local, const struct btf *targ,
		    uint32_t targ_id, struct core_spec *targ_spec);

#endif
