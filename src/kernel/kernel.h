/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The kernel differential's contract: loading a program into the running
 * kernel the way libbpf would (real maps, global data, kfuncs and ksyms
 * resolved against the kernel's BTF, attach targets) and reading its
 * verdict, log and statistics (kernel_load.h; bpf() itself in
 * kernel_sys.h, internal). It stands beside the verifier: it uses base/,
 * loader/ and output/, and nothing of the verifier.
 */
#ifndef BPFVET_KERNEL_H
#define BPFVET_KERNEL_H

#include "kernel_load.h"

#endif
