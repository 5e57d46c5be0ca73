/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cgroup hooks with small contexts of their own: struct bpf_cgroup_dev_ctx
 * (cgroup_device), bpf_sysctl (cgroup_sysctl) and bpf_sockopt
 * (cgroup_sockopt, get and set flavours).
 */
#include <stddef.h>

#include "ctx_table.h"
#include "base/uapi.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define RO(s, e, rd) { (s), (e), rd, R_DENY, 0, NULL }

/* ---- cgroup_device: struct bpf_cgroup_dev_ctx (12 bytes) ---- */

static const struct ctx_row dev_rows[] = {
	RO(0, 4, R_NARROW(4)),		/* access_type: type and access bits */
	RO(4, 12, R_EXACT(4)),		/* major, minor */
};

/* ---- cgroup_sysctl: struct bpf_sysctl (8 bytes) ---- */

static const struct ctx_row sysctl_rows[] = {
	RO(0, 4, R_NARROW(4)),				/* write */
	{ 4, 8, R_NARROW(4), R_EXACT(4), 0, NULL },	/* file_pos */
};

/* ---- cgroup_sockopt: struct bpf_sockopt (40 bytes) ---- */

#define GET CTX_AT(BPF_CGROUP_GETSOCKOPT)
#define SET CTX_AT(BPF_CGROUP_SETSOCKOPT)

static const struct ctx_row sockopt_rows[] = {
	{ 0, 8, R_EXACT(8), R_DENY, CTX_PTR_TO_SOCKET, NULL },	/* sk */
	/* optval..optval_end is a packet-like buffer */
	{ 8, 16, R_EXACT(8), R_DENY, CTX_PTR_TO_PACKET, NULL },
	{ 16, 24, R_EXACT(8), R_DENY, CTX_PTR_TO_PACKET_END, NULL },
	/* level, optname: setsockopt may rewrite the request */
	{ 24, 32, R_EXACT(4), R_RULE(CTX_EXACT, 4, 0, SET), 0, NULL },
	{ 32, 36, R_EXACT(4), R_EXACT(4), 0, NULL },	/* optlen */
	/* retval: only getsockopt has one */
	{ 36, 40, R_RULE(CTX_EXACT, 4, 0, GET), R_RULE(CTX_EXACT, 4, 0, GET),
	  0, NULL },
};

#define LAYOUT(rows, size) { rows, NROWS(rows), 0, (size) }

static const struct ctx_layout dev_layout = LAYOUT(dev_rows, 12);
static const struct ctx_layout sysctl_layout = LAYOUT(sysctl_rows, 8);
static const struct ctx_layout sockopt_layout = LAYOUT(sockopt_rows, 40);

bool ctx_cgroup_check(const struct ctx_query *q, struct ctx_access *out)
{
	switch (q->prog_type) {
	case BPF_PROG_TYPE_CGROUP_DEVICE:
		return ctx_layout_check(&dev_layout, q, out);
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
		return ctx_layout_check(&sysctl_layout, q, out);
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return ctx_layout_check(&sockopt_layout, q, out);
	default:
		return false;
	}
}
