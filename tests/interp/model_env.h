/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The environment the interpreter models (docs/interp.md), which the
 * recorders enter before their first BPF_PROG_TEST_RUN so that what a
 * program can see of the host is the same on every host:
 * - a fresh network namespace, for helpers that look at the network
 *   (bpf_fib_lookup): only the loopback device (ifindex 1), down, so
 *   without addresses, routes or neighbours; IPv4 and IPv6 forwarding
 *   enabled, written here rather than inherited (a new namespace copies
 *   IPv4's settings from the host's);
 * - CPU 0, for get_smp_processor_id and per-CPU maps.
 */
#ifndef BPFVET_TESTS_INTERP_MODEL_ENV_H
#define BPFVET_TESTS_INTERP_MODEL_ENV_H

#include <stddef.h>

/* 0, or -1 with the reason in err. */
int enter_model_env(char *err, size_t err_sz);

#endif
