/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Kernel function (kfunc) calls. The kfunc must be in one of the target's
 * id sets for the program's type; its flags then ask for capabilities
 * (KF_DESTRUCTIVE), a sleepable program (KF_SLEEPABLE), trusted arguments
 * (KF_TRUSTED_ARGS, KF_RCU) and reference bookkeeping (KF_ACQUIRE,
 * KF_RELEASE, KF_RET_NULL). The arguments are checked against the BTF
 * prototype (kfunc_args.c), iterators by iter.c. R0 is typed by the
 * prototype's return type. A few kfuncs have rules of their own: the RCU
 * read lock and preemption pairs, the context and read-only casts, and
 * bpf_throw, __bpf_trap. Dynptr arguments are dynptr.c's, allocated
 * objects alloc_obj.c's, lists and trees graph.c's, workqueues and task
 * works wq.c's, resilient locks res_lock.c's. The arena kfuncs need no
 * rule of their own: a `__map` argument, an `__ign` one and a `void *`
 * (6.18: `void __arena *`) result, which is a number to the verifier.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "verifier.h"
#include "loader/loader.h"

/* The program types the kernel registers bpf_throw for (its generic kfunc
 * set); for the others bpfvet does not know the answer. */
static bool throw_allowed(const struct vet_env *env)
{
	switch (env->prog_type) {
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_TRACING:
	case BPF_PROG_TYPE_STRUCT_OPS:
		return true;
	default:
		return false;
	}
}

/* Names the kfunc, so that what is missing can be counted. */
static int unsupported_kfunc(struct vet_env *env, const struct bpfvet_insn *insn)
{
	const struct bpfvet_program *prog = env->prog;
	char what[160];

	if (prog && insn->imm >= 0 && (size_t)insn->imm < prog->extern_cnt &&
	    prog->externs[insn->imm].name)
		snprintf(what, sizeof(what), "kfunc call %s", prog->externs[insn->imm].name);
	else
		snprintf(what, sizeof(what), "kfunc call");
	return unsupported(env, what);
}

/* Kernel functions of the object model that no set should offer a
 * program (bpf_kptr_xchg is a helper); if a target's did, bpfvet keeps
 * no state for them. */
static bool is_object_model(const char *name)
{
	static const char *const prefixes[] = {
		"bpf_kptr_",
	};

	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return false;
}

static int check_call_flags(struct vet_env *env, const struct kfunc_desc *k)
{
	if (!kfunc_allowed(env, k->row)) {
		verbose(env, "calling kernel function %s is not allowed\n", k->name);
		return -EACCES;
	}
	if ((k->flags & KF_DESTRUCTIVE) && !env->caps.sys_admin) {
		verbose(env, "destructive kfunc calls require CAP_SYS_BOOT capability\n");
		return -EACCES;
	}
	if ((k->flags & KF_SLEEPABLE) && !env->cur->in_sleepable) {
		verbose(env, "program must be sleepable to call sleepable kfunc %s\n", k->name);
		return -EACCES;
	}
	return 0;
}

static void untrust_rcu(struct reg_state *reg)
{
	if (reg->type & MEM_RCU) {
		reg->type &= ~(MEM_RCU | PTR_MAYBE_NULL);
		reg->type |= PTR_UNTRUSTED;
	}
}

/* Leaving the RCU section: its pointers, spilled or not, and the
 * iterators created in it are no longer protected. */
static void untrust_rcu_all(struct vstate *st)
{
	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = st->frame[i];

		for (int r = 0; r < MAX_BPF_REG; r++)
			untrust_rcu(&f->regs[r]);
		for (int s = 0; s < f->allocated_stack / BPF_REG_SIZE; s++) {
			uint8_t type = stack_slot_at(f, s)->slot_type[BPF_REG_SIZE - 1];

			if (type == STACK_SPILL || type == STACK_ITER)
				untrust_rcu(&stack_slot_at(f, s)->spilled_ptr);
		}
	}
}

/* bpf_rcu_read_lock/unlock and bpf_preempt_disable/enable; a sleepable
 * kfunc inside either section. */
static int check_sections(struct vet_env *env, const struct kfunc_desc *k)
{
	struct vstate *st = env->cur;
	bool lock = !strcmp(k->name, "bpf_rcu_read_lock");
	bool unlock = !strcmp(k->name, "bpf_rcu_read_unlock");
	bool disable = !strcmp(k->name, "bpf_preempt_disable");
	bool enable = !strcmp(k->name, "bpf_preempt_enable");
	bool sleepable = k->flags & KF_SLEEPABLE;

	if (st->active_rcu_lock) {
		if (lock) {
			verbose(env, "nested rcu read lock (kernel function %s)\n", k->name);
			return -EINVAL;
		}
		if (unlock) {
			untrust_rcu_all(st);
			st->active_rcu_lock = 0;
		} else if (sleepable) {
			verbose(env, "kernel func %s is sleepable within rcu_read_lock region\n",
				k->name);
			return -EACCES;
		}
	} else if (lock) {
		st->active_rcu_lock = 1;
	} else if (unlock) {
		verbose(env, "unmatched rcu read unlock (kernel function %s)\n", k->name);
		return -EINVAL;
	}
	if (in_rbtree_lock_required_cb(env) && (lock || unlock)) {
		verbose(env, "Calling bpf_rcu_read_{lock,unlock} in unnecessary rbtree callback\n");
		return -EACCES;
	}
	if (st->active_preempt_locks) {
		if (disable) {
			st->active_preempt_locks++;
		} else if (enable) {
			st->active_preempt_locks--;
		} else if (sleepable) {
			verbose(env, "kernel func %s is sleepable within non-preemptible region\n",
				k->name);
			return -EACCES;
		}
	} else if (disable) {
		st->active_preempt_locks++;
	} else if (enable) {
		verbose(env, "unmatched attempt to enable preemption (kernel function %s)\n",
			k->name);
		return -EINVAL;
	}
	if (st->active_irq_id && sleepable) {
		verbose(env, "kernel func %s is sleepable within IRQ-disabled region\n", k->name);
		return -EACCES;
	}
	return 0;
}

/* bpf_throw: a scalar cookie which, without an exception callback, the
 * default one returns as the program's return value. do_check then ends
 * the path (an exceptional exit). */
static int check_throw(struct vet_env *env)
{
	const struct reg_state *r1 = &cur_regs(env)[BPF_REG_1];

	if (!throw_allowed(env))
		return unsupported(env, "kfunc call bpf_throw");
	if (r1->type != SCALAR_VALUE) {
		verbose(env, "R1 is not a scalar\n");
		return -EINVAL;
	}
	if (!exccb_subprog(env))
		return check_return_code(env, BPF_REG_1, "R1");
	return 0;
}

/* Without a target BTF: bpf_iter_num_* and bpf_throw, whose prototypes
 * bpfvet knows. */
static int check_builtin_call(struct vet_env *env, const struct kfunc_desc *k,
			      uint32_t *insn_idx)
{
	struct reg_state *r0 = &cur_regs(env)[BPF_REG_0];
	struct iter_arg it;
	int err;

	if (k->kind == KFUNC_THROW) {
		err = check_throw(env);
		if (!err)
			clobber_caller_saved(env);
		return err;
	}
	env->aux[*insn_idx].is_iter_next = k->kind == KFUNC_ITER_NEXT;
	err = iter_process_arg(env, k, *insn_idx, &it);
	for (int regno = BPF_REG_2; !err && regno <= k->nargs; regno++) {
		if (cur_regs(env)[regno].type != SCALAR_VALUE) {
			verbose(env, "R%d is not a scalar\n", regno);
			err = -EINVAL;
		}
	}
	if (err)
		return err;
	clobber_caller_saved(env);
	if (k->kind == KFUNC_ITER_NEW) {
		reg_mark_unknown(env, r0);
		r0->subreg_def = (int32_t)env->insn_idx + 1;
	} else if (k->kind == KFUNC_ITER_NEXT) {
		reg_mark_ptr(r0, PTR_TO_MEM | MEM_RDONLY | PTR_MAYBE_NULL);
		r0->mem_size = 4;
		r0->ref_obj_id = it.ref_obj_id;
		r0->id = ++env->id_gen;
		return iter_process_next(env, *insn_idx, &it);
	}
	return 0;
}

int check_kfunc_call(struct vet_env *env, const struct bpfvet_insn *insn, uint32_t *insn_idx)
{
	struct kfunc_meta meta;
	struct kfunc_desc k;
	int err;

	if (insn->imm >= 0 && ksym_weak_absent(env->prog, (uint32_t)insn->imm)) {
		verbose(env, "invalid func unknown#%d\n", BPFVET_POISON_KFUNC_BASE +
			(int32_t)env->prog->externs[insn->imm].obj_idx);
		return -EINVAL;
	}
	if (kfunc_describe(env, insn, &k))
		return unsupported_kfunc(env, insn);
	if (!k.btf)
		return check_builtin_call(env, &k, insn_idx);
	/* The compiler emits __bpf_trap() where a variable was never set
	 * (6.16); the kernel refuses the call whatever the program. */
	if (!strcmp(k.name, "__bpf_trap")) {
		verbose(env, "unexpected __bpf_trap() due to uninitialized variable?\n");
		return -EFAULT;
	}
	if (!k.row || is_object_model(k.name))
		return unsupported_kfunc(env, insn);
	env->aux[*insn_idx].is_iter_next = k.kind == KFUNC_ITER_NEXT;
	err = check_call_flags(env, &k);
	if (err)
		return err;
	/* A resilient lock may not be taken: that path forks first. */
	if (kfunc_is_res_lock(k.name)) {
		err = push_res_lock_failure(env, *insn_idx);
		if (err)
			return err;
	}
	memset(&meta, 0, sizeof(meta));
	err = check_kfunc_args(env, &k, *insn_idx, &meta);
	if (!err && meta.has_callback)
		err = push_async_work_callback(env, insn, *insn_idx, &k, meta.subprogno);
	if (!err && !strcmp(k.name, "bpf_rbtree_add_impl")) {
		err = push_callback_call(env, insn, *insn_idx, meta.subprogno, CB_RBTREE_ADD);
		if (err)
			verbose(env, "kfunc %s#%u failed callback verification\n", k.name, k.func_id);
	}
	if (!err)
		err = check_sections(env, &k);
	if (err)
		return err;
	if (meta.release_regno) {
		err = release_reference(env, cur_regs(env)[meta.release_regno].ref_obj_id);
		if (err) {
			verbose(env, "kfunc %s#%u reference has not been acquired before\n", k.name,
				k.func_id);
			return err;
		}
	}
	if (graph_kfunc_inserts(k.name)) {
		err = graph_insert_node(env, &k);
		if (err)
			return err;
	}
	if (k.kind == KFUNC_THROW) {
		err = check_throw(env);
		if (err)
			return err;
	}
	clobber_caller_saved(env);
	err = set_kfunc_return(env, &k, &meta);
	if (err)
		return err;
	if (kfunc_is_res_lock(k.name))
		reg_mark_known(&cur_regs(env)[BPF_REG_0], 0);
	if (k.kind == KFUNC_ITER_NEXT)
		return iter_process_next(env, *insn_idx, &meta.it);
	return 0;
}
