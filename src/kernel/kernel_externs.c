/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Externs, resolved against the running kernel with libbpf's rules:
 *  - a kfunc call gets the vmlinux BTF id of the FUNC with the extern's
 *    name (without a "___flavor" suffix), if its prototype is compatible;
 *    an unresolved weak kfunc becomes libbpf's poisoned helper call
 *    2002000000 + extern index, which the verifier reports if reachable;
 *  - a typed __ksym (LD_IMM64 BPF_PSEUDO_BTF_ID) gets the BTF id of the
 *    VAR (or FUNC) of that name; unresolved weak ones load 0;
 *  - a typeless __ksym loads its /proc/kallsyms address as a constant.
 * __kconfig values are in kernel_kconfig.c.
 * Unlike libbpf, only the externs the program uses are resolved: a strong
 * extern that only other programs of the object need does not matter.
 * Module BTF is not searched (this kernel has no modules).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "loader/loader.h"
#include "kernel_load.h"
#include "base/uapi.h"

/* ------------------------------------------------------------------ */
/* kfuncs and typed ksyms                                              */
/* ------------------------------------------------------------------ */

/* Per extern of the program: 0 not looked up yet, 1 resolved to id,
 * -1 unresolved (weak). */
struct ext_state {
	int state;
	uint32_t id;
};

static int resolve_func(struct kload *kl, const struct btf *vmlinux,
			const struct bpfvet_extern *e, struct ext_state *st)
{
	const struct btf *btf = kl->prog->obj ? kl->prog->obj->btf : NULL;
	char name[256];
	const struct btf_type *kf;
	int id, ok;

	snprintf(name, sizeof(name), "%.*s", (int)core_essential_len(e->name), e->name);
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	if (id <= 0) {
		if (e->weak)
			goto weak;
		return kload_refuse(kl, -ESRCH,
				    "extern (func ksym) '%s': not found in kernel or module BTFs",
				    e->name);
	}
	kf = btf__type_by_id(vmlinux, (uint32_t)id);
	ok = btf ? core_types_compat_unqual(btf, e->type_id, vmlinux, kf->type) : 0;
	if (ok <= 0) {
		if (e->weak)
			goto weak;
		return kload_refuse(kl, -EINVAL,
				    "extern (func ksym) '%s': func_proto [%u] incompatible with vmlinux [%u]",
				    e->name, e->type_id, kf->type);
	}
	st->state = 1;
	st->id = (uint32_t)id;
	return 0;
weak:
	st->state = -1;
	return 0;
}

static int resolve_var(struct kload *kl, const struct btf *vmlinux,
		       const struct bpfvet_extern *e, struct ext_state *st)
{
	const struct btf *btf = kl->prog->obj ? kl->prog->obj->btf : NULL;
	const struct btf_type *kv;
	int id, ok;

	id = btf__find_by_name_kind(vmlinux, e->name, BTF_KIND_VAR);
	if (id <= 0) {
		if (e->weak) {
			st->state = -1;
			return 0;
		}
		return kload_refuse(kl, -ESRCH, "extern (var ksym) '%s': not found in kernel BTF",
				    e->name);
	}
	kv = btf__type_by_id(vmlinux, (uint32_t)id);
	ok = btf ? core_types_compat_unqual(btf, e->type_id, vmlinux, kv->type) : 0;
	if (ok <= 0)
		return kload_refuse(kl, -EINVAL,
				    "extern (var ksym) '%s': incompatible types, local [%u], kernel [%u]",
				    e->name, e->type_id, kv->type);
	st->state = 1;
	st->id = (uint32_t)id;
	return 0;
}

static int resolve(struct kload *kl, size_t ext, struct ext_state *st)
{
	const struct bpfvet_extern *e;
	const struct btf *vmlinux;
	int err;

	if (ext >= kl->prog->extern_cnt)
		return kload_refuse(kl, -EINVAL, "reference to extern %zu, the program has %zu",
				    ext, kl->prog->extern_cnt);
	if (st[ext].state)
		return 0;
	e = &kl->prog->externs[ext];
	err = kfacts_vmlinux(kl->k, &vmlinux);
	if (err)
		return kload_refuse(kl, err, "extern '%s': cannot read the kernel's BTF (%s)",
				    e->name, strerror(-err));
	if (e->kind == BPFVET_EXTERN_KFUNC)
		return resolve_func(kl, vmlinux, e, &st[ext]);
	return resolve_var(kl, vmlinux, e, &st[ext]);
}

static int patch_call(struct kload *kl, struct bpfvet_insn *insn, struct ext_state *st)
{
	size_t ext = (size_t)insn->imm;
	int err = resolve(kl, ext, st);

	if (err)
		return err;
	if (st[ext].state > 0) {
		insn->imm = (int32_t)st[ext].id;
		insn->off = 0;
		return 0;
	}
	insn->code = BPF_JMP | BPF_CALL;
	insn->dst_reg = 0;
	insn->src_reg = 0;
	insn->off = 0;
	insn->imm = BPFVET_POISON_KFUNC_BASE + (int32_t)kl->prog->externs[ext].obj_idx;
	return 0;
}

static int patch_btf_id(struct kload *kl, struct bpfvet_insn *insn, struct ext_state *st)
{
	size_t ext = (size_t)insn->imm;
	int err = resolve(kl, ext, st);

	if (err)
		return err;
	if (st[ext].state > 0) {
		insn[0].imm = (int32_t)st[ext].id;
		insn[1].imm = 0;	/* vmlinux, not a module's BTF */
	} else {
		insn[0].src_reg = 0;
		insn[0].imm = 0;
		insn[1].imm = 0;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Typeless ksyms                                                      */
/* ------------------------------------------------------------------ */

static int patch_typeless(struct kload *kl)
{
	const struct bpfvet_program *prog = kl->prog;
	const char **names;
	uint64_t *addrs;
	int err = 0;

	if (!prog->ksym_ref_cnt)
		return 0;
	names = calloc(prog->extern_cnt, sizeof(*names));
	addrs = calloc(prog->extern_cnt, sizeof(*addrs));
	if (!names || !addrs) {
		free(names);
		free(addrs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < prog->extern_cnt; i++)
		names[i] = prog->externs[i].name;
	err = kfacts_kallsyms(names, prog->extern_cnt, addrs);
	if (err == -ENOTUNIQ)
		err = kload_refuse(kl, err, "extern (ksym): a name is ambiguous in /proc/kallsyms");
	else if (err)
		err = kload_refuse(kl, err, "cannot read /proc/kallsyms: %s", strerror(-err));
	for (size_t r = 0; r < prog->ksym_ref_cnt && !err; r++) {
		const struct bpfvet_ksym_ref *ref = &prog->ksym_refs[r];

		if (ref->ext >= prog->extern_cnt || (size_t)ref->insn + 1 >= kl->insn_cnt) {
			err = kload_refuse(kl, -EINVAL, "bad typeless ksym reference %zu", r);
			break;
		}
		if (!addrs[ref->ext] && !prog->externs[ref->ext].weak) {
			err = kload_refuse(kl, -ESRCH, "extern '%s' (strong): not resolved",
					   prog->externs[ref->ext].name);
			break;
		}
		kl->insns[ref->insn].imm = (int32_t)(uint32_t)addrs[ref->ext];
		kl->insns[ref->insn + 1].imm = (int32_t)(uint32_t)(addrs[ref->ext] >> 32);
	}
	free(names);
	free(addrs);
	return err;
}

int kext_patch(struct kload *kl)
{
	struct ext_state *st;
	int err = 0;

	if (!kl->prog->extern_cnt)
		return 0;
	st = calloc(kl->prog->extern_cnt, sizeof(*st));
	if (!st)
		return -ENOMEM;
	for (size_t i = 0; i < kl->insn_cnt && !err; i++) {
		struct bpfvet_insn *insn = &kl->insns[i];

		if (insn->code == (BPF_JMP | BPF_CALL) && insn->src_reg == BPF_PSEUDO_KFUNC_CALL)
			err = patch_call(kl, insn, st);
		else if (insn_is_ldimm64(insn) && i + 1 < kl->insn_cnt &&
			 insn->src_reg == BPF_PSEUDO_BTF_ID)
			err = patch_btf_id(kl, insn, st);
		if (insn_is_ldimm64(insn))
			i++;
	}
	free(st);
	return err ? err : patch_typeless(kl);
}
