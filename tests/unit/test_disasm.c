/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Disassembly of every opcode of the ISA (up to v4), each against the text
 * the Linux 6.18 verifier prints. Strings marked "observed" were taken from
 * a 6.18 log; test_disasm_kernel.c re-checks the valid ones live.
 */
#include <errno.h>
#include <stdlib.h>

#include "output/disasm.h"
#include "loader/object.h"
#include "test.h"
#include "base/uapi.h"

#define I(c, d, s, o, i) \
	{ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) }

struct one {
	struct bpfvet_insn insn;
	const char *want;
};

static void check_table(struct test_ctx *t, const struct one *cases, size_t n)
{
	char buf[256];
	size_t i;

	for (i = 0; i < n; i++) {
		int r = disasm_insn(&cases[i].insn, 1, 0, NULL, buf, sizeof(buf));

		CHECK_MSG(t, r == 1, "case %zu (%s): returned %d", i,
			  cases[i].want, r);
		CHECK_STR(t, buf, cases[i].want);
	}
}

#define CHECK_TABLE(t, cases) \
	check_table((t), (cases), sizeof(cases) / sizeof((cases)[0]))

static void alu64(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x07, 1, 0, 0, 5), "(07) r1 += 5" },
		{ I(0x0f, 1, 2, 0, 0), "(0f) r1 += r2" },
		{ I(0x17, 1, 0, 0, -5), "(17) r1 -= -5" },
		{ I(0x1f, 1, 2, 0, 0), "(1f) r1 -= r2" },
		{ I(0x27, 3, 0, 0, 7), "(27) r3 *= 7" },
		{ I(0x2f, 3, 4, 0, 0), "(2f) r3 *= r4" },
		{ I(0x37, 2, 0, 0, 10), "(37) r2 /= 10" },
		{ I(0x3f, 2, 1, 0, 0), "(3f) r2 /= r1" },
		{ I(0x47, 0, 0, 0, 0x100), "(47) r0 |= 256" },
		{ I(0x4f, 0, 9, 0, 0), "(4f) r0 |= r9" },
		{ I(0x57, 1, 0, 0, 255), "(57) r1 &= 255" },
		{ I(0x5f, 1, 2, 0, 0), "(5f) r1 &= r2" },
		{ I(0x67, 1, 0, 0, 32), "(67) r1 <<= 32" },
		{ I(0x6f, 1, 2, 0, 0), "(6f) r1 <<= r2" },
		{ I(0x77, 1, 0, 0, 32), "(77) r1 >>= 32" },
		{ I(0x7f, 1, 2, 0, 0), "(7f) r1 >>= r2" },
		{ I(0x87, 0, 0, 0, 0), "(87) r0 = -r0" },
		{ I(0x97, 2, 0, 0, 3), "(97) r2 %= 3" },
		{ I(0x9f, 2, 1, 0, 0), "(9f) r2 %= r1" },
		{ I(0xa7, 5, 0, 0, -1), "(a7) r5 ^= -1" },
		{ I(0xaf, 5, 6, 0, 0), "(af) r5 ^= r6" },
		{ I(0xb7, 0, 0, 0, 0), "(b7) r0 = 0" },
		{ I(0xb7, 0, 0, 0, -2147483647 - 1), "(b7) r0 = -2147483648" },
		{ I(0xbf, 6, 1, 0, 0), "(bf) r6 = r1" },
		{ I(0xc7, 1, 0, 0, 3), "(c7) r1 s>>= 3" },
		{ I(0xcf, 1, 2, 0, 0), "(cf) r1 s>>= r2" },
		{ I(0xbf, 10, 10, 0, 0), "(bf) r10 = r10" },
	};

	CHECK_TABLE(t, cases);
}

static void alu32(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x04, 1, 0, 0, 5), "(04) w1 += 5" },
		{ I(0x0c, 1, 2, 0, 0), "(0c) w1 += w2" },
		{ I(0x14, 1, 0, 0, 1), "(14) w1 -= 1" },
		{ I(0x1c, 1, 2, 0, 0), "(1c) w1 -= w2" },
		{ I(0x24, 1, 0, 0, 3), "(24) w1 *= 3" },
		{ I(0x2c, 1, 2, 0, 0), "(2c) w1 *= w2" },
		{ I(0x34, 1, 0, 0, 3), "(34) w1 /= 3" },
		{ I(0x3c, 1, 2, 0, 0), "(3c) w1 /= w2" },
		{ I(0x44, 1, 0, 0, 8), "(44) w1 |= 8" },
		{ I(0x4c, 1, 2, 0, 0), "(4c) w1 |= w2" },
		{ I(0x54, 1, 0, 0, 255), "(54) w1 &= 255" },
		{ I(0x5c, 1, 2, 0, 0), "(5c) w1 &= w2" },
		{ I(0x64, 1, 0, 0, 31), "(64) w1 <<= 31" },
		{ I(0x6c, 1, 2, 0, 0), "(6c) w1 <<= w2" },
		{ I(0x74, 1, 0, 0, 1), "(74) w1 >>= 1" },
		{ I(0x7c, 1, 2, 0, 0), "(7c) w1 >>= w2" },
		{ I(0x84, 1, 0, 0, 0), "(84) w1 = -w1" },
		{ I(0x94, 1, 0, 0, 7), "(94) w1 %= 7" },
		{ I(0x9c, 1, 2, 0, 0), "(9c) w1 %= w2" },
		{ I(0xa4, 1, 0, 0, 1), "(a4) w1 ^= 1" },
		{ I(0xac, 1, 2, 0, 0), "(ac) w1 ^= w2" },
		{ I(0xb4, 1, 0, 0, -1), "(b4) w1 = -1" },
		{ I(0xbc, 1, 2, 0, 0), "(bc) w1 = w2" },
		{ I(0xc4, 1, 0, 0, 4), "(c4) w1 s>>= 4" },
		{ I(0xcc, 1, 2, 0, 0), "(cc) w1 s>>= w2" },
	};

	CHECK_TABLE(t, cases);
}

/* v4: signed division and modulo (off = 1), sign-extending moves. */
static void alu_v4(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x37, 2, 0, 1, 3), "(37) r2 s/= 3" },
		{ I(0x3f, 2, 1, 1, 0), "(3f) r2 s/= r1" },
		{ I(0x97, 2, 0, 1, -3), "(97) r2 s%= -3" },
		{ I(0x9f, 2, 1, 1, 0), "(9f) r2 s%= r1" },
		{ I(0x34, 2, 0, 1, 3), "(34) w2 s/= 3" },
		{ I(0x3c, 2, 1, 1, 0), "(3c) w2 s/= w1" },
		{ I(0x94, 2, 0, 1, 3), "(94) w2 s%= 3" },
		{ I(0x9c, 2, 1, 1, 0), "(9c) w2 s%= w1" },
		{ I(0xbf, 3, 2, 8, 0), "(bf) r3 = (s8)r2" },
		{ I(0xbf, 3, 2, 16, 0), "(bf) r3 = (s16)r2" },
		{ I(0xbf, 3, 2, 32, 0), "(bf) r3 = (s32)r2" },
		{ I(0xbc, 4, 2, 8, 0), "(bc) w4 = (s8)w2" },
		{ I(0xbc, 4, 2, 16, 0), "(bc) w4 = (s16)w2" },
	};

	CHECK_TABLE(t, cases);
}

static void endian(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0xd4, 3, 0, 0, 16), "(d4) r3 = le16 r3" },
		{ I(0xd4, 3, 0, 0, 32), "(d4) r3 = le32 r3" },
		{ I(0xd4, 3, 0, 0, 64), "(d4) r3 = le64 r3" },
		{ I(0xdc, 3, 0, 0, 16), "(dc) r3 = be16 r3" },
		{ I(0xdc, 3, 0, 0, 32), "(dc) r3 = be32 r3" },
		{ I(0xdc, 3, 0, 0, 64), "(dc) r3 = be64 r3" },
		{ I(0xd7, 4, 0, 0, 16), "(d7) r4 = bswap16 r4" },
		{ I(0xd7, 4, 0, 0, 32), "(d7) r4 = bswap32 r4" },
		{ I(0xd7, 4, 0, 0, 64), "(d7) r4 = bswap64 r4" },
	};

	CHECK_TABLE(t, cases);
}

static void addr_space_cast(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0xbf, 2, 1, 1, 1), "(bf) r2 = addr_space_cast(r1, 0, 1)" },
		{ I(0xbf, 1, 2, 1, 0x10000),
		  "(bf) r1 = addr_space_cast(r2, 1, 0)" },
		/* observed: rejected, but printed first */
		{ I(0xbf, 1, 2, 1, 5), "(bf) r1 = addr_space_cast(r2, 0, 5)" },
		{ I(0xbf, 1, 2, 1, -1),
		  "(bf) r1 = addr_space_cast(r2, 65535, 65535)" },
	};

	CHECK_TABLE(t, cases);
}

static void ldx_st_stx(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x61, 0, 1, 0, 0), "(61) r0 = *(u32 *)(r1 +0)" },
		{ I(0x69, 0, 1, 2, 0), "(69) r0 = *(u16 *)(r1 +2)" },
		{ I(0x71, 0, 1, 3, 0), "(71) r0 = *(u8 *)(r1 +3)" },
		{ I(0x79, 2, 10, -8, 0), "(79) r2 = *(u64 *)(r10 -8)" },
		{ I(0x81, 5, 10, -4, 0), "(81) r5 = *(s32 *)(r10 -4)" },
		{ I(0x89, 5, 10, -6, 0), "(89) r5 = *(s16 *)(r10 -6)" },
		{ I(0x91, 5, 10, -8, 0), "(91) r5 = *(s8 *)(r10 -8)" },
		{ I(0x62, 1, 0, 48, 0), "(62) *(u32 *)(r1 +48) = 0" },
		{ I(0x6a, 10, 0, -2, -1), "(6a) *(u16 *)(r10 -2) = -1" },
		{ I(0x72, 10, 0, -1, 255), "(72) *(u8 *)(r10 -1) = 255" },
		{ I(0x7a, 10, 0, -8, 0), "(7a) *(u64 *)(r10 -8) = 0" },
		{ I(0x63, 10, 1, -4, 0), "(63) *(u32 *)(r10 -4) = r1" },
		{ I(0x6b, 10, 1, -2, 0), "(6b) *(u16 *)(r10 -2) = r1" },
		{ I(0x73, 10, 1, -1, 0), "(73) *(u8 *)(r10 -1) = r1" },
		{ I(0x7b, 10, 1, -8, 0), "(7b) *(u64 *)(r10 -8) = r1" },
		/* observed: extreme offsets */
		{ I(0x71, 1, 10, -32768, 0), "(71) r1 = *(u8 *)(r10 -32768)" },
		{ I(0x72, 10, 0, 32767, -1), "(72) *(u8 *)(r10 +32767) = -1" },
	};

	CHECK_TABLE(t, cases);
}

static void atomics(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0xdb, 10, 1, -8, 0x00), "(db) lock *(u64 *)(r10 -8) += r1" },
		{ I(0xdb, 10, 1, -8, 0x40), "(db) lock *(u64 *)(r10 -8) |= r1" },
		{ I(0xdb, 10, 1, -8, 0x50), "(db) lock *(u64 *)(r10 -8) &= r1" },
		{ I(0xdb, 10, 1, -8, 0xa0), "(db) lock *(u64 *)(r10 -8) ^= r1" },
		{ I(0xc3, 10, 1, -4, 0x00), "(c3) lock *(u32 *)(r10 -4) += r1" },
		{ I(0xc3, 10, 1, -4, 0x40), "(c3) lock *(u32 *)(r10 -4) |= r1" },
		{ I(0xc3, 10, 1, -4, 0x50), "(c3) lock *(u32 *)(r10 -4) &= r1" },
		{ I(0xc3, 10, 1, -4, 0xa0), "(c3) lock *(u32 *)(r10 -4) ^= r1" },
		{ I(0xdb, 10, 1, -8, 0x01),
		  "(db) r1 = atomic64_fetch_add((u64 *)(r10 -8), r1)" },
		{ I(0xdb, 10, 1, -8, 0x41),
		  "(db) r1 = atomic64_fetch_or((u64 *)(r10 -8), r1)" },
		{ I(0xdb, 10, 1, -8, 0x51),
		  "(db) r1 = atomic64_fetch_and((u64 *)(r10 -8), r1)" },
		{ I(0xdb, 10, 1, -8, 0xa1),
		  "(db) r1 = atomic64_fetch_xor((u64 *)(r10 -8), r1)" },
		{ I(0xc3, 10, 2, -4, 0x01),
		  "(c3) r2 = atomic_fetch_add((u32 *)(r10 -4), r2)" },
		{ I(0xc3, 10, 2, -4, 0x41),
		  "(c3) r2 = atomic_fetch_or((u32 *)(r10 -4), r2)" },
		{ I(0xc3, 10, 2, -4, 0x51),
		  "(c3) r2 = atomic_fetch_and((u32 *)(r10 -4), r2)" },
		{ I(0xc3, 10, 2, -4, 0xa1),
		  "(c3) r2 = atomic_fetch_xor((u32 *)(r10 -4), r2)" },
		{ I(0xdb, 10, 1, -8, 0xe1),
		  "(db) r1 = atomic64_xchg((u64 *)(r10 -8), r1)" },
		{ I(0xc3, 10, 1, -4, 0xe1),
		  "(c3) r1 = atomic_xchg((u32 *)(r10 -4), r1)" },
		{ I(0xdb, 10, 1, -8, 0xf1),
		  "(db) r0 = atomic64_cmpxchg((u64 *)(r10 -8), r0, r1)" },
		{ I(0xc3, 10, 1, -4, 0xf1),
		  "(c3) r0 = atomic_cmpxchg((u32 *)(r10 -4), r0, r1)" },
		/* Linux 6.15+: load-acquire / store-release, every size (observed) */
		{ I(0xdb, 2, 10, -8, 0x100),
		  "(db) r2 = load_acquire((u64 *)(r10 -8))" },
		{ I(0xc3, 2, 10, -8, 0x100),
		  "(c3) r2 = load_acquire((u32 *)(r10 -8))" },
		{ I(0xcb, 2, 10, -8, 0x100),
		  "(cb) r2 = load_acquire((u16 *)(r10 -8))" },
		{ I(0xd3, 2, 10, -8, 0x100),
		  "(d3) r2 = load_acquire((u8 *)(r10 -8))" },
		{ I(0xdb, 10, 1, -8, 0x110),
		  "(db) store_release((u64 *)(r10 -8), r1)" },
		{ I(0xc3, 10, 1, -8, 0x110),
		  "(c3) store_release((u32 *)(r10 -8), r1)" },
		{ I(0xcb, 10, 1, -8, 0x110),
		  "(cb) store_release((u16 *)(r10 -8), r1)" },
		{ I(0xd3, 10, 1, -8, 0x110),
		  "(d3) store_release((u8 *)(r10 -8), r1)" },
		/* observed: RMW on B/H is printed, then rejected */
		{ I(0xd3, 10, 1, -8, 0x00), "(d3) lock *(u8 *)(r10 -8) += r1" },
		{ I(0xcb, 10, 1, -8, 0x01),
		  "(cb) r1 = atomic_fetch_add((u16 *)(r10 -8), r1)" },
		/* observed: unknown atomic imm */
		{ I(0xdb, 10, 1, -8, 0x02), "BUG_db" },
		{ I(0xdb, 10, 1, -8, 0x101), "BUG_db" },
	};

	CHECK_TABLE(t, cases);
}

static void jumps(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x05, 0, 0, 1, 0), "(05) goto pc+1" },
		{ I(0x05, 0, 0, -3, 0), "(05) goto pc-3" },
		{ I(0x05, 0, 0, 0, 0), "(05) goto pc+0" },
		{ I(0x06, 0, 0, 0, 0), "(06) gotol pc+0" },
		{ I(0x06, 0, 0, 0, -70000), "(06) gotol pc-70000" },
		{ I(0xe5, 0, 0, 1, 0), "(e5) may_goto pc+1" },
		{ I(0x95, 0, 0, 0, 0), "(95) exit" },
		{ I(0x15, 1, 0, 2, 0), "(15) if r1 == 0x0 goto pc+2" },
		{ I(0x1d, 1, 2, 2, 0), "(1d) if r1 == r2 goto pc+2" },
		{ I(0x25, 2, 0, 2, 10), "(25) if r2 > 0xa goto pc+2" },
		{ I(0x2d, 2, 3, 2, 0), "(2d) if r2 > r3 goto pc+2" },
		{ I(0x35, 2, 0, 2, -1), "(35) if r2 >= 0xffffffff goto pc+2" },
		{ I(0x3d, 2, 3, 2, 0), "(3d) if r2 >= r3 goto pc+2" },
		{ I(0x45, 2, 0, 2, 8), "(45) if r2 & 0x8 goto pc+2" },
		{ I(0x4d, 2, 3, 2, 0), "(4d) if r2 & r3 goto pc+2" },
		{ I(0x55, 0, 1, -2, 0), "(55) if r0 != 0x0 goto pc-2" },
		{ I(0x5d, 0, 1, -2, 0), "(5d) if r0 != r1 goto pc-2" },
		{ I(0x65, 2, 0, 2, 10), "(65) if r2 s> 0xa goto pc+2" },
		{ I(0x6d, 2, 3, 2, 0), "(6d) if r2 s> r3 goto pc+2" },
		{ I(0x75, 2, 0, 2, -5), "(75) if r2 s>= 0xfffffffb goto pc+2" },
		{ I(0x7d, 2, 3, 2, 0), "(7d) if r2 s>= r3 goto pc+2" },
		{ I(0xa5, 2, 0, 2, 10), "(a5) if r2 < 0xa goto pc+2" },
		{ I(0xad, 2, 3, 2, 0), "(ad) if r2 < r3 goto pc+2" },
		{ I(0xb5, 2, 0, 2, 10), "(b5) if r2 <= 0xa goto pc+2" },
		{ I(0xbd, 2, 3, 2, 0), "(bd) if r2 <= r3 goto pc+2" },
		{ I(0xc5, 2, 0, 2, 10), "(c5) if r2 s< 0xa goto pc+2" },
		{ I(0xcd, 2, 3, 2, 0), "(cd) if r2 s< r3 goto pc+2" },
		{ I(0xd5, 2, 0, 2, 10), "(d5) if r2 s<= 0xa goto pc+2" },
		{ I(0xdd, 2, 3, 2, 0), "(dd) if r2 s<= r3 goto pc+2" },
	};

	CHECK_TABLE(t, cases);
}

static void jumps32(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x16, 1, 0, 0, 5), "(16) if w1 == 0x5 goto pc+0" },
		{ I(0x1e, 1, 2, 0, 0), "(1e) if w1 == w2 goto pc+0" },
		{ I(0x26, 1, 0, 0, 5), "(26) if w1 > 0x5 goto pc+0" },
		{ I(0x2e, 1, 2, 0, 0), "(2e) if w1 > w2 goto pc+0" },
		{ I(0x36, 1, 0, 0, 5), "(36) if w1 >= 0x5 goto pc+0" },
		{ I(0x3e, 1, 2, 0, 0), "(3e) if w1 >= w2 goto pc+0" },
		{ I(0x46, 1, 0, 0, 5), "(46) if w1 & 0x5 goto pc+0" },
		{ I(0x4e, 1, 2, 0, 0), "(4e) if w1 & w2 goto pc+0" },
		{ I(0x56, 1, 0, 0, 5), "(56) if w1 != 0x5 goto pc+0" },
		{ I(0x5e, 1, 2, 0, 0), "(5e) if w1 != w2 goto pc+0" },
		{ I(0x66, 1, 0, 0, 5), "(66) if w1 s> 0x5 goto pc+0" },
		{ I(0x6e, 1, 2, 0, 0), "(6e) if w1 s> w2 goto pc+0" },
		{ I(0x76, 1, 0, 0, 5), "(76) if w1 s>= 0x5 goto pc+0" },
		{ I(0x7e, 1, 2, 0, 0), "(7e) if w1 s>= w2 goto pc+0" },
		{ I(0xa6, 1, 0, 0, 5), "(a6) if w1 < 0x5 goto pc+0" },
		{ I(0xae, 1, 2, 0, 0), "(ae) if w1 < w2 goto pc+0" },
		{ I(0xb6, 1, 0, 0, 5), "(b6) if w1 <= 0x5 goto pc+0" },
		{ I(0xbe, 1, 2, 0, 0), "(be) if w1 <= w2 goto pc+0" },
		{ I(0xc6, 1, 0, 0, 5), "(c6) if w1 s< 0x5 goto pc+0" },
		{ I(0xce, 1, 2, 0, 0), "(ce) if w1 s< w2 goto pc+0" },
		{ I(0xd6, 1, 0, 0, -5), "(d6) if w1 s<= 0xfffffffb goto pc+0" },
		{ I(0xde, 1, 2, 0, 0), "(de) if w1 s<= w2 goto pc+0" },
	};

	CHECK_TABLE(t, cases);
}

static void calls(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x85, 0, 0, 0, 0), "(85) call bpf_unspec#0" },
		{ I(0x85, 0, 0, 0, 1), "(85) call bpf_map_lookup_elem#1" },
		{ I(0x85, 0, 0, 0, 12), "(85) call bpf_tail_call#12" },
		{ I(0x85, 0, 0, 0, 211), "(85) call bpf_cgrp_storage_delete#211" },
		/* observed: ids the kernel does not know */
		{ I(0x85, 0, 0, 0, 212), "(85) call unknown#212" },
		{ I(0x85, 0, 0, 0, 1000), "(85) call unknown#1000" },
		{ I(0x85, 0, 0, 0, -1), "(85) call unknown#-1" },
		/* observed: bad src_reg never names a helper */
		{ I(0x85, 0, 3, 0, 1), "(85) call unknown#1" },
		{ I(0x85, 0, 1, 0, 2), "(85) call pc+2" },
		{ I(0x85, 0, 1, 0, -5), "(85) call pc-5" },
		{ I(0x85, 0, 1, 0, 0), "(85) call pc+0" },
		/* no resolver: the kernel's fallback name */
		{ I(0x85, 0, 2, 0, 1234), "(85) call kernel-function#1234" },
	};

	CHECK_TABLE(t, cases);
}

static void ld_abs_ind(struct test_ctx *t)
{
	static const struct one cases[] = {
		{ I(0x30, 0, 0, 0, 0), "(30) r0 = *(u8 *)skb[0]" },
		{ I(0x28, 0, 0, 0, 12), "(28) r0 = *(u16 *)skb[12]" },
		{ I(0x20, 0, 0, 0, -4), "(20) r0 = *(u32 *)skb[-4]" },
		{ I(0x50, 0, 3, 0, 4), "(50) r0 = *(u8 *)skb[r3 + 4]" },
		{ I(0x48, 0, 3, 0, 0), "(48) r0 = *(u16 *)skb[r3 + 0]" },
		/* observed: negative imm keeps the '+' */
		{ I(0x40, 0, 2, 0, -4), "(40) r0 = *(u32 *)skb[r2 + -4]" },
		/* observed: dst/off ignored by the text */
		{ I(0x30, 1, 2, 3, 4), "(30) r0 = *(u8 *)skb[4]" },
	};

	CHECK_TABLE(t, cases);
}

/* Encodings the kernel prints and then rejects, and renderings of
 * patterns that never pass its opcode table. */
static void odd_encodings(struct test_ctx *t)
{
	static const struct one cases[] = {
		/* observed */
		{ I(0xbf, 1, 2, -1, 0), "(bf) r1 = &(void __percpu *)(r2)" },
		{ I(0xbc, 1, 2, 32, 0), "(bc) w1 = (s32)w2" },
		{ I(0xb7, 1, 0, 8, 5), "(b7) r1 = 5" },
		{ I(0x0f, 1, 2, 8, 0), "(0f) r1 += r2" },
		{ I(0x37, 1, 0, 2, 3), "(37) r1 /= 3" },
		{ I(0x87, 1, 2, 0, 5), "(87) r1 = -r1" },
		{ I(0x84, 1, 0, 3, 0), "(84) w1 = -w1" },
		{ I(0xdc, 1, 0, 0, 33), "(dc) r1 = be33 r1" },
		{ I(0xd7, 1, 0, 5, 16), "(d7) r1 = bswap16 r1" },
		{ I(0x05, 1, 2, 0, 7), "(05) goto pc+0" },
		{ I(0x06, 0, 0, 3, 0), "(06) gotol pc+0" },
		{ I(0xe5, 0, 1, 0, 0), "(e5) if r0 (null) 0x0 goto pc+0" },
		{ I(0xbf, 11, 2, 0, 0), "(bf) r11 = r2" },
		{ I(0xbf, 1, 12, 0, 0), "(bf) r1 = r12" },
		/* unknown opcodes: what the kernel's disassembler would print */
		{ I(0x8f, 1, 2, 0, 0), "(8f) r1 = -r1" },
		{ I(0xe7, 1, 0, 0, 1), "(e7) r1 (null) 1" },
		{ I(0xff, 1, 2, 0, 0), "(ff) r1 (null) r2" },
		{ I(0x96, 0, 0, 0, 0), "(96) if w0 exit 0x0 goto pc+0" },
		{ I(0x86, 0, 0, 0, 1), "(86) call bpf_map_lookup_elem#1" },
		{ I(0x0d, 1, 2, 3, 0), "(0d) if r1 jmp r2 goto pc+3" },
		{ I(0xe6, 1, 0, 0, 0), "(e6) if w1 (null) 0x0 goto pc+0" },
		{ I(0x99, 1, 2, 0, 0), "(99) r1 = *((null) *)(r2 +0)" },
		{ I(0x21, 1, 2, 0, 0), "BUG_ldx_21" },
		{ I(0x22, 1, 2, 0, 0), "BUG_st_22" },
		{ I(0x42, 1, 2, 0, 0), "BUG_st_42" },
		{ I(0xc2, 1, 2, 0, 0), "(c2) nospec" },
		{ I(0x23, 1, 2, 0, 0), "BUG_23" },
		{ I(0x38, 0, 0, 0, 1), "(38) r0 = *(u64 *)skb[1]" },
		{ I(0x60, 0, 0, 0, 0), "BUG_ld_60" },
		{ I(0x00, 0, 0, 0, 0), "BUG_ld_00" },
	};

	CHECK_TABLE(t, cases);
}

static void ldimm64(struct test_ctx *t)
{
	const struct bpfvet_insn prog[] = {
		I(0x18, 9, 0, 0, 0x23456789), I(0, 0, 0, 0, 0x1),
		I(0x18, 1, 0, 0, -1), I(0, 0, 0, 0, -1),
		I(0x18, 2, 0, 0, 0), I(0, 0, 0, 0, 0),
		I(0x18, 3, 0, 0, 5), I(0, 0, 0, 0, 0),
		I(0x18, 1, BPF_PSEUDO_MAP_FD, 0, 2), I(0, 0, 0, 0, 0),
		I(0x18, 1, BPF_PSEUDO_MAP_VALUE, 0, 1), I(0, 0, 0, 0, 16),
		I(0x18, 1, BPF_PSEUDO_FUNC, 0, 3), I(0, 0, 0, 0, 0),
		I(0x18, 1, BPF_PSEUDO_FUNC, 0, -4), I(0, 0, 0, 0, 0),
	};
	const char *want[] = {
		"(18) r9 = 0x123456789",
		"(18) r1 = 0xffffffffffffffff",
		"(18) r2 = 0x0",
		"(18) r3 = 0x5",
		/* no resolver: the raw immediate */
		"(18) r1 = 0x2",
		"(18) r1 = 0x1000000001",
		"(18) r1 = 0x3",
		"(18) r1 = 0xfffffffc",
	};
	const size_t cnt = sizeof(prog) / sizeof(prog[0]);
	char buf[64];
	size_t i;

	for (i = 0; i < cnt; i += 2) {
		CHECK_INT(t, disasm_insn(prog, cnt, i, NULL, buf, sizeof(buf)), 2);
		CHECK_STR(t, buf, want[i / 2]);
		CHECK(t, disasm_is_ldimm64_tail(prog, cnt, i + 1));
		CHECK(t, !disasm_is_ldimm64_tail(prog, cnt, i));
		CHECK_INT(t, disasm_insn(prog, cnt, i + 1, NULL, buf, sizeof(buf)),
			  -EINVAL);
	}
	/* The first slot alone is not an instruction. */
	CHECK_INT(t, disasm_insn(prog, 1, 0, NULL, buf, sizeof(buf)), -EINVAL);
}

/* A run of ld_imm64 opcodes pairs up from its start, as the kernel walks. */
static void ldimm64_runs(struct test_ctx *t)
{
	const struct bpfvet_insn prog[] = {
		I(0xb7, 0, 0, 0, 0),
		I(0x18, 1, 0, 0, 1), I(0x18, 0, 0, 0, 2),
		I(0x18, 2, 0, 0, 3), I(0x00, 0, 0, 0, 0),
		I(0x95, 0, 0, 0, 0),
	};
	const size_t cnt = sizeof(prog) / sizeof(prog[0]);
	char buf[64];

	CHECK(t, !disasm_is_ldimm64_tail(prog, cnt, 1));
	CHECK(t, disasm_is_ldimm64_tail(prog, cnt, 2));
	CHECK(t, !disasm_is_ldimm64_tail(prog, cnt, 3));
	CHECK(t, disasm_is_ldimm64_tail(prog, cnt, 4));
	CHECK(t, !disasm_is_ldimm64_tail(prog, cnt, 5));
	CHECK(t, !disasm_is_ldimm64_tail(prog, cnt, 99));
	CHECK_INT(t, disasm_insn(prog, cnt, 1, NULL, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0x200000001");
	CHECK_INT(t, disasm_insn(prog, cnt, 3, NULL, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r2 = 0x3");
	CHECK_INT(t, disasm_insn(prog, cnt, 5, NULL, buf, sizeof(buf)), 1);
	CHECK_INT(t, disasm_insn(prog, cnt, 6, NULL, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(t, disasm_insn(NULL, 0, 0, NULL, buf, sizeof(buf)), -EINVAL);
}

/* --- resolvers ------------------------------------------------------ */

static const char *name_kfunc(void *priv, const struct bpfvet_insn *insn,
			      int32_t *id)
{
	(void)priv;
	if (insn->imm != 7)
		return NULL;
	*id = 12345;
	return "bpf_rcu_read_lock";
}

static uint64_t fake_addr(void *priv, const struct bpfvet_insn *insn,
			  uint64_t raw)
{
	*(int *)priv += 1;
	return raw + 0xffff000000000000ULL + insn->src_reg;
}

static void resolvers(struct test_ctx *t)
{
	const struct bpfvet_insn prog[] = {
		I(0x85, 0, 2, 0, 7),
		I(0x85, 0, 2, 0, 8),
		I(0x18, 1, BPF_PSEUDO_MAP_FD, 0, 1), I(0, 0, 0, 0, 0),
		I(0x18, 1, BPF_PSEUDO_MAP_IDX_VALUE, 0, 1), I(0, 0, 0, 0, 4),
		I(0x18, 1, BPF_PSEUDO_BTF_ID, 0, 9), I(0, 0, 0, 0, 0),
		I(0x18, 1, BPF_PSEUDO_FUNC, 0, 2), I(0, 0, 0, 0, 0),
		I(0x18, 1, 0, 0, 2), I(0, 0, 0, 0, 0),
	};
	const size_t cnt = sizeof(prog) / sizeof(prog[0]);
	int calls = 0;
	struct disasm_ops ops = {
		.kfunc_name = name_kfunc,
		.pseudo_value = fake_addr,
		.priv = &calls,
	};
	char buf[64];

	CHECK_INT(t, disasm_insn(prog, cnt, 0, &ops, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "(85) call bpf_rcu_read_lock#12345");
	CHECK_INT(t, disasm_insn(prog, cnt, 1, &ops, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "(85) call kernel-function#8");
	CHECK_INT(t, disasm_insn(prog, cnt, 2, &ops, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0xffff000000000002");
	CHECK_INT(t, disasm_insn(prog, cnt, 4, &ops, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0xffff000400000007");
	CHECK_INT(t, disasm_insn(prog, cnt, 6, &ops, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0xffff00000000000c");
	/* Only pointer forms go through the resolver. */
	CHECK_INT(t, disasm_insn(prog, cnt, 8, &ops, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0x2");
	CHECK_INT(t, disasm_insn(prog, cnt, 10, &ops, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0x2");
	CHECK_INT(t, calls, 3);
}

static void small_buffers(struct test_ctx *t)
{
	const struct bpfvet_insn insn = I(0xb7, 0, 0, 0, 0);
	char buf[16];

	memset(buf, 'x', sizeof(buf));
	CHECK_INT(t, disasm_insn(&insn, 1, 0, NULL, buf, 12), 1);
	CHECK_STR(t, buf, "(b7) r0 = 0");
	CHECK_INT(t, disasm_insn(&insn, 1, 0, NULL, buf, 11), -ENOSPC);
	CHECK_STR(t, buf, "(b7) r0 = ");
	CHECK_INT(t, disasm_insn(&insn, 1, 0, NULL, buf, 1), -ENOSPC);
	CHECK_STR(t, buf, "");
	CHECK_INT(t, disasm_insn(&insn, 1, 0, NULL, buf, 0), -ENOSPC);
	CHECK_INT(t, disasm_insn(&insn, 1, 0, NULL, NULL, 0), -ENOSPC);
	/* The longest fixed form fits DISASM_MAX_LEN. */
	{
		const struct bpfvet_insn big = I(0xdb, 10, 10, -32768, 0xf1);
		char b[DISASM_MAX_LEN];

		CHECK_INT(t, disasm_insn(&big, 1, 0, NULL, b, sizeof(b)), 1);
		CHECK_STR(t, b,
			  "(db) r0 = atomic64_cmpxchg((u64 *)(r10 -32768), r0, r10)");
	}
}

/* Every opcode with extreme field values renders and fits DISASM_MAX_LEN. */
static void all_encodings(struct test_ctx *t)
{
	static const int16_t offs[] = { -32768, -1, 0, 1, 8, 32, 32767 };
	static const int32_t imms[] = {
		-2147483647 - 1, -1, 0, 1, 16, 64, 0xf1, 0x110, 2147483647,
	};
	static const uint8_t regs[] = { 0, 10, 15 };
	struct bpfvet_insn pair[2] = { I(0, 0, 0, 0, 0), I(0, 0, 0, 0, -1) };
	char buf[DISASM_MAX_LEN];
	unsigned code;
	size_t o, i, r;

	for (code = 0; code < 256; code++)
		for (o = 0; o < sizeof(offs) / sizeof(offs[0]); o++)
			for (i = 0; i < sizeof(imms) / sizeof(imms[0]); i++)
				for (r = 0; r < sizeof(regs); r++) {
					int n;

					pair[0] = (struct bpfvet_insn)I(
						code, regs[r], 15 - regs[r],
						offs[o], imms[i]);
					n = disasm_insn(pair, 2, 0, NULL, buf,
							sizeof(buf));
					CHECK_MSG(t, n == (code == 0x18 ? 2 : 1),
						  "code %02x: %d", code, n);
				}
}

/* --- the public wrapper -------------------------------------------- */

static void program_wrapper(struct test_ctx *t)
{
	struct bpfvet_insn insns[] = {
		I(0x18, 1, BPF_PSEUDO_MAP_FD, 0, 0), I(0, 0, 0, 0, 0),
		I(0x18, 2, BPF_PSEUDO_MAP_VALUE, 0, 1), I(0, 0, 0, 0, 8),
		I(0x18, 3, BPF_PSEUDO_BTF_ID, 0, 1), I(0, 0, 0, 0, 0),
		I(0x85, 0, BPF_PSEUDO_KFUNC_CALL, 0, 0),
		I(0x85, 0, BPF_PSEUDO_KFUNC_CALL, 0, 5),
		I(0x95, 0, 0, 0, 0),
	};
	struct bpfvet_extern externs[] = {
		{ .name = "bpf_rcu_read_lock", .kind = BPFVET_EXTERN_KFUNC,
		  .btf_id = 42 },
		{ .name = "bpf_prog_active", .kind = BPFVET_EXTERN_KSYM,
		  .btf_id = 43 },
	};
	struct bpfvet_program prog = {
		.insns = insns,
		.insn_cnt = sizeof(insns) / sizeof(insns[0]),
		.externs = externs,
		.extern_cnt = 2,
	};
	char buf[128];

	CHECK_INT(t, bpfvet_program__disasm(&prog, 0, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r1 = 0xffff888100000000");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 2, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r2 = 0xffff888100101008");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 4, buf, sizeof(buf)), 2);
	CHECK_STR(t, buf, "(18) r3 = 0xffffffff82001000");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 6, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "(85) call bpf_rcu_read_lock#42");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 7, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "(85) call kernel-function#5");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 8, buf, sizeof(buf)), 1);
	CHECK_STR(t, buf, "(95) exit");
	CHECK_INT(t, bpfvet_program__disasm(&prog, 1, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(t, bpfvet_program__disasm(&prog, 9, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(t, bpfvet_program__disasm(NULL, 0, buf, sizeof(buf)), -EINVAL);
	CHECK_INT(t, bpfvet_program__disasm(&prog, 8, buf, 4), -ENOSPC);
	CHECK_STR(t, buf, "(95");
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, alu64);
	RUN(&t, alu32);
	RUN(&t, alu_v4);
	RUN(&t, endian);
	RUN(&t, addr_space_cast);
	RUN(&t, ldx_st_stx);
	RUN(&t, atomics);
	RUN(&t, jumps);
	RUN(&t, jumps32);
	RUN(&t, calls);
	RUN(&t, ld_abs_ind);
	RUN(&t, odd_encodings);
	RUN(&t, ldimm64);
	RUN(&t, ldimm64_runs);
	RUN(&t, resolvers);
	RUN(&t, small_buffers);
	RUN(&t, all_encodings);
	RUN(&t, program_wrapper);
	return test_finish(&t);
}
