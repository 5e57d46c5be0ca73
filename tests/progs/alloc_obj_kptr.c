// SPDX-License-Identifier: BSD-2-Clause
/* Local kptrs (src/verifier/kptr.c): kptr fields of map values and of
 * allocated objects whose struct only the program has, stashed with
 * bpf_kptr_xchg, loaded (RCU-protected in a program that cannot sleep),
 * and per-CPU ones read through bpf_this_cpu_ptr/bpf_per_cpu_ptr. The
 * verdicts and messages in tests/cli/alloc_obj.sh are the running
 * 6.18.44 kernel's (bpfvet kernel --log-diff: identical logs). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#define __kptr __attribute__((btf_type_tag("kptr")))
#define __percpu_kptr __attribute__((btf_type_tag("percpu_kptr")))

extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_percpu_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;

#define obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define percpu_new(type) ((type *)bpf_percpu_obj_new_impl(bpf_core_type_id_local(type), NULL))

struct plain {
	long a;
	long b;
};

struct other {
	long c;
};

struct pc {
	long n;
};

struct holder {
	long a;
	struct plain __kptr *inner;
};

struct val {
	struct plain __kptr *p;
	struct pc __percpu_kptr *c;
	struct holder __kptr *h;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, int);
	__type(value, struct val);
} vals SEC(".maps");

static __always_inline struct val *value(void)
{
	int key = 0;

	return bpf_map_lookup_elem(&vals, &key);
}

SEC("tc") int stash(void *ctx)
{
	struct val *v = value();
	struct plain *p, *old;

	if (!v)
		return 0;
	p = obj_new(struct plain);
	if (!p)
		return 0;
	p->a = 1;
	old = bpf_kptr_xchg(&v->p, p);
	if (old)
		bpf_obj_drop_impl(old, NULL);
	return 0;
}

SEC("tc") int stash_use_after(void *ctx)
{
	struct val *v = value();
	struct plain *p, *old;

	if (!v)
		return 0;
	p = obj_new(struct plain);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&v->p, p);
	if (old)
		bpf_obj_drop_impl(old, NULL);
	return p->a;
}

SEC("tc") int stash_wrong_type(void *ctx)
{
	struct val *v = value();
	struct other *p, *old;

	if (!v)
		return 0;
	p = obj_new(struct other);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&v->p, p);
	if (old)
		bpf_obj_drop_impl(old, NULL);
	return 0;
}

SEC("tc") int load_rcu(void *ctx)
{
	struct val *v = value();
	struct plain *p;

	if (!v)
		return 0;
	p = v->p;
	if (!p)
		return 0;
	p->b = 2;
	return p->a;
}

SEC("tc") int load_no_check(void *ctx)
{
	struct val *v = value();

	if (!v)
		return 0;
	return v->p->a;
}

SEC("tc") int load_drop(void *ctx)
{
	struct val *v = value();
	struct plain *p;

	if (!v)
		return 0;
	p = v->p;
	if (p)
		bpf_obj_drop_impl(p, NULL);
	return 0;
}

SEC("tc") int store_direct(void *ctx)
{
	struct val *v = value();
	struct plain *p;

	if (!v)
		return 0;
	p = obj_new(struct plain);
	if (!p)
		return 0;
	v->p = p;
	return 0;
}

SEC("tc") int unstash(void *ctx)
{
	struct val *v = value();
	struct plain *p;

	if (!v)
		return 0;
	p = bpf_kptr_xchg(&v->p, NULL);
	if (!p)
		return 0;
	p->b = 3;
	bpf_obj_drop_impl(p, NULL);
	return 0;
}

SEC("tc") int unstash_leak(void *ctx)
{
	struct val *v = value();
	struct plain *p;

	if (!v)
		return 0;
	p = bpf_kptr_xchg(&v->p, NULL);
	if (!p)
		return 0;
	return p->a;
}

SEC("tc") int percpu_stash(void *ctx)
{
	struct val *v = value();
	struct pc *p, *old, *mine;

	if (!v)
		return 0;
	p = percpu_new(struct pc);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&v->c, p);
	if (old)
		bpf_percpu_obj_drop_impl(old, NULL);
	/* Stashed in an RCU section: still readable. */
	mine = bpf_this_cpu_ptr(p);
	mine->n++;
	return 0;
}

SEC("tc") int percpu_load(void *ctx)
{
	struct val *v = value();
	struct pc *p, *c0, *me;

	if (!v)
		return 0;
	p = v->c;
	if (!p)
		return 0;
	me = bpf_this_cpu_ptr(p);
	me->n = 1;
	c0 = bpf_per_cpu_ptr(p, 0);
	if (!c0)
		return 0;
	return c0->n;
}

SEC("tc") int percpu_owned_this_cpu(void *ctx)
{
	struct pc *p = percpu_new(struct pc), *me;

	if (!p)
		return 0;
	me = bpf_this_cpu_ptr(p);
	me->n = 1;
	bpf_percpu_obj_drop_impl(p, NULL);
	return 0;
}

SEC("tc") int percpu_into_plain(void *ctx)
{
	struct val *v = value();
	struct plain *p, *old;

	if (!v)
		return 0;
	p = (struct plain *)percpu_new(struct pc);
	if (!p)
		return 0;
	old = bpf_kptr_xchg(&v->p, p);
	if (old)
		bpf_obj_drop_impl(old, NULL);
	return 0;
}

SEC("tc") int kptr_in_obj(void *ctx)
{
	struct holder *h = obj_new(struct holder);
	struct plain *p, *old;

	if (!h)
		return 0;
	p = obj_new(struct plain);
	if (!p) {
		bpf_obj_drop_impl(h, NULL);
		return 0;
	}
	old = bpf_kptr_xchg(&h->inner, p);
	if (old)
		bpf_obj_drop_impl(old, NULL);
	bpf_obj_drop_impl(h, NULL);
	return 0;
}

SEC("tc") int kptr_in_obj_read(void *ctx)
{
	struct holder *h = obj_new(struct holder);
	long x;

	if (!h)
		return 0;
	x = (long)h->inner;
	bpf_obj_drop_impl(h, NULL);
	return x;
}

SEC("tc") int holder_load(void *ctx)
{
	struct val *v = value();
	struct holder *h;
	struct plain *p;

	if (!v)
		return 0;
	h = v->h;
	if (!h)
		return 0;
	p = bpf_kptr_xchg(&h->inner, NULL);
	if (p)
		bpf_obj_drop_impl(p, NULL);
	return 0;
}

char _license[] SEC("license") = "GPL";
