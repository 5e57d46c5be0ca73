/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The step loop: ALU, jumps, LD_IMM64, calls between functions and exit.
 * Memory goes through mem.c, the context through ctx.c, helpers through
 * helpers.c. Arithmetic follows the kernel's interpreter and its fix-ups:
 * x / 0 = 0, x % 0 = x, signed INT_MIN / -1 = INT_MIN, INT_MIN % -1 = 0,
 * shift counts masked to the operand width, 32-bit results zero-extended.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"
#include "base/uapi.h"

#define DEFAULT_MAX_STEPS (1ull << 26)
#define MAY_GOTO_LOOPS (1ull << 23)	/* BPF_MAX_LOOPS */

bool interp_faultf(struct interp *it, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (it->status == INTERP_FAULT)
		return false;
	n = snprintf(it->fault, sizeof(it->fault), "insn %zu: ", it->pc);
	va_start(ap, fmt);
	vsnprintf(it->fault + n, sizeof(it->fault) - (size_t)n, fmt, ap);
	va_end(ap);
	it->status = INTERP_FAULT;
	/* What the interpreter does not model is not a finding: callers
	 * count it apart. */
	it->unsupported = strstr(it->fault, "support") || strstr(it->fault, "not modelled");
	return false;
}

uint64_t interp_base(struct interp_tag t)
{
	/* Far apart, never 0, and identical for one region: a pointer's
	 * value is base + offset. Stacks are told apart by frame. */
	uint64_t elem = t.kind == IK_STACK ? t.frame : t.elem;

	if (t.kind == IK_SCALAR)
		return 0;
	if (t.kind == IK_PKT_END || t.kind == IK_PKT_META)
		t.kind = IK_PKT;
	return 0xff00000000000000ull | (uint64_t)t.kind << 52 |
	       (uint64_t)(t.map & 0xff) << 44 | (elem & 0xffffff) << 20;
}

struct interp_tag interp_scalar_tag(void)
{
	struct interp_tag t = { IK_SCALAR, 0, 0, 0 };

	return t;
}

struct interp_reg interp_ptr(struct interp *it, struct interp_tag t, int64_t off)
{
	struct interp_reg r;

	(void)it;
	r.tag = t;
	r.val = interp_base(t) + (uint64_t)off;
	return r;
}

uint64_t interp_rand(struct interp *it)
{
	/* xorshift64*: deterministic from the run's seed. */
	uint64_t x = it->rng;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	it->rng = x;
	return x * 0x2545F4914F6CDD1Dull;
}

static struct interp_reg scalar(uint64_t v)
{
	struct interp_reg r = { v, { IK_SCALAR, 0, 0, 0 } };

	return r;
}

static struct interp_reg *reg(struct interp *it, int regno)
{
	return &it->frames[it->depth].regs[regno];
}

static uint64_t bswap_n(uint64_t v, int bits)
{
	switch (bits) {
	case 16:
		return __builtin_bswap16((uint16_t)v);
	case 32:
		return __builtin_bswap32((uint32_t)v);
	default:
		return __builtin_bswap64(v);
	}
}

static uint64_t trunc_n(uint64_t v, int bits)
{
	return bits == 64 ? v : v & ((1ull << bits) - 1);
}

static uint64_t sext(uint64_t v, int bits)
{
	int s = 64 - bits;

	return (uint64_t)((int64_t)(v << s) >> s);
}

static uint64_t alu_div(uint64_t a, uint64_t b, bool is64, bool sgn, bool mod)
{
	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
	}
	if (b == 0)
		return mod ? a : 0;
	if (!sgn)
		return mod ? a % b : a / b;
	if (is64) {
		int64_t x = (int64_t)a, y = (int64_t)b;

		if (y == -1)
			return mod ? 0 : (uint64_t)0 - a;
		return mod ? (uint64_t)(x % y) : (uint64_t)(x / y);
	} else {
		int32_t x = (int32_t)a, y = (int32_t)b;

		if (y == -1)
			return mod ? 0 : (uint32_t)(0u - (uint32_t)a);
		return mod ? (uint32_t)(x % y) : (uint32_t)(x / y);
	}
}

/* The value of an ALU operation on plain numbers. */
static uint64_t alu_value(const struct bpfvet_insn *insn, uint64_t a, uint64_t b, bool is64)
{
	int bits = is64 ? 64 : 32;
	uint64_t sh = b & (uint64_t)(bits - 1);

	switch (BPF_OP(insn->code)) {
	case BPF_ADD: return a + b;
	case BPF_SUB: return a - b;
	case BPF_MUL: return is64 ? a * b : (uint64_t)((uint32_t)a * (uint32_t)b);
	case BPF_DIV: return alu_div(a, b, is64, insn->off == 1, false);
	case BPF_MOD: return alu_div(a, b, is64, insn->off == 1, true);
	case BPF_OR: return a | b;
	case BPF_AND: return a & b;
	case BPF_XOR: return a ^ b;
	case BPF_LSH: return is64 ? a << sh : (uint64_t)((uint32_t)a << sh);
	case BPF_RSH: return is64 ? a >> sh : (uint64_t)((uint32_t)a >> sh);
	case BPF_ARSH:
		return is64 ? (uint64_t)((int64_t)a >> sh) : (uint32_t)((int32_t)a >> sh);
	case BPF_NEG: return 0 - a;
	case BPF_MOV:
		if (insn->off == 8 || insn->off == 16 || insn->off == 32)
			return sext(b, insn->off);
		return b;
	default: return 0;
	}
}

/* Pointer arithmetic keeps the provenance: ptr +/- scalar, scalar + ptr,
 * mov. ptr - ptr of one region is a scalar; anything else on a pointer
 * makes a scalar of its number. */
static struct interp_tag alu_tag(const struct bpfvet_insn *insn, struct interp_reg *a,
				 struct interp_reg *b, bool is64)
{
	uint8_t op = BPF_OP(insn->code);

	if (!is64)
		return interp_scalar_tag();
	if (op == BPF_MOV)
		return insn->off ? interp_scalar_tag() : b->tag;
	if (op == BPF_ADD && a->tag.kind == IK_SCALAR)
		return b->tag;
	if ((op == BPF_ADD || op == BPF_SUB) && b->tag.kind == IK_SCALAR)
		return a->tag;
	return interp_scalar_tag();
}

static bool do_end(struct interp *it, const struct bpfvet_insn *insn)
{
	struct interp_reg *d = reg(it, insn->dst_reg);
	int bits = insn->imm;

	if (bits != 16 && bits != 32 && bits != 64)
		return interp_faultf(it, "bad byte swap width %d", bits);
	/* ALU64 END is the unconditional bswap; ALU END to-be swaps on a
	 * little-endian host, to-le only truncates. */
	if (BPF_CLASS(insn->code) == BPF_ALU64 || BPF_SRC(insn->code) == BPF_TO_BE)
		d->val = bswap_n(d->val, bits);
	else
		d->val = trunc_n(d->val, bits);
	d->tag = interp_scalar_tag();
	return true;
}

static bool do_alu(struct interp *it, const struct bpfvet_insn *insn)
{
	bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	struct interp_reg *d = reg(it, insn->dst_reg);
	struct interp_reg b;
	uint8_t op = BPF_OP(insn->code);

	if (op == BPF_END)
		return do_end(it, insn);
	if (op > BPF_END)
		return interp_faultf(it, "unknown ALU op %#x", insn->code);
	if (op == BPF_MOV && insn->off == 1 && is64)
		return interp_faultf(it, "addr_space_cast is not supported");
	if (BPF_SRC(insn->code) == BPF_X)
		b = *reg(it, insn->src_reg);
	else
		b = scalar(is64 ? (uint64_t)(int64_t)insn->imm : (uint32_t)insn->imm);
	{
		struct interp_tag t = alu_tag(insn, d, &b, is64);
		uint64_t v = alu_value(insn, d->val, b.val, is64);

		if (!is64)
			v = (uint32_t)v;
		if (op == BPF_SUB && is64 && d->tag.kind != IK_SCALAR &&
		    b.tag.kind != IK_SCALAR)
			t = interp_scalar_tag();
		d->val = v;
		d->tag = t;
	}
	return true;
}

static bool jmp_taken(uint8_t op, uint64_t a, uint64_t b, bool is64)
{
	int64_t sa = (int64_t)a, sb = (int64_t)b;

	if (!is64) {
		a = (uint32_t)a;
		b = (uint32_t)b;
		sa = (int32_t)a;
		sb = (int32_t)b;
	}
	switch (op) {
	case BPF_JEQ: return a == b;
	case BPF_JNE: return a != b;
	case BPF_JGT: return a > b;
	case BPF_JGE: return a >= b;
	case BPF_JLT: return a < b;
	case BPF_JLE: return a <= b;
	case BPF_JSET: return (a & b) != 0;
	case BPF_JSGT: return sa > sb;
	case BPF_JSGE: return sa >= sb;
	case BPF_JSLT: return sa < sb;
	case BPF_JSLE: return sa <= sb;
	default: return false;
	}
}

static bool jump_to(struct interp *it, int64_t delta)
{
	int64_t target = (int64_t)it->pc + 1 + delta;

	if (target < 0 || (uint64_t)target >= it->insn_cnt)
		return interp_faultf(it, "jump out of the program to %lld", (long long)target);
	it->pc = (size_t)target;
	return true;
}

bool interp_push_frame(struct interp *it, size_t target, size_t ret_pc)
{
	struct interp_frame *caller = &it->frames[it->depth], *f;
	struct interp_tag fp = { IK_STACK, 0, 0, 0 };

	if (it->depth + 1 >= INTERP_MAX_FRAMES)
		return interp_faultf(it, "call depth exceeds %d frames", INTERP_MAX_FRAMES);
	if (target >= it->insn_cnt)
		return interp_faultf(it, "call out of the program to %zu", target);
	f = &it->frames[++it->depth];
	memset(f, 0, sizeof(*f));
	memcpy(&f->regs[1], &caller->regs[1], 5 * sizeof(f->regs[0]));
	fp.frame = (uint8_t)it->depth;
	f->regs[BPF_REG_FP] = interp_ptr(it, fp, INTERP_STACK_SIZE);
	f->ret_pc = ret_pc;
	it->pc = target;
	return true;
}

static bool do_call_func(struct interp *it, const struct bpfvet_insn *insn)
{
	int64_t target = (int64_t)it->pc + 1 + insn->imm;

	if (target < 0)
		return interp_faultf(it, "call out of the program to %lld", (long long)target);
	return interp_push_frame(it, (size_t)target, it->pc + 1);
}

/* A bpf_loop callback returned: call it again with the next index, or
 * end the loop with the number of calls made in the helper's R0. */
static bool loop_next(struct interp *it, struct interp_frame done, struct interp_reg r0)
{
	struct interp_frame *f;

	done.loop_i++;
	if ((uint32_t)r0.val == 0 && done.loop_i < done.loop_nr) {
		struct interp_reg *regs = it->frames[it->depth].regs;
		struct interp_reg saved[2] = { regs[1], regs[2] };

		regs[1].val = done.loop_i;
		regs[1].tag = interp_scalar_tag();
		regs[2] = done.loop_ctx;
		if (!interp_push_frame(it, done.loop_fn, done.ret_pc))
			return false;
		regs[1] = saved[0];
		regs[2] = saved[1];
		f = &it->frames[it->depth];
		f->loop_cb = true;
		f->loop_nr = done.loop_nr;
		f->loop_i = done.loop_i;
		f->loop_fn = done.loop_fn;
		f->loop_ctx = done.loop_ctx;
		return true;
	}
	it->pc = done.ret_pc;
	it->frames[it->depth].regs[BPF_REG_0].val = done.loop_i;
	it->frames[it->depth].regs[BPF_REG_0].tag = interp_scalar_tag();
	return true;
}

static bool do_exit(struct interp *it)
{
	struct interp_reg r0 = *reg(it, BPF_REG_0);
	struct interp_frame done;

	if (it->depth == 0) {
		it->retval = (uint32_t)r0.val;
		it->status = INTERP_EXITED;
		return true;
	}
	done = it->frames[it->depth];
	it->depth--;
	if (done.loop_cb)
		return loop_next(it, done, r0);
	it->pc = done.ret_pc;
	*reg(it, BPF_REG_0) = r0;
	return true;
}

static bool do_jmp(struct interp *it, const struct bpfvet_insn *insn)
{
	bool is64 = BPF_CLASS(insn->code) == BPF_JMP;
	uint8_t op = BPF_OP(insn->code);
	uint64_t b;

	switch (op) {
	case BPF_JA:
		return jump_to(it, is64 ? insn->off : insn->imm);
	case BPF_EXIT:
		return do_exit(it);
	case BPF_CALL:
		if (insn->src_reg == BPF_PSEUDO_CALL)
			return do_call_func(it, insn);
		if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
			return interp_faultf(it, "kfunc calls are not supported");
		if (!helper_call(it, insn->imm))
			return false;
		if (it->status == INTERP_RUNNING && !it->jumped)
			it->pc++;
		it->jumped = false;
		return true;
	case BPF_JCOND:
		if (insn->src_reg != BPF_MAY_GOTO)
			return interp_faultf(it, "unknown jcond %d", insn->src_reg);
		if (it->may_goto_left == 0)
			return jump_to(it, insn->off);
		it->may_goto_left--;
		it->pc++;
		return true;
	case 0xf0:
		return interp_faultf(it, "unknown jump op %#x", insn->code);
	}
	b = BPF_SRC(insn->code) == BPF_X ? reg(it, insn->src_reg)->val
					  : (uint64_t)(int64_t)insn->imm;
	if (jmp_taken(op, reg(it, insn->dst_reg)->val, b, is64))
		return jump_to(it, insn->off);
	it->pc++;
	return true;
}

static bool do_ld_imm64(struct interp *it, const struct bpfvet_insn *insn)
{
	struct interp_reg *d = reg(it, insn->dst_reg);
	uint64_t v;
	struct interp_tag t = interp_scalar_tag();

	if (it->pc + 1 >= it->insn_cnt)
		return interp_faultf(it, "LD_IMM64 without its second half");
	v = (uint32_t)insn[0].imm | (uint64_t)(uint32_t)insn[1].imm << 32;
	switch (insn->src_reg) {
	case 0:
		*d = scalar(v);
		break;
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_IDX:
		if ((uint32_t)insn->imm >= maps_cnt(it->maps))
			return interp_faultf(it, "map index %d out of range", insn->imm);
		t.kind = IK_MAP;
		t.map = (uint16_t)insn->imm;
		*d = interp_ptr(it, t, 0);
		break;
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		if ((uint32_t)insn->imm >= maps_cnt(it->maps))
			return interp_faultf(it, "map index %d out of range", insn->imm);
		t.kind = IK_MAP_VALUE;
		t.map = (uint16_t)insn->imm;
		*d = interp_ptr(it, t, (uint32_t)insn[1].imm);
		break;
	case BPF_PSEUDO_FUNC:
		t.kind = IK_FUNC;
		*d = interp_ptr(it, t, (int64_t)it->pc + 1 + insn->imm);
		break;
	default:
		return interp_faultf(it, "LD_IMM64 with src_reg %d is not supported",
				     insn->src_reg);
	}
	it->pc += 2;
	return true;
}

static int size_bytes(uint8_t code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return 1;
	case BPF_H: return 2;
	case BPF_W: return 4;
	default: return 8;
	}
}

static bool do_ld(struct interp *it, const struct bpfvet_insn *insn)
{
	uint64_t v;
	int64_t off = insn->imm;
	int size = size_bytes(insn->code);

	if (insn->code == (BPF_LD | BPF_IMM | BPF_DW))
		return do_ld_imm64(it, insn);
	if (BPF_MODE(insn->code) != BPF_ABS && BPF_MODE(insn->code) != BPF_IND)
		return interp_faultf(it, "unknown LD mode %#x", insn->code);
	if (it->kind == INTERP_XDP || size == 8)
		return interp_faultf(it, "LD_ABS/LD_IND here is not supported");
	if (BPF_MODE(insn->code) == BPF_IND)
		off = (int32_t)((uint32_t)reg(it, insn->src_reg)->val + (uint32_t)insn->imm);
	if (!ctx_ld_abs(it, off, size, &v)) {
		/* A failed packet load ends the program with 0. */
		it->retval = 0;
		it->status = INTERP_EXITED;
		return true;
	}
	*reg(it, BPF_REG_0) = scalar(v);
	it->pc++;
	return true;
}

static bool do_mem(struct interp *it, const struct bpfvet_insn *insn)
{
	uint8_t cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);
	int size = size_bytes(insn->code);
	bool ok;

	if (cls == BPF_LDX) {
		if (mode != BPF_MEM && mode != BPF_MEMSX)
			return interp_faultf(it, "unknown LDX mode %#x", insn->code);
		ok = mem_load(it, *reg(it, insn->src_reg), insn->off, size, mode == BPF_MEMSX,
			      reg(it, insn->dst_reg));
	} else if (cls == BPF_STX && mode == BPF_ATOMIC) {
		ok = mem_atomic(it, insn);
	} else if (mode != BPF_MEM) {
		return interp_faultf(it, "unknown store mode %#x", insn->code);
	} else if (cls == BPF_STX) {
		ok = mem_store(it, *reg(it, insn->dst_reg), insn->off, size,
			       *reg(it, insn->src_reg));
	} else {
		ok = mem_store(it, *reg(it, insn->dst_reg), insn->off, size,
			       scalar((uint64_t)(int64_t)insn->imm));
	}
	if (ok)
		it->pc++;
	return ok;
}

enum interp_status interp_step(struct interp *it)
{
	const struct bpfvet_insn *insn;

	if (it->status != INTERP_RUNNING)
		return it->status;
	if (it->pc >= it->insn_cnt) {
		interp_faultf(it, "fell off the end of the program");
		return it->status;
	}
	if (++it->steps > it->max_steps) {
		interp_faultf(it, "step limit of %llu reached",
			      (unsigned long long)it->max_steps);
		return it->status;
	}
	insn = &it->insns[it->pc];
	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		if (do_alu(it, insn))
			it->pc++;
		break;
	case BPF_JMP:
	case BPF_JMP32:
		do_jmp(it, insn);
		break;
	case BPF_LD:
		do_ld(it, insn);
		break;
	default:
		do_mem(it, insn);
		break;
	}
	return it->status;
}

enum interp_status interp_run(struct interp *it)
{
	while (interp_step(it) == INTERP_RUNNING)
		;
	return it->status;
}

int interp_new(const struct bpfvet_program *prog, struct interp_maps *maps,
	       const struct interp_input *in, struct interp **out, char *eb, size_t eb_sz)
{
	struct interp *it;
	struct interp_tag fp = { IK_STACK, 0, 0, 0 }, ctx = { IK_CTX, 0, 0, 0 };
	int err;

	*out = NULL;
	if (!prog || !in || !maps)
		return -EINVAL;
	it = calloc(1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	it->prog = prog;
	it->insns = prog->insns;
	it->insn_cnt = prog->insn_cnt;
	it->maps = maps;
	it->max_steps = in->max_steps ? in->max_steps : DEFAULT_MAX_STEPS;
	it->may_goto_left = MAY_GOTO_LOOPS;
	it->rng = in->seed * 0x9E3779B97F4A7C15ull + 0x1234567ull;
	if (!it->rng)
		it->rng = 1;
	it->ktime = 1000000000ull + (in->seed % 1000000007ull) * 1000ull;
	it->replay = in->replay;
	it->replay_cnt = in->replay_cnt;
	switch (prog->type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
		it->kind = INTERP_SKB_FILTER;
		break;
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		it->kind = INTERP_SKB_TC;
		break;
	case BPF_PROG_TYPE_XDP:
		it->kind = INTERP_XDP;
		break;
	default:
		free(it);
		if (eb && eb_sz)
			snprintf(eb, eb_sz, "program type %u cannot be run", prog->type);
		return -EOPNOTSUPP;
	}
	err = ctx_build(it, in, eb, eb_sz);
	if (err) {
		interp_free(it);
		return err;
	}
	it->frames[0].regs[BPF_REG_1] = interp_ptr(it, ctx, 0);
	it->frames[0].regs[BPF_REG_FP] = interp_ptr(it, fp, INTERP_STACK_SIZE);
	*out = it;
	return 0;
}

void interp_free(struct interp *it)
{
	if (!it)
		return;
	free(it->pkt);
	free(it);
}

enum interp_status interp_status(const struct interp *it) { return it->status; }
const char *interp_fault(const struct interp *it)
{
	return it->status == INTERP_FAULT ? it->fault : "";
}
uint32_t interp_retval(const struct interp *it) { return it->retval; }
bool interp_unsupported(const struct interp *it) { return it->unsupported; }
uint64_t interp_steps(const struct interp *it) { return it->steps; }
size_t interp_pc(const struct interp *it) { return it->pc; }
int interp_frame_depth(const struct interp *it) { return it->depth; }

struct interp_reg interp_reg(const struct interp *it, int frame, int regno)
{
	struct interp_reg none = { 0, { IK_SCALAR, 0, 0, 0 } };

	if (frame < 0)
		frame = it->depth;
	if (frame > it->depth || regno < 0 || regno > BPF_REG_FP)
		return none;
	return it->frames[frame].regs[regno];
}

int interp_stack_byte(const struct interp *it, int frame, int off, uint8_t *byte,
		      struct interp_tag *tag)
{
	if (frame < 0 || frame > it->depth || off < 0 || off >= INTERP_STACK_SIZE)
		return -ERANGE;
	*byte = it->frames[frame].stack[off];
	*tag = it->frames[frame].slot_tag[off / 8];
	return 0;
}

int64_t interp_ptr_off(const struct interp *it, struct interp_reg r)
{
	int64_t off = (int64_t)(r.val - interp_base(r.tag));

	if (r.tag.kind == IK_PKT || r.tag.kind == IK_PKT_END || r.tag.kind == IK_PKT_META)
		off -= it->data;
	return off;
}

int interp_output(const struct interp *it, struct interp_output *out)
{
	memset(out, 0, sizeof(*out));
	if (it->status != INTERP_EXITED)
		return -EINVAL;
	out->retval = it->retval;
	ctx_output(it, out);
	return out->data || !out->data_size ? 0 : -ENOMEM;
}

const char *interp_kind_name(enum interp_kind k)
{
	static const char *const names[] = {
		"scalar", "stack", "ctx", "pkt", "pkt_end", "pkt_meta",
		"map_value", "map_ptr", "func",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}

uint32_t interp_pkt_len(const struct interp *it)
{
	return it->data_end - it->data;
}

uint32_t interp_tail_calls(const struct interp *it)
{
	return it->tail_calls;
}

int32_t interp_meta_off(const struct interp *it)
{
	return (int32_t)it->meta - (int32_t)it->data;
}
