// SPDX-License-Identifier: BSD-2-Clause
/*
 * Constant strings for helpers (bpf_strncmp's third argument): they must
 * lie at a known offset in a frozen read-only map and end within it.
 * Expected results: tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

const char pattern[8] = "abc";
/* Its own section, and no NUL anywhere in it. */
const char unterminated[4] SEC(".rodata.nz") = { 'a', 'b', 'c', 'd' };
char writable[8] = "abc";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, char[8]);
	__uint(map_flags, BPF_F_RDONLY_PROG);
} rdonly_map SEC(".maps");

#define SPROG(name, setup)						\
SEC("tc")								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r6 = r1;"							\
	"r1 = 0;"							\
	"*(u64 *)(r10 - 8) = r1;"					\
	setup								\
	"r1 = r10;"							\
	"r1 += -8;"							\
	"r2 = 4;"							\
	"call %[bpf_strncmp];"						\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_strncmp), __imm(bpf_map_lookup_elem),		\
	  __imm_addr(pattern), __imm_addr(unterminated),		\
	  __imm_addr(writable), __imm_addr(rdonly_map)			\
	: __clobber_all);						\
}

SPROG(strncmp_rodata_ok,
	"r3 = %[pattern] ll;")
SPROG(strncmp_rodata_offset_ok,
	"r3 = %[pattern] ll;"
	"r3 += 2;")
SPROG(strncmp_rodata_at_nul_ok,
	"r3 = %[pattern] ll;"
	"r3 += 7;")
SPROG(strncmp_unterminated,
	"r3 = %[unterminated] ll;")
SPROG(strncmp_writable,
	"r3 = %[writable] ll;")
SPROG(strncmp_var_off,
	"r3 = *(u32 *)(r6 + 0);"
	"r3 &= 3;"
	"r4 = %[pattern] ll;"
	"r3 += r4;")
SPROG(strncmp_past_end,
	"r3 = %[pattern] ll;"
	"r3 += 8;")
/* Read-only to the program, but not frozen: not a constant. */
SPROG(strncmp_unfrozen_map,
	"r2 = r10;"
	"r2 += -8;"
	"r1 = %[rdonly_map] ll;"
	"call %[bpf_map_lookup_elem];"
	"if r0 != 0 goto 1f;"
	"exit;"
	"1: r3 = r0;")
SPROG(strncmp_stack,
	"r3 = r10;"
	"r3 += -8;")

char _license[] SEC("license") = "GPL";
