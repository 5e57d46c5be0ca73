// SPDX-License-Identifier: BSD-2-Clause
/* kfuncs that Linux 6.12 lacks, called as the 6.18 kernel allows or
 * refuses them: which program types reach the kfunc's later checks, and
 * the flags that its messages reveal (a NULL check, a leak, a sleepable
 * program, a trusted argument), and bpf_local_irq_save/restore. The verdicts, instruction counts and
 * messages in tests/cli/kfuncs_618.sh are the running 6.18.44 kernel's
 * (bpfvet kernel); src/rules/kfunc_rules.c holds the rows they settle. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct task_struct {
	int pid;
	struct task_struct *real_parent;
} __attribute__((preserve_access_index));

struct kmem_cache {
	unsigned int size;
} __attribute__((preserve_access_index));

struct bpf_iter_kmem_cache {
	__u64 __opaque[1];
} __attribute__((aligned(8)));

extern int bpf_strlen(const char *s__ign) __ksym;
extern int bpf_strcmp(const char *s1__ign, const char *s2__ign) __ksym;
extern struct task_struct *bpf_task_from_vpid(int vpid) __ksym;
extern void bpf_task_release(struct task_struct *p) __ksym;
enum pid_type { PIDTYPE_PID };
extern int bpf_send_signal_task(struct task_struct *task, int sig, enum pid_type type,
				__u64 value) __ksym;
extern int bpf_copy_from_user_task_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign,
				       struct task_struct *tsk, __u64 flags) __ksym;
extern int bpf_iter_kmem_cache_new(struct bpf_iter_kmem_cache *it) __ksym;
extern struct kmem_cache *bpf_iter_kmem_cache_next(struct bpf_iter_kmem_cache *it) __ksym;
extern void bpf_iter_kmem_cache_destroy(struct bpf_iter_kmem_cache *it) __ksym;
extern struct kmem_cache *bpf_get_kmem_cache(__u64 addr) __ksym;
extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign,
				  __u64 flags) __ksym;

char s[8] = "abc";
char t[8] = "abd";

/* The string kfuncs: every program type. */
SEC("socket") int strlen_socket(void *ctx) { return bpf_strlen(s) & 1; }
SEC("raw_tp/sys_enter") int strcmp_raw_tp(void *ctx) { return bpf_strcmp(s, t) & 1; }

/* bpf_task_from_vpid: bpf_task_from_pid's program types and flags. */
static __always_inline int vpid(void)
{
	struct task_struct *p = bpf_task_from_vpid(1);

	if (p)
		bpf_task_release(p);
	return 0;
}
SEC("cgroup/sysctl") int vpid_sysctl(void *ctx) { return vpid(); }
SEC("raw_tp/sys_enter") int vpid_raw_tp(void *ctx) { return vpid(); }
SEC("tp_btf/task_newtask") int vpid_nocheck(void *ctx) { return bpf_task_from_vpid(1)->pid; }
SEC("tp_btf/task_newtask") int vpid_leak(void *ctx) { return bpf_task_from_vpid(1) ? 1 : 0; }

/* bpf_send_signal_task: trusted arguments, not for socket filters. */
SEC("socket") int sig_socket(void *ctx) { return bpf_send_signal_task(0, 9, PIDTYPE_PID, 0); }
SEC("tp_btf/task_newtask") int sig_rcu(__u64 *ctx)
{
	struct task_struct *task = (void *)ctx[0];

	return bpf_send_signal_task(task->real_parent, 9, PIDTYPE_PID, 0);
}
SEC("tp_btf/task_newtask") int sig_trusted(__u64 *ctx)
{
	return bpf_send_signal_task((void *)ctx[0], 9, PIDTYPE_PID, 0);
}

/* bpf_copy_from_user_task_str: sleepable, a trusted task. */
SEC("socket") int ustr_socket(void *ctx)
{
	char b[8];

	return bpf_copy_from_user_task_str(b, 8, 0, 0, 0);
}
SEC("syscall") int ustr_null_task(void *ctx)
{
	char b[8];

	return bpf_copy_from_user_task_str(b, 8, 0, 0, 0);
}

/* The kmem_cache iterator: sleepable, any program type. */
static __always_inline int kmem_walk(void)
{
	struct bpf_iter_kmem_cache it;
	struct kmem_cache *c;
	int n = 0;

	bpf_iter_kmem_cache_new(&it);
	while ((c = bpf_iter_kmem_cache_next(&it)))
		n += c->size;
	bpf_iter_kmem_cache_destroy(&it);
	return n;
}
SEC("tc") int kmem_iter_tc(void *ctx) { return kmem_walk(); }
SEC("syscall") int kmem_iter_syscall(void *ctx) { return kmem_walk(); }

/* bpf_get_kmem_cache: any program type, its result not NULL. */
SEC("raw_tp/sys_enter") int kmem_get_nocheck(void *ctx) { return bpf_get_kmem_cache(0)->size; }

/* IRQ-disabled regions: nested, restored innermost first through the
 * slot that saved them, nothing sleeping inside, no exit inside. */
SEC("socket") int irq_nested(void *ctx)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f2);
	bpf_local_irq_restore(&f1);
	return 0;
}
SEC("tc") int irq_out_of_order(void *ctx)
{
	unsigned long f1, f2;

	bpf_local_irq_save(&f1);
	bpf_local_irq_save(&f2);
	bpf_local_irq_restore(&f1);
	bpf_local_irq_restore(&f2);
	return 0;
}
SEC("tc") int irq_no_restore(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	return 0;
}
SEC("tc") int irq_restore_uninit(void *ctx)
{
	unsigned long f = 0;

	bpf_local_irq_restore(&f);
	return 0;
}
SEC("tc") int irq_save_twice(void *ctx)
{
	unsigned long f;

	bpf_local_irq_save(&f);
	bpf_local_irq_save(&f);
	bpf_local_irq_restore(&f);
	return 0;
}
SEC("tc") int irq_overwritten(void *ctx)
{
	volatile unsigned long f;

	bpf_local_irq_save((unsigned long *)&f);
	f = 1;
	bpf_local_irq_restore((unsigned long *)&f);
	return 0;
}
SEC("tc") int irq_not_stack(void *ctx)
{
	bpf_local_irq_save((unsigned long *)ctx);
	return 0;
}
SEC("syscall") int irq_sleepable_kfunc(void *ctx)
{
	unsigned long f;
	char b[8];

	bpf_local_irq_save(&f);
	bpf_copy_from_user_str(b, 8, 0, 0);
	bpf_local_irq_restore(&f);
	return 0;
}
SEC("syscall") int irq_sleepable_helper(void *ctx)
{
	unsigned long f;
	char b[8];

	bpf_local_irq_save(&f);
	bpf_copy_from_user(b, 8, 0);
	bpf_local_irq_restore(&f);
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
