/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The ELF loader on small objects compiled from tests/progs/loader_*.c:
 * section rules, every map kind, every relocation kind, .BTF.ext and the
 * BTF fix-ups, checked against concrete values.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elf.h>

#include <bpf/btf.h>

#include "loader_util.h"
#include "base/uapi.h"

/* ------------------------------------------------------------------ */
/* Sections and program types                                          */
/* ------------------------------------------------------------------ */

struct want_prog {
	const char *name;
	const char *sec;
	uint32_t type;
	uint32_t attach;
	uint32_t flags;
	const char *target;
};

static const struct want_prog want_progs[] = {
	{ "p_socket", "socket", BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, NULL },
	{ "p_kprobe", "kprobe/do_unlinkat", BPF_PROG_TYPE_KPROBE, 0, 0, "do_unlinkat" },
	{ "p_kretprobe", "kretprobe/do_unlinkat", BPF_PROG_TYPE_KPROBE, 0, 0, "do_unlinkat" },
	{ "p_uprobe", "uprobe/bin:func", BPF_PROG_TYPE_KPROBE, 0, 0, "bin:func" },
	{ "p_uprobe_s", "uprobe.s/bin:func", BPF_PROG_TYPE_KPROBE, 0, BPF_F_SLEEPABLE, "bin:func" },
	{ "p_kmulti", "kprobe.multi/vfs_*", BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, "vfs_*" },
	{ "p_usdt", "usdt/bin:prov:name", BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_MULTI, 0, "bin:prov:name" },
	{ "p_tracepoint", "tracepoint/syscalls/sys_enter_openat", BPF_PROG_TYPE_TRACEPOINT, 0, 0,
	  "syscalls/sys_enter_openat" },
	{ "p_tp", "tp/sched/sched_switch", BPF_PROG_TYPE_TRACEPOINT, 0, 0, "sched/sched_switch" },
	{ "p_raw_tracepoint", "raw_tracepoint/sys_enter", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, "sys_enter" },
	{ "p_raw_tp", "raw_tp/sys_exit", BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, "sys_exit" },
	{ "p_raw_tp_w", "raw_tp.w/bpf_test_finish", BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 0,
	  "bpf_test_finish" },
	{ "p_tp_btf", "tp_btf/task_newtask", BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, 0, "task_newtask" },
	{ "p_xdp_frags", "xdp.frags", BPF_PROG_TYPE_XDP, BPF_XDP, BPF_F_XDP_HAS_FRAGS, NULL },
	{ "p_xdp_devmap", "xdp/devmap", BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, 0, NULL },
	{ "p_xdp_frags_cpumap", "xdp.frags/cpumap", BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP,
	  BPF_F_XDP_HAS_FRAGS, NULL },
	{ "p_tc", "tc", BPF_PROG_TYPE_SCHED_CLS, 0, 0, NULL },
	{ "p_tc_ingress", "tc/ingress", BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_INGRESS, 0, NULL },
	{ "p_tcx_egress", "tcx/egress", BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_EGRESS, 0, NULL },
	{ "p_classifier", "classifier", BPF_PROG_TYPE_SCHED_CLS, 0, 0, NULL },
	{ "p_action", "action", BPF_PROG_TYPE_SCHED_ACT, 0, 0, NULL },
	{ "p_cgroup_skb_ingress", "cgroup_skb/ingress", BPF_PROG_TYPE_CGROUP_SKB,
	  BPF_CGROUP_INET_INGRESS, 0, NULL },
	{ "p_cgroup_skb", "cgroup/skb", BPF_PROG_TYPE_CGROUP_SKB, 0, 0, NULL },
	{ "p_cgroup_sock", "cgroup/sock", BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, 0, NULL },
	{ "p_cgroup_sock_release", "cgroup/sock_release", BPF_PROG_TYPE_CGROUP_SOCK,
	  BPF_CGROUP_INET_SOCK_RELEASE, 0, NULL },
	{ "p_cgroup_bind4", "cgroup/bind4", BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND, 0, NULL },
	{ "p_cgroup_connect6", "cgroup/connect6", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
	  BPF_CGROUP_INET6_CONNECT, 0, NULL },
	{ "p_cgroup_sendmsg_unix", "cgroup/sendmsg_unix", BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
	  BPF_CGROUP_UNIX_SENDMSG, 0, NULL },
	{ "p_cgroup_getsockopt", "cgroup/getsockopt", BPF_PROG_TYPE_CGROUP_SOCKOPT,
	  BPF_CGROUP_GETSOCKOPT, 0, NULL },
	{ "p_cgroup_sysctl", "cgroup/sysctl", BPF_PROG_TYPE_CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, 0, NULL },
	{ "p_cgroup_dev", "cgroup/dev", BPF_PROG_TYPE_CGROUP_DEVICE, BPF_CGROUP_DEVICE, 0, NULL },
	{ "p_perf_event", "perf_event", BPF_PROG_TYPE_PERF_EVENT, 0, 0, NULL },
	{ "p_lwt_in", "lwt_in", BPF_PROG_TYPE_LWT_IN, 0, 0, NULL },
	{ "p_lwt_seg6local", "lwt_seg6local", BPF_PROG_TYPE_LWT_SEG6LOCAL, 0, 0, NULL },
	{ "p_sk_skb_parser", "sk_skb/stream_parser", BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_STREAM_PARSER, 0, NULL },
	{ "p_sk_skb", "sk_skb", BPF_PROG_TYPE_SK_SKB, 0, 0, NULL },
	{ "p_sk_msg", "sk_msg", BPF_PROG_TYPE_SK_MSG, BPF_SK_MSG_VERDICT, 0, NULL },
	{ "p_sockops", "sockops", BPF_PROG_TYPE_SOCK_OPS, BPF_CGROUP_SOCK_OPS, 0, NULL },
	{ "p_sk_reuseport_migrate", "sk_reuseport/migrate", BPF_PROG_TYPE_SK_REUSEPORT,
	  BPF_SK_REUSEPORT_SELECT_OR_MIGRATE, 0, NULL },
	{ "p_flow_dissector", "flow_dissector", BPF_PROG_TYPE_FLOW_DISSECTOR, BPF_FLOW_DISSECTOR, 0, NULL },
	{ "p_sk_lookup", "sk_lookup", BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP, 0, NULL },
	{ "p_fentry", "fentry/do_unlinkat", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, 0, "do_unlinkat" },
	{ "p_fexit", "fexit/do_unlinkat", BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, 0, "do_unlinkat" },
	{ "p_fmod_ret", "fmod_ret/security_bpf", BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, 0, "security_bpf" },
	{ "p_fentry_s", "fentry.s/do_unlinkat", BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, BPF_F_SLEEPABLE,
	  "do_unlinkat" },
	{ "p_freplace", "freplace/xdp_prog", BPF_PROG_TYPE_EXT, 0, 0, "xdp_prog" },
	{ "p_lsm", "lsm/file_open", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, 0, "file_open" },
	{ "p_lsm_s", "lsm.s/bprm_check_security", BPF_PROG_TYPE_LSM, BPF_LSM_MAC, BPF_F_SLEEPABLE,
	  "bprm_check_security" },
	{ "p_lsm_cgroup", "lsm_cgroup/socket_bind", BPF_PROG_TYPE_LSM, BPF_LSM_CGROUP, 0, "socket_bind" },
	{ "p_iter", "iter/task", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, 0, "task" },
	{ "p_iter_s", "iter.s/task_file", BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, BPF_F_SLEEPABLE, "task_file" },
	{ "p_struct_ops", "struct_ops/tcp_init", BPF_PROG_TYPE_STRUCT_OPS, 0, 0, "tcp_init" },
	{ "p_struct_ops_s", "struct_ops.s/op", BPF_PROG_TYPE_STRUCT_OPS, 0, BPF_F_SLEEPABLE, "op" },
	{ "p_syscall", "syscall", BPF_PROG_TYPE_SYSCALL, 0, BPF_F_SLEEPABLE, NULL },
	{ "p_netfilter", "netfilter", BPF_PROG_TYPE_NETFILTER, BPF_NETFILTER, 0, NULL },
	{ "p_optional", "xdp", BPF_PROG_TYPE_XDP, BPF_XDP, 0, NULL },
	{ "xdp_a", "xdp", BPF_PROG_TYPE_XDP, BPF_XDP, 0, NULL },
};

static void test_section_types(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_sections", NULL);
	size_t i;

	if (!obj)
		return;
	CHECK_INT(t, bpfvet_object__prog_cnt(obj), 61);
	CHECK_INT(t, bpfvet_object__map_cnt(obj), 0);
	CHECK_STR(t, bpfvet_object__name(obj), "loader_sections");
	CHECK_STR(t, bpfvet_object__license(obj), "Dual BSD/GPL");
	for (i = 0; i < sizeof(want_progs) / sizeof(want_progs[0]); i++) {
		const struct want_prog *w = &want_progs[i];
		struct bpfvet_program *p = lu_prog(t, obj, w->name);

		if (!p)
			continue;
		CHECK_STR(t, bpfvet_program__section(p), w->sec);
		CHECK_MSG(t, p->type_known, "%s: type not known", w->name);
		CHECK_MSG(t, bpfvet_program__type(p) == w->type, "%s: type %u, want %u",
			  w->name, bpfvet_program__type(p), w->type);
		CHECK_MSG(t, bpfvet_program__expected_attach_type(p) == w->attach,
			  "%s: attach %u, want %u", w->name,
			  bpfvet_program__expected_attach_type(p), w->attach);
		CHECK_MSG(t, bpfvet_program__flags(p) == w->flags, "%s: flags %#x, want %#x",
			  w->name, bpfvet_program__flags(p), w->flags);
		if (w->target)
			CHECK_STR(t, p->attach_target, w->target);
		else
			CHECK_MSG(t, !p->attach_target, "%s: target %s", w->name, p->attach_target);
	}
	bpfvet_object__close(obj);
}

static void test_section_special(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_sections", NULL);
	struct bpfvet_program *a, *b, *c, *opt, *unk, *notk;
	size_t cnt;

	if (!obj)
		return;
	a = lu_prog(t, obj, "xdp_a");
	b = lu_prog(t, obj, "xdp_b");
	c = lu_prog(t, obj, "xdp_c");
	opt = lu_prog(t, obj, "p_optional");
	unk = lu_prog(t, obj, "p_unknown");
	notk = lu_prog(t, obj, "p_not_kprobe");
	if (!a || !b || !c || !opt || !unk || !notk)
		goto out;
	/* Three programs from one section, each with its own code. */
	CHECK_INT(t, a->sec_idx, b->sec_idx);
	CHECK_INT(t, b->sec_idx, c->sec_idx);
	CHECK_INT(t, a->sec_insn_off, 0);
	CHECK_INT(t, b->sec_insn_off, 2);
	CHECK_INT(t, c->sec_insn_off, 4);
	CHECK_INT(t, bpfvet_program__insns(b, &cnt)[0].imm, 1 /* XDP_DROP */);
	CHECK_INT(t, cnt, 2);
	CHECK_INT(t, bpfvet_program__insns(c, &cnt)[0].imm, 3 /* XDP_TX */);
	CHECK(t, b == a + 1 && c == b + 1);
	/* "?xdp": the '?' is dropped and the program is not autoloaded. */
	CHECK(t, !opt->autoload);
	CHECK(t, a->autoload);
	CHECK(t, !unk->type_known);
	CHECK_INT(t, unk->type, 0);
	CHECK_STR(t, unk->sec_name, "my_custom_section");
	CHECK(t, !notk->type_known);
out:
	bpfvet_object__close(obj);
}

static void test_type_override(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_sections", "xdp");
	char err[128] = "";
	struct bpfvet_open_opts opts = {
		.sz = sizeof(opts),
		.prog_type = "no_such_type",
		.errbuf = err,
		.errbuf_sz = sizeof(err),
	};
	struct bpfvet_object *bad = NULL;
	char path[256];
	size_t i;

	if (obj) {
		for (i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
			struct bpfvet_program *p = bpfvet_object__prog(obj, i);

			CHECK_MSG(t, p->type == BPF_PROG_TYPE_XDP && p->type_known,
				  "%s: type %u", p->name, p->type);
		}
		/* Same type as the section: its attach type stays. */
		CHECK_INT(t, lu_prog(t, obj, "p_xdp_devmap")->expected_attach_type, BPF_XDP_DEVMAP);
		CHECK_INT(t, lu_prog(t, obj, "p_xdp_frags")->prog_flags, BPF_F_XDP_HAS_FRAGS);
		/* Different type: nothing of the section is kept. */
		CHECK_INT(t, lu_prog(t, obj, "p_cgroup_bind4")->expected_attach_type, 0);
		CHECK_INT(t, lu_prog(t, obj, "p_syscall")->prog_flags, 0);
		bpfvet_object__close(obj);
	}
	/* A section name is accepted as a type, with its attach type. */
	obj = lu_open(t, "loader_sections", "cgroup/connect4");
	if (obj) {
		CHECK_INT(t, lu_prog(t, obj, "p_unknown")->type, BPF_PROG_TYPE_CGROUP_SOCK_ADDR);
		CHECK_INT(t, lu_prog(t, obj, "p_unknown")->expected_attach_type,
			  BPF_CGROUP_INET4_CONNECT);
		bpfvet_object__close(obj);
	}
	test_prog_path(path, sizeof(path), "loader_sections");
	CHECK_INT(t, bpfvet_object__open(path, &opts, &bad), -EINVAL);
	CHECK(t, bad == NULL);
	CHECK_STR(t, err, "unknown program type 'no_such_type'");
}

/* ------------------------------------------------------------------ */
/* Maps                                                                */
/* ------------------------------------------------------------------ */

struct want_map {
	const char *name;
	uint32_t type, key, value, max, flags;
	enum bpfvet_map_origin origin;
	const char *inner;
};

static void check_maps(struct test_ctx *t, const struct bpfvet_object *obj,
		       const struct want_map *w, size_t n)
{
	size_t i;

	CHECK_INT(t, bpfvet_object__map_cnt(obj), n);
	for (i = 0; i < n && i < bpfvet_object__map_cnt(obj); i++) {
		const struct bpfvet_map *m = bpfvet_object__map(obj, i);
		const struct bpfvet_map *in = bpfvet_map__inner(m);

		CHECK_STR(t, bpfvet_map__name(m), w[i].name);
		CHECK_MSG(t, bpfvet_map__type(m) == w[i].type && bpfvet_map__key_size(m) == w[i].key &&
			  bpfvet_map__value_size(m) == w[i].value &&
			  bpfvet_map__max_entries(m) == w[i].max && bpfvet_map__flags(m) == w[i].flags &&
			  bpfvet_map__origin(m) == w[i].origin,
			  "map %s: type %u key %u value %u max %u flags %#x origin %d", w[i].name,
			  m->type, m->key_size, m->value_size, m->max_entries, m->flags, m->origin);
		if (w[i].inner)
			CHECK_MSG(t, in && !strcmp(in->name, w[i].inner), "map %s: inner %s",
				  w[i].name, in ? in->name : "(none)");
		else
			CHECK_MSG(t, !in, "map %s has inner %s", w[i].name, in->name);
	}
}

static void test_btf_maps(struct test_ctx *t)
{
	long page = sysconf(_SC_PAGESIZE);
	uint32_t rb_size = page == 4096 ? 8192 : (uint32_t)page;
	const struct want_map want[] = {
		{ "inner_a", BPF_MAP_TYPE_ARRAY, 4, 8, 8, 0, BPFVET_MAP_BTF, NULL },
		{ "inner_b", BPF_MAP_TYPE_ARRAY, 4, 8, 8, 0, BPFVET_MAP_BTF, NULL },
		{ "outer", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 4, 0, BPFVET_MAP_BTF, "outer.inner" },
		{ "jmp", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 3, 0, BPFVET_MAP_BTF, NULL },
		{ "by_type", BPF_MAP_TYPE_HASH, 4, 24, 1024, BPF_F_NO_PREALLOC, BPFVET_MAP_BTF, NULL },
		{ "by_size", BPF_MAP_TYPE_ARRAY, 4, 24, 16, 0, BPFVET_MAP_BTF, NULL },
		{ "rb", BPF_MAP_TYPE_RINGBUF, 0, 0, rb_size, 0, BPFVET_MAP_BTF, NULL },
		{ "bloom", BPF_MAP_TYPE_BLOOM_FILTER, 0, 8, 100, 0, BPFVET_MAP_BTF, NULL },
		{ "outer_hash", BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 2, 0, BPFVET_MAP_BTF, "outer_hash.inner" },
		{ "loader_m.data", BPF_MAP_TYPE_ARRAY, 4, 12, 1, BPF_F_MMAPABLE, BPFVET_MAP_DATA, NULL },
		{ "loader_m.rodata", BPF_MAP_TYPE_ARRAY, 4, 12, 1, BPF_F_MMAPABLE | BPF_F_RDONLY_PROG,
		  BPFVET_MAP_DATA, NULL },
		{ ".data.custom", BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_MMAPABLE, BPFVET_MAP_DATA, NULL },
		{ "loader_m.bss", BPF_MAP_TYPE_ARRAY, 4, 8, 1, BPF_F_MMAPABLE, BPFVET_MAP_DATA, NULL },
		{ "outer.inner", BPF_MAP_TYPE_ARRAY, 4, 8, 8, 0, BPFVET_MAP_INNER, NULL },
		{ "outer_hash.inner", BPF_MAP_TYPE_HASH, 8, 4, 32, 0, BPFVET_MAP_INNER, NULL },
	};
	struct bpfvet_object *obj = lu_open(t, "loader_maps", NULL);
	const struct bpfvet_map *m;
	const struct btf_type *bt;

	if (!obj)
		return;
	check_maps(t, obj, want, sizeof(want) / sizeof(want[0]));
	m = lu_map(t, obj, "by_type", NULL);
	if (m) {
		/* __type(key, __u32) and __type(value, struct val) keep BTF ids. */
		bt = btf__type_by_id(obj->btf, m->btf_value_type_id);
		CHECK(t, bt && btf_is_struct(bt) &&
			 !strcmp(btf__name_by_offset(obj->btf, bt->name_off), "val"));
		bt = btf__type_by_id(obj->btf, m->btf_key_type_id);
		CHECK(t, bt && !strcmp(btf__name_by_offset(obj->btf, bt->name_off), "__u32"));
		bt = btf__type_by_id(obj->btf, m->btf_var_type_id);
		CHECK(t, bt && btf_is_var(bt) &&
			 !strcmp(btf__name_by_offset(obj->btf, bt->name_off), "by_type"));
		CHECK_INT(t, m->sec_off, 0x98);	/* its ELF symbol value */
	}
	m = lu_map(t, obj, "by_size", NULL);
	if (m) {
		CHECK_INT(t, m->pinning, 1);
		CHECK_INT(t, m->btf_key_type_id, 0);
		CHECK_INT(t, m->btf_value_type_id, 0);
	}
	m = lu_map(t, obj, "bloom", NULL);
	if (m)
		CHECK_INT(t, m->map_extra, 3);
	m = lu_map(t, obj, "outer", NULL);
	if (m) {
		CHECK_INT(t, m->init_cnt, 3);
		if (m->init_cnt == 3) {
			CHECK_STR(t, m->init_slots[0], "inner_a");
			CHECK(t, m->init_slots[1] == NULL);
			CHECK_STR(t, m->init_slots[2], "inner_b");
		}
	}
	m = lu_map(t, obj, "jmp", NULL);
	if (m) {
		CHECK_INT(t, m->init_cnt, 2);
		if (m->init_cnt == 2) {
			CHECK(t, m->init_slots[0] == NULL);
			CHECK_STR(t, m->init_slots[1], "tail_target");
		}
	}
	m = lu_map(t, obj, "outer_hash", NULL);
	if (m)
		CHECK_INT(t, m->init_cnt, 0);
	bpfvet_object__close(obj);
}

static void test_global_data(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_maps", NULL);
	const struct bpfvet_map *m;
	const int32_t *d;
	const char *s;
	size_t sz;
	uint64_t v;

	if (!obj)
		return;
	m = lu_map(t, obj, "loader_m.data", NULL);
	if (m) {
		d = bpfvet_map__initial_value(m, &sz);
		CHECK_INT(t, sz, 12);
		CHECK(t, d && d[0] == 7 && d[1] == 1 && d[2] == 2);	/* counter, pair */
		CHECK_STR(t, m->real_name, ".data");
		{
			const struct btf_type *bt = btf__type_by_id(obj->btf, m->btf_value_type_id);

			CHECK(t, bt && btf_is_datasec(bt) && bt->size == 12);
		}
	}
	m = lu_map(t, obj, "loader_m.rodata", NULL);
	if (m) {
		s = bpfvet_map__initial_value(m, &sz);
		CHECK_INT(t, sz, 12);
		CHECK(t, s && *(const int32_t *)s == 42 && !strcmp(s + 4, "hits %d"));
	}
	m = lu_map(t, obj, ".data.custom", NULL);
	if (m) {
		s = bpfvet_map__initial_value(m, &sz);
		CHECK_INT(t, sz, 8);
		if (s) {
			memcpy(&v, s, sizeof(v));
			CHECK(t, v == 0x1122334455667788ULL);
		}
	}
	m = lu_map(t, obj, "loader_m.bss", NULL);
	if (m) {
		CHECK(t, bpfvet_map__initial_value(m, &sz) == NULL);
		CHECK_INT(t, sz, 0);
		CHECK_STR(t, m->real_name, ".bss");
	}
	bpfvet_object__close(obj);
}

/* (src_reg, imm, imm of the second half) of every LD_IMM64, in order. */
struct ld {
	uint8_t src;
	int32_t imm, imm2;
};

static void check_lds(struct test_ctx *t, const struct bpfvet_program *p,
		      const struct ld *want, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpfvet_insn *in = &p->insns[i];

		if (in->code != (BPF_LD | BPF_IMM | BPF_DW))
			continue;
		if (k < n)
			CHECK_MSG(t, in->src_reg == want[k].src && in->imm == want[k].imm &&
				  in[1].imm == want[k].imm2,
				  "%s: ld_imm64 #%zu at %zu: src %u imm %d imm2 %d, want %u %d %d",
				  p->name, k, i, in->src_reg, in->imm, in[1].imm, want[k].src,
				  want[k].imm, want[k].imm2);
		k++;
		i++;
	}
	CHECK_MSG(t, k == n, "%s: %zu ld_imm64, want %zu", p->name, k, n);
}

static void test_map_relocs(struct test_ctx *t)
{
	/* Map indexes: by_type 4, by_size 5, outer 2, jmp 3, .data 9,
	 * .rodata 10, .data.custom 11, .bss 12, rb 6, bloom 7, outer_hash 8. */
	static const struct ld want[] = {
		{ 1, 4, 0 }, { 1, 5, 0 }, { 1, 2, 0 }, { 1, 3, 0 },
		{ 2, 10, 0 },		/* limit */
		{ 2, 9, 4 },		/* pair (static, at .data+4) */
		{ 2, 9, 0 },		/* counter */
		{ 2, 11, 0 }, { 2, 12, 0 },
		{ 2, 10, 4 },		/* bpf_printk's format after limit */
		{ 1, 6, 0 }, { 1, 7, 0 }, { 1, 8, 0 },
	};
	struct bpfvet_object *obj = lu_open(t, "loader_maps", NULL);
	struct bpfvet_program *p;

	if (!obj)
		return;
	p = lu_prog(t, obj, "use_maps");
	if (p) {
		check_lds(t, p, want, sizeof(want) / sizeof(want[0]));
		CHECK_INT(t, p->insn_cnt, 83);
		CHECK_INT(t, p->subprog_cnt, 1);
	}
	bpfvet_object__close(obj);
}

static void test_legacy_maps(struct test_ctx *t)
{
	/* Symbol-table order: the static (local) map comes first. */
	static const struct want_map want[] = {
		{ "st_map", BPF_MAP_TYPE_ARRAY, 4, 2, 3, 0, BPFVET_MAP_LEGACY, NULL },
		{ "counters", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 256, 0, BPFVET_MAP_LEGACY, NULL },
		{ "flows", BPF_MAP_TYPE_LRU_HASH, 16, 32, 4096, BPF_F_NO_COMMON_LRU, BPFVET_MAP_LEGACY,
		  NULL },
		{ "s_outer", BPF_MAP_TYPE_HASH_OF_MAPS, 4, 4, 8, 0, BPFVET_MAP_LEGACY, "s_inner" },
		{ "s_inner", BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, BPFVET_MAP_LEGACY, NULL },
	};
	/* counters, flows, st_map (through the section symbol), s_outer. */
	static const struct ld lds[] = { { 1, 1, 0 }, { 1, 2, 0 }, { 1, 0, 0 }, { 1, 3, 0 } };
	struct bpfvet_object *obj = lu_open(t, "loader_legacy", NULL);
	struct bpfvet_program *p;

	if (!obj)
		return;
	check_maps(t, obj, want, sizeof(want) / sizeof(want[0]));
	if (bpfvet_object__map_cnt(obj) == 5) {
		CHECK_INT(t, obj->maps[0].sec_off, 40);
		CHECK_INT(t, obj->maps[1].sec_off, 0);
		CHECK_INT(t, obj->maps[2].sec_off, 20);
		CHECK_INT(t, obj->maps[3].sec_off, 0);
		CHECK_INT(t, obj->maps[4].sec_off, 28);
		CHECK(t, obj->maps[1].sec_idx != obj->maps[3].sec_idx);
	}
	p = lu_prog(t, obj, "legacy_prog");
	if (p)
		check_lds(t, p, lds, 4);
	CHECK_INT(t, bpfvet_object__conventions(obj), BPFVET_CONV_LEGACY);
	CHECK_STR(t, bpfvet_object__conventions_reason(obj),
		  "section maps holds legacy map definitions, which libbpf dropped in 1.0");
	bpfvet_object__close(obj);
}

/* libbpf 1.x refuses the object outright, as the system's libbpf does. */
static void test_legacy_maps_libbpf(struct test_ctx *t)
{
	char path[256], err[256] = "";
	struct bpfvet_open_opts opts = { .sz = sizeof(opts), .errbuf = err,
					 .errbuf_sz = sizeof(err),
					 .conventions = BPFVET_CONV_LIBBPF };
	struct bpfvet_object *obj = NULL;

	test_prog_path(path, sizeof(path), "loader_legacy");
	CHECK_INT(t, bpfvet_object__open(path, &opts, &obj), -EOPNOTSUPP);
	CHECK_STR(t, err, "section maps: legacy map definitions are not supported by libbpf v1.0+");
	CHECK(t, obj == NULL);
	bpfvet_object__close(obj);
}

static void test_iproute2_maps(struct test_ctx *t)
{
	static const struct want_map want[] = {
		{ "map_outer", BPF_MAP_TYPE_ARRAY_OF_MAPS, 4, 4, 8, 0, BPFVET_MAP_LEGACY, "map_inner" },
		{ "jmp_tc", BPF_MAP_TYPE_PROG_ARRAY, 4, 4, 2, 0, BPFVET_MAP_LEGACY, NULL },
		{ "map_inner", BPF_MAP_TYPE_ARRAY, 4, 4, 1, 0, BPFVET_MAP_LEGACY, NULL },
	};
	static const struct ld lds[] = { { 1, 0, 0 }, { 1, 1, 0 } };
	struct bpfvet_object *obj = lu_open(t, "loader_iproute2", NULL);
	const struct bpfvet_map *m;
	struct bpfvet_program *p;

	if (!obj)
		return;
	check_maps(t, obj, want, sizeof(want) / sizeof(want[0]));
	m = lu_map(t, obj, "map_outer", NULL);
	if (m) {
		CHECK_INT(t, m->init_cnt, 4);
		if (m->init_cnt == 4)
			CHECK_STR(t, m->init_slots[3], "map_inner");
	}
	m = lu_map(t, obj, "jmp_tc", NULL);
	if (m) {
		CHECK_INT(t, m->pinning, 2);
		CHECK_INT(t, m->init_cnt, 2);
		if (m->init_cnt == 2) {
			CHECK_STR(t, m->init_slots[0], "tail_0");
			CHECK_STR(t, m->init_slots[1], "tail_1");
		}
	}
	p = lu_prog(t, obj, "cls_main");
	if (p) {
		CHECK_INT(t, p->type, BPF_PROG_TYPE_SCHED_CLS);
		check_lds(t, p, lds, 2);
	}
	/* iproute2 gives its tail-call sections the type of their object. */
	CHECK_INT(t, bpfvet_object__conventions(obj), BPFVET_CONV_IPROUTE2);
	p = lu_prog(t, obj, "tail_0");
	if (p)
		CHECK_INT(t, p->type, BPF_PROG_TYPE_SCHED_CLS);
	bpfvet_object__close(obj);
}

/* ------------------------------------------------------------------ */
/* Code relocations                                                    */
/* ------------------------------------------------------------------ */

struct want_sub {
	const char *name;
	size_t start, len;
	bool global;
};

static void check_subprogs(struct test_ctx *t, const struct bpfvet_program *p,
			   const struct want_sub *w, size_t n)
{
	struct bpfvet_func s;
	size_t i;

	/* Through the public API (bpfvet_program__func), which the report's
	 * function headers use. */
	CHECK_INT(t, bpfvet_program__func_cnt(p), n);
	for (i = 0; i < n && !bpfvet_program__func(p, i, &s); i++)
		CHECK_MSG(t, !strcmp(s.name, w[i].name) && s.insn_off == w[i].start &&
			  s.insn_cnt == w[i].len && s.global == w[i].global,
			  "%s: subprog %zu is %s@%u+%u %s", p->name, i, s.name, s.insn_off,
			  s.insn_cnt, s.global ? "global" : "static");
	CHECK_INT(t, i, n);
	CHECK_INT(t, bpfvet_program__func(p, n, &s), -ERANGE);
}

static void test_calls(struct test_ctx *t)
{
	static const struct want_sub relocs_subs[] = {
		{ "relocs", 0, 31, true },
		{ "loop_cb", 31, 6, false },
		{ "add_global", 37, 3, true },
		{ "add_static", 40, 5, false },
		{ "add_hidden", 45, 3, false },	/* hidden: made static */
	};
	static const struct want_sub calls_subs[] = {
		{ "calls_only", 0, 3, true },
		{ "add_static", 3, 5, false },
	};
	struct bpfvet_object *obj = lu_open(t, "loader_relocs", NULL);
	struct bpfvet_program *p;

	if (!obj)
		return;
	p = lu_prog(t, obj, "relocs");
	if (p) {
		check_subprogs(t, p, relocs_subs, 5);
		CHECK_INT(t, p->insn_cnt, 48);
		/* bpf_loop callback: PSEUDO_FUNC, relative to the insn. */
		CHECK_INT(t, p->insns[20].src_reg, BPF_PSEUDO_FUNC);
		CHECK_INT(t, p->insns[20].imm, 31 - 20 - 1);
		/* add_global from the entry, add_hidden from the entry,
		 * add_static from add_global. */
		CHECK(t, p->insns[25].src_reg == BPF_PSEUDO_CALL && p->insns[25].imm == 37 - 25 - 1);
		CHECK(t, p->insns[28].src_reg == BPF_PSEUDO_CALL && p->insns[28].imm == 45 - 28 - 1);
		CHECK(t, p->insns[37].src_reg == BPF_PSEUDO_CALL && p->insns[37].imm == 40 - 37 - 1);
		/* Map value + offset: config is .data (map 1) at offset 0. */
		CHECK(t, p->insns[11].src_reg == BPF_PSEUDO_MAP_VALUE && p->insns[11].imm == 1 &&
			 p->insns[12].imm == 0);
		CHECK(t, p->insns[7].src_reg == BPF_PSEUDO_MAP_FD && p->insns[7].imm == 0);
	}
	p = lu_prog(t, obj, "calls_only");
	if (p) {
		check_subprogs(t, p, calls_subs, 2);
		CHECK(t, p->insns[1].src_reg == BPF_PSEUDO_CALL && p->insns[1].imm == 1);
	}
	/* The exception callback is appended although nothing calls it. */
	p = lu_prog(t, obj, "with_exc_cb");
	if (p) {
		static const struct want_sub w[] = {
			{ "with_exc_cb", 0, 2, true }, { "exc_cb", 2, 2, true },
		};

		check_subprogs(t, p, w, 2);
	}
	CHECK_INT(t, bpfvet_object__kversion(obj), 0x060c00);
	CHECK_STR(t, bpfvet_object__license(obj), "GPL");
	bpfvet_object__close(obj);
}

static void test_externs(struct test_ctx *t)
{
	static const struct ld lds[] = {
		{ BPF_PSEUDO_MAP_VALUE, 2, 0 },	/* "abc" in .rodata.str1.1 */
		/* typeless ksym: a made-up address, as no kallsyms was given */
		{ 0, (int32_t)0x83000000u, -1 },
		{ BPF_PSEUDO_BTF_ID, 3, 0 },	/* bpf_prog_active */
		{ BPF_PSEUDO_MAP_VALUE, 3, 0 },	/* LINUX_KERNEL_VERSION */
		{ BPF_PSEUDO_MAP_VALUE, 3, 4 },	/* CONFIG_BPF_SYSCALL */
		{ BPF_PSEUDO_MAP_VALUE, 3, 5 },	/* CONFIG_HZ_STR */
	};
	static const struct {
		const char *name;
		enum bpfvet_extern_kind kind;
		bool weak;
	} ext[] = {
		{ "bpf_rcu_read_lock", BPFVET_EXTERN_KFUNC, false },
		{ "bpf_rcu_read_unlock", BPFVET_EXTERN_KFUNC, false },
		{ "__start_rodata", BPFVET_EXTERN_KSYM, false },
		{ "bpf_prog_active", BPFVET_EXTERN_KSYM, false },
		{ "LINUX_KERNEL_VERSION", BPFVET_EXTERN_KCONFIG, false },
		{ "CONFIG_BPF_SYSCALL", BPFVET_EXTERN_KCONFIG, true },
		{ "CONFIG_HZ_STR", BPFVET_EXTERN_KCONFIG, true },
	};
	struct bpfvet_object *obj = lu_open(t, "loader_relocs", NULL);
	const struct bpfvet_map *m;
	struct bpfvet_program *p;
	const char *s;
	size_t i, sz;

	if (!obj)
		return;
	p = lu_prog(t, obj, "externs");
	if (p) {
		CHECK(t, p->insns[0].src_reg == BPF_PSEUDO_KFUNC_CALL && p->insns[0].imm == 0);
		CHECK(t, p->insns[1].src_reg == BPF_PSEUDO_KFUNC_CALL && p->insns[1].imm == 1);
		check_lds(t, p, lds, sizeof(lds) / sizeof(lds[0]));
		CHECK_INT(t, p->extern_cnt, 7);
		for (i = 0; i < 7 && i < p->extern_cnt; i++) {
			const struct bpfvet_extern *e = &p->externs[i];
			const struct btf_type *bt = btf__type_by_id(obj->btf, e->btf_id);

			CHECK_STR(t, e->name, ext[i].name);
			CHECK_MSG(t, e->kind == ext[i].kind && e->weak == ext[i].weak,
				  "%s: kind %d weak %d", e->name, e->kind, e->weak);
			CHECK(t, bt && !strcmp(btf__name_by_offset(obj->btf, bt->name_off), e->name));
		}
		if (p->extern_cnt == 7) {
			CHECK_INT(t, p->externs[2].type_id, 0);
			CHECK(t, p->externs[3].type_id != 0);
			CHECK_INT(t, p->externs[6].kcfg_off, 5);
		}
	}
	m = lu_map(t, obj, "loader_.kconfig", NULL);
	if (m) {
		CHECK_INT(t, m->value_size, 13);
		CHECK_INT(t, m->flags, BPF_F_RDONLY_PROG | BPF_F_MMAPABLE);
		/* Frozen, but no value was given: all bytes unknown. */
		CHECK(t, m->frozen && m->init_known);
		for (i = 0; m->init_known && i < m->value_size; i++)
			CHECK_INT(t, m->init_known[i], 0);
	}
	m = lu_map(t, obj, ".rodata.str1.1", NULL);
	if (m) {
		s = bpfvet_map__initial_value(m, &sz);
		CHECK(t, s && sz == 4 && !strcmp(s, "abc"));
		CHECK_INT(t, m->flags, BPF_F_RDONLY_PROG);
	}
	bpfvet_object__close(obj);
}

/* The kept BTF is what the kernel accepts: extern sections laid out,
 * hidden functions static. */
static void test_btf_fixups(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_relocs", NULL);
	const struct btf_type *bt;
	struct btf *btf;
	int id;

	if (!obj)
		return;
	CHECK(t, obj->btf_data && obj->btf_size > 0);
	CHECK(t, obj->btf_ext_data && obj->btf_ext_size > 0);
	btf = obj->btf_data ? btf__new(obj->btf_data, obj->btf_size) : NULL;
	CHECK(t, btf != NULL);
	if (!btf)
		goto out;
	id = btf__find_by_name_kind(btf, ".kconfig", BTF_KIND_DATASEC);
	bt = id > 0 ? btf__type_by_id(btf, id) : NULL;
	CHECK(t, bt && bt->size == 13);
	id = btf__find_by_name_kind(btf, ".ksyms", BTF_KIND_DATASEC);
	bt = id > 0 ? btf__type_by_id(btf, id) : NULL;
	CHECK(t, bt && bt->size == 4 * btf_vlen(bt));
	id = btf__find_by_name_kind(btf, "add_hidden", BTF_KIND_FUNC);
	bt = id > 0 ? btf__type_by_id(btf, id) : NULL;
	CHECK(t, bt && btf_vlen(bt) == BTF_FUNC_STATIC);
	id = btf__find_by_name_kind(btf, "add_global", BTF_KIND_FUNC);
	bt = id > 0 ? btf__type_by_id(btf, id) : NULL;
	CHECK(t, bt && btf_vlen(bt) == BTF_FUNC_GLOBAL);
	id = btf__find_by_name_kind(btf, "dummy_ksym", BTF_KIND_VAR);
	CHECK(t, id > 0);
	btf__free(btf);
out:
	bpfvet_object__close(obj);
}

static void check_btf_ext(struct test_ctx *t, const struct bpfvet_program *p)
{
	size_t i, s;

	/* One func_info per subprogram, at its start. */
	CHECK_INT(t, p->func_info_cnt, p->subprog_cnt);
	for (i = 0; i < p->func_info_cnt && i < p->subprog_cnt; i++) {
		CHECK_INT(t, p->func_info[i].insn_off, p->subprogs[i].start);
		CHECK_INT(t, p->func_info[i].type_id, p->subprogs[i].btf_func_id);
	}
	/* Line info inside the program, ascending within each subprogram,
	 * and present at every subprogram start. */
	CHECK(t, p->line_info_cnt >= p->subprog_cnt);
	for (i = 0; i < p->line_info_cnt; i++) {
		CHECK(t, p->line_info[i].insn_off < p->insn_cnt);
		if (i)
			CHECK(t, p->line_info[i].insn_off > p->line_info[i - 1].insn_off);
	}
	for (s = 0; s < p->subprog_cnt; s++) {
		bool found = false;

		for (i = 0; i < p->line_info_cnt; i++)
			found |= p->line_info[i].insn_off == p->subprogs[s].start;
		CHECK_MSG(t, found, "%s: no line info at subprog %s", p->name, p->subprogs[s].name);
	}
}

static void test_btf_ext(struct test_ctx *t)
{
	struct bpfvet_object *obj = lu_open(t, "loader_relocs", NULL);
	struct bpfvet_program *p;
	size_t i;

	if (!obj)
		return;
	for (i = 0; i < bpfvet_object__prog_cnt(obj); i++)
		check_btf_ext(t, bpfvet_object__prog(obj, i));
	p = lu_prog(t, obj, "relocs");
	if (p) {
		CHECK_INT(t, p->func_info_cnt, 5);
		CHECK_INT(t, p->core_relo_cnt, 0);
	}
	p = lu_prog(t, obj, "calls_only");
	if (p) {
		CHECK_INT(t, p->func_info_cnt, 2);
		/* add_static's lines are copied, shifted to its new place. */
		CHECK(t, p->line_info_cnt >= 3);
	}
	bpfvet_object__close(obj);
}


struct want_core {
	uint32_t insn;
	const char *access;
};

static void check_core(struct test_ctx *t, const struct bpfvet_object *obj,
		       const struct bpfvet_program *p, const struct want_core *w, size_t n)
{
	size_t i;

	CHECK_INT(t, p->core_relo_cnt, n);
	for (i = 0; i < n && i < p->core_relo_cnt; i++) {
		const struct bpfvet_core_relo *r = &p->core_relos[i];
		const struct btf_type *bt = btf__type_by_id(obj->btf, r->type_id);
		const char *acc = btf__name_by_offset(obj->btf, r->access_str_off);

		CHECK_MSG(t, r->insn_off == w[i].insn && r->kind == 0 /* FIELD_BYTE_OFFSET */ &&
			  acc && !strcmp(acc, w[i].access),
			  "%s: CO-RE %zu at %u kind %u access %s", p->name, i, r->insn_off, r->kind,
			  acc ? acc : "?");
		CHECK(t, bt && btf_is_struct(bt) &&
			 !strcmp(btf__name_by_offset(obj->btf, bt->name_off), "task_like"));
	}
}

/* CO-RE records follow their function: read_flags's lands at 5 in one
 * program and at 7 in the other. */
static void test_core_relos(struct test_ctx *t)
{
	static const struct want_core a[] = { { 0, "0:1" }, { 5, "0:2" } };
	static const struct want_core b[] = { { 0, "0:0" }, { 1, "0:1" }, { 7, "0:2" } };
	struct bpfvet_object *obj = lu_open(t, "loader_core", NULL);
	struct bpfvet_program *p;

	if (!obj)
		return;
	p = lu_prog(t, obj, "core_a");
	if (p) {
		check_core(t, obj, p, a, 2);
		CHECK_INT(t, p->line_info_cnt, 6);
	}
	p = lu_prog(t, obj, "core_b");
	if (p) {
		check_core(t, obj, p, b, 3);
		CHECK_INT(t, p->line_info_cnt, 8);
	}
	bpfvet_object__close(obj);
}

/* Without any SEC(), libbpf sees no program; given a type, .text's
 * global functions become the programs. */
static void test_text_only(struct test_ctx *t)
{
	static const struct want_sub first[] = {
		{ "first", 0, 3, true }, { "twice", 3, 3, false },
	};
	struct bpfvet_object *obj = lu_open(t, "loader_textonly", NULL);
	struct bpfvet_program *p;

	if (obj) {
		CHECK_INT(t, bpfvet_object__prog_cnt(obj), 0);
		bpfvet_object__close(obj);
	}
	obj = lu_open(t, "loader_textonly", "sched_cls");
	if (!obj)
		return;
	CHECK_INT(t, bpfvet_object__prog_cnt(obj), 2);
	p = lu_prog(t, obj, "first");
	if (p) {
		CHECK(t, p->type_known && p->type == BPF_PROG_TYPE_SCHED_CLS);
		CHECK_STR(t, p->sec_name, ".text");
		check_subprogs(t, p, first, 2);
		CHECK(t, p->insns[1].src_reg == BPF_PSEUDO_CALL && p->insns[1].imm == 1);
	}
	p = lu_prog(t, obj, "second");
	if (p)
		CHECK(t, p->insns[1].src_reg == BPF_PSEUDO_CALL && p->insns[1].imm == 2);
	bpfvet_object__close(obj);
}

/* ------------------------------------------------------------------ */
/* Opening errors                                                      */
/* ------------------------------------------------------------------ */

static void test_open_errors(struct test_ctx *t)
{
	char err[128] = "";
	struct bpfvet_open_opts opts = { .sz = sizeof(opts), .errbuf = err,
					 .errbuf_sz = sizeof(err) };
	struct {
		struct bpfvet_open_opts o;
		char extra[8];
	} big = { .o = { .sz = sizeof(big) } };
	struct bpfvet_object *obj = (void *)1;
	static const char junk[] = "definitely not an ELF file";

	CHECK_INT(t, bpfvet_object__open("/nonexistent/x.o", &opts, &obj), -ENOENT);
	CHECK(t, obj == NULL);
	CHECK(t, strstr(err, "No such file") != NULL);
	CHECK_INT(t, bpfvet_object__open_mem(junk, sizeof(junk), "junk", &opts, &obj), -EINVAL);
	CHECK_STR(t, err, "not an ELF file");
	CHECK_INT(t, bpfvet_object__open_mem(junk, 0, "junk", &opts, &obj), -EINVAL);
	CHECK_INT(t, bpfvet_object__open_mem(junk, sizeof(junk), "j", NULL, NULL), -EINVAL);
	/* Unknown trailing option bytes must be zero. */
	CHECK_INT(t, bpfvet_object__open_mem(junk, sizeof(junk), "j", &big.o, &obj), -EINVAL);
	big.o.sz = 1;
	CHECK_INT(t, bpfvet_object__open_mem(junk, sizeof(junk), "j", &big.o, &obj), -EINVAL);
}

static void test_open_mem_name(struct test_ctx *t)
{
	char path[256];
	struct bpfvet_object *obj = NULL;
	size_t size = 0;
	void *buf;

	test_prog_path(path, sizeof(path), "loader_maps");
	buf = lu_read(path, &size);
	CHECK(t, buf != NULL);
	if (!buf)
		return;
	CHECK_INT(t, bpfvet_object__open_mem(buf, size, "/some/dir/abcdefghijklmnopq.bpf.o",
					     NULL, &obj), 0);
	/* Base name up to the first dot, 15 characters at most; data maps
	 * take as much of it as fits before the section name. */
	if (obj) {
		CHECK_STR(t, bpfvet_object__name(obj), "abcdefghijklmno");
		CHECK(t, lu_map(t, obj, "abcdefgh.rodata", NULL) != NULL);
		CHECK(t, lu_map(t, obj, "abcdefgh.bss", NULL) != NULL);
	}
	/* The object keeps no pointer into the caller's buffer. */
	memset(buf, 0, size);
	free(buf);
	if (obj)
		CHECK_INT(t, lu_prog(t, obj, "use_maps")->insn_cnt, 83);
	bpfvet_object__close(obj);
}


/* ------------------------------------------------------------------ */
/* Malformed input                                                     */
/* ------------------------------------------------------------------ */

static const char *const all_objs[] = {
	"loader_sections", "loader_maps", "loader_relocs", "loader_legacy",
	"loader_iproute2", "loader_core", "loader_textonly",
};

struct img {
	uint8_t *buf;
	size_t size;
};

static bool img_load(struct test_ctx *t, const char *name, struct img *im)
{
	char path[256];

	test_prog_path(path, sizeof(path), name);
	im->buf = lu_read(path, &im->size);
	CHECK_MSG(t, im->buf != NULL, "cannot read %s", path);
	return im->buf != NULL;
}

/* Opens (a copy of) bytes; on success walks everything the object
 * exposes, so that sanitizers see any bad pointer. Returns open's code;
 * err receives the message. */
static int try_open_as(const void *buf, size_t size, enum bpfvet_conventions conv,
		       char *err, size_t err_sz)
{
	struct bpfvet_open_opts opts = { .sz = sizeof(opts), .errbuf = err,
					 .errbuf_sz = err_sz, .conventions = conv };
	struct bpfvet_object *obj = NULL;
	volatile unsigned long sum = 0;
	size_t i, j, n;
	int rc;

	err[0] = '\0';
	rc = bpfvet_object__open_mem(buf, size, "mutant", &opts, &obj);
	if (rc)
		return rc;
	for (i = 0; i < bpfvet_object__map_cnt(obj); i++) {
		const struct bpfvet_map *m = bpfvet_object__map(obj, i);
		const uint8_t *v = bpfvet_map__initial_value(m, &n);

		sum += strlen(bpfvet_map__name(m)) + m->value_size;
		for (j = 0; v && j < n; j++)
			sum += v[j];
		for (j = 0; j < m->init_cnt; j++)
			sum += m->init_slots[j] ? strlen(m->init_slots[j]) : 0;
	}
	for (i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		const struct bpfvet_program *p = bpfvet_object__prog(obj, i);
		const struct bpfvet_insn *insns = bpfvet_program__insns(p, &n);

		for (j = 0; j < n; j++)
			sum += (unsigned long)insns[j].imm;
		for (j = 0; j < p->subprog_cnt; j++)
			sum += p->subprogs[j].start + p->subprogs[j].len + strlen(p->subprogs[j].name);
		for (j = 0; j < p->extern_cnt; j++)
			sum += strlen(p->externs[j].name);
		for (j = 0; j < p->line_info_cnt; j++)
			sum += p->line_info[j].insn_off;
	}
	(void)sum;
	bpfvet_object__close(obj);
	return 0;
}

/* As the CLI opens: conventions chosen per object. */
static int try_open(const void *buf, size_t size, char *err, size_t err_sz)
{
	return try_open_as(buf, size, BPFVET_CONV_AUTO, err, err_sz);
}

/* Every truncation of a valid object cuts its section header table (at
 * the end of the file): each must fail cleanly, with a message. */
static void test_truncated(struct test_ctx *t)
{
	char err[256];
	struct img im;
	size_t f, len;

	for (f = 0; f < sizeof(all_objs) / sizeof(all_objs[0]); f++) {
		if (!img_load(t, all_objs[f], &im))
			continue;
		for (len = 1; len < im.size; len += len < 512 ? 1 : 7) {
			int rc = try_open(im.buf, len, err, sizeof(err));

			CHECK_MSG(t, rc < 0 && err[0], "%s cut at %zu: rc %d, \"%s\"",
				  all_objs[f], len, rc, err);
		}
		free(im.buf);
	}
}

/* xorshift: deterministic mutations, the same on every run. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static void test_byte_flips(struct test_ctx *t)
{
	char err[256];
	struct img im;
	size_t f;
	int i, fails = 0, oks = 0;

	for (f = 0; f < sizeof(all_objs) / sizeof(all_objs[0]); f++) {
		uint32_t seed = 0x9e3779b9u + (uint32_t)f;
		uint8_t *mut;

		if (!img_load(t, all_objs[f], &im))
			continue;
		mut = malloc(im.size);
		for (i = 0; mut && i < 1500; i++) {
			int k, flips = 1 + (int)(next_rand(&seed) % 4);
			int rc;

			memcpy(mut, im.buf, im.size);
			for (k = 0; k < flips; k++)
				mut[next_rand(&seed) % im.size] ^= (uint8_t)(1 + next_rand(&seed) % 255);
			rc = try_open(mut, im.size, err, sizeof(err));
			CHECK_MSG(t, rc == 0 || err[0], "%s mutant %d: rc %d without a message",
				  all_objs[f], i, rc);
			rc ? fails++ : oks++;
		}
		free(mut);
		free(im.buf);
	}
	/* Both outcomes occur: flips in code or strings are often harmless. */
	CHECK(t, fails > 0 && oks > 0);
}

/* Minimal ELF editing for crafted cases. */
static Elf64_Shdr *shdr(struct img *im, size_t idx)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im->buf;

	return (Elf64_Shdr *)(im->buf + eh->e_shoff + idx * sizeof(Elf64_Shdr));
}

static size_t sec_by_name(struct img *im, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im->buf;
	const char *names = (const char *)im->buf + shdr(im, eh->e_shstrndx)->sh_offset;
	size_t i;

	for (i = 1; i < eh->e_shnum; i++)
		if (!strcmp(names + shdr(im, i)->sh_name, name))
			return i;
	return 0;
}

static void expect_error_as(struct test_ctx *t, struct img *im, enum bpfvet_conventions conv,
			    const char *what, int want_rc, const char *want_msg)
{
	char err[256];
	int rc = try_open_as(im->buf, im->size, conv, err, sizeof(err));

	CHECK_MSG(t, rc == want_rc && strstr(err, want_msg),
		  "%s: rc %d \"%s\", want %d \"...%s...\"", what, rc, err, want_rc, want_msg);
}

static void expect_error(struct test_ctx *t, struct img *im, const char *what,
			 int want_rc, const char *want_msg)
{
	expect_error_as(t, im, BPFVET_CONV_AUTO, what, want_rc, want_msg);
}

static void expect_warning(struct test_ctx *t, const struct img *im, const char *what,
			   const char *want)
{
	struct bpfvet_open_opts opts = { .sz = sizeof(opts) };
	struct bpfvet_object *obj = NULL;
	int rc = bpfvet_object__open_mem(im->buf, im->size, "mutant", &opts, &obj);
	bool found = false;

	for (size_t i = 0; !rc && i < bpfvet_object__warning_cnt(obj); i++)
		found |= strstr(bpfvet_object__warning(obj, i), want) != NULL;
	CHECK_MSG(t, !rc && found, "%s: rc %d, no warning \"...%s...\"", what, rc, want);
	bpfvet_object__close(obj);
}

static void test_crafted_header(struct test_ctx *t)
{
	struct img im;
	Elf64_Ehdr *eh;

	if (!img_load(t, "loader_maps", &im))
		return;
	eh = (Elf64_Ehdr *)im.buf;
	eh->e_machine = EM_X86_64;
	expect_error(t, &im, "x86-64 object", -EINVAL, "not a BPF object (e_machine 62, want 247)");
	eh->e_machine = EM_BPF;
	eh->e_type = ET_EXEC;
	expect_error(t, &im, "executable", -EINVAL, "not a relocatable object");
	eh->e_type = ET_REL;
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	expect_error(t, &im, "32-bit", -EINVAL, "not a 64-bit ELF file");
	free(im.buf);
}

static void test_crafted_relocs(struct test_ctx *t)
{
	struct img im;
	Elf64_Shdr *rsh, *tsh;
	Elf64_Rel *rel;
	uint8_t *code;
	size_t rs, i;

	if (!img_load(t, "loader_maps", &im))
		return;
	rs = sec_by_name(&im, ".reltc");
	CHECK(t, rs != 0);
	if (!rs)
		goto out;
	rsh = shdr(&im, rs);
	tsh = shdr(&im, rsh->sh_info);
	rel = (Elf64_Rel *)(im.buf + rsh->sh_offset);
	code = im.buf + tsh->sh_offset;
	{
		Elf64_Rel keep = rel[0];

		rel[0].r_info = ELF64_R_INFO(0x7fff, ELF64_R_TYPE(keep.r_info));
		expect_error(t, &im, "symbol index", -EINVAL, "symbol 32767 out of range");
		rel[0] = keep;
		rel[0].r_offset = tsh->sh_size + 8;
		expect_error(t, &im, "offset past the end", -EINVAL, "is outside tc or misaligned");
		rel[0].r_offset = 4;
		expect_error(t, &im, "misaligned offset", -EINVAL, "is outside tc or misaligned");
		/* Point the relocation at an instruction that takes none. */
		for (i = 0; i < tsh->sh_size / 8; i++)
			if (code[i * 8] != 0x18 && code[i * 8] != 0x85)
				break;
		rel[0].r_offset = i * 8;
		expect_error(t, &im, "plain insn", -EINVAL, "neither LD_IMM64 nor CALL");
		rel[0] = keep;
		/* A second relocation of the same instruction: named, not
		 * applied over the first. */
		CHECK(t, rsh->sh_size >= 2 * sizeof(*rel));
		if (rsh->sh_size >= 2 * sizeof(*rel)) {
			Elf64_Rel keep1 = rel[1];

			rel[1].r_offset = rel[0].r_offset;
			expect_warning(t, &im, "duplicate", "relocation of an instruction already "
				       "relocated (first at insn ");
			rel[1] = keep1;
		}
	}
	/* Relocation section with a bad entry size. */
	rsh->sh_entsize = 24;
	expect_error(t, &im, "entsize", -EINVAL, "has entry size 24, want 16");
out:
	free(im.buf);
}

static void test_crafted_sections(struct test_ctx *t)
{
	struct img im;
	size_t idx;

	if (!img_load(t, "loader_maps", &im))
		return;
	idx = sec_by_name(&im, "tc");
	if (idx) {
		uint64_t keep = shdr(&im, idx)->sh_size;
		char want[64];

		shdr(&im, idx)->sh_size -= 4;
		snprintf(want, sizeof(want), "code section tc has size %llu, not a multiple of 8",
			 (unsigned long long)keep - 4);
		expect_error(t, &im, "odd code size", -EINVAL, want);
		shdr(&im, idx)->sh_size = 0x7fffffffffffULL;
		expect_error(t, &im, "huge code section", -EINVAL, "cannot read section");
		shdr(&im, idx)->sh_size = keep;
	}
	idx = sec_by_name(&im, ".bss");
	if (idx) {
		/* NOBITS: libelf does not mind, the map size does. */
		shdr(&im, idx)->sh_size = 0x100000000ULL;
		expect_error(t, &im, "huge .bss", -E2BIG, "section .bss is too large");
		shdr(&im, idx)->sh_size = 8;
	}
	idx = sec_by_name(&im, ".BTF");
	if (idx) {
		im.buf[shdr(&im, idx)->sh_offset] ^= 0xff;	/* BTF magic */
		expect_error(t, &im, "bad BTF", -EINVAL, "cannot parse .BTF");
	}
	free(im.buf);
	CHECK(t, idx != 0);
}

static Elf64_Sym *sym_by_name(struct img *im, const char *name)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)im->buf;
	size_t i, j;

	for (i = 1; i < eh->e_shnum; i++) {
		Elf64_Shdr *sh = shdr(im, i);
		const char *str;
		Elf64_Sym *syms;

		if (sh->sh_type != SHT_SYMTAB)
			continue;
		syms = (Elf64_Sym *)(im->buf + sh->sh_offset);
		str = (const char *)im->buf + shdr(im, sh->sh_link)->sh_offset;
		for (j = 0; j < sh->sh_size / sizeof(Elf64_Sym); j++)
			if (!strcmp(str + syms[j].st_name, name))
				return &syms[j];
	}
	return NULL;
}

static void expect_static_loaded(struct test_ctx *t, const struct img *im)
{
	struct bpfvet_open_opts opts = { .sz = sizeof(opts) };
	struct bpfvet_object *obj = NULL;
	int rc = bpfvet_object__open_mem(im->buf, im->size, "static", &opts, &obj);

	CHECK_INT(t, rc, 0);
	if (rc)
		return;
	CHECK_INT(t, bpfvet_object__conventions(obj), BPFVET_CONV_CILIUM);
	CHECK_STR(t, bpfvet_object__conventions_reason(obj),
		  "program p_socket in section socket is static, with BTF: cilium/ebpf loads it, "
		  "libbpf does not");
	CHECK(t, bpfvet_object__warning_cnt(obj) >= 1);
	if (bpfvet_object__warning_cnt(obj) >= 1)
		CHECK_STR(t, bpfvet_object__warning(obj, 0),
			  "section socket: program p_socket is static (cilium/ebpf loads it; "
			  "libbpf refuses it)");
	bpfvet_object__close(obj);
}

static void test_crafted_functions(struct test_ctx *t)
{
	struct img im;
	Elf64_Sym *sym;

	if (!img_load(t, "loader_sections", &im))
		return;
	sym = sym_by_name(&im, "p_socket");
	CHECK(t, sym != NULL);
	if (sym) {
		unsigned char keep = sym->st_info;

		/* libbpf refuses static programs outside .text; cilium/ebpf,
		 * which auto takes for them next to BTF, loads them. */
		sym->st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
		expect_error_as(t, &im, BPFVET_CONV_LIBBPF, "static program", -EOPNOTSUPP,
				"section socket: program p_socket is static, which libbpf "
				"does not support");
		expect_static_loaded(t, &im);
		sym->st_info = keep;
	}
	sym = sym_by_name(&im, "xdp_a");
	CHECK(t, sym != NULL);
	if (sym) {
		sym->st_size = 24;	/* runs into xdp_b */
		expect_error(t, &im, "overlap", -EINVAL, "section xdp: functions xdp_a and xdp_b overlap");
		sym->st_size = 12;
		expect_error(t, &im, "odd function", -EINVAL,
			     "section xdp: function xdp_a has bad offset 0 or size 12");
		sym->st_size = 16;
		sym->st_value = 48;	/* past the 48-byte section */
		expect_error(t, &im, "function past the end", -EINVAL,
			     "function xdp_a at offset 48 crosses the section end");
	}
	free(im.buf);
}

static void test_crafted_legacy(struct test_ctx *t)
{
	struct img im;
	size_t idx;
	uint32_t *def;

	if (!img_load(t, "loader_legacy", &im))
		return;
	idx = sec_by_name(&im, "maps/samples");
	CHECK(t, idx != 0);
	if (idx) {
		/* s_outer's inner_map_idx (word 5) beyond the 2 maps. */
		def = (uint32_t *)(im.buf + shdr(&im, idx)->sh_offset);
		def[5] = 7;
		expect_error(t, &im, "inner_map_idx", -EINVAL,
			     "map s_outer: inner map index 7 out of range (2 maps)");
		def[5] = 1;
		shdr(&im, idx)->sh_size = 55;	/* not a multiple of 2 maps */
		expect_error(t, &im, "legacy size", -EINVAL,
			     "cannot tell the map definition size (2 maps in 55 bytes)");
		shdr(&im, idx)->sh_size = 50;	/* 25-byte definitions */
		expect_error(t, &im, "legacy overflow", -EINVAL,
			     "map s_inner lies outside the section");
	}
	free(im.buf);
}

int main(void)
{
	struct test_ctx t = { 0 };

	/* Mutants make libbpf's BTF parser complain on stderr. */
	lu_quiet_libbpf();

	RUN(&t, test_section_types);
	RUN(&t, test_section_special);
	RUN(&t, test_type_override);
	RUN(&t, test_btf_maps);
	RUN(&t, test_global_data);
	RUN(&t, test_map_relocs);
	RUN(&t, test_legacy_maps);
	RUN(&t, test_legacy_maps_libbpf);
	RUN(&t, test_iproute2_maps);
	RUN(&t, test_calls);
	RUN(&t, test_externs);
	RUN(&t, test_btf_fixups);
	RUN(&t, test_btf_ext);
	RUN(&t, test_core_relos);
	RUN(&t, test_text_only);
	RUN(&t, test_open_errors);
	RUN(&t, test_open_mem_name);
	RUN(&t, test_truncated);
	RUN(&t, test_byte_flips);
	RUN(&t, test_crafted_header);
	RUN(&t, test_crafted_relocs);
	RUN(&t, test_crafted_sections);
	RUN(&t, test_crafted_legacy);
	RUN(&t, test_crafted_functions);
	return test_finish(&t);
}
