/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Register liveness as a static backward data-flow analysis (as Linux 6.15
 * and later do): a register is live before an instruction if some path
 * from there reads it before writing it. State comparison ignores dead
 * registers; level-2 logs print the result as the "Live regs before insn"
 * table.
 */
#include <errno.h>
#include <stdlib.h>

#include "analysis.h"

#define R0_BIT		(1u << 0)
#define CALLER_SAVED	0x3fu	/* r0..r5 */

struct use_def {
	uint16_t use;
	uint16_t def;
};

static uint16_t call_params(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint16_t use = CALLER_SAVED & ~R0_BIT;
	int n;

	if (insn->src_reg == 0) {
		const struct helper_proto *fn = helper_proto_for(env, (uint32_t)insn->imm);

		if (!fn)
			return use;
		for (n = 0; n < 5 && fn->arg_type[n] != ARG_DONTCARE; n++)
			;
		return (uint16_t)(((1u << (n + 1)) - 1) & ~R0_BIT);
	}
	n = call_param_count(env, insn);
	if (n < 0)
		return use;
	return (uint16_t)(((1u << (n + 1)) - 1) & ~R0_BIT);
}

static struct use_def insn_use_def(const struct vet_env *env, const struct bpfvet_insn *insn)
{
	uint16_t src = (uint16_t)(1u << insn->src_reg), dst = (uint16_t)(1u << insn->dst_reg);
	uint8_t op = BPF_OP(insn->code), mode = BPF_MODE(insn->code);
	struct use_def ud = { .use = 0xffff, .def = 0 };

	switch (BPF_CLASS(insn->code)) {
	case BPF_LD:
		if (mode == BPF_IMM && BPF_SIZE(insn->code) == BPF_DW) {
			ud.def = dst;
			ud.use = 0;
		}
		break;
	case BPF_LDX:
		ud.def = dst;
		ud.use = src;
		break;
	case BPF_ST:
		ud.use = dst;
		break;
	case BPF_STX:
		if (mode == BPF_MEM) {
			ud.use = dst | src;
		} else if (insn->imm == BPF_CMPXCHG) {
			ud.use = R0_BIT | dst | src;
			ud.def = R0_BIT;
		} else if (insn->imm == BPF_LOAD_ACQ) {
			ud.def = dst;
			ud.use = src;
		} else if (insn->imm == BPF_STORE_REL) {
			ud.use = dst | src;
		} else {
			ud.use = dst | src;
			ud.def = (insn->imm & BPF_FETCH) ? src : 0;
		}
		break;
	case BPF_ALU:
	case BPF_ALU64:
		ud.def = dst;
		if (op == BPF_END)
			ud.use = dst;
		else if (op == BPF_MOV)
			ud.use = BPF_SRC(insn->code) == BPF_K ? 0 : src;
		else
			ud.use = BPF_SRC(insn->code) == BPF_K ? dst : dst | src;
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (op == BPF_JA || op == BPF_JCOND) {
			ud.use = 0;
		} else if (op == BPF_EXIT) {
			ud.use = R0_BIT;
		} else if (op == BPF_CALL) {
			ud.def = CALLER_SAVED;
			ud.use = call_params(env, insn);
		} else if (env->fault == FAULT_LIVE_JMP) {
			ud.use = 0;	/* an injected fault (fault.h) */
		} else {
			ud.use = BPF_SRC(insn->code) == BPF_K ? dst : dst | src;
		}
		break;
	}
	return ud;
}

static void print_live_table(struct vet_env *env)
{
	char text[256];

	verbose(env, "Live regs before insn:\n");
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		uint16_t live = env->aux[i].live_regs_before;

		if (env->aux[i].scc)
			verbose(env, "%3u ", env->aux[i].scc);
		else
			verbose(env, "    ");
		verbose(env, "%3u: ", i);
		for (int r = 0; r < 10; r++)
			verbose(env, "%c", live & (1u << r) ? '0' + r : '.');
		if (disasm_prog_insn(env->prog, i, !env->allow_ptr_leaks, text, sizeof(text)) < 0)
			text[0] = 0;
		verbose(env, " %s\n", text);
		if (insn_is_ldimm64(&env->insns[i]))
			i++;
	}
}

int compute_live_registers(struct vet_env *env)
{
	struct use_def *ud = vet_calloc(env, env->insn_cnt, sizeof(*ud));
	bool changed = true;

	if (!ud)
		return -ENOMEM;
	for (uint32_t i = 0; i < env->insn_cnt; i++)
		ud[i] = insn_use_def(env, &env->insns[i]);
	while (changed) {
		changed = false;
		for (uint32_t k = env->insn_cnt; k-- > 0;) {
			uint32_t succ[2];
			uint16_t out = 0, in;
			int n = insn_successors(env, k, succ);

			for (int j = 0; j < n; j++)
				if (succ[j] < env->insn_cnt)
					out |= env->aux[succ[j]].live_regs_before;
			in = (uint16_t)(ud[k].use | (out & ~ud[k].def));
			in &= 0x7ff;
			if (in != env->aux[k].live_regs_before) {
				env->aux[k].live_regs_before = in;
				changed = true;
			}
		}
	}
	vet_free(env, ud);
	if (env->log.level & LOG_LEVEL2)
		print_live_table(env);
	return 0;
}
