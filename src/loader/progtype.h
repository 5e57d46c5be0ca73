/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Program types: libbpf's section-name rules (SEC("kprobe/...") etc.) and
 * the kernel's names for program, attach and map types.
 */
#ifndef BPFVET_PROGTYPE_H
#define BPFVET_PROGTYPE_H

#include <stdbool.h>
#include <stdint.h>

struct sec_type {
	uint32_t prog_type;
	uint32_t expected_attach_type;
	uint32_t prog_flags;	/* BPF_F_SLEEPABLE, BPF_F_XDP_HAS_FRAGS */
	/* Offset of the attach target ("do_unlinkat" in "kprobe/do_unlinkat")
	 * inside the section name, 0 when there is none. */
	uint32_t target_off;
};

/* Looks up a section name (without a leading '?'); false when libbpf
 * would not recognise it. */
bool progtype_from_section(const char *sec, struct sec_type *out);

const char *attach_type_name(uint32_t type);

#endif
