/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The network the interpreter models (docs/interp.md): the recorders run
 * BPF_PROG_TEST_RUN inside a fresh network namespace, so that helpers
 * that look at the network (bpf_fib_lookup) answer the same on every
 * host: only the loopback device (ifindex 1), down, so without addresses,
 * routes or neighbours; IPv4 and IPv6 forwarding enabled, written here
 * rather than inherited (a new namespace copies IPv4's settings from the
 * host's).
 */
#ifndef BPFVET_TESTS_INTERP_NETNS_H
#define BPFVET_TESTS_INTERP_NETNS_H

#include <stddef.h>

/* 0, or -1 with the reason in err. */
int enter_model_netns(char *err, size_t err_sz);

#endif
