/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The bpf(2) commands the kernel loader needs, on raw syscalls. We write
 * the few bpf_attr layouts ourselves (as uapi.h does for the instruction
 * set) instead of using libbpf's <bpf/bpf.h>: Debian's libbpf 1.1.2 pulls in
 * the 6.1 <linux/bpf.h>, which clashes with uapi.h, and lacks fields we
 * need (log_true_size). Layouts are the kernel's, field for field; a
 * shorter attr than the kernel's is fine, the kernel zero-extends it.
 *
 * Every wrapper returns an fd or 0 on success and a negative errno on
 * failure; none of them touches errno's caller-visible meaning otherwise.
 */
#ifndef BPFVET_KERNEL_SYS_H
#define BPFVET_KERNEL_SYS_H

#include <stddef.h>
#include <stdint.h>

#define KSYS_OBJ_NAME_LEN 16	/* BPF_OBJ_NAME_LEN */

struct ksys_map_create {
	uint32_t map_type;
	uint32_t key_size;
	uint32_t value_size;
	uint32_t max_entries;
	uint32_t map_flags;
	uint32_t inner_map_fd;
	uint32_t numa_node;
	char map_name[KSYS_OBJ_NAME_LEN];
	uint32_t map_ifindex;
	uint32_t btf_fd;
	uint32_t btf_key_type_id;
	uint32_t btf_value_type_id;
	uint32_t btf_vmlinux_value_type_id;
	uint64_t map_extra;
	int32_t value_type_btf_obj_fd;
	int32_t map_token_fd;
};

struct ksys_map_elem {
	uint32_t map_fd;
	uint32_t pad;
	uint64_t key;
	uint64_t value;
	uint64_t flags;
};

struct ksys_prog_load {
	uint32_t prog_type;
	uint32_t insn_cnt;
	uint64_t insns;
	uint64_t license;
	uint32_t log_level;
	uint32_t log_size;
	uint64_t log_buf;
	uint32_t kern_version;
	uint32_t prog_flags;
	char prog_name[KSYS_OBJ_NAME_LEN];
	uint32_t prog_ifindex;
	uint32_t expected_attach_type;
	uint32_t prog_btf_fd;
	uint32_t func_info_rec_size;
	uint64_t func_info;
	uint32_t func_info_cnt;
	uint32_t line_info_rec_size;
	uint64_t line_info;
	uint32_t line_info_cnt;
	uint32_t attach_btf_id;
	uint32_t attach_btf_obj_fd;	/* or attach_prog_fd */
	uint32_t core_relo_cnt;
	uint64_t fd_array;
	uint64_t core_relos;
	uint32_t core_relo_rec_size;
	uint32_t log_true_size;		/* out */
	int32_t prog_token_fd;
	uint32_t pad;
};

struct ksys_btf_load {
	uint64_t btf;
	uint64_t btf_log_buf;
	uint32_t btf_size;
	uint32_t btf_log_size;
	uint32_t btf_log_level;
	uint32_t btf_log_true_size;	/* out */
	uint32_t btf_flags;
	int32_t btf_token_fd;
};

static inline uint64_t ksys_ptr(const void *p)
{
	return (uint64_t)(uintptr_t)p;
}

int ksys_map_create(const struct ksys_map_create *attr);
int ksys_map_update(int map_fd, const void *key, const void *value, uint64_t flags);
int ksys_map_freeze(int map_fd);
/* On failure with a log buffer, the kernel's message is in log. */
int ksys_btf_load(const void *data, size_t size, char *log, size_t log_size);
/* Updates attr->log_true_size. */
int ksys_prog_load(struct ksys_prog_load *attr);

/* Capabilities. BPFVET_CAP_* bits; the saved state restores exactly what
 * was there before. */
struct ksys_caps {
	uint32_t effective[2];
	uint32_t permitted[2];
	uint32_t inheritable[2];
	int saved;
};

int ksys_caps_drop(uint32_t bpfvet_caps, struct ksys_caps *saved);
int ksys_caps_restore(const struct ksys_caps *saved);

#endif
