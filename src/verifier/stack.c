/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The stack model: per-byte slot kinds and spilled registers, fixed and
 * variable offset reads and writes, and the initialisation checks for stack
 * memory handed to helpers. Byte `fp+off` lives in slot (-off-1)/8 at index
 * (-off-1)%8, so index 7 is the lowest address of a slot.
 */
#include <errno.h>
#include <stdio.h>

#include "verifier.h"

static struct func_state *frame_of(const struct vet_env *env, const struct reg_state *reg)
{
	return env->cur->frame[reg->frameno];
}

static bool slot_is_spill(const struct stack_slot *s)
{
	return s->slot_type[BPF_REG_SIZE - 1] == STACK_SPILL;
}

static bool slot_is_spilled_scalar(const struct stack_slot *s)
{
	return slot_is_spill(s) && s->spilled_ptr.type == SCALAR_VALUE;
}

/*
 * The constant a helper's map key on the stack holds, if the verifier
 * knows it: zero bytes, or one scalar spill of exactly the key's size
 * (then marked precise, since the verdict now depends on it). -EOPNOTSUPP
 * when unknown.
 */
int stack_const_key(struct vet_env *env, const struct reg_state *key, uint32_t key_size,
		    int64_t *value)
{
	const struct func_state *f;
	const struct stack_slot *s;
	uint32_t zero = 0, spill = 0;
	int64_t slot;
	int spi, off, err;

	if (!env->bpf_capable || key->type != PTR_TO_STACK || !tnum_is_const(key->b.var_off))
		return -EOPNOTSUPP;
	f = frame_of(env, key);
	slot = -((int64_t)key->off + (int64_t)key->b.var_off.value) - 1;
	if (slot < 0 || slot / BPF_REG_SIZE >= f->allocated_stack / BPF_REG_SIZE)
		return -EOPNOTSUPP;
	spi = (int)(slot / BPF_REG_SIZE);
	off = (int)(slot % BPF_REG_SIZE);
	s = stack_slot_at(f, spi);
	for (int i = off; i >= 0 && s->slot_type[i] == STACK_ZERO; i--)
		zero++;
	if (zero >= key_size) {
		*value = 0;
		return 0;
	}
	if (!slot_is_spilled_scalar(s))
		return -EOPNOTSUPP;
	for (int i = off; i >= 0 && s->slot_type[i] == STACK_SPILL; i--)
		spill++;
	if (spill != key_size || !tnum_is_const(s->spilled_ptr.b.var_off))
		return -EOPNOTSUPP;
	err = mark_slot_precision(env, key->frameno, spi);
	if (err < 0)
		return err;
	*value = (int64_t)s->spilled_ptr.b.var_off.value;
	return 0;
}

static bool slot_is_special(const struct stack_slot *s)
{
	switch (s->slot_type[BPF_REG_SIZE - 1]) {
	case STACK_SPILL:
	case STACK_DYNPTR:
	case STACK_ITER:
	case STACK_IRQ_FLAG:
		return true;
	default:
		return false;
	}
}

static void scrub_byte(uint8_t *t)
{
	if (*t != STACK_INVALID)
		*t = STACK_MISC;
}

static void mark_byte_misc(const struct vet_env *env, uint8_t *t)
{
	if (*t == STACK_ZERO)
		return;
	if (env->allow_ptr_leaks && *t == STACK_INVALID)
		return;
	*t = STACK_MISC;
}

static int reg_bit_width(const struct reg_state *reg)
{
	uint64_t v = reg->b.umax;
	int n = 0;

	while (v) {
		n++;
		v >>= 1;
	}
	return n;
}

void tnum_str(char *buf, size_t sz, struct tnum t)
{
	if (tnum_is_const(t)) {
		if (t.value <= 65535)
			snprintf(buf, sz, "%llu", (unsigned long long)t.value);
		else
			snprintf(buf, sz, "%#llx", (unsigned long long)t.value);
		return;
	}
	tnum_print(buf, sz, t);
}

static void save_register_state(const struct vet_env *env, struct func_state *f,
				int spi, const struct reg_state *reg, int size)
{
	struct stack_slot *s = stack_slot_at(f, spi);
	int i;

	s->spilled_ptr = *reg;
	for (i = BPF_REG_SIZE; i > BPF_REG_SIZE - size; i--)
		s->slot_type[i - 1] = STACK_SPILL;
	for (; i; i--)
		mark_byte_misc(env, &s->slot_type[i - 1]);
}

/* Grows the frame's stack to cover `size` bytes below fp and records the
 * subprogram's stack depth. */
int stack_grow(struct vet_env *env, struct func_state *f, int size)
{
	int err;

	size = (size + BPF_REG_SIZE - 1) / BPF_REG_SIZE * BPF_REG_SIZE;
	if (size <= f->allocated_stack)
		return 0;
	err = frame_grow_stack(env, f, size);
	if (err)
		return err;
	if (env->subprogs[f->subprogno].stack_depth < (uint32_t)size)
		env->subprogs[f->subprogno].stack_depth = (uint32_t)size;
	return 0;
}

/* How a message names an access to the stack made by an instruction. */
static const char *direct_access_words(enum access_type t)
{
	return t == ACCESS_READ ? " read from" : " write to";
}

/* A helper's access, which the kernel could not tell read from written
 * before KVER_MSG_HELPER_ACCESS_KIND. */
static const char *helper_access_words(const struct vet_env *env, enum access_type t)
{
	return env_has(env, KVER_MSG_HELPER_ACCESS_KIND) ? direct_access_words(t) :
							  " indirect access to";
}

static void print_var_off_bounds(struct vet_env *env, const char *what, uint32_t regno,
				 struct tnum var_off, int off, int size)
{
	char tn[48];

	tnum_str(tn, sizeof(tn), var_off);
	if (!env_has(env, KVER_MSG_VAR_OFF_STACK_OFF)) {
		verbose(env, "invalid variable-offset%s stack R%u var_off=%s size=%d\n",
			what, regno, tn, size);
		return;
	}
	verbose(env, "invalid variable-offset%s stack R%u var_off=%s off=%d size=%d\n",
		what, regno, tn, off, size);
}

static int stack_bounds(struct vet_env *env, uint32_t regno, int off, int size,
			enum access_type t, const char *what)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	struct func_state *f = frame_of(env, reg);
	int64_t min_off, max_off, min_valid;
	int err = 0;

	if (tnum_is_const(reg->b.var_off)) {
		min_off = (int64_t)reg->b.var_off.value + off;
		max_off = min_off + size;
	} else {
		if (reg->b.smax >= BPF_MAX_VAR_OFF || reg->b.smin <= -BPF_MAX_VAR_OFF) {
			verbose(env, "invalid unbounded variable-offset%s stack R%u\n",
				what, regno);
			return -EACCES;
		}
		min_off = reg->b.smin + off;
		max_off = reg->b.smax + off + size;
	}
	min_valid = (t == ACCESS_WRITE || env->allow_uninit_stack) ?
		    -MAX_BPF_STACK : -f->allocated_stack;
	if (min_off < min_valid || min_off > -1)
		err = -EACCES;
	if (!err && max_off > 0)
		err = -EINVAL;
	if (!err && size < 0)
		err = -EFAULT;
	if (err) {
		if (tnum_is_const(reg->b.var_off)) {
			verbose(env, "invalid%s stack R%u off=%d size=%d\n", what,
				regno, off, size);
		} else {
			print_var_off_bounds(env, what, regno, reg->b.var_off, off, size);
		}
		return err;
	}
	return stack_grow(env, f, (int)-min_off);
}

/* Nothing known at all: every range full and every bit unknown. */
static bool scalar_is_unbounded(const struct bounds *b)
{
	return tnum_is_unknown(b->var_off) && b->smin == INT64_MIN && b->smax == INT64_MAX &&
	       !b->umin && b->umax == UINT64_MAX && b->s32_min == INT32_MIN &&
	       b->s32_max == INT32_MAX && !b->u32_min && b->u32_max == UINT32_MAX;
}

/* Which scalars a store to an aligned slot spills, keeping their value.
 * Before 6.8 zeros became STACK_ZERO and unbounded scalars STACK_MISC. */
static bool scalar_spillable(const struct vet_env *env, const struct reg_state *reg)
{
	if (reg->type != SCALAR_VALUE || !env->bpf_capable)
		return false;
	if (env_has(env, KVER_SPILL_TRACKING))
		return true;
	return !reg_is_null_scalar(reg) && !scalar_is_unbounded(&reg->b);
}

int check_stack_bounds(struct vet_env *env, uint32_t regno, int off, int size,
		       enum access_type t)
{
	return stack_bounds(env, regno, off, size, t, direct_access_words(t));
}

static int write_fixed(struct vet_env *env, struct func_state *f, int off,
		       int size, int value_regno, uint32_t insn_idx)
{
	const struct bpfvet_insn *insn = &env->insns[insn_idx];
	struct func_state *cur = cur_frame(env);
	int slot = -off - 1, spi = slot / BPF_REG_SIZE, i, err;
	struct stack_slot *s = stack_slot_at(f, spi);
	struct reg_state *reg = value_regno >= 0 ? &cur->regs[value_regno] : NULL;
	bool is_st = BPF_CLASS(insn->code) == BPF_ST;
	uint32_t hist = hist_stack_flags(f->frameno, spi);

	if (!env->allow_ptr_leaks && slot_is_spill(s) && !slot_is_spilled_scalar(s) &&
	    size != BPF_REG_SIZE) {
		verbose(env, "attempt to corrupt spilled pointer on stack\n");
		return -EACCES;
	}
	err = destroy_dynptr_slot(env, f, spi);
	if (err)
		return err;
	scratch_slot(env, spi);
	if (size == BPF_REG_SIZE) {
		stack_live_write(env, f->frameno, 1ull << spi);
		f->written_slots |= 1ull << spi;
	}
	if (reg && !(off % BPF_REG_SIZE) && scalar_spillable(env, reg)) {
		bool fits = reg_bit_width(reg) <= 8 * size;

		if (fits && env_has(env, KVER_SPILL_TRACKING))
			assign_id_before_mov(env, reg);
		save_register_state(env, f, spi, reg, size);
		if (!fits)
			s->spilled_ptr.id = 0;
	} else if (!reg && !(off % BPF_REG_SIZE) && is_st && env->bpf_capable) {
		struct reg_state imm;

		reg_mark_known(&imm, (uint64_t)(int64_t)insn->imm);
		imm.precise = false;
		save_register_state(env, f, spi, &imm, size);
	} else if (reg && reg_type_is_spillable(reg->type)) {
		if (size != BPF_REG_SIZE) {
			verbose(env, "invalid size of register spill\n");
			return -EACCES;
		}
		if (f != cur && reg->type == PTR_TO_STACK) {
			verbose(env, "cannot spill pointers to stack into stack frame of the caller\n");
			return -EINVAL;
		}
		save_register_state(env, f, spi, reg, size);
	} else {
		uint8_t kind = STACK_MISC;

		s->spilled_ptr.type = NOT_INIT;
		if (slot_is_special(s))
			for (i = 0; i < BPF_REG_SIZE; i++)
				scrub_byte(&s->slot_type[i]);
		if ((reg && reg_is_null_scalar(reg)) || (!reg && is_st && insn->imm == 0)) {
			err = mark_chain_precision(env, value_regno);
			if (err)
				return err;
			kind = STACK_ZERO;
		}
		for (i = 0; i < size; i++)
			s->slot_type[(slot - i) % BPF_REG_SIZE] = kind;
		hist = 0;
	}
	if (hist)
		return push_jmp_history(env, env->cur, hist, 0);
	return 0;
}

static int write_var(struct vet_env *env, struct func_state *f, uint32_t ptr_regno,
		     int off, int size, int value_regno, uint32_t insn_idx)
{
	const struct bpfvet_insn *insn = &env->insns[insn_idx];
	struct reg_state *ptr = &cur_regs(env)[ptr_regno];
	struct reg_state *val = value_regno >= 0 ? &cur_regs(env)[value_regno] : NULL;
	int min_off = (int)(ptr->b.smin + off), max_off = (int)(ptr->b.smax + off + size);
	bool writing_zero = (val && reg_is_null_scalar(val)) ||
			    (!val && BPF_CLASS(insn->code) == BPF_ST && insn->imm == 0);
	bool zero_used = false;
	int i, err;

	for (i = min_off; i < max_off; i++) {
		err = destroy_dynptr_slot(env, f, (-i - 1) / BPF_REG_SIZE);
		if (err)
			return err;
	}
	for (i = min_off; i < max_off; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;
		struct stack_slot *s = stack_slot_at(f, spi);
		uint8_t *t = &s->slot_type[slot % BPF_REG_SIZE];
		uint8_t kind;

		scratch_slot(env, spi);
		if (!env->allow_ptr_leaks && *t != STACK_MISC && *t != STACK_ZERO) {
			verbose(env, "spilled ptr in range of var-offset stack write; insn %u, ptr off: %d",
				insn_idx, i);
			return -EINVAL;
		}
		if (writing_zero && *t == STACK_SPILL && slot_is_spilled_scalar(s) &&
		    tnum_equals_const(s->spilled_ptr.b.var_off, 0)) {
			zero_used = true;
			continue;
		}
		s->spilled_ptr.type = NOT_INIT;
		/* The spill is gone: its other bytes become plain data too. */
		if (slot_is_special(s))
			for (int k = 0; k < BPF_REG_SIZE; k++)
				scrub_byte(&s->slot_type[k]);
		kind = STACK_MISC;
		if (writing_zero && *t == STACK_ZERO) {
			kind = STACK_ZERO;
			zero_used = true;
		}
		if (*t == STACK_INVALID && !env->allow_uninit_stack) {
			verbose(env, "uninit stack in range of var-offset write prohibited for !root; insn %u, off: %d",
				insn_idx, i);
			return -EINVAL;
		}
		*t = kind;
	}
	if (zero_used)
		return mark_chain_precision(env, value_regno);
	return 0;
}

int check_stack_write(struct vet_env *env, uint32_t ptr_regno, int off, int size,
		      int value_regno, uint32_t insn_idx)
{
	struct reg_state *reg = &cur_regs(env)[ptr_regno];
	struct func_state *f = frame_of(env, reg);

	if (tnum_is_const(reg->b.var_off))
		return write_fixed(env, f, off + (int)reg->b.var_off.value, size,
				   value_regno, insn_idx);
	return write_var(env, f, ptr_regno, off, size, value_regno, insn_idx);
}

static void mark_const_zero(const struct vet_env *env, struct reg_state *reg)
{
	reg_mark_known(reg, 0);
	reg->precise = !env->bpf_capable;
}

/* dst = bytes [min_off, max_off) of a non-spill area: zero or unknown. */
static void read_into_reg(struct vet_env *env, struct func_state *src, int min_off,
			  int max_off, int dst_regno)
{
	struct reg_state *dst = &cur_regs(env)[dst_regno];
	int zeros = 0;

	for (int i = min_off; i < max_off; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;

		scratch_slot(env, spi);
		if (stack_slot_at(src, spi)->slot_type[slot % BPF_REG_SIZE] != STACK_ZERO)
			break;
		zeros++;
	}
	if (zeros == max_off - min_off)
		mark_const_zero(env, dst);
	else
		reg_mark_unknown(env, dst);
}

static bool byte_readable(const struct vet_env *env, uint8_t t, bool spill_ok)
{
	return t == STACK_MISC || t == STACK_ZERO || (spill_ok && t == STACK_SPILL) ||
	       (t == STACK_INVALID && env->allow_uninit_stack);
}

/* Narrow or partial read of a slot holding a spilled scalar. */
static int read_partial_spill(struct vet_env *env, struct func_state *f, int off,
			      int size, int spill_size, int dst_regno, uint32_t *hist)
{
	int slot = -off - 1, spi = slot / BPF_REG_SIZE;
	struct stack_slot *s = stack_slot_at(f, spi);
	struct reg_state *dst;
	int i, spills = 0, zeros = 0;

	if (dst_regno < 0)
		return 0;
	dst = &cur_regs(env)[dst_regno];
	/* Before 6.8 only a fill of the spill's own size kept its value. */
	if (!(off % BPF_REG_SIZE) &&
	    (env_has(env, KVER_SPILL_TRACKING) ? size <= spill_size : size == spill_size)) {
		int32_t subreg_def = dst->subreg_def;

		*dst = s->spilled_ptr;
		dst->subreg_def = subreg_def;
		if (reg_bit_width(&s->spilled_ptr) > size * 8) {
			dst->id = 0;	/* a narrowing fill: no link, no +const */
			dst->off = 0;
		}
		return 0;
	}
	for (i = 0; i < size; i++) {
		uint8_t t = s->slot_type[(slot - i) % BPF_REG_SIZE];

		if (!byte_readable(env, t, true)) {
			verbose(env, "invalid read from stack off %d+%d size %d\n", off, i, size);
			return -EACCES;
		}
		spills += t == STACK_SPILL;
		zeros += t == STACK_ZERO;
	}
	if (spills == size && tnum_equals_const(s->spilled_ptr.b.var_off, 0)) {
		mark_const_zero(env, dst);
	} else if (zeros == size) {
		mark_const_zero(env, dst);
		*hist = 0;
	} else {
		reg_mark_unknown(env, dst);
		*hist = 0;
	}
	return 0;
}

static int read_fixed(struct vet_env *env, struct func_state *f, int off, int size,
		      int dst_regno)
{
	int slot = -off - 1, spi = slot / BPF_REG_SIZE, i, err;
	struct stack_slot *s = stack_slot_at(f, spi);
	uint32_t hist = hist_stack_flags(f->frameno, spi);

	scratch_slot(env, spi);
	err = stack_live_read(env, f->frameno, 1ull << spi);
	if (err)
		return err;
	if (slot_is_spill(s)) {
		int spill_size = 1;

		for (i = BPF_REG_SIZE - 1; i > 0 && s->slot_type[i - 1] == STACK_SPILL; i--)
			spill_size++;
		if (size != BPF_REG_SIZE || spill_size != BPF_REG_SIZE) {
			if (s->spilled_ptr.type != SCALAR_VALUE) {
				verbose(env, "invalid size of register fill\n");
				return -EACCES;
			}
			err = read_partial_spill(env, f, off, size, spill_size, dst_regno, &hist);
			if (err)
				return err;
		} else if (dst_regno >= 0) {
			cur_regs(env)[dst_regno] = s->spilled_ptr;
		} else if (reg_is_pointer(env, &s->spilled_ptr)) {
			verbose(env, "leaking pointer from stack off %d\n", off);
			return -EACCES;
		}
	} else {
		for (i = 0; i < size; i++) {
			if (!byte_readable(env, s->slot_type[(slot - i) % BPF_REG_SIZE], false)) {
				verbose(env, "invalid read from stack off %d+%d size %d\n",
					off, i, size);
				return -EACCES;
			}
		}
		if (dst_regno >= 0)
			read_into_reg(env, f, off, off + size, dst_regno);
		hist = 0;
	}
	if (hist)
		return push_jmp_history(env, env->cur, hist, 0);
	return 0;
}

static int stack_range_init(struct vet_env *env, uint32_t regno, int off, int size,
			    bool zero_size_ok, enum access_type t, bool raw,
			    bool *raw_done, bool by_helper);

int check_stack_read(struct vet_env *env, uint32_t ptr_regno, int off, int size,
		     int dst_regno)
{
	struct reg_state *reg = &cur_regs(env)[ptr_regno];
	struct func_state *f = frame_of(env, reg);
	bool var_off = !tnum_is_const(reg->b.var_off);
	char tn[48];
	int err;

	if (dst_regno < 0 && var_off) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "variable offset stack pointer cannot be passed into helper function; var_off=%s off=%d size=%d\n",
			tn, off, size);
		return -EACCES;
	}
	if (!env->bypass_spec_v1 && var_off) {
		tnum_str(tn, sizeof(tn), reg->b.var_off);
		verbose(env, "R%u variable offset stack access prohibited for !root, var_off=%s\n",
			ptr_regno, tn);
		return -EACCES;
	}
	if (!var_off)
		return read_fixed(env, f, off + (int)reg->b.var_off.value, size, dst_regno);
	err = stack_range_init(env, ptr_regno, off, size, false, ACCESS_READ, false, NULL,
			       false);
	if (err)
		return err;
	read_into_reg(env, f, (int)(reg->b.smin + off), (int)(reg->b.smax + off + size),
		      dst_regno);
	return 0;
}

/* "invalid%s read from stack": before KVER_MSG_HELPER_ACCESS_KIND a
 * helper's read was an indirect one. */
static const char *read_words(const struct vet_env *env, bool by_helper)
{
	return by_helper && !env_has(env, KVER_MSG_HELPER_ACCESS_KIND) ? " indirect" : "";
}

/*
 * Stack memory read (or written, when t == ACCESS_WRITE) indirectly, by a
 * helper or a variable-offset load. Output-only buffers (`raw`) may be
 * uninitialised; *raw_ok receives whether that path was taken.
 */
static int stack_range_init(struct vet_env *env, uint32_t regno, int off, int size,
			    bool zero_size_ok, enum access_type t, bool raw,
			    bool *raw_done, bool by_helper)
{
	struct reg_state *reg = &cur_regs(env)[regno];
	struct func_state *f = frame_of(env, reg);
	bool clobber = t == ACCESS_WRITE;
	int min_off, max_off, i, err;
	uint64_t read = 0;
	char tn[48];

	if (raw_done)
		*raw_done = false;
	if (size == 0 && !zero_size_ok) {
		verbose(env, "invalid zero-sized read\n");
		return -EACCES;
	}
	err = stack_bounds(env, regno, off, size, t, by_helper ?
			   helper_access_words(env, t) : direct_access_words(t));
	if (err)
		return err;
	if (tnum_is_const(reg->b.var_off)) {
		min_off = max_off = (int)reg->b.var_off.value + off;
	} else {
		if (!env->bypass_spec_v1) {
			tnum_str(tn, sizeof(tn), reg->b.var_off);
			verbose(env, "R%u variable offset stack access prohibited for !root, var_off=%s\n",
				regno, tn);
			return -EACCES;
		}
		raw = false;
		min_off = (int)(reg->b.smin + off);
		max_off = (int)(reg->b.smax + off);
	}
	if (raw) {
		for (i = min_off; i < max_off + size; i++) {
			int slot = -i - 1;

			if (f->allocated_stack <= slot)
				continue;
			if (stack_slot_at(f, slot / BPF_REG_SIZE)->slot_type[slot % BPF_REG_SIZE] ==
			    STACK_DYNPTR) {
				verbose(env, "potential write to dynptr at off=%d disallowed\n", i);
				return -EACCES;
			}
		}
		if (raw_done)
			*raw_done = true;
		return 0;
	}
	/* The slots read are marked once, after the loop (or before its
	 * error): marking is an OR, and a helper reads dozens of bytes. */
	for (i = min_off; i < max_off + size; i++) {
		int slot = -i - 1, spi = slot / BPF_REG_SIZE;
		struct stack_slot *s = stack_slot_at(f, spi);
		uint8_t *bt = &s->slot_type[slot % BPF_REG_SIZE];

		if (*bt == STACK_MISC)
			goto mark;
		if (*bt == STACK_ZERO || (*bt == STACK_INVALID && env->allow_uninit_stack)) {
			if (clobber)
				*bt = STACK_MISC;
			goto mark;
		}
		if (slot_is_spill(s) && (s->spilled_ptr.type == SCALAR_VALUE ||
					 env->allow_ptr_leaks)) {
			if (clobber) {
				reg_mark_unknown(env, &s->spilled_ptr);
				for (int j = 0; j < BPF_REG_SIZE; j++)
					scrub_byte(&s->slot_type[j]);
			}
			goto mark;
		}
		if (tnum_is_const(reg->b.var_off)) {
			verbose(env, "invalid%s read from stack R%u off %d+%d size %d\n",
				read_words(env, by_helper), regno, min_off, i - min_off, size);
		} else {
			tnum_str(tn, sizeof(tn), reg->b.var_off);
			verbose(env, "invalid%s read from stack R%u var_off %s+%d size %d\n",
				read_words(env, by_helper), regno, tn, i - min_off, size);
		}
		err = stack_live_read(env, f->frameno, read);
		return err ? err : -EACCES;
mark:
		read |= 1ull << spi;
	}
	return stack_live_read(env, f->frameno, read);
}

int check_stack_range_init(struct vet_env *env, uint32_t regno, int off, int size,
			   bool zero_size_ok, enum access_type t, bool raw,
			   bool *raw_done)
{
	return stack_range_init(env, regno, off, size, zero_size_ok, t, raw, raw_done, true);
}
