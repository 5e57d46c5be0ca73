/* SPDX-License-Identifier: BSD-2-Clause */
/* Raw bpf(2) and capset(2) calls for the kernel loader (see kernel_sys.h). */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "bpfvet.h"
#include "kernel_sys.h"

/* bpf(2) command numbers (enum bpf_cmd). */
enum {
	CMD_MAP_CREATE = 0,
	CMD_MAP_UPDATE_ELEM = 2,
	CMD_PROG_LOAD = 5,
	CMD_BTF_LOAD = 18,
	CMD_MAP_FREEZE = 22,
};

static int sys_bpf(int cmd, void *attr, size_t size)
{
	long ret;

	/* The kernel may be interrupted while verifying; it restarts. */
	do {
		ret = syscall(__NR_bpf, cmd, attr, (unsigned int)size);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return errno ? -errno : -EINVAL;
	return (int)ret;
}

int ksys_map_create(const struct ksys_map_create *attr)
{
	struct ksys_map_create copy = *attr;

	return sys_bpf(CMD_MAP_CREATE, &copy, sizeof(copy));
}

int ksys_map_update(int map_fd, const void *key, const void *value, uint64_t flags)
{
	struct ksys_map_elem attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	attr.key = ksys_ptr(key);
	attr.value = ksys_ptr(value);
	attr.flags = flags;
	return sys_bpf(CMD_MAP_UPDATE_ELEM, &attr, sizeof(attr));
}

int ksys_map_freeze(int map_fd)
{
	struct ksys_map_elem attr;

	memset(&attr, 0, sizeof(attr));
	attr.map_fd = (uint32_t)map_fd;
	return sys_bpf(CMD_MAP_FREEZE, &attr, sizeof(attr.map_fd));
}

int ksys_btf_load(const void *data, size_t size, char *log, size_t log_size)
{
	struct ksys_btf_load attr;
	int fd;

	if (size > UINT32_MAX)
		return -E2BIG;
	memset(&attr, 0, sizeof(attr));
	attr.btf = ksys_ptr(data);
	attr.btf_size = (uint32_t)size;
	fd = sys_bpf(CMD_BTF_LOAD, &attr, sizeof(attr));
	if (fd >= 0 || !log || log_size < 2 || fd == -EPERM)
		return fd;
	/* Loaded quietly first, as libbpf does: only a failure is worth the
	 * log. The second attempt fails the same way. */
	log[0] = '\0';
	attr.btf_log_buf = ksys_ptr(log);
	attr.btf_log_size = log_size > UINT32_MAX ? UINT32_MAX : (uint32_t)log_size;
	attr.btf_log_level = 1;
	fd = sys_bpf(CMD_BTF_LOAD, &attr, sizeof(attr));
	log[log_size - 1] = '\0';
	return fd;
}

int ksys_prog_load(struct ksys_prog_load *attr)
{
	return sys_bpf(CMD_PROG_LOAD, attr, sizeof(*attr));
}

/* ------------------------------------------------------------------ */
/* Capabilities                                                        */
/* ------------------------------------------------------------------ */

/* Linux numbers; CAP_PERFMON and CAP_BPF are recent enough that some
 * headers lack them. */
#define NR_CAP_NET_ADMIN	12
#define NR_CAP_SYS_ADMIN	21
#define NR_CAP_PERFMON		38
#define NR_CAP_BPF		39

static void clear_cap(uint32_t set[2], int nr)
{
	set[nr / 32] &= ~(1u << (nr % 32));
}

static int caps_get(struct ksys_caps *c)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	memset(data, 0, sizeof(data));
	if (syscall(SYS_capget, &hdr, data))
		return -errno;
	for (int i = 0; i < 2; i++) {
		c->effective[i] = data[i].effective;
		c->permitted[i] = data[i].permitted;
		c->inheritable[i] = data[i].inheritable;
	}
	return 0;
}

static int caps_set(const struct ksys_caps *c)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];

	for (int i = 0; i < 2; i++) {
		data[i].effective = c->effective[i];
		data[i].permitted = c->permitted[i];
		data[i].inheritable = c->inheritable[i];
	}
	if (syscall(SYS_capset, &hdr, data))
		return -errno;
	return 0;
}

/* Only the effective set shrinks: the permitted set keeps the bits, so
 * that restoring them afterwards is allowed. */
int ksys_caps_drop(uint32_t bpfvet_caps, struct ksys_caps *saved)
{
	struct ksys_caps now;
	int err;

	saved->saved = 0;
	if (!bpfvet_caps)
		return 0;
	err = caps_get(saved);
	if (err)
		return err;
	now = *saved;
	if (bpfvet_caps & BPFVET_CAP_NET_ADMIN)
		clear_cap(now.effective, NR_CAP_NET_ADMIN);
	if (bpfvet_caps & BPFVET_CAP_SYS_ADMIN)
		clear_cap(now.effective, NR_CAP_SYS_ADMIN);
	if (bpfvet_caps & BPFVET_CAP_PERFMON)
		clear_cap(now.effective, NR_CAP_PERFMON);
	if (bpfvet_caps & BPFVET_CAP_BPF)
		clear_cap(now.effective, NR_CAP_BPF);
	err = caps_set(&now);
	if (err)
		return err;
	saved->saved = 1;
	return 0;
}

int ksys_caps_restore(const struct ksys_caps *saved)
{
	if (!saved->saved)
		return 0;
	return caps_set(saved);
}
