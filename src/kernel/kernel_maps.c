/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Real maps for one program load, created from our definitions the way
 * libbpf creates them:
 *  - BTF key/value type ids when the object's BTF was loaded, except for
 *    the map types whose kernel side refuses them (libbpf's list), and a
 *    second attempt without BTF when the first one fails;
 *  - perf event arrays without max_entries get one slot per possible CPU;
 *  - map-in-map: the inner template is created first and passed as
 *    inner_map_fd; maps named in `.values` are created and inserted;
 *  - global data: .data/.rodata contents and the .kconfig values are
 *    written, .rodata and .kconfig are then frozen, so that the verifier
 *    knows their contents (BPF_F_RDONLY_PROG + BPF_MAP_FREEZE);
 *  - arena: mapped and given its initial data.
 *
 * Differences from libbpf, on purpose: only the maps the program uses are
 * created (so an unrelated map the kernel cannot create does not refuse
 * the program), nothing is pinned or reused from bpffs, and prog-array
 * slots stay empty (their contents do not matter to the verifier).
 * Every load gets fresh maps, as when veristat loads one program.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "kernel_load.h"
#include "kernel_sys.h"
#include "base/uapi.h"

#define MAX_NESTING 4	/* outer -> inner template -> ... */

static bool is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

/* libbpf drops BTF type ids for these types: the kernel cannot use them
 * (or rejects them) there. */
static bool btf_ids_dropped(uint32_t type)
{
	switch (type) {
	case BPF_MAP_TYPE_PERF_EVENT_ARRAY:
	case BPF_MAP_TYPE_CGROUP_ARRAY:
	case BPF_MAP_TYPE_STACK_TRACE:
	case BPF_MAP_TYPE_ARRAY_OF_MAPS:
	case BPF_MAP_TYPE_HASH_OF_MAPS:
	case BPF_MAP_TYPE_DEVMAP:
	case BPF_MAP_TYPE_DEVMAP_HASH:
	case BPF_MAP_TYPE_CPUMAP:
	case BPF_MAP_TYPE_XSKMAP:
	case BPF_MAP_TYPE_SOCKMAP:
	case BPF_MAP_TYPE_SOCKHASH:
	case BPF_MAP_TYPE_QUEUE:
	case BPF_MAP_TYPE_STACK:
	case BPF_MAP_TYPE_ARENA:
		return true;
	default:
		return false;
	}
}

static size_t page_size(void)
{
	long sz = sysconf(_SC_PAGESIZE);

	return sz > 0 ? (size_t)sz : 4096;
}

static int find_by_name(const struct kload *kl, const char *name)
{
	for (size_t i = 0; i < kl->map_cnt; i++)
		if (kl->maps[i].name && !strcmp(kl->maps[i].name, name))
			return (int)i;
	return -1;
}

static int fill_attr(struct kload *kl, const struct bpfvet_map *m,
		     struct ksys_map_create *attr)
{
	int cpus;

	memset(attr, 0, sizeof(*attr));
	attr->map_type = m->type;
	attr->key_size = m->key_size;
	attr->value_size = m->value_size;
	attr->max_entries = m->max_entries;
	attr->map_flags = m->flags;
	attr->map_extra = m->map_extra;
	if (m->flags & BPF_F_NUMA_NODE)
		attr->numa_node = m->numa_node;
	/* The kernel keeps 15 characters of a name. */
	strncpy(attr->map_name, m->name ? m->name : "", KSYS_OBJ_NAME_LEN - 1);
	if (!m->max_entries && m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY) {
		/* libbpf: one slot per possible CPU. */
		cpus = kfacts_cpus(kl->k);
		if (cpus < 0)
			return kload_refuse(kl, cpus, "map '%s': cannot count the CPUs: %s",
					    m->name, strerror(-cpus));
		attr->max_entries = (uint32_t)cpus;
	} else if (!m->max_entries && (m->type == BPF_MAP_TYPE_RINGBUF ||
					m->type == BPF_MAP_TYPE_USER_RINGBUF)) {
		attr->max_entries = (uint32_t)page_size();
	} else if (!m->max_entries && !map_sized_by_kernel(m->type)) {
		/* veristat's rule for maps sized at run time. */
		attr->max_entries = 1;
	}
	if (kl->btf_fd >= 0 && !btf_ids_dropped(m->type) &&
	    (m->btf_key_type_id || m->btf_value_type_id)) {
		attr->btf_fd = (uint32_t)kl->btf_fd;
		attr->btf_key_type_id = m->btf_key_type_id;
		attr->btf_value_type_id = m->btf_value_type_id;
	}
	return 0;
}

static int create_raw(struct kload *kl, const struct bpfvet_map *m,
		      struct ksys_map_create *attr)
{
	int fd = ksys_map_create(attr);

	if (fd < 0 && attr->btf_fd) {
		/* libbpf: "Retrying without BTF." */
		attr->btf_fd = 0;
		attr->btf_key_type_id = 0;
		attr->btf_value_type_id = 0;
		fd = ksys_map_create(attr);
	}
	if (fd < 0)
		return kload_refuse(kl, fd, "map '%s': failed to create: %s (%d)",
				    m->name, strerror(-fd), fd);
	return fd;
}

/* libbpf maps the arena (at map_extra when given) before loading, and
 * copies the __arena globals to its start. The verifier needs the arena's
 * user address: map_extra, or else the address of a mapping. We never map
 * over something already there: when map_extra names a range this process
 * uses (sanitizers reserve large ones), the arena stays unmapped, which
 * only loses the globals' initial values, never a verdict. */
static int map_arena(struct kload *kl, size_t idx, int fd)
{
	const struct bpfvet_map *m = &kl->maps[idx];
	size_t sz = page_size() * m->max_entries;
	int flags = MAP_SHARED;
	void *mem;

	if (m->map_extra)
		flags |= MAP_FIXED_NOREPLACE;
	mem = mmap((void *)(uintptr_t)m->map_extra, sz, PROT_READ | PROT_WRITE, flags, fd, 0);
	if (mem == MAP_FAILED && m->map_extra && errno == EEXIST)
		return 0;
	if (mem == MAP_FAILED)
		return kload_refuse(kl, -errno, "map '%s': failed to mmap arena: %s",
				    m->name, strerror(errno));
	kl->map_mem[idx] = mem;
	kl->map_mem_sz[idx] = sz;
	if (m->init_data && m->init_size <= sz)
		memcpy(mem, m->init_data, m->init_size);
	return 0;
}

static bool is_kconfig(const struct bpfvet_map *m)
{
	return m->origin == BPFVET_MAP_DATA && m->real_name &&
	       !strcmp(m->real_name, ".kconfig");
}

/* Global data: write the initial value, then freeze what is read-only
 * for programs, as libbpf does for .rodata and .kconfig. */
static int populate_data(struct kload *kl, const struct bpfvet_map *m, int fd)
{
	const uint32_t zero = 0;
	void *buf = NULL;
	int err = 0;

	if (is_kconfig(m)) {
		buf = calloc(1, m->value_size ? m->value_size : 1);
		if (!buf)
			return -ENOMEM;
		err = kext_kconfig_fill(kl, buf, m->value_size);
		if (!err)
			err = ksys_map_update(fd, &zero, buf, 0);
	} else if (m->init_data) {
		if (m->init_size != m->value_size)
			return kload_refuse(kl, -EINVAL, "map '%s': initial value has %zu bytes, not %u",
					    m->name, m->init_size, m->value_size);
		err = ksys_map_update(fd, &zero, m->init_data, 0);
	}
	free(buf);
	if (err)
		return kl->setup_err ? err :
		       kload_refuse(kl, err, "map '%s': failed to set its initial value: %s",
				    m->name, strerror(-err));
	if (m->flags & BPF_F_RDONLY_PROG) {
		err = ksys_map_freeze(fd);
		if (err)
			return kload_refuse(kl, err, "map '%s': failed to freeze: %s",
					    m->name, strerror(-err));
	}
	return 0;
}

static int create_one(struct kload *kl, size_t idx, int depth);

/* Puts the maps named in `.values` into a freshly created map-in-map. */
static int fill_slots(struct kload *kl, const struct bpfvet_map *m, int fd, int depth)
{
	for (size_t i = 0; i < m->init_cnt; i++) {
		uint32_t key = (uint32_t)i;
		int target, err;

		if (!m->init_slots[i])
			continue;
		target = find_by_name(kl, m->init_slots[i]);
		if (target < 0)
			return kload_refuse(kl, -ESRCH, "map '%s': slot %zu names no map '%s'",
					    m->name, i, m->init_slots[i]);
		err = create_one(kl, (size_t)target, depth + 1);
		if (err)
			return err;
		err = ksys_map_update(fd, &key, &kl->map_fds[target], 0);
		if (err)
			return kload_refuse(kl, err, "map '%s': failed to set slot %zu to '%s': %s",
					    m->name, i, m->init_slots[i], strerror(-err));
	}
	return 0;
}

static int create_one(struct kload *kl, size_t idx, int depth)
{
	const struct bpfvet_map *m = &kl->maps[idx];
	struct ksys_map_create attr;
	int fd, err;

	if (kl->map_fds[idx] >= 0)
		return 0;
	if (depth > MAX_NESTING)
		return kload_refuse(kl, -ELOOP, "map '%s': maps nested too deeply", m->name);
	if (m->type == BPF_MAP_TYPE_STRUCT_OPS)
		return kload_refuse(kl, -EOPNOTSUPP,
				    "map '%s': struct_ops maps are not created by bpfvet", m->name);
	err = fill_attr(kl, m, &attr);
	if (err)
		return err;
	if (is_map_in_map(m->type) && m->inner_idx >= 0 &&
	    (size_t)m->inner_idx < kl->map_cnt) {
		err = create_one(kl, (size_t)m->inner_idx, depth + 1);
		if (err)
			return err;
		attr.inner_map_fd = (uint32_t)kl->map_fds[m->inner_idx];
	}
	fd = create_raw(kl, m, &attr);
	if (fd < 0)
		return fd;
	kl->map_fds[idx] = fd;
	if (m->origin == BPFVET_MAP_DATA)
		return populate_data(kl, m, fd);
	if (m->type == BPF_MAP_TYPE_ARENA)
		return map_arena(kl, idx, fd);
	if (is_map_in_map(m->type))
		return fill_slots(kl, m, fd, depth);
	return 0;
}

static int alloc_tables(struct kload *kl)
{
	kl->map_fds = malloc(kl->map_cnt * sizeof(*kl->map_fds));
	kl->map_mem = calloc(kl->map_cnt, sizeof(*kl->map_mem));
	kl->map_mem_sz = calloc(kl->map_cnt, sizeof(*kl->map_mem_sz));
	if (!kl->map_fds || !kl->map_mem || !kl->map_mem_sz)
		return -ENOMEM;
	for (size_t i = 0; i < kl->map_cnt; i++)
		kl->map_fds[i] = -1;
	return 0;
}

int kmaps_create(struct kload *kl)
{
	struct bpfvet_insn *insn;
	int err;

	if (kl->map_cnt) {
		err = alloc_tables(kl);
		if (err)
			return err;
	}
	for (size_t i = 0; i + 1 < kl->insn_cnt; i++) {
		insn = &kl->insns[i];
		if (!insn_is_ldimm64(insn))
			continue;
		/* A raw fd written in the ELF goes to the kernel as it is, and
		 * the kernel says what it thinks of it. */
		if ((insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE) &&
		    !prog_insn_flag(kl->prog, i, INSN_F_LITERAL_FD)) {
			if (insn->imm < 0 || (size_t)insn->imm >= kl->map_cnt)
				return kload_refuse(kl, -EINVAL,
						    "insn %zu refers to map %d, the object has %zu",
						    i, insn->imm, kl->map_cnt);
			err = create_one(kl, (size_t)insn->imm, 0);
			if (err)
				return err;
			insn->imm = kl->map_fds[insn->imm];
		}
		i++;	/* the second half of LD_IMM64 */
	}
	return 0;
}

void kmaps_close(struct kload *kl)
{
	for (size_t i = 0; i < kl->map_cnt; i++) {
		if (kl->map_mem && kl->map_mem[i])
			munmap(kl->map_mem[i], kl->map_mem_sz[i]);
		if (kl->map_fds && kl->map_fds[i] >= 0)
			close(kl->map_fds[i]);
	}
	free(kl->map_fds);
	free(kl->map_mem);
	free(kl->map_mem_sz);
	kl->map_fds = NULL;
	kl->map_mem = NULL;
	kl->map_mem_sz = NULL;
}
