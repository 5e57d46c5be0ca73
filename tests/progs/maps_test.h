/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Shared by the maps_*.c test programs: inline-asm helpers in the style of
 * the kernel selftests, and the BTF type tags that mark kptr fields.
 */
#ifndef MAPS_TEST_H
#define MAPS_TEST_H

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __imm_const(name, expr) [name] "i"(expr)
#define __imm_addr(name) [name] "i"(&name)
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"

/* The kernel's tag names (libbpf 1.1's headers predate some of them). */
#define __tag_kptr __attribute__((btf_type_tag("kptr")))
#define __tag_kptr_untrusted __attribute__((btf_type_tag("kptr_untrusted")))

/* Global data in its own section, as the selftests' private() does. */
#define private(name) SEC(".data." #name) __attribute__((aligned(8)))

#endif
