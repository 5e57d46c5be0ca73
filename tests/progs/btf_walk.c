// SPDX-License-Identifier: BSD-2-Clause
/* Struct walks through a BTF pointer, against a made-up target BTF that
 * tests/unit/test_btf_walk.c builds: tracepoint `fake` with one argument,
 * a pointer to
 *	struct fake {			// size 72
 *		int x;			// 0
 *		unsigned int bf1:3;	// bits 32..34
 *		unsigned int bf2:5;	// bits 35..39
 *		struct inner in;	// 8	(struct inner { int a; int b; })
 *		struct inner arr[2][2];	// 16..48
 *		struct inner *ptr;	// 48
 *		union { struct inner *p; long l; } un;	// 56
 *		char buf[8];		// 64
 *		struct inner flex[];	// 72
 *	};
 * Each program loads the argument into R2, then reads through it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "sock_asm.h"

#define WALK(name, body)						\
	SEC("tp_btf/fake")						\
	__naked int name(void)						\
	{								\
		asm volatile("r2 = *(u64 *)(r1 + 0);"			\
			     body					\
			     "r0 = 0;"					\
			     "exit;" ::: "memory");			\
	}

WALK(w_int, "r3 = *(u32 *)(r2 + 0);")
WALK(w_bitfield, "r3 = *(u8 *)(r2 + 4);")
WALK(w_nested, "r3 = *(u32 *)(r2 + 12);")
WALK(w_array, "r3 = *(u32 *)(r2 + 44);")
WALK(w_ptr, "r3 = *(u64 *)(r2 + 48); r4 = *(u32 *)(r3 + 4);")
WALK(w_ptr_narrow, "r3 = *(u32 *)(r2 + 48);")
WALK(w_union, "r3 = *(u64 *)(r2 + 56); r4 = *(u32 *)(r3 + 0);")
WALK(w_buf, "r3 = *(u64 *)(r2 + 64);")
WALK(w_beyond, "r3 = *(u64 *)(r2 + 68);")
WALK(w_flex, "r3 = *(u32 *)(r2 + 84);")
WALK(w_hole, "r3 = *(u8 *)(r2 + 5);")
WALK(w_member_end, "r3 = *(u64 *)(r2 + 0);")

/* Tracepoint `loop`: a malformed struct that contains itself at offset
 * 0. The walk must end (unsupported), not hang. */
SEC("tp_btf/loop")
__naked int w_self_nested(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 0);"
		     "r3 = *(u32 *)(r2 + 0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/no_such_tracepoint")
__naked int w_no_target(void)
{
	asm volatile("r0 = 0;"
		     "exit;" ::: "memory");
}

char LICENSE[] SEC("license") = "GPL";
