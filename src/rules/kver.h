/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * What changed in the verifier between the kernels bpfvet targets, in one
 * table (kver.c): each behaviour with the first version that has it. The
 * verifier asks kver_has() instead of comparing versions where it stands.
 * Version 0 (unknown) is the newest target, Linux 6.18.
 */
#ifndef BPFVET_RULES_KVER_H
#define BPFVET_RULES_KVER_H

#include <stdbool.h>
#include <stdint.h>

enum kver_feature {
	/* Sign-extending loads and moves, signed division and modulo,
	 * unconditional byte swaps: the instructions of ISA v4. */
	KVER_ISA_V4,
	/* Pointer trust (helper and ctx typing). */
	/* Pointers carry trust: tracing, LSM and iterator ctx arguments
	 * are trusted_ptr_, walks follow the RCU and __safe_* rules (6.2).
	 * Before, ctx arguments and walked pointers were plain ptr_ and
	 * only an untrusted source made an untrusted one. */
	KVER_PTR_TRUSTED,
	/* A pointer walked from a plain ptr_, or from a field of a trusted
	 * one that no rule lists, is untrusted_ptr_ (seen on 6.18; 6.12
	 * still gave the plain ptr_ that helpers take). */
	KVER_WALK_UNTRUSTED,
	/* A walk through a union of several members is untrusted and may
	 * read past the end of the member it lands in (6.3); before, the
	 * member's end bounded the read. */
	KVER_UNION_WALK_UNTRUSTED,
	/* Only GPL-compatible programs read kernel structs through BTF
	 * pointers (6.2); before, any program. */
	KVER_BTF_ACCESS_GPL_ONLY,
	/* Map key and value arguments of helpers take any readable memory
	 * (mem, ringbuf records, iterator buffers) (6.2); before, only the
	 * stack, packet and map memory. */
	KVER_MAP_ARG_ANY_MEM,
	/* Attach checks. */
	/* The kernel's own fmod_ret set: bpf_modify_return_test* may be
	 * fmod_ret targets and bpf_fentry_test1 a sleepable one without
	 * error injection (6.2); before, only the error injection list. */
	KVER_FMODRET_TEST_SET,
	/* update_socket_protocol is in an fmod_ret set (6.6), for MPTCP. */
	KVER_FMODRET_SOCKET_PROTOCOL,
	/* Helper availability. */
	/* raw_tp and tp_btf programs may call bpf_get_attach_cookie (6.10). */
	KVER_RAW_TP_COOKIE,
	/* bpf_get_ns_current_pid_tgid is a base helper, offered to every
	 * program type (6.10); before, to tracing programs only. */
	KVER_BASE_NS_PID_TGID,
	/* Return values. */
	/* LSM programs return what their hook may: an errno or 0, or a
	 * bool (6.12); before, any scalar. */
	KVER_LSM_RETVAL_RANGE,
	/* Context fields. */
	/* struct bpf_sock_ops ends with skb_hwtstamp (6.2). */
	KVER_SOCK_OPS_HWTSTAMP,
	/* Program structure. */
	/* BPF exceptions (6.7): the "exception_callback:" tag names a
	 * callback no code may call; before, the tag meant nothing. */
	KVER_EXCEPTIONS,
	/* A struct_ops program that implements no struct (attach_btf_id 0)
	 * is refused without a message (6.9), which the recorded kernels
	 * count as refused before the verifier; before, the verifier said
	 * "attach_btf_id 0 is not a supported struct". */
	KVER_STRUCT_OPS_UNSET_QUIET,
	/* bpf_for_each_map_elem may see different maps at one call (6.9);
	 * before, the second map "abused" the call's recorded map. */
	KVER_FOR_EACH_MULTI_MAPS,
	/* LD_IMM64 may load a kernel function's address (a BTF FUNC, as
	 * libbpf emits for a typeless function ksym) (6.4); before, only a
	 * BTF VAR. */
	KVER_LDIMM64_FUNC,
	/* Global function calls that may change packet data, and tail
	 * calls, invalidate packet pointers (upstream 6.13, in Debian's 6.12
	 * as a stable fix); before, only the helpers that change it. */
	KVER_CALLS_CHANGE_PKT_DATA,
	/* Stack. */
	/* A helper that only reads stack memory leaves it as it was (seen
	 * on 6.18); 6.12 and before treated every helper access as a write:
	 * spilled registers and zeros read by it became misc bytes. */
	KVER_HELPER_READ_KEEPS_STACK,
	/* The combined stack of a call chain counts each frame rounded up
	 * to 16 bytes, as the JIT lays it out (6.8); before, each frame
	 * counted at least 1 byte rounded up to 32. */
	KVER_STACK_ROUND_16,
	/* Tracing subprograms with 64 bytes of stack or more get a private
	 * stack, outside the 512-byte chain (6.13). */
	KVER_PRIV_STACK,
	/* Map value fields. */
	/* Kptr tags as named since 6.3: __kptr is referenced,
	 * __kptr_untrusted not (also __percpu_kptr, 6.6). Before, "kptr" was
	 * the unreferenced one and "kptr_ref" the referenced; any other tag
	 * spoils the value's fields. */
	KVER_KPTR_TAG_NAMES,
	KVER__COUNT,
};

/* kver: KERNEL_VERSION(a, b, c) of the target, 0 when unknown. */
bool kver_has(uint32_t kver, enum kver_feature f);
/* "ISA v4 (6.6)", for messages and docs. */
const char *kver_feature_name(enum kver_feature f);

#endif
