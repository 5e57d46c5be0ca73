/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Verifier rules through the library: their names, lists of them, and
 * bpfvet_open_opts.verifier_rules deciding the figures of the
 * drift_v1272 probes (tests/fixtures/logs/drift-v1272.txt for the v1272
 * build; the reference's without). tests/cli/verifier_rules.sh checks the
 * command line, the logs, the corpus and the running kernel's probe.
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bpfvet.h"
#include "target.h"
#include "test.h"

static void test_names(struct test_ctx *t)
{
	uint32_t r = 99;
	char buf[64];

	CHECK_STR(t, bpfvet_verifier_rule_name(BPFVET_RULE_CALLBACK_SCC), "callback-scc");
	CHECK_STR(t, bpfvet_verifier_rule_name(BPFVET_RULE_LOOP_SLOT_TYPES), "loop-slot-types");
	CHECK(t, bpfvet_verifier_rule_name(BPFVET_RULES_ALL) == NULL);
	CHECK(t, bpfvet_verifier_rule_name(1u << 31) == NULL);
	CHECK_INT(t, bpfvet_verifier_rules_parse("none", &r), 0);
	CHECK_INT(t, r, 0);
	CHECK_INT(t, bpfvet_verifier_rules_parse("loop-slot-types,callback-scc", &r), 0);
	CHECK_INT(t, r, BPFVET_RULES_ALL);
	CHECK_INT(t, bpfvet_verifier_rules_parse("callback-scc", &r), 0);
	CHECK_INT(t, r, BPFVET_RULE_CALLBACK_SCC);
	r = 7;
	CHECK_INT(t, bpfvet_verifier_rules_parse("", &r), -EINVAL);
	CHECK_INT(t, bpfvet_verifier_rules_parse("callback-scc,", &r), -EINVAL);
	CHECK_INT(t, bpfvet_verifier_rules_parse("callback", &r), -EINVAL);
	CHECK_INT(t, bpfvet_verifier_rules_parse(NULL, &r), -EINVAL);
	CHECK_INT(t, r, 7);
	CHECK_INT(t, bpfvet_verifier_rules_format(0, buf, sizeof(buf)), 4);
	CHECK_STR(t, buf, "none");
	CHECK_INT(t, bpfvet_verifier_rules_format(BPFVET_RULES_ALL, buf, sizeof(buf)), 28);
	CHECK_STR(t, buf, "callback-scc,loop-slot-types");
	/* Cut like snprintf: the length it needs, a terminated prefix. */
	CHECK_INT(t, bpfvet_verifier_rules_format(BPFVET_RULES_ALL, buf, 14), 28);
	CHECK_STR(t, buf, "callback-scc,");
	CHECK_INT(t, bpfvet_verifier_rules_format(BPFVET_RULE_LOOP_SLOT_TYPES, buf, 5), 15);
	CHECK_STR(t, buf, "loop");
}

/* insns/states/peak of one drift_v1272 probe opened with opts. */
static void figures(struct test_ctx *t, const struct bpfvet_open_opts *oo, const char *name,
		    char *out, size_t sz)
{
	char path[256];
	struct bpfvet_object *obj;
	struct bpfvet_result res = { .sz = sizeof(res) };
	int err = bpfvet_object__open(test_prog_path(path, sizeof(path), "drift_v1272"), oo, &obj);

	snprintf(out, sz, "open %d", err);
	if (err)
		return;
	snprintf(out, sz, "no %s", name);
	for (size_t i = 0; i < bpfvet_object__prog_cnt(obj); i++) {
		const struct bpfvet_program *p = bpfvet_object__prog(obj, i);

		if (strcmp(bpfvet_program__name(p), name))
			continue;
		err = bpfvet_program__verify(p, NULL, &res);
		CHECK_INT(t, err, 0);
		snprintf(out, sz, "%llu/%llu/%llu", (unsigned long long)res.insns_processed,
			 (unsigned long long)res.total_states, (unsigned long long)res.peak_states);
	}
	bpfvet_object__close(obj);
}

static void test_opts(struct test_ctx *t)
{
	struct bpfvet_open_opts oo = {
		.sz = sizeof(oo), .btf_custom_path = TARGET_BTF, .kconfig_path = TARGET_CONFIG,
		.kernel_version = TARGET_KERNEL_VERSION, .nr_cpus = TARGET_NR_CPUS,
		.no_syscall_wrapper = true,
	};
	char got[64];

	figures(t, &oo, "cb_call_scc", got, sizeof(got));
	CHECK_STR(t, got, "10/1/1");
	figures(t, &oo, "loop_entry_misc_zero", got, sizeof(got));
	CHECK_STR(t, got, "35/3/4");
	oo.verifier_rules = BPFVET_RULES_ALL;
	figures(t, &oo, "cb_call_scc", got, sizeof(got));
	CHECK_STR(t, got, "10/1/2");
	figures(t, &oo, "loop_entry_misc_zero", got, sizeof(got));
	CHECK_STR(t, got, "23/2/3");
	/* A caller built before the field: its struct ends before it, and
	 * the bytes after are not read. */
	oo.sz = offsetof(struct bpfvet_open_opts, verifier_rules);
	figures(t, &oo, "cb_call_scc", got, sizeof(got));
	CHECK_STR(t, got, "10/1/1");
	/* Bits no rule has are refused, as any unknown option. */
	oo.sz = sizeof(oo);
	oo.verifier_rules = 1u << 30;
	figures(t, &oo, "cb_call_scc", got, sizeof(got));
	CHECK_STR(t, got, "open -22");
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_names);
	RUN(&t, test_opts);
	return test_finish(&t);
}
