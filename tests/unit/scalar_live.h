/* SPDX-License-Identifier: BSD-2-Clause */
/* test_scalar_kernel --live: a program's record, asked of the kernel. */
#ifndef BPFVET_TEST_SCALAR_LIVE_H
#define BPFVET_TEST_SCALAR_LIVE_H

#include <stddef.h>

/*
 * Loads `cnt` instructions (struct bpf_insn's layout) into the running
 * kernel as tests/scalar/gen.c does (raw tracepoint, log level 2,
 * BPF_F_TEST_REG_INVARIANTS) and stores in *out (malloc'ed) the record
 * lines gen.c would write after the program's "c" line: "i", "f", "F",
 * "s" lines and the final "e ..." or ".", each ending in a newline.
 * Returns 0, or a negative errno when gen.c would record nothing (EPERM,
 * ENOSPC, ENODATA for an empty log).
 */
int scalar_live_record(const void *insns, size_t cnt, char **out);
/* Frees the log buffers scalar_live_record() keeps between calls. */
void scalar_live_free(void);

#endif
