/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * libbpf's table of section names (libbpf 1.5 with the session probes of
 * later versions), expressed as data. A pattern ending in '+' matches the
 * name itself or the name followed by "/anything"; one ending in '/'
 * requires the "/anything" part; other patterns match exactly. The first
 * matching row wins, so more specific rows come first.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "progtype.h"
#include "base/uapi.h"

enum {
	F_SLEEPABLE = 1,
	F_FRAGS = 2,
	F_USDT = 4,
};

struct sec_rule {
	const char *pattern;
	uint8_t prog_type;
	uint8_t attach;
	uint8_t flags;
};

#define R(pat, pt, at, fl) { pat, BPF_PROG_TYPE_##pt, at, fl }

static const struct sec_rule rules[] = {
	R("socket", SOCKET_FILTER, 0, 0),
	R("sk_reuseport/migrate", SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT_OR_MIGRATE, 0),
	R("sk_reuseport", SK_REUSEPORT, BPF_SK_REUSEPORT_SELECT, 0),
	R("kprobe+", KPROBE, 0, 0),
	R("uprobe+", KPROBE, 0, 0),
	R("uprobe.s+", KPROBE, 0, F_SLEEPABLE),
	R("kretprobe+", KPROBE, 0, 0),
	R("uretprobe+", KPROBE, 0, 0),
	R("uretprobe.s+", KPROBE, 0, F_SLEEPABLE),
	R("kprobe.multi+", KPROBE, BPF_TRACE_KPROBE_MULTI, 0),
	R("kretprobe.multi+", KPROBE, BPF_TRACE_KPROBE_MULTI, 0),
	R("kprobe.session+", KPROBE, BPF_TRACE_KPROBE_SESSION, 0),
	R("uprobe.multi+", KPROBE, BPF_TRACE_UPROBE_MULTI, 0),
	R("uretprobe.multi+", KPROBE, BPF_TRACE_UPROBE_MULTI, 0),
	R("uprobe.multi.s+", KPROBE, BPF_TRACE_UPROBE_MULTI, F_SLEEPABLE),
	R("uretprobe.multi.s+", KPROBE, BPF_TRACE_UPROBE_MULTI, F_SLEEPABLE),
	R("uprobe.session+", KPROBE, BPF_TRACE_UPROBE_SESSION, 0),
	R("uprobe.session.s+", KPROBE, BPF_TRACE_UPROBE_SESSION, F_SLEEPABLE),
	R("ksyscall+", KPROBE, 0, 0),
	R("kretsyscall+", KPROBE, 0, 0),
	R("usdt+", KPROBE, 0, F_USDT),
	R("usdt.s+", KPROBE, 0, F_USDT | F_SLEEPABLE),
	R("tc/ingress", SCHED_CLS, BPF_TCX_INGRESS, 0),
	R("tc/egress", SCHED_CLS, BPF_TCX_EGRESS, 0),
	R("tcx/ingress", SCHED_CLS, BPF_TCX_INGRESS, 0),
	R("tcx/egress", SCHED_CLS, BPF_TCX_EGRESS, 0),
	R("tc", SCHED_CLS, 0, 0),
	R("classifier", SCHED_CLS, 0, 0),
	R("action", SCHED_ACT, 0, 0),
	R("netkit/primary", SCHED_CLS, BPF_NETKIT_PRIMARY, 0),
	R("netkit/peer", SCHED_CLS, BPF_NETKIT_PEER, 0),
	R("tracepoint+", TRACEPOINT, 0, 0),
	R("tp+", TRACEPOINT, 0, 0),
	R("raw_tracepoint+", RAW_TRACEPOINT, 0, 0),
	R("raw_tp+", RAW_TRACEPOINT, 0, 0),
	R("raw_tracepoint.w+", RAW_TRACEPOINT_WRITABLE, 0, 0),
	R("raw_tp.w+", RAW_TRACEPOINT_WRITABLE, 0, 0),
	R("tp_btf+", TRACING, BPF_TRACE_RAW_TP, 0),
	R("fentry+", TRACING, BPF_TRACE_FENTRY, 0),
	R("fmod_ret+", TRACING, BPF_MODIFY_RETURN, 0),
	R("fexit+", TRACING, BPF_TRACE_FEXIT, 0),
	R("fentry.s+", TRACING, BPF_TRACE_FENTRY, F_SLEEPABLE),
	R("fmod_ret.s+", TRACING, BPF_MODIFY_RETURN, F_SLEEPABLE),
	R("fexit.s+", TRACING, BPF_TRACE_FEXIT, F_SLEEPABLE),
	R("freplace+", EXT, 0, 0),
	R("lsm+", LSM, BPF_LSM_MAC, 0),
	R("lsm.s+", LSM, BPF_LSM_MAC, F_SLEEPABLE),
	R("lsm_cgroup+", LSM, BPF_LSM_CGROUP, 0),
	R("iter+", TRACING, BPF_TRACE_ITER, 0),
	R("iter.s+", TRACING, BPF_TRACE_ITER, F_SLEEPABLE),
	R("syscall", SYSCALL, 0, F_SLEEPABLE),
	R("xdp.frags/devmap", XDP, BPF_XDP_DEVMAP, F_FRAGS),
	R("xdp/devmap", XDP, BPF_XDP_DEVMAP, 0),
	R("xdp.frags/cpumap", XDP, BPF_XDP_CPUMAP, F_FRAGS),
	R("xdp/cpumap", XDP, BPF_XDP_CPUMAP, 0),
	R("xdp.frags", XDP, BPF_XDP, F_FRAGS),
	R("xdp", XDP, BPF_XDP, 0),
	R("perf_event", PERF_EVENT, 0, 0),
	R("lwt_in", LWT_IN, 0, 0),
	R("lwt_out", LWT_OUT, 0, 0),
	R("lwt_xmit", LWT_XMIT, 0, 0),
	R("lwt_seg6local", LWT_SEG6LOCAL, 0, 0),
	R("sockops", SOCK_OPS, BPF_CGROUP_SOCK_OPS, 0),
	R("sk_skb/stream_parser", SK_SKB, BPF_SK_SKB_STREAM_PARSER, 0),
	R("sk_skb/stream_verdict", SK_SKB, BPF_SK_SKB_STREAM_VERDICT, 0),
	R("sk_skb/verdict", SK_SKB, BPF_SK_SKB_VERDICT, 0),
	R("sk_skb", SK_SKB, 0, 0),
	R("sk_msg", SK_MSG, BPF_SK_MSG_VERDICT, 0),
	R("lirc_mode2", LIRC_MODE2, BPF_LIRC_MODE2, 0),
	R("flow_dissector", FLOW_DISSECTOR, BPF_FLOW_DISSECTOR, 0),
	R("cgroup_skb/ingress", CGROUP_SKB, BPF_CGROUP_INET_INGRESS, 0),
	R("cgroup_skb/egress", CGROUP_SKB, BPF_CGROUP_INET_EGRESS, 0),
	R("cgroup/skb", CGROUP_SKB, 0, 0),
	R("cgroup/sock_create", CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, 0),
	R("cgroup/sock_release", CGROUP_SOCK, BPF_CGROUP_INET_SOCK_RELEASE, 0),
	R("cgroup/sock", CGROUP_SOCK, BPF_CGROUP_INET_SOCK_CREATE, 0),
	R("cgroup/post_bind4", CGROUP_SOCK, BPF_CGROUP_INET4_POST_BIND, 0),
	R("cgroup/post_bind6", CGROUP_SOCK, BPF_CGROUP_INET6_POST_BIND, 0),
	R("cgroup/bind4", CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_BIND, 0),
	R("cgroup/bind6", CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_BIND, 0),
	R("cgroup/connect4", CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_CONNECT, 0),
	R("cgroup/connect6", CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_CONNECT, 0),
	R("cgroup/connect_unix", CGROUP_SOCK_ADDR, BPF_CGROUP_UNIX_CONNECT, 0),
	R("cgroup/sendmsg4", CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_SENDMSG, 0),
	R("cgroup/sendmsg6", CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_SENDMSG, 0),
	R("cgroup/sendmsg_unix", CGROUP_SOCK_ADDR, BPF_CGROUP_UNIX_SENDMSG, 0),
	R("cgroup/recvmsg4", CGROUP_SOCK_ADDR, BPF_CGROUP_UDP4_RECVMSG, 0),
	R("cgroup/recvmsg6", CGROUP_SOCK_ADDR, BPF_CGROUP_UDP6_RECVMSG, 0),
	R("cgroup/recvmsg_unix", CGROUP_SOCK_ADDR, BPF_CGROUP_UNIX_RECVMSG, 0),
	R("cgroup/getpeername4", CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETPEERNAME, 0),
	R("cgroup/getpeername6", CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETPEERNAME, 0),
	R("cgroup/getpeername_unix", CGROUP_SOCK_ADDR, BPF_CGROUP_UNIX_GETPEERNAME, 0),
	R("cgroup/getsockname4", CGROUP_SOCK_ADDR, BPF_CGROUP_INET4_GETSOCKNAME, 0),
	R("cgroup/getsockname6", CGROUP_SOCK_ADDR, BPF_CGROUP_INET6_GETSOCKNAME, 0),
	R("cgroup/getsockname_unix", CGROUP_SOCK_ADDR, BPF_CGROUP_UNIX_GETSOCKNAME, 0),
	R("cgroup/sysctl", CGROUP_SYSCTL, BPF_CGROUP_SYSCTL, 0),
	R("cgroup/getsockopt", CGROUP_SOCKOPT, BPF_CGROUP_GETSOCKOPT, 0),
	R("cgroup/setsockopt", CGROUP_SOCKOPT, BPF_CGROUP_SETSOCKOPT, 0),
	R("cgroup/dev", CGROUP_DEVICE, BPF_CGROUP_DEVICE, 0),
	R("struct_ops+", STRUCT_OPS, 0, 0),
	R("struct_ops.s+", STRUCT_OPS, 0, F_SLEEPABLE),
	R("sk_lookup", SK_LOOKUP, BPF_SK_LOOKUP, 0),
	R("netfilter", NETFILTER, BPF_NETFILTER, 0),
};

/* Returns the length of the matched prefix, 0 when the rule does not
 * match. */
static size_t rule_match(const char *pat, const char *sec)
{
	size_t len = strlen(pat);

	if (pat[len - 1] == '/')
		return strncmp(sec, pat, len) ? 0 : len;
	if (pat[len - 1] == '+') {
		len--;
		if (strncmp(sec, pat, len))
			return 0;
		if (sec[len] == '\0')
			return len;
		return sec[len] == '/' ? len + 1 : 0;
	}
	return strcmp(sec, pat) ? 0 : len;
}

bool progtype_from_section(const char *sec, struct sec_type *out)
{
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
		const struct sec_rule *r = &rules[i];
		size_t len = rule_match(r->pattern, sec);

		if (!len)
			continue;
		out->prog_type = r->prog_type;
		out->expected_attach_type = r->attach;
		out->prog_flags = 0;
		if (r->flags & F_SLEEPABLE)
			out->prog_flags |= BPF_F_SLEEPABLE;
		if (r->flags & F_FRAGS)
			out->prog_flags |= BPF_F_XDP_HAS_FRAGS;
		/* On kernels with uprobe_multi links (6.6+) libbpf loads USDT
		 * programs with that attach type. */
		if (r->flags & F_USDT)
			out->expected_attach_type = BPF_TRACE_UPROBE_MULTI;
		out->target_off = sec[len] && sec[len - 1] == '/' ? (uint32_t)len : 0;
		return true;
	}
	return false;
}

static const char *const prog_type_names[] = {
	[BPF_PROG_TYPE_UNSPEC] = "unspec",
	[BPF_PROG_TYPE_SOCKET_FILTER] = "socket_filter",
	[BPF_PROG_TYPE_KPROBE] = "kprobe",
	[BPF_PROG_TYPE_SCHED_CLS] = "sched_cls",
	[BPF_PROG_TYPE_SCHED_ACT] = "sched_act",
	[BPF_PROG_TYPE_TRACEPOINT] = "tracepoint",
	[BPF_PROG_TYPE_XDP] = "xdp",
	[BPF_PROG_TYPE_PERF_EVENT] = "perf_event",
	[BPF_PROG_TYPE_CGROUP_SKB] = "cgroup_skb",
	[BPF_PROG_TYPE_CGROUP_SOCK] = "cgroup_sock",
	[BPF_PROG_TYPE_LWT_IN] = "lwt_in",
	[BPF_PROG_TYPE_LWT_OUT] = "lwt_out",
	[BPF_PROG_TYPE_LWT_XMIT] = "lwt_xmit",
	[BPF_PROG_TYPE_SOCK_OPS] = "sock_ops",
	[BPF_PROG_TYPE_SK_SKB] = "sk_skb",
	[BPF_PROG_TYPE_CGROUP_DEVICE] = "cgroup_device",
	[BPF_PROG_TYPE_SK_MSG] = "sk_msg",
	[BPF_PROG_TYPE_RAW_TRACEPOINT] = "raw_tracepoint",
	[BPF_PROG_TYPE_CGROUP_SOCK_ADDR] = "cgroup_sock_addr",
	[BPF_PROG_TYPE_LWT_SEG6LOCAL] = "lwt_seg6local",
	[BPF_PROG_TYPE_LIRC_MODE2] = "lirc_mode2",
	[BPF_PROG_TYPE_SK_REUSEPORT] = "sk_reuseport",
	[BPF_PROG_TYPE_FLOW_DISSECTOR] = "flow_dissector",
	[BPF_PROG_TYPE_CGROUP_SYSCTL] = "cgroup_sysctl",
	[BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE] = "raw_tracepoint_writable",
	[BPF_PROG_TYPE_CGROUP_SOCKOPT] = "cgroup_sockopt",
	[BPF_PROG_TYPE_TRACING] = "tracing",
	[BPF_PROG_TYPE_STRUCT_OPS] = "struct_ops",
	[BPF_PROG_TYPE_EXT] = "ext",
	[BPF_PROG_TYPE_LSM] = "lsm",
	[BPF_PROG_TYPE_SK_LOOKUP] = "sk_lookup",
	[BPF_PROG_TYPE_SYSCALL] = "syscall",
	[BPF_PROG_TYPE_NETFILTER] = "netfilter",
};

int bpfvet_prog_type_by_name(const char *name, uint32_t *type)
{
	uint32_t i;

	if (!name || !type)
		return -EINVAL;
	for (i = 1; i < BPF_PROG_TYPE_MAX_; i++) {
		if (!strcmp(prog_type_names[i], name)) {
			*type = i;
			return 0;
		}
	}
	return -ENOENT;
}

const char *bpfvet_prog_type_name(uint32_t type)
{
	if (type >= BPF_PROG_TYPE_MAX_)
		return NULL;
	return prog_type_names[type];
}

static const char *const attach_type_names[] = {
	[BPF_CGROUP_INET_INGRESS] = "cgroup_inet_ingress",
	[BPF_CGROUP_INET_EGRESS] = "cgroup_inet_egress",
	[BPF_CGROUP_INET_SOCK_CREATE] = "cgroup_inet_sock_create",
	[BPF_CGROUP_SOCK_OPS] = "cgroup_sock_ops",
	[BPF_SK_SKB_STREAM_PARSER] = "sk_skb_stream_parser",
	[BPF_SK_SKB_STREAM_VERDICT] = "sk_skb_stream_verdict",
	[BPF_CGROUP_DEVICE] = "cgroup_device",
	[BPF_SK_MSG_VERDICT] = "sk_msg_verdict",
	[BPF_CGROUP_INET4_BIND] = "cgroup_inet4_bind",
	[BPF_CGROUP_INET6_BIND] = "cgroup_inet6_bind",
	[BPF_CGROUP_INET4_CONNECT] = "cgroup_inet4_connect",
	[BPF_CGROUP_INET6_CONNECT] = "cgroup_inet6_connect",
	[BPF_CGROUP_INET4_POST_BIND] = "cgroup_inet4_post_bind",
	[BPF_CGROUP_INET6_POST_BIND] = "cgroup_inet6_post_bind",
	[BPF_CGROUP_UDP4_SENDMSG] = "cgroup_udp4_sendmsg",
	[BPF_CGROUP_UDP6_SENDMSG] = "cgroup_udp6_sendmsg",
	[BPF_LIRC_MODE2] = "lirc_mode2",
	[BPF_FLOW_DISSECTOR] = "flow_dissector",
	[BPF_CGROUP_SYSCTL] = "cgroup_sysctl",
	[BPF_CGROUP_UDP4_RECVMSG] = "cgroup_udp4_recvmsg",
	[BPF_CGROUP_UDP6_RECVMSG] = "cgroup_udp6_recvmsg",
	[BPF_CGROUP_GETSOCKOPT] = "cgroup_getsockopt",
	[BPF_CGROUP_SETSOCKOPT] = "cgroup_setsockopt",
	[BPF_TRACE_RAW_TP] = "trace_raw_tp",
	[BPF_TRACE_FENTRY] = "trace_fentry",
	[BPF_TRACE_FEXIT] = "trace_fexit",
	[BPF_MODIFY_RETURN] = "modify_return",
	[BPF_LSM_MAC] = "lsm_mac",
	[BPF_TRACE_ITER] = "trace_iter",
	[BPF_CGROUP_INET4_GETPEERNAME] = "cgroup_inet4_getpeername",
	[BPF_CGROUP_INET6_GETPEERNAME] = "cgroup_inet6_getpeername",
	[BPF_CGROUP_INET4_GETSOCKNAME] = "cgroup_inet4_getsockname",
	[BPF_CGROUP_INET6_GETSOCKNAME] = "cgroup_inet6_getsockname",
	[BPF_XDP_DEVMAP] = "xdp_devmap",
	[BPF_CGROUP_INET_SOCK_RELEASE] = "cgroup_inet_sock_release",
	[BPF_XDP_CPUMAP] = "xdp_cpumap",
	[BPF_SK_LOOKUP] = "sk_lookup",
	[BPF_XDP] = "xdp",
	[BPF_SK_SKB_VERDICT] = "sk_skb_verdict",
	[BPF_SK_REUSEPORT_SELECT] = "sk_reuseport_select",
	[BPF_SK_REUSEPORT_SELECT_OR_MIGRATE] = "sk_reuseport_select_or_migrate",
	[BPF_PERF_EVENT] = "perf_event",
	[BPF_TRACE_KPROBE_MULTI] = "trace_kprobe_multi",
	[BPF_LSM_CGROUP] = "lsm_cgroup",
	[BPF_STRUCT_OPS] = "struct_ops",
	[BPF_NETFILTER] = "netfilter",
	[BPF_TCX_INGRESS] = "tcx_ingress",
	[BPF_TCX_EGRESS] = "tcx_egress",
	[BPF_TRACE_UPROBE_MULTI] = "trace_uprobe_multi",
	[BPF_CGROUP_UNIX_CONNECT] = "cgroup_unix_connect",
	[BPF_CGROUP_UNIX_SENDMSG] = "cgroup_unix_sendmsg",
	[BPF_CGROUP_UNIX_RECVMSG] = "cgroup_unix_recvmsg",
	[BPF_CGROUP_UNIX_GETPEERNAME] = "cgroup_unix_getpeername",
	[BPF_CGROUP_UNIX_GETSOCKNAME] = "cgroup_unix_getsockname",
	[BPF_NETKIT_PRIMARY] = "netkit_primary",
	[BPF_NETKIT_PEER] = "netkit_peer",
	[BPF_TRACE_KPROBE_SESSION] = "trace_kprobe_session",
	[BPF_TRACE_UPROBE_SESSION] = "trace_uprobe_session",
};

const char *attach_type_name(uint32_t type)
{
	if (type >= BPF_ATTACH_TYPE_MAX_)
		return NULL;
	return attach_type_names[type];
}
