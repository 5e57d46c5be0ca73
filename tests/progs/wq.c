// SPDX-License-Identifier: BSD-2-Clause
/* Workqueues (bpf_wq_init, bpf_wq_set_callback_impl, bpf_wq_start) as
 * Linux 6.18.44 verifies them: the bpf_wq argument, the map of
 * bpf_wq_init, and the callback, an async one that may sleep and must
 * return 0. The verdicts, instruction counts and messages in
 * tests/cli/wq_res_lock.sh are the running kernel's (bpfvet kernel; the
 * level-2 logs were identical too). */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct bpf_wq {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

extern int bpf_wq_init(struct bpf_wq *wq, void *p__map, unsigned int flags) __ksym;
extern int bpf_wq_start(struct bpf_wq *wq, unsigned int flags) __ksym;
extern int bpf_wq_set_callback_impl(struct bpf_wq *wq,
				    int (callback_fn)(void *map, int *key, void *value),
				    unsigned int flags, void *aux__prog) __ksym;
extern int bpf_copy_from_user_str(void *dst, __u32 dst__sz, const void *unsafe_ptr__ign,
				  __u64 flags) __ksym;

struct elem {
	int x;
	struct bpf_wq w;
};
struct plain {
	long a, b;
};

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem);
} array SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct elem);
} hash SEC(".maps");
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

static int cb_ok(void *map, int *key, void *value) { return 0; }
/* A workqueue callback runs in process context: it may sleep. */
static int cb_sleep(void *map, int *key, void *value)
{
	char b[8];

	bpf_copy_from_user_str(b, sizeof(b), 0, 0);
	return 0;
}
/* Async callbacks return 0. */
static int cb_ret2(void *map, int *key, void *value) { return 2; }
static int cb_value(void *map, int *key, void *value) { return ((struct elem *)value)->x & 1; }
static int cb_write_key(void *map, int *key, void *value)
{
	*key = 1;
	return 0;
}

/* init, callback, start, in a sleepable program. */
SEC("syscall") int wq_ok(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_wq_init(&v->w, &array, 0))
		return 0;
	if (bpf_wq_set_callback_impl(&v->w, cb_ok, 0, 0))
		return 0;
	bpf_wq_start(&v->w, 0);
	return 0;
}
SEC("syscall") int wq_cb_sleeps(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	if (bpf_wq_init(&v->w, &array, 0))
		return 0;
	bpf_wq_set_callback_impl(&v->w, cb_sleep, 0, 0);
	return 0;
}
SEC("syscall") int wq_cb_value(void *ctx)
{
	struct elem *v = get(&hash);

	if (!v)
		return 0;
	bpf_wq_set_callback_impl(&v->w, cb_value, 0, 0);
	return 0;
}
SEC("syscall") int wq_cb_ret2(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_set_callback_impl(&v->w, cb_ret2, 0, 0);
	return 0;
}
SEC("syscall") int wq_cb_write_key(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_set_callback_impl(&v->w, cb_write_key, 0, 0);
	return 0;
}
/* 6.18: a program that cannot sleep may not set the callback. */
SEC("tc") int wq_tc_callback(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_set_callback_impl(&v->w, cb_ok, 0, 0);
	return 0;
}
/* But it may start the workqueue, and so may a socket filter. */
SEC("xdp") int wq_xdp_start(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_start(&v->w, bpf_get_prandom_u32());
	return 0;
}
SEC("socket") int wq_socket_init(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	return bpf_wq_init(&v->w, &array, 0) & 1;
}
/* Tracing programs may not use maps with workqueues. */
SEC("raw_tp/sys_enter") int wq_raw_tp(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_start(&v->w, 0);
	return 0;
}
/* The bpf_wq argument. */
SEC("tc") int wq_off(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_start((void *)v, 0);
	return 0;
}
SEC("tc") int wq_stack(void *ctx)
{
	struct bpf_wq w = {};

	bpf_wq_start(&w, 0);
	return 0;
}
SEC("tc") int wq_nofield(void *ctx)
{
	struct plain *v = get(&noq);

	if (!v)
		return 0;
	bpf_wq_start((void *)v, 0);
	return 0;
}
SEC("tc") int wq_varoff(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_start((void *)v + (bpf_get_prandom_u32() & 8), 0);
	return 0;
}
/* bpf_wq_init's map: the workqueue's own, even when it holds none. */
SEC("tc") int wq_init_plain_map(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	return bpf_wq_init(&v->w, &noq, 0) & 1;
}
SEC("tc") int wq_init_other_map(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	return bpf_wq_init(&v->w, &hash, 0) & 1;
}
SEC("tc") int wq_cb_not_func(void *ctx)
{
	struct elem *v = get(&array);

	if (!v)
		return 0;
	bpf_wq_set_callback_impl(&v->w, (void *)v, 0, 0);
	return 0;
}

char _license[] SEC("license") = "GPL";
