// SPDX-License-Identifier: BSD-2-Clause
/* Allocated objects (src/verifier/alloc_obj.c): bpf_obj_new and
 * bpf_obj_drop, their per-CPU twins and bpf_refcount_acquire, the fields
 * of an object read and written, its special fields refused, and the
 * type checks on the local type id. The verdicts, instruction counts and
 * messages in tests/cli/alloc_obj.sh are the running 6.18.44 kernel's
 * (bpfvet kernel). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* Older UAPI headers lack it. */
struct bpf_refcount {
	__u32 __opaque[1];
} __attribute__((aligned(4)));

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_percpu_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_refcount_acquire_impl(void *kptr__refcounted_kptr, void *meta__ign) __ksym;
extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

#define obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define obj_drop(p) bpf_obj_drop_impl(p, NULL)
#define percpu_new(type) ((type *)bpf_percpu_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define percpu_drop(p) bpf_percpu_obj_drop_impl(p, NULL)
#define refcount_acquire(p) bpf_refcount_acquire_impl(p, NULL)

struct plain {
	long a;
	int b;
	int c;
	struct plain *next;
};

struct locked {
	long a;
	struct bpf_spin_lock lock;
	int b;
};

struct counted {
	long a;
	struct bpf_refcount ref;
	int b;
};

struct big {
	long v[80];
};

struct with_ptr {
	long a;
	long *p;
};

struct val {
	long a;
	long b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} vals SEC(".maps");

SEC("tc") int new_drop(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	long x;

	if (!p)
		return 0;
	p->a = 1;
	p->c = 3;
	x = p->b + p->a;
	obj_drop(p);
	return x & 1;
}

SEC("tc") int new_leak(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	if (!p)
		return 0;
	p->a = 1;
	return 0;
}

SEC("tc") int new_nocheck(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	p->a = 1;
	obj_drop(p);
	return 0;
}

SEC("tc") int use_after_drop(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	if (!p)
		return 0;
	obj_drop(p);
	return p->b;
}

SEC("tc") int drop_null(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	obj_drop(p);
	return 0;
}

/* A pointer member reads as a number: the object's own pointers are not
 * followed. */
SEC("tc") int walk_next(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	int x;

	if (!p)
		return 0;
	x = p->next->b;
	obj_drop(p);
	return x;
}

SEC("tc") int read_lock_field(void *ctx)
{
	struct locked *p = obj_new(struct locked);
	int x;

	if (!p)
		return 0;
	x = *(int *)&p->lock;
	obj_drop(p);
	return x;
}

SEC("tc") int write_refcount(void *ctx)
{
	struct counted *p = obj_new(struct counted);

	if (!p)
		return 0;
	*(int *)&p->ref = 0;
	obj_drop(p);
	return 0;
}

SEC("tc") int locked_fields(void *ctx)
{
	struct locked *p = obj_new(struct locked);
	int x;

	if (!p)
		return 0;
	p->a = 2;
	p->b = 3;
	x = p->b;
	obj_drop(p);
	return x;
}

SEC("tc") int past_end(void *ctx)
{
	struct plain *p = obj_new(struct plain);
	long x;

	if (!p)
		return 0;
	x = *(long *)((char *)p + 24);
	x += *(long *)((char *)p + 32);
	obj_drop(p);
	return x;
}

SEC("tc") int new_int(void *ctx)
{
	int *p = bpf_obj_new_impl(bpf_core_type_id_local(int), NULL);

	if (p)
		obj_drop(p);
	return 0;
}

SEC("tc") int new_not_const(struct __sk_buff *ctx)
{
	void *p = bpf_obj_new_impl(ctx->len, NULL);

	if (p)
		obj_drop(p);
	return 0;
}

SEC("tc") int percpu_new_drop(void *ctx)
{
	struct val *p = percpu_new(struct val);

	if (!p)
		return 0;
	percpu_drop(p);
	return 0;
}

SEC("tc") int percpu_access(void *ctx)
{
	struct val *p = percpu_new(struct val);
	long x;

	if (!p)
		return 0;
	x = p->a;
	percpu_drop(p);
	return x;
}

SEC("tc") int percpu_big(void *ctx)
{
	struct big *p = percpu_new(struct big);

	if (p)
		percpu_drop(p);
	return 0;
}

SEC("tc") int percpu_ptr_member(void *ctx)
{
	struct with_ptr *p = percpu_new(struct with_ptr);

	if (p)
		percpu_drop(p);
	return 0;
}

SEC("tc") int percpu_special(void *ctx)
{
	struct locked *p = percpu_new(struct locked);

	if (p)
		percpu_drop(p);
	return 0;
}

SEC("tc") int drop_wrong_kind(void *ctx)
{
	struct val *p = obj_new(struct val);

	if (p)
		percpu_drop(p);
	return 0;
}

SEC("tc") int percpu_drop_wrong_kind(void *ctx)
{
	struct val *p = percpu_new(struct val);

	if (p)
		obj_drop(p);
	return 0;
}

SEC("tc") int drop_map_value(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key);

	if (v)
		obj_drop(v);
	return 0;
}

SEC("tc") int refcount_ok(void *ctx)
{
	struct counted *p = obj_new(struct counted), *q;

	if (!p)
		return 0;
	q = refcount_acquire(p);
	q->a = 5;
	obj_drop(q);
	obj_drop(p);
	return 0;
}

SEC("tc") int refcount_no_field(void *ctx)
{
	struct plain *p = obj_new(struct plain), *q;

	if (!p)
		return 0;
	q = refcount_acquire(p);
	if (q)
		obj_drop(q);
	obj_drop(p);
	return 0;
}

SEC("tc") int refcount_map_value(void *ctx)
{
	int key = 0;
	struct val *v = bpf_map_lookup_elem(&vals, &key), *q;

	if (!v)
		return 0;
	q = refcount_acquire(v);
	if (q)
		obj_drop(q);
	return 0;
}

SEC("tc") int obj_to_helper(void *ctx)
{
	struct val *p = obj_new(struct val);
	int key = 0;

	if (!p)
		return 0;
	bpf_map_update_elem(&vals, &key, p, 0);
	obj_drop(p);
	return 0;
}

/* Two objects: the branch that keeps the second is pruned only when
 * the registers agree on their types and references. */
SEC("tc") int two_objects(struct __sk_buff *ctx)
{
	struct plain *p = obj_new(struct plain);
	struct val *q;

	if (!p)
		return 0;
	q = obj_new(struct val);
	if (ctx->len > 10)
		p->a = 1;
	else
		p->b = 2;
	if (q) {
		q->a = p->a;
		obj_drop(q);
	}
	obj_drop(p);
	return 0;
}

SEC("tc") int lock_in_obj(void *ctx)
{
	struct locked *p = obj_new(struct locked);

	if (!p)
		return 0;
	bpf_spin_lock(&p->lock);
	p->a = 7;
	bpf_spin_unlock(&p->lock);
	obj_drop(p);
	return 0;
}

SEC("tc") int lock_no_field(void *ctx)
{
	struct plain *p = obj_new(struct plain);

	if (!p)
		return 0;
	bpf_spin_lock((void *)p);
	bpf_spin_unlock((void *)p);
	obj_drop(p);
	return 0;
}

SEC("tc") int lock_wrong_off(void *ctx)
{
	struct locked *p = obj_new(struct locked);

	if (!p)
		return 0;
	bpf_spin_lock((void *)&p->b);
	bpf_spin_unlock((void *)&p->b);
	obj_drop(p);
	return 0;
}

SEC("tc") int lock_two_objs(void *ctx)
{
	struct locked *p = obj_new(struct locked), *q;

	if (!p)
		return 0;
	q = obj_new(struct locked);
	if (!q) {
		obj_drop(p);
		return 0;
	}
	bpf_spin_lock(&p->lock);
	bpf_spin_unlock(&q->lock);
	obj_drop(p);
	obj_drop(q);
	return 0;
}

SEC("tc") int drop_under_lock(void *ctx)
{
	struct locked *p = obj_new(struct locked);

	if (!p)
		return 0;
	bpf_spin_lock(&p->lock);
	obj_drop(p);
	return 0;
}

char _license[] SEC("license") = "GPL";
