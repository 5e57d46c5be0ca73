// SPDX-License-Identifier: BSD-2-Clause
/* Allocated objects in ordinary code: passed to functions, offset,
 * spilled, compared, stored, read narrowly or at a variable offset, given
 * to helpers that take anything. The verdicts in tests/cli/alloc_obj.sh
 * are the running 6.18.44 kernel's (bpfvet kernel --log-diff: identical
 * logs). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
#define obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define obj_drop(p) bpf_obj_drop_impl(p, NULL)
struct plain { long a; long b; struct plain *next; };
struct task_struct { int pid; } __attribute__((preserve_access_index));
extern void bpf_task_release(struct task_struct *p) __ksym;
struct val { long a; long b; };
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} vals SEC(".maps");

__attribute__((noinline)) int global_fn(struct plain *p)
{
	return p ? p->a : 0;
}
static __attribute__((noinline)) int static_fn(struct plain *p)
{
	return p->a;
}
SEC("tc") int to_global(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	int x;
	if (!p) return 0;
	x = global_fn(p);
	obj_drop(p);
	return x;
}
SEC("tc") int to_static(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	int x;
	if (!p) return 0;
	x = static_fn(p);
	obj_drop(p);
	return x;
}
SEC("tc") int arith(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	long *q;
	if (!p) return 0;
	q = &p->b;
	*q = 5;
	obj_drop(p);
	return 0;
}
SEC("tc") int arith_drop(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	if (!p) return 0;
	obj_drop(&p->b);
	return 0;
}
SEC("tc") int ptr_store(void *ctx)
{
	struct plain *p = obj_new(struct plain), *q;
	if (!p) return 0;
	q = obj_new(struct plain);
	if (q) {
		p->next = q;
		obj_drop(q);
	}
	obj_drop(p);
	return 0;
}
SEC("tc") int leak_to_map(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);
	struct plain *p;
	if (!v) return 0;
	p = obj_new(struct plain);
	if (!p) return 0;
	v->a = (long)p;
	obj_drop(p);
	return 0;
}
SEC("tc") int atomic_add(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	if (!p) return 0;
	__sync_fetch_and_add(&p->a, 1);
	obj_drop(p);
	return 0;
}
SEC("tc") int spill(void *ctx)
{
	struct plain *volatile p = obj_new(struct plain);
	struct plain *q;
	if (!p) return 0;
	q = p;
	q->a = 1;
	obj_drop(q);
	return 0;
}
SEC("tc") int probe_read(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	long x = 0;
	if (!p) return 0;
	bpf_probe_read_kernel(&x, 8, p);
	obj_drop(p);
	return x;
}
SEC("tc") int var_off(struct __sk_buff *ctx)
{
	struct plain *p = obj_new(struct plain);
	long x;
	if (!p) return 0;
	x = *(long *)((char *)p + (ctx->len & 8));
	obj_drop(p);
	return x;
}
SEC("tc") int cmp_ptrs(void *ctx)
{
	struct plain *p = obj_new(struct plain), *q;
	int r = 0;
	if (!p) return 0;
	q = obj_new(struct plain);
	if (q) {
		r = p == q;
		obj_drop(q);
	}
	obj_drop(p);
	return r;
}
SEC("tc") int narrow_read(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	int x;
	if (!p) return 0;
	x = *(unsigned char *)((char *)p + 3) + *(int *)((char *)p + 4);
	obj_drop(p);
	return x;
}
/* A kfunc that wants a kernel struct never takes the program's own. */
SEC("tc") int to_kfunc(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	if (!p) return 0;
	bpf_task_release((struct task_struct *)p);
	return 0;
}
char _license[] SEC("license") = "GPL";
