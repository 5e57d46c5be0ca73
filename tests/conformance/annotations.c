/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reads the bpf_misc.h annotations of one program from BTF decl tags. The
 * rules follow the selftest loader of Linux 6.12 (test_loader.c), plus the
 * tags later kernels added (__not_msg, __caps_unpriv, __load_if_JITed), so
 * that newer selftests read the same way.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <bpf/btf.h>

#include "annotations.h"

#define TAG_PFX "comment:"

/* POINTER_VALUE of bpf_misc.h: 0xcafe4all, truncated to int. */
#define POINTER_VALUE_INT ((int)0xcafe4a)
#define TEST_DATA_LEN 64

static int fail(char *err, size_t err_sz, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t err_sz, int code, const char *fmt, ...)
{
	va_list ap;

	if (err && err_sz) {
		va_start(ap, fmt);
		vsnprintf(err, err_sz, fmt, ap);
		va_end(ap);
	}
	return code;
}

static bool has_prefix(const char *s, const char *pfx)
{
	return strncmp(s, pfx, strlen(pfx)) == 0;
}

/* ------------------------------------------------------------------ */
/* Message patterns                                                    */
/* ------------------------------------------------------------------ */

/* Characters that POSIX ERE gives a meaning; literal text escapes them. */
static bool ere_special(char c)
{
	return c && strchr(".[]\\()*+?{}|^$", c);
}

/* Builds the ERE for a pattern with {{...}} parts, or NULL on -EINVAL
 * (unbalanced braces). *nomem is set when allocation failed. */
static char *pattern_to_ere(const char *text, bool *nomem)
{
	size_t len = strlen(text);
	char *out = malloc(len * 2 + 1), *o = out;
	bool in_re = false;

	*nomem = !out;
	if (!out)
		return NULL;
	while (*text) {
		if (!in_re && has_prefix(text, "{{")) {
			in_re = true;
			text += 2;
		} else if (in_re && has_prefix(text, "}}")) {
			in_re = false;
			text += 2;
		} else {
			if (!in_re && ere_special(*text))
				*o++ = '\\';
			*o++ = *text++;
		}
	}
	*o = 0;
	if (in_re) {
		free(out);
		return NULL;
	}
	return out;
}

static int msg_compile(struct conf_msg *m, char *err, size_t err_sz)
{
	char *ere, why[128];
	bool nomem;
	int rc;

	if (!strstr(m->text, "{{"))
		return 0;
	ere = pattern_to_ere(m->text, &nomem);
	if (!ere)
		return nomem ? -ENOMEM :
		       fail(err, err_sz, -EINVAL, "pattern '%s' opens {{ without }}", m->text);
	rc = regcomp(&m->re, ere, REG_EXTENDED | REG_NEWLINE);
	free(ere);
	if (rc) {
		regerror(rc, &m->re, why, sizeof(why));
		return fail(err, err_sz, -EINVAL, "pattern '%s': %s", m->text, why);
	}
	m->is_regex = true;
	return 0;
}

int conf_msgs_add(struct conf_msgs *msgs, const char *text, bool negative,
		  char *err, size_t err_sz)
{
	struct conf_msg *v, *m;
	int rc;

	v = realloc(msgs->v, (msgs->cnt + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	msgs->v = v;
	m = &v[msgs->cnt];
	memset(m, 0, sizeof(*m));
	m->negative = negative;
	m->text = strdup(text);
	if (!m->text)
		return -ENOMEM;
	rc = msg_compile(m, err, err_sz);
	if (rc) {
		free(m->text);
		return rc;
	}
	msgs->cnt++;
	return 0;
}

int conf_msgs_copy(struct conf_msgs *to, const struct conf_msgs *from,
		   char *err, size_t err_sz)
{
	for (size_t i = 0; i < from->cnt; i++) {
		int rc = conf_msgs_add(to, from->v[i].text, from->v[i].negative, err, err_sz);

		if (rc)
			return rc;
	}
	return 0;
}

void conf_msgs_free(struct conf_msgs *msgs)
{
	for (size_t i = 0; i < msgs->cnt; i++) {
		if (msgs->v[i].is_regex)
			regfree(&msgs->v[i].re);
		free(msgs->v[i].text);
	}
	free(msgs->v);
	msgs->v = NULL;
	msgs->cnt = 0;
}

/* Finds `m` in `from`; on success sets the match bounds. */
static bool msg_find(const struct conf_msg *m, const char *from, const char **start,
		     const char **end)
{
	regmatch_t rm;
	const char *s;

	if (!m->is_regex) {
		s = strstr(from, m->text);
		if (!s)
			return false;
		*start = s;
		*end = s + strlen(m->text);
		return true;
	}
	if (regexec(&m->re, from, 1, &rm, 0))
		return false;
	*start = from + rm.rm_so;
	*end = from + rm.rm_eo;
	return true;
}

struct span {
	const char *start;	/* NULL: not matched */
	const char *end;
};

/* Positive patterns, each searched from where the previous match ended; a
 * pattern that is not found leaves the position unchanged. */
static void match_positives(const struct conf_msgs *msgs, const char *log, struct span *sp)
{
	const char *pos = log;

	for (size_t i = 0; i < msgs->cnt; i++) {
		if (msgs->v[i].negative)
			continue;
		if (msg_find(&msgs->v[i], pos, &sp[i].start, &sp[i].end))
			pos = sp[i].end;
	}
}

/* A run of negative patterns is checked between the end of the positive
 * match before it (or the log start) and the start of the one after it (or
 * the log end). */
static void match_negatives(const struct conf_msgs *msgs, const char *log, struct span *sp)
{
	const char *from = log, *to, *s, *e;
	size_t i = 0, next;

	while (i < msgs->cnt) {
		if (!msgs->v[i].negative) {
			if (sp[i].start)
				from = sp[i].end;
			i++;
			continue;
		}
		for (next = i; next < msgs->cnt && msgs->v[next].negative; next++)
			;
		to = next < msgs->cnt ? sp[next].start : log + strlen(log);
		for (; i < next; i++)
			if (to && msg_find(&msgs->v[i], from, &s, &e) && e <= to) {
				sp[i].start = s;
				sp[i].end = e;
			}
	}
}

enum conf_msg_status conf_msgs_check(const struct conf_msgs *msgs, const char *log,
				     size_t *idx)
{
	struct span *sp;
	enum conf_msg_status st = CONF_MSG_OK;

	if (!msgs->cnt)
		return CONF_MSG_OK;
	if (!log)
		log = "";
	sp = calloc(msgs->cnt, sizeof(*sp));
	if (!sp) {
		/* Cannot tell; report the first pattern as missing. */
		*idx = 0;
		return CONF_MSG_MISSING;
	}
	match_positives(msgs, log, sp);
	match_negatives(msgs, log, sp);
	for (size_t i = 0; i < msgs->cnt; i++) {
		if (!msgs->v[i].negative && !sp[i].start)
			st = CONF_MSG_MISSING;
		else if (msgs->v[i].negative && sp[i].start)
			st = CONF_MSG_UNEXPECTED;
		if (st != CONF_MSG_OK) {
			*idx = i;
			break;
		}
	}
	free(sp);
	return st;
}

/* ------------------------------------------------------------------ */
/* Tag values                                                          */
/* ------------------------------------------------------------------ */

/* Decimal or 0x hex, the whole string, fitting an int. */
static int parse_int(const char *s, int *val)
{
	char *end;
	long v;

	if (!*s)
		return -EINVAL;
	errno = 0;
	v = has_prefix(s, "0x") ? strtol(s + 2, &end, 16) : strtol(s, &end, 10);
	if (errno || *end || v < INT_MIN || v > (long)UINT_MAX)
		return -EINVAL;
	*val = (int)v;
	return 0;
}

static int parse_retval(const char *s, struct conf_subspec *sub)
{
	sub->execute = true;
	sub->retval_any = false;
	if (!strcmp(s, "INT_MIN")) {
		sub->retval = INT_MIN;
		return 0;
	}
	if (!strcmp(s, "TEST_DATA_LEN")) {
		sub->retval = TEST_DATA_LEN;
		return 0;
	}
	/* Linux 6.12 keeps the macro name; later kernels expand it. */
	if (!strcmp(s, "POINTER_VALUE") || !strcmp(s, "0xcafe4all")) {
		sub->retval = POINTER_VALUE_INT;
		sub->retval_any = true;
		return 0;
	}
	return parse_int(s, &sub->retval);
}

static const struct {
	const char *name;
	uint32_t flag;
} flag_names[] = {
	{ "BPF_F_STRICT_ALIGNMENT", CONF_F_STRICT_ALIGNMENT },
	{ "BPF_F_ANY_ALIGNMENT", CONF_F_ANY_ALIGNMENT },
	{ "BPF_F_TEST_RND_HI32", CONF_F_TEST_RND_HI32 },
	{ "BPF_F_TEST_STATE_FREQ", CONF_F_TEST_STATE_FREQ },
	{ "BPF_F_SLEEPABLE", CONF_F_SLEEPABLE },
	{ "BPF_F_XDP_HAS_FRAGS", CONF_F_XDP_HAS_FRAGS },
	{ "BPF_F_TEST_REG_INVARIANTS", CONF_F_TEST_REG_INVARIANTS },
};

/* `[!]NAME` or `[!]NUMBER`: set or clear. */
static int apply_flag(const char *s, uint32_t *flags, uint32_t *named)
{
	bool clear = *s == '!';
	uint32_t f = 0;
	int n;

	if (clear)
		s++;
	for (size_t i = 0; i < sizeof(flag_names) / sizeof(flag_names[0]); i++)
		if (!strcmp(s, flag_names[i].name))
			f = flag_names[i].flag;
	if (!f) {
		if (parse_int(s, &n))
			return -EINVAL;
		f = (uint32_t)n;
	}
	if (clear) {
		*flags &= ~f;
		*named &= ~f;
	} else {
		*flags |= f;
		*named |= f;
	}
	return 0;
}

static uint32_t arch_bit(const char *s)
{
	if (!strcmp(s, "X86_64"))
		return CONF_ARCH_X86_64;
	if (!strcmp(s, "ARM64"))
		return CONF_ARCH_ARM64;
	if (!strcmp(s, "RISCV64"))
		return CONF_ARCH_RISCV64;
	if (!strcmp(s, "s390x") || !strcmp(s, "S390X"))
		return CONF_ARCH_S390X;
	return CONF_ARCH_OTHER;
}

/* `12`, `12|21`, `CAP_NET_ADMIN | CAP_SYS_ADMIN`: capability numbers. */
static int parse_caps(const char *s, uint64_t *caps)
{
	static const struct { const char *name; int nr; } names[] = {
		{ "CAP_NET_ADMIN", CONF_CAP_NET_ADMIN }, { "CAP_SYS_ADMIN", CONF_CAP_SYS_ADMIN },
		{ "CAP_PERFMON", CONF_CAP_PERFMON }, { "CAP_BPF", CONF_CAP_BPF },
	};
	char tok[64];

	while (*s) {
		size_t n = strcspn(s, "|");
		const char *b = s, *e = s + n;
		int nr = -1;

		while (b < e && *b == ' ')
			b++;
		while (e > b && e[-1] == ' ')
			e--;
		if ((size_t)(e - b) >= sizeof(tok) || e == b)
			return -EINVAL;
		memcpy(tok, b, (size_t)(e - b));
		tok[e - b] = 0;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(tok, names[i].name))
				nr = names[i].nr;
		if (nr < 0 && (parse_int(tok, &nr) || nr <= 0 || nr > 63))
			return -EINVAL;
		*caps |= 1ull << nr;
		s += n;
		if (*s == '|')
			s++;
	}
	return 0;
}

/* The payload of a repeatable tag `KEY=<counter>=<payload>`, or NULL. */
static const char *counted_value(const char *s, const char *key)
{
	size_t n = strlen(key);
	const char *eq;

	if (strncmp(s, key, n) || s[n] != '=')
		return NULL;
	eq = strchr(s + n + 1, '=');
	return eq ? eq + 1 : NULL;
}

/* The payload of a plain tag `KEY=<payload>`, or NULL. */
static const char *plain_value(const char *s, const char *key)
{
	size_t n = strlen(key);

	if (strncmp(s, key, n) || s[n] != '=')
		return NULL;
	return s + n + 1;
}

/* ------------------------------------------------------------------ */
/* One tag                                                             */
/* ------------------------------------------------------------------ */

struct parse_state {
	struct conf_spec *spec;
	uint32_t arch;		/* the target's CONF_ARCH_* bit */
	bool has_unpriv_result;
	bool has_unpriv_retval;
	bool collect_jit;	/* the last __arch was the target */
	char *err;
	size_t err_sz;
};

static int set_string(char **dst, const char *v)
{
	char *s = strdup(v);

	if (!s)
		return -ENOMEM;
	free(*dst);
	*dst = s;
	return 0;
}

/* Tags without a value. Returns 1 when `s` is not one of them. */
static int parse_bare_tag(struct parse_state *ps, const char *s)
{
	struct conf_spec *sp = ps->spec;

	if (!strcmp(s, "test_expect_failure") || !strcmp(s, "test_expect_success")) {
		sp->priv.expect_failure = !strcmp(s, "test_expect_failure");
		sp->mode_mask |= CONF_PRIV;
	} else if (!strcmp(s, "test_expect_failure_unpriv") ||
		   !strcmp(s, "test_expect_success_unpriv")) {
		sp->unpriv.expect_failure = !strcmp(s, "test_expect_failure_unpriv");
		sp->mode_mask |= CONF_UNPRIV;
		ps->has_unpriv_result = true;
	} else if (!strcmp(s, "test_auxiliary")) {
		sp->auxiliary = true;
		sp->mode_mask |= CONF_PRIV;
	} else if (!strcmp(s, "test_auxiliary_unpriv")) {
		sp->auxiliary = true;
		sp->mode_mask |= CONF_UNPRIV;
	} else {
		return 1;
	}
	return 0;
}

/* __msg, __not_msg, __xlated, __jited and their _unpriv forms. */
static int parse_pattern_tag(struct parse_state *ps, const char *s)
{
	static const struct {
		const char *key;
		bool unpriv;
		bool negative;
		int kind;	/* 0 msg, 1 xlated, 2 jited */
	} keys[] = {
		{ "test_expect_msg", false, false, 0 },
		{ "test_expect_msg_unpriv", true, false, 0 },
		{ "test_expect_not_msg", false, true, 0 },
		{ "test_expect_not_msg_unpriv", true, true, 0 },
		{ "test_expect_xlated", false, false, 1 },
		{ "test_expect_xlated_unpriv", true, false, 1 },
		{ "test_jited", false, false, 2 },
		{ "test_jited_unpriv", true, false, 2 },
	};
	struct conf_spec *sp = ps->spec;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const char *v = counted_value(s, keys[i].key);
		struct conf_subspec *sub = keys[i].unpriv ? &sp->unpriv : &sp->priv;

		if (!v)
			continue;
		if (keys[i].kind == 2) {
			if (!sp->arch_mask)
				return fail(ps->err, ps->err_sz, -EINVAL, "__jited before __arch_*");
			if (!ps->collect_jit)
				return 0;
			sub->jited_cnt++;
		} else if (keys[i].kind == 1) {
			sub->xlated_cnt++;
		} else {
			int rc = conf_msgs_add(&sub->msgs, v, keys[i].negative, ps->err, ps->err_sz);

			if (rc)
				return rc;
		}
		sp->mode_mask |= keys[i].unpriv ? CONF_UNPRIV : CONF_PRIV;
		return 0;
	}
	return 1;
}

static int bad_value(struct parse_state *ps, const char *what, const char *v)
{
	return fail(ps->err, ps->err_sz, -EINVAL, "bad %s '%s'", what, v);
}

/* Tags `KEY=VALUE` that are not repeatable. */
static int parse_valued_tag(struct parse_state *ps, const char *s)
{
	struct conf_spec *sp = ps->spec;
	const char *v;
	int n;

	if ((v = plain_value(s, "test_description")))
		return set_string(&sp->description, v);
	if ((v = plain_value(s, "test_retval"))) {
		sp->mode_mask |= CONF_PRIV;
		return parse_retval(v, &sp->priv) ? bad_value(ps, "__retval", v) : 0;
	}
	if ((v = plain_value(s, "test_retval_unpriv"))) {
		sp->mode_mask |= CONF_UNPRIV;
		ps->has_unpriv_retval = true;
		return parse_retval(v, &sp->unpriv) ? bad_value(ps, "__retval_unpriv", v) : 0;
	}
	if ((v = plain_value(s, "test_log_level"))) {
		if (parse_int(v, &n))
			return bad_value(ps, "__log_level", v);
		sp->log_level = (uint32_t)n;
		return 0;
	}
	if ((v = plain_value(s, "test_prog_flags")))
		return apply_flag(v, &sp->prog_flags, &sp->flags_named) ? bad_value(ps, "__flag", v) : 0;
	if ((v = plain_value(s, "test_arch"))) {
		uint32_t bit = arch_bit(v);

		sp->arch_mask |= bit;
		ps->collect_jit = bit == ps->arch;
		return 0;
	}
	if ((v = plain_value(s, "test_btf_path")))
		return set_string(&sp->btf_path, v);
	if ((v = plain_value(s, "test_caps_unpriv"))) {
		sp->mode_mask |= CONF_UNPRIV;
		return parse_caps(v, &sp->caps_unpriv) ? bad_value(ps, "__caps_unpriv", v) : 0;
	}
	if ((v = plain_value(s, "load_mode"))) {
		if (!strcmp(v, "jited"))
			sp->load_mode = CONF_LOAD_JITED;
		else if (!strcmp(v, "no_jited"))
			sp->load_mode = CONF_LOAD_NO_JITED;
		else
			return bad_value(ps, "load_mode", v);
		return 0;
	}
	return 1;
}

static int parse_tag(struct parse_state *ps, const char *tag)
{
	int rc;

	if (!has_prefix(tag, TAG_PFX))
		return 0;	/* some other decl tag (e.g. arg:ctx) */
	tag += strlen(TAG_PFX);
	rc = parse_bare_tag(ps, tag);
	if (rc <= 0)
		return rc;
	rc = parse_pattern_tag(ps, tag);
	if (rc <= 0)
		return rc;
	rc = parse_valued_tag(ps, tag);
	if (rc <= 0)
		return rc;
	ps->spec->unknown_tags++;
	return 0;
}

/* ------------------------------------------------------------------ */
/* The whole spec                                                      */
/* ------------------------------------------------------------------ */

/* What the unprivileged run inherits when its own tags are silent. */
static int inherit_unpriv(struct parse_state *ps)
{
	struct conf_spec *sp = ps->spec;

	if (!ps->has_unpriv_result)
		sp->unpriv.expect_failure = sp->priv.expect_failure;
	if (!ps->has_unpriv_retval) {
		sp->unpriv.execute = sp->priv.execute;
		sp->unpriv.retval = sp->priv.retval;
		sp->unpriv.retval_any = sp->priv.retval_any;
	}
	if (!sp->unpriv.xlated_cnt)
		sp->unpriv.xlated_cnt = sp->priv.xlated_cnt;
	if (!sp->unpriv.jited_cnt)
		sp->unpriv.jited_cnt = sp->priv.jited_cnt;
	if (sp->unpriv.msgs.cnt)
		return 0;
	return conf_msgs_copy(&sp->unpriv.msgs, &sp->priv.msgs, ps->err, ps->err_sz);
}

int conf_spec_parse(const struct btf *btf, const char *prog_name, uint32_t default_flags,
		    uint32_t arch, struct conf_spec *spec, char *err, size_t err_sz)
{
	struct parse_state ps = { .spec = spec, .arch = arch, .err = err, .err_sz = err_sz };
	int func_id, rc = 0;
	uint32_t cnt;

	memset(spec, 0, sizeof(*spec));
	if (err && err_sz)
		err[0] = 0;
	if (!btf || !prog_name)
		return fail(err, err_sz, -EINVAL, "no BTF or no program name");
	func_id = btf__find_by_name_kind(btf, prog_name, BTF_KIND_FUNC);
	if (func_id < 0)
		return fail(err, err_sz, -ENOENT, "no BTF FUNC for program '%s'", prog_name);
	spec->prog_name = strdup(prog_name);
	if (!spec->prog_name)
		return -ENOMEM;
	spec->prog_flags = default_flags;
	cnt = btf__type_cnt(btf);
	for (uint32_t id = 1; id < cnt && !rc; id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);

		if (!t || !btf_is_decl_tag(t) || t->type != (uint32_t)func_id ||
		    btf_decl_tag(t)->component_idx != -1)
			continue;
		rc = parse_tag(&ps, btf__name_by_offset(btf, t->name_off));
	}
	if (!rc && !spec->mode_mask)
		spec->mode_mask = CONF_PRIV;
	if (!rc)
		rc = inherit_unpriv(&ps);
	if (rc) {
		conf_spec_free(spec);
		if (rc == -ENOMEM)
			fail(err, err_sz, rc, "out of memory");
	}
	return rc;
}

void conf_spec_free(struct conf_spec *spec)
{
	if (!spec)
		return;
	conf_msgs_free(&spec->priv.msgs);
	conf_msgs_free(&spec->unpriv.msgs);
	free(spec->prog_name);
	free(spec->description);
	free(spec->btf_path);
	memset(spec, 0, sizeof(*spec));
}

const char *conf_spec_name(const struct conf_spec *spec)
{
	return spec->description ? spec->description : spec->prog_name;
}
