// SPDX-License-Identifier: BSD-2-Clause
/* Every relocation kind: map, map value + offset, string literal in
 * .rodata.str1.1, static and global calls into .text, a callback address
 * (bpf_loop), a kfunc, typed and typeless ksyms, kconfig externs, a hidden
 * global function and an exception callback; plus a version section. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__type(key, __u32);
	__type(value, __u64);
	__uint(max_entries, 4);
} arr SEC(".maps");

struct cfg {
	__u32 a;
	__u32 b;
	__u64 c;
};
struct cfg config = { 1, 2, 3 };	/* .data */

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
extern const int bpf_prog_active __ksym;	/* typed ksym */
extern const void __start_rodata __ksym;	/* typeless ksym */
extern unsigned int LINUX_KERNEL_VERSION __kconfig;
extern _Bool CONFIG_BPF_SYSCALL __kconfig __weak;
extern char CONFIG_HZ_STR[8] __kconfig __weak;

static __noinline int add_static(int x)
{
	return x + (int)config.c;
}

__noinline int add_global(int x)
{
	return add_static(x) * 3;
}

__hidden __noinline int add_hidden(int x)
{
	return x - 1;
}

static int loop_cb(__u32 idx, void *ctx)
{
	*(long *)ctx += idx;
	return 0;
}

SEC("tc")
int relocs(struct __sk_buff *skb)
{
	long sum = 0;
	__u32 key = 1;
	__u64 *v;

	v = bpf_map_lookup_elem(&arr, &key);
	if (v)
		*v += config.b;
	bpf_loop(4, loop_cb, &sum, 0);
	return add_global(skb->len) + add_hidden((int)sum);
}

SEC("tc")
int calls_only(struct __sk_buff *skb)
{
	return add_static(skb->len);
}

SEC("tc")
int externs(struct __sk_buff *ctx)
{
	char buf[4];
	const char *s = "abc";

	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	bpf_probe_read_kernel(buf, sizeof(buf), s);
	return (long)&bpf_prog_active + (long)&__start_rodata +
	       LINUX_KERNEL_VERSION + CONFIG_BPF_SYSCALL + CONFIG_HZ_STR[0] + buf[0];
}

__noinline int exc_cb(__u64 cookie)
{
	return (int)cookie;
}

__attribute__((btf_decl_tag("exception_callback:exc_cb")))
SEC("tc")
int with_exc_cb(struct __sk_buff *skb)
{
	return 0;
}

char LICENSE[] SEC("license") = "GPL";
unsigned int VERSION SEC("version") = 0x060c00;
