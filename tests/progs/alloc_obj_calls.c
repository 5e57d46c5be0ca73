// SPDX-License-Identifier: BSD-2-Clause
/* One call of bpf_obj_new, bpf_obj_drop or bpf_refcount_acquire (here in
 * a static function, verified once per caller) serves one type on 6.18:
 * the same size and special fields on every visit
 * (KVER_ALLOC_CALL_ONE_TYPE). The verdicts and messages in
 * tests/cli/alloc_obj.sh are the running 6.18.44 kernel's (bpfvet kernel
 * --log-diff: identical logs). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
struct bpf_refcount { __u32 __opaque[1]; } __attribute__((aligned(4)));
extern void *bpf_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_percpu_obj_new_impl(__u64 local_type_id__k, void *meta__ign) __ksym;
extern void bpf_percpu_obj_drop_impl(void *p__alloc, void *meta__ign) __ksym;
extern void *bpf_refcount_acquire_impl(void *kptr__refcounted_kptr, void *meta__ign) __ksym;
#define obj_new(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
struct a { long x; };
struct b { long y; long z; };
struct c { long w; };
struct l1 { long x; struct bpf_spin_lock lock; };
struct l2 { struct bpf_spin_lock lock; long x; };
struct r1 { long x; struct bpf_refcount ref; };
struct r2 { struct bpf_refcount ref; long x; };

static __attribute__((noinline)) int drop_it(void *p)
{
	bpf_obj_drop_impl(p, NULL);
	return 0;
}

#define TWO(name, T1, T2) \
SEC("tc") int name(struct __sk_buff *ctx) \
{ \
	T1 *p = obj_new(T1); \
	T2 *q; \
	if (!p) return 0; \
	q = obj_new(T2); \
	if (!q) { bpf_obj_drop_impl(p, NULL); return 0; } \
	drop_it(p); \
	drop_it(q); \
	return 0; \
}
TWO(plain_plain, struct a, struct b)
TWO(plain_meta, struct a, struct l1)
TWO(meta_plain, struct l1, struct a)
TWO(meta_meta, struct l1, struct l2)
TWO(same_same, struct l1, struct l1)

static __attribute__((noinline)) void *new_it(__u64 id)
{
	return bpf_obj_new_impl(id, NULL);
}
SEC("tc") int new_two(struct __sk_buff *ctx)
{
	struct a *p = new_it(bpf_core_type_id_local(struct a));
	struct b *q = new_it(bpf_core_type_id_local(struct b));
	if (p) bpf_obj_drop_impl(p, NULL);
	if (q) bpf_obj_drop_impl(q, NULL);
	return 0;
}
static __attribute__((noinline)) void *acq_it(void *p)
{
	return bpf_refcount_acquire_impl(p, NULL);
}
SEC("tc") int acq_two(struct __sk_buff *ctx)
{
	struct r1 *p = obj_new(struct r1), *p2;
	struct r2 *q, *q2;
	if (!p) return 0;
	q = obj_new(struct r2);
	if (!q) { bpf_obj_drop_impl(p, NULL); return 0; }
	p2 = acq_it(p);
	q2 = acq_it(q);
	if (p2) bpf_obj_drop_impl(p2, NULL);
	if (q2) bpf_obj_drop_impl(q2, NULL);
	bpf_obj_drop_impl(p, NULL);
	bpf_obj_drop_impl(q, NULL);
	return 0;
}
SEC("tc") int new_same_size(struct __sk_buff *ctx)
{
	struct a *p = new_it(bpf_core_type_id_local(struct a));
	struct c *q = new_it(bpf_core_type_id_local(struct c));
	if (p) bpf_obj_drop_impl(p, NULL);
	if (q) bpf_obj_drop_impl(q, NULL);
	return 0;
}
SEC("tc") int new_same_type(struct __sk_buff *ctx)
{
	struct a *p = new_it(bpf_core_type_id_local(struct a));
	struct a *q = new_it(bpf_core_type_id_local(struct a));
	if (p) bpf_obj_drop_impl(p, NULL);
	if (q) bpf_obj_drop_impl(q, NULL);
	return 0;
}
static __attribute__((noinline)) void *pnew_it(__u64 id)
{
	return bpf_percpu_obj_new_impl(id, NULL);
}
SEC("tc") int pnew_two(struct __sk_buff *ctx)
{
	struct a *p = pnew_it(bpf_core_type_id_local(struct a));
	struct b *q = pnew_it(bpf_core_type_id_local(struct b));
	if (p) bpf_percpu_obj_drop_impl(p, NULL);
	if (q) bpf_percpu_obj_drop_impl(q, NULL);
	return 0;
}
static __attribute__((noinline)) int pdrop_it(void *p)
{
	bpf_percpu_obj_drop_impl(p, NULL);
	return 0;
}
SEC("tc") int pdrop_two(struct __sk_buff *ctx)
{
	struct a *p = bpf_percpu_obj_new_impl(bpf_core_type_id_local(struct a), NULL);
	struct b *q;
	if (!p) return 0;
	q = bpf_percpu_obj_new_impl(bpf_core_type_id_local(struct b), NULL);
	if (!q) { bpf_percpu_obj_drop_impl(p, NULL); return 0; }
	pdrop_it(p);
	pdrop_it(q);
	return 0;
}
char _license[] SEC("license") = "GPL";
