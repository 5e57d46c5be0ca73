/* SPDX-License-Identifier: BSD-2-Clause */
/* Names of the kernel's BPF helper functions, by helper id. */
#ifndef BPFVET_HELPER_NAMES_H
#define BPFVET_HELPER_NAMES_H

#include <stdint.h>

/* Helper ids 0..211 exist in Linux 6.18 (__BPF_FUNC_MAX_ID = 212). */
#define HELPER_NAMES_COUNT 212

/*
 * "bpf_map_lookup_elem" for id 1; NULL for ids the kernel does not know.
 * (helpers.h's helper_name() answers the same question for the verifier;
 * this table is the disassembler's, generated from the uapi list.)
 */
const char *helper_names_get(int32_t id);

#endif /* BPFVET_HELPER_NAMES_H */
