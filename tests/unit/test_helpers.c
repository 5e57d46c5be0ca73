/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The helper tables against the kernel's answers recorded in
 * tests/fixtures/helpers (written by test_helpers_kernel --update on Linux
 * 6.18), plus the per-id verifier facts. Needs no kernel.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_fixture.h"
#include "rules/data/helper_protos.h"
#include "test.h"

static FILE *open_fixture(struct test_ctx *t, const char *file)
{
	const char *dir = getenv("BPFVET_HELPER_FIXTURES");
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s",
		 dir ? dir : "tests/fixtures/helpers", file);
	f = fopen(path, "r");
	CHECK_MSG(t, f != NULL, "cannot open %s", path);
	return f;
}

static void test_names(struct test_ctx *t)
{
	FILE *f = open_fixture(t, "names.txt");
	char line[256], name[128];
	int id, n = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (line[0] == '#' || sscanf(line, "%d %127s", &id, name) != 2)
			continue;
		n++;
		if (id < HELPER_ID_MAX)
			CHECK_STR(t, helper_name(id), name);
		else	/* the kernel's name for ids past the table */
			CHECK(t, !helper_name(id) && !strcmp(name, "unknown"));
	}
	fclose(f);
	CHECK_INT(t, n, HFX_IDS);
}

/* All configurations of avail.txt, for the other fixtures to refer to. */
struct configs {
	struct hfx_config c[160];
	bool ids[160][HFX_IDS];
	int n;
};

static void read_configs(struct test_ctx *t, struct configs *cs)
{
	FILE *f = open_fixture(t, "avail.txt");
	char line[4096];

	cs->n = 0;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && cs->n < 160) {
		if (line[0] == '#')
			continue;
		CHECK_MSG(t, !hfx_parse_config(line, &cs->c[cs->n],
					       cs->ids[cs->n]),
			  "bad avail.txt line: %s", line);
		cs->n++;
	}
	fclose(f);
}

static void test_availability(struct test_ctx *t)
{
	struct configs *cs = calloc(1, sizeof(*cs));
	int agree = 0, total = 0;

	CHECK(t, cs != NULL);
	if (!cs)
		return;
	read_configs(t, cs);
	CHECK(t, cs->n > 60);
	for (int i = 0; i < cs->n; i++) {
		struct helper_query q;

		hfx_query(&cs->c[i], &q);
		for (int id = 0; id < HFX_IDS; id++) {
			bool ours = helper_proto_query(&q, id) != NULL;

			total++;
			agree += ours == cs->ids[i][id];
			CHECK_MSG(t, ours == cs->ids[i][id],
				  "%s (%s) helper %d: kernel %d, table %d",
				  cs->c[i].name,
				  cs->c[i].perfmon ? "full" : "noperfmon", id,
				  cs->ids[i][id], ours);
		}
	}
	printf("# availability: %d/%d (config, helper) pairs agree\n",
	       agree, total);
	free(cs);
}

static const struct hfx_config *find_config(const struct configs *cs,
					    const char *name)
{
	for (int i = 0; i < cs->n; i++)
		if (cs->c[i].perfmon && !strcmp(cs->c[i].name, name))
			return &cs->c[i];
	return NULL;
}

static void test_gpl_only(struct test_ctx *t)
{
	struct configs *cs = calloc(1, sizeof(*cs));
	FILE *f = open_fixture(t, "gpl.txt");
	bool gpl[HFX_IDS];
	char line[4096], name[64];
	int agree = 0, total = 0;

	if (!cs || !f)
		goto out;
	read_configs(t, cs);
	while (fgets(line, sizeof(line), f)) {
		const struct hfx_config *c;
		const char *colon = strchr(line, ':');
		struct helper_query q;

		if (line[0] == '#' || !colon)
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(colon - line), line);
		c = find_config(cs, name);
		CHECK_MSG(t, c != NULL, "gpl.txt: unknown config %s", name);
		if (!c || hfx_parse_ids(colon + 1, gpl))
			continue;
		hfx_query(c, &q);
		for (int id = 0; id < HELPER_ID_MAX; id++) {
			const struct helper_proto *p = helper_proto_query(&q, id);

			if (!p)
				continue;
			total++;
			agree += p->gpl_only == gpl[id];
			CHECK_MSG(t, p->gpl_only == gpl[id], "%s %s: kernel "
				  "gpl_only=%d", name, p->variant, gpl[id]);
		}
	}
	printf("# gpl_only: %d/%d pairs agree\n", agree, total);
	CHECK(t, total > 1000);
out:
	if (f)
		fclose(f);
	free(cs);
}

static const struct helper_proto *find_variant(const char *v)
{
	for (size_t i = 0; i < HP__COUNT; i++)
		if (!strcmp(helper_protos[i].variant, v))
			return &helper_protos[i];
	return NULL;
}

/* "get_stackid_tp tracepoint 2: a | b | c | d" against hfx_predict. */
static void check_args_line(struct test_ctx *t, char *line, int *agree,
			    int *total)
{
	char variant[64], config[64], want[256];
	char *rest = strchr(line, ':'), *tok, *save = NULL;
	const struct helper_proto *p;
	int argno, pr = 0;

	if (!rest || sscanf(line, "%63s %63s %d", variant, config, &argno) != 3)
		return;
	p = find_variant(variant);
	CHECK_MSG(t, p != NULL, "args.txt: unknown variant %s", variant);
	if (!p || argno < 1 || argno > 5)
		return;
	rest[strcspn(rest, "\n")] = '\0';
	for (tok = strtok_r(rest + 1, "|", &save); tok && pr < HFX_PROBES;
	     tok = strtok_r(NULL, "|", &save), pr++) {
		size_t len;

		while (*tok == ' ')
			tok++;
		len = strlen(tok);
		while (len && tok[len - 1] == ' ')
			tok[--len] = '\0';
		hfx_predict(p, argno - 1, pr, want, sizeof(want));
		(*total)++;
		*agree += !strcmp(hfx_abbrev(want), tok);
		CHECK_MSG(t, !strcmp(hfx_abbrev(want), tok),
			  "%s R%d = %s: kernel \"%s\", table \"%s\"", variant,
			  argno, hfx_probe_names[pr], tok, hfx_abbrev(want));
	}
	CHECK_INT(t, pr, HFX_PROBES);
}

static void test_argument_types(struct test_ctx *t)
{
	FILE *f = open_fixture(t, "args.txt");
	char line[1024];
	int agree = 0, total = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (line[0] != '#')
			check_args_line(t, line, &agree, &total);
	fclose(f);
	printf("# arguments: %d/%d probes agree\n", agree, total);
	CHECK(t, total > 2000);
}

static void test_lookups(struct test_ctx *t)
{
	const struct helper_proto *p = helper_proto_by_id(HELPER_MAP_LOOKUP_ELEM);

	CHECK(t, p && p->id == 1);
	CHECK_STR(t, p ? p->name : NULL, "bpf_map_lookup_elem");
	CHECK_INT(t, p ? p->ret_type : 0, RET_PTR_TO_MAP_VALUE | PTR_MAYBE_NULL);
	CHECK(t, helper_proto_by_id(0) == NULL);
	CHECK(t, helper_proto_by_id(HELPER_ID_MAX) == NULL);
	CHECK_STR(t, helper_name(0), "bpf_unspec");
	CHECK_STR(t, helper_name(211), "bpf_cgrp_storage_delete");
	/* Every id 1..211 has a prototype. */
	for (uint32_t id = 1; id < HELPER_ID_MAX; id++)
		CHECK_MSG(t, helper_proto_by_id(id), "no proto for %u", id);
	p = helper_proto_by_id(FN_get_stackid);
	CHECK_STR(t, p ? p->variant : NULL, "get_stackid");
	p = helper_proto_by_id(FN_kptr_xchg);
	CHECK(t, p && p->acquire && !p->arg_btf[1] &&
	      p->arg_type[1] == (ARG_PTR_TO_BTF_ID | PTR_MAYBE_NULL | OBJ_RELEASE));
	p = helper_proto_by_id(FN_probe_read_kernel_str);
	CHECK(t, p && p->ret_may_be_negative_size && p->gpl_only);
	p = helper_proto_by_id(FN_get_smp_processor_id);
	CHECK(t, p && p->ret_cpu_id);
	p = helper_proto_by_id(FN_tcp_raw_gen_syncookie_ipv4);
	CHECK(t, p && p->arg_type[0] == (ARG_PTR_TO_MEM | MEM_FIXED_SIZE) &&
	      p->arg_size[0] == 20 && p->pkt_access);
	p = helper_proto_by_id(FN_get_current_task_btf);
	CHECK(t, p && p->ret_type == (RET_PTR_TO_BTF_ID | PTR_TRUSTED));
	CHECK_STR(t, p ? p->ret_btf : NULL, "task_struct");
	p = helper_proto_by_id(FN_sk_lookup_tcp);
	CHECK(t, p && p->acquire);
	p = helper_proto_by_id(FN_sk_release);
	CHECK(t, p && p->arg_type[0] ==
	      (ARG_PTR_TO_BTF_ID_SOCK_COMMON | OBJ_RELEASE));
}

/* The generated index names, for each id, the variant named like the
 * helper when there is one, else the first of the id's variants. */
static void test_generic_index(struct test_ctx *t)
{
	for (uint32_t id = 0; id < HELPER_ID_MAX; id++) {
		const struct helper_proto *want = NULL;

		for (size_t i = 0; i < HP__COUNT; i++) {
			const struct helper_proto *p = &helper_protos[i];

			if (p->id != id)
				continue;
			if (!strcmp(p->variant, p->name + strlen("bpf_"))) {
				want = p;
				break;
			}
			if (!want)
				want = p;
		}
		CHECK_MSG(t, helper_proto_by_id(id) == want, "generic proto of id %u", id);
	}
	CHECK_STR(t, helper_proto_by_id(FN_get_stackid)->variant, "get_stackid");
	CHECK_STR(t, helper_proto_by_id(FN_sk_storage_get)->variant, "sk_storage_get");
}

static void test_special_ids(struct test_ctx *t)
{
	CHECK(t, helper_is_sync_callback_calling(HELPER_LOOP));
	CHECK(t, helper_is_sync_callback_calling(HELPER_FOR_EACH_MAP_ELEM));
	CHECK(t, helper_is_sync_callback_calling(HELPER_FIND_VMA));
	CHECK(t, helper_is_sync_callback_calling(HELPER_USER_RINGBUF_DRAIN));
	CHECK(t, !helper_is_sync_callback_calling(HELPER_TIMER_SET_CALLBACK));
	CHECK(t, helper_is_async_callback_calling(HELPER_TIMER_SET_CALLBACK));
	CHECK(t, !helper_is_async_callback_calling(HELPER_LOOP));
	CHECK(t, helper_changes_pkt_data(HELPER_TAIL_CALL));
	CHECK(t, helper_changes_pkt_data(FN_skb_pull_data));
	CHECK(t, helper_changes_pkt_data(FN_xdp_adjust_head));
	CHECK(t, !helper_changes_pkt_data(FN_skb_load_bytes));
	CHECK(t, !helper_changes_pkt_data(-1));
	CHECK(t, !helper_changes_pkt_data(100000));
	/* The kernel refuses r1 != ctx for these ("misconfigured"). */
	for (size_t i = 0; i < HP__COUNT; i++)
		if (helper_protos[i].changes_pkt_data)
			CHECK_MSG(t, helper_protos[i].arg_type[0] ==
				  ARG_PTR_TO_CTX, "%s", helper_protos[i].variant);
}

/* Conditions the live configurations cannot reach. */
static void test_source_only_cases(struct test_ctx *t)
{
	struct helper_query q = { .prog_type = 1, .bpf_capable = false };

	/* Without CAP_BPF only the first tier of the base set is left. */
	CHECK(t, helper_proto_query(&q, FN_map_lookup_elem) != NULL);
	CHECK(t, helper_proto_query(&q, FN_skb_load_bytes) != NULL);
	CHECK(t, helper_proto_query(&q, FN_spin_lock) == NULL);
	CHECK(t, helper_proto_query(&q, FN_loop) == NULL);
	CHECK(t, helper_proto_query(&q, FN_trace_printk) == NULL);
	/* fentry/fexit get the trampoline-only helpers. */
	q = (struct helper_query){ .prog_type = 26, .expected_attach_type = 24,
				   .bpf_capable = true, .perfmon = true };
	CHECK(t, helper_proto_query(&q, FN_get_func_arg) != NULL);
	CHECK(t, helper_proto_query(&q, FN_get_attach_cookie) != NULL);
	CHECK(t, helper_proto_query(&q, FN_seq_printf) == NULL);
	/* lsm: storage and ima helpers, tracing set below. */
	q.prog_type = 29;
	q.expected_attach_type = 27;
	CHECK(t, helper_proto_query(&q, FN_inode_storage_get) != NULL);
	CHECK(t, helper_proto_query(&q, FN_d_path) != NULL);
	CHECK(t, helper_proto_query(&q, FN_setsockopt) == NULL);
	CHECK(t, helper_proto_query(&q, FN_get_local_storage) == NULL);
	q.expected_attach_type = 43;	/* lsm_cgroup */
	CHECK(t, helper_proto_query(&q, FN_get_local_storage) != NULL);
	/* Unknown types and ids. */
	q.prog_type = 0;
	CHECK(t, helper_proto_query(&q, FN_map_lookup_elem) == NULL);
	q.prog_type = 1000;
	CHECK(t, helper_proto_query(&q, FN_map_lookup_elem) == NULL);
	q.prog_type = 1;
	CHECK(t, helper_proto_query(&q, HELPER_ID_MAX) == NULL);
	CHECK(t, helper_proto_query(NULL, 1) == NULL);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_names);
	RUN(&t, test_availability);
	RUN(&t, test_gpl_only);
	RUN(&t, test_argument_types);
	RUN(&t, test_lookups);
	RUN(&t, test_generic_index);
	RUN(&t, test_special_ids);
	RUN(&t, test_source_only_cases);
	return test_finish(&t);
}
