// SPDX-License-Identifier: BSD-2-Clause
/* A function kept in its own executable section, called from a program of
 * another (cilium/ebpf's loader test objects do this): libbpf and the
 * legacy loaders link calls into .text only, cilium/ebpf into any code
 * section. Compiled without BTF (see the Makefile), so that only the call
 * tells auto whose object it is. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

static __attribute__((noinline, section("helpers"))) int clamp(int v)
{
	return v > 64 ? 64 : v;
}

SEC("xdp") int xdp_calls(struct xdp_md *ctx)
{
	return clamp((int)(ctx->data_end - ctx->data)) > 32 ? XDP_PASS : XDP_DROP;
}

char _license[] SEC("license") = "GPL";
