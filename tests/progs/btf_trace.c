// SPDX-License-Identifier: BSD-2-Clause
/* tp_btf programs: the BTF-typed context (arguments from the attach
 * target's prototype) and loads through BTF pointers (struct walks and
 * the trust of the pointers they give). Tracepoints of every 6.18 kernel:
 * sched_switch(bool preempt, struct task_struct *prev, *next,
 * unsigned int prev_state), sched_pi_setprio(tsk, pi_task: may be NULL),
 * kfree_skb(skb, location, reason, rx_sk), xdp_redirect(dev, xdp,
 * const void *tgt, ...), initcall_start(initcall_t func).
 *
 * The C programs read fields by CO-RE (local struct definitions); the
 * naked asm ones use offsets that hold for any layout. */
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

#include "sock_asm.h"

struct file {
	void *f_inode;
} __attribute__((preserve_access_index));

struct mm_struct {
	struct file *exe_file;
} __attribute__((preserve_access_index));

struct cgroup {
	int level;
} __attribute__((preserve_access_index));

struct css_set {
	struct cgroup *dfl_cgrp;
} __attribute__((preserve_access_index));

struct sched_entity {
	unsigned long long exec_start;
} __attribute__((preserve_access_index));

struct task_struct {
	int pid;
	char comm[16];
	struct sched_entity se;
	unsigned int sched_reset_on_fork : 1;
	struct mm_struct *mm;
	struct task_struct *real_parent;
	struct task_struct *group_leader;
	struct css_set *cgroups;
} __attribute__((preserve_access_index));

struct net_device {
	int ifindex;
} __attribute__((preserve_access_index));

struct sock {
	int sk_rcvbuf;
} __attribute__((preserve_access_index));

struct sk_buff {
	struct net_device *dev;
	struct sock *sk;
	unsigned int len;
} __attribute__((preserve_access_index));

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, long);
} task_store SEC(".maps");

/* real_parent and group_leader are RCU-safe fields: rcu_ptr_. */
SEC("tp_btf/sched_switch")
int BPF_PROG(walk_rcu, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return prev->real_parent->pid + prev->group_leader->pid;
}

/* mm is not: untrusted_ptr_, and so is all that is read through it. */
SEC("tp_btf/sched_switch")
int BPF_PROG(walk_untrusted, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct mm_struct *mm = prev->mm;
	struct file *f;

	if (!mm)
		return 0;
	f = mm->exe_file;
	return f && f->f_inode;
}

/* Nested struct, char array, bitfield, and a two-level RCU chain. */
SEC("tp_btf/sched_switch")
int BPF_PROG(walk_fields, bool preempt, struct task_struct *prev, struct task_struct *next,
	     unsigned int prev_state)
{
	long r = prev->comm[3] + prev->sched_reset_on_fork + prev_state;

	r += (long)next->se.exec_start;
	return r + prev->cgroups->dfl_cgrp->level;
}

/* A union on the way gives untrusted_ptr_; skb->sk may be NULL. */
SEC("tp_btf/kfree_skb")
int BPF_PROG(walk_skb, struct sk_buff *skb)
{
	struct net_device *dev = skb->dev;
	struct sock *sk = skb->sk;
	int r = skb->len;

	if (dev)
		r += dev->ifindex;
	if (sk)
		r += sk->sk_rcvbuf;
	return r;
}

/* A helper's BTF return value, and a BTF argument of the right struct. */
SEC("tp_btf/sched_switch")
int BPF_PROG(helper_btf, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	struct task_struct *t = bpf_get_current_task_btf();
	long *v = bpf_task_storage_get(&task_store, next, 0, 0);

	return t->real_parent->pid + (v ? *v : 0);
}

/* The same helper given a css_set: the struct does not match. */
SEC("tp_btf/sched_switch")
int BPF_PROG(helper_wrong_struct, bool preempt, struct task_struct *prev,
	     struct task_struct *next)
{
	long *v = bpf_task_storage_get(&task_store, (void *)prev->cgroups, 0, 0);

	return v ? *v : 0;
}

/* Pruning: both paths reach the join with a trusted task pointer in R6
 * (prev on one, next on the other): the second is pruned there. */
SEC("tp_btf/sched_switch")
__naked int prune_join(void)
{
	asm volatile("r6 = *(u64 *)(r1 + 8);"
		     "r7 = *(u64 *)(r1 + 16);"
		     "r2 = *(u64 *)(r1 + 0);"
		     "if r2 == 0 goto 1f;"
		     "r6 = r7;"
		     "1: call %[bpf_get_prandom_u32];"
		     "if r0 > 5 goto 2f;"
		     "r0 = 1;"
		     "2: r2 = *(u32 *)(r6 + 0);"
		     "r0 = 0;"
		     "exit;"
		     :: __imm(bpf_get_prandom_u32) : "memory");
}

SEC("tp_btf/sched_switch")
__naked int ctx_unaligned(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 4);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ctx_no_such_arg(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 32);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ctx_ptr_narrow(void)
{
	asm volatile("r2 = *(u32 *)(r1 + 8);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ctx_write(void)
{
	asm volatile("r2 = 0;"
		     "*(u64 *)(r1 + 0) = r2;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* const void * reads as a scalar; a function pointer is refused. */
SEC("tp_btf/xdp_redirect")
__naked int ctx_const_void(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 16);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/initcall_start")
__naked int ctx_func_ptr(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ptr_negative(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = *(u32 *)(r2 - 8);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ptr_beyond(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = *(u64 *)(r2 + 32760);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ptr_write(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = 1;"
		     "*(u32 *)(r2 + 0) = r3;"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_switch")
__naked int ptr_var_off(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = *(u32 *)(r1 + 24);"
		     "r3 &= 8;"
		     "r2 += r3;"
		     "r4 = *(u32 *)(r2 + 0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

/* sched_pi_setprio's pi_task may be NULL. */
SEC("tp_btf/sched_pi_setprio")
__naked int ptr_maybe_null(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "r3 = *(u32 *)(r2 + 0);"
		     "r0 = 0;"
		     "exit;" ::: "memory");
}

SEC("tp_btf/sched_pi_setprio")
__naked int ptr_null_checked(void)
{
	asm volatile("r2 = *(u64 *)(r1 + 8);"
		     "if r2 == 0 goto 1f;"
		     "r3 = *(u32 *)(r2 + 0);"
		     "1: r0 = 0;"
		     "exit;" ::: "memory");
}

/* Pointers to anything but a struct read as untrusted memory (6.18). */
struct linux_binprm {
	const char *filename;
} __attribute__((preserve_access_index));

SEC("tp_btf/sched_process_exec")
int BPF_PROG(untrusted_mem, struct task_struct *p, int old_pid, struct linux_binprm *bprm)
{
	const char *fn = bprm->filename;

	if (!fn)
		return 0;
	return fn[3];
}

SEC("tp_btf/sched_process_exec")
int BPF_PROG(untrusted_mem_write, struct task_struct *p, int old_pid, struct linux_binprm *bprm)
{
	char *fn = (char *)bprm->filename;

	fn[1] = 0;
	return 0;
}

/* The kernel struct behind a map, read through the map pointer. */
struct bpf_map {
	unsigned int max_entries;
} __attribute__((preserve_access_index));

SEC("tp_btf/sched_switch")
int BPF_PROG(map_struct, bool preempt)
{
	return ((struct bpf_map *)&task_store)->max_entries;
}

/* Iterators: the task may be NULL at the end of the walk. */
struct bpf_iter_meta {
	void *seq;
} __attribute__((preserve_access_index));

struct bpf_iter__task {
	struct bpf_iter_meta *meta;
	struct task_struct *task;
} __attribute__((preserve_access_index));

long iter_sum;

SEC("iter/task")
int iter_task(struct bpf_iter__task *ctx)
{
	struct task_struct *t = ctx->task;

	if (t)
		iter_sum += t->pid + t->real_parent->pid;
	return 0;
}

SEC("iter/task")
int iter_task_unchecked(struct bpf_iter__task *ctx)
{
	iter_sum += ctx->task->pid;
	return 0;
}

/* Kernel function addresses (typed ksyms): present, absent (weak: 0),
 * and present with another prototype (weak: 0). libbpf 1.1's headers
 * have no ksym_exists(). */
#define sym_present(sym) (!!(unsigned long)(sym))
extern struct task_struct *bpf_task_acquire(struct task_struct *p) __ksym __weak;
extern void bpfvet_no_such_kfunc(void) __ksym __weak;
extern struct task_struct *bpf_task_acquire___wrong(void *ctx) __ksym __weak;

SEC("tp_btf/sched_switch")
int BPF_PROG(ksym_exists, bool preempt)
{
	int r = 0;

	if (sym_present(bpf_task_acquire))
		r |= 1;
	if (sym_present(bpfvet_no_such_kfunc))
		r |= 2;
	if (sym_present(bpf_task_acquire___wrong))
		r |= 4;
	return r;
}

char LICENSE[] SEC("license") = "GPL";
