/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The recorded Linux 6.18 target (tests/conformance/kernel-6.18.build),
 * unpacked by `make target`: the BTF and config that tests verify for,
 * never the running kernel's, so that they give the same results on every
 * machine. tests/lib.sh has the same for shell tests ($TARGET).
 */
#ifndef BPFVET_TEST_TARGET_H
#define BPFVET_TEST_TARGET_H

#define TARGET_BTF "build/target-6.18/btf"
#define TARGET_CONFIG "build/target-6.18/config"
#define TARGET_KERNEL_VERSION ((6u << 16) | (18u << 8) | 44u)
#define TARGET_NR_CPUS 2u

#endif
