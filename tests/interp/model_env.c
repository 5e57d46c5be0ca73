/* SPDX-License-Identifier: BSD-2-Clause */
/* The recorders' environment: see model_env.h. */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "model_env.h"

static int write_sysctl(const char *path, const char *val, char *err, size_t err_sz)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0) {
		snprintf(err, err_sz, "%s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, val, strlen(val));
	if (n != (ssize_t)strlen(val)) {
		snprintf(err, err_sz, "%s: %s", path, n < 0 ? strerror(errno) : "short write");
		close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

int enter_model_env(char *err, size_t err_sz)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	if (sched_setaffinity(0, sizeof(cpus), &cpus)) {
		snprintf(err, err_sz, "sched_setaffinity(CPU 0): %s", strerror(errno));
		return -1;
	}
	if (unshare(CLONE_NEWNET)) {
		snprintf(err, err_sz, "unshare(CLONE_NEWNET): %s", strerror(errno));
		return -1;
	}
	/* Opened after unshare, these are the new namespace's settings. */
	if (write_sysctl("/proc/sys/net/ipv4/conf/all/forwarding", "1", err, err_sz) ||
	    write_sysctl("/proc/sys/net/ipv6/conf/all/forwarding", "1", err, err_sz))
		return -1;
	return 0;
}
