/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Loads through socket pointers: struct bpf_sock_common views (the
 * socket a packet belongs to), full sockets (struct bpf_sock), TCP
 * sockets (struct bpf_tcp_sock) and AF_XDP sockets (struct bpf_xdp_sock).
 * The field rules are tables in the ctx_table.h format; bpf_sock's is the
 * one cgroup_sock contexts use too (ctx_sock.c). Stores never reach here:
 * check_mem_access() refuses them first.
 */
#include <errno.h>

#include "rules/rules.h"
#include "verifier.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define RD(s, e, r) { (s), (e), r, R_DENY, 0, NULL }

/*
 * struct bpf_tcp_sock (112 bytes): u32 counters, then two u64 byte counts
 * at 80 and 88, then u32 again. The kernel keys the 8-byte rule on the
 * two fields' first bytes only: their upper halves read as u32 fields.
 */
static const struct ctx_row tcp_sock_rows[] = {
	RD(0, 80, R_EXACT(4)),		/* snd_cwnd .. sacked_out */
	RD(80, 84, R_EXACT(8)),		/* bytes_received */
	RD(84, 88, R_EXACT(4)),
	RD(88, 92, R_EXACT(8)),		/* bytes_acked */
	RD(92, 96, R_EXACT(4)),
	RD(96, 112, R_EXACT(4)),	/* dsack_dups .. icsk_retransmits */
};

/* struct bpf_xdp_sock: queue_id. */
static const struct ctx_row xdp_sock_rows[] = {
	RD(0, 4, R_EXACT(4)),
};

static const struct ctx_layout tcp_sock_layout = { tcp_sock_rows, NROWS(tcp_sock_rows), 0, 112 };
static const struct ctx_layout xdp_sock_layout = { xdp_sock_rows, NROWS(xdp_sock_rows), 0, 4 };

/* A sock_common pointer may be a request or time-wait socket: the fields
 * of struct bpf_sock from type to priority are not there. */
static bool sock_common_ok(const struct ctx_query *q, struct ctx_access *out)
{
	if (q->off >= 8 && q->off < 24)
		return false;
	return ctx_bpf_sock_check(q, out);
}

static bool sock_field_ok(uint32_t type, int off, int size)
{
	struct ctx_query q = { .off = off, .size = size };
	struct ctx_access out;

	switch (type) {
	case PTR_TO_SOCK_COMMON:
		return sock_common_ok(&q, &out);
	case PTR_TO_SOCKET:
		return ctx_bpf_sock_check(&q, &out);
	case PTR_TO_TCP_SOCK:
		return ctx_layout_check(&tcp_sock_layout, &q, &out);
	case PTR_TO_XDP_SOCK:
		return ctx_layout_check(&xdp_sock_layout, &q, &out);
	default:
		return false;
	}
}

int check_sock_access(struct vet_env *env, uint32_t insn_idx, uint32_t regno, int off,
		      int size)
{
	const struct reg_state *reg = &cur_regs(env)[regno];
	char tb[64];

	(void)insn_idx;
	if (reg->b.smin < 0) {
		verbose(env, "R%u min value is negative, either use unsigned index or do a if (index >=0) check.\n",
			regno);
		return -EACCES;
	}
	if (sock_field_ok(reg->type, off, size))
		return 0;
	verbose(env, "R%u invalid %s access off=%d size=%d\n", regno,
		reg_type_str(tb, sizeof(tb), reg->type), off, size);
	return -EACCES;
}

/* Does struct bpf_tcp_sock have a field starting at `off`? */
static bool tcp_sock_field_start(int off)
{
	return off != 84 && off != 92;
}

/*
 * After a successful walk the kernel rewrites each load through a socket
 * pointer into loads from the kernel's own structures, one field at a
 * time. The access rules above let 4-byte loads reach the upper halves
 * of bpf_tcp_sock's two u64 counters, but no field starts there: the
 * rewrite finds nothing to emit and the program is refused after all.
 */
int sock_check_conversions(struct vet_env *env)
{
	for (uint32_t i = 0; i < env->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &env->insns[i];

		if (BPF_CLASS(insn->code) != BPF_LDX ||
		    env->aux[i].ptr_type != PTR_TO_TCP_SOCK)
			continue;
		if (tcp_sock_field_start(insn->off))
			continue;
		verbose(env, "verifier bug: error during ctx access conversion (0)\n");
		return -EFAULT;
	}
	return 0;
}
