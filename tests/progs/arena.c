// SPDX-License-Identifier: BSD-2-Clause
/* Arena programs (src/verifier/arena.c). The first three need no arena
 * and were loaded into the running 6.18.44 kernel: their verdicts,
 * counts and level-2 logs are recorded in tests/cli/arena.sh and
 * tests/fixtures/logs/arena-live.txt. The others use the arena map, which
 * that kernel refuses to create (EPERM), so what tests/cli/arena.sh says
 * of them comes from the 6.12 source (kernel/bpf/verifier.c) and from the
 * recorded selftests that do the same (verifier_arena, arena_list). */
#include "sock_asm.h"

#define MAP_TYPE_ARENA 33	/* BPF_MAP_TYPE_ARENA, newer than these headers */
#define F_MMAPABLE (1U << 10)
#define __arena __attribute__((address_space(1)))

/* One raw instruction, for the forms the assembler will not write. */
#define RAW_INSN(code, dst, src, off, imm)					\
	((__u64)(code) | (__u64)((dst) | ((src) << 4)) << 8 |			\
	 (__u64)(__u16)(off) << 16 | (__u64)(__u32)(imm) << 32)

struct {
	__uint(type, MAP_TYPE_ARENA);
	__uint(map_flags, F_MMAPABLE);
	__uint(max_entries, 4);		/* pages */
} arena SEC(".maps");

int __arena counter;

extern void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
					   int node_id, __u64 flags) __ksym;
extern void bpf_arena_free_pages(void *map, void __arena *ptr, __u32 page_cnt) __ksym;

/* The object has an arena, but this program names it nowhere: the kernel
 * ties an arena to a program by the program's own LD_IMM64. */
SEC("syscall") __naked int cast_no_arena(void)
{
	asm volatile("r1 = addr_space_cast(r1, 0, 1);"
		     "r0 = 0;"
		     "exit;");
}

/* Address spaces other than 0 and 1 are checked before the arena. */
SEC("syscall") __naked int cast_bad_space(void)
{
	asm volatile("r1 = addr_space_cast(r1, 0, 2);"
		     "r0 = 0;"
		     "exit;");
}

/* The cast is a 64-bit move only: BPF_ALU | BPF_MOV | BPF_X, off 1. */
SEC("syscall") __naked int cast_32bit(void)
{
	asm volatile(".8byte %[cast];"
		     "r0 = 0;"
		     "exit;"
		     :: [cast] "i"(RAW_INSN(BPF_ALU | BPF_MOV | BPF_X, 1, 1, 1, 1)));
}

/* Loads and stores at any offset, arithmetic of any kind. */
SEC("syscall") __naked int cast_and_access(void)
{
	asm volatile("r2 = %[arena] ll;"
		     "r1 = addr_space_cast(r1, 0, 1);"
		     "r1 += 4096;"
		     "r1 *= 3;"
		     "r0 = *(u64 *)(r1 - 8);"
		     "*(u32 *)(r1 + 30000) = r0;"
		     "*(u8 *)(r1 - 7) = 1;"
		     "r0 = 0;"
		     "exit;"
		     :: __imm_addr(arena) : __clobber_all);
}

/* A scalar plus an arena pointer is the arena pointer. */
SEC("syscall") __naked int scalar_plus_arena(void)
{
	asm volatile("r2 = %[arena] ll;"
		     "r1 = addr_space_cast(r1, 0, 1);"
		     "r2 = 16;"
		     "r2 += r1;"
		     "w3 = 8;"
		     "w3 -= w1;"
		     "r0 = *(u8 *)(r2 + 0);"
		     "r0 = *(u8 *)(r3 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :: __imm_addr(arena) : __clobber_all);
}

/* The cast into the arena's address space gives a number. */
SEC("syscall") __naked int cast_user(void)
{
	asm volatile("r2 = %[arena] ll;"
		     "r1 = addr_space_cast(r1, 1, 0);"
		     "r0 = *(u64 *)(r1 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :: __imm_addr(arena) : __clobber_all);
}

/* A sign-extending load through an arena pointer: JITed since 6.18,
 * refused after the walk before. */
SEC("syscall") __naked int load_sx(void)
{
	asm volatile("r2 = %[arena] ll;"
		     "r1 = addr_space_cast(r1, 0, 1);"
		     "r0 = *(s8 *)(r1 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :: __imm_addr(arena) : __clobber_all);
}

/* A fetching and, or or xor has no arena form in the x86-64 JIT; the
 * fetching add has. */
SEC("syscall") __naked int atomic_fetch_or(void)
{
	asm volatile("r2 = %[arena] ll;"
		     "r1 = addr_space_cast(r1, 0, 1);"
		     "r3 = 1;"
		     "r3 = atomic_fetch_add((u64 *)(r1 + 0), r3);"
		     "r3 = atomic_fetch_or((u64 *)(r1 + 8), r3);"
		     "r0 = 0;"
		     "exit;"
		     :: __imm_addr(arena) : __clobber_all);
}

/* The kfuncs, and an __arena global (an LD_IMM64 of the arena, a number
 * the compiler casts). */
SEC("syscall") int alloc_free(void *ctx)
{
	int __arena *page = bpf_arena_alloc_pages(&arena, 0, 1, -1, 0);

	if (!page)
		return 1;
	*page = counter++;
	bpf_arena_free_pages(&arena, page, 1);
	return 0;
}

/* `__map` wants a pointer whose map field is set: the context has none. */
SEC("syscall") int alloc_ctx_map(void *ctx)
{
	return bpf_arena_alloc_pages(ctx, 0, 1, -1, 0) ? 1 : 0;
}

/* The arena kfuncs are sleepable. */
SEC("tc") int alloc_not_sleepable(void *ctx)
{
	return bpf_arena_alloc_pages(&arena, 0, 1, -1, 0) ? 1 : 0;
}

/* An __arg_arena parameter is a number inside the function, whatever the
 * caller passed: without the cast the compiler emits for an __arena
 * pointer, it cannot be read through. */
__attribute__((noinline)) int read_arena_arg(int *p __attribute__((btf_decl_tag("arg:arena"))))
{
	return p ? *p : 0;
}

SEC("syscall") int arena_arg(void *ctx)
{
	int __arena *page = bpf_arena_alloc_pages(&arena, 0, 1, -1, 0);

	return read_arena_arg((int *)page);
}

char LICENSE[] SEC("license") = "GPL";
