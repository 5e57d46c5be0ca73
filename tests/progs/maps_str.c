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

/*
 * bpf_snprintf(out, 16, fmt, args, len): the format is parsed at load
 * time against the number of u64 arguments (len / 8).
 */
const char fmt_ok[] = "a=%d b=%llx c=%s %% %pI4 %-08lu";
const char fmt_one[] = "n=%u";
const char fmt_bad_conv[] = "%q";
const char fmt_bad_ptr[] = "%pZ";
const char fmt_ctrl[] = "a\x01b";
const char fmt_str_suffix[] = "%sx";

#define PRINTF(name, fmt, len)						\
SEC("tc")								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r1 = 0;"							\
	"*(u64 *)(r10 - 8) = r1;"					\
	"*(u64 *)(r10 - 16) = r1;"					\
	"*(u64 *)(r10 - 24) = r1;"					\
	"*(u64 *)(r10 - 32) = r1;"					\
	"*(u64 *)(r10 - 40) = r1;"					\
	"*(u64 *)(r10 - 48) = r1;"					\
	"*(u64 *)(r10 - 56) = r1;"					\
	"*(u64 *)(r10 - 64) = r1;"					\
	"r1 = r10;"							\
	"r1 += -16;"							\
	"r2 = 16;"							\
	"r3 = %[f] ll;"							\
	"r4 = r10;"							\
	"r4 += -64;"							\
	"r5 = " #len ";"						\
	"call %[bpf_snprintf];"						\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_snprintf), [f] "i"(&fmt)				\
	: __clobber_all);						\
}

PRINTF(snprintf_ok, fmt_ok, 40)
PRINTF(snprintf_too_few_args, fmt_ok, 32)
PRINTF(snprintf_len_not_u64s, fmt_one, 12)
PRINTF(snprintf_one_arg_ok, fmt_one, 8)
PRINTF(snprintf_bad_conversion, fmt_bad_conv, 8)
PRINTF(snprintf_bad_pointer, fmt_bad_ptr, 8)
PRINTF(snprintf_control_char, fmt_ctrl, 0)
PRINTF(snprintf_string_suffix, fmt_str_suffix, 8)

char _license[] SEC("license") = "GPL";
