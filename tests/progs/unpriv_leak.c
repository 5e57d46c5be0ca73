// SPDX-License-Identifier: BSD-2-Clause
/* Programs only an unprivileged load rejects: the kernel lets a program
 * with CAP_PERFMON leak kernel addresses (env->allow_ptr_leaks) and not
 * one without. tests/cli/unpriv_sysctl.sh loads them with `bpfvet kernel
 * --unpriv` to show that the capabilities are really gone. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

/* The context pointer as the return value. */
SEC("socket")
__attribute__((naked)) int leak_ctx_ret(void)
{
	asm volatile("r0 = r1;"
		     "exit;");
}

/* A plain program both loads accept. */
SEC("socket")
__attribute__((naked)) int plain_ret(void)
{
	asm volatile("r0 = 0;"
		     "exit;");
}

char _license[] SEC("license") = "GPL";
