/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Externs, resolved against the running kernel with libbpf's rules:
 *  - a kfunc call gets the vmlinux BTF id of the FUNC with the extern's
 *    name (without a "___flavor" suffix), if its prototype is compatible;
 *    an unresolved weak kfunc becomes libbpf's poisoned helper call
 *    2002000000 + extern index, which the verifier reports if reachable;
 *  - a typed __ksym (LD_IMM64 BPF_PSEUDO_BTF_ID) gets the BTF id of the
 *    VAR (or FUNC) of that name; unresolved weak ones load 0;
 *  - a typeless __ksym loads its /proc/kallsyms address as a constant;
 *  - __kconfig values come from the kernel config, and LINUX_KERNEL_VERSION,
 *    LINUX_HAS_BPF_COOKIE and LINUX_HAS_SYSCALL_WRAPPER from the kernel.
 * Unlike libbpf, only the externs the program uses are resolved: a strong
 * extern that only other programs of the object need does not matter.
 * Module BTF is not searched (this kernel has no modules).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "kernel_load.h"
#include "loader.h"
#include "uapi.h"

#define POISON_KFUNC_BASE 2002000000	/* libbpf's poisoned kfunc call */
#define COMPAT_DEPTH 32

/* ------------------------------------------------------------------ */
/* Type compatibility (libbpf's bpf_core_types_are_compat rules)       */
/* ------------------------------------------------------------------ */

static bool kinds_compat(const struct btf_type *a, const struct btf_type *b)
{
	int ka = btf_kind(a), kb = btf_kind(b);

	if (ka == kb)
		return true;
	return (ka == BTF_KIND_ENUM || ka == BTF_KIND_ENUM64) &&
	       (kb == BTF_KIND_ENUM || kb == BTF_KIND_ENUM64);
}

static int compat(const struct btf *lb, uint32_t lid, const struct btf *tb, uint32_t tid,
		  int depth)
{
	const struct btf_type *lt, *tt;

	if (depth <= 0)
		return -EINVAL;
	lt = btf_skip_mods(lb, lid, &lid);
	tt = btf_skip_mods(tb, tid, &tid);
	if (!lt || !tt)
		return -EINVAL;
	if (!kinds_compat(lt, tt))
		return 0;
	switch (btf_kind(lt)) {
	case BTF_KIND_UNKN:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
	case BTF_KIND_FWD:
		return 1;
	case BTF_KIND_INT:
		/* Bitfield-like integers are the only incompatible ones. */
		return btf_int_offset(lt) == 0 && btf_int_offset(tt) == 0;
	case BTF_KIND_PTR:
		return compat(lb, lt->type, tb, tt->type, depth - 1);
	case BTF_KIND_ARRAY:
		return compat(lb, btf_array(lt)->type, tb, btf_array(tt)->type, depth - 1);
	case BTF_KIND_FUNC_PROTO: {
		const struct btf_param *lp = btf_params(lt), *tp = btf_params(tt);

		if (btf_vlen(lt) != btf_vlen(tt))
			return 0;
		for (uint16_t i = 0; i < btf_vlen(lt); i++) {
			int r = compat(lb, lp[i].type, tb, tp[i].type, depth - 1);

			if (r <= 0)
				return r;
		}
		return compat(lb, lt->type, tb, tt->type, depth - 1);
	}
	default:
		return 0;
	}
}

int kext_types_compat(const struct btf *lbtf, uint32_t lid, const struct btf *tbtf,
		      uint32_t tid)
{
	return compat(lbtf, lid, tbtf, tid, COMPAT_DEPTH);
}

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

	snprintf(name, sizeof(name), "%.*s", (int)kfacts_essential_len(e->name), e->name);
	id = btf__find_by_name_kind(vmlinux, name, BTF_KIND_FUNC);
	if (id <= 0) {
		if (e->weak)
			goto weak;
		return kload_refuse(kl, -ESRCH,
				    "extern (func ksym) '%s': not found in kernel or module BTFs",
				    e->name);
	}
	kf = btf__type_by_id(vmlinux, (uint32_t)id);
	ok = btf ? kext_types_compat(btf, e->type_id, vmlinux, kf->type) : 0;
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
	ok = btf ? kext_types_compat(btf, e->type_id, vmlinux, kv->type) : 0;
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
	insn->imm = POISON_KFUNC_BASE + (int32_t)kl->prog->externs[ext].obj_idx;
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

/* ------------------------------------------------------------------ */
/* __kconfig                                                           */
/* ------------------------------------------------------------------ */

enum kcfg_type { KCFG_UNKNOWN, KCFG_BOOL, KCFG_TRISTATE, KCFG_CHAR, KCFG_INT, KCFG_CHAR_ARR };

struct kcfg {
	const struct bpfvet_extern *e;
	enum kcfg_type type;
	bool is_signed;
	uint32_t size;
	uint8_t *val;		/* where it goes in the .kconfig value */
};

static enum kcfg_type kcfg_type_of(const struct btf *btf, uint32_t id, bool *is_signed,
				   int depth)
{
	const struct btf_type *t = btf_skip_mods(btf, id, NULL);
	const char *name;

	*is_signed = false;
	if (!t || depth > 4)
		return KCFG_UNKNOWN;
	name = btf__name_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			return t->size == 1 ? KCFG_BOOL : KCFG_UNKNOWN;
		*is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		if (t->size == 1)
			return KCFG_CHAR;
		if (t->size > 8 || (t->size & (t->size - 1)))
			return KCFG_UNKNOWN;
		return KCFG_INT;
	case BTF_KIND_ENUM:
	case BTF_KIND_ENUM64:
		if (btf_is_enum(t) && t->size != 4)
			return KCFG_UNKNOWN;
		return name && !strcmp(name, "libbpf_tristate") ? KCFG_TRISTATE : KCFG_UNKNOWN;
	case BTF_KIND_ARRAY: {
		bool sgn;

		if (!btf_array(t)->nelems ||
		    kcfg_type_of(btf, btf_array(t)->type, &sgn, depth + 1) != KCFG_CHAR)
			return KCFG_UNKNOWN;
		return KCFG_CHAR_ARR;
	}
	default:
		return KCFG_UNKNOWN;
	}
}

static bool fits(const struct kcfg *c, uint64_t v)
{
	unsigned bits = c->size * 8;

	if (c->size >= 8)
		return true;
	if (c->is_signed)
		return v + (1ULL << (bits - 1)) < (1ULL << bits);
	return (v >> bits) == 0;
}

static int set_num(struct kload *kl, const struct kcfg *c, uint64_t v)
{
	if (c->type != KCFG_INT && c->type != KCFG_CHAR && c->type != KCFG_BOOL)
		return kload_refuse(kl, -EINVAL,
				    "extern (kcfg) '%s': value '%llu' implies integer, char, or boolean type",
				    c->e->name, (unsigned long long)v);
	if (c->type == KCFG_BOOL && v > 1)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%llu' isn't boolean compatible",
				    c->e->name, (unsigned long long)v);
	if (!fits(c, v))
		return kload_refuse(kl, -ERANGE, "extern (kcfg) '%s': value '%llu' doesn't fit in %u bytes",
				    c->e->name, (unsigned long long)v, c->size);
	/* Little-endian host and target: the low bytes are the value. */
	memcpy(c->val, &v, c->size);
	return 0;
}

static int set_tristate(struct kload *kl, const struct kcfg *c, char v)
{
	uint32_t tri = v == 'y' ? 1 : v == 'm' ? 2 : 0;	/* enum libbpf_tristate */

	switch (c->type) {
	case KCFG_BOOL:
		if (v == 'm')
			return kload_refuse(kl, -EINVAL,
					    "extern (kcfg) '%s': value 'm' implies tristate or char type",
					    c->e->name);
		c->val[0] = v == 'y';
		return 0;
	case KCFG_TRISTATE:
		memcpy(c->val, &tri, c->size < sizeof(tri) ? c->size : sizeof(tri));
		return 0;
	case KCFG_CHAR:
		c->val[0] = (uint8_t)v;
		return 0;
	default:
		return kload_refuse(kl, -EINVAL,
				    "extern (kcfg) '%s': value '%c' implies bool, tristate, or char type",
				    c->e->name, v);
	}
}

static int set_string(struct kload *kl, const struct kcfg *c, const char *v, size_t len)
{
	if (c->type != KCFG_CHAR_ARR)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%.*s' implies char array type",
				    c->e->name, (int)len, v);
	if (len < 2 || v[len - 1] != '"')
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': invalid string config '%.*s'",
				    c->e->name, (int)len, v);
	len -= 2;
	if (len >= c->size)
		len = c->size - 1;	/* libbpf truncates, with a warning */
	memcpy(c->val, v + 1, len);
	c->val[len] = '\0';
	return 0;
}

static int set_config(struct kload *kl, const struct kcfg *c, const char *v, size_t len)
{
	char num[64], *end;
	uint64_t n;

	if (len == 1 && (v[0] == 'y' || v[0] == 'n' || v[0] == 'm'))
		return set_tristate(kl, c, v[0]);
	if (len && v[0] == '"')
		return set_string(kl, c, v, len);
	if (!len || len >= sizeof(num))
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%.*s' isn't a valid integer",
				    c->e->name, (int)len, v);
	memcpy(num, v, len);
	num[len] = '\0';
	errno = 0;
	n = strtoull(num, &end, 0);
	if (errno || *end)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%s' isn't a valid integer",
				    c->e->name, num);
	if (c->type != KCFG_INT && c->type != KCFG_CHAR)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': value '%s' implies integer type",
				    c->e->name, num);
	return set_num(kl, c, n);
}

/* libbpf's arch_specific_syscall_pfx(). */
static const char *syscall_prefix(void)
{
	static const struct { const char *machine, *pfx; } arch[] = {
		{ "x86_64", "x64" }, { "i686", "ia32" }, { "aarch64", "arm64" },
		{ "s390x", "s390x" }, { "ppc64le", "powerpc" }, { "ppc64", "powerpc" },
		{ "riscv64", "riscv" }, { "loongarch64", "loongarch" },
	};
	struct utsname uts;

	if (uname(&uts))
		return NULL;
	for (size_t i = 0; i < sizeof(arch) / sizeof(arch[0]); i++)
		if (!strcmp(uts.machine, arch[i].machine))
			return arch[i].pfx;
	return NULL;
}

/* libbpf answers by trying to attach a kprobe to __<arch>_sys_bpf. We do
 * not create probes; we ask whether kprobes exist at all (a kprobe PMU, or
 * tracefs kprobe_events for libbpf's legacy path) and whether the kernel
 * has the symbol. Without kprobes libbpf's probe fails, and says 0. */
static bool has_syscall_wrapper(void)
{
	const char *pfx = syscall_prefix();
	char name[64];
	const char *names[1] = { name };
	uint64_t addr = 0;

	if (!pfx)
		return false;
	if (access("/sys/bus/event_source/devices/kprobe/type", F_OK) &&
	    access("/sys/kernel/tracing/kprobe_events", F_OK) &&
	    access("/sys/kernel/debug/tracing/kprobe_events", F_OK))
		return false;
	snprintf(name, sizeof(name), "__%s_sys_bpf", pfx);
	return kfacts_kallsyms(names, 1, &addr) == 0 && addr;
}

/* Fills one extern; *set tells whether a value was found. */
static int kcfg_one(struct kload *kl, const struct kcfg *c, bool *set)
{
	const char *name = c->e->name, *v;
	size_t len;
	uint32_t ver;
	int err;

	*set = true;
	if (!strncmp(name, "CONFIG_", 7)) {
		err = kfacts_kconfig(kl->k, name, &v, &len);
		if (err)
			return kload_refuse(kl, err, "extern (kcfg) '%s': cannot read the kernel config (%s)",
					    name, strerror(-err));
		*set = v != NULL;
		return v ? set_config(kl, c, v, len) : 0;
	}
	if (!strcmp(name, "LINUX_KERNEL_VERSION")) {
		ver = kfacts_version(kl->k);
		if (!ver)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': failed to get kernel version",
					    name);
		return set_num(kl, c, ver);
	}
	if (!strcmp(name, "LINUX_HAS_BPF_COOKIE"))
		return set_num(kl, c, 1);	/* every kernel bpfvet models has it */
	if (!strcmp(name, "LINUX_HAS_SYSCALL_WRAPPER"))
		return set_num(kl, c, has_syscall_wrapper());
	if (strncmp(name, "LINUX_", 6) || !c->e->weak)
		return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': unrecognized virtual extern",
				    name);
	*set = false;
	return 0;
}

int kext_kconfig_fill(struct kload *kl, void *data, size_t size)
{
	const struct bpfvet_program *prog = kl->prog;
	const struct btf *btf = prog->obj ? prog->obj->btf : NULL;

	for (size_t i = 0; i < prog->extern_cnt; i++) {
		const struct bpfvet_extern *e = &prog->externs[i];
		const struct btf_type *var;
		struct kcfg c = { .e = e };
		long long sz;
		bool set;
		int err;

		if (e->kind != BPFVET_EXTERN_KCONFIG)
			continue;
		var = btf ? btf__type_by_id(btf, e->btf_id) : NULL;
		sz = var && btf_is_var(var) ? btf__resolve_size(btf, var->type) : -1;
		if (sz <= 0 || (uint64_t)e->kcfg_off + (uint64_t)sz > size)
			return kload_refuse(kl, -EINVAL, "extern (kcfg) '%s': bad type or place", e->name);
		c.type = kcfg_type_of(btf, var->type, &c.is_signed, 0);
		c.size = (uint32_t)sz;
		c.val = (uint8_t *)data + e->kcfg_off;
		err = kcfg_one(kl, &c, &set);
		if (err)
			return err;
		if (!set && !e->weak)
			return kload_refuse(kl, -ESRCH, "extern '%s' (strong): not resolved", e->name);
	}
	return 0;
}
