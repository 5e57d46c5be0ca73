/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * kernel.unprivileged_bpf_disabled for the length of one run (bpfvet.h,
 * bpfvet_unpriv_bpf__open). 2 forbids unprivileged BPF but root may lower
 * it again; 1 cannot be lowered before a reboot. A run that measures
 * unprivileged loads sets 2 to 0 and must put 2 back however it ends:
 * normally, on an error (atexit), or on SIGINT, SIGTERM or SIGHUP (the
 * handler). SIGKILL cannot be caught: docs/kernel.md says how to repair.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "bpfvet.h"

#define SYSCTL_PATH "/proc/sys/kernel/unprivileged_bpf_disabled"

static const int guarded_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define GUARDED_CNT (sizeof(guarded_signals) / sizeof(guarded_signals[0]))

/*
 * A signal handler and an atexit function take no context, so the value
 * to write back lives here: it is the only state of this file, set by
 * open and cleared by restore. One guard per process.
 */
static volatile sig_atomic_t restore_pending;
static volatile sig_atomic_t restore_value;

struct bpfvet_unpriv_bpf {
	int saved;
	struct sigaction old[GUARDED_CNT];
};

static int read_value(void)
{
	FILE *f = fopen(SYSCTL_PATH, "r");
	int v = -1;

	if (!f)
		return -1;
	if (fscanf(f, "%d", &v) != 1)
		v = -1;
	fclose(f);
	return v;
}

/* open(2), write(2), close(2): async-signal-safe. */
static int write_value(int v)
{
	char buf[2] = { (char)('0' + v), '\n' };
	int fd = open(SYSCTL_PATH, O_WRONLY | O_CLOEXEC);
	ssize_t n;
	int err = 0;

	if (fd < 0)
		return -errno;
	n = write(fd, buf, sizeof(buf));
	if (n < 0)
		err = -errno;
	close(fd);
	return err;
}

/*
 * The sysctl's write checks CAP_SYS_ADMIN in the effective set, which an
 * unprivileged load has just dropped: take back what is permitted. Raw
 * capget/capset are plain system calls, safe in a handler.
 */
static void raise_effective(void)
{
	struct __user_cap_header_struct h = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct d[2];

	if (syscall(SYS_capget, &h, d))
		return;
	d[0].effective = d[0].permitted;
	d[1].effective = d[1].permitted;
	syscall(SYS_capset, &h, d);
}

/* For a process about to end: its capabilities no longer matter. */
static void restore_final(void)
{
	int saved_errno = errno;

	if (restore_pending) {
		raise_effective();
		if (!write_value(restore_value))
			restore_pending = 0;
	}
	errno = saved_errno;
}

/* SA_RESETHAND has put the default action back: raising again ends the
 * process as the signal would have. */
static void on_signal(int sig)
{
	restore_final();
	raise(sig);
}

static int install_handlers(struct bpfvet_unpriv_bpf *g)
{
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };
	static bool at_exit;	/* atexit cannot be undone: register once */

	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < GUARDED_CNT; i++)
		sigaddset(&sa.sa_mask, guarded_signals[i]);
	if (!at_exit) {
		if (atexit(restore_final))
			return -ENOMEM;
		at_exit = true;
	}
	/* An ignored signal stays ignored (a background job's SIGINT): it
	 * cannot end the run, so the normal restore covers it. */
	for (size_t i = 0; i < GUARDED_CNT; i++) {
		if (sigaction(guarded_signals[i], NULL, &g->old[i]))
			return -errno;
		if (!(g->old[i].sa_flags & SA_SIGINFO) && g->old[i].sa_handler == SIG_IGN)
			continue;
		if (sigaction(guarded_signals[i], &sa, NULL))
			return -errno;
	}
	return 0;
}

static void remove_handlers(struct bpfvet_unpriv_bpf *g)
{
	for (size_t i = 0; i < GUARDED_CNT; i++)
		sigaction(guarded_signals[i], &g->old[i], NULL);
}

static int state_of(int v, char *why, size_t why_sz)
{
	switch (v) {
	case 0:
		snprintf(why, why_sz, "kernel.unprivileged_bpf_disabled=0: unprivileged BPF is allowed");
		return BPFVET_UNPRIV_ALLOWED;
	case 1:
		snprintf(why, why_sz, "kernel.unprivileged_bpf_disabled=1: unprivileged loads are "
			 "impossible until reboot");
		return BPFVET_UNPRIV_LOCKED;
	default:
		snprintf(why, why_sz, "kernel.unprivileged_bpf_disabled cannot be read");
		return BPFVET_UNPRIV_UNKNOWN;
	}
}

int bpfvet_unpriv_bpf__open(struct bpfvet_unpriv_bpf **gp, char *why, size_t why_sz)
{
	struct bpfvet_unpriv_bpf *g;
	int v = read_value(), err;

	*gp = NULL;
	if (v != 2)
		return state_of(v, why, why_sz);
	if (restore_pending)
		return -EBUSY;
	g = calloc(1, sizeof(*g));
	if (!g)
		return -ENOMEM;
	g->saved = 2;
	restore_value = 2;
	err = install_handlers(g);
	if (!err) {
		/* Pending before the write: a signal between the two restores
		 * a value that is still 2, which is harmless. */
		restore_pending = 1;
		err = write_value(0);
	}
	if (err) {
		restore_pending = 0;
		remove_handlers(g);
		free(g);
		if (err != -EPERM && err != -EACCES)
			return err;
		snprintf(why, why_sz, "kernel.unprivileged_bpf_disabled=2 and this process may not "
			 "lower it (root can, for the run)");
		return BPFVET_UNPRIV_DISABLED;
	}
	snprintf(why, why_sz, "kernel.unprivileged_bpf_disabled=2, set to 0 for this run and "
		 "restored after it");
	*gp = g;
	return BPFVET_UNPRIV_OPENED;
}

int bpfvet_unpriv_bpf__restore(struct bpfvet_unpriv_bpf *g)
{
	int err;

	if (!g)
		return 0;
	err = write_value(g->saved);
	if (err == -EPERM) {
		/* Called with capabilities dropped: restoring wins. */
		raise_effective();
		err = write_value(g->saved);
	}
	if (!err)
		restore_pending = 0;
	remove_handlers(g);
	free(g);
	return err;
}
