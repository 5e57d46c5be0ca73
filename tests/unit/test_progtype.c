/* SPDX-License-Identifier: BSD-2-Clause */
/* libbpf's section-name rules and the kernel's type names. */
#include <errno.h>
#include <string.h>

#include "loader/maps.h"
#include "loader/progtype.h"
#include "test.h"
#include "base/uapi.h"

struct sec_case {
	const char *sec;
	bool known;
	uint32_t type, attach, flags;
	const char *target;	/* NULL: none */
};

static const struct sec_case cases[] = {
	/* '+' rules: the bare name or name/target. */
	{ "kprobe", true, BPF_PROG_TYPE_KPROBE, 0, 0, NULL },
	{ "kprobe/", true, BPF_PROG_TYPE_KPROBE, 0, 0, NULL },
	{ "kprobe/tcp_v4_connect", true, BPF_PROG_TYPE_KPROBE, 0, 0, "tcp_v4_connect" },
	{ "kprobex", false, 0, 0, 0, NULL },
	{ "kprobe.multi", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, NULL },
	{ "kretprobe.multi/a*", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, "a*" },
	{ "kprobe.session/f", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_SESSION, 0, "f" },
	{ "uprobe.session.s/b:f", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_SESSION,
	  BPF_F_SLEEPABLE, "b:f" },
	{ "uretprobe.multi.s/b:f", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_MULTI,
	  BPF_F_SLEEPABLE, "b:f" },
	{ "usdt.s/b:p:n", true, BPF_PROG_TYPE_KPROBE, BPF_TRACE_UPROBE_MULTI, BPF_F_SLEEPABLE,
	  "b:p:n" },
	{ "ksyscall/openat", true, BPF_PROG_TYPE_KPROBE, 0, 0, "openat" },
	{ "tp_btf/sched_switch", true, BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, 0, "sched_switch" },
	{ "raw_tracepoint.w/x", true, BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE, 0, 0, "x" },
	/* Exact rules take no target. */
	{ "socket", true, BPF_PROG_TYPE_SOCKET_FILTER, 0, 0, NULL },
	{ "socket/1", false, 0, 0, 0, NULL },
	{ "tc", true, BPF_PROG_TYPE_SCHED_CLS, 0, 0, NULL },
	{ "tc/foo", false, 0, 0, 0, NULL },
	{ "tc/egress", true, BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_EGRESS, 0, NULL },
	{ "tcx/ingress", true, BPF_PROG_TYPE_SCHED_CLS, BPF_TCX_INGRESS, 0, NULL },
	{ "netkit/peer", true, BPF_PROG_TYPE_SCHED_CLS, BPF_NETKIT_PEER, 0, NULL },
	{ "xdp", true, BPF_PROG_TYPE_XDP, BPF_XDP, 0, NULL },
	{ "xdp/cpumap", true, BPF_PROG_TYPE_XDP, BPF_XDP_CPUMAP, 0, NULL },
	{ "xdp.frags/devmap", true, BPF_PROG_TYPE_XDP, BPF_XDP_DEVMAP, BPF_F_XDP_HAS_FRAGS, NULL },
	{ "xdp_foo", false, 0, 0, 0, NULL },
	{ "sk_reuseport", true, BPF_PROG_TYPE_SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT, 0, NULL },
	{ "sk_skb/verdict", true, BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_VERDICT, 0, NULL },
	{ "sk_skb/stream_verdict", true, BPF_PROG_TYPE_SK_SKB, BPF_SK_SKB_STREAM_VERDICT, 0, NULL },
	{ "cgroup/sock", true, BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, 0, NULL },
	{ "cgroup/sock_create", true, BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, 0, NULL },
	{ "cgroup/post_bind6", true, BPF_PROG_TYPE_CGROUP_SOCK, BPF_CGROUP_INET6_POST_BIND, 0, NULL },
	{ "cgroup/recvmsg4", true, BPF_PROG_TYPE_CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG, 0, NULL },
	{ "cgroup/getpeername_unix", true, BPF_PROG_TYPE_CGROUP_SOCK_ADDR,
	  BPF_CGROUP_UNIX_GETPEERNAME, 0, NULL },
	{ "cgroup/setsockopt", true, BPF_PROG_TYPE_CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT, 0, NULL },
	{ "cgroup_skb/egress", true, BPF_PROG_TYPE_CGROUP_SKB, BPF_CGROUP_INET_EGRESS, 0, NULL },
	{ "lwt_xmit", true, BPF_PROG_TYPE_LWT_XMIT, 0, 0, NULL },
	{ "lirc_mode2", true, BPF_PROG_TYPE_LIRC_MODE2, BPF_LIRC_MODE2, 0, NULL },
	{ "lsm.s/file_open", true, BPF_PROG_TYPE_LSM, BPF_LSM_MAC, BPF_F_SLEEPABLE, "file_open" },
	{ "fmod_ret.s/f", true, BPF_PROG_TYPE_TRACING, BPF_MODIFY_RETURN, BPF_F_SLEEPABLE, "f" },
	{ "fexit.s/f", true, BPF_PROG_TYPE_TRACING, BPF_TRACE_FEXIT, BPF_F_SLEEPABLE, "f" },
	{ "iter/bpf_map", true, BPF_PROG_TYPE_TRACING, BPF_TRACE_ITER, 0, "bpf_map" },
	{ "struct_ops", true, BPF_PROG_TYPE_STRUCT_OPS, 0, 0, NULL },
	{ "struct_ops.s/x", true, BPF_PROG_TYPE_STRUCT_OPS, 0, BPF_F_SLEEPABLE, "x" },
	{ "syscall", true, BPF_PROG_TYPE_SYSCALL, 0, BPF_F_SLEEPABLE, NULL },
	{ "netfilter", true, BPF_PROG_TYPE_NETFILTER, BPF_NETFILTER, 0, NULL },
	{ "sk_lookup", true, BPF_PROG_TYPE_SK_LOOKUP, BPF_SK_LOOKUP, 0, NULL },
	{ "", false, 0, 0, 0, NULL },
	{ "license", false, 0, 0, 0, NULL },
};

static void test_section_rules(struct test_ctx *t)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct sec_case *c = &cases[i];
		struct sec_type st = { 0 };
		bool known = progtype_from_section(c->sec, &st);

		CHECK_MSG(t, known == c->known, "\"%s\": known %d", c->sec, known);
		if (!known || !c->known)
			continue;
		CHECK_MSG(t, st.prog_type == c->type && st.expected_attach_type == c->attach &&
			  st.prog_flags == c->flags,
			  "\"%s\": type %u attach %u flags %#x", c->sec, st.prog_type,
			  st.expected_attach_type, st.prog_flags);
		if (c->target)
			CHECK_MSG(t, st.target_off && !strcmp(c->sec + st.target_off, c->target),
				  "\"%s\": target at %u", c->sec, st.target_off);
		else
			CHECK_MSG(t, st.target_off == 0, "\"%s\": target at %u", c->sec, st.target_off);
	}
}

static void test_prog_type_names(struct test_ctx *t)
{
	uint32_t i, type = 0;

	for (i = 1; i < BPF_PROG_TYPE_MAX_; i++) {
		const char *name = bpfvet_prog_type_name(i);

		CHECK_MSG(t, name && bpfvet_prog_type_by_name(name, &type) == 0 && type == i,
			  "type %u (%s) does not round-trip", i, name ? name : "NULL");
	}
	CHECK_STR(t, bpfvet_prog_type_name(BPF_PROG_TYPE_SCHED_CLS), "sched_cls");
	CHECK_STR(t, bpfvet_prog_type_name(BPF_PROG_TYPE_CGROUP_SOCK_ADDR), "cgroup_sock_addr");
	CHECK_STR(t, bpfvet_prog_type_name(0), "unspec");
	CHECK(t, bpfvet_prog_type_name(BPF_PROG_TYPE_MAX_) == NULL);
	CHECK(t, bpfvet_prog_type_name(0xffffffffu) == NULL);
	CHECK_INT(t, bpfvet_prog_type_by_name("classifier", &type), -ENOENT);
	CHECK_INT(t, bpfvet_prog_type_by_name("unspec", &type), -ENOENT);
	CHECK_INT(t, bpfvet_prog_type_by_name(NULL, &type), -EINVAL);
	CHECK_INT(t, bpfvet_prog_type_by_name("xdp", NULL), -EINVAL);
	CHECK_INT(t, bpfvet_prog_type_by_name("socket_filter", &type), 0);
	CHECK_INT(t, type, BPF_PROG_TYPE_SOCKET_FILTER);
}

static void test_other_names(struct test_ctx *t)
{
	uint32_t i;

	for (i = 0; i < BPF_ATTACH_TYPE_MAX_; i++)
		CHECK_MSG(t, attach_type_name(i) != NULL, "attach type %u has no name", i);
	for (i = 0; i < BPF_MAP_TYPE_MAX_; i++)
		CHECK_MSG(t, map_type_name(i) != NULL, "map type %u has no name", i);
	CHECK_STR(t, attach_type_name(BPF_CGROUP_INET4_CONNECT), "cgroup_inet4_connect");
	CHECK_STR(t, attach_type_name(BPF_TRACE_UPROBE_SESSION), "trace_uprobe_session");
	CHECK(t, attach_type_name(BPF_ATTACH_TYPE_MAX_) == NULL);
	CHECK_STR(t, map_type_name(BPF_MAP_TYPE_ARRAY_OF_MAPS), "array_of_maps");
	CHECK_STR(t, map_type_name(BPF_MAP_TYPE_ARENA), "arena");
	CHECK(t, map_type_name(BPF_MAP_TYPE_MAX_) == NULL);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_section_rules);
	RUN(&t, test_prog_type_names);
	RUN(&t, test_other_names);
	return test_finish(&t);
}
