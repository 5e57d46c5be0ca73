// SPDX-License-Identifier: BSD-2-Clause
/* CO-RE relocations against the running kernel's types: every kind of
 * relocation, flavors, bitfields, a field that no longer exists (guarded
 * and unguarded) and a type that never existed. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct task_struct {
	unsigned int __state;
	int prio;
	int pid;
	int tgid;
	struct task_struct *real_parent;
	char comm[16];
	unsigned int sched_reset_on_fork : 1;
	unsigned int in_execve : 1;
	unsigned long atomic_flags;
} __attribute__((preserve_access_index));

/* Before 5.14 the state was a long called `state`. */
struct task_struct___old {
	long state;
	int pid;
} __attribute__((preserve_access_index));

struct sk_buff {
	unsigned char pkt_type : 3;
	unsigned int len;
} __attribute__((preserve_access_index));

/* Flavors keep the uapi names free; they are ignored when matching. */
enum bpf_map_type___local {
	BPF_MAP_TYPE_ARRAY___local = 100,
	BPF_MAP_TYPE_RINGBUF___local = 200,
	BPF_MAP_TYPE_NO_SUCH_TYPE___local = 300,
};

struct no_such_kernel_type {
	int a;
};

long out[16];

SEC("raw_tp/sys_enter")
int read_fields(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	char comm[16];

	out[0] = BPF_CORE_READ(t, pid);
	out[1] = BPF_CORE_READ(t, real_parent, tgid);
	bpf_core_read_str(comm, sizeof(comm), &t->comm);
	out[2] = comm[0];
	return 0;
}

SEC("raw_tp/sys_enter")
int info(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct task_struct___old *o = (void *)t;

	out[0] = bpf_core_field_exists(t->__state);
	out[1] = bpf_core_field_exists(o->state);
	out[2] = bpf_core_type_exists(struct no_such_kernel_type);
	out[3] = bpf_core_type_size(struct task_struct);
	out[4] = bpf_core_field_size(t->comm);
	out[5] = bpf_core_field_offset(t->tgid);
	out[6] = bpf_core_enum_value_exists(enum bpf_map_type___local, BPF_MAP_TYPE_NO_SUCH_TYPE___local);
	out[7] = bpf_core_enum_value(enum bpf_map_type___local, BPF_MAP_TYPE_RINGBUF___local);
	out[8] = bpf_core_type_id_kernel(struct task_struct);
	out[9] = bpf_core_type_id_local(struct task_struct);
	out[10] = bpf_core_type_matches(struct task_struct);
	out[11] = __builtin_preserve_field_info(t->prio, BPF_FIELD_SIGNED);
	return 0;
}

SEC("raw_tp/sys_enter")
int bitfields(void *ctx)
{
	struct task_struct *t = (void *)bpf_get_current_task();
	struct sk_buff *skb = (void *)ctx;

	out[0] = BPF_CORE_READ_BITFIELD_PROBED(t, in_execve);
	out[1] = BPF_CORE_READ_BITFIELD_PROBED(t, sched_reset_on_fork);
	out[2] = BPF_CORE_READ_BITFIELD_PROBED(skb, pkt_type);
	return 0;
}

SEC("raw_tp/sys_enter")
int guarded(void *ctx)
{
	struct task_struct___old *o = (void *)bpf_get_current_task();

	if (bpf_core_field_exists(o->state))
		out[0] = BPF_CORE_READ(o, state);
	else
		out[0] = BPF_CORE_READ((struct task_struct *)o, __state);
	return 0;
}

SEC("raw_tp/sys_enter")
int unguarded(void *ctx)
{
	struct task_struct___old *o = (void *)bpf_get_current_task();

	out[0] = BPF_CORE_READ(o, state);
	return 0;
}

SEC("tp_btf/sched_switch")
int direct(__u64 *ctx)
{
	struct task_struct *t = bpf_get_current_task_btf();

	out[0] = t->pid + t->prio;
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
