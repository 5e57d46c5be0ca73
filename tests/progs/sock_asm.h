/* SPDX-License-Identifier: BSD-2-Clause */
/* Shorthands for the hand-written BPF assembly of tests/progs/sock_*.c:
 * each program is a naked function whose body is one asm statement, so
 * that its instructions (and the verifier's counts) do not depend on the
 * compiler. */
#ifndef SOCK_ASM_H
#define SOCK_ASM_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __imm_const(name, expr) [name] "i"(expr)
#define __imm_addr(name) [name] "i"(&name)
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"

/* Six zeroed words at fp-48 used as a struct bpf_sock_tuple, then an
 * sk_lookup_tcp call whose result (sock_or_null, referenced) is in r0.
 * Needs __imm(bpf_sk_lookup_tcp); clobbers r1..r5. */
#define SK_LOOKUP_TCP					\
	"r2 = 0;"					\
	"*(u32 *)(r10 - 8) = r2;"			\
	"*(u64 *)(r10 - 16) = r2;"			\
	"*(u64 *)(r10 - 24) = r2;"			\
	"*(u64 *)(r10 - 32) = r2;"			\
	"*(u64 *)(r10 - 40) = r2;"			\
	"*(u64 *)(r10 - 48) = r2;"			\
	"r2 = r10;"					\
	"r2 += -48;"					\
	"r3 = %[sizeof_bpf_sock_tuple];"		\
	"r4 = 0;"					\
	"r5 = 0;"					\
	"call %[bpf_sk_lookup_tcp];"

#define __imm_tuple __imm_const(sizeof_bpf_sock_tuple, sizeof(struct bpf_sock_tuple))

#endif
