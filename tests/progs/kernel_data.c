// SPDX-License-Identifier: BSD-2-Clause
/* Global data for the kernel loader test. The verifier only knows the
 * value of a global when its map is frozen read-only (.rodata, .kconfig):
 * the `*_known` programs are accepted only because a dead branch with an
 * invalid access is pruned; the same code on .data is rejected. */
#include <linux/bpf.h>
#include <stdbool.h>
#include <bpf/bpf_helpers.h>

#define KV(a, b, c) (((a) << 16) + ((b) << 8) + (c))

const volatile int ro_mode = 1;		/* .rodata */
volatile int rw_mode = 1;		/* .data */
__u64 counter;				/* .bss */
static const char greeting[] = "hello";	/* .rodata too */

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern bool CONFIG_BPF_SYSCALL __kconfig;
extern int CONFIG_BPFVET_NO_SUCH_OPTION __kconfig __weak;

static __always_inline int bad_access(void)
{
	/* Dereferences a scalar: "R1 invalid mem access 'scalar'". */
	return *(volatile int *)(unsigned long)bpf_get_prandom_u32();
}

SEC("socket")
int rodata_known(struct __sk_buff *skb)
{
	if (ro_mode != 1)
		return bad_access();
	return greeting[1] == 'e';
}

SEC("socket")
int data_unknown(struct __sk_buff *skb)
{
	if (rw_mode != 1)
		return bad_access();
	return 0;
}

SEC("socket")
int bss_counter(struct __sk_buff *skb)
{
	__sync_fetch_and_add(&counter, 1);
	return 0;
}

SEC("socket")
int kconfig_known(struct __sk_buff *skb)
{
	if (LINUX_KERNEL_VERSION < KV(5, 0, 0) || !CONFIG_BPF_SYSCALL)
		return bad_access();
	if (CONFIG_BPFVET_NO_SUCH_OPTION)
		return bad_access();
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
