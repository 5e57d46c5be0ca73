// SPDX-License-Identifier: BSD-2-Clause
/* Local kptrs in a sleepable program (syscall): untrusted outside an RCU
 * section, RCU-protected inside; bpf_rcu_read_unlock leaves a loaded
 * object untrusted, which 6.18 still lets the program read
 * (KVER_UNTRUSTED_OBJ_READ) but not write. The verdicts in
 * tests/cli/alloc_obj.sh are the running 6.18.44 kernel's (bpfvet kernel
 * --log-diff: identical logs). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#define __kptr __attribute__((btf_type_tag("kptr")))
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;
struct other { long z; };
struct other other_g;
struct plain { long a; struct other *next; };
struct val { struct plain __kptr *p; };
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} vals SEC(".maps");
SEC("tc") int untrusted_load(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	p = v->p;
	if (!p) return 0;
	return p->a;
}
SEC("syscall") int rcu_load_after(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	bpf_rcu_read_lock();
	p = v->p;
	bpf_rcu_read_unlock();
	if (!p) return 0;
	return (long)p->next;
}
SEC("syscall") int rcu_write(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	bpf_rcu_read_lock();
	p = v->p;
	if (p) p->a = 3;
	bpf_rcu_read_unlock();
	return 0;
}

SEC("tc") int newp(void *ctx)
{
	struct plain *p = bpf_obj_new_impl(bpf_core_type_id_local(struct plain), NULL);
	if (p) bpf_obj_drop_impl(p, NULL);
	return 0;
}
SEC("syscall") int write_after(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	bpf_rcu_read_lock();
	p = v->p;
	bpf_rcu_read_unlock();
	if (!p) return 0;
	p->a = 1;
	return 0;
}
SEC("syscall") int read_lock_after(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	bpf_rcu_read_lock();
	p = v->p;
	bpf_rcu_read_unlock();
	if (!p) return 0;
	return p->a;
}
char _license[] SEC("license") = "GPL";
