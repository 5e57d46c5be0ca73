/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Flags OR-ed into register, argument and return types (the kernel's enum
 * bpf_type_flag, 6.18 values). Both the verifier's states (env.h) and the
 * helper prototypes (helpers_internal.h) are built from them.
 */
#ifndef BPFVET_TYPE_FLAGS_H
#define BPFVET_TYPE_FLAGS_H

#define PTR_MAYBE_NULL		0x100u
#define MEM_RDONLY		0x200u
#define MEM_RINGBUF		0x400u
#define MEM_USER		0x800u
#define MEM_PERCPU		0x1000u
#define OBJ_RELEASE		0x2000u
#define PTR_UNTRUSTED		0x4000u
#define MEM_UNINIT		0x8000u
#define DYNPTR_TYPE_LOCAL	0x10000u
#define DYNPTR_TYPE_RINGBUF	0x20000u
#define MEM_FIXED_SIZE		0x40000u
#define MEM_ALLOC		0x80000u
#define PTR_TRUSTED		0x100000u
#define MEM_RCU			0x200000u
#define NON_OWN_REF		0x400000u
#define DYNPTR_TYPE_SKB		0x800000u
#define DYNPTR_TYPE_XDP		0x1000000u
#define MEM_ALIGNED		0x2000000u
#define MEM_WRITE		0x4000000u
#define DYNPTR_TYPE_SKB_META	0x8000000u
#define BASE_TYPE_MASK		0xffu

/* The flags that leave a BTF pointer trusted. */
#define TRUSTED_MODIFIERS	(MEM_ALLOC | PTR_TRUSTED | NON_OWN_REF)

#endif
