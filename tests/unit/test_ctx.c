/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * ctx access rules: every verdict recorded from Linux 6.18 in
 * tests/fixtures/ctx/ must equal ctx_access_check()'s (no kernel needed),
 * plus the parts the fixtures cannot show: capability switches, the
 * out-fields, and types without a fixed-layout context.
 */
#include <stdlib.h>
#include <string.h>

#include "ctx_fixture.h"
#include "rules/ctx_rules.h"
#include "test.h"

#define MAX_REPORTS 8

/* prog types and attach types used below (Linux 6.18 uapi values) */
enum {
	T_SOCKET_FILTER = 1, T_SCHED_CLS = 3, T_XDP = 6, T_CGROUP_SKB = 8,
	T_CGROUP_SOCK = 9, T_SOCK_OPS = 13, T_SK_LOOKUP = 30, T_TRACING = 26,
	T_STRUCT_OPS = 27, T_EXT = 28, T_LSM = 29, T_NETFILTER = 32,
	T_FLOW_DISSECTOR = 22, T_RAW_TP_W = 24, T_CGROUP_SOCK_ADDR = 18,
};
enum { A_SOCK_CREATE = 2, A_POST_BIND4 = 12, A_CONNECT6 = 11 };

static void compare_variant(struct test_ctx *t, const struct ctxfix_variant *v,
			    int *cells, int *accepted)
{
	struct ctxfix_grid g;
	char path[256], err[256];
	int reports = 0;

	if (ctxfix_grid_init(&g, v)) {
		CHECK_MSG(t, 0, "out of memory");
		return;
	}
	snprintf(path, sizeof(path), "%s/%s.txt", CTXFIX_DIR, v->name);
	if (ctxfix_read(path, &g, err, sizeof(err))) {
		CHECK_MSG(t, 0, "%s", err);
		ctxfix_grid_free(&g);
		return;
	}
	/* Every rejection in 6.18 is "invalid bpf_context access". */
	CHECK_MSG(t, g.nmsgs == 0, "%s: unexpected message %s", v->name,
		  g.msgs[0]);
	for (int li = 0; !g.refused && li < CTXFIX_NLANES; li++) {
		for (int i = 0; i < g.noffs; i++) {
			int off = ctxfix_off_at(v, i);
			char k = g.cells[li * g.noffs + i];
			char p = ctxfix_predict(v, &ctxfix_lanes[li], off);

			(*cells)++;
			*accepted += k != '.';
			if (k == p)
				continue;
			if (reports++ < MAX_REPORTS)
				printf("  %s %s off=%d: kernel '%c', rules '%c'\n",
				       v->name, ctxfix_lanes[li].name, off, k, p);
		}
	}
	CHECK_MSG(t, reports == 0, "%s: %d verdicts differ from the kernel",
		  v->name, reports);
	CHECK_INT(t, ctx_type_size(v->prog_type, v->attach), v->size);
	ctxfix_grid_free(&g);
}

static void fixtures_agree(struct test_ctx *t)
{
	int cells = 0, accepted = 0, refused = 0;

	for (size_t i = 0; i < ctxfix_nvariants; i++) {
		int before = cells;

		compare_variant(t, &ctxfix_variants[i], &cells, &accepted);
		refused += cells == before;
	}
	printf("  %zu variants (%d refused by the kernel), %d verdicts, "
	       "%d accepted\n", ctxfix_nvariants, refused, cells, accepted);
	CHECK(t, cells > 100000);
}

static bool check(uint32_t type, uint32_t attach, int off, int size,
		  bool write, struct ctx_access *out)
{
	struct ctx_query q = {
		.prog_type = type, .attach_type = attach,
		.bpf_capable = true, .perfmon_capable = true,
		.off = off, .size = size, .write = write,
	};

	memset(out, 0x5a, sizeof(*out));
	return ctx_access_check(&q, out);
}

static bool check_caps(uint32_t type, int off, int size, bool write,
		       bool bpf_capable)
{
	struct ctx_query q = {
		.prog_type = type, .bpf_capable = bpf_capable,
		.off = off, .size = size, .write = write,
	};
	struct ctx_access out;

	return ctx_access_check(&q, &out);
}

static void out_fields(struct test_ctx *t)
{
	struct ctx_access a;

	CHECK(t, check(T_SCHED_CLS, 0, 76, 4, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_PACKET);
	CHECK(t, a.btf_struct == NULL);
	CHECK(t, !a.is_retval);
	CHECK(t, check(T_SCHED_CLS, 0, 140, 4, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_PACKET_META);
	CHECK(t, check(T_SCHED_CLS, 0, 168, 8, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_SOCK_COMMON | CTX_PTR_MAYBE_NULL);
	/* a store reports a scalar, whatever the field */
	CHECK(t, check(T_SCHED_CLS, 0, 48, 4, true, &a));
	CHECK_INT(t, a.reg_type, CTX_SCALAR_VALUE);
	CHECK(t, check(T_FLOW_DISSECTOR, 17, 144, 8, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_FLOW_KEYS);
	CHECK(t, check(T_RAW_TP_W, 0, 0, 8, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_TP_BUFFER);
	CHECK(t, check(T_SK_LOOKUP, 36, 0, 8, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_SOCKET | CTX_PTR_MAYBE_NULL);
	CHECK(t, check(T_NETFILTER, 45, 8, 8, false, &a));
	CHECK_INT(t, a.reg_type, CTX_PTR_TO_BTF_ID | CTX_PTR_TRUSTED);
	CHECK_STR(t, a.btf_struct, "sk_buff");
	CHECK(t, check(T_NETFILTER, 45, 0, 8, false, &a));
	CHECK_STR(t, a.btf_struct, "nf_hook_state");
	/* a refusal clears the out-fields */
	CHECK(t, !check(T_XDP, 0, 20, 4, false, &a));
	CHECK_INT(t, a.reg_type, 0);
	CHECK(t, a.btf_struct == NULL);
}

/* cgroup_skb packet pointers and tstamp stores need CAP_BPF; nothing
 * else in the fixed-layout contexts depends on capabilities. */
static void capabilities(struct test_ctx *t)
{
	CHECK(t, check_caps(T_CGROUP_SKB, 76, 4, false, true));
	CHECK(t, !check_caps(T_CGROUP_SKB, 76, 4, false, false));
	CHECK(t, !check_caps(T_CGROUP_SKB, 80, 4, false, false));
	CHECK(t, check_caps(T_CGROUP_SKB, 152, 8, true, true));
	CHECK(t, !check_caps(T_CGROUP_SKB, 152, 8, true, false));
	CHECK(t, check_caps(T_CGROUP_SKB, 152, 8, false, false));
	CHECK(t, check_caps(T_CGROUP_SKB, 8, 4, true, false));
	CHECK(t, check_caps(T_SOCKET_FILTER, 48, 4, true, false));
	CHECK(t, check_caps(T_SCHED_CLS, 76, 4, false, false));
}

static void attach_types(struct test_ctx *t)
{
	struct ctx_access a;

	/* cgroup_sock without attach type is a sock_create program */
	CHECK(t, check(T_CGROUP_SOCK, 0, 16, 4, true, &a));
	CHECK(t, check(T_CGROUP_SOCK, A_SOCK_CREATE, 16, 4, true, &a));
	CHECK(t, !check(T_CGROUP_SOCK, A_POST_BIND4, 16, 4, true, &a));
	/* 8-byte accesses inside user_ip6 for ip6 hooks only */
	CHECK(t, check(T_CGROUP_SOCK_ADDR, A_CONNECT6, 16, 8, true, &a));
	CHECK(t, !check(T_CGROUP_SOCK_ADDR, A_CONNECT6, 24, 8, true, &a));
	CHECK(t, !check(T_CGROUP_SOCK_ADDR, 10, 16, 8, true, &a));
	/* an attach type beyond the 64 the tables can name */
	CHECK(t, !check(T_CGROUP_SOCK_ADDR, 200, 4, 4, false, &a));
	CHECK(t, check(T_CGROUP_SOCK_ADDR, 200, 24, 4, false, &a));
}

static void out_of_scope(struct test_ctx *t)
{
	struct ctx_access a;
	const uint32_t btf_types[] = { T_TRACING, T_STRUCT_OPS, T_EXT, T_LSM };

	for (size_t i = 0; i < sizeof(btf_types) / sizeof(btf_types[0]); i++) {
		CHECK(t, !check(btf_types[i], 24, 0, 8, false, &a));
		CHECK_INT(t, ctx_type_size(btf_types[i], 24), 0);
	}
	CHECK(t, !check(0, 0, 0, 4, false, &a));
	CHECK(t, !check(1000, 0, 0, 4, false, &a));
	CHECK_INT(t, ctx_type_size(1000, 0), 0);
	/* sizes the instruction set cannot encode */
	CHECK(t, !check(T_SCHED_CLS, 0, 48, 3, false, &a));
	CHECK(t, !check(T_SCHED_CLS, 0, 48, 0, false, &a));
	CHECK(t, !check(T_SCHED_CLS, 0, 48, -4, false, &a));
	CHECK(t, !check(T_SCHED_CLS, 0, 0, 16, false, &a));
	CHECK(t, !check(T_SOCK_OPS, 0, 1 << 30, 4, false, &a));
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, fixtures_agree);
	RUN(&t, out_fields);
	RUN(&t, capabilities);
	RUN(&t, attach_types);
	RUN(&t, out_of_scope);
	return test_finish(&t);
}
