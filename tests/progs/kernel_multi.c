// SPDX-License-Identifier: BSD-2-Clause
/* Several program kinds in one object, for the kernel loader test: BTF
 * attach targets (tp_btf, fentry), a struct_ops member, a CO-RE field
 * read, and programs the loader cannot bring to the verifier. */
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

/* Only the fields we use; CO-RE finds them in the kernel's types. */
struct task_struct {
	int pid;
	int tgid;
} __attribute__((preserve_access_index));

struct sock;

SEC("tp_btf/sched_switch")
int BPF_PROG(on_switch, bool preempt, struct task_struct *prev, struct task_struct *next)
{
	return prev->pid == next->pid;
}

SEC("raw_tp/sys_enter")
int core_read(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	int pid;

	bpf_probe_read_kernel(&pid, sizeof(pid), &t->tgid);
	return pid;
}

SEC("fentry/bpf_fentry_test1")
int BPF_PROG(on_entry, int a)
{
	return 0;
}

SEC("struct_ops/bpfvet_ca_init")
void BPF_PROG(ca_init, struct sock *sk)
{
}

struct tcp_congestion_ops {
	void (*init)(struct sock *sk);
	char name[16];
} __attribute__((preserve_access_index));

SEC(".struct_ops")
struct tcp_congestion_ops bpfvet_ca = {
	.init = (void *)ca_init,
	.name = "bpfvet_ca",
};

SEC("freplace/some_global_func")
int replacement(struct __sk_buff *skb)
{
	return 0;
}

SEC("bpfvet_unknown_section")
int no_type(void *ctx)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
