/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Socket-level contexts: struct bpf_sock (cgroup_sock), bpf_sock_addr
 * (cgroup_sock_addr), bpf_sock_ops, sk_msg_md, sk_reuseport_md and
 * bpf_sk_lookup. Offsets are the uapi layouts of Linux 6.18.
 */
#include <stddef.h>

#include "ctx_table.h"
#include "base/uapi.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define RO(s, e, rd) { (s), (e), rd, R_DENY, 0, NULL }
#define PTR(s, type) { (s), (s) + 8, R_EXACT(8), R_DENY, (type), NULL }

/* ---- struct bpf_sock (80 bytes) ---- */

/*
 * The fields of struct bpf_sock as the kernel's bpf_sock_is_valid_access()
 * sees them, whoever holds the pointer: a cgroup_sock program's context or
 * a socket pointer of another program (sock_access.c). The rules do not
 * look at the direction; each user restricts that on its own.
 */
#define FIELD(s, e, r) { (s), (e), r, r, 0, NULL }
/* Scalar fields read 1, 2 or 4 bytes from their first byte; addresses
 * may be read in parts. */
#define HEAD(s) FIELD((s), (s) + 4, R_RULE(CTX_NARROW, 4, CTX_F_HEAD, 0))

static const struct ctx_row bpf_sock_rows[] = {
	FIELD(0, 4, R_EXACT(4)),		/* bound_dev_if */
	HEAD(4),				/* family */
	HEAD(8),				/* type */
	HEAD(12),				/* protocol */
	FIELD(16, 24, R_EXACT(4)),		/* mark, priority */
	FIELD(24, 44, R_NARROW(4)),		/* src_ip4, src_ip6 */
	HEAD(44),				/* src_port */
	/* dst_port is a __be16 in a 4-byte slot: 1, 2 or 4 bytes. */
	FIELD(48, 50, R_RULE(CTX_NARROW, 2, CTX_F_U32, 0)),
	/* 50..51: padding */
	FIELD(52, 72, R_NARROW(4)),		/* dst_ip4, dst_ip6 */
	HEAD(72),				/* state */
	HEAD(76),				/* rx_queue_mapping */
};

/* ---- cgroup_sock: struct bpf_sock (80 bytes) ---- */

/*
 * What a cgroup_sock program may do with the fields above, by attach
 * type: set socket options while the socket is created or released, read
 * the bound address after bind, and read everything else.
 */
#define SOCK_SETUP (CTX_AT(BPF_CGROUP_INET_SOCK_CREATE) | \
		    CTX_AT(BPF_CGROUP_INET_SOCK_RELEASE))
#define SOCK_BOUND4 CTX_AT(BPF_CGROUP_INET4_POST_BIND)
#define SOCK_BOUND6 CTX_AT(BPF_CGROUP_INET6_POST_BIND)
#define AT_RW(s, e, at) { (s), (e), R_RULE(CTX_ANY, 0, 0, (at)), \
			  R_RULE(CTX_ANY, 0, 0, (at)), 0, NULL }
#define AT_RO(s, e, at) { (s), (e), R_RULE(CTX_ANY, 0, 0, (at)), R_DENY, 0, NULL }

static const struct ctx_row sock_attach_rows[] = {
	AT_RW(0, 4, SOCK_SETUP),		/* bound_dev_if */
	AT_RO(4, 16, 0),			/* family, type, protocol */
	AT_RW(16, 24, SOCK_SETUP),		/* mark, priority */
	AT_RO(24, 28, SOCK_BOUND4),		/* src_ip4 */
	AT_RO(28, 44, SOCK_BOUND6),		/* src_ip6 */
	AT_RO(44, 48, SOCK_BOUND4 | SOCK_BOUND6),	/* src_port */
	AT_RO(48, 80, 0),			/* dst_*, state, ... */
};

/* ---- cgroup_sock_addr: struct bpf_sock_addr (72 bytes) ---- */

#define ADDR_IP4 (CTX_AT(BPF_CGROUP_INET4_BIND) | \
		  CTX_AT(BPF_CGROUP_INET4_CONNECT) | \
		  CTX_AT(BPF_CGROUP_INET4_GETPEERNAME) | \
		  CTX_AT(BPF_CGROUP_INET4_GETSOCKNAME) | \
		  CTX_AT(BPF_CGROUP_UDP4_SENDMSG) | \
		  CTX_AT(BPF_CGROUP_UDP4_RECVMSG))
#define ADDR_IP6 (CTX_AT(BPF_CGROUP_INET6_BIND) | \
		  CTX_AT(BPF_CGROUP_INET6_CONNECT) | \
		  CTX_AT(BPF_CGROUP_INET6_GETPEERNAME) | \
		  CTX_AT(BPF_CGROUP_INET6_GETSOCKNAME) | \
		  CTX_AT(BPF_CGROUP_UDP6_SENDMSG) | \
		  CTX_AT(BPF_CGROUP_UDP6_RECVMSG))
/* A rewritable address: narrow reads, 4-byte writes, and 8 bytes at
 * once inside the ip6 arrays; only for the attach types in `at`. */
#define ADDR_RW(s, e, f, at) { (s), (e), R_RULE(CTX_NARROW, 4, (f), (at)), \
			       R_RULE(CTX_EXACT, 4, (f), (at)), 0, NULL }

static const struct ctx_row sock_addr_rows[] = {
	RO(0, 4, R_EXACT(4)),				/* user_family */
	ADDR_RW(4, 8, 0, ADDR_IP4),			/* user_ip4 */
	ADDR_RW(8, 24, CTX_F_WIDE, ADDR_IP6),		/* user_ip6 */
	ADDR_RW(24, 28, 0, 0),				/* user_port */
	RO(28, 40, R_EXACT(4)),			/* family, type, protocol */
	ADDR_RW(40, 44, 0, CTX_AT(BPF_CGROUP_UDP4_SENDMSG)), /* msg_src_ip4 */
	ADDR_RW(44, 60, CTX_F_WIDE, CTX_AT(BPF_CGROUP_UDP6_SENDMSG)),
	/* 60..63: padding */
	PTR(64, CTX_PTR_TO_SOCKET),			/* sk */
};

/* ---- sock_ops: struct bpf_sock_ops (224 bytes) ---- */

static const struct ctx_row sock_ops_rows[] = {
	RO(0, 4, R_EXACT(4)),				/* op */
	/* reply (= args[0]): the program's answer */
	{ 4, 8, R_EXACT(4), R_EXACT(4), 0, NULL },
	RO(8, 164, R_EXACT(4)),		/* args[1..3] .. sacked_out */
	{ 164, 168, R_EXACT(4), R_EXACT(4), 0, NULL },	/* sk_txhash */
	RO(168, 184, R_EXACT(8)),		/* bytes_received, _acked */
	PTR(184, CTX_PTR_TO_SOCKET | CTX_PTR_MAYBE_NULL),	/* sk */
	PTR(192, CTX_PTR_TO_PACKET),			/* skb_data */
	PTR(200, CTX_PTR_TO_PACKET_END),		/* skb_data_end */
	RO(208, 212, R_EXACT(4)),			/* skb_len */
	RO(212, 216, R_RULE(CTX_NARROW, 4, CTX_F_HEAD, 0)), /* skb_tcp_flags */
	RO(216, 224, R_EXACT(8)),			/* skb_hwtstamp */
};

/* ---- sk_msg: struct sk_msg_md (80 bytes) ---- */

static const struct ctx_row sk_msg_rows[] = {
	PTR(0, CTX_PTR_TO_PACKET),			/* data */
	PTR(8, CTX_PTR_TO_PACKET_END),			/* data_end */
	RO(16, 72, R_EXACT(4)),		/* family .. local_port, size */
	PTR(72, CTX_PTR_TO_SOCKET),			/* sk */
};

/* ---- sk_reuseport: struct sk_reuseport_md (56 bytes) ---- */

static const struct ctx_row sk_reuseport_rows[] = {
	PTR(0, CTX_PTR_TO_PACKET),			/* data */
	PTR(8, CTX_PTR_TO_PACKET_END),			/* data_end */
	RO(16, 20, R_NARROW(4)),			/* len */
	/* eth_protocol mirrors the 2-byte skb->protocol */
	RO(20, 24, R_RULE(CTX_NARROW, 4, CTX_F_MIN2, 0)),
	RO(24, 32, R_NARROW(4)),		/* ip_protocol, bind_inany */
	RO(32, 36, R_EXACT(4)),				/* hash */
	/* 36..39: padding */
	PTR(40, CTX_PTR_TO_SOCKET),			/* sk */
	PTR(48, CTX_PTR_TO_SOCK_COMMON | CTX_PTR_MAYBE_NULL), /* migrating_sk */
};

/* ---- sk_lookup: struct bpf_sk_lookup (72 bytes) ---- */

static const struct ctx_row sk_lookup_rows[] = {
	PTR(0, CTX_PTR_TO_SOCKET | CTX_PTR_MAYBE_NULL),	/* sk */
	RO(8, 36, R_NARROW(4)),	/* family, protocol, remote_ip4, _ip6 */
	/* remote_port is a __be16; 4-byte loads are kept for old programs */
	RO(36, 38, R_RULE(CTX_NARROW, 2, CTX_F_U32, 0)),
	/* ... and so are loads of the zero padding after it */
	RO(38, 40, R_NARROW(2)),
	RO(40, 68, R_NARROW(4)),	/* local_ip4, _ip6, _port, ifindex */
	/* 68..71: padding */
};

#define LAYOUT(rows, size) { rows, NROWS(rows), 0, (size) }

static const struct ctx_layout bpf_sock_layout = LAYOUT(bpf_sock_rows, 80);
static const struct ctx_layout sock_attach_layout = LAYOUT(sock_attach_rows, 80);
static const struct ctx_layout sock_addr_layout = LAYOUT(sock_addr_rows, 72);
static const struct ctx_layout sock_ops_layout = LAYOUT(sock_ops_rows, 224);
static const struct ctx_layout sk_msg_layout = LAYOUT(sk_msg_rows, 80);
static const struct ctx_layout sk_reuseport_layout =
	LAYOUT(sk_reuseport_rows, 56);
static const struct ctx_layout sk_lookup_layout = LAYOUT(sk_lookup_rows, 72);

bool ctx_sock_check(const struct ctx_query *q, struct ctx_access *out)
{
	struct ctx_query fixed;

	switch (q->prog_type) {
	case BPF_PROG_TYPE_CGROUP_SOCK:
		/* The kernel loads cgroup_sock programs without an expected
		 * attach type as sock_create ones (old binaries). */
		fixed = *q;
		if (!fixed.attach_type)
			fixed.attach_type = BPF_CGROUP_INET_SOCK_CREATE;
		return ctx_layout_check(&bpf_sock_layout, &fixed, out) &&
		       ctx_layout_check(&sock_attach_layout, &fixed, out);
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		return ctx_layout_check(&sock_addr_layout, q, out);
	case BPF_PROG_TYPE_SOCK_OPS:
		return ctx_layout_check(&sock_ops_layout, q, out);
	case BPF_PROG_TYPE_SK_MSG:
		return ctx_layout_check(&sk_msg_layout, q, out);
	case BPF_PROG_TYPE_SK_REUSEPORT:
		return ctx_layout_check(&sk_reuseport_layout, q, out);
	case BPF_PROG_TYPE_SK_LOOKUP:
		return ctx_layout_check(&sk_lookup_layout, q, out);
	default:
		return false;
	}
}

bool ctx_bpf_sock_check(const struct ctx_query *q, struct ctx_access *out)
{
	return ctx_layout_check(&bpf_sock_layout, q, out);
}
