// SPDX-License-Identifier: BSD-2-Clause
/* Programs whose unprivileged verdict depends on who loaded the object
 * (bpfvet_open_opts.loader_drop_caps). A loader without CAP_BPF cannot
 * load the object's BTF, so its maps have no bpf_spin_lock field; without
 * CAP_PERFMON its maps are hardened against Spectre v1, so a tail call
 * site that sees two prog arrays is rejected; and it cannot create an LRU
 * hash at all. When a privileged process made the maps, the same
 * programs load or fail elsewhere. tests/cli/unpriv.sh checks both against
 * tests/fixtures/unpriv/loader-6.18.csv. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct counted {
	int cnt;
	struct bpf_spin_lock lock;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct counted);
} locked SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PROG_ARRAY);
	__uint(max_entries, 4);
	__uint(key_size, sizeof(int));
	__uint(value_size, sizeof(int));
} jmp_a SEC(".maps"), jmp_b SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4);
	__type(key, int);
	__type(value, int);
} recent SEC(".maps");

/* With the map's BTF the lock is a field that pointer arithmetic may not
 * reach unprivileged; without it, the helper is what gets refused. */
SEC("cgroup/skb")
int lock_count(struct __sk_buff *skb)
{
	struct counted *v;
	int k = 0;

	v = bpf_map_lookup_elem(&locked, &k);
	if (!v)
		return 1;
	bpf_spin_lock(&v->lock);
	v->cnt++;
	bpf_spin_unlock(&v->lock);
	return 1;
}

/* One call site, two prog arrays. */
SEC("socket")
__attribute__((naked)) int tail_two_arrays(void)
{
	asm volatile("r6 = *(u32 *)(r1 + 0);"
		     "if r6 != 0 goto l0_%=;"
		     "r2 = %[jmp_a] ll;"
		     "goto l1_%=;"
		     "l0_%=: r2 = %[jmp_b] ll;"
		     "l1_%=: r3 = 0;"
		     "call %[tail_call];"
		     "r0 = 0;"
		     "exit;"
		     :
		     : [jmp_a] "i"(&jmp_a), [jmp_b] "i"(&jmp_b),
		       [tail_call] "i"(BPF_FUNC_tail_call)
		     : "memory");
}

/* One prog array: fine either way. */
SEC("socket")
int tail_one_array(struct __sk_buff *skb)
{
	bpf_tail_call(skb, &jmp_a, 0);
	return 0;
}

SEC("socket")
int lru_read(struct __sk_buff *skb)
{
	int k = 0, *v;

	v = bpf_map_lookup_elem(&recent, &k);
	return v ? *v : 0;
}

char _license[] SEC("license") = "GPL";
