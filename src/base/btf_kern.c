/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Reading the target kernel's BTF the way the kernel's verifier does
 * (btf_kern.h). libbpf's own helpers differ in small ways that matter
 * here: the kernel counts typedefs as modifiers when it skips them, and
 * sizes arrays of arrays as one flat array.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <bpf/btf.h>

#include "btf_index.h"
#include "btf_kern.h"
#include "uapi.h"

/* The kernel gives up after this many hops through modifiers. */
#define RESOLVE_DEPTH 32
#define ATTACH_NAME_MAX 128	/* libbpf's limit for prefix + name */

const char *kbtf_kind_str(const struct btf_type *t)
{
	static const char *const names[] = {
		"UNKNOWN", "INT", "PTR", "ARRAY", "STRUCT", "UNION", "ENUM", "FWD",
		"TYPEDEF", "VOLATILE", "CONST", "RESTRICT", "FUNC", "FUNC_PROTO",
		"VAR", "DATASEC", "FLOAT", "DECL_TAG", "TYPE_TAG", "ENUM64",
	};
	unsigned int k = t ? btf_kind(t) : 0;

	return k < sizeof(names) / sizeof(names[0]) ? names[k] : "UNKNOWN";
}

const char *kbtf_name(const struct btf *btf, uint32_t id)
{
	const struct btf_type *t = btf ? btf__type_by_id(btf, id) : NULL;
	const char *name = t ? btf__name_by_offset(btf, t->name_off) : NULL;

	return name ? name : "";
}

const char *kbtf_msg_name(const struct btf *btf, uint32_t name_off)
{
	const char *name;

	if (!name_off)
		return "(anon)";
	name = btf__name_by_offset(btf, name_off);
	return name ? name : "(invalid-name-offset)";
}

bool kbtf_is_modifier(const struct btf_type *t)
{
	switch (btf_kind(t)) {
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_TYPE_TAG:
		return true;
	default:
		return false;
	}
}

const struct btf_type *kbtf_skip_mods(const struct btf *btf, uint32_t id,
				      uint32_t *res_id)
{
	const struct btf_type *t = btf__type_by_id(btf, id);

	for (int depth = 0; t && depth < RESOLVE_DEPTH; depth++) {
		if (!kbtf_is_modifier(t)) {
			if (res_id)
				*res_id = id;
			return t;
		}
		id = t->type;
		t = btf__type_by_id(btf, id);
	}
	return NULL;
}

bool kbtf_is_small_int(const struct btf_type *t)
{
	return btf_is_int(t) && t->size <= 8;
}

bool kbtf_is_struct(const struct btf_type *t)
{
	return btf_is_struct(t) || btf_is_union(t);
}

static bool has_size(const struct btf_type *t, uint32_t *size)
{
	switch (btf_kind(t)) {
	case BTF_KIND_INT:
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
	case BTF_KIND_ENUM:
	case BTF_KIND_FLOAT:
	case BTF_KIND_ENUM64:
		*size = t->size;
		return true;
	case BTF_KIND_PTR:
		*size = 8;
		return true;
	default:
		return false;
	}
}

const struct btf_type *kbtf_resolve_size(const struct btf *btf, const struct btf_type *t,
					 struct kbtf_size *out)
{
	const struct btf_type *outer = NULL;
	uint32_t nelems = 1, size = 0, id = 0, elem_id = 0;

	for (int depth = 0; t && depth < RESOLVE_DEPTH; depth++) {
		if (has_size(t, &size)) {
			if (nelems && size > UINT32_MAX / nelems)
				return NULL;
			out->size = nelems * size;
			out->nelems = nelems;
			out->elem = t;
			out->elem_id = elem_id;
			out->type_id = id;
			return outer ? outer : t;
		}
		if (kbtf_is_modifier(t)) {
			id = t->type;
			t = btf__type_by_id(btf, t->type);
		} else if (btf_is_array(t)) {
			const struct btf_array *a = btf_array(t);

			if (!outer)
				outer = t;
			if (nelems && a->nelems > UINT32_MAX / nelems)
				return NULL;
			nelems *= a->nelems;
			elem_id = a->type;
			t = btf__type_by_id(btf, a->type);
		} else {
			return NULL;
		}
	}
	return NULL;
}

static void attach_prefix(uint32_t attach_type, const char **prefix, int *kind)
{
	*prefix = "";
	*kind = BTF_KIND_FUNC;
	switch (attach_type) {
	case BPF_TRACE_RAW_TP:
		*prefix = "btf_trace_";
		*kind = BTF_KIND_TYPEDEF;
		break;
	case BPF_LSM_MAC:
	case BPF_LSM_CGROUP:
		*prefix = "bpf_lsm_";
		break;
	case BPF_TRACE_ITER:
		*prefix = "bpf_iter_";
		break;
	default:
		break;
	}
}

int kbtf_attach_find(const struct btf *btf, const struct btf_index *ix, const char *target,
		     uint32_t attach_type)
{
	static const char vmlinux[] = "vmlinux";
	const char *prefix, *colon = strchr(target, ':');
	char name[ATTACH_NAME_MAX];
	int kind, n;

	if (colon) {
		if ((size_t)(colon - target) != strlen(vmlinux) ||
		    strncmp(target, vmlinux, strlen(vmlinux)))
			return -ESRCH;	/* a module's function */
		target = colon + 1;
	}
	attach_prefix(attach_type, &prefix, &kind);
	n = snprintf(name, sizeof(name), "%s%s", prefix, target);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	n = btf_index_find(ix, btf, name, kind);
	return n == -ENOENT ? -ESRCH : n;
}

int kbtf_find_essential(const struct btf *btf, const struct btf_index *ix, const char *name,
			int kind)
{
	const char *flavor = strstr(name, "___");
	char buf[256];
	int n;

	if (flavor) {
		n = snprintf(buf, sizeof(buf), "%.*s", (int)(flavor - name), name);
		if (n < 0 || (size_t)n >= sizeof(buf))
			return -ENOENT;
		name = buf;
	}
	n = btf_index_find(ix, btf, name, (uint32_t)kind);
	return n > 0 ? n : -ENOENT;
}
