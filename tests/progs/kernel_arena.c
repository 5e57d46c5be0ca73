// SPDX-License-Identifier: BSD-2-Clause
/* An arena map, mapped by the loader before the program loads, and a
 * global placed in it. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define MAP_TYPE_ARENA 33	/* BPF_MAP_TYPE_ARENA, newer than these headers */
#define F_MMAPABLE (1U << 10)
#define __arena __attribute__((address_space(1)))

struct {
	__uint(type, MAP_TYPE_ARENA);
	__uint(map_flags, F_MMAPABLE);
	__uint(max_entries, 4);		/* pages */
} arena SEC(".maps");

int __arena hits = 7;

extern void __arena *bpf_arena_alloc_pages(void *map, void __arena *addr, __u32 page_cnt,
					   int node_id, __u64 flags) __ksym;

SEC("syscall")
int arena_use(void *ctx)
{
	int __arena *page = bpf_arena_alloc_pages(&arena, 0, 1, -1, 0);

	if (!page)
		return 1;
	*page = hits;
	hits++;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
