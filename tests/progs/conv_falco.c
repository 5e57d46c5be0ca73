// SPDX-License-Identifier: BSD-2-Clause
/* Built as Falco's old probe was (without BTF, see the Makefile): 28-byte
 * map definitions in "maps" found by position, a per-CPU scratch map the
 * loader sizes by the CPU count at run time (0 here), the version
 * sections the loader insists on, and raw tracepoint programs whose
 * fillers run through tail calls, one of them static. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "legacy_maps.h"

struct legacy_map_def_ext SEC("maps") perf_map = {
	.type = BPF_MAP_TYPE_PERF_EVENT_ARRAY, .key_size = 4, .value_size = 4,
};
struct legacy_map_def_ext SEC("maps") tail_map = {
	.type = BPF_MAP_TYPE_PROG_ARRAY, .key_size = 4, .value_size = 4, .max_entries = 8,
};
struct legacy_map_def_ext SEC("maps") frame_scratch = {
	.type = BPF_MAP_TYPE_PERCPU_ARRAY, .key_size = 4, .value_size = 128,
};

char probe_kernel_version[] SEC("kernel_version") = "6.18.44";
unsigned long long probe_api_version SEC("api_version") = 0x800000000ULL;
unsigned long long probe_schema_version SEC("schema_version") = 0x200000000ULL;

static __always_inline unsigned char *scratch(void)
{
	unsigned int cpu = 0;

	return bpf_map_lookup_elem(&frame_scratch, &cpu);
}

SEC("raw_tracepoint/sys_enter") int bpf_sys_enter(struct bpf_raw_tracepoint_args *ctx)
{
	long id = (long)ctx->args[1];
	unsigned char *buf = scratch();

	if (!buf)
		return 0;
	buf[0] = (unsigned char)id;
	bpf_tail_call(ctx, &tail_map, (unsigned int)id & 7);
	return 0;
}

/* A filler: fills the scratch frame and sends it. */
SEC("raw_tracepoint/filler/sys_open_x") int bpf_sys_open_x(struct bpf_raw_tracepoint_args *ctx)
{
	unsigned char *buf = scratch();
	long ret = (long)ctx->args[1];

	if (!buf)
		return 0;
	__builtin_memcpy(buf + 8, &ret, sizeof(ret));
	bpf_perf_event_output(ctx, &perf_map, BPF_F_CURRENT_CPU, buf, 16);
	return 0;
}

/* Static, as Falco's terminate filler: libbpf refuses the object. */
static __attribute__((used)) int SEC("raw_tracepoint/filler/terminate_filler")
bpf_terminate_filler(struct bpf_raw_tracepoint_args *ctx)
{
	unsigned char *buf = scratch();

	if (!buf)
		return 0;
	/* Past the 128-byte frame: the verifier rejects it. */
	bpf_perf_event_output(ctx, &perf_map, BPF_F_CURRENT_CPU, buf, 136);
	return 0;
}

char _license[] SEC("license") = "GPL";
