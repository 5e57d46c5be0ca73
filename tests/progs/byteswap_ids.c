// SPDX-License-Identifier: BSD-2-Clause
/* Byte swaps and scalar ids (tests/cli/byteswap_ids.sh, the kernel's logs in
 * tests/fixtures/byteswap/kernel-6.18-level2.txt). Every width of le, be
 * (BPF_ALU | BPF_END) and bswap (BPF_ALU64 | BPF_END, ISA v4) swaps a
 * scalar that has known bits in two bytes, 0x0000_0700_0000_3f00 at most,
 * so that the log shows what each one does to the bounds and the tnum:
 * le16 and le32 truncate, le64 is the identity on a little-endian kernel,
 * be and bswap reverse the bytes.
 *
 *  - NAME_noid swaps a register that has no id;
 *  - NAME_id swaps r0 after a copy `r1 = r0` gave both an id, then
 *    narrows r0 with a branch: the log shows whether r1, its former copy,
 *    is narrowed with it (only when the swap kept the id).
 *
 * Each program is one asm block, so the instructions do not depend on the
 * compiler. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define __naked __attribute__((naked))
#define __imm(name) [name] "i"(name)
#define __clobber_all "r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "memory"

char _license[] SEC("license") = "GPL";

/* r0 = (rand & 7) << 40 | (rand & 0x3f00): var_off (0x0; 0x70000003f00). */
#define SWAP_INPUT							\
	"call %[bpf_get_prandom_u32];"					\
	"r6 = r0;"							\
	"r6 &= 0x3f00;"							\
	"call %[bpf_get_prandom_u32];"					\
	"r0 &= 7;"							\
	"r0 <<= 40;"							\
	"r0 |= r6;"

/* The two programs of one swap instruction INSN ("r0 = le64 r0"). */
#define SWAP_PROGS(name, insn)						\
SEC("socket")								\
__naked int name##_noid(void)						\
{									\
	asm volatile (SWAP_INPUT					\
	insn ";"							\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_get_prandom_u32)					\
	: __clobber_all);						\
}									\
SEC("socket")								\
__naked int name##_id(void)						\
{									\
	asm volatile (SWAP_INPUT					\
	"r1 = r0;"							\
	insn ";"							\
	"if r0 > 0x10 goto l0_%=;"					\
	"r2 = r1;"							\
"l0_%=:"								\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_get_prandom_u32)					\
	: __clobber_all);						\
}

SWAP_PROGS(le16, "r0 = le16 r0")
SWAP_PROGS(le32, "r0 = le32 r0")
SWAP_PROGS(le64, "r0 = le64 r0")
SWAP_PROGS(be16, "r0 = be16 r0")
SWAP_PROGS(be32, "r0 = be32 r0")
SWAP_PROGS(be64, "r0 = be64 r0")
SWAP_PROGS(bswap16, "r0 = bswap16 r0")
SWAP_PROGS(bswap32, "r0 = bswap32 r0")
SWAP_PROGS(bswap64, "r0 = bswap64 r0")

/* le64 of a register linked to its copy by a constant offset (r1 = r0 + 4):
 * a branch on r1 after the swap narrows r0 when the swap kept the id and
 * the offset. */
SEC("socket")
__naked int le64_id_add_const(void)
{
	asm volatile (SWAP_INPUT
	"r1 = r0;"
	"r1 += 4;"
	"r1 = le64 r1;"
	"if r1 > 0x10 goto l0_%=;"
	"r2 = r0;"
"l0_%=:"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* The swapped copy is the one that branches: r0 = r1 keeps the original,
 * r1 is swapped and narrowed, and the log shows r0. */
SEC("socket")
__naked int le64_id_branch_copy(void)
{
	asm volatile (SWAP_INPUT
	"r1 = r0;"
	"r1 = le64 r1;"
	"if r1 > 0x10 goto l0_%=;"
	"r2 = r0;"
"l0_%=:"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}

/* A 32-bit swap of a register whose 32-bit copy (w1 = w0) shares its id. */
SEC("socket")
__naked int le32_id_mov32(void)
{
	asm volatile (
	"call %[bpf_get_prandom_u32];"
	"r0 &= 0x3f00;"
	"w1 = w0;"
	"r0 = le32 r0;"
	"if r0 > 0x10 goto l0_%=;"
	"r2 = r1;"
"l0_%=:"
	"r0 = 0;"
	"exit;"
	:
	: __imm(bpf_get_prandom_u32)
	: __clobber_all);
}
