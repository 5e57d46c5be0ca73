// SPDX-License-Identifier: BSD-2-Clause
/*
 * Accepted: the smallest useful XDP program, letting every packet through.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_pass(struct xdp_md *ctx)
{
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
