// SPDX-License-Identifier: BSD-2-Clause
/* Resilient spin locks (bpf_res_spin_lock, _unlock, _lock_irqsave,
 * _unlock_irqrestore; Linux 6.15 and later) as Linux 6.18.44 verifies
 * them: taking one may fail, so the lock is held only where R0 is 0;
 * several may be held, released innermost first; the irq flag of
 * _irqsave goes back only through _unlock_irqrestore. The verdicts,
 * instruction counts and messages in tests/cli/wq_res_lock.sh are the
 * running kernel's (bpfvet kernel; the level-2 logs were identical too).
 * Linux 6.12 lacks the kfuncs: its loader refuses the programs. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_res_spin_lock {
	__u32 val;
};

extern int bpf_res_spin_lock(struct bpf_res_spin_lock *lock) __ksym;
extern void bpf_res_spin_unlock(struct bpf_res_spin_lock *lock) __ksym;
extern int bpf_res_spin_lock_irqsave(struct bpf_res_spin_lock *lock,
				     unsigned long *flags__irq_flag) __ksym;
extern void bpf_res_spin_unlock_irqrestore(struct bpf_res_spin_lock *lock,
					   unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_save(unsigned long *flags__irq_flag) __ksym;
extern void bpf_local_irq_restore(unsigned long *flags__irq_flag) __ksym;

struct elem {
	int x;
	struct bpf_res_spin_lock l;
};
struct elem2 {
	struct bpf_res_spin_lock l;
	int x;
};
struct plain {
	long a;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem);
} array SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem2);
} array2 SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct plain);
} noq SEC(".maps");

static __always_inline void *get(void *map)
{
	int key = 0;

	return bpf_map_lookup_elem(map, &key);
}

SEC("tc") int rl_ok(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	v->x++;
	bpf_res_spin_unlock(&v->l);
	return 0;
}
/* Without the check, the failed path unlocks what it never took. */
SEC("tc") int rl_nocheck(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_res_spin_lock(&v->l);
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("tc") int rl_leak(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	return 0;
}
SEC("tc") int rl_unlock_only(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("tc") int rl_twice(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	if (bpf_res_spin_lock(&v->l)) {
		bpf_res_spin_unlock(&v->l);
		return 0;
	}
	bpf_res_spin_unlock(&v->l);
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("tc") int rl_two(void *ctx)
{
	struct elem *v = get(&array);
	struct elem2 *w = get(&array2);

	if (!v || !w)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	if (bpf_res_spin_lock(&w->l)) {
		bpf_res_spin_unlock(&v->l);
		return 0;
	}
	bpf_res_spin_unlock(&w->l);
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("tc") int rl_two_order(void *ctx)
{
	struct elem *v = get(&array);
	struct elem2 *w = get(&array2);

	if (!v || !w)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	if (bpf_res_spin_lock(&w->l)) {
		bpf_res_spin_unlock(&v->l);
		return 0;
	}
	bpf_res_spin_unlock(&v->l);
	bpf_res_spin_unlock(&w->l);
	return 0;
}
SEC("tc") int rl_off(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock((void *)v))
		return 0;
	bpf_res_spin_unlock((void *)v);
	return 0;
}
SEC("tc") int rl_nofield(void *ctx)
{
	struct plain *v = get(&noq);

	if (!v)
		return 0;
	return bpf_res_spin_lock((void *)v) & 1;
}
SEC("tc") int rl_stack(void *ctx)
{
	struct bpf_res_spin_lock l = {};

	return bpf_res_spin_lock(&l) & 1;
}
SEC("tc") int rl_varoff(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	return bpf_res_spin_lock((void *)v + (bpf_get_prandom_u32() & 4)) & 1;
}
SEC("tc") int rl_helper(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	v->x = bpf_get_prandom_u32();
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("syscall") int rl_errno(void *ctx)
{
	struct elem *v = get(&array);
	int r;

	if (!v)
		return 0;
	r = bpf_res_spin_lock(&v->l);
	if (r)
		return r & 1;
	bpf_res_spin_unlock(&v->l);
	return 0;
}
SEC("socket") int rl_socket(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	bpf_res_spin_unlock(&v->l);
	return 0;
}

/* The irq flag variants. */
SEC("tc") int rl_irq_ok(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f;

	if (!v)
		return 0;
	if (bpf_res_spin_lock_irqsave(&v->l, &f))
		return 0;
	v->x++;
	bpf_res_spin_unlock_irqrestore(&v->l, &f);
	return 0;
}
SEC("tc") int rl_irq_plain_unlock(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f;

	if (!v)
		return 0;
	if (bpf_res_spin_lock_irqsave(&v->l, &f))
		return 0;
	bpf_res_spin_unlock(&v->l);
	bpf_local_irq_restore(&f);
	return 0;
}
SEC("tc") int rl_irq_save_inside(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f;

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	bpf_local_irq_save(&f);
	bpf_res_spin_unlock_irqrestore(&v->l, &f);
	return 0;
}
SEC("tc") int rl_irq_nocheck(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f;

	if (!v)
		return 0;
	bpf_res_spin_lock_irqsave(&v->l, &f);
	bpf_res_spin_unlock_irqrestore(&v->l, &f);
	return 0;
}
SEC("tc") int rl_irq_class(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f, g;

	if (!v)
		return 0;
	bpf_local_irq_save(&f);
	if (bpf_res_spin_lock_irqsave(&v->l, &g)) {
		bpf_local_irq_restore(&f);
		return 0;
	}
	bpf_res_spin_unlock_irqrestore(&v->l, &f);
	bpf_local_irq_restore(&g);
	return 0;
}
SEC("tc") int rl_irq_nested(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f, g;

	if (!v)
		return 0;
	bpf_local_irq_save(&f);
	if (bpf_res_spin_lock_irqsave(&v->l, &g)) {
		bpf_local_irq_restore(&f);
		return 0;
	}
	bpf_res_spin_unlock_irqrestore(&v->l, &g);
	bpf_local_irq_restore(&f);
	return 0;
}
SEC("tc") int rl_irq_no_flag(void *ctx)
{
	struct elem *v = get(&array);
	unsigned long f;

	if (!v)
		return 0;
	if (bpf_res_spin_lock(&v->l))
		return 0;
	bpf_res_spin_unlock_irqrestore(&v->l, &f);
	return 0;
}

char _license[] SEC("license") = "GPL";
