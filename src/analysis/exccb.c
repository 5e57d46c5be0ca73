/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The exception callback: a global function named by the decl tag
 * "exception_callback:NAME" on the main program's BTF FUNC. Nothing calls
 * it, yet it runs when the program throws, so the kernel treats it as a
 * second entry point: a root of the reachability check, a global function
 * always verified (with a single scalar argument, its return value checked
 * like the program's), and a subprogram no code may call directly.
 */
#include <errno.h>
#include <string.h>

#include <bpf/btf.h>

#include "analysis.h"

#define EXCCB_TAG "exception_callback:"

static const struct btf *exccb_btf(const struct vet_env *env)
{
	return env->prog->obj ? env->prog->obj->btf : NULL;
}

/* Targets before 6.7 know no exception callback: the tag is ignored. */
static bool target_has_exceptions(const struct vet_env *env)
{
	return kver_has(env->prog->obj ? env->prog->obj->target_kver : 0, KVER_EXCEPTIONS);
}

/* The value of the one "exception_callback:" tag on the main function:
 * NULL with *err 0 when there is none. */
static const char *tag_value(struct vet_env *env, const struct btf *btf, uint32_t main_id,
			     int *err)
{
	const char *value = NULL;
	uint32_t n = btf__type_cnt(btf);

	*err = 0;
	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);
		const char *name;

		if (!t || !btf_is_decl_tag(t) || t->type != main_id ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!name || strncmp(name, EXCCB_TAG, strlen(EXCCB_TAG)))
			continue;
		if (value) {
			verbose(env, "multiple exception callback tags for main subprog\n");
			*err = -EEXIST;
			return NULL;
		}
		value = name + strlen(EXCCB_TAG);
	}
	return value;
}

/* The last func_info record of BTF FUNC `id`, as an instruction index;
 * 0 or a negative errno when it cannot be the callback. */
static int64_t func_info_start(struct vet_env *env, uint32_t id)
{
	const struct bpfvet_program *p = env->prog;
	int64_t off = 0;

	for (size_t i = 0; i < p->func_info_cnt; i++) {
		if (p->func_info[i].type_id != id)
			continue;
		off = p->func_info[i].insn_off;
		if (!off) {
			verbose(env, "invalid exception callback insn_off in func_info: 0\n");
			off = -EINVAL;
		}
	}
	if (!off) {
		verbose(env, "exception callback type id not found in func_info\n");
		off = -EINVAL;
	}
	return off;
}

int exccb_find_start(struct vet_env *env, int64_t *start)
{
	const struct btf *btf = exccb_btf(env);
	const struct btf_type *t;
	const char *name;
	uint32_t main_id;
	int err, id;

	*start = 0;
	if (!btf || !env->prog->func_info_cnt || !target_has_exceptions(env))
		return 0;
	main_id = env->prog->func_info[0].type_id;
	if (!btf__type_by_id(btf, main_id)) {
		verbose(env, "invalid btf id for main subprog in func_info\n");
		return -EINVAL;
	}
	name = tag_value(env, btf, main_id, &err);
	if (!name)
		return err;
	id = btf__find_by_name_kind(btf, name, BTF_KIND_FUNC);
	if (id < 0) {
		verbose(env, "exception callback '%s' could not be found in BTF\n", name);
		return -ENOENT;
	}
	t = btf__type_by_id(btf, (uint32_t)id);
	if (btf_vlen(t) != BTF_FUNC_GLOBAL) {	/* the linkage */
		verbose(env, "exception callback '%s' must have global linkage\n", name);
		return -EINVAL;
	}
	*start = func_info_start(env, (uint32_t)id);
	return *start < 0 ? (int)*start : 0;
}

void exccb_mark(struct vet_env *env, int64_t start)
{
	if (start <= 0)
		return;
	for (uint32_t i = 1; i < env->subprog_cnt; i++) {
		struct subprog_info *sp = &env->subprogs[i];

		if (sp->start != (uint32_t)start)
			continue;
		/* Like an async callback it starts on a stack of its own. */
		sp->is_cb = true;
		sp->is_async_cb = true;
		sp->is_exception_cb = true;
		return;
	}
}

uint32_t exccb_subprog(const struct vet_env *env)
{
	for (uint32_t i = 1; i < env->subprog_cnt; i++)
		if (env->subprogs[i].is_exception_cb)
			return i;
	return 0;
}

/* After a successful verification of a program that throws without a
 * callback of its own, the kernel appends a hidden default one (returning
 * the cookie), which its "stack depth" line counts. */
bool exccb_default_added(const struct vet_env *env)
{
	if (exccb_subprog(env))
		return false;
	for (uint32_t i = 0; i < env->insn_cnt; i++)
		if (env->aux[i].seen && kfunc_is_throw(env, &env->insns[i]))
			return true;
	return false;
}
