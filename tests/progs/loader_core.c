// SPDX-License-Identifier: BSD-2-Clause
/* CO-RE relocation records, in an entry program and in a subprogram that
 * two programs append at different places. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_like {
	int pid;
	int tgid;
	long flags;
} __attribute__((preserve_access_index));

static __noinline long read_flags(struct task_like *t)
{
	return t->flags;
}

SEC("raw_tp/sys_enter")
int core_a(struct task_like *t)
{
	return t->tgid + read_flags(t);
}

SEC("raw_tp/sys_exit")
int core_b(struct task_like *t)
{
	int x = t->pid;

	x += t->tgid;
	return x + read_flags(t);
}

char LICENSE[] SEC("license") = "GPL";
