// SPDX-License-Identifier: BSD-2-Clause
/* __kconfig externs of every kind libbpf fills, and programs whose verdict
 * depends on their values: with a kernel config they are constants, the
 * failing branch is dead and the program is accepted; without one they
 * are unknown and the verifier walks into the bad access. Also typeless
 * ksyms and a perf event array that libbpf sizes by the CPU count. */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern int LINUX_HAS_BPF_COOKIE __kconfig;
extern int LINUX_HAS_SYSCALL_WRAPPER __kconfig;
extern bool CONFIG_BPF_SYSCALL __kconfig;
extern int CONFIG_HZ __kconfig;
extern enum libbpf_tristate CONFIG_BPFVET_TRI __kconfig __weak;
extern char CONFIG_BPFVET_CHAR __kconfig __weak;
extern char CONFIG_LOCALVERSION[8] __kconfig __weak;
extern unsigned long long CONFIG_BPFVET_ABSENT __kconfig __weak;
extern short CONFIG_BPFVET_NEG __kconfig __weak;

extern const void __start_rodata __ksym;
extern const void bpfvet_no_such_symbol __ksym __weak;

struct {
	__uint(type, BPF_MAP_TYPE_PERF_EVENT_ARRAY);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} events SEC(".maps");

#define BAD() (*(volatile int *)0)

SEC("socket")
int hz_is_250(void *ctx)
{
	if (CONFIG_HZ != 250)
		return BAD();
	return 0;
}

SEC("socket")
int version_at_least_6_18(void *ctx)
{
	if (LINUX_KERNEL_VERSION < ((6 << 16) + (18 << 8)))
		return BAD();
	return LINUX_HAS_BPF_COOKIE;
}

/* 1 unless the target says libbpf finds no wrapper (--no-syscall-wrapper). */
SEC("socket")
int needs_syscall_wrapper(void *ctx)
{
	if (!LINUX_HAS_SYSCALL_WRAPPER)
		return BAD();
	return 0;
}

SEC("socket")
int syscall_and_absent(void *ctx)
{
	if (!CONFIG_BPF_SYSCALL || CONFIG_BPFVET_ABSENT)
		return BAD();
	return CONFIG_BPFVET_TRI + CONFIG_BPFVET_CHAR + CONFIG_LOCALVERSION[0] +
	       CONFIG_BPFVET_NEG;
}

SEC("socket")
int ksym_present(void *ctx)
{
	unsigned long a = (unsigned long)&__start_rodata;

	if (a < 0xffff000000000000ul)	/* a kernel address */
		return BAD();
	return (unsigned long)&bpfvet_no_such_symbol != 0;
}

char LICENSE[] SEC("license") = "GPL";
