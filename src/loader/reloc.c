/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Relocation, following libbpf: ELF relocations are recorded per function,
 * then each entry program is built by appending, depth first in call
 * order, every .text subprogram it reaches (each program gets its own
 * copy), fixing call and callback offsets, and finally rewriting map,
 * global-data and extern references into the conventions of object.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "steps.h"
#include "progtype.h"
#include "base/uapi.h"

static bool is_call(const struct bpfvet_insn *insn)
{
	return insn->code == (BPF_JMP | BPF_CALL);
}

static bool is_subprog_call(const struct bpfvet_insn *insn)
{
	return is_call(insn) && insn->src_reg == BPF_PSEUDO_CALL &&
	       insn->dst_reg == 0 && insn->off == 0;
}

static bool is_pseudo_func(const struct bpfvet_insn *insn)
{
	return insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
}

/* ------------------------------------------------------------------ */
/* Recording                                                           */
/* ------------------------------------------------------------------ */

struct relo_ctx {
	struct loader *ld;
	struct func *fn;
	size_t insn;		/* inside fn */
	const Elf64_Sym *sym;
	size_t sym_idx;
	const char *sym_name;
	struct relo *out;
};

static bool sym_is_subprog(const struct loader *ld, const Elf64_Sym *sym)
{
	int bind = ELF64_ST_BIND(sym->st_info);
	int type = ELF64_ST_TYPE(sym->st_info);

	if (!ld->text_shndx || sym->st_shndx != ld->text_shndx)
		return false;
	if (bind == STB_LOCAL && type == STT_SECTION)
		return true;
	return (bind == STB_GLOBAL || bind == STB_WEAK) && type == STT_FUNC;
}

/* A relocation libbpf cannot resolve: fatal, or (lenient open) left as
 * compiled, spoiling every program that contains the function. */
static int bad(struct relo_ctx *c, const char *why)
{
	const char *text;
	int err = ld_problem(c->ld, &text, -EINVAL,
			     "program %s: relocation at insn %zu against %s: %s",
			     c->fn->name, c->insn, c->sym_name, why);

	if (err)
		return err;
	c->out->kind = RELO_UNRESOLVED;
	if (!c->fn->problem)
		c->fn->problem = text;
	return 0;
}

static int record_extern(struct relo_ctx *c, const struct bpfvet_insn *insn)
{
	const struct ld_extern *ext;
	size_t idx;

	ext = externs_by_sym(c->ld, c->sym_idx, &idx);
	if (!ext)
		return bad(c, "unknown extern");
	if (ext->type == EXT_UNRESOLVED) {
		c->out->kind = RELO_UNRESOLVED;
		/* cilium/ebpf keeps a load of an extern it cannot resolve as
		 * the compiler's constant (usually 0) and loads the program;
		 * a call to one is an unsatisfied reference. */
		if (c->ld->obj->conv == BPFVET_CONV_CILIUM && ext->no_btf && !is_call(insn))
			return conv_warn_libbpf(c->ld, "program %s: insn %zu loads extern %s, "
						"which has no BTF, as the constant the compiler "
						"wrote", c->fn->name, c->insn, ext->name);
		if (c->fn->problem)
			return 0;
		/* The other loaders link calls themselves: one to a function
		 * no section defines is theirs to refuse, at this insn. */
		if (c->ld->obj->conv != BPFVET_CONV_LIBBPF && is_call(insn))
			return ld_problem(c->ld, &c->fn->problem, -ENOENT,
					  "section %s: insn %zu of %s calls %s, which nothing "
					  "defines", c->ld->elf.secs[c->fn->sec_idx].name,
					  c->insn, c->fn->name, ext->name);
		c->fn->problem = ext->problem;
		return 0;
	}
	c->out->kind = is_call(insn) ? RELO_EXTERN_CALL : RELO_EXTERN_LD64;
	c->out->ext_idx = idx;
	return 0;
}

static int record_call(struct relo_ctx *c, const struct bpfvet_insn *insn)
{
	if (insn->src_reg != BPF_PSEUDO_CALL)
		return bad(c, "call is not a bpf-to-bpf call");
	if (!c->ld->text_shndx || c->sym->st_shndx != c->ld->text_shndx) {
		int err;

		/* cilium/ebpf links in functions of any executable section. */
		if (c->ld->obj->conv != BPFVET_CONV_CILIUM ||
		    c->ld->sec_kind[c->sym->st_shndx] != SEC_CODE)
			return bad(c, "callee is not in .text");
		err = conv_warn_libbpf(c->ld, "program %s: insn %zu calls a function of "
				       "section %s, not of .text", c->fn->name, c->insn,
				       c->ld->elf.secs[c->sym->st_shndx].name);
		if (err)
			return err;
	}
	if (c->sym->st_value % INSN_SZ)
		return bad(c, "misaligned callee");
	c->out->kind = RELO_CALL;
	c->out->sym_off = c->sym->st_value;
	c->out->sec_idx = c->sym->st_shndx;
	return 0;
}

static int find_map_at(const struct loader *ld, size_t sec_idx, uint64_t off)
{
	size_t i;

	for (i = 0; i < ld->obj->map_cnt; i++) {
		const struct bpfvet_map *m = &ld->obj->maps[i];

		if ((m->origin == BPFVET_MAP_LEGACY || m->origin == BPFVET_MAP_BTF) &&
		    m->sec_idx == (int)sec_idx && m->sec_off == off)
			return (int)i;
	}
	return -1;
}

static int find_data_map(const struct loader *ld, size_t sec_idx)
{
	size_t i;

	for (i = 0; i < ld->obj->map_cnt; i++) {
		const struct bpfvet_map *m = &ld->obj->maps[i];

		if (m->origin == BPFVET_MAP_DATA && m->sec_idx == (int)sec_idx)
			return (int)i;
	}
	return -1;
}

static int record_ldimm64(struct relo_ctx *c, struct bpfvet_insn *insn)
{
	struct loader *ld = c->ld;
	size_t shndx = c->sym->st_shndx;
	uint64_t off;
	int idx;

	if (sym_is_subprog(ld, c->sym)) {
		if (c->sym->st_value % INSN_SZ || insn->imm % INSN_SZ)
			return bad(c, "misaligned function address");
		c->out->kind = RELO_SUBPROG_ADDR;
		c->out->sym_off = c->sym->st_value;
		/* Marks the instruction as a callback address, as libbpf does
		 * before relocating calls. */
		insn->src_reg = BPF_PSEUDO_FUNC;
		return 0;
	}
	if (shndx == ld->arena_shndx && ld->arena_shndx) {
		if (ld->arena_map < 0)
			return bad(c, "arena data without an arena map");
		c->out->kind = RELO_DATA;
		c->out->map_idx = (size_t)ld->arena_map;
		c->out->sym_off = c->sym->st_value;
		return 0;
	}
	switch (ld->sec_kind[shndx]) {
	case SEC_LEGACY_MAPS:
	case SEC_BTF_MAPS:
		/* A static map may be reached through its section symbol,
		 * with the offset in the instruction. */
		off = c->sym->st_value;
		if (ELF64_ST_TYPE(c->sym->st_info) == STT_SECTION)
			off += (uint32_t)insn->imm;
		idx = find_map_at(ld, shndx, off);
		if (idx < 0)
			return bad(c, "no map at that offset");
		c->out->kind = RELO_MAP;
		c->out->map_idx = (size_t)idx;
		return 0;
	case SEC_DATA:
	case SEC_RODATA:
	case SEC_BSS:
		idx = find_data_map(ld, shndx);
		if (idx < 0)
			return bad(c, "no map for that data section");
		c->out->kind = RELO_DATA;
		c->out->map_idx = (size_t)idx;
		c->out->sym_off = c->sym->st_value;
		return 0;
	default:
		return bad(c, "symbol is not in a map, data or code section");
	}
}

static int record(struct relo_ctx *c)
{
	struct bpfvet_insn *insn = &c->fn->insns[c->insn];
	size_t shndx = c->sym->st_shndx;

	if (!is_call(insn) && !insn_is_ldimm64(insn))
		return errbuf_set(c->ld->eb, -EINVAL,
				  "program %s: relocation against %s on insn %zu (code 0x%02x), which is neither LD_IMM64 nor CALL",
				  c->fn->name, c->sym_name, c->insn, insn->code);
	if (insn_is_ldimm64(insn) && c->insn + 1 >= c->fn->insn_cnt)
		return errbuf_set(c->ld->eb, -EINVAL,
				  "program %s: relocation at insn %zu against %s: LD_IMM64 is cut off by the function end",
				  c->fn->name, c->insn, c->sym_name);
	if (sym_is_extern(c->sym))
		return record_extern(c, insn);
	if (is_call(insn))
		return record_call(c, insn);
	if (shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
		return bad(c, "symbol is undefined or special (uninitialised global?)");
	return record_ldimm64(c, insn);
}

static int add_relo(struct loader *ld, struct func *fn, size_t insn,
		    size_t sym_idx, const Elf64_Sym *sym)
{
	struct relo *arr = realloc(fn->relos, (fn->relo_cnt + 1) * sizeof(*arr));
	const char *name = elf_file_sym_name(&ld->elf, sym);
	struct relo_ctx c;
	int err;

	if (!arr)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	fn->relos = arr;
	memset(&arr[fn->relo_cnt], 0, sizeof(*arr));
	c.ld = ld;
	c.fn = fn;
	c.insn = insn;
	c.sym = sym;
	c.sym_idx = sym_idx;
	c.sym_name = name ? name : "?";
	c.out = &arr[fn->relo_cnt];
	c.out->insn = insn;
	c.out->seq = fn->relo_cnt;
	err = record(&c);
	if (!err)
		fn->relo_cnt++;
	return err;
}

static int collect_prog_relos(struct loader *ld, const struct elf_sec *rsec)
{
	size_t targ = rsec->shdr.sh_info, i, n = elf_file_rel_cnt(rsec);
	const struct elf_sec *tsec = &ld->elf.secs[targ];
	size_t outside = 0, first_outside = 0;
	Elf64_Rel rel;
	int err;

	for (i = 0; i < n; i++) {
		size_t sym_idx;
		const Elf64_Sym *sym;
		struct func *fn;

		elf_file_rel(rsec, i, &rel);
		sym_idx = ELF64_R_SYM(rel.r_info);
		sym = elf_file_sym(&ld->elf, sym_idx);
		if (!sym)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: symbol %zu out of range (%zu symbols)",
					  rsec->name, i, sym_idx, ld->elf.sym_cnt);
		if (sym->st_shndx >= ld->elf.sec_cnt && sym->st_shndx < SHN_LORESERVE)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: symbol %zu points to bad section %u",
					  rsec->name, i, sym_idx, sym->st_shndx);
		if (rel.r_offset % INSN_SZ || rel.r_offset >= tsec->size)
			return errbuf_set(ld->eb, -EINVAL,
					  "%s: relocation %zu: offset %llu is outside %s or misaligned",
					  rsec->name, i, (unsigned long long)rel.r_offset,
					  tsec->name);
		/* Code outside every function (an overridden weak function)
		 * is never loaded: libbpf skips its relocations too. */
		fn = funcs_find(ld, targ, rel.r_offset / INSN_SZ);
		if (!fn) {
			if (!outside++)
				first_outside = rel.r_offset / INSN_SZ;
			continue;
		}
		err = add_relo(ld, fn, rel.r_offset / INSN_SZ - fn->sec_insn_off,
			       sym_idx, sym);
		if (err)
			return err;
	}
	if (outside)
		return ld_warning(ld, "%s: %zu relocation%s of code outside every function "
				  "(from insn %zu of %s), which no program holds", rsec->name,
				  outside, outside == 1 ? "" : "s", first_outside, tsec->name);
	return 0;
}

static int cmp_relos(const void *pa, const void *pb)
{
	const struct relo *a = pa, *b = pb;

	if (a->insn != b->insn)
		return a->insn < b->insn ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

/* Two relocations of one instruction: only a broken toolchain writes
 * them. The first in the file applies; the others are named. */
static int warn_duplicates(struct loader *ld, const struct func *fn)
{
	size_t dups = 0, first = 0;

	for (size_t j = 1; j < fn->relo_cnt; j++) {
		if (fn->relos[j].insn != fn->relos[j - 1].insn)
			continue;
		if (!dups++)
			first = fn->relos[j].insn;
	}
	if (!dups)
		return 0;
	return ld_warning(ld, "section %s: %s has %zu relocation%s of an instruction already "
			  "relocated (first at insn %zu): the first in the file applies",
			  ld->elf.secs[fn->sec_idx].name, fn->name, dups, dups == 1 ? "" : "s",
			  first);
}

int relos_collect(struct loader *ld)
{
	size_t i;
	int err;

	for (i = 1; i < ld->elf.sec_cnt; i++) {
		const struct elf_sec *rsec = &ld->elf.secs[i];
		size_t targ = rsec->shdr.sh_info;

		if (ld->sec_kind[i] != SEC_RELO)
			continue;
		if (ld->sec_kind[targ] == SEC_BTF_MAPS)
			err = maps_collect_btf_relos(ld, rsec);
		else if (ld->sec_kind[targ] == SEC_CODE)
			err = collect_prog_relos(ld, rsec);
		else if (ld->sec_kind[targ] == SEC_STRUCT_OPS)
			err = struct_ops_collect_relos(ld, rsec);
		else
			err = 0;
		if (err)
			return err;
	}
	for (i = 0; i < ld->func_cnt; i++) {
		if (!ld->funcs[i].relo_cnt)
			continue;
		qsort(ld->funcs[i].relos, ld->funcs[i].relo_cnt, sizeof(struct relo), cmp_relos);
		err = warn_duplicates(ld, &ld->funcs[i]);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Building programs                                                   */
/* ------------------------------------------------------------------ */

struct frame {
	struct func *fn;
	size_t next;		/* next instruction to examine */
};

struct build {
	struct loader *ld;
	struct bpfvet_program *prog;
	struct func **order;	/* appended functions, entry first */
	size_t order_cnt;
	struct frame *stack;
	size_t depth;
};

static const struct relo *find_relo(const struct func *fn, size_t insn)
{
	size_t lo = 0, hi = fn->relo_cnt;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (fn->relos[mid].insn < insn)
			lo = mid + 1;
		else if (fn->relos[mid].insn > insn)
			hi = mid;
		else
			return &fn->relos[mid];
	}
	return NULL;
}

static int append_func(struct build *b, struct func *fn)
{
	struct bpfvet_program *prog = b->prog;
	struct bpfvet_insn *insns;

	insns = realloc(prog->insns, (prog->insn_cnt + fn->insn_cnt) * sizeof(*insns));
	if (!insns)
		return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	prog->insns = insns;
	memcpy(insns + prog->insn_cnt, fn->insns, fn->insn_cnt * sizeof(*insns));
	fn->sub_insn_off = prog->insn_cnt;
	fn->appended = true;
	if (fn->problem && !prog->problem)
		prog->problem = fn->problem;
	prog->core_pending |= fn->core_pending;
	prog->insn_cnt += fn->insn_cnt;
	b->order[b->order_cnt++] = fn;
	b->stack[b->depth].fn = fn;
	b->stack[b->depth].next = 0;
	b->depth++;
	return btf_ext_append(b->ld, prog, fn);
}

/* Which .text function a call or callback address at fn's insn i means. */
static int call_target(struct build *b, struct func *fn, size_t i,
		       const struct bpfvet_insn *insn, struct func **target)
{
	const struct relo *r = find_relo(fn, i);
	long long idx;
	size_t sec;

	if (r && r->kind != RELO_CALL && r->kind != RELO_SUBPROG_ADDR)
		return errbuf_set(b->ld->eb, -EINVAL,
				  "program %s: unexpected relocation on call insn %zu of %s",
				  b->prog->name, i, fn->name);
	if (r && r->kind == RELO_CALL)
		/* Global callees: imm is -1; static ones: relative to the
		 * start of .text through the section symbol. */
		idx = (long long)(r->sym_off / INSN_SZ) + insn->imm + 1;
	else if (r)
		idx = ((long long)r->sym_off + insn->imm) / INSN_SZ;
	else if (is_pseudo_func(insn))
		return errbuf_set(b->ld->eb, -EINVAL,
				  "program %s: callback address at insn %zu of %s has no relocation",
				  b->prog->name, i, fn->name);
	else
		idx = (long long)(fn->sec_insn_off + i) + insn->imm + 1;
	sec = r && r->kind == RELO_CALL ? r->sec_idx : b->ld->text_shndx;
	*target = idx >= 0 && sec ? funcs_find(b->ld, sec, (size_t)idx) : NULL;
	if (!*target)
		return errbuf_set(b->ld->eb, -EINVAL,
				  "program %s: call at insn %zu of %s goes to no function of %s",
				  b->prog->name, i, fn->name,
				  sec ? b->ld->elf.secs[sec].name : ".text");
	return 0;
}

/* One step of the depth-first walk: examine the next instruction of the
 * function on top of the stack. */
static int reloc_step(struct build *b)
{
	struct frame *fr = &b->stack[b->depth - 1];
	struct func *fn = fr->fn, *target;
	size_t i = fr->next++;
	struct bpfvet_insn *insn = &b->prog->insns[fn->sub_insn_off + i];
	const struct relo *r;
	int err;

	if (!is_subprog_call(insn) && !is_pseudo_func(insn))
		return 0;
	r = find_relo(fn, i);
	if (r && (r->kind == RELO_EXTERN_CALL || r->kind == RELO_UNRESOLVED))
		return 0;
	err = call_target(b, fn, i, insn, &target);
	if (err)
		return err;
	if (!target->appended) {
		err = append_func(b, target);
		if (err)
			return err;
	}
	insn = &b->prog->insns[fn->sub_insn_off + i];
	insn->imm = (int32_t)((long long)target->sub_insn_off -
			      (long long)(fn->sub_insn_off + i) - 1);
	return 0;
}

static int reloc_calls(struct build *b)
{
	int err;

	while (b->depth) {
		struct frame *fr = &b->stack[b->depth - 1];

		if (fr->next >= fr->fn->insn_cnt) {
			b->depth--;
			continue;
		}
		err = reloc_step(b);
		if (err)
			return err;
	}
	return 0;
}

/* The kernel's exception callback, named by a BTF decl tag
 * "exception_callback:NAME" on the entry function, must be appended even
 * though nothing calls it. */
static int exception_cb(struct build *b, struct func **cb)
{
	struct loader *ld = b->ld;
	const struct btf *btf = ld->obj->btf;
	static const char pfx[] = "exception_callback:";
	uint32_t i, n;

	*cb = NULL;
	if (!btf)
		return 0;
	n = btf__type_cnt(btf);
	for (i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i), *f;
		const char *tag, *fname;
		size_t j;

		if (!t || !btf_is_decl_tag(t) || btf_decl_tag(t)->component_idx != -1)
			continue;
		tag = btf__name_by_offset(btf, t->name_off);
		if (!tag || strncmp(tag, pfx, sizeof(pfx) - 1))
			continue;
		f = btf__type_by_id(btf, t->type);
		if (!f || !btf_is_func(f) || btf_func_linkage(f) != BTF_FUNC_GLOBAL)
			return errbuf_set(ld->eb, -EINVAL,
					  "exception_callback tag is not on a global function");
		fname = btf__name_by_offset(btf, f->name_off);
		if (!fname || strcmp(fname, b->prog->name))
			continue;
		if (*cb) {	/* several callbacks: the verifier complains */
			*cb = NULL;
			return 0;
		}
		tag += sizeof(pfx) - 1;
		for (j = 0; j < ld->func_cnt; j++) {
			struct func *fn = &ld->funcs[j];

			if (!fn->in_text || strcmp(fn->name, tag))
				continue;
			if (!fn->sym_global || fn->hidden)
				return errbuf_set(ld->eb, -EINVAL,
						  "program %s: exception callback %s must be global and visible",
						  b->prog->name, tag);
			*cb = fn;
			break;
		}
		if (!*cb)
			return errbuf_set(ld->eb, -ENOENT,
					  "program %s: cannot find exception callback %s",
					  b->prog->name, tag);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Data references and externs                                         */
/* ------------------------------------------------------------------ */

static int prog_extern(struct build *b, const struct ld_extern *ext, size_t *idx)
{
	struct bpfvet_program *prog = b->prog;
	struct bpfvet_extern *arr, *e;
	size_t i;

	for (i = 0; i < prog->extern_cnt; i++) {
		if (!strcmp(prog->externs[i].name, ext->name)) {
			*idx = i;
			return 0;
		}
	}
	arr = realloc(prog->externs, (prog->extern_cnt + 1) * sizeof(*arr));
	if (!arr)
		return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	prog->externs = arr;
	e = &arr[prog->extern_cnt];
	memset(e, 0, sizeof(*e));
	e->name = strdup(ext->name);
	if (!e->name)
		return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	e->kind = ext->type == EXT_KCFG ? BPFVET_EXTERN_KCONFIG :
		  ext->is_func ? BPFVET_EXTERN_KFUNC : BPFVET_EXTERN_KSYM;
	e->btf_id = (uint32_t)ext->btf_id;
	e->weak = ext->weak;
	e->type_id = ext->type_id;
	e->kcfg_off = ext->kcfg_off;
	e->obj_idx = (uint32_t)(ext - b->ld->exts);
	*idx = prog->extern_cnt++;
	return 0;
}

static int add_ksym_ref(struct build *b, const struct bpfvet_insn *insn, size_t ext)
{
	struct bpfvet_program *prog = b->prog;
	struct bpfvet_ksym_ref *arr;

	arr = realloc(prog->ksym_refs, (prog->ksym_ref_cnt + 1) * sizeof(*arr));
	if (!arr)
		return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	prog->ksym_refs = arr;
	arr[prog->ksym_ref_cnt].insn = (uint32_t)(insn - prog->insns);
	arr[prog->ksym_ref_cnt].ext = (uint32_t)ext;
	prog->ksym_ref_cnt++;
	return 0;
}

static int apply_extern(struct build *b, const struct relo *r, struct bpfvet_insn *insn)
{
	const struct ld_extern *ext = &b->ld->exts[r->ext_idx];
	size_t idx;
	int err = prog_extern(b, ext, &idx);

	if (err)
		return err;
	if (r->kind == RELO_EXTERN_CALL) {
		insn->src_reg = BPF_PSEUDO_KFUNC_CALL;
		insn->imm = (int32_t)idx;
		insn->off = 0;
	} else if (ext->type == EXT_KCFG) {
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[0].imm = b->ld->kconfig_map;
		insn[1].imm = (int32_t)ext->kcfg_off;
	} else if (ext->type_id) {
		insn[0].src_reg = BPF_PSEUDO_BTF_ID;
		insn[0].imm = (int32_t)idx;
		insn[1].imm = 0;
	} else {
		/* Typeless ksym: the address itself, a plain constant (known
		 * from kallsyms, or made up); the kernel loader patches in the
		 * real one at the places recorded here. */
		insn[0].imm = (int32_t)(uint32_t)ext->ksym_addr;
		insn[1].imm = (int32_t)(uint32_t)(ext->ksym_addr >> 32);
		return add_ksym_ref(b, insn, idx);
	}
	return 0;
}

static int apply_relo(struct build *b, const struct func *fn, const struct relo *r)
{
	struct bpfvet_insn *insn = &b->prog->insns[fn->sub_insn_off + r->insn];

	switch (r->kind) {
	case RELO_MAP:
		insn->src_reg = BPF_PSEUDO_MAP_FD;
		insn->imm = (int32_t)r->map_idx;
		return 0;
	case RELO_DATA:
		insn[1].imm = (int32_t)((uint32_t)insn[0].imm + (uint32_t)r->sym_off);
		insn[0].src_reg = BPF_PSEUDO_MAP_VALUE;
		insn[0].imm = (int32_t)r->map_idx;
		return 0;
	case RELO_EXTERN_LD64:
	case RELO_EXTERN_CALL:
		return apply_extern(b, r, insn);
	case RELO_CALL:
	case RELO_SUBPROG_ADDR:
	case RELO_UNRESOLVED:
		return 0;
	}
	return 0;
}

static int reloc_data(struct build *b)
{
	size_t i, j;
	int err;

	for (i = 0; i < b->order_cnt; i++) {
		const struct func *fn = b->order[i];

		for (j = 0; j < fn->relo_cnt; j++) {
			if (j && fn->relos[j].insn == fn->relos[j - 1].insn)
				continue;	/* a duplicate: warned of */
			err = apply_relo(b, fn, &fn->relos[j]);
			if (err)
				return err;
		}
	}
	return 0;
}

static bool is_map_ldimm64(const struct bpfvet_insn *insn)
{
	return insn_is_ldimm64(insn) && (insn->src_reg == BPF_PSEUDO_MAP_FD ||
					 insn->src_reg == BPF_PSEUDO_MAP_VALUE);
}

static int set_insn_flag(struct build *b, size_t idx, uint8_t flag)
{
	struct bpfvet_program *prog = b->prog;

	if (!prog->insn_flags) {
		prog->insn_flags = calloc(prog->insn_cnt, 1);
		if (!prog->insn_flags)
			return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	}
	prog->insn_flags[idx] |= flag;
	return 0;
}

/* Map loads written by hand, with no relocation, carry a file descriptor
 * that the kernel would look up (and, in bpfvet, never find). */
static int mark_literal_fds(struct build *b)
{
	size_t i, j;
	int err;

	for (i = 0; i < b->order_cnt; i++) {
		const struct func *fn = b->order[i];

		for (j = 0; j + 1 < fn->insn_cnt; j++) {
			size_t idx = fn->sub_insn_off + j;
			const struct relo *r;

			if (!is_map_ldimm64(&b->prog->insns[idx]))
				continue;
			r = find_relo(fn, j);
			if (r && r->kind != RELO_UNRESOLVED) {
				j++;
				continue;
			}
			err = set_insn_flag(b, idx, INSN_F_LITERAL_FD);
			if (err)
				return err;
			j++;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Program metadata                                                    */
/* ------------------------------------------------------------------ */

static uint32_t func_info_type(const struct bpfvet_program *prog, size_t start)
{
	size_t i;

	for (i = 0; i < prog->func_info_cnt; i++)
		if (prog->func_info[i].insn_off == start)
			return prog->func_info[i].type_id;
	return 0;
}

static int fill_subprogs(struct build *b)
{
	struct bpfvet_program *prog = b->prog;
	const struct btf *btf = b->ld->obj->btf;
	size_t i;

	prog->subprogs = calloc(b->order_cnt, sizeof(*prog->subprogs));
	if (!prog->subprogs)
		return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
	for (i = 0; i < b->order_cnt; i++) {
		const struct func *fn = b->order[i];
		struct bpfvet_subprog *sp = &prog->subprogs[prog->subprog_cnt];
		const struct btf_type *t;

		sp->name = strdup(fn->name);
		if (!sp->name)
			return errbuf_set(b->ld->eb, -ENOMEM, "out of memory");
		prog->subprog_cnt++;
		sp->start = fn->sub_insn_off;
		sp->len = fn->insn_cnt;
		sp->btf_func_id = func_info_type(prog, sp->start);
		t = btf && sp->btf_func_id ? btf__type_by_id(btf, sp->btf_func_id) : NULL;
		if (t && btf_is_func(t))
			sp->global = btf_func_linkage(t) == BTF_FUNC_GLOBAL;
		else
			sp->global = fn->sym_global && !fn->hidden;
	}
	return 0;
}

static int set_type(struct loader *ld, struct bpfvet_program *prog)
{
	const char *sec = prog->sec_name;
	struct sec_type st = { 0 };
	bool known = progtype_from_section(sec, &st);

	prog->type_known = known;
	if (known && st.target_off) {
		prog->attach_target = strdup(sec + st.target_off);
		if (!prog->attach_target)
			return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	}
	if (ld->have_override && (!known || st.prog_type != ld->override_type)) {
		st.prog_type = ld->override_type;
		st.expected_attach_type = ld->override_from_sec ? ld->override_attach : 0;
		st.prog_flags = ld->override_from_sec ? ld->override_flags : 0;
		prog->type_known = true;
	}
	prog->type = st.prog_type;
	prog->expected_attach_type = st.expected_attach_type;
	prog->prog_flags = st.prog_flags;
	return 0;
}

static int init_prog(struct loader *ld, struct bpfvet_program *prog,
		     const struct func *fn)
{
	const char *sec = ld->elf.secs[fn->sec_idx].name;

	prog->obj = ld->obj;
	prog->autoload = sec[0] != '?';
	if (sec[0] == '?')
		sec++;
	prog->name = strdup(fn->name);
	prog->sec_name = strdup(sec);
	if (!prog->name || !prog->sec_name)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	prog->sec_idx = (int)fn->sec_idx;
	prog->sec_insn_off = fn->sec_insn_off;
	return set_type(ld, prog);
}

static int build_one(struct build *b, struct func *entry)
{
	struct loader *ld = b->ld;
	struct func *cb;
	size_t i;
	int err;

	for (i = 0; i < ld->func_cnt; i++)
		ld->funcs[i].appended = false;
	b->order_cnt = 0;
	b->depth = 0;
	err = init_prog(ld, b->prog, entry);
	if (!err)
		err = append_func(b, entry);
	if (!err)
		err = reloc_calls(b);
	if (!err)
		err = exception_cb(b, &cb);
	if (!err && cb && !cb->appended) {
		err = append_func(b, cb);
		if (!err)
			err = reloc_calls(b);
	}
	if (!err)
		err = reloc_data(b);
	if (!err)
		err = mark_literal_fds(b);
	if (!err)
		err = fill_subprogs(b);
	return err;
}

int progs_build(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	struct build b = { .ld = ld };
	size_t i, n = 0;
	int err = 0;

	for (i = 0; i < ld->func_cnt; i++)
		n += ld->funcs[i].entry;
	if (!n)
		return 0;
	obj->progs = calloc(n, sizeof(*obj->progs));
	b.order = calloc(ld->func_cnt, sizeof(*b.order));
	b.stack = calloc(ld->func_cnt, sizeof(*b.stack));
	if (!obj->progs || !b.order || !b.stack) {
		err = errbuf_set(ld->eb, -ENOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < ld->func_cnt && !err; i++) {
		if (!ld->funcs[i].entry)
			continue;
		b.prog = &obj->progs[obj->prog_cnt++];
		err = build_one(&b, &ld->funcs[i]);
	}
out:
	free(b.order);
	free(b.stack);
	return err;
}
