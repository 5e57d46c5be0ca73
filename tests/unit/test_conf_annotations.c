/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The conformance runner's annotation reader (tests/conformance/annotations.c)
 * on tests/progs/conf_tags.c, and its message matcher on crafted logs.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "annotations.h"
#include "test.h"

static struct btf *open_tags(struct test_ctx *t)
{
	char path[256];
	struct btf *btf = btf__parse(test_prog_path(path, sizeof(path), "conf_tags"), NULL);

	CHECK_MSG(t, btf, "cannot read the BTF of %s", path);
	return btf;
}

/* Parses one program of conf_tags.o; returns the errno. */
static int parse(struct test_ctx *t, const char *prog, struct conf_spec *sp, char *err,
		 size_t err_sz)
{
	struct btf *btf = open_tags(t);
	int rc;

	memset(sp, 0, sizeof(*sp));
	if (!btf)
		return -ENOENT;
	rc = conf_spec_parse(btf, prog, CONF_DEFAULT_FLAGS, CONF_ARCH_X86_64, sp, err, err_sz);
	btf__free(btf);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Specs                                                               */
/* ------------------------------------------------------------------ */

static void plain_program_defaults(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_plain", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.mode_mask, CONF_PRIV);
	CHECK(t, !sp.priv.expect_failure);
	CHECK_INT(t, sp.priv.msgs.cnt, 0);
	CHECK_INT(t, sp.prog_flags, CONF_F_TEST_RND_HI32 | CONF_F_TEST_REG_INVARIANTS);
	CHECK_INT(t, sp.log_level, 0);
	CHECK_INT(t, sp.arch_mask, 0);
	CHECK(t, !sp.auxiliary);
	CHECK(t, !sp.description);
	CHECK_STR(t, conf_spec_name(&sp), "p_plain");
	CHECK(t, !sp.priv.execute);
	conf_spec_free(&sp);
}

static void failure_msgs_in_order_and_flags(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_failure", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.mode_mask, CONF_PRIV);
	CHECK(t, sp.priv.expect_failure);
	CHECK_STR(t, conf_spec_name(&sp), "failing test");
	CHECK_INT(t, sp.log_level, 2);
	/* default | STRICT_ALIGNMENT, minus RND_HI32, plus 0x40 */
	CHECK_INT(t, sp.prog_flags, CONF_F_TEST_REG_INVARIANTS | CONF_F_STRICT_ALIGNMENT | 0x40);
	CHECK_INT(t, sp.priv.msgs.cnt, 3);
	if (sp.priv.msgs.cnt == 3) {
		CHECK_STR(t, sp.priv.msgs.v[0].text, "first");
		CHECK(t, !sp.priv.msgs.v[0].is_regex);
		CHECK_STR(t, sp.priv.msgs.v[1].text, "R{{[0-9]+}} pointer (x)");
		CHECK(t, sp.priv.msgs.v[1].is_regex);
		CHECK_STR(t, sp.priv.msgs.v[2].text, "first");
	}
	/* A silent unprivileged side inherits the result and the messages. */
	CHECK(t, sp.unpriv.expect_failure);
	CHECK_INT(t, sp.unpriv.msgs.cnt, 3);
	conf_spec_free(&sp);
}

static void unpriv_side_keeps_its_own(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_both", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.mode_mask, CONF_PRIV | CONF_UNPRIV);
	CHECK(t, !sp.priv.expect_failure);
	CHECK(t, sp.unpriv.expect_failure);
	CHECK_INT(t, sp.priv.msgs.cnt, 1);
	CHECK_INT(t, sp.unpriv.msgs.cnt, 1);
	if (sp.unpriv.msgs.cnt == 1)
		CHECK_STR(t, sp.unpriv.msgs.v[0].text, "unpriv only");
	CHECK(t, sp.priv.execute && sp.priv.retval_any);
	CHECK(t, sp.unpriv.execute && sp.unpriv.retval_any);
	conf_spec_free(&sp);
}

static void caps_unpriv_implies_unpriv_mode(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_inherit", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.mode_mask, CONF_PRIV | CONF_UNPRIV);
	CHECK_INT(t, sp.caps_unpriv, (1ull << CONF_CAP_NET_ADMIN) | (1ull << CONF_CAP_SYS_ADMIN));
	CHECK(t, sp.unpriv.expect_failure);
	CHECK_INT(t, sp.unpriv.msgs.cnt, 1);
	CHECK_INT(t, sp.priv.retval, -7);
	CHECK_INT(t, sp.unpriv.retval, -7);
	CHECK(t, sp.unpriv.execute);
	CHECK_INT(t, sp.priv.xlated_cnt, 1);
	CHECK_INT(t, sp.unpriv.xlated_cnt, 1);
	/* STATE_FREQ added, REG_INVARIANTS cleared by name, RND_HI32 (4) by number */
	CHECK_INT(t, sp.prog_flags, CONF_F_TEST_STATE_FREQ);
	conf_spec_free(&sp);
}

static void auxiliary_programs(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_aux", &sp, err, sizeof(err)), 0);
	CHECK(t, sp.auxiliary);
	CHECK_INT(t, sp.mode_mask, CONF_PRIV);
	conf_spec_free(&sp);
	CHECK_INT(t, parse(t, "p_aux_unpriv", &sp, err, sizeof(err)), 0);
	CHECK(t, sp.auxiliary);
	CHECK_INT(t, sp.mode_mask, CONF_UNPRIV);
	conf_spec_free(&sp);
}

static void arch_and_jited_lines(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_arch", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.arch_mask, CONF_ARCH_ARM64 | CONF_ARCH_X86_64);
	/* only the lines after __arch_x86_64 apply on x86_64 */
	CHECK_INT(t, sp.priv.jited_cnt, 2);
	CHECK_INT(t, sp.priv.retval, INT_MIN);
	conf_spec_free(&sp);
	CHECK_INT(t, parse(t, "p_other_arch", &sp, err, sizeof(err)), 0);
	CHECK_INT(t, sp.arch_mask, CONF_ARCH_OTHER);
	CHECK_INT(t, sp.priv.retval, 16);
	conf_spec_free(&sp);
}

static void misc_tags_and_ignored_ones(struct test_ctx *t)
{
	struct conf_spec sp;
	char err[128];

	CHECK_INT(t, parse(t, "p_misc", &sp, err, sizeof(err)), 0);
	CHECK_STR(t, sp.btf_path, "btf__example.bpf.o");
	CHECK_INT(t, sp.load_mode, CONF_LOAD_JITED);
	CHECK_INT(t, sp.priv.msgs.cnt, 2);
	if (sp.priv.msgs.cnt == 2) {
		CHECK(t, sp.priv.msgs.v[0].negative);
		CHECK(t, !sp.priv.msgs.v[1].negative);
	}
	CHECK_INT(t, sp.priv.retval, 64);
	CHECK_INT(t, sp.unknown_tags, 1);
	/* the tag on the parameter (component_idx 0) is not the function's */
	CHECK(t, !sp.priv.expect_failure);
	CHECK_INT(t, sp.caps_unpriv, (1ull << CONF_CAP_BPF) | (1ull << CONF_CAP_PERFMON));
	conf_spec_free(&sp);
}

static void refused_annotations(struct test_ctx *t)
{
	static const struct {
		const char *prog;
		const char *why;
	} bad[] = {
		{ "p_bad_flag", "BPF_F_BOGUS" },
		{ "p_bad_regex", "{{" },
		{ "p_jited_first", "__jited before __arch" },
		{ "p_bad_level", "two" },
	};
	struct conf_spec sp;
	char err[128];

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_INT(t, parse(t, bad[i].prog, &sp, err, sizeof(err)), -EINVAL);
		CHECK_MSG(t, strstr(err, bad[i].why), "%s: reason '%s'", bad[i].prog, err);
		CHECK(t, !sp.prog_name && !sp.priv.msgs.v);
	}
	CHECK_INT(t, parse(t, "no_such_prog", &sp, err, sizeof(err)), -ENOENT);
	CHECK_INT(t, conf_spec_parse(NULL, "p_plain", 0, CONF_ARCH_X86_64, &sp, err, sizeof(err)),
		  -EINVAL);
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */
/* ------------------------------------------------------------------ */

struct pat {
	const char *text;
	bool negative;
};

/* Builds the patterns, checks `log`, returns the status and index. */
static enum conf_msg_status check(struct test_ctx *t, const struct pat *p, size_t n,
				  const char *log, size_t *idx)
{
	struct conf_msgs msgs = { 0 };
	enum conf_msg_status st = CONF_MSG_OK;
	char err[128];

	*idx = (size_t)-1;
	for (size_t i = 0; i < n; i++)
		CHECK_INT(t, conf_msgs_add(&msgs, p[i].text, p[i].negative, err, sizeof(err)), 0);
	if (msgs.cnt == n)
		st = conf_msgs_check(&msgs, log, idx);
	conf_msgs_free(&msgs);
	return st;
}

static void msgs_substrings_in_order(struct test_ctx *t)
{
	static const char log[] = "0: R1=ctx() R10=fp0\n1: (b7) r0 = 0\nR0 invalid mem access 'scalar'\n";
	const struct pat in_order[] = { { "R1=ctx()" }, { "invalid mem access" } };
	const struct pat reversed[] = { { "invalid mem access" }, { "R1=ctx()" } };
	const struct pat twice[] = { { "R1" }, { "R1" }, { "R1" } };
	size_t idx;

	CHECK_INT(t, check(t, in_order, 2, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, reversed, 2, log, &idx), CONF_MSG_MISSING);
	CHECK_INT(t, idx, 1);
	/* "R1" occurs twice (R1=, R10=): each search starts after the last match */
	CHECK_INT(t, check(t, twice, 3, log, &idx), CONF_MSG_MISSING);
	CHECK_INT(t, idx, 2);
	CHECK_INT(t, check(t, twice, 2, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, in_order, 2, NULL, &idx), CONF_MSG_MISSING);
	CHECK_INT(t, check(t, in_order, 0, "", &idx), CONF_MSG_OK);
}

static void msgs_regex_parts(struct test_ctx *t)
{
	static const char log[] = "R2 type=scalar expected=fp, pkt (x)\nfoo007\nbar\n";
	const struct pat lit[] = { { "type=scalar expected=fp, pkt (x)" } };
	const struct pat re[] = { { "foo{{[0-9]+}}" } };
	const struct pat escaped[] = { { "pkt (x){{$}}" } };	/* ( ) literal, $ regex */
	const struct pat dot_stays_on_line[] = { { "foo007{{.}}bar" } };
	const struct pat caret_after_newline[] = { { "{{^}}bar" } };
	const struct pat literal_dot[] = { { "pkt.{{ }}" } };
	size_t idx;

	CHECK_INT(t, check(t, lit, 1, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, re, 1, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, escaped, 1, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, dot_stays_on_line, 1, log, &idx), CONF_MSG_MISSING);
	CHECK_INT(t, check(t, caret_after_newline, 1, log, &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, literal_dot, 1, log, &idx), CONF_MSG_MISSING);
}

static void msgs_bad_patterns(struct test_ctx *t)
{
	struct conf_msgs msgs = { 0 };
	char err[128] = "";

	CHECK_INT(t, conf_msgs_add(&msgs, "a{{b", false, err, sizeof(err)), -EINVAL);
	CHECK(t, strstr(err, "without }}"));
	CHECK_INT(t, conf_msgs_add(&msgs, "{{(}}", false, err, sizeof(err)), -EINVAL);
	CHECK_INT(t, msgs.cnt, 0);
	/* "}}" outside a regex is plain text */
	CHECK_INT(t, conf_msgs_add(&msgs, "a}}b", false, err, sizeof(err)), 0);
	conf_msgs_free(&msgs);
}

/* __not_msg: checked between the positive matches around it. */
static void msgs_negative_spans(struct test_ctx *t)
{
	const struct pat head_ok[] = { { "aaa", true }, { "bbb" } };
	const struct pat head_bad[] = { { "bbb", true }, { "ccc" } };
	const struct pat tail_bad[] = { { "bbb" }, { "ccc", true } };
	const struct pat mid_bad[] = { { "aaa" }, { "bbb", true }, { "ccc" } };
	const struct pat mid_ok[] = { { "bbb" }, { "aaa", true }, { "ccc" } };
	const struct pat run_bad[] = { { "aaa" }, { "222", true }, { "xyz", true }, { "ccc" } };
	const struct pat crossing[] = { { "aaa" }, { "abbb", true }, { "bbb" } };
	size_t idx;

	CHECK_INT(t, check(t, head_ok, 2, "bbbaaaccc", &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, head_bad, 2, "aaabbbccc", &idx), CONF_MSG_UNEXPECTED);
	CHECK_INT(t, idx, 0);
	CHECK_INT(t, check(t, tail_bad, 2, "aaabbbccc", &idx), CONF_MSG_UNEXPECTED);
	CHECK_INT(t, idx, 1);
	CHECK_INT(t, check(t, mid_bad, 3, "aaabbbccc", &idx), CONF_MSG_UNEXPECTED);
	CHECK_INT(t, check(t, mid_ok, 3, "aaabbbcccaaa", &idx), CONF_MSG_OK);
	CHECK_INT(t, check(t, run_bad, 4, "aaabbb222ccc", &idx), CONF_MSG_UNEXPECTED);
	CHECK_INT(t, idx, 1);
	/* the span starts where "aaa" ended: "abbb" would need to start inside it */
	CHECK_INT(t, check(t, crossing, 3, "aaabbb", &idx), CONF_MSG_OK);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, plain_program_defaults);
	RUN(&t, failure_msgs_in_order_and_flags);
	RUN(&t, unpriv_side_keeps_its_own);
	RUN(&t, caps_unpriv_implies_unpriv_mode);
	RUN(&t, auxiliary_programs);
	RUN(&t, arch_and_jited_lines);
	RUN(&t, misc_tags_and_ignored_ones);
	RUN(&t, refused_annotations);
	RUN(&t, msgs_substrings_in_order);
	RUN(&t, msgs_regex_parts);
	RUN(&t, msgs_bad_patterns);
	RUN(&t, msgs_negative_spans);
	return test_finish(&t);
}
