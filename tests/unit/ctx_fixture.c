/* SPDX-License-Identifier: BSD-2-Clause */
/* Test support: ctx probe variants and fixture files. See ctx_fixture.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctx_fixture.h"
#include "rules/ctx_rules.h"

#define SLEEPABLE (1u << 4)	/* BPF_F_SLEEPABLE */

/*
 * Program type and attach type numbers are Linux 6.18 uapi values; every
 * attach type libbpf assigns to the program type is probed, plus 0 where
 * the kernel accepts it.
 */
const struct ctxfix_variant ctxfix_variants[] = {
	{ "socket_filter", 1, 0, 192 },
	{ "kprobe", 2, 0, 168 },
	{ "kprobe-kprobe_multi", 2, 42, 168 },
	{ "kprobe-uprobe_multi", 2, 48, 168 },
	{ "kprobe-kprobe_session", 2, 56, 168 },
	{ "kprobe-uprobe_session", 2, 57, 168 },
	{ "sched_cls", 3, 0, 192 },
	{ "sched_cls-tcx_ingress", 3, 46, 192 },
	{ "sched_cls-tcx_egress", 3, 47, 192 },
	{ "sched_cls-netkit_primary", 3, 54, 192 },
	{ "sched_cls-netkit_peer", 3, 55, 192 },
	{ "sched_act", 4, 0, 192 },
	/* The perf record limit (PERF_MAX_TRACE_SIZE): probe its ends. */
	{ "tracepoint", 5, 0, 8192, 0, 3,
	  { { -32768, -32760 }, { -8, 264 }, { 8136, 8200 } } },
	{ "xdp", 6, 0, 24 },
	{ "xdp-xdp", 6, 37, 24 },
	{ "xdp-devmap", 6, 33, 24 },
	{ "xdp-cpumap", 6, 35, 24 },
	{ "perf_event", 7, 0, 184 },
	{ "cgroup_skb-ingress", 8, 0, 192 },
	{ "cgroup_skb-egress", 8, 1, 192 },
	/* 0 is turned into sock_create by the kernel at load. */
	{ "cgroup_sock", 9, 0, 80 },
	{ "cgroup_sock-sock_create", 9, 2, 80 },
	{ "cgroup_sock-sock_release", 9, 34, 80 },
	{ "cgroup_sock-post_bind4", 9, 12, 80 },
	{ "cgroup_sock-post_bind6", 9, 13, 80 },
	{ "lwt_in", 10, 0, 192 },
	{ "lwt_out", 11, 0, 192 },
	{ "lwt_xmit", 12, 0, 192 },
	{ "sock_ops", 13, 0, 224 },
	{ "sock_ops-sock_ops", 13, 3, 224 },
	{ "sk_skb", 14, 0, 192 },
	{ "sk_skb-stream_parser", 14, 4, 192 },
	{ "sk_skb-stream_verdict", 14, 5, 192 },
	{ "sk_skb-verdict", 14, 38, 192 },
	{ "cgroup_device", 15, 6, 12 },
	{ "sk_msg", 16, 7, 80 },
	{ "raw_tracepoint", 17, 0, 96 },
	{ "cgroup_sock_addr-bind4", 18, 8, 72 },
	{ "cgroup_sock_addr-bind6", 18, 9, 72 },
	{ "cgroup_sock_addr-connect4", 18, 10, 72 },
	{ "cgroup_sock_addr-connect6", 18, 11, 72 },
	{ "cgroup_sock_addr-connect_unix", 18, 49, 72 },
	{ "cgroup_sock_addr-sendmsg4", 18, 14, 72 },
	{ "cgroup_sock_addr-sendmsg6", 18, 15, 72 },
	{ "cgroup_sock_addr-sendmsg_unix", 18, 50, 72 },
	{ "cgroup_sock_addr-recvmsg4", 18, 19, 72 },
	{ "cgroup_sock_addr-recvmsg6", 18, 20, 72 },
	{ "cgroup_sock_addr-recvmsg_unix", 18, 51, 72 },
	{ "cgroup_sock_addr-getpeername4", 18, 29, 72 },
	{ "cgroup_sock_addr-getpeername6", 18, 30, 72 },
	{ "cgroup_sock_addr-getpeername_unix", 18, 52, 72 },
	{ "cgroup_sock_addr-getsockname4", 18, 31, 72 },
	{ "cgroup_sock_addr-getsockname6", 18, 32, 72 },
	{ "cgroup_sock_addr-getsockname_unix", 18, 53, 72 },
	{ "lwt_seg6local", 19, 0, 192 },
	{ "lirc_mode2", 20, 16, 4 },
	/* 0 is turned into select by the kernel at load. */
	{ "sk_reuseport", 21, 0, 56 },
	{ "sk_reuseport-select", 21, 39, 56 },
	{ "sk_reuseport-select_or_migrate", 21, 40, 56 },
	{ "flow_dissector", 22, 17, 192 },
	{ "cgroup_sysctl", 23, 18, 8 },
	{ "raw_tracepoint_writable", 24, 0, 96 },
	{ "cgroup_sockopt-getsockopt", 25, 21, 40 },
	{ "cgroup_sockopt-setsockopt", 25, 22, 40 },
	{ "sk_lookup", 30, 36, 72 },
	/* The context is a 65535-byte user buffer, but an instruction
	 * offset is an s16: probe the start and the highest encodable
	 * offsets. */
	{ "syscall", 31, 0, 65535, SLEEPABLE, 3,
	  { { -32768, -32760 }, { -8, 256 }, { 32704, 32768 } } },
	{ "netfilter", 32, 45, 16 },
};
const size_t ctxfix_nvariants =
	sizeof(ctxfix_variants) / sizeof(ctxfix_variants[0]);

const struct ctxfix_lane ctxfix_lanes[CTXFIX_NLANES] = {
	{ CTXFIX_LDX, 1, "L1" },  { CTXFIX_LDX, 2, "L2" },
	{ CTXFIX_LDX, 4, "L4" },  { CTXFIX_LDX, 8, "L8" },
	{ CTXFIX_LDSX, 1, "S1" }, { CTXFIX_LDSX, 2, "S2" },
	{ CTXFIX_LDSX, 4, "S4" },
	{ CTXFIX_STX, 1, "X1" },  { CTXFIX_STX, 2, "X2" },
	{ CTXFIX_STX, 4, "X4" },  { CTXFIX_STX, 8, "X8" },
	{ CTXFIX_ST, 1, "I1" },   { CTXFIX_ST, 2, "I2" },
	{ CTXFIX_ST, 4, "I4" },   { CTXFIX_ST, 8, "I8" },
};

const struct ctxfix_type ctxfix_types[] = {
	{ 's', "scalar", CTX_SCALAR_VALUE, NULL },
	{ 'p', "pkt", CTX_PTR_TO_PACKET, NULL },
	{ 'm', "pkt_meta", CTX_PTR_TO_PACKET_META, NULL },
	{ 'e', "pkt_end", CTX_PTR_TO_PACKET_END, NULL },
	{ 'f', "flow_keys", CTX_PTR_TO_FLOW_KEYS, NULL },
	{ 'k', "sock", CTX_PTR_TO_SOCKET, NULL },
	{ 'K', "sock_or_null", CTX_PTR_TO_SOCKET | CTX_PTR_MAYBE_NULL, NULL },
	{ 'c', "sock_common", CTX_PTR_TO_SOCK_COMMON, NULL },
	{ 'C', "sock_common_or_null",
	  CTX_PTR_TO_SOCK_COMMON | CTX_PTR_MAYBE_NULL, NULL },
	{ 't', "tp_buffer", CTX_PTR_TO_TP_BUFFER, NULL },
	{ 'n', "trusted_ptr_nf_hook_state",
	  CTX_PTR_TO_BTF_ID | CTX_PTR_TRUSTED, "nf_hook_state" },
	{ 'b', "trusted_ptr_sk_buff", CTX_PTR_TO_BTF_ID | CTX_PTR_TRUSTED,
	  "sk_buff" },
};
const size_t ctxfix_ntypes = sizeof(ctxfix_types) / sizeof(ctxfix_types[0]);

#define NDEFAULT_RANGES 3

static int nranges(const struct ctxfix_variant *v)
{
	return v->nranges ? v->nranges : NDEFAULT_RANGES;
}

static struct ctxfix_range range_at(const struct ctxfix_variant *v, int i)
{
	const struct ctxfix_range def[NDEFAULT_RANGES] = {
		{ -32768, -32760 }, { -8, v->size + 8 }, { 32760, 32768 },
	};

	return v->nranges ? v->ranges[i] : def[i];
}

int ctxfix_noffs(const struct ctxfix_variant *v)
{
	int n = 0;

	for (int i = 0; i < nranges(v); i++) {
		struct ctxfix_range r = range_at(v, i);

		n += r.to - r.from;
	}
	return n;
}

int ctxfix_off_at(const struct ctxfix_variant *v, int i)
{
	for (int k = 0; k < nranges(v); k++) {
		struct ctxfix_range r = range_at(v, k);

		if (i < r.to - r.from)
			return r.from + i;
		i -= r.to - r.from;
	}
	return 0;
}

int ctxfix_grid_init(struct ctxfix_grid *g, const struct ctxfix_variant *v)
{
	memset(g, 0, sizeof(*g));
	g->v = v;
	g->noffs = ctxfix_noffs(v);
	g->cells = malloc((size_t)g->noffs * CTXFIX_NLANES);
	if (!g->cells)
		return -ENOMEM;
	memset(g->cells, '?', (size_t)g->noffs * CTXFIX_NLANES);
	return 0;
}

void ctxfix_grid_free(struct ctxfix_grid *g)
{
	free(g->cells);
	g->cells = NULL;
}

char ctxfix_grid_msg(struct ctxfix_grid *g, const char *text)
{
	for (int i = 0; i < g->nmsgs; i++)
		if (strcmp(g->msgs[i], text) == 0)
			return (char)('0' + i);
	if (g->nmsgs == CTXFIX_MAX_MSGS)
		return '?';
	snprintf(g->msgs[g->nmsgs], CTXFIX_MSG_LEN, "%s", text);
	return (char)('0' + g->nmsgs++);
}

static int lane_index(const char *name)
{
	for (int i = 0; i < CTXFIX_NLANES; i++)
		if (strcmp(ctxfix_lanes[i].name, name) == 0)
			return i;
	return -1;
}

/* Offset index of `off`, or -1 when the variant does not probe it. */
static int off_index(const struct ctxfix_variant *v, int off)
{
	int base = 0;

	for (int k = 0; k < nranges(v); k++) {
		struct ctxfix_range r = range_at(v, k);

		if (off >= r.from && off < r.to)
			return base + off - r.from;
		base += r.to - r.from;
	}
	return -1;
}

static int parse_cells(struct ctxfix_grid *g, const char *line, char *err,
		       size_t errsz)
{
	char lane[8];
	int off, n = 0, li, idx;
	const char *cells;

	if (sscanf(line, "%7s %d %n", lane, &off, &n) != 2 || !n) {
		snprintf(err, errsz, "bad line: %s", line);
		return -EINVAL;
	}
	li = lane_index(lane);
	if (li < 0) {
		snprintf(err, errsz, "unknown lane %s", lane);
		return -EINVAL;
	}
	cells = line + n;
	for (size_t i = 0; cells[i] && cells[i] != '\n'; i++) {
		idx = off_index(g->v, off + (int)i);
		if (idx < 0) {
			snprintf(err, errsz, "offset %d not probed",
				 off + (int)i);
			return -EINVAL;
		}
		g->cells[li * g->noffs + idx] = cells[i];
	}
	return 0;
}

static int parse_line(struct ctxfix_grid *g, const char *line, char *err,
		      size_t errsz)
{
	char word[64];
	unsigned long num;
	int digit, n = 0;

	if (line[0] == '#' || line[0] == '\n' || line[0] == 0)
		return 0;
	if (sscanf(line, "variant %63s", word) == 1) {
		if (strcmp(word, g->v->name) != 0) {
			snprintf(err, errsz, "variant %s, want %s", word,
				 g->v->name);
			return -EINVAL;
		}
		return 0;
	}
	if (sscanf(line, "prog_type %lu", &num) == 1)
		return num == g->v->prog_type ? 0 : -EINVAL;
	if (sscanf(line, "attach %lu", &num) == 1)
		return num == g->v->attach ? 0 : -EINVAL;
	if (sscanf(line, "size %lu", &num) == 1)
		return num == (unsigned long)g->v->size ? 0 : -EINVAL;
	if (strncmp(line, "status verified", 15) == 0)
		return 0;
	if (sscanf(line, "status refused errno=%d", &g->refused_errno) == 1) {
		g->refused = true;
		return 0;
	}
	if (sscanf(line, "msg %d %n", &digit, &n) == 1 && n) {
		if (digit != g->nmsgs || digit >= CTXFIX_MAX_MSGS)
			return -EINVAL;
		snprintf(g->msgs[g->nmsgs++], CTXFIX_MSG_LEN, "%.*s",
			 (int)strcspn(line + n, "\n"), line + n);
		return 0;
	}
	return parse_cells(g, line, err, errsz);
}

int ctxfix_read(const char *path, struct ctxfix_grid *g, char *err,
		size_t errsz)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int lineno = 0, rc = 0;

	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -errno;
	}
	err[0] = 0;
	while (!rc && fgets(line, sizeof(line), f)) {
		lineno++;
		rc = parse_line(g, line, err, errsz);
	}
	fclose(f);
	if (rc && !err[0])
		snprintf(err, errsz, "%s:%d: unexpected value", path, lineno);
	return rc;
}

static void write_header(FILE *f, const struct ctxfix_grid *g,
			 const char *kernel)
{
	fprintf(f, "# Verdicts of Linux %s for loads and stores through the\n"
		   "# unmodified ctx pointer (format: tests/unit/ctx_fixture.h).\n"
		   "# Regenerate: CTX_FIXTURE_WRITE=1 build/san/tests/test_ctx_kernel\n",
		kernel);
	fprintf(f, "# Lanes: L=ldx S=ldsx X=stx I=st(imm), then the size.\n"
		   "# '.' invalid bpf_context access, 'w' store accepted,\n"
		   "# loads:");
	for (size_t i = 0; i < ctxfix_ntypes; i++)
		fprintf(f, " %c=%s", ctxfix_types[i].letter,
			ctxfix_types[i].log_name);
	fprintf(f, "\nvariant %s\nprog_type %u\nattach %u\nsize %d\n",
		g->v->name, g->v->prog_type, g->v->attach, g->v->size);
}

/* One lane, in chunks that never span two ranges. */
static void write_lane(FILE *f, const struct ctxfix_grid *g, int li)
{
	const char *cells = g->cells + li * g->noffs;
	int base = 0;

	for (int k = 0; k < nranges(g->v); k++) {
		struct ctxfix_range r = range_at(g->v, k);
		int len = r.to - r.from;

		for (int i = 0; i < len; i += CTXFIX_CHUNK) {
			int n = len - i < CTXFIX_CHUNK ? len - i : CTXFIX_CHUNK;

			fprintf(f, "%s %d %.*s\n", ctxfix_lanes[li].name,
				r.from + i, n, cells + base + i);
		}
		base += len;
	}
}

int ctxfix_write(const char *path, const struct ctxfix_grid *g,
		 const char *kernel)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	write_header(f, g, kernel);
	if (g->refused) {
		fprintf(f, "status refused errno=%d\n", g->refused_errno);
		return fclose(f) ? -errno : 0;
	}
	fprintf(f, "status verified\n");
	for (int i = 0; i < g->nmsgs; i++)
		fprintf(f, "msg %d %s\n", i, g->msgs[i]);
	for (int li = 0; li < CTXFIX_NLANES; li++)
		write_lane(f, g, li);
	return fclose(f) ? -errno : 0;
}

static char letter_of(const struct ctx_access *acc)
{
	for (size_t i = 0; i < ctxfix_ntypes; i++) {
		const struct ctxfix_type *t = &ctxfix_types[i];

		if (t->reg_type != acc->reg_type)
			continue;
		if (!t->btf_struct ||
		    (acc->btf_struct && !strcmp(acc->btf_struct, t->btf_struct)))
			return t->letter;
	}
	return '?';
}

char ctxfix_predict(const struct ctxfix_variant *v,
		    const struct ctxfix_lane *lane, int off)
{
	struct ctx_query q = {
		.prog_type = v->prog_type,
		.attach_type = v->attach,
		.bpf_capable = true,
		.perfmon_capable = true,
		.off = off,
		.size = lane->size,
		.write = lane->kind == CTXFIX_STX || lane->kind == CTXFIX_ST,
		.is_ldsx = lane->kind == CTXFIX_LDSX,
	};
	struct ctx_access acc = { .is_ldsx = q.is_ldsx };

	if (!ctx_access_check(&q, &acc))
		return '.';
	return q.write ? 'w' : letter_of(&acc);
}

char ctxfix_letter_of_log_name(const char *name, size_t len)
{
	for (size_t i = 0; i < ctxfix_ntypes; i++) {
		const char *n = ctxfix_types[i].log_name;

		if (strlen(n) == len && !strncmp(n, name, len))
			return ctxfix_types[i].letter;
	}
	return 0;
}
