/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The object's BTF, parsed with libbpf and adjusted the way libbpf adjusts
 * it before handing it to the kernel: DATASEC sizes and variable offsets
 * that the compiler left as zero, hidden globals made static, extern
 * sections turned into allocated variables. The adjusted bytes are kept in
 * obj->btf_data for loading into the kernel later.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"

#define MAX_MOD_DEPTH 32

const struct btf_type *btf_skip_mods(const struct btf *btf, uint32_t id,
				     uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth < MAX_MOD_DEPTH; depth++) {
		if (!btf_is_mod(t) && !btf_is_typedef(t)) {
			if (res_id)
				*res_id = id;
			return t;
		}
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return NULL;
}

/* libbpf mutates its own types in place; its API hands out const
 * pointers into the same buffer, so the cast is how we reach them. */
static struct btf_type *type_mut(struct btf *btf, uint32_t id)
{
	return (struct btf_type *)btf__type_by_id(btf, id);
}

static bool needs_btf(const struct loader *ld)
{
	size_t i;

	if (ld->btf_maps_shndx)
		return true;
	for (i = 1; i < ld->elf.sec_cnt; i++)
		if (ld->sec_kind[i] == SEC_STRUCT_OPS)
			return true;
	return false;
}

static bool ref_ok(const struct btf *btf, uint32_t id)
{
	return id < btf__type_cnt(btf);
}

static bool name_ok(const struct btf *btf, uint32_t off)
{
	return btf__str_by_offset(btf, off) != NULL;
}

static bool members_ok(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_member *m = btf_members(t);
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!ref_ok(btf, m[i].type) || !name_ok(btf, m[i].name_off))
			return false;
	return true;
}

static bool params_ok(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_param *p = btf_params(t);
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!ref_ok(btf, p[i].type) || !name_ok(btf, p[i].name_off))
			return false;
	return ref_ok(btf, t->type);
}

static bool enum_names_ok(const struct btf *btf, const struct btf_type *t)
{
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++) {
		uint32_t off = btf_is_enum(t) ? btf_enum(t)[i].name_off :
						btf_enum64(t)[i].name_off;

		if (!name_ok(btf, off))
			return false;
	}
	return true;
}

static bool datasec_ok(const struct btf *btf, const struct btf_type *t)
{
	const struct btf_var_secinfo *vs = btf_var_secinfos(t);
	uint16_t i;

	for (i = 0; i < btf_vlen(t); i++)
		if (!ref_ok(btf, vs[i].type))
			return false;
	return true;
}

static bool type_ok(const struct btf *btf, const struct btf_type *t)
{
	if (!name_ok(btf, t->name_off))
		return false;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_FWD:
	case BTF_KIND_FLOAT:
		return true;
	case BTF_KIND_ARRAY:
		return ref_ok(btf, btf_array(t)->type) &&
		       ref_ok(btf, btf_array(t)->index_type);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return members_ok(btf, t);
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		return enum_names_ok(btf, t);
	case BTF_KIND_FUNC_PROTO:
		return params_ok(btf, t);
	case BTF_KIND_DATASEC:
		return datasec_ok(btf, t);
	default:	/* PTR, TYPEDEF, modifiers, FUNC, VAR, tags */
		return ref_ok(btf, t->type);
	}
}

/*
 * libbpf 1.1 parses type records but does not check that the ids and
 * names they refer to exist, and some of its helpers dereference them
 * blindly: a corrupted object must be caught here.
 */
static bool btf_refs_ok(const struct btf *btf)
{
	uint32_t i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!t || !type_ok(btf, t))
			return false;
	}
	return true;
}

int btf_align_of(const struct btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t = btf__type_by_id(btf, id);
	int align, max_align = 1;
	uint16_t i;

	if (!t || depth > MAX_MOD_DEPTH)
		return -EINVAL;
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FLOAT:
		return t->size == 0 ? -EINVAL : t->size < 8 ? (int)t->size : 8;
	case BTF_KIND_PTR:
		return 8;
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return btf_align_of(btf, t->type, depth + 1);
	case BTF_KIND_ARRAY:
		return btf_align_of(btf, btf_array(t)->type, depth + 1);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		for (i = 0; i < btf_vlen(t); i++) {
			const struct btf_member *m = &btf_members(t)[i];

			align = btf_align_of(btf, m->type, depth + 1);
			if (align <= 0)
				return align ? align : -EINVAL;
			if (align > max_align)
				max_align = align;
			/* A misaligned member means a packed struct. */
			if (!btf_member_bitfield_size(t, i) &&
			    btf_member_bit_offset(t, i) % (8 * align))
				return 1;
		}
		return t->size % max_align ? 1 : max_align;
	default:
		return -EINVAL;
	}
}

int btf_open(struct loader *ld)
{
	const struct elf_sec *sec = elf_file_sec(&ld->elf, ld->btf_shndx);
	struct btf *btf;
	int err;

	if (!sec || !sec->data || !sec->size) {
		if (needs_btf(ld))
			return errbuf_set(ld->eb, -ENOENT,
					  "the object needs BTF (.maps or struct_ops) but has no .BTF");
		return 0;
	}
	if (sec->size > UINT32_MAX)
		return errbuf_set(ld->eb, -E2BIG, ".BTF is too large");
	btf = btf__new(sec->data, (uint32_t)sec->size);
	err = btf ? 0 : errno ? -errno : -EINVAL;
	if (btf && !btf_refs_ok(btf)) {
		btf__free(btf);
		btf = NULL;
		err = -EINVAL;
	}
	if (!btf) {
		/* libbpf carries on without BTF when nothing requires it. */
		if (needs_btf(ld))
			return errbuf_set(ld->eb, err, "cannot parse .BTF (%s)",
					  strerror(-err));
		return 0;
	}
	btf__set_pointer_size(btf, 8);
	ld->obj->btf = btf;
	return 0;
}

static const Elf64_Sym *find_var_sym(const struct loader *ld, const char *name)
{
	size_t i;

	for (i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];
		int bind = ELF64_ST_BIND(sym->st_info);
		const char *sname;

		if (ELF64_ST_TYPE(sym->st_info) != STT_OBJECT ||
		    (bind != STB_GLOBAL && bind != STB_WEAK))
			continue;
		sname = elf_file_sym_name(&ld->elf, sym);
		if (sname && !strcmp(sname, name))
			return sym;
	}
	return NULL;
}

static int cmp_vsi(const void *pa, const void *pb)
{
	const struct btf_var_secinfo *a = pa, *b = pb;

	if (a->offset != b->offset)
		return a->offset < b->offset ? -1 : 1;
	return 0;
}

static int fix_vars(struct loader *ld, struct btf_type *t, const char *sec_name,
		    bool fix_offsets)
{
	struct btf *btf = ld->obj->btf;
	struct btf_var_secinfo *vsi = btf_var_secinfos(t);
	uint16_t i, n = btf_vlen(t);

	for (i = 0; i < n; i++) {
		struct btf_type *var = type_mut(btf, vsi[i].type);
		const Elf64_Sym *sym;
		const char *name;
		uint32_t linkage;

		if (!var || !btf_is_var(var))
			return errbuf_set(ld->eb, -EINVAL,
					  "BTF section %s holds a non-VAR type", sec_name);
		linkage = btf_var(var)->linkage;
		if (linkage == BTF_VAR_STATIC || linkage == BTF_VAR_GLOBAL_EXTERN)
			continue;
		name = btf__name_by_offset(btf, var->name_off);
		sym = name ? find_var_sym(ld, name) : NULL;
		if (!sym)
			return errbuf_set(ld->eb, -ENOENT,
					  "BTF section %s: no ELF symbol for variable %s",
					  sec_name, name ? name : "?");
		if (fix_offsets)
			vsi[i].offset = (uint32_t)sym->st_value;
		if (ELF64_ST_VISIBILITY(sym->st_other) == STV_HIDDEN ||
		    ELF64_ST_VISIBILITY(sym->st_other) == STV_INTERNAL)
			btf_var(var)->linkage = BTF_VAR_STATIC;
	}
	return 0;
}

static int fix_datasec(struct loader *ld, struct btf_type *t)
{
	const char *name = btf__name_by_offset(ld->obj->btf, t->name_off);
	bool fix_offsets = false;
	int err;

	if (!name)
		return errbuf_set(ld->eb, -EINVAL, "BTF DATASEC without a name");
	/* Extern sections were laid out by btf_fixup_externs(). */
	if (strcmp(name, ".kconfig") && strcmp(name, ".ksyms")) {
		if (t->size == 0) {
			size_t idx = elf_file_sec_by_name(&ld->elf, name);
			const struct elf_sec *sec = elf_file_sec(&ld->elf, idx);

			if (sec && sec->size > UINT32_MAX)
				return errbuf_set(ld->eb, -E2BIG,
						  "section %s is too large (%zu bytes)",
						  name, sec->size);
			if (!sec || !sec->loaded || !sec->size)
				return errbuf_set(ld->eb, -ENOENT,
						  "BTF section %s: cannot find its size", name);
			t->size = (uint32_t)sec->size;
			fix_offsets = true;
		}
		err = fix_vars(ld, t, name, fix_offsets);
		if (err)
			return err;
	}
	qsort(btf_var_secinfos(t), btf_vlen(t), sizeof(struct btf_var_secinfo),
	      cmp_vsi);
	return 0;
}

int btf_fixup_datasecs(struct loader *ld)
{
	struct btf *btf = ld->obj->btf;
	uint32_t i, n;
	int err;

	if (!btf)
		return 0;
	n = btf__type_cnt(btf);
	for (i = 1; i < n; i++) {
		struct btf_type *t = type_mut(btf, i);

		if (!t || !btf_is_datasec(t))
			continue;
		err = fix_datasec(ld, t);
		if (err)
			return err;
	}
	return 0;
}

static int find_int32(const struct btf *btf)
{
	uint32_t i, n = btf__type_cnt(btf);

	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (t && btf_is_int(t) && btf_int_bits(t) == 32)
			return i;
	}
	return 0;
}

static const struct ld_extern *ext_by_name(const struct loader *ld, const char *name)
{
	size_t i;

	for (i = 0; i < ld->ext_cnt; i++)
		if (!strcmp(ld->exts[i].name, name))
			return &ld->exts[i];
	return NULL;
}

static int find_sec(const struct btf *btf, const char *name)
{
	return btf__find_by_name_kind(btf, name, BTF_KIND_DATASEC);
}

static bool ksyms_have_func(const struct btf *btf, int sec_id)
{
	const struct btf_type *sec = btf__type_by_id(btf, sec_id);
	const struct btf_var_secinfo *vs = btf_var_secinfos(sec);
	uint16_t i;

	for (i = 0; i < btf_vlen(sec); i++) {
		const struct btf_type *t = btf__type_by_id(btf, vs[i].type);

		if (t && btf_is_func(t))
			return true;
	}
	return false;
}

/* A kfunc's FUNC is replaced in .ksyms by a dummy int variable, and its
 * unnamed parameters borrow the dummy's name: the kernel rejects FUNCs in
 * a DATASEC and unnamed parameters of a global function. */
static int fix_ksym_func(struct btf *btf, struct btf_var_secinfo *vs,
			 struct btf_type *fn, int dummy_id)
{
	const struct btf_type *dummy = btf__type_by_id(btf, dummy_id);
	struct btf_type *proto = type_mut(btf, fn->type);
	struct btf_param *p;
	uint16_t j;

	if (!dummy || !proto || !btf_is_func_proto(proto))
		return -EINVAL;
	p = btf_params(proto);
	for (j = 0; j < btf_vlen(proto); j++)
		if (p[j].type && !p[j].name_off)
			p[j].name_off = dummy->name_off;
	vs->type = dummy_id;
	fn->info = (fn->info & ~0xffffu) | BTF_FUNC_GLOBAL;
	return 0;
}

static int fix_ksyms(struct loader *ld, int sec_id, int dummy_id)
{
	struct btf *btf = ld->obj->btf;
	struct btf_type *sec = type_mut(btf, sec_id);
	struct btf_var_secinfo *vs = btf_var_secinfos(sec);
	int int_id = find_int32(btf);
	uint32_t off = 0;
	uint16_t i;

	for (i = 0; i < btf_vlen(sec); i++, off += sizeof(int)) {
		struct btf_type *vt = type_mut(btf, vs[i].type);
		const char *name = vt ? btf__name_by_offset(btf, vt->name_off) : NULL;

		if (!name || !ext_by_name(ld, name))
			return errbuf_set(ld->eb, -ESRCH,
					  "no extern symbol for BTF .ksyms entry %s",
					  name ? name : "?");
		if (btf_is_func(vt)) {
			if (fix_ksym_func(btf, &vs[i], vt, dummy_id))
				return errbuf_set(ld->eb, -EINVAL,
						  "bad BTF for kfunc %s", name);
		} else if (btf_is_var(vt)) {
			btf_var(vt)->linkage = BTF_VAR_GLOBAL_ALLOCATED;
			vt->type = int_id;
		}
		vs[i].offset = off;
		vs[i].size = sizeof(int);
	}
	sec->size = off;
	return 0;
}

static int fix_kconfig(struct loader *ld, int sec_id)
{
	struct btf *btf = ld->obj->btf;
	struct btf_type *sec = type_mut(btf, sec_id);
	struct btf_var_secinfo *vs = btf_var_secinfos(sec);
	uint32_t size = 0;
	uint16_t i;
	size_t j;

	for (j = 0; j < ld->ext_cnt; j++)
		if (ld->exts[j].type == EXT_KCFG)
			size = ld->exts[j].kcfg_off + ld->exts[j].kcfg_sz;
	sec->size = size;
	for (i = 0; i < btf_vlen(sec); i++) {
		struct btf_type *t = type_mut(btf, vs[i].type);
		const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;
		const struct ld_extern *ext = name ? ext_by_name(ld, name) : NULL;

		if (!ext || !btf_is_var(t))
			return errbuf_set(ld->eb, -ESRCH,
					  "no extern symbol for BTF .kconfig entry %s",
					  name ? name : "?");
		btf_var(t)->linkage = BTF_VAR_GLOBAL_ALLOCATED;
		vs[i].offset = ext->kcfg_off;
	}
	return 0;
}

int btf_fixup_externs(struct loader *ld)
{
	struct btf *btf = ld->obj->btf;
	bool has_ksym = false, has_kcfg = false;
	int ksyms, kconfig, dummy = 0;
	size_t i;
	int err;

	if (!btf || !ld->ext_cnt)
		return 0;
	for (i = 0; i < ld->ext_cnt; i++) {
		has_ksym |= ld->exts[i].type == EXT_KSYM;
		has_kcfg |= ld->exts[i].type == EXT_KCFG;
	}
	ksyms = find_sec(btf, ".ksyms");
	/* Adding a type may move libbpf's type storage: do it before
	 * taking any pointer into it. */
	if (ksyms > 0 && ksyms_have_func(btf, ksyms)) {
		dummy = btf__add_var(btf, "dummy_ksym", BTF_VAR_GLOBAL_ALLOCATED,
				     find_int32(btf));
		if (dummy < 0)
			return errbuf_set(ld->eb, dummy, "cannot extend BTF for kfuncs");
	}
	if (has_ksym && ksyms > 0) {
		err = fix_ksyms(ld, ksyms, dummy);
		if (err)
			return err;
	}
	kconfig = find_sec(btf, ".kconfig");
	if (has_kcfg && kconfig > 0)
		return fix_kconfig(ld, kconfig);
	return 0;
}

/* Global functions with hidden visibility are verified like static ones:
 * libbpf marks their BTF FUNC static. */
static void mark_hidden_static(struct loader *ld)
{
	struct btf *btf = ld->obj->btf;
	uint32_t n = btf__type_cnt(btf), j;
	size_t i;

	for (i = 0; i < ld->func_cnt; i++) {
		const struct func *fn = &ld->funcs[i];

		if (!fn->hidden || !fn->in_text)
			continue;
		for (j = 1; j < n; j++) {
			struct btf_type *t = type_mut(btf, j);
			const char *name;

			if (!t || !btf_is_func(t) || btf_func_linkage(t) != BTF_FUNC_GLOBAL)
				continue;
			name = btf__name_by_offset(btf, t->name_off);
			if (!name || strcmp(name, fn->name))
				continue;
			t->info = (t->info & ~0xffffu) | BTF_FUNC_STATIC;
			break;
		}
	}
}

int btf_finalize(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	const struct elf_sec *ext = elf_file_sec(&ld->elf, ld->btf_ext_shndx);
	const void *raw;
	uint32_t size = 0;

	if (!obj->btf)
		return 0;
	mark_hidden_static(ld);
	raw = btf__raw_data(obj->btf, &size);
	if (!raw)
		return errbuf_set(ld->eb, -ENOMEM, "cannot serialise BTF");
	obj->btf_data = malloc(size);
	if (!obj->btf_data)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	memcpy(obj->btf_data, raw, size);
	obj->btf_size = size;
	if (ld->ext.present && ext && ext->data && ext->size) {
		obj->btf_ext_data = malloc(ext->size);
		if (!obj->btf_ext_data)
			return errbuf_set(ld->eb, -ENOMEM, "out of memory");
		memcpy(obj->btf_ext_data, ext->data, ext->size);
		obj->btf_ext_size = ext->size;
	}
	return 0;
}
