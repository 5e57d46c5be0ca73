/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The BTF side of CO-RE, following libbpf's rules: which target types are
 * candidates for a local type (same kind, same name once "___flavor"
 * suffixes are dropped), when two types are compatible (loose, for field
 * and type relocations) or match (strict, for bpf_core_type_matches), and
 * how an access string such as "0:1:3" becomes field steps and a bit
 * offset, first on the local types, then on each candidate.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "core.h"
#include "steps.h"

#define COMPAT_DEPTH 32		/* libbpf's bound on following pointers */

static const char *name_of(const struct btf *btf, uint32_t off)
{
	return btf__name_by_offset(btf, off);
}

static bool empty(const char *s)
{
	return !s || !s[0];
}

/* "task_struct___v2" -> 11: a flavor is "___" with a non-underscore on
 * each side and at least one character after it; the last one counts. */
size_t core_essential_len(const char *name)
{
	size_t n = strlen(name), p;

	for (p = n >= 4 ? n - 4 : 0; p >= 1; p--) {
		if (name[p - 1] != '_' && !strncmp(name + p, "___", 3) &&
		    name[p + 3] != '_')
			return p;
	}
	return n;
}

static bool same_essential(const char *a, const char *b)
{
	size_t la = core_essential_len(a), lb = core_essential_len(b);

	return la == lb && !strncmp(a, b, la);
}

int core_find_cands(const struct btf *local, uint32_t local_id,
		    const struct btf *targ, struct core_cands *c)
{
	const struct btf_type *lt = btf__type_by_id(local, local_id);
	const char *lname = lt ? name_of(local, lt->name_off) : NULL;
	uint32_t i, n = btf__type_cnt(targ);
	size_t len;

	c->searched = true;
	if (empty(lname))
		return -EINVAL;
	len = core_essential_len(lname);
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(targ, i);
		const char *tname;
		uint32_t *ids;

		if (!t || !btf_kind_core_compat(t, lt))
			continue;
		tname = name_of(targ, t->name_off);
		if (empty(tname) || core_essential_len(tname) != len ||
		    strncmp(lname, tname, len))
			continue;
		ids = realloc(c->ids, (c->cnt + 1) * sizeof(*ids));
		if (!ids)
			return -ENOMEM;
		c->ids = ids;
		ids[c->cnt++] = i;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Compatibility                                                       */
/* ------------------------------------------------------------------ */

/* Both ids are first stripped of modifiers and typedefs. */
static int skip_both(const struct btf *local, uint32_t *lid, const struct btf *targ,
		     uint32_t *tid, const struct btf_type **lt,
		     const struct btf_type **tt)
{
	*lt = btf_skip_mods(local, *lid, lid);
	*tt = btf_skip_mods(targ, *tid, tid);
	return *lt && *tt ? 0 : -EINVAL;
}

static int proto_params_compat(const struct btf *local, const struct btf_type *lt,
			       const struct btf *targ, const struct btf_type *tt,
			       int level)
{
	const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
	uint16_t i, n = btf_vlen(lt);

	if (n != btf_vlen(tt))
		return 0;
	for (i = 0; i < n; i++) {
		const struct btf_type *a, *b;
		uint32_t lid = lp[i].type, tid = tp[i].type;
		int r;

		if (level <= 0)
			return -EINVAL;
		if (skip_both(local, &lid, targ, &tid, &a, &b))
			return -EINVAL;
		r = core_types_compat(local, lid, targ, tid, level - 1);
		if (r <= 0)
			return r;
	}
	return 1;
}

/*
 * Loose compatibility (libbpf's "types are compatible" rule): same kinds,
 * enums of any size, integers of any size or sign, arrays of any length.
 * Modifiers and typedefs are skipped at every step; pointers, arrays and
 * prototypes are followed, at most COMPAT_DEPTH steps per chain and level
 * nested prototypes.
 */
static int compat_walk(const struct btf *local, uint32_t lid,
		       const struct btf *targ, uint32_t tid, int level)
{
	const struct btf_type *lt, *tt;
	int depth, r;

	for (depth = 0; depth < COMPAT_DEPTH; depth++) {
		if (skip_both(local, &lid, targ, &tid, &lt, &tt))
			return -EINVAL;
		if (!btf_kind_core_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
		case BTF_KIND_FWD:
			return 1;
		case BTF_KIND_INT:
			/* Old bitfield-like integers carry an offset. */
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_PTR:
			lid = lt->type;
			tid = tt->type;
			break;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			break;
		case BTF_KIND_FUNC_PROTO:
			r = proto_params_compat(local, lt, targ, tt, level);
			if (r <= 0)
				return r;
			lid = lt->type;
			tid = tt->type;
			break;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/* Type-based relocations (the root names already match) also want the
 * roots to have the same kind before anything is skipped. */
int core_types_compat(const struct btf *local, uint32_t lid,
		      const struct btf *targ, uint32_t tid, int level)
{
	const struct btf_type *lt = btf__type_by_id(local, lid);
	const struct btf_type *tt = btf__type_by_id(targ, tid);

	if (!lt || !tt)
		return -EINVAL;
	if (!btf_kind_core_compat(lt, tt))
		return 0;
	return compat_walk(local, lid, targ, tid, level);
}

int core_types_compat_unqual(const struct btf *local, uint32_t lid,
			     const struct btf *targ, uint32_t tid)
{
	return compat_walk(local, lid, targ, tid, COMPAT_DEPTH);
}

/* Compatibility of a local field with the target field of the same name:
 * composites mix freely, enums and forward declarations need the same
 * essential name unless one is anonymous. */
static int fields_compat(const struct btf *local, uint32_t lid,
			 const struct btf *targ, uint32_t tid)
{
	const struct btf_type *lt, *tt;

	for (;;) {
		if (skip_both(local, &lid, targ, &tid, &lt, &tt))
			return -EINVAL;
		if (btf_is_composite(lt) && btf_is_composite(tt))
			return 1;
		if (!btf_kind_core_compat(lt, tt))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_PTR:
		case BTF_KIND_FLOAT:
			return 1;
		case BTF_KIND_FWD:
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64: {
			const char *ln = name_of(local, lt->name_off);
			const char *tn = name_of(targ, tt->name_off);

			if (!ln || !tn)
				return -EINVAL;
			return core_essential_len(ln) == 0 || core_essential_len(tn) == 0 ||
			       same_essential(ln, tn);
		}
		case BTF_KIND_INT:
			return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
		case BTF_KIND_ARRAY:
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			break;
		default:
			return 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* Strict matching (bpf_core_type_matches)                             */
/* ------------------------------------------------------------------ */

/* An anonymous target matches only an anonymous local. */
static bool names_match(const struct btf *local, uint32_t loff,
			const struct btf *targ, uint32_t toff)
{
	const char *ln = name_of(local, loff), *tn = name_of(targ, toff);

	if (empty(tn))
		return empty(ln);
	return ln && same_essential(ln, tn);
}

static uint32_t enum_name_off(const struct btf_type *t, uint16_t i)
{
	return btf_is_enum(t) ? btf_enum(t)[i].name_off : btf_enum64(t)[i].name_off;
}

/* Same size; every local enumerator has a target one of the same name. */
static int enums_match(const struct btf *local, const struct btf_type *lt,
		       const struct btf *targ, const struct btf_type *tt)
{
	uint16_t i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);

	if (lt->size != tt->size || ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		for (j = 0; j < tn; j++)
			if (names_match(local, enum_name_off(lt, i), targ, enum_name_off(tt, j)))
				break;
		if (j == tn)
			return 0;
	}
	return 1;
}

/* Every local member has a same-named target member that matches. */
static int composites_match(const struct btf *local, const struct btf_type *lt,
			    const struct btf *targ, const struct btf_type *tt,
			    bool behind_ptr, int level)
{
	const struct btf_member *lm = btf_members(lt), *tm = btf_members(tt);
	uint16_t i, j, ln = btf_vlen(lt), tn = btf_vlen(tt);
	int r;

	if (ln > tn)
		return 0;
	for (i = 0; i < ln; i++) {
		bool found = false;

		for (j = 0; j < tn && !found; j++) {
			if (!names_match(local, lm[i].name_off, targ, tm[j].name_off))
				continue;
			r = core_types_match(local, lm[i].type, targ, tm[j].type,
					     behind_ptr, level - 1);
			if (r < 0)
				return r;
			found = r > 0;
		}
		if (!found)
			return 0;
	}
	return 1;
}

/* A forward declaration's kflag says union (1) or struct (0). */
static int fwd_match(const struct btf_type *lt, const struct btf_type *tt,
		     bool behind_ptr)
{
	bool lf = btf_kflag(lt);

	if (btf_is_fwd(tt))
		return lf == btf_kflag(tt);
	if (!behind_ptr)
		return 0;
	return (btf_is_struct(tt) && !lf) || (btf_is_union(tt) && lf);
}

static int composite_kind_match(const struct btf *local, const struct btf_type *lt,
				const struct btf *targ, const struct btf_type *tt,
				bool behind_ptr, int level)
{
	if (behind_ptr) {
		/* Behind a pointer the layout is irrelevant: a forward
		 * declaration of the right kind will do. */
		if (btf_kind(lt) == btf_kind(tt))
			return 1;
		return btf_is_fwd(tt) && btf_is_union(lt) == btf_kflag(tt);
	}
	if (btf_kind(lt) != btf_kind(tt))
		return 0;
	return composites_match(local, lt, targ, tt, behind_ptr, level);
}

static int proto_params_match(const struct btf *local, const struct btf_type *lt,
			      const struct btf *targ, const struct btf_type *tt,
			      bool behind_ptr, int level)
{
	const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);
	uint16_t i, n = btf_vlen(lt);
	int r;

	if (n != btf_vlen(tt))
		return 0;
	for (i = 0; i < n; i++) {
		r = core_types_match(local, lp[i].type, targ, tp[i].type, behind_ptr,
				     level - 1);
		if (r <= 0)
			return r;
	}
	return 1;
}

int core_types_match(const struct btf *local, uint32_t lid, const struct btf *targ,
		     uint32_t tid, bool behind_ptr, int level)
{
	const struct btf_type *lt, *tt;
	int depth, r;

	if (level <= 0)
		return -EINVAL;
	for (depth = 0; depth < COMPAT_DEPTH; depth++) {
		if (skip_both(local, &lid, targ, &tid, &lt, &tt))
			return -EINVAL;
		/* Typedef names were only checked at the root, by the
		 * candidate search. */
		if (!names_match(local, lt->name_off, targ, tt->name_off))
			return 0;
		switch (btf_kind(lt)) {
		case BTF_KIND_UNKN:
			return btf_kind(tt) == BTF_KIND_UNKN;
		case BTF_KIND_FWD:
			return fwd_match(lt, tt, behind_ptr);
		case BTF_KIND_ENUM:
		case BTF_KIND_ENUM64:
			return btf_is_any_enum(tt) && enums_match(local, lt, targ, tt);
		case BTF_KIND_STRUCT:
		case BTF_KIND_UNION:
			return composite_kind_match(local, lt, targ, tt, behind_ptr, level);
		case BTF_KIND_INT:
			return btf_is_int(tt) && lt->size == tt->size &&
			       (btf_int_encoding(lt) & BTF_INT_SIGNED) ==
			       (btf_int_encoding(tt) & BTF_INT_SIGNED);
		case BTF_KIND_PTR:
			if (!btf_is_ptr(tt))
				return 0;
			behind_ptr = true;
			lid = lt->type;
			tid = tt->type;
			break;
		case BTF_KIND_ARRAY:
			if (!btf_is_array(tt) ||
			    btf_array(lt)->nelems != btf_array(tt)->nelems)
				return 0;
			lid = btf_array(lt)->type;
			tid = btf_array(tt)->type;
			break;
		case BTF_KIND_FUNC_PROTO:
			if (!btf_is_func_proto(tt))
				return 0;
			r = proto_params_match(local, lt, targ, tt, behind_ptr, level);
			if (r <= 0)
				return r;
			lid = lt->type;
			tid = tt->type;
			break;
		default:
			return 0;
		}
	}
	return -EINVAL;
}

/* ------------------------------------------------------------------ */
/* Access specifications                                               */
/* ------------------------------------------------------------------ */

/* A zero-length array as the last member of its struct may be indexed
 * past its end. `owner` is the accessor of that member. */
static bool is_flex_array(const struct btf *btf, const struct core_acc *owner,
			  const struct btf_array *arr)
{
	const struct btf_type *t;

	if (!owner->name || arr->nelems > 0)
		return false;
	t = btf__type_by_id(btf, owner->type_id);
	return t && owner->idx == (uint32_t)btf_vlen(t) - 1;
}

static int parse_indexes(const char *s, struct core_spec *spec)
{
	while (*s) {
		int idx, used;

		if (*s == ':')
			s++;
		if (sscanf(s, "%d%n", &idx, &used) != 1 || idx < 0)
			return -EINVAL;
		if (spec->raw_len == CORE_SPEC_MAX)
			return -E2BIG;
		spec->raw[spec->raw_len++] = idx;
		s += used;
	}
	return spec->raw_len ? 0 : -EINVAL;
}

static int parse_enumval(const struct btf *btf, const struct btf_type *t,
			 struct core_spec *spec)
{
	uint32_t idx = (uint32_t)spec->raw[0];

	if (!btf_is_any_enum(t) || spec->raw_len > 1 || idx >= btf_vlen(t))
		return -EINVAL;
	spec->acc[0].name = name_of(btf, enum_name_off(t, (uint16_t)idx));
	return spec->acc[0].name ? 0 : -EINVAL;
}

/* Index `idx` of an array whose element type is at *id afterwards. */
static int step_array(const struct btf *btf, const struct btf_type *t, uint32_t idx,
		      uint32_t *id, struct core_spec *spec)
{
	const struct btf_array *a = btf_array(t);
	long long sz;

	if (!btf_skip_mods(btf, a->type, id))
		return -EINVAL;
	if (!is_flex_array(btf, &spec->acc[spec->len - 1], a) && idx >= a->nelems)
		return -EINVAL;
	spec->acc[spec->len].type_id = *id;
	spec->acc[spec->len].idx = idx;
	spec->acc[spec->len].name = NULL;
	spec->len++;
	sz = btf__resolve_size(btf, *id);
	if (sz < 0)
		return (int)sz;
	spec->bit_off += (uint32_t)(idx * sz * 8);
	return 0;
}

/* Member `idx` of a struct or union; anonymous ones leave no accessor. */
static int step_member(const struct btf *btf, const struct btf_type *t, uint32_t idx,
		       uint32_t *id, struct core_spec *spec)
{
	const struct btf_member *m;

	if (idx >= btf_vlen(t))
		return -EINVAL;
	m = btf_members(t) + idx;
	spec->bit_off += btf_member_bit_offset(t, idx);
	if (m->name_off) {
		const char *name = name_of(btf, m->name_off);

		if (empty(name))
			return -EINVAL;
		spec->acc[spec->len].type_id = *id;
		spec->acc[spec->len].idx = idx;
		spec->acc[spec->len].name = name;
		spec->len++;
	}
	*id = m->type;
	return 0;
}

int core_spec_parse(const struct btf *btf, uint32_t type_id, const char *access,
		    uint32_t kind, struct core_spec *spec)
{
	const struct btf_type *t;
	long long sz;
	uint32_t id;
	int i, err;

	if (empty(access) || access[0] == ':')
		return -EINVAL;
	memset(spec, 0, sizeof(*spec));
	spec->btf = btf;
	spec->root_id = type_id;
	spec->kind = kind;
	if (core_kind_is_type(kind))
		return strcmp(access, "0") ? -EINVAL : 0;
	err = parse_indexes(access, spec);
	if (err)
		return err;
	t = btf_skip_mods(btf, type_id, &id);
	if (!t)
		return -EINVAL;
	spec->acc[0].type_id = id;
	spec->acc[0].idx = (uint32_t)spec->raw[0];
	spec->len = 1;
	if (core_kind_is_enumval(kind))
		return parse_enumval(btf, t, spec);
	if (!core_kind_is_field(kind))
		return -EINVAL;
	/* The first index steps over whole objects, as in &p[n]. */
	sz = btf__resolve_size(btf, id);
	if (sz < 0)
		return (int)sz;
	spec->bit_off = (uint32_t)(spec->raw[0] * sz * 8);
	for (i = 1; i < spec->raw_len; i++) {
		uint32_t idx = (uint32_t)spec->raw[i];

		t = btf_skip_mods(btf, id, &id);
		if (!t)
			return -EINVAL;
		if (btf_is_composite(t))
			err = step_member(btf, t, idx, &id, spec);
		else if (btf_is_array(t))
			err = step_array(btf, t, idx, &id, spec);
		else
			err = -EINVAL;
		if (err)
			return err;
	}
	return 0;
}

/*
 * Finds the target member named like the local accessor, searching
 * anonymous members depth first. Each member tried is pushed on the raw
 * spec and the bit offset, and popped when it is not the one. 1: found
 * and compatible (*next is its type), 0: absent or incompatible.
 */
static int match_member(const struct btf *local, const struct core_acc *lacc,
			const struct btf *targ, uint32_t tid, struct core_spec *spec,
			uint32_t *next)
{
	const struct btf_type *tt = btf_skip_mods(targ, tid, &tid), *lt;
	const struct btf_member *lm, *m;
	const char *lname;
	uint16_t i, n;
	int r;

	if (!tt)
		return -EINVAL;
	if (!btf_is_composite(tt))
		return 0;
	lt = btf__type_by_id(local, lacc->type_id);
	lm = btf_members(lt) + lacc->idx;
	lname = name_of(local, lm->name_off);
	if (!lname)
		return -EINVAL;
	n = btf_vlen(tt);
	m = btf_members(tt);
	for (i = 0; i < n; i++, m++) {
		uint32_t off = btf_member_bit_offset(tt, i);
		const char *tname;

		if (spec->raw_len == CORE_SPEC_MAX)
			return -E2BIG;
		spec->bit_off += off;
		spec->raw[spec->raw_len++] = i;
		tname = name_of(targ, m->name_off);
		if (empty(tname)) {
			r = match_member(local, lacc, targ, m->type, spec, next);
			if (r)
				return r;
		} else if (!strcmp(lname, tname)) {
			struct core_acc *a = &spec->acc[spec->len++];

			a->type_id = tid;
			a->idx = i;
			a->name = tname;
			*next = m->type;
			r = fields_compat(local, lm->type, targ, m->type);
			if (!r)
				spec->len--;
			return r;
		}
		spec->bit_off -= off;
		spec->raw_len--;
	}
	return 0;
}

static int match_enumval(const struct core_spec *local, const struct btf *targ,
			 uint32_t tid, struct core_spec *ts)
{
	const struct btf_type *tt = btf_skip_mods(targ, tid, &tid);
	const char *lname = local->acc[0].name;
	uint16_t i;

	if (!tt)
		return -EINVAL;
	if (!btf_is_any_enum(tt))
		return 0;
	for (i = 0; i < btf_vlen(tt); i++) {
		const char *tname = name_of(targ, enum_name_off(tt, i));

		if (!tname || !same_essential(lname, tname))
			continue;
		ts->acc[0].type_id = tid;
		ts->acc[0].idx = i;
		ts->acc[0].name = tname;
		ts->len = 1;
		ts->raw[0] = i;
		ts->raw_len = 1;
		return 1;
	}
	return 0;
}

/* Array step i > 0 of the local spec, on the target. */
static int match_index(const struct core_spec *local, int i, const struct btf *targ,
		       const struct btf_type *tt, uint32_t *tid, struct core_spec *ts)
{
	uint32_t idx = local->acc[i].idx;
	long long sz;

	if (i > 0) {
		const struct btf_array *a;

		if (!btf_is_array(tt))
			return 0;
		a = btf_array(tt);
		if (!is_flex_array(targ, &ts->acc[i - 1], a) && idx >= a->nelems)
			return 0;
		if (!btf_skip_mods(targ, a->type, tid))
			return -EINVAL;
	}
	if (ts->raw_len == CORE_SPEC_MAX)
		return -E2BIG;
	ts->acc[i].type_id = *tid;
	ts->acc[i].idx = idx;
	ts->acc[i].name = NULL;
	ts->len++;
	ts->raw[ts->raw_len++] = (int)idx;
	sz = btf__resolve_size(targ, *tid);
	if (sz < 0)
		return (int)sz;
	ts->bit_off += (uint32_t)(idx * sz * 8);
	return 1;
}

int core_spec_match(const struct core_spec *local, const struct btf *targ,
		    uint32_t tid, struct core_spec *ts)
{
	int i, r;

	memset(ts, 0, sizeof(*ts));
	ts->btf = targ;
	ts->root_id = tid;
	ts->kind = local->kind;
	if (core_kind_is_type(local->kind)) {
		if (local->kind == CORE_TYPE_MATCHES)
			return core_types_match(local->btf, local->root_id, targ, tid,
						false, COMPAT_DEPTH);
		return core_types_compat(local->btf, local->root_id, targ, tid,
					 COMPAT_DEPTH);
	}
	if (core_kind_is_enumval(local->kind))
		return match_enumval(local, targ, tid, ts);
	if (!core_kind_is_field(local->kind))
		return -EINVAL;
	for (i = 0; i < local->len; i++) {
		const struct btf_type *tt = btf_skip_mods(targ, tid, &tid);

		if (!tt)
			return -EINVAL;
		if (local->acc[i].name)
			r = match_member(local->btf, &local->acc[i], targ, tid, ts, &tid);
		else
			r = match_index(local, i, targ, tt, &tid, ts);
		if (r <= 0)
			return r;
	}
	return 1;
}
