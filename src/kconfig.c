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
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "loader.h"

#define LINE_MAX_LEN 4096	/* longer lines are read in pieces, as libbpf does */

/* libbpf's enum libbpf_tristate */
enum { TRI_NO = 0, TRI_YES = 1, TRI_MODULE = 2 };

struct kcfg {
	struct loader *ld;
	uint8_t *data;		/* the .kconfig map value */
	const char *path;
};

static int bad_value(struct kcfg *k, const struct ld_extern *e, const char *why,
		     const char *value)
{
	return ld_problem(k->ld, NULL, -EINVAL, "extern (kcfg) '%s': value '%s' %s",
			  e->name, value, why);
}

static void put_le(uint8_t *p, uint64_t v, uint32_t sz)
{
	for (uint32_t i = 0; i < sz; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* Does v fit in the extern's integer without loss? */
static bool fits(const struct ld_extern *e, uint64_t v)
{
	uint32_t bits = e->kcfg_sz * 8;

	if (e->kcfg_sz == 8)
		return true;
	if (e->kcfg_signed)
		return v + (1ull << (bits - 1)) < (1ull << bits);
	return (v >> bits) == 0;
}

static int set_num(struct kcfg *k, struct ld_extern *e, uint64_t v, const char *text)
{
	if (e->kcfg_type != KCFG_INT && e->kcfg_type != KCFG_CHAR &&
	    e->kcfg_type != KCFG_BOOL)
		return bad_value(k, e, "implies integer, char, or boolean type", text);
	if (e->kcfg_type == KCFG_BOOL && v > 1)
		return bad_value(k, e, "isn't boolean compatible", text);
	if (!fits(e, v))
		return ld_problem(k->ld, NULL, -ERANGE,
				  "extern (kcfg) '%s': value '%s' doesn't fit in %u bytes",
				  e->name, text, e->kcfg_sz);
	if (e->kcfg_sz != 1 && e->kcfg_sz != 2 && e->kcfg_sz != 4 && e->kcfg_sz != 8)
		return bad_value(k, e, "has no integer size", text);
	put_le(k->data + e->kcfg_off, v, e->kcfg_sz);
	e->is_set = true;
	return 0;
}

/* 'y', 'n' or 'm' */
static int set_tristate(struct kcfg *k, struct ld_extern *e, char c, const char *text)
{
	uint8_t *p = k->data + e->kcfg_off;

	switch (e->kcfg_type) {
	case KCFG_BOOL:
		if (c == 'm')
			return bad_value(k, e, "implies tristate or char type", text);
		*p = c == 'y';
		break;
	case KCFG_TRISTATE:
		put_le(p, c == 'y' ? TRI_YES : c == 'm' ? TRI_MODULE : TRI_NO, 4);
		break;
	case KCFG_CHAR:
		*p = (uint8_t)c;
		break;
	default:
		return bad_value(k, e, "implies bool, tristate, or char type", text);
	}
	e->is_set = true;
	return 0;
}

/* "quoted", truncated to the array as libbpf does */
static int set_string(struct kcfg *k, struct ld_extern *e, const char *text)
{
	size_t len = strlen(text);

	if (e->kcfg_type != KCFG_CHAR_ARR)
		return bad_value(k, e, "implies char array type", text);
	if (len < 2 || text[len - 1] != '"')
		return bad_value(k, e, "is an invalid string", text);
	len -= 2;
	if (len >= e->kcfg_sz)
		len = e->kcfg_sz - 1;
	memcpy(k->data + e->kcfg_off, text + 1, len);
	k->data[e->kcfg_off + len] = '\0';
	e->is_set = true;
	return 0;
}

static int set_integer(struct kcfg *k, struct ld_extern *e, const char *text)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || *end)
		return bad_value(k, e, "isn't a valid integer", text);
	if (e->kcfg_type != KCFG_INT && e->kcfg_type != KCFG_CHAR)
		return bad_value(k, e, "implies integer type", text);
	return set_num(k, e, v, text);
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
	switch (value[0]) {
	case 'y':
	case 'n':
	case 'm':
		return set_tristate(k, e, value[0], value);
	case '"':
		return set_string(k, e, value);
	default:
		return set_integer(k, e, value);
	}
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
	char text[32];
	uint64_t v;

	if (!strcmp(e->name, "LINUX_KERNEL_VERSION")) {
		if (!kernel_version)
			return 0;	/* unknown: the map stays unknown */
		v = kernel_version;
	} else if (!strcmp(e->name, "LINUX_HAS_BPF_COOKIE") ||
		   !strcmp(e->name, "LINUX_HAS_SYSCALL_WRAPPER")) {
		v = 1;	/* both true on Linux 6.18, x86-64 */
	} else if (!strncmp(e->name, "LINUX_", 6) && e->weak) {
		v = 0;
	} else {
		return ld_problem(k->ld, NULL, -EINVAL,
				  "extern (kcfg) '%s': unrecognized virtual extern", e->name);
	}
	snprintf(text, sizeof(text), "%llu", (unsigned long long)v);
	return set_num(k, e, v, text);
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
