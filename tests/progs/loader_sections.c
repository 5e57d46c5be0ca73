// SPDX-License-Identifier: BSD-2-Clause
/* One program per libbpf section rule the loader must recognise, plus
 * several programs in one section, an optional (?) section and an unknown
 * one. The bodies are trivial: only the sections matter. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define PROG(sec, name) SEC(sec) int name(void *ctx) { return 0; }

PROG("socket", p_socket)
PROG("kprobe/do_unlinkat", p_kprobe)
PROG("kretprobe/do_unlinkat", p_kretprobe)
PROG("uprobe/bin:func", p_uprobe)
PROG("uprobe.s/bin:func", p_uprobe_s)
PROG("kprobe.multi/vfs_*", p_kmulti)
PROG("usdt/bin:prov:name", p_usdt)
PROG("tracepoint/syscalls/sys_enter_openat", p_tracepoint)
PROG("tp/sched/sched_switch", p_tp)
PROG("raw_tracepoint/sys_enter", p_raw_tracepoint)
PROG("raw_tp/sys_exit", p_raw_tp)
PROG("raw_tp.w/bpf_test_finish", p_raw_tp_w)
PROG("tp_btf/task_newtask", p_tp_btf)
PROG("xdp.frags", p_xdp_frags)
PROG("xdp/devmap", p_xdp_devmap)
PROG("xdp.frags/cpumap", p_xdp_frags_cpumap)
PROG("tc", p_tc)
PROG("tc/ingress", p_tc_ingress)
PROG("tcx/egress", p_tcx_egress)
PROG("classifier", p_classifier)
PROG("action", p_action)
PROG("cgroup_skb/ingress", p_cgroup_skb_ingress)
PROG("cgroup/skb", p_cgroup_skb)
PROG("cgroup/sock", p_cgroup_sock)
PROG("cgroup/sock_release", p_cgroup_sock_release)
PROG("cgroup/bind4", p_cgroup_bind4)
PROG("cgroup/connect6", p_cgroup_connect6)
PROG("cgroup/sendmsg_unix", p_cgroup_sendmsg_unix)
PROG("cgroup/getsockopt", p_cgroup_getsockopt)
PROG("cgroup/sysctl", p_cgroup_sysctl)
PROG("cgroup/dev", p_cgroup_dev)
PROG("perf_event", p_perf_event)
PROG("lwt_in", p_lwt_in)
PROG("lwt_seg6local", p_lwt_seg6local)
PROG("sk_skb/stream_parser", p_sk_skb_parser)
PROG("sk_skb", p_sk_skb)
PROG("sk_msg", p_sk_msg)
PROG("sockops", p_sockops)
PROG("sk_reuseport/migrate", p_sk_reuseport_migrate)
PROG("flow_dissector", p_flow_dissector)
PROG("sk_lookup", p_sk_lookup)
PROG("fentry/do_unlinkat", p_fentry)
PROG("fexit/do_unlinkat", p_fexit)
PROG("fmod_ret/security_bpf", p_fmod_ret)
PROG("fentry.s/do_unlinkat", p_fentry_s)
PROG("freplace/xdp_prog", p_freplace)
PROG("lsm/file_open", p_lsm)
PROG("lsm.s/bprm_check_security", p_lsm_s)
PROG("lsm_cgroup/socket_bind", p_lsm_cgroup)
PROG("iter/task", p_iter)
PROG("iter.s/task_file", p_iter_s)
PROG("struct_ops/tcp_init", p_struct_ops)
PROG("struct_ops.s/op", p_struct_ops_s)
PROG("syscall", p_syscall)
PROG("netfilter", p_netfilter)
PROG("?xdp", p_optional)
PROG("my_custom_section", p_unknown)
PROG("kprobe_but_not", p_not_kprobe)

/* Three programs share the "xdp" section. */
SEC("xdp") int xdp_a(struct xdp_md *ctx) { return XDP_PASS; }
SEC("xdp") int xdp_b(struct xdp_md *ctx) { return XDP_DROP; }
SEC("xdp") int xdp_c(struct xdp_md *ctx) { return XDP_TX; }

char LICENSE[] SEC("license") = "Dual BSD/GPL";
