/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Object lifecycle and public accessors. Opening runs libbpf's steps in
 * libbpf's order, each in its own file (see steps.h), on a private copy
 * of the bytes; the result owns copies of everything it exposes.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/btf.h>
#include <bpf/libbpf.h>

#include "base/base.h"
#include "steps.h"
#include "progtype.h"

#define OBJ_NAME_MAX 15			/* libbpf keeps BPF_OBJ_NAME_LEN - 1 */
#define MAX_FILE_SIZE (256ULL << 20)	/* far above any real BPF object */

/* Options structs may come from newer callers: bytes past the fields we
 * know must be zero (libbpf's rule). */
bool opts_valid(const void *opts, size_t known)
{
	const char *p = opts;
	size_t sz, i;

	if (!opts)
		return true;
	memcpy(&sz, opts, sizeof(sz));
	if (sz < sizeof(size_t))
		return false;
	for (i = known; i < sz; i++)
		if (p[i])
			return false;
	return true;
}

void prog_free_contents(struct bpfvet_program *prog)
{
	size_t i;

	free(prog->name);
	free(prog->sec_name);
	free(prog->attach_target);
	free(prog->insns);
	free(prog->insn_flags);
	for (i = 0; i < prog->subprog_cnt; i++)
		free(prog->subprogs[i].name);
	free(prog->subprogs);
	for (i = 0; i < prog->extern_cnt; i++)
		free(prog->externs[i].name);
	free(prog->externs);
	free(prog->func_info);
	free(prog->line_info);
	free(prog->core_relos);
	free(prog->ksym_refs);
	for (i = 0; i < prog->raw_map_cnt; i++)
		maps_free_one(&prog->raw_maps[i]);
	free(prog->raw_maps);
	free(prog->raw_license);
	memset(prog, 0, sizeof(*prog));
}

void bpfvet_object__close(struct bpfvet_object *obj)
{
	size_t i;

	if (!obj)
		return;
	for (i = 0; i < obj->prog_cnt; i++)
		prog_free_contents(&obj->progs[i]);
	free(obj->progs);
	for (i = 0; i < obj->map_cnt; i++)
		maps_free_one(&obj->maps[i]);
	free(obj->maps);
	btf__free(obj->btf);
	target_put(obj->target);
	free(obj->btf_data);
	free(obj->btf_ext_data);
	free(obj->name);
	free(obj->license);
	free(obj->conv_reason);
	problems_free(obj);
	free(obj);
}

/* libbpf's object name: the file's base name up to its first dot. */
static char *object_name(const char *path)
{
	const char *base = strrchr(path, '/');
	size_t len;

	base = base ? base + 1 : path;
	len = strcspn(base, ".");
	if (len > OBJ_NAME_MAX)
		len = OBJ_NAME_MAX;
	return strndup(base, len);
}

static int resolve_prog_type(struct loader *ld, const char *name)
{
	struct sec_type st;
	uint32_t type;

	if (!name)
		return 0;
	ld->have_override = true;
	if (!bpfvet_prog_type_by_name(name, &type)) {
		ld->override_type = type;
		return 0;
	}
	if (progtype_from_section(name, &st)) {
		ld->override_from_sec = true;
		ld->override_type = st.prog_type;
		ld->override_attach = st.expected_attach_type;
		ld->override_flags = st.prog_flags;
		return 0;
	}
	return errbuf_set(ld->eb, -EINVAL, "unknown program type '%s'", name);
}

static void loader_free(struct loader *ld)
{
	size_t i;

	funcs_free(ld);
	externs_free(ld);
	btf_ext_free(ld);
	for (i = 0; i < ld->inner_cnt; i++)
		maps_free_one(&ld->inner[i]);
	free(ld->inner);
	free(ld->inner_outer);
	free(ld->legacy);
	free(ld->st_slots);
	free(ld->sec_kind);
	elf_file_close(&ld->elf);
}

/* The object's reference to its target: the caller's shared one, or one
 * of its own read from btf_custom_path. The loader borrows its BTF for
 * CO-RE. */
static int take_target(struct loader *ld, const struct bpfvet_open_opts *opts)
{
	const char *path = OPTS_HAS(opts, btf_custom_path) ? opts->btf_custom_path : NULL;
	struct bpfvet_target *shared = OPTS_HAS(opts, target) ? opts->target : NULL;
	int err = 0;

	if (shared && path)
		return errbuf_set(ld->eb, -EINVAL, "both a target and a target BTF path");
	if (shared)
		ld->obj->target = target_get(shared);
	else if (path)
		err = target_open(path, ld->eb, &ld->obj->target);
	if (ld->obj->target) {
		ld->targ_btf = ld->obj->target->btf;
		ld->obj->targ_btf = ld->obj->target->btf;
		ld->obj->targ_index = ld->obj->target->index;
	}
	return err;
}

/* Number of CPUs listed in /sys/devices/system/cpu/possible ("0-3,8"),
 * as libbpf counts them; 1 when it cannot be read. */
static uint32_t host_possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");
	unsigned int a, b;
	uint32_t n = 0;
	int c = ',';

	if (!f)
		return 1;
	while (c == ',' && fscanf(f, "%u", &a) == 1) {
		b = a;
		c = fgetc(f);
		if (c == '-') {
			if (fscanf(f, "%u", &b) != 1 || b < a)
				break;
			c = fgetc(f);
		}
		n += b - a + 1;
	}
	fclose(f);
	return n ? n : 1;
}

struct open_params {
	const char *kconfig_path;
	uint32_t kernel_version;
	const char *kallsyms_path;
	enum bpfvet_conventions conventions;
	uint32_t loader_drop_caps;
	uint32_t verifier_rules;
};

static int load_steps(struct loader *ld, const struct open_params *op,
		      const void *buf, size_t size)
{
	int err;

	err = elf_file_open(&ld->elf, buf, size, ld->eb);
	if (!err)
		err = sections_classify(ld);
	if (!err)
		err = conventions_choose(ld, op->conventions);
	if (!err)
		err = sections_collect_funcs(ld);
	if (!err)
		err = btf_open(ld);
	if (!err) {
		btf_ext_parse(ld);
		err = externs_collect(ld);
	}
	if (!err)
		err = btf_fixup_externs(ld);
	if (!err)
		err = btf_fixup_datasecs(ld);
	if (!err)
		err = maps_init(ld);
	if (!err)
		err = kconfig_fill(ld, op->kconfig_path, op->kernel_version);
	ld->obj->target_kver = op->kernel_version;
	ld->obj->verifier_rules = op->verifier_rules;
	if (!err)
		kconfig_target_facts(ld, op->kconfig_path);
	if (!err)
		kconfig_target_switches(ld, op->kconfig_path);
	if (!err)
		err = kallsyms_fill(ld, op->kallsyms_path);
	if (!err)
		err = relos_collect(ld);
	if (!err)
		err = maps_link(ld);
	if (!err)
		err = btf_finalize(ld);
	if (!err)
		err = core_apply(ld, ld->targ_btf);
	if (!err)
		err = progs_build(ld);
	if (!err)
		err = conventions_types(ld);
	if (!err)
		err = externs_check(ld);
	if (!err)
		err = maps_check_target(ld);
	if (!err)
		err = attach_check(ld);
	if (!err) {
		struct_ops_assign(ld);
		maps_resolve_inner(ld->obj->maps, ld->obj->map_cnt);
		err = struct_ops_resolve(ld);
	}
	if (!err)
		err = loader_caps_apply(ld, op->loader_drop_caps);
	return err;
}

static int open_copy(void *buf, size_t size, const char *name,
		     const struct bpfvet_open_opts *opts, struct errbuf *eb,
		     struct bpfvet_object **objp)
{
	struct loader ld = { .eb = eb, .kconfig_map = -1, .arena_map = -1 };
	struct open_params op = {
		.kconfig_path = OPTS_HAS(opts, kconfig_path) ? opts->kconfig_path : NULL,
		.kernel_version = OPTS_HAS(opts, kernel_version) ? opts->kernel_version : 0,
		.kallsyms_path = OPTS_HAS(opts, kallsyms_path) ? opts->kallsyms_path : NULL,
		.conventions = OPTS_HAS(opts, conventions) ? opts->conventions :
			       BPFVET_CONV_AUTO,
		.loader_drop_caps = OPTS_HAS(opts, loader_drop_caps) ? opts->loader_drop_caps : 0,
		.verifier_rules = OPTS_HAS(opts, verifier_rules) ? opts->verifier_rules : 0,
	};
	struct bpfvet_object *obj;
	int err;

	if (op.verifier_rules & ~(uint32_t)BPFVET_RULES_ALL)
		return errbuf_set(eb, -EINVAL, "unknown verifier rules 0x%x",
				  op.verifier_rules & ~(uint32_t)BPFVET_RULES_ALL);
	obj = calloc(1, sizeof(*obj));
	if (!obj)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	ld.obj = obj;
	ld.lenient = OPTS_HAS(opts, lenient) && opts->lenient;
	ld.no_syscall_wrapper = OPTS_HAS(opts, no_syscall_wrapper) && opts->no_syscall_wrapper;
	ld.nr_cpus = OPTS_HAS(opts, nr_cpus) && opts->nr_cpus ? opts->nr_cpus :
		     host_possible_cpus();
	obj->name = object_name(name);
	obj->license = strdup("");
	if (!obj->name || !obj->license)
		err = errbuf_set(eb, -ENOMEM, "out of memory");
	else
		err = resolve_prog_type(&ld, OPTS_HAS(opts, prog_type) ?
					opts->prog_type : NULL);
	if (!err)
		err = take_target(&ld, opts);
	if (!err)
		err = load_steps(&ld, &op, buf, size);
	loader_free(&ld);
	if (err) {
		errbuf_default(eb, err);
		bpfvet_object__close(obj);
		return err;
	}
	*objp = obj;
	return 0;
}

static void init_errbuf(struct errbuf *eb, const struct bpfvet_open_opts *opts)
{
	if (OPTS_HAS(opts, errbuf_sz))
		errbuf_init(eb, opts->errbuf, opts->errbuf_sz);
	else
		errbuf_init(eb, NULL, 0);
}

int bpfvet_object__open_mem(const void *buf, size_t size, const char *name,
			    const struct bpfvet_open_opts *opts,
			    struct bpfvet_object **objp)
{
	struct errbuf eb;
	void *copy;
	int err;

	if (!objp)
		return -EINVAL;
	*objp = NULL;
	if (!opts_valid(opts, sizeof(*opts)))
		return -EINVAL;
	init_errbuf(&eb, opts);
	if (!buf || !size)
		return errbuf_set(&eb, -EINVAL, "empty buffer");
	/* libelf reads the image in place: a private, aligned copy keeps
	 * the caller's buffer out of it. */
	copy = malloc(size);
	if (!copy)
		return errbuf_set(&eb, -ENOMEM, "out of memory");
	memcpy(copy, buf, size);
	err = open_copy(copy, size, name ? name : "mem", opts, &eb, objp);
	free(copy);
	return err;
}

static int read_file(const char *path, void **bufp, size_t *sizep,
		     struct errbuf *eb)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = NULL, *nb;
	ssize_t n;
	int fd, err = 0;

	struct stat st;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errbuf_set(eb, -errno, "%s", strerror(errno));
	/* Refuse a huge regular file before reading it; other files (pipes,
	 * devices) are read up to the same bound. */
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size > MAX_FILE_SIZE) {
		close(fd);
		return errbuf_set(eb, -EFBIG, "file is too large");
	}
	for (;;) {
		if (!buf || len == cap) {
			if (buf)
				cap *= 2;
			if (cap > MAX_FILE_SIZE) {
				err = errbuf_set(eb, -EFBIG, "file is too large");
				break;
			}
			nb = realloc(buf, cap);
			if (!nb) {
				err = errbuf_set(eb, -ENOMEM, "out of memory");
				break;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errbuf_set(eb, -errno, "%s", strerror(errno));
			break;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	if (!err && len == 0)
		err = errbuf_set(eb, -EINVAL, "empty file");
	if (err) {
		free(buf);
		return err;
	}
	*bufp = buf;
	*sizep = len;
	return 0;
}

int bpfvet_object__open(const char *path, const struct bpfvet_open_opts *opts,
			struct bpfvet_object **objp)
{
	struct errbuf eb;
	size_t size;
	void *buf;
	int err;

	if (!objp)
		return -EINVAL;
	*objp = NULL;
	if (!path || !opts_valid(opts, sizeof(*opts)))
		return -EINVAL;
	init_errbuf(&eb, opts);
	err = read_file(path, &buf, &size, &eb);
	if (err)
		return err;
	err = open_copy(buf, size, path, opts, &eb, objp);
	free(buf);
	return err;
}

/* ------------------------------------------------------------------ */
/* Accessors                                                           */
/* ------------------------------------------------------------------ */

const char *bpfvet_object__name(const struct bpfvet_object *obj)
{
	return obj ? obj->name : NULL;
}

const char *bpfvet_object__license(const struct bpfvet_object *obj)
{
	return obj ? obj->license : NULL;
}

uint32_t bpfvet_object__kversion(const struct bpfvet_object *obj)
{
	return obj ? obj->kversion : 0;
}

size_t bpfvet_object__map_cnt(const struct bpfvet_object *obj)
{
	return obj ? obj->map_cnt : 0;
}

const struct bpfvet_map *bpfvet_object__map(const struct bpfvet_object *obj,
					    size_t idx)
{
	return obj && idx < obj->map_cnt ? &obj->maps[idx] : NULL;
}

size_t bpfvet_object__prog_cnt(const struct bpfvet_object *obj)
{
	return obj ? obj->prog_cnt : 0;
}

struct bpfvet_program *bpfvet_object__prog(const struct bpfvet_object *obj,
					   size_t idx)
{
	return obj && idx < obj->prog_cnt ? &obj->progs[idx] : NULL;
}

enum bpfvet_conventions bpfvet_object__conventions(const struct bpfvet_object *obj)
{
	return obj ? obj->conv : BPFVET_CONV_LIBBPF;
}

const char *bpfvet_object__conventions_reason(const struct bpfvet_object *obj)
{
	return obj && obj->conv_reason ? obj->conv_reason : "";
}

size_t bpfvet_object__warning_cnt(const struct bpfvet_object *obj)
{
	return obj ? obj->warning_cnt : 0;
}

const char *bpfvet_object__warning(const struct bpfvet_object *obj, size_t idx)
{
	return obj && idx < obj->warning_cnt ? obj->warnings[idx] : NULL;
}

const char *bpfvet_map__name(const struct bpfvet_map *map)
{
	return map->name;
}

uint32_t bpfvet_map__type(const struct bpfvet_map *map)
{
	return map->type;
}

uint32_t bpfvet_map__key_size(const struct bpfvet_map *map)
{
	return map->key_size;
}

uint32_t bpfvet_map__value_size(const struct bpfvet_map *map)
{
	return map->value_size;
}

uint32_t bpfvet_map__max_entries(const struct bpfvet_map *map)
{
	return map->max_entries;
}

uint32_t bpfvet_map__flags(const struct bpfvet_map *map)
{
	return map->flags;
}

enum bpfvet_map_origin bpfvet_map__origin(const struct bpfvet_map *map)
{
	return map->origin;
}

const struct bpfvet_map *bpfvet_map__inner(const struct bpfvet_map *map)
{
	return map->inner;
}

const void *bpfvet_map__initial_value(const struct bpfvet_map *map, size_t *size)
{
	if (size)
		*size = map->init_data ? map->init_size : 0;
	return map->init_data;
}

const char *bpfvet_map__problem(const struct bpfvet_map *map)
{
	return map->problem;
}

const char *bpfvet_program__name(const struct bpfvet_program *prog)
{
	return prog->name;
}

const char *bpfvet_program__section(const struct bpfvet_program *prog)
{
	return prog->sec_name;
}

uint32_t bpfvet_program__type(const struct bpfvet_program *prog)
{
	return prog->type;
}

uint32_t bpfvet_program__expected_attach_type(const struct bpfvet_program *prog)
{
	return prog->expected_attach_type;
}

uint32_t bpfvet_program__flags(const struct bpfvet_program *prog)
{
	return prog->prog_flags;
}

const struct bpfvet_insn *bpfvet_program__insns(const struct bpfvet_program *prog,
					       size_t *cnt)
{
	if (cnt)
		*cnt = prog->insn_cnt;
	return prog->insns;
}

const char *bpfvet_program__problem(const struct bpfvet_program *prog)
{
	return prog->problem;
}

size_t bpfvet_program__func_cnt(const struct bpfvet_program *prog)
{
	return prog->subprog_cnt;
}

uint32_t bpfvet_program__target_version(const struct bpfvet_program *prog)
{
	return prog->obj ? prog->obj->target_kver : 0;
}

int bpfvet_program__func(const struct bpfvet_program *prog, size_t idx,
			 struct bpfvet_func *func)
{
	const struct bpfvet_subprog *sp;

	if (idx >= prog->subprog_cnt)
		return -ERANGE;
	sp = &prog->subprogs[idx];
	func->name = sp->name;
	func->insn_off = (uint32_t)sp->start;
	func->insn_cnt = (uint32_t)sp->len;
	func->global = sp->global;
	return 0;
}
