// SPDX-License-Identifier: BSD-2-Clause
/* struct_ops programs of the two struct_ops types every recorded kernel
 * has: the context typed by the member's prototype (tcp_congestion_ops
 * promotes struct sock to tcp_sock; bpf_dummy_ops' test_1 takes a
 * __nullable state since 6.10), the writes each type allows to kernel
 * structs, the helpers each offers, and void members that leave R0 unset.
 * The verdicts are the running 6.18 kernel's (tests/cli/struct_ops.sh).
 *
 * Struct layouts are the kernel's, found by CO-RE from these names; the
 * struct_ops variables only name the members the programs implement. */
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#define __naked __attribute__((naked))

struct sock {
	unsigned long sk_pacing_rate;
	unsigned int sk_rcvbuf;
} __attribute__((preserve_access_index));

struct tcp_sock {
	unsigned int snd_cwnd;
	unsigned int snd_ssthresh;
	unsigned int mss_cache;
	unsigned char ecn_flags;
} __attribute__((preserve_access_index));

struct bpf_dummy_ops_state {
	int val;
} __attribute__((preserve_access_index));

/* --- tcp_congestion_ops ---------------------------------------------- */

/* The struct sock argument is a tcp_sock: snd_cwnd may be written. */
SEC("struct_ops")
__u32 BPF_PROG(ca_write_cwnd, struct sock *sk)
{
	struct tcp_sock *tp = (void *)sk;

	tp->snd_cwnd = 10;
	tp->ecn_flags = 1;
	return tp->snd_ssthresh;
}

/* mss_cache is not among the writable fields. */
SEC("struct_ops")
__u32 BPF_PROG(ca_write_mss, struct sock *sk)
{
	struct tcp_sock *tp = (void *)sk;

	tp->mss_cache = 1000;
	return 2;
}

/* A writable field, but wider than it. */
SEC("struct_ops")
__u32 BPF_PROG(ca_write_wide, struct sock *sk)
{
	struct tcp_sock *tp = (void *)sk;
	__u64 off = __builtin_preserve_field_info(tp->snd_ssthresh, 0 /* byte offset */);

	/* One 8-byte store, which C would split at a 4-byte field. */
	asm volatile ("%[p] += %[off];"
		      "r2 = 1;"
		      "*(u64 *)(%[p] + 0) = r2;"
		      : [p] "+r"(tp) : [off] "r"(off) : "r2", "memory");
	return 2;
}

/* A void member returns nothing: R0 need not be set. */
SEC("struct_ops")
__naked void ca_void_exit(void)
{
	asm volatile ("exit;" ::: "memory");
}

/* A member returning u32 must set R0. */
SEC("struct_ops")
__naked void ca_u32_unset(void)
{
	asm volatile ("exit;" ::: "memory");
}

/* The helpers of tcp_congestion_ops: the base set and its own. */
SEC("struct_ops")
__u32 BPF_PROG(ca_helper_ok, struct sock *sk)
{
	return bpf_ktime_get_coarse_ns() + bpf_get_prandom_u32();
}

/* Not offered to tcp_congestion_ops. */
SEC("struct_ops")
__u32 BPF_PROG(ca_helper_no, struct sock *sk)
{
	return bpf_override_return((void *)ctx, 0);
}

/* undo_cwnd has one argument: the second slot does not exist. */
SEC("struct_ops")
__naked void ca_ctx_past_args(void)
{
	asm volatile ("r0 = *(u64 *)(r1 + 8);"
		      "exit;" ::: "memory");
}

struct tcp_congestion_ops {
	__u32 (*ssthresh)(struct sock *sk);
	void (*cwnd_event)(struct sock *sk, int ev);
	__u32 (*undo_cwnd)(struct sock *sk);
	__u32 (*sndbuf_expand)(struct sock *sk);
	__u32 (*min_tso_segs)(struct sock *sk);
	char name[16];
} __attribute__((preserve_access_index));

SEC(".struct_ops")
struct tcp_congestion_ops bpfvet_ca1 = {
	.ssthresh = (void *)ca_write_cwnd,
	.cwnd_event = (void *)ca_void_exit,
	.undo_cwnd = (void *)ca_ctx_past_args,
	.sndbuf_expand = (void *)ca_helper_ok,
	.min_tso_segs = (void *)ca_helper_no,
	.name = "bpfvet_ca1",
};

SEC(".struct_ops")
struct tcp_congestion_ops bpfvet_ca2 = {
	.ssthresh = (void *)ca_write_mss,
	.undo_cwnd = (void *)ca_write_wide,
	.sndbuf_expand = (void *)ca_u32_unset,
	.name = "bpfvet_ca2",
};

/* --- bpf_dummy_ops --------------------------------------------------- */

/* test_1's state may be NULL (its stub says __nullable). */
SEC("struct_ops")
int BPF_PROG(dummy_no_null_check, struct bpf_dummy_ops_state *state)
{
	return state->val;
}

SEC("struct_ops")
int BPF_PROG(dummy_write_state, struct bpf_dummy_ops_state *state, int a1)
{
	state->val = a1;
	return 0;
}

/* Past the end of bpf_dummy_ops_state. */
SEC("struct_ops")
__naked void dummy_write_beyond(void)
{
	asm volatile ("r1 = *(u64 *)(r1 + 0);"
		      "*(u32 *)(r1 + 4) = 1;"
		      "r0 = 0;"
		      "exit;" ::: "memory");
}

/* bpf_dummy_ops offers no helper at all. */
SEC("struct_ops")
int BPF_PROG(dummy_helper, struct bpf_dummy_ops_state *state)
{
	return bpf_get_prandom_u32();
}

struct bpf_dummy_ops {
	int (*test_1)(struct bpf_dummy_ops_state *cb);
	int (*test_2)(struct bpf_dummy_ops_state *cb, int a1, unsigned short a2,
		      char a3, unsigned long a4);
} __attribute__((preserve_access_index));

SEC(".struct_ops")
struct bpf_dummy_ops bpfvet_dummy1 = {
	.test_1 = (void *)dummy_no_null_check,
	.test_2 = (void *)dummy_write_state,
};

SEC(".struct_ops")
struct bpf_dummy_ops bpfvet_dummy2 = {
	.test_1 = (void *)dummy_helper,
	.test_2 = (void *)dummy_write_beyond,
};

char LICENSE[] SEC("license") = "GPL";
