/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The remaining fixed-layout contexts: struct xdp_md (xdp), the lirc
 * sample (lirc_mode2), the syscall program's user buffer and struct
 * bpf_nf_ctx (netfilter).
 */
#include <stddef.h>

#include "ctx_table.h"
#include "base/uapi.h"

#define NROWS(a) (sizeof(a) / sizeof((a)[0]))
#define RO(s, e, rd) { (s), (e), rd, R_DENY, 0, NULL }
#define XDP_PKT(s, type) \
	{ (s), (s) + 4, R_RULE(CTX_EXACT, 4, CTX_F_NO_SX, 0), R_DENY, \
	  (type), NULL }

/* ---- xdp: struct xdp_md (24 bytes), every field a whole u32 ---- */

/* Stores are refused: the kernel lets only device-offloaded programs
 * write rx_queue_index, and offload is outside bpfvet's model. */
static const struct ctx_row xdp_rows[] = {
	XDP_PKT(0, CTX_PTR_TO_PACKET),			/* data */
	XDP_PKT(4, CTX_PTR_TO_PACKET_END),		/* data_end */
	XDP_PKT(8, CTX_PTR_TO_PACKET_META),		/* data_meta */
	RO(12, 20, R_EXACT(4)),		/* ingress_ifindex, rx_queue_index */
	/* egress_ifindex: only programs run from a devmap know it */
	RO(20, 24, R_RULE(CTX_EXACT, 4, 0, CTX_AT(BPF_XDP_DEVMAP))),
};

/* ---- lirc_mode2: one u32 sample ---- */

static const struct ctx_row lirc_rows[] = {
	RO(0, 4, R_EXACT(4)),
};

/* ---- syscall: a user buffer, read and written freely ---- */

static const struct ctx_row syscall_rows[] = {
	{ 0, 65535, R_ANY, R_ANY, 0, NULL },
};

/* ---- netfilter: struct bpf_nf_ctx (16 bytes) ---- */

#define NF_PTR(s, name) \
	{ (s), (s) + 8, R_EXACT(8), R_DENY, \
	  CTX_PTR_TO_BTF_ID | CTX_PTR_TRUSTED, (name) }

static const struct ctx_row nf_rows[] = {
	NF_PTR(0, "nf_hook_state"),			/* state */
	NF_PTR(8, "sk_buff"),				/* skb */
};

#define LAYOUT(rows, size) { rows, NROWS(rows), 0, (size) }

static const struct ctx_layout xdp_layout = LAYOUT(xdp_rows, 24);
static const struct ctx_layout lirc_layout = LAYOUT(lirc_rows, 4);
/* U16_MAX, exclusive */
static const struct ctx_layout syscall_layout = LAYOUT(syscall_rows, 65535);
static const struct ctx_layout nf_layout = LAYOUT(nf_rows, 16);

bool ctx_misc_check(const struct ctx_query *q, struct ctx_access *out)
{
	switch (q->prog_type) {
	case BPF_PROG_TYPE_XDP:
		return ctx_layout_check(&xdp_layout, q, out);
	case BPF_PROG_TYPE_LIRC_MODE2:
		return ctx_layout_check(&lirc_layout, q, out);
	case BPF_PROG_TYPE_SYSCALL:
		return ctx_layout_check(&syscall_layout, q, out);
	case BPF_PROG_TYPE_NETFILTER:
		return ctx_layout_check(&nf_layout, q, out);
	default:
		return false;
	}
}
