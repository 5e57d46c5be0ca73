// SPDX-License-Identifier: BSD-2-Clause
/*
 * bpf_timer in map values: the timer argument of the bpf_timer_* helpers
 * and the map that goes with it; timers are off limits to loads and
 * stores and to tracing programs. Expected results:
 * tests/fixtures/maps/expect.tsv.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#include "maps_test.h"

#define CLOCK_MONOTONIC 1

struct tval {
	long x;
	struct bpf_timer t;	/* at 8 */
};

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct tval);
} timers SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct tval);
} timers2 SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct { long a; long b; long c; });
} notimer SEC(".maps");

/* Per-CPU hashes cannot hold timers: libbpf retries without BTF. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, struct tval);
} percpu_timers SEC(".maps");

#define TPROG(name, map, body)						\
SEC("tc")								\
__naked int name(void)							\
{									\
	asm volatile (							\
	"r1 = 0;"							\
	"*(u32 *)(r10 - 4) = r1;"					\
	"r2 = r10;"							\
	"r2 += -4;"							\
	"r1 = %[m] ll;"							\
	"call %[bpf_map_lookup_elem];"					\
	"if r0 != 0 goto 1f;"						\
	"exit;"								\
	"1:"								\
	body								\
	"r0 = 0;"							\
	"exit;"								\
	:								\
	: __imm(bpf_map_lookup_elem), __imm(bpf_timer_init),		\
	  __imm(bpf_timer_start), __imm(bpf_timer_cancel),		\
	  [m] "i"(&map), __imm_addr(timers), __imm_addr(timers2)	\
	: __clobber_all);						\
}

TPROG(timer_init_ok, timers,
	"r1 = r0;"
	"r1 += 8;"
	"r2 = %[timers] ll;"
	"r3 = 1;"
	"call %[bpf_timer_init];")
TPROG(timer_start_cancel_ok, timers2,
	"r6 = r0;"
	"r1 = r0;"
	"r1 += 8;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_timer_start];"
	"r1 = r6;"
	"r1 += 8;"
	"call %[bpf_timer_cancel];")
TPROG(timer_wrong_off, timers,
	"r1 = r0;"
	"r2 = %[timers] ll;"
	"r3 = 1;"
	"call %[bpf_timer_init];")
TPROG(timer_var_off, timers,
	"r1 = *(u64 *)(r0 + 0);"
	"r1 &= 8;"
	"r1 += r0;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_timer_start];")
TPROG(timer_no_timer, notimer,
	"r1 = r0;"
	"r1 += 8;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_timer_start];")
TPROG(timer_no_btf, percpu_timers,
	"r1 = r0;"
	"r1 += 8;"
	"r2 = 0;"
	"r3 = 0;"
	"call %[bpf_timer_start];")
TPROG(timer_other_map, timers,
	"r1 = r0;"
	"r1 += 8;"
	"r2 = %[timers2] ll;"
	"r3 = 1;"
	"call %[bpf_timer_init];")
TPROG(timer_load, timers,
	"r1 = *(u64 *)(r0 + 16);")
TPROG(timer_store_across, timers,
	"r1 = 0;"
	"*(u32 *)(r0 + 6) = r1;")
TPROG(timer_plain_field_ok, timers,
	"r1 = *(u64 *)(r0 + 0);"
	"r1 += 1;"
	"*(u64 *)(r0 + 0) = r1;")

SEC("kprobe/do_nanosleep")
int kprobe_uses_timer_map(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&timers, &k) != 0;
}

SEC("raw_tracepoint/sys_enter")
int raw_tp_uses_timer_map(void *ctx)
{
	int k = 0;

	return bpf_map_lookup_elem(&timers2, &k) != 0;
}

char _license[] SEC("license") = "GPL";
