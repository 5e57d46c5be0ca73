/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Workqueues (bpf_wq_init, bpf_wq_set_callback_impl, bpf_wq_start) and
 * task works (bpf_task_work_schedule_signal_impl, _resume_impl, 6.18): a
 * struct bpf_wq or bpf_task_work field of a map value, at its exact
 * offset. The map argument after it must be the one the field lives in.
 * The callback runs later, in a process context of its own: an async
 * callback that may sleep, called with the map, the key and the value
 * (calls.c). The messages are Linux 6.18.44's (tests/progs/wq.c,
 * kfuncs_618b.c); 6.12's workqueue checks were fewer (KVER_WQ_618).
 */
#include <errno.h>
#include <string.h>

#include "verifier.h"

/* 6.12 compared the offset with the map's workqueue and nothing else;
 * what it did for a map without one bpfvet does not know. */
static int check_wq_offset_612(struct vet_env *env, const struct reg_state *reg)
{
	const struct map_field *f = map_field_of_type(env, reg->map_ptr, FIELD_WORKQUEUE);
	int64_t off = (int64_t)reg->b.var_off.value + reg->off;

	if (!f || !tnum_is_const(reg->b.var_off))
		return unsupported(env, "bpf_wq argument without a constant offset to a workqueue");
	if (f->off != off) {
		verbose(env, "off %lld doesn't point to 'struct bpf_wq' that is at %u\n",
			(long long)off, f->off);
		return -EINVAL;
	}
	return 0;
}

/* `field` is FIELD_WORKQUEUE or FIELD_TASK_WORK. */
int process_async_field_arg(struct vet_env *env, uint32_t regno, uint32_t field,
			    struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool wq = field == FIELD_WORKQUEUE;
	int err;

	if (reg->type != PTR_TO_MAP_VALUE) {
		verbose(env, "arg#%u doesn't point to a map value\n", regno - 1);
		return -EINVAL;
	}
	if (!wq || env_has(env, KVER_WQ_618))
		err = check_map_field_arg(env, regno, field, wq ? "bpf_wq" : "bpf_task_work");
	else
		err = check_wq_offset_612(env, reg);
	if (err)
		return err;
	meta->map_ptr = reg->map_ptr;
	meta->map_uid = reg->map_uid;
	meta->map_field = field;
	meta->map_field_regno = regno;
	return 0;
}

/* A map argument after the field: the same map, the same inner map. */
int check_async_map_arg(struct vet_env *env, uint32_t regno, struct kfunc_meta *meta)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	bool wq = meta->map_field == FIELD_WORKQUEUE;
	bool checked = !wq || env_has(env, KVER_WQ_618) ||
		       map_has_field(env, reg->map_ptr, FIELD_WORKQUEUE);

	if (meta->map_ptr && checked &&
	    (meta->map_ptr != reg->map_ptr || meta->map_uid != reg->map_uid)) {
		verbose(env, "%s pointer in R%u map_uid=%u doesn't match map pointer in R%u map_uid=%u\n",
			wq ? "workqueue" : "bpf_task_work", meta->map_field_regno, meta->map_uid,
			regno, reg->map_uid);
		return -EINVAL;
	}
	meta->map_ptr = reg->map_ptr;
	meta->map_uid = reg->map_uid;
	return 0;
}

bool kfunc_sets_async_cb(const char *name)
{
	return !strcmp(name, "bpf_wq_set_callback_impl") ||
	       !strcmp(name, "bpf_task_work_schedule_signal_impl") ||
	       !strcmp(name, "bpf_task_work_schedule_resume_impl");
}

int push_async_work_callback(struct vet_env *env, const struct bpfvet_insn *insn,
			     uint32_t insn_idx, const struct kfunc_desc *k, uint32_t subprog)
{
	bool wq = !strcmp(k->name, "bpf_wq_set_callback_impl");
	int err;

	if (env_has(env, KVER_WQ_618) && !env->cur->in_sleepable) {
		verbose(env, "sleepable callback in a program that is not sleepable\n");
		err = -EPERM;
	} else {
		err = push_callback_call(env, insn, insn_idx, subprog,
					 wq ? CB_WQ : CB_TASK_WORK);
	}
	if (err)
		verbose(env, "kfunc %s#%u failed callback verification\n", k->name, k->func_id);
	return err;
}
