// SPDX-License-Identifier: BSD-2-Clause
/* kfuncs and __ksym externs for the kernel loader test. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
/* Exists in no kernel: weak, so an unresolved call is poisoned. */
extern void bpfvet_no_such_kfunc(void) __ksym __weak;
/* The kernel has it, with another prototype. */
extern int bpf_rcu_read_lock___wrong(int x) __ksym;
/* Typeless ksyms: loaded as their kallsyms address. */
extern const void __start_BTF __ksym;
extern const void bpfvet_no_such_symbol __ksym __weak;

SEC("tc")
int kfunc_call(struct __sk_buff *skb)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return 0;
}

/* Dead code: the call to the missing kfunc is never reached. */
SEC("tc")
int weak_kfunc_guarded(struct __sk_buff *skb)
{
	if (!!bpfvet_no_such_kfunc)	/* bpf_ksym_exists() */
		bpfvet_no_such_kfunc();
	return 0;
}

SEC("tc")
int weak_kfunc_called(struct __sk_buff *skb)
{
	bpfvet_no_such_kfunc();
	return 0;
}

SEC("tc")
int kfunc_bad_proto(struct __sk_buff *skb)
{
	return bpf_rcu_read_lock___wrong(1);
}

SEC("tc")
int typeless_ksym(struct __sk_buff *skb)
{
	/* Known constants: both branches are dead when __start_BTF gets
	 * its kernel address and the missing weak symbol stays 0. */
	if ((unsigned long)&__start_BTF < 0xffff000000000000ul)
		return *(volatile int *)(unsigned long)bpf_get_prandom_u32();
	if (&bpfvet_no_such_symbol)
		return *(volatile int *)(unsigned long)bpf_get_prandom_u32();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
