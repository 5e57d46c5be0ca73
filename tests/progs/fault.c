// SPDX-License-Identifier: BSD-2-Clause
/* One program per injectable fault (src/state/fault.h), named after it.
 * Each is rejected by the kernel (tests/cli/faults.sh holds its verdict
 * and message as the live 6.18.44 kernel gave them) and by bpfvet, and
 * each is accepted once its fault is injected: the fault makes the
 * verifier unsound on it, and a concrete run of it may reach the access
 * that the faulty verifier allowed (a random number picks the path). Assembly, so
 * that the paths and prune points do not depend on the compiler. */
#include "sock_asm.h"

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} fault_map SEC(".maps");

/* r6 = the map value (8 bytes), r7 = a random number; "out" returns 0. */
#define PROLOGUE							\
	"r1 = 0;"							\
	"*(u32 *)(r10 - 4) = r1;"					\
	"r2 = r10;"							\
	"r2 += -4;"							\
	"r1 = %[fault_map] ll;"						\
	"call %[bpf_map_lookup_elem];"					\
	"if r0 == 0 goto out_%=;"					\
	"r6 = r0;"							\
	"call %[bpf_get_prandom_u32];"					\
	"r7 = r0;"
#define EPILOGUE							\
	"out_%=:"							\
	"r0 = 0;"							\
	"exit;"
#define FAULT_IMMS __imm_addr(fault_map), __imm(bpf_map_lookup_elem), __imm(bpf_get_prandom_u32)

/* 0 + 8 is 8: one past the value. */
SEC("socket") __naked int bounds_add(void)
{
	asm volatile(PROLOGUE
		     "r1 = 0;"
		     "r2 = 8;"
		     "r1 += r2;"
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* 0 - (-8) is 8. */
SEC("socket") __naked int bounds_sub(void)
{
	asm volatile(PROLOGUE
		     "r1 = 0;"
		     "r2 = -8;"
		     "r1 -= r2;"
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* 1 * 8 is 8. */
SEC("socket") __naked int bounds_mul(void)
{
	asm volatile(PROLOGUE
		     "r1 = 1;"
		     "r2 = 8;"
		     "r1 *= r2;"
		     "r6 += r1;"
		     "r0 = *(u8 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* 7 & 0 is 0, and 0 - 7 is before the value. */
SEC("socket") __naked int bounds_and(void)
{
	asm volatile(PROLOGUE
		     "r1 = 7;"
		     "r2 = 0;"
		     "r1 &= r2;"
		     "r6 += r1;"
		     "r6 += -7;"
		     "r0 = *(u8 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* r7 > 5 may be 6, which reads past the value. */
SEC("socket") __naked int branch_jgt(void)
{
	asm volatile(PROLOGUE
		     "r7 &= 0xff;"
		     "if r7 > 5 goto l1_%=;"
		     "goto out_%=;"
		     "l1_%=:"
		     "if r7 != 6 goto out_%=;"
		     "r0 = *(u64 *)(r6 + 8);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* Not equal to 5 is anything else, which reads past the value. */
SEC("socket") __naked int branch_jeq(void)
{
	asm volatile(PROLOGUE
		     "r7 &= 0xff;"
		     "if r7 == 5 goto out_%=;"
		     "if r7 == 5 goto out_%=;"
		     "r0 = *(u64 *)(r6 + 8);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* Work enough on the first path to the join (8 instructions and 2
 * jumps since the last checkpoint) that the verifier stores a checkpoint
 * there, as the kernel's heuristic wants. */
#define PAD								\
	"r3 = 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"r3 += 1;"							\
	"if r3 == 0 goto out_%=;"

/* Two paths join with r1 = 0 and r1 = 8, and r1 is an offset. */
#define JOIN_R1								\
	"if r7 > 10 goto l1_%=;"					\
	"r1 = 0;"							\
	PAD								\
	"goto l2_%=;"							\
	"l1_%=:"							\
	"r1 = 8;"							\
	"l2_%=:"

SEC("socket") __naked int regsafe_scalar(void)
{
	asm volatile(PROLOGUE
		     JOIN_R1
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* regsafe_scalar's program again, for a joined walk (--explore=join):
 * the site after the two assignments must hold both offsets. */
SEC("socket") __naked int join_hull(void)
{
	asm volatile(PROLOGUE
		     JOIN_R1
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* The same, the offset spilled before the join and filled after it. */
SEC("socket") __naked int stacksafe_spill(void)
{
	asm volatile(PROLOGUE
		     "if r7 > 10 goto l1_%=;"
		     "r1 = 0;"
		     "*(u64 *)(r10 - 16) = r1;"
		     PAD
		     "goto l2_%=;"
		     "l1_%=:"
		     "r1 = 8;"
		     "*(u64 *)(r10 - 16) = r1;"
		     "l2_%=:"
		     "r1 = *(u64 *)(r10 - 16);"
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* One path checks 16 bytes of packet, the other 4; both read 12. */
SEC("tc") __naked int regsafe_pkt_range(void)
{
	asm volatile("r2 = *(u32 *)(r1 + %[data]);"
		     "r3 = *(u32 *)(r1 + %[data_end]);"
		     "r6 = r2;"
		     "r8 = r3;"
		     "call %[bpf_get_prandom_u32];"
		     "r2 = r6;"
		     "r3 = r8;"
		     "if r0 > 10 goto l1_%=;"
		     "r4 = r2;"
		     "r4 += 16;"
		     "if r4 > r3 goto out_%=;"
		     PAD
		     "goto l2_%=;"
		     "l1_%=:"
		     "r4 = r2;"
		     "r4 += 4;"
		     "if r4 > r3 goto out_%=;"
		     "l2_%=:"
		     "r0 = *(u32 *)(r2 + 8);"
		     EPILOGUE
		     :: __imm(bpf_get_prandom_u32),
			__imm_const(data, __builtin_offsetof(struct __sk_buff, data)),
			__imm_const(data_end, __builtin_offsetof(struct __sk_buff, data_end))
		     : __clobber_all);
}

/* After the join only a conditional jump reads r1, and r1 = 8 reads
 * past the value. */
SEC("socket") __naked int live_jmp(void)
{
	asm volatile(PROLOGUE
		     JOIN_R1
		     "if r1 != 8 goto out_%=;"
		     "r0 = *(u64 *)(r6 + 8);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* regsafe_scalar again: only a precise r1 keeps the two paths apart. */
SEC("socket") __naked int precise_none(void)
{
	asm volatile(PROLOGUE
		     JOIN_R1
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

/* The offset is 0 + r2 after the join: backtracking must reach r2. */
SEC("socket") __naked int precise_alu(void)
{
	asm volatile(PROLOGUE
		     "if r7 > 10 goto l1_%=;"
		     "r2 = 0;"
		     PAD
		     "goto l2_%=;"
		     "l1_%=:"
		     "r2 = 8;"
		     "l2_%=:"
		     "r1 = 0;"
		     "r1 += r2;"
		     "r6 += r1;"
		     "r0 = *(u64 *)(r6 + 0);"
		     EPILOGUE :: FAULT_IMMS : __clobber_all);
}

char _license[] SEC("license") = "GPL";
