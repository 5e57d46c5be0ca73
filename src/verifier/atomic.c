/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Atomic instructions: read-modify-write operations (add, and, or, xor,
 * their fetch forms, xchg, cmpxchg) and the 6.18 load-acquire and
 * store-release forms.
 */
#include <errno.h>

#include "verifier.h"

/* The x86-64 JIT has no fault-tolerant form of the fetching and, or and
 * xor (a cmpxchg loop), so the kernel refuses them on an arena. */
static bool arena_atomic_jitted(const struct bpfvet_insn *insn)
{
	return insn->imm != (BPF_AND | BPF_FETCH) && insn->imm != (BPF_OR | BPF_FETCH) &&
	       insn->imm != (BPF_XOR | BPF_FETCH);
}

static bool atomic_ptr_ok(const struct vet_env *env, const struct bpfvet_insn *insn,
			  const struct reg_state *reg)
{
	uint32_t t = reg->type;

	(void)env;
	if (t == PTR_TO_ARENA)
		return arena_atomic_jitted(insn);
	return !(t == PTR_TO_CTX || reg_type_is_pkt(t) || t == PTR_TO_FLOW_KEYS ||
		 reg_type_is_sk_pointer(t));
}

static int refuse(struct vet_env *env, const char *what, uint32_t regno)
{
	char tb[64];

	verbose(env, "BPF_ATOMIC %s R%u %s is not allowed\n", what, regno,
		reg_type_str(tb, sizeof(tb), cur_regs(env)[regno].type));
	return -EACCES;
}

static int check_rmw(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct reg_state *regs = cur_regs(env);
	int load_reg = -1, err;

	if (BPF_SIZE(insn->code) != BPF_W && BPF_SIZE(insn->code) != BPF_DW) {
		verbose(env, "invalid atomic operand size\n");
		return -EINVAL;
	}
	err = check_src_dst_args(env, insn, true, SRC_OP);
	if (err)
		return err;
	if (insn->imm == BPF_CMPXCHG) {
		err = check_reg_arg(env, BPF_REG_0, SRC_OP);
		if (err)
			return err;
		if (reg_is_pointer(env, &regs[BPF_REG_0])) {
			verbose(env, "R0 leaks addr into mem\n");
			return -EACCES;
		}
	}
	if (reg_is_pointer(env, &regs[insn->src_reg])) {
		verbose(env, "R%u leaks addr into mem\n", insn->src_reg);
		return -EACCES;
	}
	if (!atomic_ptr_ok(env, insn, &regs[insn->dst_reg]))
		return refuse(env, "stores into", insn->dst_reg);
	if (insn->imm & BPF_FETCH) {
		load_reg = insn->imm == BPF_CMPXCHG ? BPF_REG_0 : insn->src_reg;
		err = check_reg_arg(env, (uint32_t)load_reg, DST_OP);
		if (err)
			return err;
	}
	err = check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off,
			       bpf_size_bytes(insn->code), ACCESS_READ, -1, true, false);
	if (!err && load_reg >= 0)
		err = check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off,
				       bpf_size_bytes(insn->code), ACCESS_READ, load_reg,
				       true, false);
	if (err)
		return err;
	if (regs[insn->dst_reg].type == PTR_TO_ARENA) {
		err = save_aux_ptr_type(env, PTR_TO_ARENA, false);
		if (err)
			return err;
	}
	return check_mem_access(env, env->insn_idx, insn->dst_reg, insn->off,
				bpf_size_bytes(insn->code), ACCESS_WRITE, -1, true, false);
}

static int check_load_acquire(struct vet_env *env, const struct bpfvet_insn *insn)
{
	int err = check_reg_arg(env, insn->src_reg, SRC_OP);

	if (err)
		return err;
	if (!atomic_ptr_ok(env, insn, &cur_regs(env)[insn->src_reg]))
		return refuse(env, "loads from", insn->src_reg);
	return check_load_mem_strict(env, insn, true);
}

static int check_store_release(struct vet_env *env, const struct bpfvet_insn *insn)
{
	int err = check_reg_arg(env, insn->dst_reg, SRC_OP);

	if (err)
		return err;
	if (!atomic_ptr_ok(env, insn, &cur_regs(env)[insn->dst_reg]))
		return refuse(env, "stores into", insn->dst_reg);
	return check_store_reg_strict(env, insn, true);
}

int check_atomic(struct vet_env *env, const struct bpfvet_insn *insn)
{
	switch (insn->imm) {
	case BPF_ADD:
	case BPF_ADD | BPF_FETCH:
	case BPF_AND:
	case BPF_AND | BPF_FETCH:
	case BPF_OR:
	case BPF_OR | BPF_FETCH:
	case BPF_XOR:
	case BPF_XOR | BPF_FETCH:
	case BPF_XCHG:
	case BPF_CMPXCHG:
		return check_rmw(env, insn);
	case BPF_LOAD_ACQ:
		return check_load_acquire(env, insn);
	case BPF_STORE_REL:
		return check_store_release(env, insn);
	default:
		verbose(env, "BPF_ATOMIC uses invalid atomic opcode %02x\n", insn->imm);
		return -EINVAL;
	}
}
