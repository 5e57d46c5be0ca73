/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Printing register and stack state in the kernel's log format, e.g.
 * " R1=ctx() R2=fp-8 R10=fp0 fp-8=mmmm????". Level-2 traces print, after
 * each instruction, only what the instruction touched ("scratched").
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "state.h"

/* The name of a BTF type in a state, "?" without BTF. */
const char *btf_type_name_of(struct vet_env *env, const void *btf, uint32_t id)
{
	(void)env;
	if (!btf)
		return "?";
	return kbtf_name(btf, id);
}

static const char slot_chars[] = { '?', 'r', 'm', '0', 'd', 'i', 'f' };

static bool snum_is_decimal(int64_t v)
{
	return v >= -32768 && v <= 32767;
}

static void print_snum(struct vet_env *env, int64_t v)
{
	if (snum_is_decimal(v))
		verbose(env, "%" PRId64, v);
	else
		verbose(env, "%#" PRIx64, (uint64_t)v);
}

static void print_unum(struct vet_env *env, uint64_t v)
{
	if (v <= 65535)
		verbose(env, "%" PRIu64, v);
	else
		verbose(env, "%#" PRIx64, v);
}

/* The kind of a dynptr (a DYNPTR_TYPE_* flag), as the log names it. */
static const char *dynptr_kind_str(int kind)
{
	switch ((uint32_t)kind) {
	case DYNPTR_TYPE_LOCAL: return "local";
	case DYNPTR_TYPE_RINGBUF: return "ringbuf";
	case DYNPTR_TYPE_SKB: return "skb";
	case DYNPTR_TYPE_XDP: return "xdp";
	case DYNPTR_TYPE_SKB_META: return "skb_meta";
	default: return "<unknown>";
	}
}

/* Appends ",name=" (or "name=" first) to a parenthesised field list. */
static void field(struct vet_env *env, bool *first, const char *name)
{
	verbose(env, "%s%s", *first ? "" : ",", name);
	*first = false;
}

static void print_ptr_fields(struct vet_env *env, const struct reg_state *reg)
{
	uint32_t t = reg->type;
	bool first = true;
	char buf[256];

	if (reg->id) {
		field(env, &first, "id=");
		verbose(env, "%u", reg->id & ~BPF_ADD_CONST);
	}
	if (reg->id & BPF_ADD_CONST)
		verbose(env, "%+d", reg->off);
	if (reg->ref_obj_id) {
		field(env, &first, "ref_obj_id=");
		verbose(env, "%u", reg->ref_obj_id);
	}
	if (t & NON_OWN_REF)
		field(env, &first, "non_own_ref");
	if (reg_type_is_map(t) && reg->map_ptr) {
		if (reg->map_ptr->name && reg->map_ptr->name[0] && !reg->map_meta) {
			/* The kernel keeps BPF_OBJ_NAME_LEN - 1 characters. */
			field(env, &first, "map=");
			verbose(env, "%.15s", reg->map_ptr->name);
		}
		field(env, &first, "ks=");
		verbose(env, "%u,vs=%u", reg->map_ptr->key_size,
			reg->map_ptr->value_size);
	}
	if (t != SCALAR_VALUE && reg->off) {
		field(env, &first, "off=");
		print_snum(env, reg->off);
	}
	if (reg_type_is_pkt(t)) {
		field(env, &first, "r=");
		print_unum(env, (uint64_t)(int64_t)reg->range);
	}
	if (base_type(t) == PTR_TO_MEM) {
		field(env, &first, "sz=");
		print_unum(env, reg->mem_size);
	}
	if (t == CONST_PTR_TO_DYNPTR) {
		field(env, &first, "type=");
		verbose(env, "%s", dynptr_kind_str(reg->dynptr.kind));
	}
	if (tnum_is_const(reg->b.var_off)) {
		if (reg->b.var_off.value) {
			field(env, &first, "imm=");
			print_snum(env, (int64_t)reg->b.var_off.value);
		}
		return;
	}
	if (bounds_print(buf, sizeof(buf), &reg->b) > 0) {
		if (!first)
			verbose(env, ",");
		verbose(env, "%s", buf);
	}
}

/*
 * Before KVER_LOG_STATE_FORMAT (6.1): every number in decimal, each bound
 * by itself and printed only when it says more than the 64-bit bound of
 * its kind, pointers always with off= and a constant as imm= in bare hex.
 */
static void print_bounds_legacy(struct vet_env *env, const struct bounds *b,
				bool *first)
{
	char tn[48];

	if (b->smin != (int64_t)b->umin && b->smin != INT64_MIN) {
		field(env, first, "smin=");
		verbose(env, "%" PRId64, b->smin);
	}
	if (b->smax != (int64_t)b->umax && b->smax != INT64_MAX) {
		field(env, first, "smax=");
		verbose(env, "%" PRId64, b->smax);
	}
	if (b->umin) {
		field(env, first, "umin=");
		verbose(env, "%" PRIu64, b->umin);
	}
	if (b->umax != UINT64_MAX) {
		field(env, first, "umax=");
		verbose(env, "%" PRIu64, b->umax);
	}
	if (!tnum_is_unknown(b->var_off)) {
		tnum_print(tn, sizeof(tn), b->var_off);
		field(env, first, "var_off=");
		verbose(env, "%s", tn);
	}
	if (b->s32_min != b->smin && b->s32_min != INT32_MIN) {
		field(env, first, "s32_min=");
		verbose(env, "%d", b->s32_min);
	}
	if (b->s32_max != b->smax && b->s32_max != INT32_MAX) {
		field(env, first, "s32_max=");
		verbose(env, "%d", b->s32_max);
	}
	/* The 32-bit unsigned bounds printed as signed: 6.1 did so. */
	if (b->u32_min != b->umin && b->u32_min) {
		field(env, first, "u32_min=");
		verbose(env, "%d", (int32_t)b->u32_min);
	}
	if (b->u32_max != b->umax && b->u32_max != UINT32_MAX) {
		field(env, first, "u32_max=");
		verbose(env, "%d", (int32_t)b->u32_max);
	}
}

static void print_ptr_fields_legacy(struct vet_env *env, const struct reg_state *reg)
{
	uint32_t t = reg->type;
	bool first = true;

	if (reg->id & ~BPF_ADD_CONST) {
		field(env, &first, "id=");
		verbose(env, "%u", reg->id & ~BPF_ADD_CONST);
	}
	if (reg->ref_obj_id) {
		field(env, &first, "ref_obj_id=");
		verbose(env, "%u", reg->ref_obj_id);
	}
	if (t != SCALAR_VALUE) {
		field(env, &first, "off=");
		verbose(env, "%d", reg->off);
	}
	if (reg_type_is_pkt(t)) {
		field(env, &first, "r=");
		verbose(env, "%d", reg->range);
	} else if (reg_type_is_map(t) && reg->map_ptr) {
		field(env, &first, "ks=");
		verbose(env, "%u,vs=%u", reg->map_ptr->key_size,
			reg->map_ptr->value_size);
	}
	if (tnum_is_const(reg->b.var_off)) {
		field(env, &first, "imm=");
		verbose(env, "%" PRIx64, reg->b.var_off.value);
		return;
	}
	print_bounds_legacy(env, &reg->b, &first);
}

static void print_reg_legacy(struct vet_env *env, const struct reg_state *reg)
{
	uint32_t t = reg->type;
	char tb[64];

	if (t == SCALAR_VALUE && reg->precise)
		verbose(env, "P");
	if ((t == SCALAR_VALUE || t == PTR_TO_STACK) && tnum_is_const(reg->b.var_off)) {
		verbose(env, "%s%" PRId64, t == SCALAR_VALUE ? "" : "fp",
			(int64_t)(reg->b.var_off.value + (uint64_t)(int64_t)reg->off));
		return;
	}
	verbose(env, "%s", reg_type_name(env, tb, sizeof(tb), t));
	if (base_type(t) == PTR_TO_BTF_ID)
		verbose(env, "%s", btf_type_name_of(env, reg->btf, reg->btf_id));
	verbose(env, "(");
	print_ptr_fields_legacy(env, reg);
	verbose(env, ")");
}

/* A spilled register in a 6.1 slot: its type's name alone, or its value
 * when it is a constant scalar. */
static void print_spill_legacy(struct vet_env *env, const struct reg_state *reg)
{
	char tb[64];

	if (reg->type != SCALAR_VALUE) {
		verbose(env, "%s", reg_type_name(env, tb, sizeof(tb), reg->type));
		return;
	}
	if (reg->precise)
		verbose(env, "P");
	if (tnum_is_const(reg->b.var_off))
		verbose(env, "%" PRId64, (int64_t)reg->b.var_off.value);
}

void print_reg(struct vet_env *env, uint32_t frameno, const struct reg_state *reg)
{
	uint32_t t = reg->type;
	char tb[64];

	if (!env_has(env, KVER_LOG_STATE_FORMAT)) {
		print_reg_legacy(env, reg);
		return;
	}
	if (t == SCALAR_VALUE && reg->precise)
		verbose(env, "P");
	if (t == SCALAR_VALUE && tnum_is_const(reg->b.var_off)) {
		print_snum(env, (int64_t)reg->b.var_off.value);
		return;
	}
	verbose(env, "%s", reg_type_str(tb, sizeof(tb), t));
	if (t == PTR_TO_ARENA)
		return;
	if (t == PTR_TO_STACK) {
		if (frameno != reg->frameno)
			verbose(env, "[%u]", reg->frameno);
		if (tnum_is_const(reg->b.var_off)) {
			print_snum(env, (int64_t)reg->b.var_off.value + reg->off);
			return;
		}
	}
	if (base_type(t) == PTR_TO_BTF_ID)
		verbose(env, "%s", btf_type_name_of(env, reg->btf, reg->btf_id));
	verbose(env, "(");
	print_ptr_fields(env, reg);
	verbose(env, ")");
}

/* 6.1's mark of what was written since the last checkpoint; later
 * kernels print the states without it. */
static const char *written_mark(const struct vet_env *env, bool written)
{
	return written && !env_has(env, KVER_LOG_STATE_FORMAT) ? "_w" : "";
}

static void print_slot(struct vet_env *env, const struct func_state *f, int spi)
{
	const struct stack_slot *slot = stack_slot_at(f, spi);
	char types[BPF_REG_SIZE + 1];
	bool valid = false;
	int j;

	for (j = 0; j < BPF_REG_SIZE; j++) {
		uint8_t k = slot->slot_type[j];

		valid |= k != STACK_INVALID;
		types[j] = k < sizeof(slot_chars) ? slot_chars[k] : '?';
	}
	types[BPF_REG_SIZE] = 0;
	if (!valid)
		return;
	if (slot->slot_type[BPF_REG_SIZE - 1] == STACK_ITER) {
		const struct reg_state *r = &slot->spilled_ptr;

		/* The other slots of a multi-slot iterator print nothing. */
		if (r->ref_obj_id)
			verbose(env, " fp%d=iter_%s(ref_id=%u,state=%s,depth=%d)",
				(-spi - 1) * BPF_REG_SIZE, iter_type_str(r->iter.btf, r->iter.btf_id),
				r->ref_obj_id, iter_state_str(r->iter.state), r->iter.depth);
		return;
	}
	if (slot->slot_type[BPF_REG_SIZE - 1] == STACK_DYNPTR) {
		/* A dynptr prints once, when the walk up the stack meets its
		 * second (lower) slot, under its first slot's offset. */
		const struct reg_state *r = &stack_slot_at(f, spi + 1)->spilled_ptr;
		bool first = true;

		if (slot->spilled_ptr.dynptr.first_slot || spi + 1 >= f->allocated_stack / BPF_REG_SIZE)
			return;
		verbose(env, " fp%d%s=dynptr_%s(", (-spi - 2) * BPF_REG_SIZE,
			written_mark(env, f->written_slots >> (spi + 1) & 1),
			dynptr_kind_str(r->dynptr.kind));
		if (r->id) {
			verbose(env, "id=%u", r->id);
			first = false;
		}
		if (r->ref_obj_id) {
			verbose(env, "%sref_id=%u", first ? "" : ",", r->ref_obj_id);
			first = false;
		}
		/* The kernel's dynptr_id shares its bytes with first_slot,
		 * so the first slot it prints always shows "dynptr_id=1". */
		verbose(env, "%sdynptr_id=1)", first ? "" : ",");
		return;
	}
	if (slot->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL &&
	    !env_has(env, KVER_LOG_STATE_FORMAT)) {
		verbose(env, " fp%d%s=", (-spi - 1) * BPF_REG_SIZE,
			written_mark(env, f->written_slots >> spi & 1));
		print_spill_legacy(env, &slot->spilled_ptr);
		return;
	}
	if (slot->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL) {
		/* Bytes above a narrow spill print as their kinds first. */
		for (j = 0; j < BPF_REG_SIZE; j++)
			if (slot->slot_type[j] == STACK_SPILL)
				break;
		types[j] = 0;
		verbose(env, " fp%d=%s", (-spi - 1) * BPF_REG_SIZE, types);
		print_reg(env, f->frameno, &slot->spilled_ptr);
		return;
	}
	verbose(env, " fp%d%s=%s", (-spi - 1) * BPF_REG_SIZE,
		written_mark(env, f->written_slots >> spi & 1), types);
}

/* Since locks are references too (6.13, with the one resource check),
 * the kernel prints none when the first has no id, a lock of global
 * data that the path took first. Before, locks were no references. */
static void print_refs(struct vet_env *env, const struct vstate *st)
{
	bool locks_are_refs = env_has(env, KVER_MSG_RESOURCE_LEAK);
	bool first = true;

	if (locks_are_refs && st->acquired_refs && !st->refs[0].id)
		return;
	for (uint32_t i = 0; i < st->acquired_refs; i++) {
		if (!st->refs[i].id ||
		    (!locks_are_refs && (st->refs[i].kind & (REF_TYPE_LOCK | REF_TYPE_RES_LOCK))))
			continue;
		verbose(env, "%s%u", first ? " refs=" : ",", st->refs[i].id);
		first = false;
	}
}

void print_frame(struct vet_env *env, const struct vstate *st,
		 const struct func_state *f, bool all)
{
	int i;

	if (f->frameno)
		verbose(env, " frame%u:", f->frameno);
	for (i = 0; i < MAX_BPF_REG; i++) {
		if (f->regs[i].type == NOT_INIT)
			continue;
		if (!all && !(env->scratched_regs & (1u << i)))
			continue;
		verbose(env, " R%d%s=", i, written_mark(env, f->written_regs >> i & 1));
		print_reg(env, f->frameno, &f->regs[i]);
	}
	for (i = 0; i < f->allocated_stack / BPF_REG_SIZE; i++) {
		if (!all && !(env->scratched_slots & (1ull << i)))
			continue;
		print_slot(env, f, i);
	}
	if (st)
		print_refs(env, st);
	if (f->in_callback_fn)
		verbose(env, " cb");
	if (f->in_async_callback_fn)
		verbose(env, " async_cb");
	verbose(env, "\n");
	if (!all)
		scratch_clear(env);
}

void print_state(struct vet_env *env, const struct vstate *st)
{
	print_frame(env, st, st->frame[st->curframe], true);
}

/* Column of the ';' that starts a state delta after an insn of length len:
 * at least 40 characters in, rounded to 8, as the kernel aligns it. */
static size_t state_column(size_t len)
{
	size_t col = len + 5 < 40 ? 40 : len + 5;

	return (col + 7) / 8 * 8 - 2;
}

void print_insn_state(struct vet_env *env)
{
	const struct vstate *st = env->cur;

	if (env->prev_log_pos && env->prev_log_pos == log_pos(&env->log)) {
		size_t start = log_unterminate(&env->log);

		log_pad_to(&env->log, start,
			   state_column(env->prev_insn_print_len));
		verbose(env, ";");
	} else {
		verbose(env, "%u:", env->insn_idx);
	}
	print_frame(env, st, st->frame[st->curframe], false);
}

/* Index of the line-info entry covering insn_idx, or -1. */
static int find_linfo(const struct bpfvet_program *prog, uint32_t insn_idx)
{
	int found = -1;

	for (size_t i = 0; i < prog->line_info_cnt; i++) {
		if (prog->line_info[i].insn_off > insn_idx)
			break;
		found = (int)i;
	}
	return found;
}

void print_line_info(struct vet_env *env, uint32_t insn_idx)
{
	print_line_info_at(env, insn_idx, false);
}

void print_line_info_at(struct vet_env *env, uint32_t insn_idx, bool numbered)
{
	const struct bpfvet_program *prog = env->prog;
	const struct bpfvet_line_info *li;
	const char *line, *file, *base;
	int i;

	if (!log_enabled(&env->log) || !prog->obj || !prog->obj->btf)
		return;
	i = find_linfo(prog, insn_idx);
	if (i < 0 || i == env->prev_linfo)
		return;
	li = &prog->line_info[i];
	/* Entries that differ only in the column print once. */
	if (env->prev_linfo >= 0) {
		const struct bpfvet_line_info *p = &prog->line_info[env->prev_linfo];

		if (p->line_off == li->line_off && p->file_name_off == li->file_name_off &&
		    p->line_col >> 10 == li->line_col >> 10) {
			env->prev_linfo = i;
			return;
		}
	}
	env->prev_linfo = i;
	line = btf__name_by_offset(prog->obj->btf, li->line_off);
	file = btf__name_by_offset(prog->obj->btf, li->file_name_off);
	if (!line)
		return;
	while (*line == ' ' || *line == '\t')
		line++;
	base = file ? strrchr(file, '/') : NULL;
	base = base ? base + 1 : file;
	if (numbered)
		verbose(env, "%u: ", insn_idx);
	else
		verbose(env, "; ");
	verbose(env, "%s @ %s:%u\n", line, base ? base : "", li->line_col >> 10);
}
