/* SPDX-License-Identifier: BSD-2-Clause */
/* Legacy packet loads (LD_ABS / LD_IND) of socket filters and tc programs:
 * they read the skb through R6 and may end the program at run time. */
#include <errno.h>

#include "verifier.h"

static bool may_access_skb(uint32_t prog_type)
{
	return prog_type == BPF_PROG_TYPE_SOCKET_FILTER ||
	       prog_type == BPF_PROG_TYPE_SCHED_CLS ||
	       prog_type == BPF_PROG_TYPE_SCHED_ACT;
}

/* A load that fails ends the program at run time: nothing may be held.
 * Before KVER_MSG_RESOURCE_LEAK, references were checked first and named
 * as socket references. */
static int check_ld_abs_resources(struct vet_env *env)
{
	int err;

	if (env_has(env, KVER_MSG_RESOURCE_LEAK))
		return check_resource_leak(env, true, "BPF_LD_[ABS|IND]");
	err = check_reference_leak(env, false);
	if (err) {
		verbose(env, "BPF_LD_[ABS|IND] cannot be mixed with socket references\n");
		return err;
	}
	return check_resource_leak(env, true, "BPF_LD_[ABS|IND]");
}

int check_ld_abs(struct vet_env *env, const struct bpfvet_insn *insn)
{
	struct reg_state *regs = cur_regs(env);
	uint8_t mode = BPF_MODE(insn->code);
	int err;

	if (!may_access_skb(env->prog_type)) {
		verbose(env, "BPF_LD_[ABS|IND] instructions not allowed for this program type\n");
		return -EINVAL;
	}
	if (insn->dst_reg || insn->off || BPF_SIZE(insn->code) == BPF_DW ||
	    (mode == BPF_ABS && insn->src_reg)) {
		verbose(env, "BPF_LD_[ABS|IND] uses reserved fields\n");
		return -EINVAL;
	}
	err = check_reg_arg(env, BPF_REG_6, SRC_OP);
	if (err)
		return err;
	err = check_ld_abs_resources(env);
	if (err)
		return err;
	if (regs[BPF_REG_6].type != PTR_TO_CTX) {
		verbose(env, "at the time of BPF_LD_ABS|IND R6 != pointer to skb\n");
		return -EINVAL;
	}
	if (mode == BPF_IND) {
		err = check_reg_arg(env, insn->src_reg, SRC_OP);
		if (err)
			return err;
	}
	err = check_ptr_off_reg(env, &regs[BPF_REG_6], BPF_REG_6, false);
	if (err)
		return err;
	clobber_caller_saved(env);
	reg_mark_unknown(env, &regs[BPF_REG_0]);
	if (!env->cur->curframe)
		return 0;
	/* At run time a failed load returns 0 from the whole subprogram:
	 * explore that hidden exit now, the load's success path later. */
	scratch_reg(env, BPF_REG_0);
	if (!push_stack(env, env->insn_idx + 1, env->insn_idx, false))
		return env->err ? env->err : -ENOMEM;
	reg_set_known(&regs[BPF_REG_0], 0);
	err = prepare_func_exit(env, &env->insn_idx);
	if (err)
		return err;
	env->insn_idx--;
	return 0;
}
