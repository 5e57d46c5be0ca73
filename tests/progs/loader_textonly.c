// SPDX-License-Identifier: BSD-2-Clause
/* No SEC() at all: everything lands in .text. libbpf finds no program;
 * given a program type, bpfvet makes the global functions programs and
 * keeps the static one a subprogram. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __noinline int twice(int x)
{
	return x * 2;
}

int first(struct __sk_buff *skb)
{
	return twice(skb->len);
}

int second(struct __sk_buff *skb)
{
	return twice(skb->protocol) + 1;
}

char LICENSE[] SEC("license") = "GPL";
