// SPDX-License-Identifier: BSD-2-Clause
/* Sign-extending fills and scalar ids (KVER_LDSX_UNLINK): a spilled
 * masked skb->len read back with s8 or s16. The live 6.18.44 kernel keeps
 * the spill's id when the sign bit is known clear and drops it when the
 * extension may change the value (tests/cli/ldsx_ids.sh holds its lines). */
#include "sock_asm.h"

#define LDSX_PROG(name, mask, load)					\
SEC("socket") __naked int name(void)					\
{									\
	asm volatile("r2 = *(u32 *)(r1 + 0);"				\
		     "r2 &= " #mask ";"					\
		     "*(u64 *)(r10 - 8) = r2;"				\
		     load ";"						\
		     "r0 = 0;"						\
		     "exit;" ::: __clobber_all);			\
}

LDSX_PROG(s8_of_7bit, 0x7f, "r1 = *(s8 *)(r10 - 8)")
LDSX_PROG(s8_of_8bit, 0xff, "r1 = *(s8 *)(r10 - 8)")
LDSX_PROG(s16_of_15bit, 0x7fff, "r1 = *(s16 *)(r10 - 8)")
LDSX_PROG(s16_of_16bit, 0xffff, "r1 = *(s16 *)(r10 - 8)")
LDSX_PROG(s16_of_7bit, 0x7f, "r1 = *(s16 *)(r10 - 8)")

char _license[] SEC("license") = "GPL";
