/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel's BPF ABI as bpfvet needs it: instruction encoding, pseudo
 * sources, program/map/attach type numbers (Linux 6.18 values) and flags.
 *
 * The system's <linux/bpf.h> on Debian 12 describes Linux 6.1 and lacks
 * the v4 ISA, so we describe the ABI ourselves. Never include this header
 * together with <linux/bpf.h>.
 */
#ifndef BPFVET_UAPI_H
#define BPFVET_UAPI_H

#ifdef _UAPI__LINUX_BPF_H__
#error "src/base/uapi.h replaces <linux/bpf.h>; include only one of them"
#endif

#include <stdint.h>

#include "bpfvet.h"

/* Instruction classes (code & 0x07). */
#define BPF_LD		0x00
#define BPF_LDX		0x01
#define BPF_ST		0x02
#define BPF_STX		0x03
#define BPF_ALU		0x04
#define BPF_JMP		0x05
#define BPF_JMP32	0x06
#define BPF_ALU64	0x07
#define BPF_CLASS(code)	((code) & 0x07)

/* Load/store sizes (code & 0x18) and modes (code & 0xe0). */
#define BPF_W		0x00
#define BPF_H		0x08
#define BPF_B		0x10
#define BPF_DW		0x18
#define BPF_SIZE(code)	((code) & 0x18)
#define BPF_IMM		0x00
#define BPF_ABS		0x20
#define BPF_IND		0x40
#define BPF_MEM		0x60
#define BPF_MEMSX	0x80
#define BPF_ATOMIC	0xc0
#define BPF_MODE(code)	((code) & 0xe0)

/* ALU operations (code & 0xf0). */
#define BPF_ADD		0x00
#define BPF_SUB		0x10
#define BPF_MUL		0x20
#define BPF_DIV		0x30
#define BPF_OR		0x40
#define BPF_AND		0x50
#define BPF_LSH		0x60
#define BPF_RSH		0x70
#define BPF_NEG		0x80
#define BPF_MOD		0x90
#define BPF_XOR		0xa0
#define BPF_MOV		0xb0
#define BPF_ARSH	0xc0
#define BPF_END		0xd0
#define BPF_OP(code)	((code) & 0xf0)

/* Operand source (code & 0x08). For BPF_END: to-le / to-be. */
#define BPF_K		0x00
#define BPF_X		0x08
#define BPF_SRC(code)	((code) & 0x08)
#define BPF_TO_LE	0x00
#define BPF_TO_BE	0x08

/* Jump operations (code & 0xf0). */
#define BPF_JA		0x00
#define BPF_JEQ		0x10
#define BPF_JGT		0x20
#define BPF_JGE		0x30
#define BPF_JSET	0x40
#define BPF_JNE		0x50
#define BPF_JSGT	0x60
#define BPF_JSGE	0x70
#define BPF_CALL	0x80
#define BPF_EXIT	0x90
#define BPF_JLT		0xa0
#define BPF_JLE		0xb0
#define BPF_JSLT	0xc0
#define BPF_JSLE	0xd0
#define BPF_JCOND	0xe0

/* Atomic operations (imm of BPF_STX | BPF_ATOMIC). */
#define BPF_FETCH	0x01
#define BPF_XCHG	(0xe0 | BPF_FETCH)
#define BPF_CMPXCHG	(0xf0 | BPF_FETCH)
#define BPF_LOAD_ACQ	0x100
#define BPF_STORE_REL	0x110

/* src_reg of LD_IMM64. */
#define BPF_PSEUDO_MAP_FD		1
#define BPF_PSEUDO_MAP_VALUE		2
#define BPF_PSEUDO_BTF_ID		3
#define BPF_PSEUDO_FUNC			4
#define BPF_PSEUDO_MAP_IDX		5
#define BPF_PSEUDO_MAP_IDX_VALUE	6

/* src_reg of BPF_CALL. */
#define BPF_PSEUDO_CALL		1
#define BPF_PSEUDO_KFUNC_CALL	2

/* src_reg of BPF_JCOND. */
#define BPF_MAY_GOTO		0

/* Registers. */
#define BPF_REG_0	0
#define BPF_REG_1	1
#define BPF_REG_2	2
#define BPF_REG_3	3
#define BPF_REG_4	4
#define BPF_REG_5	5
#define BPF_REG_6	6
#define BPF_REG_9	9
#define BPF_REG_FP	10
#define MAX_BPF_REG	11

/* Program load flags (prog_flags). */
#define BPF_F_STRICT_ALIGNMENT		(1U << 0)
#define BPF_F_ANY_ALIGNMENT		(1U << 1)
#define BPF_F_TEST_RND_HI32		(1U << 2)
#define BPF_F_TEST_STATE_FREQ		(1U << 3)
#define BPF_F_SLEEPABLE			(1U << 4)
#define BPF_F_XDP_HAS_FRAGS		(1U << 5)
#define BPF_F_XDP_DEV_BOUND_ONLY	(1U << 6)
#define BPF_F_TEST_REG_INVARIANTS	(1U << 7)

/* Map creation flags. */
#define BPF_F_NO_PREALLOC	(1U << 0)
#define BPF_F_NO_COMMON_LRU	(1U << 1)
#define BPF_F_NUMA_NODE		(1U << 2)
#define BPF_F_RDONLY		(1U << 3)
#define BPF_F_WRONLY		(1U << 4)
#define BPF_F_STACK_BUILD_ID	(1U << 5)
#define BPF_F_ZERO_SEED		(1U << 6)
#define BPF_F_RDONLY_PROG	(1U << 7)
#define BPF_F_WRONLY_PROG	(1U << 8)
#define BPF_F_CLONE		(1U << 9)
#define BPF_F_MMAPABLE		(1U << 10)
#define BPF_F_PRESERVE_ELEMS	(1U << 11)
#define BPF_F_INNER_MAP		(1U << 12)
#define BPF_F_LINK		(1U << 13)
#define BPF_F_PATH_FD		(1U << 14)
#define BPF_F_VTYPE_BTF_OBJ_FD	(1U << 15)
#define BPF_F_TOKEN_FD		(1U << 16)
#define BPF_F_SEGV_ON_FAULT	(1U << 17)
#define BPF_F_NO_USER_CONV	(1U << 18)

enum bpf_prog_type {
	BPF_PROG_TYPE_UNSPEC = 0,
	BPF_PROG_TYPE_SOCKET_FILTER = 1,
	BPF_PROG_TYPE_KPROBE = 2,
	BPF_PROG_TYPE_SCHED_CLS = 3,
	BPF_PROG_TYPE_SCHED_ACT = 4,
	BPF_PROG_TYPE_TRACEPOINT = 5,
	BPF_PROG_TYPE_XDP = 6,
	BPF_PROG_TYPE_PERF_EVENT = 7,
	BPF_PROG_TYPE_CGROUP_SKB = 8,
	BPF_PROG_TYPE_CGROUP_SOCK = 9,
	BPF_PROG_TYPE_LWT_IN = 10,
	BPF_PROG_TYPE_LWT_OUT = 11,
	BPF_PROG_TYPE_LWT_XMIT = 12,
	BPF_PROG_TYPE_SOCK_OPS = 13,
	BPF_PROG_TYPE_SK_SKB = 14,
	BPF_PROG_TYPE_CGROUP_DEVICE = 15,
	BPF_PROG_TYPE_SK_MSG = 16,
	BPF_PROG_TYPE_RAW_TRACEPOINT = 17,
	BPF_PROG_TYPE_CGROUP_SOCK_ADDR = 18,
	BPF_PROG_TYPE_LWT_SEG6LOCAL = 19,
	BPF_PROG_TYPE_LIRC_MODE2 = 20,
	BPF_PROG_TYPE_SK_REUSEPORT = 21,
	BPF_PROG_TYPE_FLOW_DISSECTOR = 22,
	BPF_PROG_TYPE_CGROUP_SYSCTL = 23,
	BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE = 24,
	BPF_PROG_TYPE_CGROUP_SOCKOPT = 25,
	BPF_PROG_TYPE_TRACING = 26,
	BPF_PROG_TYPE_STRUCT_OPS = 27,
	BPF_PROG_TYPE_EXT = 28,
	BPF_PROG_TYPE_LSM = 29,
	BPF_PROG_TYPE_SK_LOOKUP = 30,
	BPF_PROG_TYPE_SYSCALL = 31,
	BPF_PROG_TYPE_NETFILTER = 32,
	BPF_PROG_TYPE_MAX_ = 33,
};

enum bpf_map_type {
	BPF_MAP_TYPE_UNSPEC = 0,
	BPF_MAP_TYPE_HASH = 1,
	BPF_MAP_TYPE_ARRAY = 2,
	BPF_MAP_TYPE_PROG_ARRAY = 3,
	BPF_MAP_TYPE_PERF_EVENT_ARRAY = 4,
	BPF_MAP_TYPE_PERCPU_HASH = 5,
	BPF_MAP_TYPE_PERCPU_ARRAY = 6,
	BPF_MAP_TYPE_STACK_TRACE = 7,
	BPF_MAP_TYPE_CGROUP_ARRAY = 8,
	BPF_MAP_TYPE_LRU_HASH = 9,
	BPF_MAP_TYPE_LRU_PERCPU_HASH = 10,
	BPF_MAP_TYPE_LPM_TRIE = 11,
	BPF_MAP_TYPE_ARRAY_OF_MAPS = 12,
	BPF_MAP_TYPE_HASH_OF_MAPS = 13,
	BPF_MAP_TYPE_DEVMAP = 14,
	BPF_MAP_TYPE_SOCKMAP = 15,
	BPF_MAP_TYPE_CPUMAP = 16,
	BPF_MAP_TYPE_XSKMAP = 17,
	BPF_MAP_TYPE_SOCKHASH = 18,
	BPF_MAP_TYPE_CGROUP_STORAGE = 19,
	BPF_MAP_TYPE_REUSEPORT_SOCKARRAY = 20,
	BPF_MAP_TYPE_PERCPU_CGROUP_STORAGE = 21,
	BPF_MAP_TYPE_QUEUE = 22,
	BPF_MAP_TYPE_STACK = 23,
	BPF_MAP_TYPE_SK_STORAGE = 24,
	BPF_MAP_TYPE_DEVMAP_HASH = 25,
	BPF_MAP_TYPE_STRUCT_OPS = 26,
	BPF_MAP_TYPE_RINGBUF = 27,
	BPF_MAP_TYPE_INODE_STORAGE = 28,
	BPF_MAP_TYPE_TASK_STORAGE = 29,
	BPF_MAP_TYPE_BLOOM_FILTER = 30,
	BPF_MAP_TYPE_USER_RINGBUF = 31,
	BPF_MAP_TYPE_CGRP_STORAGE = 32,
	BPF_MAP_TYPE_ARENA = 33,
	BPF_MAP_TYPE_MAX_ = 34,
};

enum bpf_attach_type {
	BPF_CGROUP_INET_INGRESS = 0,
	BPF_CGROUP_INET_EGRESS = 1,
	BPF_CGROUP_INET_SOCK_CREATE = 2,
	BPF_CGROUP_SOCK_OPS = 3,
	BPF_SK_SKB_STREAM_PARSER = 4,
	BPF_SK_SKB_STREAM_VERDICT = 5,
	BPF_CGROUP_DEVICE = 6,
	BPF_SK_MSG_VERDICT = 7,
	BPF_CGROUP_INET4_BIND = 8,
	BPF_CGROUP_INET6_BIND = 9,
	BPF_CGROUP_INET4_CONNECT = 10,
	BPF_CGROUP_INET6_CONNECT = 11,
	BPF_CGROUP_INET4_POST_BIND = 12,
	BPF_CGROUP_INET6_POST_BIND = 13,
	BPF_CGROUP_UDP4_SENDMSG = 14,
	BPF_CGROUP_UDP6_SENDMSG = 15,
	BPF_LIRC_MODE2 = 16,
	BPF_FLOW_DISSECTOR = 17,
	BPF_CGROUP_SYSCTL = 18,
	BPF_CGROUP_UDP4_RECVMSG = 19,
	BPF_CGROUP_UDP6_RECVMSG = 20,
	BPF_CGROUP_GETSOCKOPT = 21,
	BPF_CGROUP_SETSOCKOPT = 22,
	BPF_TRACE_RAW_TP = 23,
	BPF_TRACE_FENTRY = 24,
	BPF_TRACE_FEXIT = 25,
	BPF_MODIFY_RETURN = 26,
	BPF_LSM_MAC = 27,
	BPF_TRACE_ITER = 28,
	BPF_CGROUP_INET4_GETPEERNAME = 29,
	BPF_CGROUP_INET6_GETPEERNAME = 30,
	BPF_CGROUP_INET4_GETSOCKNAME = 31,
	BPF_CGROUP_INET6_GETSOCKNAME = 32,
	BPF_XDP_DEVMAP = 33,
	BPF_CGROUP_INET_SOCK_RELEASE = 34,
	BPF_XDP_CPUMAP = 35,
	BPF_SK_LOOKUP = 36,
	BPF_XDP = 37,
	BPF_SK_SKB_VERDICT = 38,
	BPF_SK_REUSEPORT_SELECT = 39,
	BPF_SK_REUSEPORT_SELECT_OR_MIGRATE = 40,
	BPF_PERF_EVENT = 41,
	BPF_TRACE_KPROBE_MULTI = 42,
	BPF_LSM_CGROUP = 43,
	BPF_STRUCT_OPS = 44,
	BPF_NETFILTER = 45,
	BPF_TCX_INGRESS = 46,
	BPF_TCX_EGRESS = 47,
	BPF_TRACE_UPROBE_MULTI = 48,
	BPF_CGROUP_UNIX_CONNECT = 49,
	BPF_CGROUP_UNIX_SENDMSG = 50,
	BPF_CGROUP_UNIX_RECVMSG = 51,
	BPF_CGROUP_UNIX_GETPEERNAME = 52,
	BPF_CGROUP_UNIX_GETSOCKNAME = 53,
	BPF_NETKIT_PRIMARY = 54,
	BPF_NETKIT_PEER = 55,
	BPF_TRACE_KPROBE_SESSION = 56,
	BPF_TRACE_UPROBE_SESSION = 57,
	BPF_ATTACH_TYPE_MAX_ = 58,
};

/* Instruction field accessors, for readability at call sites. */
static inline uint8_t insn_class(const struct bpfvet_insn *insn)
{
	return BPF_CLASS(insn->code);
}

static inline int insn_is_ldimm64(const struct bpfvet_insn *insn)
{
	return insn->code == (BPF_LD | BPF_IMM | BPF_DW);
}

/* The kernel-internal ENOTSUPP, which leaks out of bpf(2). */
#define ENOTSUPP_KERNEL 524

#endif /* BPFVET_UAPI_H */
