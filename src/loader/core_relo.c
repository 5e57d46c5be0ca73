/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Applying CO-RE relocations, as libbpf does before any other relocation:
 * every .BTF.ext record is resolved against the target BTF (candidates by
 * essential name, the local access matched on each, all matches required
 * to agree) and the function's instruction is patched: the immediate of
 * an ALU or LD_IMM64, or the offset (and, when a field changed width
 * safely, the size) of a load or store. A relocation with no match is not
 * an error: the instruction becomes a call of the invalid helper
 * 0xbad2310, which the verifier reports only if it is reachable.
 *
 * Without a target BTF, records that need one leave their functions as
 * compiled and mark them (func.core_pending); bpf_core_type_id_local needs
 * only the object's own BTF and is always applied.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "core.h"
#include "steps.h"
#include "base/uapi.h"

#define POISON_IMM 195896080	/* 0xbad2310, libbpf's "bad relo" */
#define MATCH_LEVEL 32

bool core_kind_is_field(uint32_t kind)
{
	return kind <= CORE_FIELD_RSHIFT_U64;
}

bool core_kind_is_type(uint32_t kind)
{
	return kind == CORE_TYPE_ID_LOCAL || kind == CORE_TYPE_ID_TARGET ||
	       kind == CORE_TYPE_EXISTS || kind == CORE_TYPE_MATCHES ||
	       kind == CORE_TYPE_SIZE;
}

bool core_kind_is_enumval(uint32_t kind)
{
	return kind == CORE_ENUMVAL_EXISTS || kind == CORE_ENUMVAL_VALUE;
}

const char *core_kind_name(uint32_t kind)
{
	static const char *const names[] = {
		[CORE_FIELD_BYTE_OFFSET] = "byte_off",
		[CORE_FIELD_BYTE_SIZE] = "byte_sz",
		[CORE_FIELD_EXISTS] = "field_exists",
		[CORE_FIELD_SIGNED] = "signed",
		[CORE_FIELD_LSHIFT_U64] = "lshift_u64",
		[CORE_FIELD_RSHIFT_U64] = "rshift_u64",
		[CORE_TYPE_ID_LOCAL] = "local_type_id",
		[CORE_TYPE_ID_TARGET] = "target_type_id",
		[CORE_TYPE_EXISTS] = "type_exists",
		[CORE_TYPE_SIZE] = "type_size",
		[CORE_ENUMVAL_EXISTS] = "enumval_exists",
		[CORE_ENUMVAL_VALUE] = "enumval_value",
		[CORE_TYPE_MATCHES] = "type_matches",
	};

	return kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

/* State of one object's CO-RE pass; `why` explains the last failure. */
struct core_ctx {
	const struct btf *local;
	const struct btf *targ;
	struct core_cands *cache;	/* by local type id */
	size_t cache_cnt;
	char why[256];
};

static int why(struct core_ctx *c, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int why(struct core_ctx *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->why, sizeof(c->why), fmt, ap);
	va_end(ap);
	return err;
}

/* ------------------------------------------------------------------ */
/* Values                                                              */
/* ------------------------------------------------------------------ */

struct field_val {
	uint64_t val;
	uint32_t mem_sz;	/* byte_off of a whole field: its size */
	uint32_t type_id;	/* ... and its type */
	bool validate;
};

/* Smallest aligned load that holds a bitfield. */
static int bitfield_load(struct core_ctx *c, uint32_t bit_off, uint32_t bit_sz,
			 uint32_t *byte_off, uint32_t *byte_sz)
{
	if (!*byte_sz)
		return why(c, -EINVAL, "bitfield of a type without size");
	*byte_off = bit_off / 8 / *byte_sz * *byte_sz;
	while (bit_off + bit_sz - *byte_off * 8 > *byte_sz * 8) {
		if (*byte_sz >= 8)
			return why(c, -E2BIG, "bitfield cannot be read with a 64-bit load");
		*byte_sz *= 2;
		*byte_off = bit_off / 8 / *byte_sz * *byte_sz;
	}
	return 0;
}

static int array_elem_value(struct core_ctx *c, uint32_t kind, const struct core_spec *s,
			    const struct core_acc *a, struct field_val *fv)
{
	long long sz = btf__resolve_size(s->btf, a->type_id);

	if (kind != CORE_FIELD_BYTE_OFFSET && kind != CORE_FIELD_BYTE_SIZE)
		return why(c, -EINVAL, "relocation %s cannot apply to an array element",
			   core_kind_name(kind));
	if (sz < 0)
		return why(c, -EINVAL, "cannot size array element type [%u]", a->type_id);
	if (kind == CORE_FIELD_BYTE_OFFSET) {
		fv->val = s->bit_off / 8;
		fv->mem_sz = (uint32_t)sz;
		fv->type_id = a->type_id;
	} else {
		fv->val = (uint64_t)sz;
	}
	fv->validate = true;
	return 0;
}

/* Field relocation value on one side; s is NULL for "not found". Returns
 * -EUCLEAN to ask for poisoning, as libbpf does. */
static int field_value(struct core_ctx *c, uint32_t kind, const struct core_spec *s,
		       struct field_val *fv)
{
	const struct core_acc *a;
	const struct btf_type *t, *mt;
	uint32_t byte_off, byte_sz, bit_off, bit_sz, ftype = 0;
	bool bitfield;
	int err;

	memset(fv, 0, sizeof(*fv));
	fv->validate = true;
	if (kind == CORE_FIELD_EXISTS) {
		fv->val = s != NULL;
		return 0;
	}
	if (!s)
		return -EUCLEAN;
	a = &s->acc[s->len - 1];
	if (!a->name)
		return array_elem_value(c, kind, s, a, fv);
	t = btf__type_by_id(s->btf, a->type_id);
	mt = btf_skip_mods(s->btf, btf_members(t)[a->idx].type, &ftype);
	if (!mt)
		return why(c, -EINVAL, "bad type of field %s", a->name);
	bit_off = s->bit_off;
	bit_sz = btf_member_bitfield_size(t, a->idx);
	bitfield = bit_sz > 0;
	if (bitfield) {
		byte_sz = mt->size;
		err = bitfield_load(c, bit_off, bit_sz, &byte_off, &byte_sz);
		if (err)
			return err;
	} else {
		long long sz = btf__resolve_size(s->btf, ftype);

		if (sz < 0)
			return why(c, -EINVAL, "cannot size field %s", a->name);
		byte_sz = (uint32_t)sz;
		byte_off = bit_off / 8;
		bit_sz = byte_sz * 8;
	}
	/* The compiler and libbpf may disagree on how to read a bitfield:
	 * only its signedness and right shift are checked. */
	fv->validate = !bitfield;
	switch (kind) {
	case CORE_FIELD_BYTE_OFFSET:
		fv->val = byte_off;
		if (!bitfield) {
			fv->mem_sz = byte_sz;
			fv->type_id = ftype;
		}
		return 0;
	case CORE_FIELD_BYTE_SIZE:
		fv->val = byte_sz;
		return 0;
	case CORE_FIELD_SIGNED:
		fv->val = (btf_is_any_enum(mt) && btf_kflag(mt)) ||
			  (btf_is_int(mt) && (btf_int_encoding(mt) & BTF_INT_SIGNED));
		fv->validate = true;
		return 0;
	case CORE_FIELD_LSHIFT_U64:
		/* Little-endian: the field's top bit goes to bit 63. */
		fv->val = 64 - (bit_off + bit_sz - byte_off * 8);
		return 0;
	case CORE_FIELD_RSHIFT_U64:
		fv->val = 64 - bit_sz;
		fv->validate = true;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int type_value(uint32_t kind, const struct core_spec *s, uint64_t *val)
{
	long long sz;

	if (!s) {	/* type-based relocations give 0 for "not found" */
		*val = 0;
		return 0;
	}
	switch (kind) {
	case CORE_TYPE_ID_TARGET:
		*val = s->root_id;
		return 0;
	case CORE_TYPE_EXISTS:
	case CORE_TYPE_MATCHES:
		*val = 1;
		return 0;
	case CORE_TYPE_SIZE:
		sz = btf__resolve_size(s->btf, s->root_id);
		if (sz < 0)
			return -EINVAL;
		*val = (uint64_t)sz;
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int enumval_value(uint32_t kind, const struct core_spec *s, uint64_t *val)
{
	const struct btf_type *t;

	if (kind == CORE_ENUMVAL_EXISTS) {
		*val = s != NULL;
		return 0;
	}
	if (kind != CORE_ENUMVAL_VALUE)
		return -EOPNOTSUPP;
	if (!s)
		return -EUCLEAN;
	t = btf__type_by_id(s->btf, s->acc[0].type_id);
	if (btf_is_enum(t))	/* 32-bit values are signed: sign-extend */
		*val = (uint64_t)(int64_t)btf_enum(t)[s->acc[0].idx].val;
	else
		*val = btf_enum64_value(btf_enum64(t) + s->acc[0].idx);
	return 0;
}

/* A load of a field whose width changed stays correct for pointers and
 * unsigned integers, which zero-extend. */
static bool resize_safe(const struct btf *local, uint32_t lid, const struct btf *targ,
			uint32_t tid)
{
	const struct btf_type *a = btf__type_by_id(local, lid);
	const struct btf_type *b = btf__type_by_id(targ, tid);

	if (!a || !b)
		return false;
	if (btf_is_ptr(a) && btf_is_ptr(b))
		return true;
	return btf_is_int(a) && btf_is_int(b) &&
	       btf_int_encoding(a) != BTF_INT_SIGNED &&
	       btf_int_encoding(b) != BTF_INT_SIGNED;
}

static int field_relo(struct core_ctx *c, uint32_t kind, const struct core_spec *ls,
		      const struct core_spec *ts, struct core_res *res)
{
	struct field_val lv, tv;
	int err;

	err = field_value(c, kind, ls, &lv);
	if (!err)
		err = field_value(c, kind, ts, &tv);
	if (err)
		return err;
	res->orig_val = lv.val;
	res->new_val = tv.val;
	res->validate = lv.validate;
	res->orig_sz = lv.mem_sz;
	res->new_sz = tv.mem_sz;
	res->orig_type_id = lv.type_id;
	res->new_type_id = tv.type_id;
	res->bad_size_change = res->orig_sz != res->new_sz &&
			       !resize_safe(c->local, lv.type_id, c->targ, tv.type_id);
	return 0;
}

/* Values of one relocation for one candidate (ts NULL: none matched). */
static int calc_relo(struct core_ctx *c, uint32_t kind, const struct core_spec *ls,
		     const struct core_spec *ts, struct core_res *res)
{
	int err;

	memset(res, 0, sizeof(*res));
	res->validate = true;
	if (core_kind_is_field(kind)) {
		err = field_relo(c, kind, ls, ts, res);
	} else if (core_kind_is_type(kind)) {
		err = type_value(kind, ls, &res->orig_val);
		if (!err)
			err = type_value(kind, ts, &res->new_val);
		/* Type ids change with linking: the compiler's is no check. */
		res->validate = kind != CORE_TYPE_ID_TARGET;
	} else if (core_kind_is_enumval(kind)) {
		err = enumval_value(kind, ls, &res->orig_val);
		if (!err)
			err = enumval_value(kind, ts, &res->new_val);
	} else {
		err = -EOPNOTSUPP;
	}
	if (err == -EUCLEAN) {
		res->poison = true;
		return 0;
	}
	if (err == -EOPNOTSUPP)
		return why(c, err, "unrecognized CO-RE relocation %s (%u)",
			   core_kind_name(kind), kind);
	if (err && !c->why[0])
		why(c, err, "cannot compute %s", core_kind_name(kind));
	return err;
}

/* ------------------------------------------------------------------ */
/* Resolution                                                          */
/* ------------------------------------------------------------------ */

static int cands_of(struct core_ctx *c, uint32_t local_id, struct core_cands **out)
{
	struct core_cands *cc;
	int err;

	if (local_id >= c->cache_cnt)
		return -EINVAL;
	cc = &c->cache[local_id];
	if (!cc->searched) {
		err = core_find_cands(c->local, local_id, c->targ, cc);
		if (err)
			return err;
	}
	*out = cc;
	return 0;
}

/*
 * Every matching candidate must give the same result; those that match
 * replace the candidate list of the type for later relocations (libbpf's
 * pruning). With no match, the "not found" result applies.
 */
static int resolve_cands(struct core_ctx *c, const struct core_spec *ls,
			 struct core_cands *cc, struct core_res *res)
{
	struct core_spec *cs = malloc(2 * sizeof(*cs)), *best = cs + 1;
	struct core_res cr;
	size_t i, kept = 0;
	int err = 0;

	if (!cs)
		return why(c, -ENOMEM, "out of memory");
	for (i = 0; i < cc->cnt && !err; i++) {
		err = core_spec_match(ls, c->targ, cc->ids[i], cs);
		if (err < 0) {
			why(c, err, "error matching candidate [%u]", cc->ids[i]);
			break;
		}
		if (!err)
			continue;
		err = calc_relo(c, ls->kind, ls, cs, &cr);
		if (err)
			break;
		if (!kept) {
			*res = cr;
			*best = *cs;
		} else if (cs->bit_off != best->bit_off) {
			err = why(c, -EINVAL, "field offset ambiguity: %u != %u",
				  cs->bit_off, best->bit_off);
		} else if (cr.poison != res->poison || cr.new_val != res->new_val) {
			err = why(c, -EINVAL,
				  "relocation decision ambiguity: %s %llu != %s %llu",
				  cr.poison ? "failure" : "success",
				  (unsigned long long)cr.new_val,
				  res->poison ? "failure" : "success",
				  (unsigned long long)res->new_val);
		}
		if (!err)
			cc->ids[kept++] = cc->ids[i];
	}
	free(cs);
	if (err)
		return err;
	if (kept)
		cc->cnt = kept;
	else
		err = calc_relo(c, ls->kind, ls, NULL, res);
	return err;
}

static int resolve(struct core_ctx *c, const struct bpfvet_core_relo *r,
		   struct core_res *res)
{
	const struct btf_type *lt = btf__type_by_id(c->local, r->type_id);
	const char *lname = lt ? btf__name_by_offset(c->local, lt->name_off) : NULL;
	const char *access = btf__name_by_offset(c->local, r->access_str_off);
	struct core_cands *cc = NULL;
	struct core_spec *ls;
	int err;

	if (!lname)
		return why(c, -EINVAL, "bad local type [%u]", r->type_id);
	if (r->kind != CORE_TYPE_ID_LOCAL) {
		err = cands_of(c, r->type_id, &cc);
		if (err)
			return why(c, err, "target candidate search failed for [%u] %s",
				   r->type_id, lname[0] ? lname : "<anon>");
	}
	ls = malloc(sizeof(*ls));
	if (!ls)
		return why(c, -ENOMEM, "out of memory");
	err = core_spec_parse(c->local, r->type_id, access, r->kind, ls);
	if (err) {
		why(c, -EINVAL, "parsing [%u] %s + %s failed: %d", r->type_id,
		    lname[0] ? lname : "<anon>", access ? access : "<?>", err);
		err = -EINVAL;
	} else if (r->kind == CORE_TYPE_ID_LOCAL) {
		memset(res, 0, sizeof(*res));
		res->orig_val = res->new_val = ls->root_id;
	} else {
		err = resolve_cands(c, ls, cc, res);
	}
	free(ls);
	return err;
}

/* ------------------------------------------------------------------ */
/* Patching                                                            */
/* ------------------------------------------------------------------ */

static void poison(struct bpfvet_insn *insn)
{
	int i, n = insn_is_ldimm64(insn) ? 2 : 1;

	for (i = 0; i < n; i++) {
		insn[i].code = BPF_JMP | BPF_CALL;
		insn[i].dst_reg = 0;
		insn[i].src_reg = 0;
		insn[i].off = 0;
		insn[i].imm = POISON_IMM;
	}
}

static int size_code(uint32_t bytes)
{
	switch (bytes) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	case 8: return BPF_DW;
	default: return -1;
	}
}

static uint32_t size_bytes(const struct bpfvet_insn *insn)
{
	switch (BPF_SIZE(insn->code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static int patch_alu(struct core_ctx *c, struct bpfvet_insn *insn,
		     const struct core_res *res)
{
	if (BPF_SRC(insn->code) != BPF_K)
		return why(c, -EINVAL, "cannot relocate an ALU instruction with a register operand");
	if (res->poison) {
		poison(insn);
		return 0;
	}
	if (res->validate && (uint64_t)(int64_t)insn->imm != res->orig_val)
		return why(c, -EINVAL, "unexpected ALU value: got %u, exp %llu -> %llu",
			    (uint32_t)insn->imm, (unsigned long long)res->orig_val,
			    (unsigned long long)res->new_val);
	insn->imm = (int32_t)res->new_val;
	return 0;
}

static int patch_mem(struct core_ctx *c, struct bpfvet_insn *insn,
		     const struct core_res *res)
{
	int code;

	if (res->poison) {
		poison(insn);
		return 0;
	}
	if (res->validate && (uint64_t)(int64_t)insn->off != res->orig_val)
		return why(c, -EINVAL, "unexpected LDX/ST/STX offset: got %u, exp %llu -> %llu",
			    (uint32_t)insn->off, (unsigned long long)res->orig_val,
			    (unsigned long long)res->new_val);
	if (res->new_val > SHRT_MAX)
		return why(c, -ERANGE, "LDX/ST/STX offset too big: %llu",
			    (unsigned long long)res->new_val);
	if (res->bad_size_change) {
		/* Reading a field that changed width and sign: refuse it at
		 * run time rather than read garbage. */
		poison(insn);
		return 0;
	}
	insn->off = (int16_t)res->new_val;
	if (res->new_sz == res->orig_sz)
		return 0;
	if (size_bytes(insn) != res->orig_sz)
		return why(c, -EINVAL, "LDX/ST/STX size %u, expected %u", size_bytes(insn),
			    res->orig_sz);
	code = size_code(res->new_sz);
	if (code < 0)
		return why(c, -EINVAL, "invalid new LDX/ST/STX size %u", res->new_sz);
	insn->code = (uint8_t)(BPF_MODE(insn->code) | code | BPF_CLASS(insn->code));
	return 0;
}

static int patch_ldimm64(struct core_ctx *c, struct bpfvet_insn *insn,
			 const struct core_res *res)
{
	uint64_t imm;

	if (!insn_is_ldimm64(insn) || insn[0].src_reg || insn[0].off || insn[1].code ||
	    insn[1].dst_reg || insn[1].src_reg || insn[1].off)
		return why(c, -EINVAL, "LD_IMM64 has an unexpected form");
	if (res->poison) {
		poison(insn);
		return 0;
	}
	imm = (uint32_t)insn[0].imm | ((uint64_t)(uint32_t)insn[1].imm << 32);
	if (res->validate && imm != res->orig_val)
		return why(c, -EINVAL, "unexpected LD_IMM64 value: got %llu, exp %llu -> %llu",
			    (unsigned long long)imm, (unsigned long long)res->orig_val,
			    (unsigned long long)res->new_val);
	insn[0].imm = (int32_t)(uint32_t)res->new_val;
	insn[1].imm = (int32_t)(uint32_t)(res->new_val >> 32);
	return 0;
}

static int patch(struct core_ctx *c, struct bpfvet_insn *insn, const struct core_res *res)
{
	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		return patch_alu(c, insn, res);
	case BPF_LDX:
	case BPF_ST:
	case BPF_STX:
		return patch_mem(c, insn, res);
	case BPF_LD:
		return patch_ldimm64(c, insn, res);
	default:
		return why(c, -EINVAL, "cannot relocate instruction code 0x%02x", insn->code);
	}
}

/* ------------------------------------------------------------------ */
/* The loader step                                                     */
/* ------------------------------------------------------------------ */

static uint32_t rd32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static int fail(struct loader *ld, struct core_ctx *c, struct func *fn, uint32_t idx,
		size_t insn, int err)
{
	const char *text;
	int ret;

	if (err == -ENOMEM)
		return errbuf_set(ld->eb, err, "out of memory");
	ret = ld_problem(ld, &text, err, "program %s: CO-RE relocation #%u at insn %zu: %s",
			 fn->name, idx, insn, c->why[0] ? c->why : "failed");
	if (!ret && !fn->problem)
		fn->problem = text;
	return ret;
}

static int apply_one(struct loader *ld, struct core_ctx *c, struct func *fn,
		     const struct bpfvet_core_relo *r, uint32_t idx)
{
	size_t at = r->insn_off - fn->sec_insn_off;
	struct bpfvet_insn *insn = &fn->insns[at];
	struct core_res res;
	int err;

	c->why[0] = '\0';
	if (insn_is_ldimm64(insn) && at + 1 >= fn->insn_cnt)
		return fail(ld, c, fn, idx, at, why(c, -EINVAL, "LD_IMM64 is truncated"));
	if (!c->targ && r->kind != CORE_TYPE_ID_LOCAL) {
		fn->core_pending = true;
		return 0;
	}
	err = resolve(c, r, &res);
	if (!err)
		err = patch(c, insn, &res);
	return err ? fail(ld, c, fn, idx, at, err) : 0;
}

static int apply_group(struct loader *ld, struct core_ctx *c, const struct ext_info *info,
		       const struct ext_info_sec *g)
{
	uint32_t i;
	int err;

	for (i = 0; i < g->cnt; i++) {
		const uint8_t *rec = g->recs + (size_t)i * info->rec_size;
		struct bpfvet_core_relo r = {
			.insn_off = rd32(rec), .type_id = rd32(rec + 4),
			.access_str_off = rd32(rec + 8), .kind = rd32(rec + 12),
		};
		struct func *fn;

		if (r.insn_off % INSN_SZ)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: CO-RE relocation #%u: misaligned instruction offset %u",
					  ld->elf.secs[g->elf_sec].name, i, r.insn_off);
		r.insn_off /= INSN_SZ;
		/* Code of an overridden weak function is never loaded. */
		fn = funcs_find(ld, g->elf_sec, r.insn_off);
		if (!fn)
			continue;
		err = apply_one(ld, c, fn, &r, i);
		if (err)
			return err;
	}
	return 0;
}

int core_apply(struct loader *ld, const struct btf *targ)
{
	const struct ext_info *info = &ld->ext.core;
	struct core_ctx c = { .local = ld->obj->btf, .targ = targ };
	size_t i;
	int err = 0;

	if (!ld->ext.present || !info->sec_cnt)
		return 0;
	c.cache_cnt = btf__type_cnt(c.local);
	c.cache = calloc(c.cache_cnt, sizeof(*c.cache));
	if (!c.cache)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	for (i = 0; i < info->sec_cnt && !err; i++)
		if (info->secs[i].elf_sec)
			err = apply_group(ld, &c, info, &info->secs[i]);
	for (i = 0; i < c.cache_cnt; i++)
		free(c.cache[i].ids);
	free(c.cache);
	return err;
}
