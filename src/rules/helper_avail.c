/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Which helpers a program may call: the kernel's per-type get_func_proto
 * hooks of Linux 6.18, written as tables.
 *
 * Each hook is a "layer": a list of rules {helper id, prototype, condition}.
 * A program type is a chain of layers tried in order. A layer that knows
 * the id answers (the first rule whose condition holds gives the prototype;
 * when none holds the answer is "not available"); an id the layer does not
 * know goes to the next layer. Layers marked `null_continues` pass a "not
 * available" answer on as well (the kernel's cgroup_common_func_proto,
 * whose NULL means "ask the type's own hook").
 *
 * The chains follow the 6.12 sources; where 6.18 differs (found by loading
 * programs, see tests/unit/test_helpers_kernel.c) the rule says so.
 */
#include <stddef.h>
#include <string.h>

#include "data/helper_protos.h"
#include "helpers_internal.h"
#include "base/uapi.h"
#include "kver.h"

/* "Explicitly not available" marker in a rule. */
#define HP_NONE HP__COUNT

/* offsetof(struct tcp_congestion_ops, release) on x86-64 (vmlinux BTF). */
#define TCP_CA_RELEASE_MOFF 144

enum avail_cond {
	C_ALWAYS,
	C_BPF_CAP,		/* CAP_BPF */
	C_PERFMON,		/* CAP_PERFMON */
	C_SLEEPABLE,
	C_PERFMON_SLEEPABLE,
	C_KPROBE_MULTI,		/* kprobe.multi / kprobe.session */
	C_UPROBE_MULTI,		/* uprobe.multi / uprobe.session */
	C_ITER,			/* BPF_TRACE_ITER */
	C_TRAMPOLINE,		/* fentry/fexit/fmod_ret, lsm (not lsm_cgroup) */
	C_TRAMPOLINE_OR_TP_BTF,	/* ... or tp_btf */
	C_CONNECT_INET,		/* cgroup/connect4, connect6 */
	C_SOCK_ADDR_SOCKOPT,	/* sock_addr hooks that may get/setsockopt */
	C_SETSOCKOPT,		/* cgroup/setsockopt */
	C_HAS_RETVAL,		/* cgroup hooks with a settable return value */
	C_LSM_CGROUP,
	C_NOT_TCP_CA_RELEASE,	/* tcp_congestion_ops, any member but release */
	C_WRITE_USER,		/* a target known not to be locked down */
	C_RAW_TP_COOKIE,	/* KVER_RAW_TP_COOKIE */
	C_BASE_NS_PID_TGID,	/* KVER_BASE_NS_PID_TGID */
	C_NEVER,		/* compiled out on 6.18 here */
};

struct avail_rule {
	uint8_t id;
	uint16_t proto;
	uint8_t cond;
};

struct avail_layer {
	const struct avail_rule *rules;
	size_t cnt;
	bool null_continues;
};

#define R(fn, hp) { FN_##fn, HP_##hp, C_ALWAYS }
#define RC(fn, hp, c) { FN_##fn, HP_##hp, c }
#define RNONE(fn) { FN_##fn, HP_NONE, C_ALWAYS }
#define LAYER(name, nc) \
	static const struct avail_layer name = { name##_rules, \
		sizeof(name##_rules) / sizeof(name##_rules[0]), nc }

/*
 * bpf_base_func_proto. 6.18 moved most of 6.12's tracing-only helpers here
 * (behind CAP_PERFMON) and the cgroup "current task" helpers (behind
 * CAP_BPF); per_cpu_ptr/this_cpu_ptr moved from the CAP_BPF to the
 * CAP_PERFMON tier. The no-capability/CAP_BPF split cannot be observed on
 * this machine (unprivileged BPF is disabled); it is taken from 6.12 and
 * the new CAP_BPF entries (uid_gid, cgroup_classid,
 * current_task_under_cgroup, task_storage_*) are placed by analogy.
 */
static const struct avail_rule base_rules[] = {
	R(map_lookup_elem, map_lookup_elem),
	R(map_update_elem, map_update_elem),
	R(map_delete_elem, map_delete_elem),
	R(map_push_elem, map_push_elem),
	R(map_pop_elem, map_pop_elem),
	R(map_peek_elem, map_peek_elem),
	R(map_lookup_percpu_elem, map_lookup_percpu_elem),
	R(get_prandom_u32, get_prandom_u32),
	R(get_smp_processor_id, get_raw_smp_processor_id),
	R(get_numa_node_id, get_numa_node_id),
	R(tail_call, tail_call),
	R(ktime_get_ns, ktime_get_ns),
	R(ktime_get_boot_ns, ktime_get_boot_ns),
	R(ktime_get_tai_ns, ktime_get_tai_ns),
	R(ringbuf_output, ringbuf_output),
	R(ringbuf_reserve, ringbuf_reserve),
	R(ringbuf_submit, ringbuf_submit),
	R(ringbuf_discard, ringbuf_discard),
	R(ringbuf_query, ringbuf_query),
	R(strncmp, strncmp),
	R(strtol, strtol),
	R(strtoul, strtoul),
	R(get_current_pid_tgid, get_current_pid_tgid),
	RC(get_ns_current_pid_tgid, get_ns_current_pid_tgid, C_BASE_NS_PID_TGID),

	RC(spin_lock, spin_lock, C_BPF_CAP),
	RC(spin_unlock, spin_unlock, C_BPF_CAP),
	RC(jiffies64, jiffies64, C_BPF_CAP),
	RC(timer_init, timer_init, C_BPF_CAP),
	RC(timer_set_callback, timer_set_callback, C_BPF_CAP),
	RC(timer_start, timer_start, C_BPF_CAP),
	RC(timer_cancel, timer_cancel, C_BPF_CAP),
	RC(kptr_xchg, kptr_xchg, C_BPF_CAP),
	RC(for_each_map_elem, for_each_map_elem, C_BPF_CAP),
	RC(loop, loop, C_BPF_CAP),
	RC(user_ringbuf_drain, user_ringbuf_drain, C_BPF_CAP),
	RC(ringbuf_reserve_dynptr, ringbuf_reserve_dynptr, C_BPF_CAP),
	RC(ringbuf_submit_dynptr, ringbuf_submit_dynptr, C_BPF_CAP),
	RC(ringbuf_discard_dynptr, ringbuf_discard_dynptr, C_BPF_CAP),
	RC(dynptr_from_mem, dynptr_from_mem, C_BPF_CAP),
	RC(dynptr_read, dynptr_read, C_BPF_CAP),
	RC(dynptr_write, dynptr_write, C_BPF_CAP),
	RC(dynptr_data, dynptr_data, C_BPF_CAP),
	RC(cgrp_storage_get, cgrp_storage_get, C_BPF_CAP),
	RC(cgrp_storage_delete, cgrp_storage_delete, C_BPF_CAP),
	RC(get_current_cgroup_id, get_current_cgroup_id, C_BPF_CAP),
	RC(get_current_ancestor_cgroup_id, get_current_ancestor_cgroup_id,
	   C_BPF_CAP),
	/* New in the base set since 6.12 (observed without CAP_PERFMON). */
	RC(get_current_uid_gid, get_current_uid_gid, C_BPF_CAP),
	RC(get_cgroup_classid, get_cgroup_classid_curr, C_BPF_CAP),
	RC(current_task_under_cgroup, current_task_under_cgroup, C_BPF_CAP),
	RC(task_storage_get, task_storage_get, C_BPF_CAP),
	RC(task_storage_delete, task_storage_delete, C_BPF_CAP),

	RC(trace_printk, trace_printk, C_PERFMON),
	RC(get_current_task, get_current_task, C_PERFMON),
	RC(get_current_task_btf, get_current_task_btf, C_PERFMON),
	RC(probe_read_user, probe_read_user, C_PERFMON),
	RC(probe_read_kernel, probe_read_kernel, C_PERFMON),
	RC(probe_read_user_str, probe_read_user_str, C_PERFMON),
	RC(probe_read_kernel_str, probe_read_kernel_str, C_PERFMON),
	RC(snprintf_btf, snprintf_btf, C_PERFMON),
	RC(snprintf, snprintf, C_PERFMON),
	RC(task_pt_regs, task_pt_regs, C_PERFMON),
	RC(trace_vprintk, trace_vprintk, C_PERFMON),
	/* New in the CAP_PERFMON tier since 6.12 (observed). */
	RC(per_cpu_ptr, per_cpu_ptr, C_PERFMON),
	RC(this_cpu_ptr, this_cpu_ptr, C_PERFMON),
	RC(get_current_comm, get_current_comm, C_PERFMON),
	RC(perf_event_read, perf_event_read, C_PERFMON),
	RC(perf_event_read_value, perf_event_read_value, C_PERFMON),
	RC(send_signal, send_signal, C_PERFMON),
	RC(send_signal_thread, send_signal_thread, C_PERFMON),
	RC(get_task_stack, get_task_stack_sleepable, C_PERFMON_SLEEPABLE),
	RC(get_task_stack, get_task_stack, C_PERFMON),
	RC(copy_from_user, copy_from_user, C_PERFMON),
	RC(copy_from_user_task, copy_from_user_task, C_PERFMON),
	RC(get_branch_snapshot, get_branch_snapshot, C_PERFMON),
	RC(find_vma, find_vma, C_PERFMON),
};
LAYER(base, false);

/* bpf_sk_base_func_proto (net/core/filter.c). */
static const struct avail_rule sk_base_rules[] = {
	RC(skc_to_tcp6_sock, skc_to_tcp6_sock, C_PERFMON),
	RC(skc_to_tcp_sock, skc_to_tcp_sock, C_PERFMON),
	RC(skc_to_tcp_timewait_sock, skc_to_tcp_timewait_sock, C_PERFMON),
	RC(skc_to_tcp_request_sock, skc_to_tcp_request_sock, C_PERFMON),
	RC(skc_to_udp6_sock, skc_to_udp6_sock, C_PERFMON),
	RC(skc_to_unix_sock, skc_to_unix_sock, C_PERFMON),
	RC(skc_to_mptcp_sock, skc_to_mptcp_sock, C_PERFMON),
	R(ktime_get_coarse_ns, ktime_get_coarse_ns),
};
LAYER(sk_base, false);

/* cgroup_common_func_proto: a NULL answer falls through. */
static const struct avail_rule cgroup_common_rules[] = {
	R(get_local_storage, get_local_storage),
	RC(get_retval, get_retval, C_HAS_RETVAL),
	RC(set_retval, set_retval, C_HAS_RETVAL),
};
LAYER(cgroup_common, true);

/* sock_filter_func_proto (BPF_PROG_TYPE_CGROUP_SOCK). */
static const struct avail_rule cgroup_sock_rules[] = {
	R(get_socket_cookie, get_socket_cookie_sock),
	R(get_netns_cookie, get_netns_cookie_sock),
	R(perf_event_output, event_output_data),
	R(sk_storage_get, sk_storage_get_cg_sock),
	R(ktime_get_coarse_ns, ktime_get_coarse_ns),
};
LAYER(cgroup_sock, false);

static const struct avail_rule sock_addr_rules[] = {
	RC(bind, bind, C_CONNECT_INET),
	R(get_socket_cookie, get_socket_cookie_sock_addr),
	R(get_netns_cookie, get_netns_cookie_sock_addr),
	R(perf_event_output, event_output_data),
	R(sk_lookup_tcp, sock_addr_sk_lookup_tcp),
	R(sk_lookup_udp, sock_addr_sk_lookup_udp),
	R(sk_release, sk_release),
	R(skc_lookup_tcp, sock_addr_skc_lookup_tcp),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	RC(setsockopt, sock_addr_setsockopt, C_SOCK_ADDR_SOCKOPT),
	RC(getsockopt, sock_addr_getsockopt, C_SOCK_ADDR_SOCKOPT),
};
LAYER(sock_addr, false);

/* sk_filter_func_proto (BPF_PROG_TYPE_SOCKET_FILTER). */
static const struct avail_rule sk_filter_rules[] = {
	R(skb_load_bytes, skb_load_bytes),
	R(skb_load_bytes_relative, skb_load_bytes_relative),
	R(get_socket_cookie, get_socket_cookie),
	R(get_socket_uid, get_socket_uid),
	R(perf_event_output, skb_event_output),
	/* New since 6.12 (observed). */
	R(get_netns_cookie, get_netns_cookie),
};
LAYER(sk_filter, false);

static const struct avail_rule cg_skb_rules[] = {
	R(sk_fullsock, sk_fullsock),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	R(perf_event_output, skb_event_output),
	R(skb_cgroup_id, skb_cgroup_id),
	R(skb_ancestor_cgroup_id, skb_ancestor_cgroup_id),
	R(sk_cgroup_id, sk_cgroup_id),
	R(sk_ancestor_cgroup_id, sk_ancestor_cgroup_id),
	R(sk_lookup_tcp, sk_lookup_tcp),
	R(sk_lookup_udp, sk_lookup_udp),
	R(sk_release, sk_release),
	R(skc_lookup_tcp, skc_lookup_tcp),
	R(tcp_sock, tcp_sock),
	R(get_listener_sock, get_listener_sock),
	R(skb_ecn_set_ce, skb_ecn_set_ce),
};
LAYER(cg_skb, false);

/* tc_cls_act_func_proto (sched_cls, sched_act). */
static const struct avail_rule tc_rules[] = {
	R(skb_store_bytes, skb_store_bytes),
	R(skb_load_bytes, skb_load_bytes),
	R(skb_load_bytes_relative, skb_load_bytes_relative),
	R(skb_pull_data, skb_pull_data),
	R(csum_diff, csum_diff),
	R(csum_update, csum_update),
	R(csum_level, csum_level),
	R(l3_csum_replace, l3_csum_replace),
	R(l4_csum_replace, l4_csum_replace),
	R(clone_redirect, clone_redirect),
	R(get_cgroup_classid, get_cgroup_classid),
	R(skb_vlan_push, skb_vlan_push),
	R(skb_vlan_pop, skb_vlan_pop),
	R(skb_change_proto, skb_change_proto),
	R(skb_change_type, skb_change_type),
	R(skb_adjust_room, skb_adjust_room),
	R(skb_change_tail, skb_change_tail),
	R(skb_change_head, skb_change_head),
	R(skb_get_tunnel_key, skb_get_tunnel_key),
	R(skb_set_tunnel_key, skb_set_tunnel_key),
	R(skb_get_tunnel_opt, skb_get_tunnel_opt),
	R(skb_set_tunnel_opt, skb_set_tunnel_opt),
	R(redirect, redirect),
	R(redirect_neigh, redirect_neigh),
	R(redirect_peer, redirect_peer),
	R(get_route_realm, get_route_realm),
	R(get_hash_recalc, get_hash_recalc),
	R(set_hash_invalid, set_hash_invalid),
	R(set_hash, set_hash),
	R(perf_event_output, skb_event_output),
	R(get_smp_processor_id, get_smp_processor_id),
	R(skb_under_cgroup, skb_under_cgroup),
	R(get_socket_cookie, get_socket_cookie),
	R(get_socket_uid, get_socket_uid),
	/* New since 6.12 (observed). */
	R(get_netns_cookie, get_netns_cookie),
	R(fib_lookup, skb_fib_lookup),
	R(check_mtu, skb_check_mtu),
	R(sk_fullsock, sk_fullsock),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	R(skb_get_xfrm_state, skb_get_xfrm_state),
	R(skb_cgroup_classid, skb_cgroup_classid),
	R(skb_cgroup_id, skb_cgroup_id),
	R(skb_ancestor_cgroup_id, skb_ancestor_cgroup_id),
	R(sk_lookup_tcp, tc_sk_lookup_tcp),
	R(sk_lookup_udp, tc_sk_lookup_udp),
	R(sk_release, sk_release),
	R(tcp_sock, tcp_sock),
	R(get_listener_sock, get_listener_sock),
	R(skc_lookup_tcp, tc_skc_lookup_tcp),
	R(tcp_check_syncookie, tcp_check_syncookie),
	R(skb_ecn_set_ce, skb_ecn_set_ce),
	R(tcp_gen_syncookie, tcp_gen_syncookie),
	R(sk_assign, sk_assign),
	R(skb_set_tstamp, skb_set_tstamp),
	R(tcp_raw_gen_syncookie_ipv4, tcp_raw_gen_syncookie_ipv4),
	R(tcp_raw_gen_syncookie_ipv6, tcp_raw_gen_syncookie_ipv6),
	R(tcp_raw_check_syncookie_ipv4, tcp_raw_check_syncookie_ipv4),
	R(tcp_raw_check_syncookie_ipv6, tcp_raw_check_syncookie_ipv6),
};
LAYER(tc, false);

static const struct avail_rule xdp_rules[] = {
	R(perf_event_output, xdp_event_output),
	R(get_smp_processor_id, get_smp_processor_id),
	R(csum_diff, csum_diff),
	R(xdp_adjust_head, xdp_adjust_head),
	R(xdp_adjust_meta, xdp_adjust_meta),
	R(redirect, xdp_redirect),
	R(redirect_map, xdp_redirect_map),
	R(xdp_adjust_tail, xdp_adjust_tail),
	R(xdp_get_buff_len, xdp_get_buff_len),
	R(xdp_load_bytes, xdp_load_bytes),
	R(xdp_store_bytes, xdp_store_bytes),
	R(fib_lookup, xdp_fib_lookup),
	R(check_mtu, xdp_check_mtu),
	R(sk_lookup_udp, xdp_sk_lookup_udp),
	R(sk_lookup_tcp, xdp_sk_lookup_tcp),
	R(sk_release, sk_release),
	R(skc_lookup_tcp, xdp_skc_lookup_tcp),
	R(tcp_check_syncookie, tcp_check_syncookie),
	R(tcp_gen_syncookie, tcp_gen_syncookie),
	R(tcp_raw_gen_syncookie_ipv4, tcp_raw_gen_syncookie_ipv4),
	R(tcp_raw_gen_syncookie_ipv6, tcp_raw_gen_syncookie_ipv6),
	R(tcp_raw_check_syncookie_ipv4, tcp_raw_check_syncookie_ipv4),
	R(tcp_raw_check_syncookie_ipv6, tcp_raw_check_syncookie_ipv6),
};
LAYER(xdp, false);

static const struct avail_rule sock_ops_rules[] = {
	R(setsockopt, sock_ops_setsockopt),
	R(getsockopt, sock_ops_getsockopt),
	R(sock_ops_cb_flags_set, sock_ops_cb_flags_set),
	R(sock_map_update, sock_map_update),
	R(sock_hash_update, sock_hash_update),
	R(get_socket_cookie, get_socket_cookie_sock_ops),
	R(perf_event_output, event_output_data),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	R(get_netns_cookie, get_netns_cookie_sock_ops),
	R(load_hdr_opt, sock_ops_load_hdr_opt),
	R(store_hdr_opt, sock_ops_store_hdr_opt),
	R(reserve_hdr_opt, sock_ops_reserve_hdr_opt),
	R(tcp_sock, tcp_sock),
};
LAYER(sock_ops, false);

static const struct avail_rule sk_msg_rules[] = {
	R(msg_redirect_map, msg_redirect_map),
	R(msg_redirect_hash, msg_redirect_hash),
	R(msg_apply_bytes, msg_apply_bytes),
	R(msg_cork_bytes, msg_cork_bytes),
	R(msg_pull_data, msg_pull_data),
	R(msg_push_data, msg_push_data),
	R(msg_pop_data, msg_pop_data),
	R(perf_event_output, event_output_data),
	R(get_current_uid_gid, get_current_uid_gid),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	R(get_netns_cookie, get_netns_cookie_sk_msg),
	R(get_cgroup_classid, get_cgroup_classid_curr),
};
LAYER(sk_msg, false);

static const struct avail_rule sk_skb_rules[] = {
	R(skb_store_bytes, skb_store_bytes),
	R(skb_load_bytes, skb_load_bytes),
	R(skb_pull_data, sk_skb_pull_data),
	R(skb_change_tail, sk_skb_change_tail),
	R(skb_change_head, sk_skb_change_head),
	R(skb_adjust_room, sk_skb_adjust_room),
	R(get_socket_cookie, get_socket_cookie),
	R(get_socket_uid, get_socket_uid),
	R(sk_redirect_map, sk_redirect_map),
	R(sk_redirect_hash, sk_redirect_hash),
	R(perf_event_output, skb_event_output),
	R(sk_lookup_tcp, sk_lookup_tcp),
	R(sk_lookup_udp, sk_lookup_udp),
	R(sk_release, sk_release),
	R(skc_lookup_tcp, skc_lookup_tcp),
};
LAYER(sk_skb, false);

static const struct avail_rule flow_dissector_rules[] = {
	R(skb_load_bytes, flow_dissector_load_bytes),
};
LAYER(flow_dissector, false);

static const struct avail_rule lwt_out_rules[] = {
	R(skb_load_bytes, skb_load_bytes),
	R(skb_pull_data, skb_pull_data),
	R(csum_diff, csum_diff),
	R(get_cgroup_classid, get_cgroup_classid),
	R(get_route_realm, get_route_realm),
	R(get_hash_recalc, get_hash_recalc),
	R(perf_event_output, skb_event_output),
	R(get_smp_processor_id, get_smp_processor_id),
	R(skb_under_cgroup, skb_under_cgroup),
};
LAYER(lwt_out, false);

static const struct avail_rule lwt_in_rules[] = {
	R(lwt_push_encap, lwt_in_push_encap),
};
LAYER(lwt_in, false);

static const struct avail_rule lwt_xmit_rules[] = {
	R(skb_get_tunnel_key, skb_get_tunnel_key),
	R(skb_set_tunnel_key, skb_set_tunnel_key),
	R(skb_get_tunnel_opt, skb_get_tunnel_opt),
	R(skb_set_tunnel_opt, skb_set_tunnel_opt),
	R(redirect, redirect),
	R(clone_redirect, clone_redirect),
	R(skb_change_tail, skb_change_tail),
	R(skb_change_head, skb_change_head),
	R(skb_store_bytes, skb_store_bytes),
	R(csum_update, csum_update),
	R(csum_level, csum_level),
	R(l3_csum_replace, l3_csum_replace),
	R(l4_csum_replace, l4_csum_replace),
	R(set_hash_invalid, set_hash_invalid),
	R(lwt_push_encap, lwt_xmit_push_encap),
};
LAYER(lwt_xmit, false);

/* 6.12 refused skb_pull_data here; 6.18 falls through to lwt_out. */
static const struct avail_rule lwt_seg6local_rules[] = {
	R(lwt_seg6_store_bytes, lwt_seg6_store_bytes),
	R(lwt_seg6_action, lwt_seg6_action),
	R(lwt_seg6_adjust_srh, lwt_seg6_adjust_srh),
};
LAYER(lwt_seg6local, false);

static const struct avail_rule sk_reuseport_rules[] = {
	R(sk_select_reuseport, sk_select_reuseport),
	R(skb_load_bytes, sk_reuseport_load_bytes),
	R(skb_load_bytes_relative, sk_reuseport_load_bytes_relative),
	R(get_socket_cookie, get_socket_ptr_cookie),
	R(ktime_get_coarse_ns, ktime_get_coarse_ns),
};
LAYER(sk_reuseport, false);

static const struct avail_rule sk_lookup_rules[] = {
	R(perf_event_output, event_output_data),
	R(sk_assign, sk_lookup_assign),
	R(sk_release, sk_release),
};
LAYER(sk_lookup, false);

static const struct avail_rule cgroup_dev_rules[] = {
	R(perf_event_output, event_output_data),
};
LAYER(cgroup_dev, false);

static const struct avail_rule sysctl_rules[] = {
	R(sysctl_get_name, sysctl_get_name),
	R(sysctl_get_current_value, sysctl_get_current_value),
	R(sysctl_get_new_value, sysctl_get_new_value),
	R(sysctl_set_new_value, sysctl_set_new_value),
	R(ktime_get_coarse_ns, ktime_get_coarse_ns),
	R(perf_event_output, event_output_data),
};
LAYER(sysctl, false);

static const struct avail_rule sockopt_rules[] = {
	R(get_netns_cookie, get_netns_cookie_sockopt),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	RC(setsockopt, sk_setsockopt, C_SETSOCKOPT),
	RC(getsockopt, sk_getsockopt, C_SETSOCKOPT),
	R(tcp_sock, tcp_sock),
	R(perf_event_output, event_output_data),
};
LAYER(sockopt, false);

static const struct avail_rule lirc_rules[] = {
	R(rc_repeat, rc_repeat),
	R(rc_keydown, rc_keydown),
	R(rc_pointer_rel, rc_pointer_rel),
	R(map_lookup_elem, map_lookup_elem),
	R(map_update_elem, map_update_elem),
	R(map_delete_elem, map_delete_elem),
	R(map_push_elem, map_push_elem),
	R(map_pop_elem, map_pop_elem),
	R(map_peek_elem, map_peek_elem),
	R(ktime_get_ns, ktime_get_ns),
	R(ktime_get_boot_ns, ktime_get_boot_ns),
	R(tail_call, tail_call),
	R(get_prandom_u32, get_prandom_u32),
	RC(trace_printk, trace_printk, C_PERFMON),
};
/* lirc_mode2 has no fallback: everything else is unavailable. */
LAYER(lirc, false);

/*
 * bpf_tracing_func_proto. In 6.18 nearly all of 6.12's entries live in the
 * base set (CAP_PERFMON tier); what stays is what a program type without
 * CAP_PERFMON (syscall) still gets here. probe_write_user is behind a
 * lockdown check: refused on the recorded 6.18 kernel (locked down for
 * integrity), offered by Debian's 6.1 and 6.12 (not locked down).
 */
static const struct avail_rule tracing_base_rules[] = {
	RC(probe_read, probe_read_compat, C_ALWAYS),
	RC(probe_read_str, probe_read_compat_str, C_ALWAYS),
	RC(probe_write_user, probe_write_user, C_WRITE_USER),
	/* Tracing's before the base set had it (6.10). */
	R(get_ns_current_pid_tgid, get_ns_current_pid_tgid),
	R(get_func_ip, get_func_ip_tracing),
};
LAYER(tracing_base, false);

static const struct avail_rule kprobe_rules[] = {
	R(perf_event_output, perf_event_output),
	R(get_stackid, get_stackid),
	RC(get_stack, get_stack_sleepable, C_SLEEPABLE),
	R(get_stack, get_stack),
	RC(override_return, override_return, C_NEVER),
	RC(get_func_ip, get_func_ip_kprobe_multi, C_KPROBE_MULTI),
	RC(get_func_ip, get_func_ip_uprobe_multi, C_UPROBE_MULTI),
	R(get_func_ip, get_func_ip_kprobe),
	RC(get_attach_cookie, get_attach_cookie_kmulti, C_KPROBE_MULTI),
	RC(get_attach_cookie, get_attach_cookie_umulti, C_UPROBE_MULTI),
	R(get_attach_cookie, get_attach_cookie_trace),
};
LAYER(kprobe, false);

static const struct avail_rule tp_rules[] = {
	R(perf_event_output, perf_event_output_tp),
	R(get_stackid, get_stackid_tp),
	R(get_stack, get_stack_tp),
	R(get_attach_cookie, get_attach_cookie_trace),
};
LAYER(tp, false);

static const struct avail_rule pe_rules[] = {
	R(perf_event_output, perf_event_output_tp),
	R(get_stackid, get_stackid_pe),
	R(get_stack, get_stack_pe),
	R(perf_prog_read_value, perf_prog_read_value),
	R(read_branch_records, read_branch_records),
	R(get_attach_cookie, get_attach_cookie_pe),
};
LAYER(pe, false);

static const struct avail_rule raw_tp_rules[] = {
	R(perf_event_output, perf_event_output_raw_tp),
	R(get_stackid, get_stackid_raw_tp),
	R(get_stack, get_stack_raw_tp),
	RC(get_attach_cookie, get_attach_cookie_tracing, C_RAW_TP_COOKIE),
};
LAYER(raw_tp, false);

/* tracing_prog_func_proto (fentry/fexit/fmod_ret, tp_btf, iter). */
static const struct avail_rule tracing_rules[] = {
	R(skb_output, skb_output),
	R(xdp_output, xdp_output),
	R(skc_to_tcp6_sock, skc_to_tcp6_sock),
	R(skc_to_tcp_sock, skc_to_tcp_sock),
	R(skc_to_tcp_timewait_sock, skc_to_tcp_timewait_sock),
	R(skc_to_tcp_request_sock, skc_to_tcp_request_sock),
	R(skc_to_udp6_sock, skc_to_udp6_sock),
	R(skc_to_unix_sock, skc_to_unix_sock),
	R(skc_to_mptcp_sock, skc_to_mptcp_sock),
	R(sk_storage_get, sk_storage_get_tracing),
	R(sk_storage_delete, sk_storage_delete_tracing),
	R(sock_from_file, sock_from_file),
	R(get_socket_cookie, get_socket_ptr_cookie),
	R(xdp_get_buff_len, xdp_get_buff_len_trace),
	RC(seq_printf, seq_printf, C_ITER),
	RC(seq_write, seq_write, C_ITER),
	RC(seq_printf_btf, seq_printf_btf, C_ITER),
	R(d_path, d_path),
	RC(get_func_arg, get_func_arg, C_TRAMPOLINE),
	RC(get_func_ret, get_func_ret, C_TRAMPOLINE),
	RC(get_func_arg_cnt, get_func_arg_cnt, C_TRAMPOLINE),
	RC(get_attach_cookie, get_attach_cookie_tracing,
	   C_TRAMPOLINE_OR_TP_BTF),
};
LAYER(tracing, false);

static const struct avail_rule lsm_rules[] = {
	R(inode_storage_get, inode_storage_get),
	R(inode_storage_delete, inode_storage_delete),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	R(spin_lock, spin_lock),
	R(spin_unlock, spin_unlock),
	R(bprm_opts_set, bprm_opts_set),
	R(ima_inode_hash, ima_inode_hash),
	R(ima_file_hash, ima_file_hash),
	RC(get_attach_cookie, get_attach_cookie, C_TRAMPOLINE),
	/* The kernel also checks the hook against its sockopt hook sets. */
	RC(setsockopt, sk_setsockopt, C_LSM_CGROUP),
	RC(getsockopt, sk_getsockopt, C_LSM_CGROUP),
};
LAYER(lsm, false);

/* cgroup_common_func_proto, asked only by lsm_cgroup programs. */
static const struct avail_rule lsm_cgroup_common_rules[] = {
	RC(get_local_storage, get_local_storage, C_LSM_CGROUP),
	RC(get_retval, get_retval, C_LSM_CGROUP),
	RC(set_retval, set_retval, C_LSM_CGROUP),
};
LAYER(lsm_cgroup_common, true);

/* syscall_prog_func_proto. */
static const struct avail_rule syscall_rules[] = {
	RC(sys_bpf, sys_bpf, C_PERFMON),
	R(btf_find_by_name_kind, btf_find_by_name_kind),
	R(sys_close, sys_close),
	R(kallsyms_lookup_name, kallsyms_lookup_name),
};
LAYER(syscall, false);

static const struct avail_rule tcp_ca_rules[] = {
	R(tcp_send_ack, tcp_send_ack),
	R(sk_storage_get, sk_storage_get),
	R(sk_storage_delete, sk_storage_delete),
	RC(setsockopt, sk_setsockopt, C_NOT_TCP_CA_RELEASE),
	RC(getsockopt, sk_getsockopt, C_NOT_TCP_CA_RELEASE),
	R(ktime_get_coarse_ns, ktime_get_coarse_ns),
};
LAYER(tcp_ca, false);

static bool is_sock_addr_sockopt_hook(uint32_t eat)
{
	switch (eat) {
	case BPF_CGROUP_INET4_BIND:
	case BPF_CGROUP_INET6_BIND:
	case BPF_CGROUP_INET4_CONNECT:
	case BPF_CGROUP_INET6_CONNECT:
	case BPF_CGROUP_UNIX_CONNECT:
	case BPF_CGROUP_UDP4_RECVMSG:
	case BPF_CGROUP_UDP6_RECVMSG:
	case BPF_CGROUP_UNIX_RECVMSG:
	case BPF_CGROUP_UDP4_SENDMSG:
	case BPF_CGROUP_UDP6_SENDMSG:
	case BPF_CGROUP_UNIX_SENDMSG:
	case BPF_CGROUP_INET4_GETPEERNAME:
	case BPF_CGROUP_INET6_GETPEERNAME:
	case BPF_CGROUP_INET4_GETSOCKNAME:
	case BPF_CGROUP_INET6_GETSOCKNAME:
	/* 6.18 (observed); 6.12 refused the two unix hooks. */
	case BPF_CGROUP_UNIX_GETPEERNAME:
	case BPF_CGROUP_UNIX_GETSOCKNAME:
		return true;
	default:
		return false;
	}
}

/* Hooks whose return value the program cannot override. */
static bool is_fixed_retval_hook(uint32_t eat)
{
	switch (eat) {
	case BPF_CGROUP_INET_INGRESS:
	case BPF_CGROUP_INET_EGRESS:
	case BPF_CGROUP_SOCK_OPS:
	case BPF_CGROUP_UDP4_RECVMSG:
	case BPF_CGROUP_UDP6_RECVMSG:
	case BPF_CGROUP_UNIX_RECVMSG:
	case BPF_CGROUP_INET4_GETPEERNAME:
	case BPF_CGROUP_INET6_GETPEERNAME:
	case BPF_CGROUP_UNIX_GETPEERNAME:
	case BPF_CGROUP_INET4_GETSOCKNAME:
	case BPF_CGROUP_INET6_GETSOCKNAME:
	case BPF_CGROUP_UNIX_GETSOCKNAME:
		return true;
	default:
		return false;
	}
}

static bool has_trampoline(const struct helper_query *q)
{
	uint32_t eat = q->expected_attach_type;

	if (q->prog_type == BPF_PROG_TYPE_TRACING)
		return eat == BPF_TRACE_FENTRY || eat == BPF_TRACE_FEXIT ||
		       eat == BPF_MODIFY_RETURN;
	return q->prog_type == BPF_PROG_TYPE_LSM && eat == BPF_LSM_MAC;
}

static bool cond_holds(const struct helper_query *q, enum avail_cond c)
{
	uint32_t eat = q->expected_attach_type;

	switch (c) {
	case C_ALWAYS:
		return true;
	case C_BPF_CAP:
		return q->bpf_capable;
	case C_PERFMON:
		return q->perfmon;
	case C_SLEEPABLE:
		return q->sleepable;
	case C_PERFMON_SLEEPABLE:
		return q->perfmon && q->sleepable;
	case C_KPROBE_MULTI:
		return eat == BPF_TRACE_KPROBE_MULTI ||
		       eat == BPF_TRACE_KPROBE_SESSION;
	case C_UPROBE_MULTI:
		return eat == BPF_TRACE_UPROBE_MULTI ||
		       eat == BPF_TRACE_UPROBE_SESSION;
	case C_ITER:
		return eat == BPF_TRACE_ITER;
	case C_TRAMPOLINE:
		return has_trampoline(q);
	case C_TRAMPOLINE_OR_TP_BTF:
		return has_trampoline(q) ||
		       (q->prog_type == BPF_PROG_TYPE_TRACING &&
			eat == BPF_TRACE_RAW_TP && kver_has(q->kver, KVER_RAW_TP_COOKIE));
	case C_RAW_TP_COOKIE:
		return kver_has(q->kver, KVER_RAW_TP_COOKIE);
	case C_BASE_NS_PID_TGID:
		return kver_has(q->kver, KVER_BASE_NS_PID_TGID);
	case C_CONNECT_INET:
		return eat == BPF_CGROUP_INET4_CONNECT ||
		       eat == BPF_CGROUP_INET6_CONNECT;
	case C_SOCK_ADDR_SOCKOPT:
		return is_sock_addr_sockopt_hook(eat);
	case C_SETSOCKOPT:
		return eat == BPF_CGROUP_SETSOCKOPT;
	case C_HAS_RETVAL:
		return !is_fixed_retval_hook(eat);
	case C_LSM_CGROUP:
		return eat == BPF_LSM_CGROUP;
	case C_NOT_TCP_CA_RELEASE:
		return q->struct_ops_moff != TCP_CA_RELEASE_MOFF;
	case C_WRITE_USER:
		return q->write_user;
	case C_NEVER:
		return false;
	}
	return false;
}

/*
 * One layer's answer: true when the layer knows the id; *out is the
 * prototype or NULL (known but not available).
 */
static bool layer_answer(const struct avail_layer *l,
			 const struct helper_query *q, uint32_t id,
			 const struct helper_proto **out)
{
	bool known = false;

	for (size_t i = 0; i < l->cnt; i++) {
		const struct avail_rule *r = &l->rules[i];

		if (r->id != id)
			continue;
		known = true;
		if (!cond_holds(q, r->cond))
			continue;
		*out = r->proto == HP_NONE ? NULL : &helper_protos[r->proto];
		return true;
	}
	*out = NULL;
	return known;
}

#define CHAIN(name, ...) \
	static const struct avail_layer *const name[] = { __VA_ARGS__, NULL }

CHAIN(ch_socket_filter, &sk_filter, &sk_base, &base);
CHAIN(ch_kprobe, &kprobe, &tracing_base, &base);
CHAIN(ch_tc, &tc, &sk_base, &base);
CHAIN(ch_tracepoint, &tp, &tracing_base, &base);
CHAIN(ch_xdp, &xdp, &sk_base, &base);
CHAIN(ch_perf_event, &pe, &tracing_base, &base);
CHAIN(ch_cgroup_skb, &cgroup_common, &cg_skb, &sk_filter, &sk_base, &base);
CHAIN(ch_cgroup_sock, &cgroup_common, &cgroup_sock, &base);
CHAIN(ch_lwt_in, &lwt_in, &lwt_out, &sk_base, &base);
CHAIN(ch_lwt_out, &lwt_out, &sk_base, &base);
CHAIN(ch_lwt_xmit, &lwt_xmit, &lwt_out, &sk_base, &base);
CHAIN(ch_sock_ops, &cgroup_common, &sock_ops, &sk_base, &base);
CHAIN(ch_sk_skb, &sk_skb, &sk_base, &base);
CHAIN(ch_cgroup_device, &cgroup_common, &cgroup_dev, &base);
CHAIN(ch_sk_msg, &sk_msg, &sk_base, &base);
CHAIN(ch_raw_tp, &raw_tp, &tracing_base, &base);
CHAIN(ch_sock_addr, &cgroup_common, &sock_addr, &sk_base, &base);
CHAIN(ch_lwt_seg6local, &lwt_seg6local, &lwt_out, &sk_base, &base);
CHAIN(ch_lirc, &lirc);
CHAIN(ch_sk_reuseport, &sk_reuseport, &base);
CHAIN(ch_flow_dissector, &flow_dissector, &sk_base, &base);
CHAIN(ch_sysctl, &cgroup_common, &sysctl, &base);
CHAIN(ch_sockopt, &cgroup_common, &sockopt, &base);
CHAIN(ch_tracing, &tracing, &raw_tp, &tracing_base, &base);
CHAIN(ch_struct_ops, &base);
CHAIN(ch_tcp_ca, &tcp_ca, &base);
CHAIN(ch_lsm, &lsm_cgroup_common, &lsm, &tracing, &raw_tp, &tracing_base,
      &base);
CHAIN(ch_sk_lookup, &sk_lookup, &sk_base, &base);
CHAIN(ch_syscall, &syscall, &tracing, &raw_tp, &tracing_base, &base);
CHAIN(ch_netfilter, &base);

/* BPF_PROG_TYPE_EXT has no hook of its own: ask with the target's type. */
static const struct avail_layer *const *const chains[BPF_PROG_TYPE_MAX_] = {
	[BPF_PROG_TYPE_SOCKET_FILTER] = ch_socket_filter,
	[BPF_PROG_TYPE_KPROBE] = ch_kprobe,
	[BPF_PROG_TYPE_SCHED_CLS] = ch_tc,
	[BPF_PROG_TYPE_SCHED_ACT] = ch_tc,
	[BPF_PROG_TYPE_TRACEPOINT] = ch_tracepoint,
	[BPF_PROG_TYPE_XDP] = ch_xdp,
	[BPF_PROG_TYPE_PERF_EVENT] = ch_perf_event,
	[BPF_PROG_TYPE_CGROUP_SKB] = ch_cgroup_skb,
	[BPF_PROG_TYPE_CGROUP_SOCK] = ch_cgroup_sock,
	[BPF_PROG_TYPE_LWT_IN] = ch_lwt_in,
	[BPF_PROG_TYPE_LWT_OUT] = ch_lwt_out,
	[BPF_PROG_TYPE_LWT_XMIT] = ch_lwt_xmit,
	[BPF_PROG_TYPE_SOCK_OPS] = ch_sock_ops,
	[BPF_PROG_TYPE_SK_SKB] = ch_sk_skb,
	[BPF_PROG_TYPE_CGROUP_DEVICE] = ch_cgroup_device,
	[BPF_PROG_TYPE_SK_MSG] = ch_sk_msg,
	[BPF_PROG_TYPE_RAW_TRACEPOINT] = ch_raw_tp,
	[BPF_PROG_TYPE_CGROUP_SOCK_ADDR] = ch_sock_addr,
	[BPF_PROG_TYPE_LWT_SEG6LOCAL] = ch_lwt_seg6local,
	[BPF_PROG_TYPE_LIRC_MODE2] = ch_lirc,
	[BPF_PROG_TYPE_SK_REUSEPORT] = ch_sk_reuseport,
	[BPF_PROG_TYPE_FLOW_DISSECTOR] = ch_flow_dissector,
	[BPF_PROG_TYPE_CGROUP_SYSCTL] = ch_sysctl,
	[BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE] = ch_raw_tp,
	[BPF_PROG_TYPE_CGROUP_SOCKOPT] = ch_sockopt,
	[BPF_PROG_TYPE_TRACING] = ch_tracing,
	[BPF_PROG_TYPE_STRUCT_OPS] = ch_struct_ops,
	[BPF_PROG_TYPE_LSM] = ch_lsm,
	[BPF_PROG_TYPE_SK_LOOKUP] = ch_sk_lookup,
	[BPF_PROG_TYPE_SYSCALL] = ch_syscall,
	[BPF_PROG_TYPE_NETFILTER] = ch_netfilter,
};

static const struct avail_layer *const *chain_for(const struct helper_query *q)
{
	if (q->prog_type >= BPF_PROG_TYPE_MAX_)
		return NULL;
	/* struct_ops programs get the hook of the struct they implement. */
	if (q->prog_type == BPF_PROG_TYPE_STRUCT_OPS && q->struct_ops_name &&
	    !strcmp(q->struct_ops_name, "tcp_congestion_ops"))
		return ch_tcp_ca;
	/* bpf_dummy_ops has no get_func_proto: no helper at all (checked
	 * on 6.18, tests/progs/struct_ops.c). */
	if (q->prog_type == BPF_PROG_TYPE_STRUCT_OPS && q->struct_ops_name &&
	    !strcmp(q->struct_ops_name, "bpf_dummy_ops"))
		return NULL;
	return chains[q->prog_type];
}

/* Helpers an iterator target adds (its get_func_proto): socket options
 * for TCP and Unix sockets. */
static const struct helper_proto *iter_target_proto(const char *target, uint32_t id)
{
	if (!target || (strcmp(target, "tcp") && strcmp(target, "unix")))
		return NULL;
	if (id == 49)	/* bpf_setsockopt */
		return &helper_protos[HP_sk_setsockopt];
	if (id == 57)	/* bpf_getsockopt */
		return &helper_protos[HP_sk_getsockopt];
	return NULL;
}

static const struct helper_proto *chain_answer(const struct helper_query *q, uint32_t id)
{
	const struct avail_layer *const *chain = chain_for(q);
	const struct helper_proto *p = NULL;

	for (; chain && *chain; chain++) {
		if (!layer_answer(*chain, q, id, &p))
			continue;
		if (p || !(*chain)->null_continues)
			return p;
	}
	return NULL;
}

const struct helper_proto *helper_proto_query(const struct helper_query *q,
					      uint32_t id)
{
	const struct helper_proto *p;

	if (!q || id >= HELPER_ID_MAX)
		return NULL;
	p = chain_answer(q, id);
	if (!p && q->prog_type == BPF_PROG_TYPE_TRACING &&
	    q->expected_attach_type == BPF_TRACE_ITER)
		p = iter_target_proto(q->iter_target, id);
	return p;
}
