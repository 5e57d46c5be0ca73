/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Entry points of the ctx access rules: dispatch by program type to the
 * family files (ctx_skb.c, ctx_sock.c, ctx_cgroup.c, ctx_trace.c,
 * ctx_misc.c) and the row evaluator they share.
 */
#include "ctx_table.h"
#include "base/uapi.h"

bool ctx_window_ok(int lo, int hi, const struct ctx_query *q)
{
	/* The kernel tests `off % size` on signed ints: negative offsets
	 * pass it, so the window must exclude them. */
	return q->size > 0 && q->off >= lo && q->off < hi &&
	       q->off % q->size == 0;
}

static bool attach_allowed(uint64_t set, uint32_t attach)
{
	return !set || (attach < 64 && (set & CTX_AT(attach)));
}

static bool rule_ok(const struct ctx_rule *r, const struct ctx_row *row,
		    const struct ctx_query *q)
{
	int size = q->size;
	bool ok;

	switch (r->kind) {
	case CTX_ANY:
		ok = true;
		break;
	case CTX_EXACT:
		ok = size == r->width;
		break;
	case CTX_NARROW:
		/* Sizes are powers of two and the offset a multiple of the
		 * size, so the part read lies inside one aligned field. */
		ok = size <= r->width;
		break;
	case CTX_SPAN:
		ok = q->off + size <= row->end;
		break;
	default:
		return false;
	}
	if (r->flags & CTX_F_WIDE)
		ok = ok || (size == 8 && q->off + 8 <= row->end);
	if (r->flags & CTX_F_U32)
		ok = ok || size == 4;
	if (r->flags & CTX_F_MIN2)
		ok = ok && size >= 2;
	if ((r->flags & CTX_F_NO_SX) && q->is_ldsx)
		ok = false;
	if ((r->flags & CTX_F_CAP_BPF) && !q->bpf_capable)
		ok = false;
	if ((r->flags & CTX_F_HEAD) && q->off != row->start)
		ok = false;
	return ok && attach_allowed(r->attach, q->attach_type);
}

bool ctx_row_check(const struct ctx_row *row, const struct ctx_query *q,
		   struct ctx_access *out)
{
	if (!rule_ok(q->write ? &row->wr : &row->rd, row, q))
		return false;
	out->reg_type = CTX_SCALAR_VALUE;
	out->btf_struct = NULL;
	if (!q->write && row->reg_type) {
		out->reg_type = row->reg_type;
		out->btf_struct = row->btf_struct;
	}
	return true;
}

const struct ctx_row *ctx_layout_row(const struct ctx_layout *l, int off)
{
	for (size_t i = 0; i < l->nrows; i++)
		if (off >= l->rows[i].start && off < l->rows[i].end)
			return &l->rows[i];
	return NULL;
}

bool ctx_layout_check(const struct ctx_layout *l, const struct ctx_query *q,
		      struct ctx_access *out)
{
	const struct ctx_row *row;

	if (!ctx_window_ok(l->lo, l->hi, q))
		return false;
	row = ctx_layout_row(l, q->off);
	return row && ctx_row_check(row, q, out);
}

bool ctx_is_sk_buff(uint32_t prog_type)
{
	switch (prog_type) {
	case BPF_PROG_TYPE_SOCKET_FILTER:
	case BPF_PROG_TYPE_SCHED_CLS:
	case BPF_PROG_TYPE_SCHED_ACT:
	case BPF_PROG_TYPE_CGROUP_SKB:
	case BPF_PROG_TYPE_LWT_IN:
	case BPF_PROG_TYPE_LWT_OUT:
	case BPF_PROG_TYPE_LWT_XMIT:
	case BPF_PROG_TYPE_LWT_SEG6LOCAL:
	case BPF_PROG_TYPE_SK_SKB:
	case BPF_PROG_TYPE_FLOW_DISSECTOR:
		return true;
	default:
		return false;
	}
}

bool ctx_access_check(const struct ctx_query *q, struct ctx_access *out)
{
	out->reg_type = 0;
	out->btf_struct = NULL;
	out->is_retval = false;

	/* The verifier only asks for encodable sizes; refuse the rest
	 * rather than let a rule accept, say, 3 bytes. */
	if (q->size != 1 && q->size != 2 && q->size != 4 && q->size != 8)
		return false;

	if (ctx_is_sk_buff(q->prog_type))
		return ctx_skb_check(q, out);
	switch (q->prog_type) {
	case BPF_PROG_TYPE_CGROUP_SOCK:
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
	case BPF_PROG_TYPE_SOCK_OPS:
	case BPF_PROG_TYPE_SK_MSG:
	case BPF_PROG_TYPE_SK_REUSEPORT:
	case BPF_PROG_TYPE_SK_LOOKUP:
		return ctx_sock_check(q, out);
	case BPF_PROG_TYPE_CGROUP_DEVICE:
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return ctx_cgroup_check(q, out);
	case BPF_PROG_TYPE_KPROBE:
	case BPF_PROG_TYPE_TRACEPOINT:
	case BPF_PROG_TYPE_PERF_EVENT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
		return ctx_trace_check(q, out);
	case BPF_PROG_TYPE_XDP:
	case BPF_PROG_TYPE_LIRC_MODE2:
	case BPF_PROG_TYPE_SYSCALL:
	case BPF_PROG_TYPE_NETFILTER:
		return ctx_misc_check(q, out);
	default:
		/* TRACING, LSM, STRUCT_OPS and EXT type their context from
		 * the attach target's BTF (btf_ctx_access): not modelled
		 * here. */
		return false;
	}
}

int ctx_type_size(uint32_t prog_type, uint32_t attach_type)
{
	(void)attach_type;
	if (ctx_is_sk_buff(prog_type))
		return 192;	/* struct __sk_buff */
	switch (prog_type) {
	case BPF_PROG_TYPE_KPROBE:
		return 168;	/* struct pt_regs (x86-64) */
	case BPF_PROG_TYPE_TRACEPOINT:
		return 8192;	/* PERF_MAX_TRACE_SIZE of 6.18 */
	case BPF_PROG_TYPE_XDP:
		return 24;	/* struct xdp_md */
	case BPF_PROG_TYPE_PERF_EVENT:
		return 184;	/* struct bpf_perf_event_data */
	case BPF_PROG_TYPE_CGROUP_SOCK:
		return 80;	/* struct bpf_sock */
	case BPF_PROG_TYPE_SOCK_OPS:
		return 224;	/* struct bpf_sock_ops */
	case BPF_PROG_TYPE_CGROUP_DEVICE:
		return 12;	/* struct bpf_cgroup_dev_ctx */
	case BPF_PROG_TYPE_SK_MSG:
		return 80;	/* struct sk_msg_md */
	case BPF_PROG_TYPE_RAW_TRACEPOINT:
	case BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE:
		return 96;	/* u64 args[MAX_BPF_FUNC_ARGS] */
	case BPF_PROG_TYPE_CGROUP_SOCK_ADDR:
		return 72;	/* struct bpf_sock_addr */
	case BPF_PROG_TYPE_LIRC_MODE2:
		return 4;	/* one u32 sample */
	case BPF_PROG_TYPE_SK_REUSEPORT:
		return 56;	/* struct sk_reuseport_md */
	case BPF_PROG_TYPE_CGROUP_SYSCTL:
		return 8;	/* struct bpf_sysctl */
	case BPF_PROG_TYPE_CGROUP_SOCKOPT:
		return 40;	/* struct bpf_sockopt */
	case BPF_PROG_TYPE_SK_LOOKUP:
		return 72;	/* struct bpf_sk_lookup */
	case BPF_PROG_TYPE_SYSCALL:
		return 65535;	/* U16_MAX: the user buffer limit */
	case BPF_PROG_TYPE_NETFILTER:
		return 16;	/* struct bpf_nf_ctx */
	default:
		return 0;
	}
}
