/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Instruction text in the Linux 6.18 verifier log format. See disasm.h.
 *
 * Only instructions that pass the kernel's opcode table are ever printed by
 * the kernel, but its disassembler has a rendering for everything (it shows
 * "(null)" where a table has no entry, and "BUG_..." for modes it does not
 * know); we reproduce those renderings so that any 8-byte pattern gives the
 * text the kernel's disassembler would give.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/base.h"
#include "loader/loader.h"
#include "disasm.h"
#include "rules/rules.h"
#include "base/uapi.h"

/* Output cursor: appends to a caller buffer, remembering overflow. */
struct out {
	char *buf;
	size_t sz;
	size_t len;
	bool full;
};

static void out_printf(struct out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_printf(struct out *o, const char *fmt, ...)
{
	size_t room = o->sz - o->len;
	va_list ap;
	int n;

	if (o->full)
		return;
	va_start(ap, fmt);
	n = vsnprintf(o->buf + o->len, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room) {
		o->full = true;
		o->len = o->sz - 1;
		return;
	}
	o->len += (size_t)n;
}

/* The kernel prints missing table entries through "%s" with NULL. */
static const char *or_null(const char *s)
{
	return s ? s : "(null)";
}

/* Indexed by BPF_OP(code) >> 4. */
static const char *const alu_ops[16] = {
	"+=", "-=", "*=", "/=", "|=", "&=", "<<=", ">>=",
	"neg", "%=", "^=", "=", "s>>=", "endian", NULL, NULL,
};

static const char *const jmp_ops[16] = {
	"jmp", "==", ">", ">=", "&", "!=", "s>", "s>=",
	"call", "exit", "<", "<=", "s<", "s<=", NULL, NULL,
};

/* Fetch forms of the atomic read-modify-write ops, by BPF_OP(imm) >> 4. */
static const char *const atomic_ops[16] = {
	[BPF_ADD >> 4] = "add",
	[BPF_OR >> 4] = "or",
	[BPF_AND >> 4] = "and",
	[BPF_XOR >> 4] = "xor",
};

/* Indexed by BPF_SIZE(code) >> 3. */
static const char *const mem_sizes[4] = { "u32", "u16", "u8", "u64" };
static const char *const sext_sizes[4] = { "s32", "s16", "s8", NULL };

static const char *size_name(uint8_t code)
{
	return mem_sizes[BPF_SIZE(code) >> 3];
}

static void print_opcode(struct out *o, const struct bpfvet_insn *insn)
{
	out_printf(o, "(%02x) ", insn->code);
}

/* --- ALU and ALU64 ------------------------------------------------- */

static const char *alu_op_name(const struct bpfvet_insn *insn)
{
	uint8_t op = BPF_OP(insn->code);

	/* off=1 turns DIV and MOD into their signed forms. */
	if (insn->off == 1 && op == BPF_DIV)
		return "s/=";
	if (insn->off == 1 && op == BPF_MOD)
		return "s%=";
	return or_null(alu_ops[op >> 4]);
}

/* "(s8)" etc. for MOV X with a sign-extension width in off; the kernel
 * checks neither the class nor the width against the class here. */
static const char *movsx_cast(const struct bpfvet_insn *insn)
{
	if (BPF_OP(insn->code) != BPF_MOV)
		return "";
	switch (insn->off) {
	case 8:
		return "(s8)";
	case 16:
		return "(s16)";
	case 32:
		return "(s32)";
	default:
		return "";
	}
}

static void print_alu(struct out *o, const struct bpfvet_insn *insn)
{
	const bool is64 = BPF_CLASS(insn->code) == BPF_ALU64;
	const char r = is64 ? 'r' : 'w';
	const uint8_t op = BPF_OP(insn->code);
	const bool mov64x = insn->code == (BPF_ALU64 | BPF_MOV | BPF_X);

	print_opcode(o, insn);
	/* Byte swaps name 64-bit registers in both classes. */
	if (op == BPF_END && is64)
		out_printf(o, "r%d = bswap%d r%d", insn->dst_reg, insn->imm,
			   insn->dst_reg);
	else if (op == BPF_END)
		out_printf(o, "r%d = %s%d r%d", insn->dst_reg,
			   BPF_SRC(insn->code) == BPF_TO_BE ? "be" : "le",
			   insn->imm, insn->dst_reg);
	else if (op == BPF_NEG)
		out_printf(o, "%c%d = -%c%d", r, insn->dst_reg, r,
			   insn->dst_reg);
	else if (mov64x && insn->off == 1)
		out_printf(o, "r%d = addr_space_cast(r%d, %u, %u)",
			   insn->dst_reg, insn->src_reg,
			   (uint32_t)insn->imm >> 16,
			   (uint32_t)(uint16_t)insn->imm);
	else if (mov64x && insn->off == -1)
		/* Kernel-internal per-CPU address move; printed when a
		 * program uses the encoding even though it is rejected. */
		out_printf(o, "r%d = &(void __percpu *)(r%d)", insn->dst_reg,
			   insn->src_reg);
	else if (BPF_SRC(insn->code) == BPF_X)
		out_printf(o, "%c%d %s %s%c%d", r, insn->dst_reg,
			   alu_op_name(insn), movsx_cast(insn), r,
			   insn->src_reg);
	else
		out_printf(o, "%c%d %s %d", r, insn->dst_reg,
			   alu_op_name(insn), insn->imm);
}

/* --- Stores and atomics -------------------------------------------- */

static void print_atomic(struct out *o, const struct bpfvet_insn *insn)
{
	const char *sz = size_name(insn->code);
	const char *width = BPF_SIZE(insn->code) == BPF_DW ? "64" : "";
	const int32_t imm = insn->imm;

	switch (imm) {
	case BPF_ADD:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
		out_printf(o, "lock *(%s *)(r%d %+d) %s r%d", sz,
			   insn->dst_reg, insn->off, alu_ops[imm >> 4],
			   insn->src_reg);
		return;
	case BPF_ADD | BPF_FETCH:
	case BPF_AND | BPF_FETCH:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR | BPF_FETCH:
		out_printf(o, "r%d = atomic%s_fetch_%s((%s *)(r%d %+d), r%d)",
			   insn->src_reg, width, atomic_ops[(imm & 0xf0) >> 4],
			   sz, insn->dst_reg, insn->off, insn->src_reg);
		return;
	case BPF_CMPXCHG:
		out_printf(o, "r0 = atomic%s_cmpxchg((%s *)(r%d %+d), r0, r%d)",
			   width, sz, insn->dst_reg, insn->off, insn->src_reg);
		return;
	case BPF_XCHG:
		out_printf(o, "r%d = atomic%s_xchg((%s *)(r%d %+d), r%d)",
			   insn->src_reg, width, sz, insn->dst_reg, insn->off,
			   insn->src_reg);
		return;
	case BPF_LOAD_ACQ:
		/* The loaded register is dst; the address is in src. */
		out_printf(o, "r%d = load_acquire((%s *)(r%d %+d))",
			   insn->dst_reg, sz, insn->src_reg, insn->off);
		return;
	case BPF_STORE_REL:
		out_printf(o, "store_release((%s *)(r%d %+d), r%d)", sz,
			   insn->dst_reg, insn->off, insn->src_reg);
		return;
	}
}

static bool is_known_atomic(int32_t imm)
{
	switch (imm) {
	case BPF_ADD:
	case BPF_AND:
	case BPF_OR:
	case BPF_XOR:
	case BPF_ADD | BPF_FETCH:
	case BPF_AND | BPF_FETCH:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR | BPF_FETCH:
	case BPF_CMPXCHG:
	case BPF_XCHG:
	case BPF_LOAD_ACQ:
	case BPF_STORE_REL:
		return true;
	default:
		return false;
	}
}

static void print_stx(struct out *o, const struct bpfvet_insn *insn)
{
	if (BPF_MODE(insn->code) == BPF_MEM) {
		print_opcode(o, insn);
		out_printf(o, "*(%s *)(r%d %+d) = r%d", size_name(insn->code),
			   insn->dst_reg, insn->off, insn->src_reg);
	} else if (BPF_MODE(insn->code) == BPF_ATOMIC &&
		   is_known_atomic(insn->imm)) {
		print_opcode(o, insn);
		print_atomic(o, insn);
	} else {
		out_printf(o, "BUG_%02x", insn->code);
	}
}

static void print_st(struct out *o, const struct bpfvet_insn *insn)
{
	if (BPF_MODE(insn->code) == BPF_MEM) {
		print_opcode(o, insn);
		out_printf(o, "*(%s *)(r%d %+d) = %d", size_name(insn->code),
			   insn->dst_reg, insn->off, insn->imm);
	} else if (BPF_MODE(insn->code) == BPF_ATOMIC) {
		/* Mode 0xc0 of ST is the kernel-internal speculation barrier. */
		print_opcode(o, insn);
		out_printf(o, "nospec");
	} else {
		out_printf(o, "BUG_st_%02x", insn->code);
	}
}

/* --- Loads --------------------------------------------------------- */

static void print_ldx(struct out *o, const struct bpfvet_insn *insn)
{
	const uint8_t mode = BPF_MODE(insn->code);
	const char *sz;

	if (mode != BPF_MEM && mode != BPF_MEMSX) {
		out_printf(o, "BUG_ldx_%02x", insn->code);
		return;
	}
	sz = mode == BPF_MEM ? size_name(insn->code)
			     : or_null(sext_sizes[BPF_SIZE(insn->code) >> 3]);
	print_opcode(o, insn);
	out_printf(o, "r%d = *(%s *)(r%d %+d)", insn->dst_reg, sz,
		   insn->src_reg, insn->off);
}

static bool is_pointer_pseudo(uint8_t src)
{
	switch (src) {
	case BPF_PSEUDO_MAP_FD:
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX:
	case BPF_PSEUDO_MAP_IDX_VALUE:
	case BPF_PSEUDO_BTF_ID:
		return true;
	default:
		return false;
	}
}

static void print_ldimm64(struct out *o, const struct bpfvet_insn *insn,
			  const struct disasm_ops *ops)
{
	uint64_t v = (uint64_t)(uint32_t)insn[1].imm << 32 |
		     (uint32_t)insn[0].imm;

	if (is_pointer_pseudo(insn->src_reg) && ops && ops->pseudo_value)
		v = ops->pseudo_value(ops->priv, insn, v);
	print_opcode(o, insn);
	out_printf(o, "r%d = 0x%" PRIx64, insn->dst_reg, v);
}

static void print_ld(struct out *o, const struct bpfvet_insn *insn,
		     const struct disasm_ops *ops)
{
	switch (BPF_MODE(insn->code)) {
	case BPF_ABS:
		print_opcode(o, insn);
		out_printf(o, "r0 = *(%s *)skb[%d]", size_name(insn->code),
			   insn->imm);
		return;
	case BPF_IND:
		print_opcode(o, insn);
		out_printf(o, "r0 = *(%s *)skb[r%d + %d]",
			   size_name(insn->code), insn->src_reg, insn->imm);
		return;
	case BPF_IMM:
		if (BPF_SIZE(insn->code) == BPF_DW) {
			print_ldimm64(o, insn, ops);
			return;
		}
		break;
	}
	out_printf(o, "BUG_ld_%02x", insn->code);
}

/* --- Jumps and calls ----------------------------------------------- */

static void print_call(struct out *o, const struct bpfvet_insn *insn,
		       const struct disasm_ops *ops)
{
	const char *name = NULL;
	int32_t id = insn->imm;

	if (insn->src_reg == BPF_PSEUDO_CALL) {
		out_printf(o, "call pc%+d", insn->imm);
		return;
	}
	if (insn->src_reg == 0) {
		name = insn->imm >= 0 ? helper_name((uint32_t)insn->imm) : NULL;
	} else if (insn->src_reg == BPF_PSEUDO_KFUNC_CALL) {
		if (ops && ops->kfunc_name)
			name = ops->kfunc_name(ops->priv, insn, &id);
		if (!name)
			name = "kernel-function";
		/* The kernel names the function it resolved to: a flavored
		 * extern (bpf_task_acquire___one) is bpf_task_acquire there. */
		out_printf(o, "call %.*s#%d", (int)core_essential_len(name), name, id);
		return;
	}
	out_printf(o, "call %s#%d", name ? name : "unknown", id);
}

static void print_jmp(struct out *o, const struct bpfvet_insn *insn,
		      const struct disasm_ops *ops)
{
	const char r = BPF_CLASS(insn->code) == BPF_JMP32 ? 'w' : 'r';
	const uint8_t op = BPF_OP(insn->code);

	print_opcode(o, insn);
	if (op == BPF_CALL)
		print_call(o, insn, ops);
	else if (insn->code == (BPF_JMP | BPF_JA))
		out_printf(o, "goto pc%+d", insn->off);
	else if (insn->code == (BPF_JMP | BPF_JCOND) &&
		 insn->src_reg == BPF_MAY_GOTO)
		out_printf(o, "may_goto pc%+d", insn->off);
	else if (insn->code == (BPF_JMP32 | BPF_JA))
		/* The long jump keeps its offset in imm. */
		out_printf(o, "gotol pc%+d", insn->imm);
	else if (insn->code == (BPF_JMP | BPF_EXIT))
		out_printf(o, "exit");
	else if (BPF_SRC(insn->code) == BPF_X)
		out_printf(o, "if %c%d %s %c%d goto pc%+d", r, insn->dst_reg,
			   or_null(jmp_ops[op >> 4]), r, insn->src_reg,
			   insn->off);
	else
		out_printf(o, "if %c%d %s 0x%x goto pc%+d", r, insn->dst_reg,
			   or_null(jmp_ops[op >> 4]), (uint32_t)insn->imm,
			   insn->off);
}

/* --- Entry points -------------------------------------------------- */

bool disasm_is_ldimm64_tail(const struct bpfvet_insn *insns, size_t cnt,
			    size_t idx)
{
	size_t run = 0;

	if (idx >= cnt)
		return false;
	/* Slots pair up from the start of a run of ld_imm64 opcodes, since
	 * whatever precedes the run cannot be a first slot. */
	while (run < idx && insn_is_ldimm64(&insns[idx - run - 1]))
		run++;
	return run % 2 == 1;
}

int disasm_insn(const struct bpfvet_insn *insns, size_t cnt, size_t idx,
		const struct disasm_ops *ops, char *buf, size_t sz)
{
	const struct bpfvet_insn *insn;
	struct out o = { .buf = buf, .sz = sz };
	int slots = 1;

	if (!insns || idx >= cnt || disasm_is_ldimm64_tail(insns, cnt, idx))
		return -EINVAL;
	insn = &insns[idx];
	if (insn_is_ldimm64(insn)) {
		if (idx + 1 >= cnt)
			return -EINVAL;
		slots = 2;
	}
	if (!buf || !sz)
		return -ENOSPC;
	buf[0] = '\0';

	switch (BPF_CLASS(insn->code)) {
	case BPF_ALU:
	case BPF_ALU64:
		print_alu(&o, insn);
		break;
	case BPF_STX:
		print_stx(&o, insn);
		break;
	case BPF_ST:
		print_st(&o, insn);
		break;
	case BPF_LDX:
		print_ldx(&o, insn);
		break;
	case BPF_LD:
		print_ld(&o, insn, ops);
		break;
	default: /* BPF_JMP, BPF_JMP32 */
		print_jmp(&o, insn, ops);
		break;
	}
	return o.full ? -ENOSPC : slots;
}

/* --- Programs ------------------------------------------------------ */

/*
 * Stand-ins for kernel addresses: maps 1 MiB apart in the direct map, their
 * values at +0x1000, ksyms 4 KiB apart in the kernel image. Chosen to look
 * like the kernel's and to be distinct per map / extern.
 */
#define SYNTH_MAP_BASE		0xffff888100000000ULL
#define SYNTH_MAP_STRIDE	0x100000ULL
#define SYNTH_VALUE_OFF		0x1000ULL
#define SYNTH_KSYM_BASE		0xffffffff82000000ULL
#define SYNTH_KSYM_STRIDE	0x1000ULL

uint64_t disasm_map_addr(uint32_t map_idx)
{
	return SYNTH_MAP_BASE + map_idx * SYNTH_MAP_STRIDE;
}

uint64_t disasm_map_value_addr(uint32_t map_idx, uint32_t off)
{
	return disasm_map_addr(map_idx) + SYNTH_VALUE_OFF + off;
}

uint64_t disasm_ksym_addr(uint32_t extern_idx)
{
	return SYNTH_KSYM_BASE + extern_idx * SYNTH_KSYM_STRIDE;
}

/* What the printing callbacks see: the program, and whether map
 * addresses are hidden as from an unprivileged reader. */
struct prog_disasm {
	const struct bpfvet_program *prog;
	bool hide_ptrs;
};

static uint64_t prog_pseudo_value(void *priv, const struct bpfvet_insn *insn,
				  uint64_t raw)
{
	const struct prog_disasm *pd = priv;
	const struct bpfvet_program *prog = pd->prog;

	/* A hand-written descriptor: the kernel never gets to print it. */
	if (prog_insn_flag(prog, (size_t)(insn - prog->insns), INSN_F_LITERAL_FD))
		return raw;
	/* Without CAP_PERFMON the kernel prints map addresses as 0. */
	if (pd->hide_ptrs && (insn->src_reg == BPF_PSEUDO_MAP_FD ||
			      insn->src_reg == BPF_PSEUDO_MAP_VALUE))
		return 0;
	switch (insn->src_reg) {
	case BPF_PSEUDO_MAP_VALUE:
	case BPF_PSEUDO_MAP_IDX_VALUE:
		return disasm_map_value_addr((uint32_t)insn[0].imm,
					     (uint32_t)insn[1].imm);
	case BPF_PSEUDO_BTF_ID:
		/* libbpf loads a weak ksym the kernel lacks as 0. */
		if (ksym_weak_absent(prog, (uint32_t)insn->imm))
			return 0;
		return disasm_ksym_addr((uint32_t)insn->imm);
	default: /* MAP_FD, MAP_IDX */
		return disasm_map_addr((uint32_t)insn->imm);
	}
}

/* The loader leaves the extern index in imm. The kernel prints the
 * kfunc's name and id in vmlinux's BTF: with a target BTF that has it, so
 * do we (the name without the object's ___flavour); without, the
 * object's BTF id of the extern. */
static const char *prog_kfunc_name(void *priv, const struct bpfvet_insn *insn,
				   int32_t *id)
{
	const struct bpfvet_program *prog = ((const struct prog_disasm *)priv)->prog;
	const struct bpfvet_object *obj = prog->obj;
	const struct bpfvet_extern *ext;
	char name[128];
	int kid;

	if (insn->imm < 0 || (size_t)insn->imm >= prog->extern_cnt)
		return NULL;
	ext = &prog->externs[insn->imm];
	if (!ext->name)
		return NULL;
	*id = (int32_t)ext->btf_id;
	if (!obj || !obj->targ_btf)
		return ext->name;
	snprintf(name, sizeof(name), "%.*s", (int)core_essential_len(ext->name), ext->name);
	kid = btf_index_find(obj->targ_index, obj->targ_btf, name, BTF_KIND_FUNC);
	if (kid <= 0)
		return ext->name;
	*id = kid;
	return btf__name_by_offset(obj->targ_btf, btf__type_by_id(obj->targ_btf,
								    (uint32_t)kid)->name_off);
}

int disasm_prog_insn(const struct bpfvet_program *prog, size_t idx, bool hide_ptrs,
		     char *buf, size_t buf_sz)
{
	struct prog_disasm pd = { .prog = prog, .hide_ptrs = hide_ptrs };
	const struct disasm_ops ops = {
		.kfunc_name = prog_kfunc_name,
		.pseudo_value = prog_pseudo_value,
		.priv = &pd,
	};

	if (!prog)
		return -EINVAL;
	return disasm_insn(prog->insns, prog->insn_cnt, idx, &ops, buf,
			   buf_sz);
}

int bpfvet_program__disasm(const struct bpfvet_program *prog, size_t idx,
			   char *buf, size_t buf_sz)
{
	return disasm_prog_insn(prog, idx, false, buf, buf_sz);
}
