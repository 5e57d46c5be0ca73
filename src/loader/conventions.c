/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Whose conventions an object is loaded by. libbpf is strict; cilium/ebpf,
 * iproute2 and the legacy loaders (samples/bpf, bcc, Falco's, OVS's,
 * Suricata's) accept objects that libbpf refuses: static programs,
 * programs in sections without function symbols, iproute2's struct
 * bpf_elf_map and its "id/key" tail-call sections. Under theirs, a
 * problem spoils the programs or maps it touches, not the whole object.
 *
 * AUTO looks at what the object holds, before its functions are
 * collected, and says why it chose: iproute2's map layout or tail-call
 * sections; static programs next to BTF (cilium/ebpf, whose Go structs
 * come from BTF), calls between code sections, or section names only
 * cilium/ebpf's prefixes know, next to BTF; static programs without BTF,
 * legacy maps, bare code sections, or section names only the legacy
 * loaders know without BTF (the custom loaders); libbpf otherwise. An
 * object with BTF and an odd section name was most likely built for
 * libbpf, which leaves that program without a type.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "base/uapi.h"
#include "progtype.h"
#include "steps.h"

#define IPROUTE2_DEF_SZ 36	/* struct bpf_elf_map */

static const char *const names[] = {
	[BPFVET_CONV_LIBBPF] = "libbpf",
	[BPFVET_CONV_CILIUM] = "cilium",
	[BPFVET_CONV_IPROUTE2] = "iproute2",
	[BPFVET_CONV_LEGACY] = "legacy",
	[BPFVET_CONV_AUTO] = "auto",
};

const char *bpfvet_conventions_name(enum bpfvet_conventions c)
{
	return (unsigned int)c < sizeof(names) / sizeof(names[0]) ? names[c] : NULL;
}

int bpfvet_conventions_by_name(const char *name, enum bpfvet_conventions *c)
{
	for (size_t i = 0; name && i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(name, names[i])) {
			*c = (enum bpfvet_conventions)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* What tells the loaders apart, read from sections and symbols. */
struct conv_signals {
	const char *static_prog;	/* a static FUNC in a program section */
	const char *static_sec;
	bool static_cilium_typed;	/* whose type cilium/ebpf's prefixes give */
	const char *tail_sec;		/* an "id/key" section of iproute2 */
	const char *bare_sec;		/* a code section without FUNC symbols */
	const char *legacy_sec;		/* a "maps" section ... */
	size_t legacy_def_sz;		/* ... and its definition size */
	const char *cilium_sec;		/* a type only cilium/ebpf's prefixes know */
	const char *old_sec;		/* a type only the legacy prefixes know */
	const char *cross_caller;	/* a call into another code section ... */
	const char *cross_callee;	/* ... than .text */
	bool btf;
};

static bool cilium_prefix_type(const char *sec, uint32_t *type);
static bool legacy_prefix_type(const char *sec, uint32_t *type);
static void scan_section_name(const char *name, struct conv_signals *s);

/* iproute2 names tail-call programs "id/key", two decimal numbers. */
bool conv_is_tail_section(const char *name)
{
	const char *p = name;

	if (!isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p++ != '/' || !isdigit((unsigned char)*p))
		return false;
	while (isdigit((unsigned char)*p))
		p++;
	return *p == '\0';
}

/* The first static program, preferring one cilium/ebpf would type: a
 * Cilium object's static tail calls sit next to sections only its own
 * loader names ("ingress" for OVS's), which cilium/ebpf would skip. */
static void note_static(struct conv_signals *s, const char *prog, const char *sec)
{
	struct sec_type st;
	uint32_t type;
	bool typed = progtype_from_section(sec, &st) || cilium_prefix_type(sec, &type);

	if (s->static_prog && (s->static_cilium_typed || !typed))
		return;
	s->static_prog = prog;
	s->static_sec = sec;
	s->static_cilium_typed = typed;
}

static void scan_code_section(const struct loader *ld, size_t idx, struct conv_signals *s)
{
	const char *name = ld->elf.secs[idx].name;
	bool any_func = false;

	if (conv_is_tail_section(name) && !s->tail_sec)
		s->tail_sec = name;
	for (size_t i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];

		if (sym->st_shndx != idx || ELF64_ST_TYPE(sym->st_info) != STT_FUNC)
			continue;
		any_func = true;
		if (idx != ld->text_shndx && ELF64_ST_BIND(sym->st_info) == STB_LOCAL)
			note_static(s, elf_file_sym_name(&ld->elf, sym), name);
	}
	if (!any_func && idx != ld->text_shndx && !s->bare_sec)
		s->bare_sec = name;
	if (idx != ld->text_shndx)
		scan_section_name(name, s);
}

/* Program types by section name: what libbpf's table lacks but another
 * loader's prefixes give ("socket/tail" for cilium/ebpf, "socket1",
 * "kprobe_x" for samples/bpf's loader). */
static void scan_section_name(const char *name, struct conv_signals *s)
{
	struct sec_type st;
	uint32_t type;

	if (progtype_from_section(name[0] == '?' ? name + 1 : name, &st) ||
	    conv_is_tail_section(name))
		return;
	if (!s->cilium_sec && cilium_prefix_type(name, &type))
		s->cilium_sec = name;
	if (!s->old_sec && legacy_prefix_type(name, &type))
		s->old_sec = name;
}

/* A bpf-to-bpf call from one code section into another than .text:
 * cilium/ebpf links functions of every executable section, libbpf and
 * the legacy loaders only those of .text. */
static void scan_cross_calls(const struct loader *ld, size_t rel_idx, struct conv_signals *s)
{
	const struct elf_sec *rsec = &ld->elf.secs[rel_idx];
	size_t target = rsec->shdr.sh_info;
	const struct elf_sec *code;

	if (rsec->shdr.sh_type != SHT_REL || target >= ld->elf.sec_cnt ||
	    ld->sec_kind[target] != SEC_CODE || s->cross_caller)
		return;
	code = &ld->elf.secs[target];
	for (size_t i = 0; i < rsec->size / sizeof(Elf64_Rel); i++) {
		struct bpfvet_insn insn;
		const Elf64_Sym *sym;
		Elf64_Rel rel;
		size_t sym_idx;

		elf_file_rel(rsec, i, &rel);
		sym_idx = ELF64_R_SYM(rel.r_info);
		if (sym_idx >= ld->elf.sym_cnt || rel.r_offset % sizeof(insn) ||
		    rel.r_offset + sizeof(insn) > code->size || !code->data)
			continue;
		/* A malformed object's data need not be aligned. */
		memcpy(&insn, (const char *)code->data + rel.r_offset, sizeof(insn));
		sym = &ld->elf.syms[sym_idx];
		if (insn.code != (BPF_JMP | BPF_CALL) || insn.src_reg != BPF_PSEUDO_CALL ||
		    sym->st_shndx == SHN_UNDEF || sym->st_shndx >= ld->elf.sec_cnt ||
		    sym->st_shndx == ld->text_shndx || ld->sec_kind[sym->st_shndx] != SEC_CODE)
			continue;
		s->cross_caller = code->name;
		s->cross_callee = ld->elf.secs[sym->st_shndx].name;
		return;
	}
}

/* The size of one definition of a "maps" section: its size over its
 * number of symbols, as the legacy loaders read it; 0 when unknown. */
static size_t legacy_def_size(const struct loader *ld, size_t idx)
{
	size_t nr = 0;

	for (size_t i = 0; i < ld->elf.sym_cnt; i++) {
		const Elf64_Sym *sym = &ld->elf.syms[i];

		nr += sym->st_shndx == idx && ELF64_ST_TYPE(sym->st_info) != STT_SECTION;
	}
	return nr && ld->elf.secs[idx].size % nr == 0 ? ld->elf.secs[idx].size / nr : 0;
}

static void scan(const struct loader *ld, struct conv_signals *s)
{
	memset(s, 0, sizeof(*s));
	s->btf = ld->btf_shndx != 0;
	for (size_t i = 1; i < ld->elf.sec_cnt; i++) {
		if (ld->sec_kind[i] == SEC_CODE)
			scan_code_section(ld, i, s);
		if (ld->sec_kind[i] == SEC_RELO)
			scan_cross_calls(ld, i, s);
		if (ld->sec_kind[i] == SEC_LEGACY_MAPS && !s->legacy_sec) {
			s->legacy_sec = ld->elf.secs[i].name;
			s->legacy_def_sz = legacy_def_size(ld, i);
		}
	}
}

static int set_reason(struct loader *ld, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int set_reason(struct loader *ld, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&ld->obj->conv_reason, fmt, ap);
	va_end(ap);
	if (n < 0) {
		ld->obj->conv_reason = NULL;
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	}
	return 0;
}

static int choose_auto(struct loader *ld, const struct conv_signals *s)
{
	struct bpfvet_object *obj = ld->obj;

	if (s->legacy_sec && s->legacy_def_sz == IPROUTE2_DEF_SZ) {
		obj->conv = BPFVET_CONV_IPROUTE2;
		return set_reason(ld, "section %s holds %d-byte map definitions, iproute2's "
				  "struct bpf_elf_map", s->legacy_sec, IPROUTE2_DEF_SZ);
	}
	if (s->tail_sec) {
		obj->conv = BPFVET_CONV_IPROUTE2;
		return set_reason(ld, "section %s is an iproute2 tail-call section (id/key)",
				  s->tail_sec);
	}
	if (s->static_prog && s->btf && s->static_cilium_typed) {
		obj->conv = BPFVET_CONV_CILIUM;
		return set_reason(ld, "program %s in section %s is static, with BTF: "
				  "cilium/ebpf loads it, libbpf does not", s->static_prog,
				  s->static_sec);
	}
	if (s->cross_caller) {
		obj->conv = BPFVET_CONV_CILIUM;
		return set_reason(ld, "section %s calls a function of section %s: only "
				  "cilium/ebpf links calls outside .text", s->cross_caller,
				  s->cross_callee);
	}
	if (s->cilium_sec && s->btf) {
		obj->conv = BPFVET_CONV_CILIUM;
		return set_reason(ld, "section %s names a program type that cilium/ebpf "
				  "knows and libbpf does not, with BTF", s->cilium_sec);
	}
	if (s->static_prog || s->bare_sec || s->legacy_sec || (s->old_sec && !s->btf)) {
		obj->conv = BPFVET_CONV_LEGACY;
		if (s->static_prog)
			return set_reason(ld, "program %s in section %s is static, %s",
					  s->static_prog, s->static_sec,
					  s->btf ? "in a section cilium/ebpf would not type" :
					  "without BTF");
		if (s->bare_sec)
			return set_reason(ld, "code section %s has no function symbols",
					  s->bare_sec);
		if (s->legacy_sec)
			return set_reason(ld, "section %s holds legacy map definitions, which "
					  "libbpf dropped in 1.0", s->legacy_sec);
		return set_reason(ld, "section %s names a program type that the legacy "
				  "loaders know and libbpf does not, without BTF", s->old_sec);
	}
	obj->conv = BPFVET_CONV_LIBBPF;
	return set_reason(ld, "nothing in it needs another loader");
}

int conventions_choose(struct loader *ld, enum bpfvet_conventions asked)
{
	struct conv_signals s;
	int err;

	if (!bpfvet_conventions_name(asked))
		return errbuf_set(ld->eb, -EINVAL, "unknown conventions %d", (int)asked);
	if (asked == BPFVET_CONV_AUTO) {
		scan(ld, &s);
		err = choose_auto(ld, &s);
	} else {
		ld->obj->conv = asked;
		err = set_reason(ld, "asked for");
	}
	/* Another loader's problems spoil what they touch, not the object. */
	if (!err && ld->obj->conv != BPFVET_CONV_LIBBPF)
		ld->lenient = true;
	return err;
}

/* Who loads objects of these conventions, for messages. */
static const char *loader_words(enum bpfvet_conventions c)
{
	switch (c) {
	case BPFVET_CONV_CILIUM: return "cilium/ebpf";
	case BPFVET_CONV_IPROUTE2: return "iproute2";
	case BPFVET_CONV_LEGACY: return "a legacy loader";
	default: return "libbpf";
	}
}

/* A rule of libbpf that the object's conventions set aside: a warning of
 * the object, so that the user knows libbpf would refuse it. */
int conv_warn_libbpf(struct loader *ld, const char *fmt, ...)
{
	char msg[400];
	va_list ap;
	int err;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	err = ld_warning(ld, "%s (%s loads it; libbpf refuses it)", msg,
			 loader_words(ld->obj->conv));
	return err;
}

/* cilium/ebpf's section prefixes, as plain prefixes ("socket/2",
 * "socket_filter/x" and "tcfoo" match), for the sections libbpf's table
 * does not know; the first match wins. The tracing ones (fentry/, lsm/,
 * iter/...) libbpf's table already matches. */
static const struct {
	const char *prefix;
	uint32_t type;
} cilium_prefixes[] = {
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
	{ "sk_reuseport", BPF_PROG_TYPE_SK_REUSEPORT },
	{ "kprobe/", BPF_PROG_TYPE_KPROBE },
	{ "uprobe/", BPF_PROG_TYPE_KPROBE },
	{ "kretprobe/", BPF_PROG_TYPE_KPROBE },
	{ "uretprobe/", BPF_PROG_TYPE_KPROBE },
	{ "tc", BPF_PROG_TYPE_SCHED_CLS },
	{ "classifier", BPF_PROG_TYPE_SCHED_CLS },
	{ "action", BPF_PROG_TYPE_SCHED_ACT },
	{ "tracepoint/", BPF_PROG_TYPE_TRACEPOINT },
	{ "tp/", BPF_PROG_TYPE_TRACEPOINT },
	{ "raw_tracepoint.w/", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE },
	{ "raw_tp.w/", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE },
	{ "raw_tracepoint/", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "raw_tp/", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "syscall", BPF_PROG_TYPE_SYSCALL },
	{ "xdp", BPF_PROG_TYPE_XDP },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT },
	{ "lwt_in", BPF_PROG_TYPE_LWT_IN },
	{ "lwt_out", BPF_PROG_TYPE_LWT_OUT },
	{ "lwt_xmit", BPF_PROG_TYPE_LWT_XMIT },
	{ "lwt_seg6local", BPF_PROG_TYPE_LWT_SEG6LOCAL },
	{ "cgroup_skb/", BPF_PROG_TYPE_CGROUP_SKB },
	{ "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB },
	{ "cgroup/dev", BPF_PROG_TYPE_CGROUP_DEVICE },
	{ "sockops", BPF_PROG_TYPE_SOCK_OPS },
	{ "sk_skb", BPF_PROG_TYPE_SK_SKB },
	{ "sk_msg", BPF_PROG_TYPE_SK_MSG },
	{ "lirc_mode2", BPF_PROG_TYPE_LIRC_MODE2 },
	{ "flow_dissector", BPF_PROG_TYPE_FLOW_DISSECTOR },
	{ "cgroup/sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL },
	{ "sk_lookup/", BPF_PROG_TYPE_SK_LOOKUP },
	{ "seccomp", BPF_PROG_TYPE_SOCKET_FILTER },
};

static bool cilium_prefix_type(const char *sec, uint32_t *type)
{
	for (size_t i = 0; i < sizeof(cilium_prefixes) / sizeof(cilium_prefixes[0]); i++) {
		if (!strncmp(sec, cilium_prefixes[i].prefix, strlen(cilium_prefixes[i].prefix))) {
			*type = cilium_prefixes[i].type;
			return true;
		}
	}
	return false;
}

/* Section prefixes of the legacy loaders (samples/bpf's bpf_load.c and
 * the loaders modelled on it) that libbpf's table lacks: the type comes
 * from the prefix alone, whatever follows it ("socket1", "kprobe_x"). */
static const struct {
	const char *prefix;
	uint32_t type;
} legacy_prefixes[] = {
	{ "socket", BPF_PROG_TYPE_SOCKET_FILTER },
	{ "kprobe", BPF_PROG_TYPE_KPROBE },
	{ "kretprobe", BPF_PROG_TYPE_KPROBE },
	{ "tracepoint", BPF_PROG_TYPE_TRACEPOINT },
	{ "raw_tracepoint", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "xdp", BPF_PROG_TYPE_XDP },
	{ "perf_event", BPF_PROG_TYPE_PERF_EVENT },
	{ "classifier", BPF_PROG_TYPE_SCHED_CLS },
	{ "action", BPF_PROG_TYPE_SCHED_ACT },
	{ "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB },
	{ "cgroup/sock", BPF_PROG_TYPE_CGROUP_SOCK },
	{ "sockops", BPF_PROG_TYPE_SOCK_OPS },
	{ "sk_skb", BPF_PROG_TYPE_SK_SKB },
	{ "sk_msg", BPF_PROG_TYPE_SK_MSG },
};

static bool legacy_prefix_type(const char *sec, uint32_t *type)
{
	size_t best = 0;	/* the longest matching prefix wins */

	for (size_t i = 0; i < sizeof(legacy_prefixes) / sizeof(legacy_prefixes[0]); i++) {
		size_t n = strlen(legacy_prefixes[i].prefix);

		if (n > best && !strncmp(sec, legacy_prefixes[i].prefix, n)) {
			best = n;
			*type = legacy_prefixes[i].type;
		}
	}
	return best != 0;
}

/* The type most programs of the object have: iproute2 gives every
 * program of an object the type it was asked to load (tc: sched_cls),
 * so a tail-call section "id/key" takes its siblings' type. */
static uint32_t sibling_type(const struct bpfvet_object *obj, uint32_t fallback)
{
	uint32_t best = fallback;
	size_t best_n = 0;

	for (size_t i = 0; i < obj->prog_cnt; i++) {
		size_t n = 0;

		if (!obj->progs[i].type_known)
			continue;
		for (size_t j = 0; j < obj->prog_cnt; j++)
			n += obj->progs[j].type_known && obj->progs[j].type == obj->progs[i].type;
		if (n > best_n) {
			best_n = n;
			best = obj->progs[i].type;
		}
	}
	return best;
}

/* Context structs that name one program type. Programs of the custom
 * loaders often sit in sections named for their role ("ingress",
 * "tail-32"), typed by the loader's code; with BTF, the context the
 * program takes says which type it was written for. __sk_buff serves
 * socket filters too: tc's type is the one those loaders use. */
static const struct {
	const char *ctx;
	uint32_t type;
} ctx_types[] = {
	{ "__sk_buff", BPF_PROG_TYPE_SCHED_CLS },
	{ "xdp_md", BPF_PROG_TYPE_XDP },
	{ "pt_regs", BPF_PROG_TYPE_KPROBE },
	{ "bpf_raw_tracepoint_args", BPF_PROG_TYPE_RAW_TRACEPOINT },
	{ "bpf_perf_event_data", BPF_PROG_TYPE_PERF_EVENT },
	{ "bpf_sock_ops", BPF_PROG_TYPE_SOCK_OPS },
	{ "sk_msg_md", BPF_PROG_TYPE_SK_MSG },
	{ "sk_reuseport_md", BPF_PROG_TYPE_SK_REUSEPORT },
	{ "bpf_sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL },
	{ "bpf_cgroup_dev_ctx", BPF_PROG_TYPE_CGROUP_DEVICE },
};

/* The struct a program's first argument points to, from its BTF. */
static const char *ctx_struct_name(const struct bpfvet_object *obj,
				   const struct bpfvet_program *p)
{
	const struct btf_type *t;
	uint32_t id;

	if (!obj->btf || !p->func_info_cnt)
		return NULL;
	t = btf__type_by_id(obj->btf, p->func_info[0].type_id);
	if (!t || !btf_is_func(t))
		return NULL;
	t = btf__type_by_id(obj->btf, t->type);
	if (!t || !btf_is_func_proto(t) || !btf_vlen(t))
		return NULL;
	id = btf_params(t)[0].type;
	t = btf__type_by_id(obj->btf, id);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(obj->btf, t->type);
	if (!t || !btf_is_ptr(t))
		return NULL;
	t = btf__type_by_id(obj->btf, t->type);
	while (t && (btf_is_mod(t) || btf_is_typedef(t)))
		t = btf__type_by_id(obj->btf, t->type);
	return t && btf_is_struct(t) ? btf__name_by_offset(obj->btf, t->name_off) : NULL;
}

/* The type the program's context names, and that context's struct name;
 * NULL when it names none. */
static const char *ctx_type(const struct bpfvet_object *obj, const struct bpfvet_program *p,
			    uint32_t *type)
{
	const char *name = ctx_struct_name(obj, p);

	for (size_t i = 0; name && i < sizeof(ctx_types) / sizeof(ctx_types[0]); i++) {
		if (!strcmp(name, ctx_types[i].ctx)) {
			*type = ctx_types[i].type;
			return name;
		}
	}
	return NULL;
}

/* The type another loader gives to a section libbpf's table does not
 * know; false when it gives none. */
static bool other_loader_type(const struct loader *ld, const char *sec, uint32_t siblings,
			      uint32_t *type)
{
	switch (ld->obj->conv) {
	case BPFVET_CONV_CILIUM:
		return cilium_prefix_type(sec, type);
	case BPFVET_CONV_IPROUTE2:
	case BPFVET_CONV_LEGACY:
		if (legacy_prefix_type(sec, type))
			return true;
		*type = siblings;
		return conv_is_tail_section(sec);
	default:
		return false;
	}
}

/* A program no type was found for: its loader would not load it (libbpf:
 * "missing BPF prog type"; cilium/ebpf skips it), and neither does the
 * kernel without one. */
static int refuse_untyped(struct loader *ld, struct bpfvet_program *p)
{
	if (ld->obj->conv == BPFVET_CONV_LIBBPF)
		return ld_refuse(ld, p, -EINVAL,
				 "prog '%s': missing BPF prog type, check ELF section name '%s'",
				 p->name, p->sec_name);
	if (ld->obj->conv == BPFVET_CONV_CILIUM)
		return ld_refuse(ld, p, -EINVAL, "program %s: section %s gives no program type: "
				 "cilium/ebpf does not load it", p->name, p->sec_name);
	return ld_refuse(ld, p, -EINVAL, "program %s: section %s gives no program type: "
			 "its loader sets one (-t TYPE)", p->name, p->sec_name);
}

/* Programs whose section libbpf's table does not know get the type their
 * own loader would give them, each guess a warning, or are refused. */
int conventions_types(struct loader *ld)
{
	struct bpfvet_object *obj = ld->obj;
	uint32_t siblings = sibling_type(obj, BPF_PROG_TYPE_SCHED_CLS);
	int err = 0;

	if (ld->have_override)
		return 0;
	for (size_t i = 0; i < obj->prog_cnt && !err; i++) {
		struct bpfvet_program *p = &obj->progs[i];
		const char *ctx = NULL;
		uint32_t type;

		if (p->type_known || p->problem)
			continue;
		if (other_loader_type(ld, p->sec_name, siblings, &type)) {
			err = conv_warn_libbpf(ld, "program %s: section %s names no type libbpf "
					       "knows; its loader gives it %s", p->name,
					       p->sec_name, bpfvet_prog_type_name(type));
		} else if ((obj->conv == BPFVET_CONV_LEGACY || obj->conv == BPFVET_CONV_IPROUTE2) &&
			   (ctx = ctx_type(obj, p, &type))) {
			err = ld_warning(ld, "program %s: section %s names no type; its context, "
					 "struct %s, makes it %s (-t TYPE to say otherwise)",
					 p->name, p->sec_name, ctx, bpfvet_prog_type_name(type));
		} else {
			err = refuse_untyped(ld, p);
			continue;
		}
		p->type = type;
		p->type_known = true;
	}
	return err;
}
