// SPDX-License-Identifier: BSD-2-Clause
/* Callbacks with BTF-typed arguments, as the corpus lacks them on the
 * accepting side: bpf_find_vma's callback reads the area it is given and
 * writes the caller's context; bpf_user_ringbuf_drain's callback gets a
 * constant dynptr and the context. tests/cli/callbacks_progs.sh holds
 * bpfvet to the verdicts, messages and counts the kernel gave. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct vm_area_struct {
	unsigned long vm_start;
	unsigned long vm_end;
} __attribute__((preserve_access_index));

struct task_struct;

struct {
	__uint(type, BPF_MAP_TYPE_USER_RINGBUF);
	__uint(max_entries, 4096);
} user_rb SEC(".maps");

struct span {
	unsigned long start;
	unsigned long len;
};

static long vma_span(struct task_struct *task, struct vm_area_struct *vma, struct span *s)
{
	s->start = vma->vm_start;
	s->len = vma->vm_end - vma->vm_start;
	return 0;
}

SEC("raw_tp")
int find_vma_reads(void *ctx)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct span s = {};

	bpf_find_vma(task, (unsigned long)ctx, vma_span, &s, 0);
	return s.len > 4096;
}

static long vma_bad_ret(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	return 2;
}

SEC("raw_tp")
int find_vma_bad_return(void *ctx)
{
	bpf_find_vma(bpf_get_current_task_btf(), 0, vma_bad_ret, NULL, 0);
	return 0;
}

/* The area is the callback's second argument, not the task's. */
static long vma_task_read(struct task_struct *task, struct vm_area_struct *vma, void *data)
{
	return *(long *)data;
}

SEC("raw_tp")
int find_vma_null_ctx(void *ctx)
{
	bpf_find_vma(bpf_get_current_task_btf(), 0, vma_task_read, NULL, 0);
	return 0;
}

static long mark_seen(struct bpf_dynptr *dynptr, void *data)
{
	*(long *)data = 1;
	return 0;
}

SEC("raw_tp")
int drain_marks(void *ctx)
{
	long seen = 0;

	bpf_user_ringbuf_drain(&user_rb, mark_seen, &seen, 0);
	return seen;
}

static long dynptr_read(struct bpf_dynptr *dynptr, void *data)
{
	return *(long *)dynptr;
}

SEC("raw_tp")
int drain_dynptr_read(void *ctx)
{
	bpf_user_ringbuf_drain(&user_rb, dynptr_read, NULL, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
