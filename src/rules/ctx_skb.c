/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * struct __sk_buff (192 bytes), shared by socket filters, tc, cgroup skb,
 * lwt, sk_skb and flow dissector programs.
 *
 * The kernel checks such an access twice: a per-type hook decides which
 * fields the type may read or write at all, then one common function
 * decides sizes by the field's shape. Both are conjunctions, so each row
 * here carries the shape (rd/wr rules) and a policy letter per family:
 *   '-' no access          'r' read only        'w' read and write
 *   'R' read needs CAP_BPF, no write           'W' read; write needs CAP_BPF
 */
#include <stddef.h>

#include "ctx_table.h"
#include "base/uapi.h"

enum skb_family {
	SKB_FILTER,	/* socket filter */
	SKB_TC,		/* sched_cls, sched_act */
	SKB_CGROUP,	/* cgroup_skb */
	SKB_LWT,	/* lwt_in, lwt_out, lwt_xmit, lwt_seg6local */
	SKB_SK_SKB,	/* sk_skb */
	SKB_FLOW,	/* flow dissector */
	SKB_NFAMILIES,
};

struct skb_row {
	struct ctx_row shape;
	char policy[SKB_NFAMILIES + 1];	/* in enum skb_family order */
};

#define SKB_SIZE 192

/* Most fields are u32: narrow reads, whole-field writes. */
#define U32(s, e, pol) \
	{ { (s), (e), R_NARROW(4), R_EXACT(4), 0, NULL }, pol }
/* u32 fields that refuse narrow reads (addresses). */
#define ADDR(s, e, pol) \
	{ { (s), (e), R_EXACT(4), R_EXACT(4), 0, NULL }, pol }
/* The packet pointers, stored as u32 in the uapi struct. */
#define PKT(s, type, pol) \
	{ { (s), (s) + 4, R_RULE(CTX_EXACT, 4, CTX_F_NO_SX, 0), R_EXACT(4), \
	    (type), NULL }, pol }

/*                                                           policy:
 *                                                           F T C L K D */
static const struct skb_row skb_rows[] = {
	U32(0, 4, /* len */				"rrrrr-"),
	U32(4, 8, /* pkt_type */			"rrrrr-"),
	U32(8, 12, /* mark */				"rwww--"),
	U32(12, 16, /* queue_mapping */			"rwrrr-"),
	U32(16, 20, /* protocol */			"rrrrr-"),
	U32(20, 24, /* vlan_present */			"rrrrr-"),
	U32(24, 28, /* vlan_tci */			"rrrrr-"),
	U32(28, 32, /* vlan_proto */			"rrrrr-"),
	U32(32, 36, /* priority */			"rwwww-"),
	U32(36, 40, /* ingress_ifindex */		"rrrrr-"),
	U32(40, 44, /* ifindex */			"rrrrr-"),
	U32(44, 48, /* tc_index */			"rwrrw-"),
	/* cb[5]: any size, as long as it stays inside the array. */
	{ { 48, 68, R_SPAN, R_SPAN, 0, NULL },		"wwwwr-" },
	U32(68, 72, /* hash */				"rrrrr-"),
	U32(72, 76, /* tc_classid */			"-w----"),
	PKT(76, CTX_PTR_TO_PACKET, /* data */		"-rRrrr"),
	PKT(80, CTX_PTR_TO_PACKET_END, /* data_end */	"-rRrrr"),
	U32(84, 88, /* napi_id */			"rrrrr-"),
	/* family, remote_ip4, local_ip4, remote_ip6[4], local_ip6[4],
	 * remote_port, local_port: the socket's view. */
	U32(88, 92, /* family */			"--r-r-"),
	ADDR(92, 132, /* remote/local ip4 and ip6 */	"--r-r-"),
	U32(132, 140, /* remote_port, local_port */	"--r-r-"),
	PKT(140, CTX_PTR_TO_PACKET_META, /* data_meta */ "-r----"),
	/* flow_keys: only the flow dissector sees it, as a pointer. */
	{ { 144, 152, R_EXACT(8), R_DENY, CTX_PTR_TO_FLOW_KEYS, NULL },
							"-----r" },
	/* tstamp */
	{ { 152, 160, R_EXACT(8), R_EXACT(8), 0, NULL }, "-wW---" },
	U32(160, 164, /* wire_len */			"-r----"),
	U32(164, 168, /* gso_segs */			"rrrrr-"),
	/* sk: a read-only pointer to the socket, maybe NULL. */
	{ { 168, 176, R_EXACT(8), R_DENY,
	    CTX_PTR_TO_SOCK_COMMON | CTX_PTR_MAYBE_NULL, NULL }, "rrrrr-" },
	U32(176, 180, /* gso_size */			"rrrrr-"),
	/* tstamp_type: one byte, tc only; 181..183 is padding. */
	{ { 180, 181, R_EXACT(1), R_DENY, 0, NULL },	"-r----" },
	/* hwtstamp */
	{ { 184, 192, R_EXACT(8), R_DENY, 0, NULL },	"-rr---" },
};

static int family_of(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
		return SKB_FILTER;
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
		return SKB_TC;
	case BPF_PROG_TYPE_CGROUP_SKB:
		return SKB_CGROUP;
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
		return SKB_LWT;
	case BPF_PROG_TYPE_SK_SKB:
		return SKB_SK_SKB;
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return SKB_FLOW;
	default:
		return -1;
	}
}

/* The row as one family sees it: the shape narrowed by the policy. */
static struct ctx_row apply_policy(const struct skb_row *r, char policy)
{
	struct ctx_row row = r->shape;
	const struct ctx_rule deny = R_DENY;

	switch (policy) {
	case 'w':
		break;
	case 'W':
		row.wr.flags |= CTX_F_CAP_BPF;
		break;
	case 'R':
		row.rd.flags |= CTX_F_CAP_BPF;
		row.wr = deny;
		break;
	case 'r':
		row.wr = deny;
		break;
	default:
		row.rd = deny;
		row.wr = deny;
		break;
	}
	return row;
}

bool ctx_skb_check(const struct ctx_query *q, struct ctx_access *out)
{
	int fam = family_of(q->prog_type);
	struct ctx_row row;

	if (fam < 0 || !ctx_window_ok(0, SKB_SIZE, q))
		return false;
	for (size_t i = 0; i < sizeof(skb_rows) / sizeof(skb_rows[0]); i++) {
		const struct skb_row *r = &skb_rows[i];

		if (q->off < r->shape.start || q->off >= r->shape.end)
			continue;
		row = apply_policy(r, r->policy[fam]);
		return ctx_row_check(&row, q, out);
	}
	return false;
}
