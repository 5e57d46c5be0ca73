/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Values of __kconfig externs, as libbpf fills the .kconfig map before it
 * freezes it: CONFIG_* from a kernel config file (plain or gzip, one
 * "CONFIG_X=value" per line), LINUX_KERNEL_VERSION from the caller, the
 * other LINUX_* names from what Linux 6.18 on x86-64 supports. Weak
 * externs absent from the config are 0; strong ones are an error.
 *
 * The map is frozen, so that the verifier reads constants from it, but
 * values that were not given (CONFIG_* without a config file,
 * LINUX_KERNEL_VERSION without a version) stay unknown bytes
 * (bpfvet_map.init_known), which the verifier reads as unknown scalars.
 *
 * The classification of an extern's type and the parsing of one value
 * (kconfig_type_of, kconfig_set_value, kconfig_set_num) also serve the
 * kernel loader (kernel_kconfig.c), which reads the running kernel's
 * config and reports in its own style (enum kconfig_style).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include <bpf/btf.h>

#include "steps.h"

#define LINE_MAX_LEN 4096	/* longer lines are read in pieces, as libbpf does */
#define NUM_MAX_LEN 64		/* the kernel style's bound on a number's text */

/* libbpf's enum libbpf_tristate */
enum { TRI_NO = 0, TRI_YES = 1, TRI_MODULE = 2 };

struct kcfg {
	struct loader *ld;
	uint8_t *data;		/* the .kconfig map value */
	const char *path;
};

/* ------------------------------------------------------------------ */
/* Types and values, shared with the kernel loader (kernel_kconfig.c)  */
/* ------------------------------------------------------------------ */

static enum kcfg_type classify(const struct btf *btf, uint32_t id, bool *is_signed,
			       int depth)
{
	const struct btf_type *t = btf_skip_mods(btf, id, NULL);
	const char *name;

	if (is_signed)
		*is_signed = false;
	if (!t || depth > 4)
		return KCFG_UNKNOWN;
	name = btf__name_by_offset(btf, t->name_off);
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
		if (btf_int_encoding(t) & BTF_INT_BOOL)
			return t->size == 1 ? KCFG_BOOL : KCFG_UNKNOWN;
		if (is_signed)
			*is_signed = btf_int_encoding(t) & BTF_INT_SIGNED;
		if (t->size == 1)
			return KCFG_CHAR;
		if (t->size < 1 || t->size > 8 || (t->size & (t->size - 1)))
			return KCFG_UNKNOWN;
		return KCFG_INT;
	case BTF_KIND_ENUM:
		return t->size == 4 && name && !strcmp(name, "libbpf_tristate") ?
		       KCFG_TRISTATE : KCFG_UNKNOWN;
	case BTF_KIND_ENUM64:
		return name && !strcmp(name, "libbpf_tristate") ? KCFG_TRISTATE :
		       KCFG_UNKNOWN;
	case BTF_KIND_ARRAY:
		if (btf_array(t)->nelems == 0)
			return KCFG_UNKNOWN;
		return classify(btf, btf_array(t)->type, NULL, depth + 1) == KCFG_CHAR ?
		       KCFG_CHAR_ARR : KCFG_UNKNOWN;
	default:
		return KCFG_UNKNOWN;
	}
}

enum kcfg_type kconfig_type_of(const struct btf *btf, uint32_t type_id, bool *is_signed)
{
	return classify(btf, type_id, is_signed, 0);
}

/* Formats the refusal and hands it to the caller's sink; returns what the
 * sink returns (0 when the caller goes on without the value). */
static int refuse(const struct kconfig_slot *s, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int refuse(const struct kconfig_slot *s, int err, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	n = s->refuse(s->ctx, err, msg);
	free(msg);
	return n;
}

static void put_le(uint8_t *p, uint64_t v, uint32_t sz)
{
	for (uint32_t i = 0; i < sz; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Does v fit in the extern's integer without loss? */
static bool fits(const struct kconfig_slot *s, uint64_t v)
{
	uint32_t bits = s->size * 8;

	if (s->size >= 8)
		return true;
	if (s->is_signed)
		return v + (1ull << (bits - 1)) < (1ull << bits);
	return (v >> bits) == 0;
}

/* text: how the messages show the value */
static int set_num(const struct kconfig_slot *s, uint64_t v, const char *text)
{
	if (s->type != KCFG_INT && s->type != KCFG_CHAR && s->type != KCFG_BOOL)
		return refuse(s, -EINVAL,
			      "extern (kcfg) '%s': value '%s' implies integer, char, or boolean type",
			      s->name, text);
	if (s->type == KCFG_BOOL && v > 1)
		return refuse(s, -EINVAL, "extern (kcfg) '%s': value '%s' isn't boolean compatible",
			      s->name, text);
	if (!fits(s, v))
		return refuse(s, -ERANGE, "extern (kcfg) '%s': value '%s' doesn't fit in %u bytes",
			      s->name, text, s->size);
	if (s->size != 1 && s->size != 2 && s->size != 4 && s->size != 8)
		return refuse(s, -EINVAL, "extern (kcfg) '%s': value '%s' has no integer size",
			      s->name, text);
	put_le(s->val, v, s->size);
	return 1;
}

int kconfig_set_num(const struct kconfig_slot *s, uint64_t v)
{
	char text[32];

	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	return set_num(s, v, text);
}

/* 'y', 'n' or 'm' */
static int set_tristate(const struct kconfig_slot *s, const char *v, size_t len)
{
	uint8_t *p = s->val;

	switch (s->type) {
	case KCFG_BOOL:
		if (v[0] == 'm')
			return refuse(s, -EINVAL,
				      "extern (kcfg) '%s': value '%.*s' implies tristate or char type",
				      s->name, (int)len, v);
		*p = v[0] == 'y';
		break;
	case KCFG_TRISTATE:
		put_le(p, v[0] == 'y' ? TRI_YES : v[0] == 'm' ? TRI_MODULE : TRI_NO,
		       s->size < 4 ? s->size : 4);
		break;
	case KCFG_CHAR:
		*p = (uint8_t)v[0];
		break;
	default:
		return refuse(s, -EINVAL,
			      "extern (kcfg) '%s': value '%.*s' implies bool, tristate, or char type",
			      s->name, (int)len, v);
	}
	return 1;
}

/* "quoted", truncated to the array as libbpf does */
static int set_string(const struct kconfig_slot *s, const char *v, size_t len)
{
	if (s->type != KCFG_CHAR_ARR)
		return refuse(s, -EINVAL, "extern (kcfg) '%s': value '%.*s' implies char array type",
			      s->name, (int)len, v);
	if (len < 2 || v[len - 1] != '"') {
		if (s->style == KCONFIG_STYLE_KERNEL)
			return refuse(s, -EINVAL, "extern (kcfg) '%s': invalid string config '%.*s'",
				      s->name, (int)len, v);
		return refuse(s, -EINVAL, "extern (kcfg) '%s': value '%.*s' is an invalid string",
			      s->name, (int)len, v);
	}
	len -= 2;
	if (len >= s->size)
		len = s->size - 1;
	memcpy(s->val, v + 1, len);
	s->val[len] = '\0';
	return 1;
}

static int set_integer(const struct kconfig_slot *s, const char *v, size_t len)
{
	unsigned long long n;
	char *text, *end, shown[32];
	int ret;

	if (s->style == KCONFIG_STYLE_KERNEL && (!len || len >= NUM_MAX_LEN))
		return refuse(s, -EINVAL, "extern (kcfg) '%s': value '%.*s' isn't a valid integer",
			      s->name, (int)len, v);
	text = strndup(v, len);
	if (!text)
		return -ENOMEM;
	errno = 0;
	n = strtoull(text, &end, 0);
	if (errno || *end)
		ret = refuse(s, -EINVAL, "extern (kcfg) '%s': value '%s' isn't a valid integer",
			     s->name, text);
	else if (s->type != KCFG_INT && s->type != KCFG_CHAR)
		ret = refuse(s, -EINVAL, "extern (kcfg) '%s': value '%s' implies integer type",
			     s->name, text);
	else if (s->style == KCONFIG_STYLE_KERNEL) {
		snprintf(shown, sizeof(shown), "%llu", n);
		ret = set_num(s, n, shown);
	} else {
		ret = set_num(s, n, text);
	}
	free(text);
	return ret;
}

int kconfig_set_value(const struct kconfig_slot *s, const char *v, size_t len)
{
	bool tristate = len && (v[0] == 'y' || v[0] == 'n' || v[0] == 'm') &&
			(len == 1 || s->style == KCONFIG_STYLE_LOADER);

	if (tristate)
		return set_tristate(s, v, len);
	if (len && v[0] == '"')
		return set_string(s, v, len);
	return set_integer(s, v, len);
}

/* ------------------------------------------------------------------ */
/* The loader: a config file into the .kconfig map                     */
/* ------------------------------------------------------------------ */

static int loader_refuse(void *ctx, int err, const char *msg)
{
	return ld_problem(ctx, NULL, err, "%s", msg);
}

static struct kconfig_slot loader_slot(struct kcfg *k, const struct ld_extern *e)
{
	return (struct kconfig_slot){
		.name = e->name, .type = e->kcfg_type, .is_signed = e->kcfg_signed,
		.size = e->kcfg_sz, .val = k->data + e->kcfg_off,
		.style = KCONFIG_STYLE_LOADER, .refuse = loader_refuse, .ctx = k->ld,
	};
}

/* A value written marks the extern set; a refusal the lenient loader
 * went on from leaves it unset. */
static int loader_set(struct ld_extern *e, int ret)
{
	if (ret > 0)
		e->is_set = true;
	return ret > 0 ? 0 : ret;
}

static struct ld_extern *kcfg_extern(struct loader *ld, const char *name)
{
	for (size_t i = 0; i < ld->ext_cnt; i++)
		if (ld->exts[i].type == EXT_KCFG && !strcmp(ld->exts[i].name, name))
			return &ld->exts[i];
	return NULL;
}

/* One line of the config; only "CONFIG_NAME=value" lines matter, the
 * first definition of a name wins. */
static int config_line(struct kcfg *k, char *line)
{
	size_t len = strlen(line);
	struct kconfig_slot slot;
	struct ld_extern *e;
	char *eq, *value;

	if (strncmp(line, "CONFIG_", 7))
		return 0;
	if (len && line[len - 1] == '\n')
		line[--len] = '\0';
	eq = strchr(line, '=');
	if (!eq)
		return ld_problem(k->ld, NULL, -EINVAL, "kconfig %s: no '=' in '%s'",
				  k->path, line);
	*eq = '\0';
	value = eq + 1;
	if (!*value)
		return ld_problem(k->ld, NULL, -EINVAL, "kconfig %s: no value for %s",
				  k->path, line);
	e = kcfg_extern(k->ld, line);
	if (!e || e->is_set)
		return 0;
	slot = loader_slot(k, e);
	return loader_set(e, kconfig_set_value(&slot, value, strlen(value)));
}

static int read_config(struct kcfg *k)
{
	char line[LINE_MAX_LEN];
	gzFile f = gzopen(k->path, "rb");	/* reads plain files too */
	int err = 0;

	if (!f)
		return ld_problem(k->ld, NULL, errno ? -errno : -ENOENT,
				  "cannot read kernel config %s: %s", k->path,
				  strerror(errno ? errno : ENOENT));
	while (!err && gzgets(f, line, sizeof(line)))
		err = config_line(k, line);
	gzclose(f);
	return err;
}

/* LINUX_* names are libbpf's own; unknown ones are 0 when weak. */
static int virtual_value(struct kcfg *k, struct ld_extern *e, uint32_t kernel_version)
{
	struct kconfig_slot slot = loader_slot(k, e);
	uint64_t v;

	if (!strcmp(e->name, "LINUX_KERNEL_VERSION")) {
		if (!kernel_version)
			return 0;	/* unknown: the map stays unknown */
		v = kernel_version;
	} else if (!strcmp(e->name, "LINUX_HAS_BPF_COOKIE")) {
		v = 1;	/* true on Linux 6.18 */
	} else if (!strcmp(e->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
		v = !k->ld->no_syscall_wrapper;	/* x86-64 has one; libbpf may not see it */
	} else if (!strncmp(e->name, "LINUX_", 6) && e->weak) {
		v = 0;
	} else {
		return ld_problem(k->ld, NULL, -EINVAL,
				  "extern (kcfg) '%s': unrecognized virtual extern", e->name);
	}
	return loader_set(e, kconfig_set_num(&slot, v));
}

static int resolve_all(struct kcfg *k, uint32_t kernel_version)
{
	struct loader *ld = k->ld;
	bool need_config = false;
	int err;

	for (size_t i = 0; i < ld->ext_cnt; i++) {
		struct ld_extern *e = &ld->exts[i];

		if (e->type != EXT_KCFG)
			continue;
		if (!strncmp(e->name, "CONFIG_", 7)) {
			need_config = true;
			continue;
		}
		err = virtual_value(k, e, kernel_version);
		if (err)
			return err;
	}
	if (!need_config || !k->path)
		return 0;
	err = read_config(k);
	for (size_t i = 0; !err && i < ld->ext_cnt; i++) {
		struct ld_extern *e = &ld->exts[i];

		if (e->type != EXT_KCFG || e->is_set || strncmp(e->name, "CONFIG_", 7))
			continue;
		if (e->weak)
			e->is_set = true;	/* stays 0 */
		else
			err = ld_problem(ld, NULL, -ESRCH, "extern '%s' (strong): not resolved",
					 e->name);
	}
	return err;
}

/* Bytes of values not given stay unknown to the verifier; NULL when all
 * are known. */
static int known_mask(struct loader *ld, uint32_t size, uint8_t **maskp)
{
	uint8_t *mask = NULL;

	*maskp = NULL;
	for (size_t i = 0; i < ld->ext_cnt; i++) {
		const struct ld_extern *e = &ld->exts[i];

		if (e->type != EXT_KCFG || e->is_set)
			continue;
		if (!mask) {
			mask = malloc(size);
			if (!mask)
				return errbuf_set(ld->eb, -ENOMEM, "out of memory");
			memset(mask, 1, size);
		}
		memset(mask + e->kcfg_off, 0, e->kcfg_sz);
	}
	*maskp = mask;
	return 0;
}

static bool has_typed_ksym_var(const struct loader *ld)
{
	for (size_t i = 0; i < ld->ext_cnt; i++)
		if (ld->exts[i].type == EXT_KSYM && !ld->exts[i].is_func && ld->exts[i].type_id)
			return true;
	return false;
}

/* CONFIG_KALLSYMS_ALL of the target, read only for objects with typed
 * ksym variables: the kernel finds their address in kallsyms, which
 * lists data symbols only with it. */
void kconfig_target_facts(struct loader *ld, const char *path)
{
	static const char opt[] = "CONFIG_KALLSYMS_ALL=";
	char line[LINE_MAX_LEN];
	gzFile f;

	if (!path || !has_typed_ksym_var(ld) || !(f = gzopen(path, "rb")))
		return;
	ld->obj->targ_data_syms = -1;
	while (gzgets(f, line, sizeof(line)))
		if (!strncmp(line, opt, sizeof(opt) - 1) && line[sizeof(opt) - 1] == 'y')
			ld->obj->targ_data_syms = 1;
	gzclose(f);
}

/* A config line "CONFIG_X=y" gives 1, "# CONFIG_X is not set" -1, any
 * other line 0 (the caller keeps what it had). */
static int config_switch(const char *line, const char *opt)
{
	size_t n = strlen(opt);

	if (!strncmp(line, opt, n) && !strncmp(line + n, "=y", 2))
		return 1;
	if (!strncmp(line, "# ", 2) && !strncmp(line + 2, opt, n) &&
	    !strncmp(line + 2 + n, " is not set", strlen(" is not set")))
		return -1;
	return 0;
}

/* The target's switches that decide what the kernel allows beyond the
 * verifier's rules: its error injection list (attach of sleepable and
 * fmod_ret programs) and a lockdown forced at boot (bpf_probe_write_user).
 * Only a config that names them answers: one that does not may be
 * partial. */
void kconfig_target_switches(struct loader *ld, const char *path)
{
	char line[LINE_MAX_LEN];
	gzFile f;
	int v;

	if (!path || !(f = gzopen(path, "rb")))
		return;
	while (gzgets(f, line, sizeof(line))) {
		if ((v = config_switch(line, "CONFIG_FUNCTION_ERROR_INJECTION")))
			ld->obj->targ_error_injection = v;
		else if ((v = config_switch(line, "CONFIG_LOCK_DOWN_KERNEL_FORCE_NONE")) > 0)
			ld->obj->targ_lockdown = -1;
		else if (config_switch(line, "CONFIG_LOCK_DOWN_KERNEL_FORCE_INTEGRITY") > 0 ||
			 config_switch(line, "CONFIG_LOCK_DOWN_KERNEL_FORCE_CONFIDENTIALITY") > 0)
			ld->obj->targ_lockdown = 1;
	}
	gzclose(f);
}

int kconfig_fill(struct loader *ld, const char *path, uint32_t kernel_version)
{
	struct bpfvet_map *m;
	struct kcfg k = { .ld = ld, .path = path };
	size_t warnings = ld->obj->warning_cnt;
	int err;

	if (ld->kconfig_map < 0)
		return 0;
	m = &ld->obj->maps[ld->kconfig_map];
	k.data = calloc(1, m->value_size ? m->value_size : 1);
	if (!k.data)
		return errbuf_set(ld->eb, -ENOMEM, "out of memory");
	err = resolve_all(&k, kernel_version);
	if (!err && ld->obj->warning_cnt > warnings) {
		/* lenient: libbpf would refuse the object; show no values */
		m->problem = ld->obj->warnings[warnings];
	} else if (!err) {
		err = known_mask(ld, m->value_size, &m->init_known);
		if (!err) {
			m->init_data = k.data;
			m->init_size = m->value_size;
			m->frozen = true;
			k.data = NULL;
		}
	}
	free(k.data);
	return err;
}
