// SPDX-License-Identifier: BSD-2-Clause
/* More kfuncs that Linux 6.12 lacks, called as the 6.18 kernel allows or
 * refuses them: the program types that reach each kfunc's later checks,
 * and the flags its messages reveal (a sleepable program, a trusted or
 * RCU argument). The verdicts, instruction counts and messages in
 * tests/cli/kfuncs_618b.sh are the running 6.18.44 kernel's (bpfvet
 * kernel; the level-2 logs were identical too); src/rules/kfunc_rules.c
 * holds the rows they settle. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

struct cgroup_subsys_state {
	int flags;
} __attribute__((preserve_access_index));
struct cgroup {
	struct cgroup_subsys_state self;
} __attribute__((preserve_access_index));
struct css_set {
	struct cgroup *dfl_cgrp;
} __attribute__((preserve_access_index));
struct task_struct {
	int pid;
	struct task_struct *real_parent;
	struct css_set *cgroups;
	const struct cpumask *cpus_ptr;
} __attribute__((preserve_access_index));
struct cpumask {
	unsigned long bits[1];
} __attribute__((preserve_access_index));
struct bpf_cpumask {
	struct cpumask cpumask;
} __attribute__((preserve_access_index));
struct dma_buf {
	unsigned long size;
} __attribute__((preserve_access_index));
struct bpf_iter_dmabuf {
	__u64 __opaque[1];
} __attribute__((aligned(8)));
struct bpf_sock_ops_kern {
	int op;
} __attribute__((preserve_access_index));
struct dentry {
	unsigned int d_flags;
} __attribute__((preserve_access_index));
struct bpf_task_work {
	__u64 __opaque;
};
struct bpf_map {
	__u32 id;
} __attribute__((preserve_access_index));

extern int bpf_dynptr_copy(struct bpf_dynptr *dst_ptr, __u32 dst_off, struct bpf_dynptr *src_ptr,
			   __u32 src_off, __u32 size) __ksym;
extern int bpf_dynptr_memset(struct bpf_dynptr *p, __u32 offset, __u32 size, __u8 val) __ksym;
extern int bpf_probe_read_kernel_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
					const void *unsafe_ptr__ign) __ksym;
extern int bpf_probe_read_user_str_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
					  const void *unsafe_ptr__ign) __ksym;
extern int bpf_copy_from_user_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
				     const void *unsafe_ptr__ign) __ksym;
extern int bpf_copy_from_user_str_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
					 const void *unsafe_ptr__ign) __ksym;
extern int bpf_copy_from_user_task_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
					  const void *unsafe_ptr__ign,
					  struct task_struct *tsk) __ksym;
extern int bpf_copy_from_user_task_str_dynptr(struct bpf_dynptr *dptr, __u32 off, __u32 size,
					      const void *unsafe_ptr__ign,
					      struct task_struct *tsk) __ksym;
extern void __bpf_trap(void) __ksym;
extern int bpf_stream_vprintk_impl(int stream_id, const char *fmt__str, const void *args,
				   __u32 len__sz, void *aux__prog) __ksym;
extern int bpf_iter_dmabuf_new(struct bpf_iter_dmabuf *it) __ksym;
extern struct dma_buf *bpf_iter_dmabuf_next(struct bpf_iter_dmabuf *it) __ksym;
extern void bpf_iter_dmabuf_destroy(struct bpf_iter_dmabuf *it) __ksym;
extern struct bpf_cpumask *bpf_cpumask_create(void) __ksym;
extern void bpf_cpumask_release(struct bpf_cpumask *cpumask) __ksym;
extern int bpf_cpumask_populate(struct bpf_cpumask *cpumask, void *src, __u64 src__sz) __ksym;
extern void *bpf_rdonly_cast(const void *obj__ign, __u32 btf_id__k) __ksym;
extern struct cgroup *bpf_cgroup_from_id(__u64 cgid) __ksym;
extern void bpf_cgroup_release(struct cgroup *cgrp) __ksym;
extern void css_rstat_updated(struct cgroup_subsys_state *css, int cpu) __ksym;
extern void css_rstat_flush(struct cgroup_subsys_state *css) __ksym;
extern int bpf_xdp_pull_data(struct xdp_md *x, __u32 len) __ksym;
extern void *bpf_cast_to_kern_ctx(void *obj) __ksym;
extern int bpf_sock_ops_enable_tx_tstamp(struct bpf_sock_ops_kern *skops, __u64 flags) __ksym;
extern int bpf_cgroup_read_xattr(struct cgroup *cgroup, const char *name__str,
				 struct bpf_dynptr *value_p) __ksym;
extern int bpf_set_dentry_xattr(struct dentry *dentry, const char *name__str,
				const struct bpf_dynptr *value_p, int flags) __ksym;
extern int bpf_remove_dentry_xattr(struct dentry *dentry, const char *name__str) __ksym;
extern int bpf_modify_return_test(int a, int *b) __ksym;
extern int bpf_dynptr_from_skb_meta(struct __sk_buff *skb_, __u64 flags,
				    struct bpf_dynptr *ptr__uninit) __ksym;
extern void *bpf_dynptr_slice(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt,
			      __u32 buffer__szk) __ksym;
extern void *bpf_dynptr_slice_rdwr(const struct bpf_dynptr *p, __u32 offset, void *buffer__opt,
				   __u32 buffer__szk) __ksym;
typedef int (*bpf_task_work_callback_t)(struct bpf_map *map, void *key, void *value);
extern int bpf_task_work_schedule_signal_impl(struct task_struct *task, struct bpf_task_work *tw,
					      void *map__map, bpf_task_work_callback_t callback,
					      void *aux__prog) __ksym;
extern int bpf_task_work_schedule_resume_impl(struct task_struct *task, struct bpf_task_work *tw,
					      void *map__map, bpf_task_work_callback_t callback,
					      void *aux__prog) __ksym;
extern int bpf_fentry_test1(int a) __ksym;

char buf[64];
const char fmt[] = "hi";
const char xname[] = "user.x";

#define LOCAL_DYNPTR(d) bpf_dynptr_from_mem(buf, sizeof(buf), 0, &d)

/* The dynptr kfuncs that copy: any program type; from user memory only
 * in sleepable programs, the task variants with a trusted task. */
SEC("socket") int memset_socket(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_dynptr_memset(&d, 0, 8, 0) & 1;
}
SEC("xdp") int copy_xdp(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_dynptr_copy(&d, 0, &d, 8, 8) & 1;
}
SEC("tc") int probe_kernel_tc(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_probe_read_kernel_dynptr(&d, 0, 8, buf) & 1;
}
SEC("kprobe/do_nanosleep") int probe_user_str_kprobe(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_probe_read_user_str_dynptr(&d, 0, 8, 0) & 1;
}
SEC("tc") int user_tc(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_copy_from_user_dynptr(&d, 0, 8, 0) & 1;
}
SEC("syscall") int user_str_syscall(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_copy_from_user_str_dynptr(&d, 0, 8, 0) & 1;
}
SEC("syscall") int user_task_syscall(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_copy_from_user_task_dynptr(&d, 0, 8, 0, bpf_get_current_task_btf()) & 1;
}
SEC("syscall") int user_task_str_null(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_copy_from_user_task_str_dynptr(&d, 0, 8, 0, 0) & 1;
}

/* __bpf_trap: refused wherever it is called. */
SEC("socket") int trap_socket(void *ctx)
{
	__bpf_trap();
	return 0;
}

/* bpf_stream_vprintk_impl: any program type, trusted arguments. */
SEC("tc") int stream_tc(void *ctx) { return bpf_stream_vprintk_impl(1, fmt, buf, 8, 0) & 1; }
SEC("syscall") int stream_null(void *ctx) { return bpf_stream_vprintk_impl(1, fmt, 0, 0, 0) & 1; }

/* The dmabuf iterator: sleepable, any program type. */
static __always_inline int dmabuf_walk(void)
{
	struct bpf_iter_dmabuf it;
	struct dma_buf *b;
	int n = 0;

	bpf_iter_dmabuf_new(&it);
	while ((b = bpf_iter_dmabuf_next(&it)))
		n += b->size & 1;
	bpf_iter_dmabuf_destroy(&it);
	return n & 1;
}
SEC("tc") int dmabuf_tc(void *ctx) { return dmabuf_walk(); }
SEC("syscall") int dmabuf_syscall(void *ctx) { return dmabuf_walk(); }
SEC("syscall") int dmabuf_leak(void *ctx)
{
	struct bpf_iter_dmabuf it;

	bpf_iter_dmabuf_new(&it);
	return 0;
}

/* bpf_cpumask_populate: the cpumask set's program types, an RCU mask. */
SEC("tp_btf/task_newtask") int populate_tp_btf(void *ctx)
{
	struct bpf_cpumask *m = bpf_cpumask_create();

	if (!m)
		return 0;
	bpf_cpumask_populate(m, buf, 8);
	bpf_cpumask_release(m);
	return 0;
}
SEC("tc") int populate_tc(void *ctx) { return bpf_cpumask_populate(0, buf, 8) & 1; }
SEC("tp_btf/task_newtask") int populate_null(void *ctx)
{
	return bpf_cpumask_populate(0, buf, 8) & 1;
}
SEC("tp_btf/task_newtask") int populate_untrusted(__u64 *ctx)
{
	struct task_struct *t = (void *)ctx[0];
	struct bpf_cpumask *m = bpf_rdonly_cast(t->cpus_ptr,
						 bpf_core_type_id_kernel(struct bpf_cpumask));

	return bpf_cpumask_populate(m, buf, 8) & 1;
}

/* The cgroup rstat kfuncs: tracing programs, trusted; flushing sleeps. */
SEC("tp_btf/task_newtask") int rstat_updated(void *ctx)
{
	struct cgroup *c = bpf_cgroup_from_id(1);

	if (!c)
		return 0;
	css_rstat_updated(&c->self, 0);
	bpf_cgroup_release(c);
	return 0;
}
SEC("tp_btf/task_newtask") int rstat_flush_tp_btf(void *ctx)
{
	struct cgroup *c = bpf_cgroup_from_id(1);

	if (!c)
		return 0;
	css_rstat_flush(&c->self);
	bpf_cgroup_release(c);
	return 0;
}
SEC("syscall") int rstat_flush_syscall(void *ctx)
{
	struct cgroup *c = bpf_cgroup_from_id(1);

	if (!c)
		return 0;
	css_rstat_flush(&c->self);
	bpf_cgroup_release(c);
	return 0;
}
SEC("tp_btf/task_newtask") int rstat_rcu(__u64 *ctx)
{
	struct task_struct *t = (void *)ctx[0];

	css_rstat_updated(&t->cgroups->dfl_cgrp->self, 0);
	return 0;
}

/* bpf_xdp_pull_data: XDP programs, their context. */
SEC("xdp") int pull_xdp(struct xdp_md *x) { return bpf_xdp_pull_data(x, 8) & 1; }
SEC("tc") int pull_tc(struct xdp_md *x) { return bpf_xdp_pull_data(x, 8) & 1; }
SEC("xdp") int pull_not_ctx(struct xdp_md *x) { return bpf_xdp_pull_data((void *)buf, 8) & 1; }

/* bpf_sock_ops_enable_tx_tstamp: sock_ops programs, the kernel's
 * context, trusted. */
SEC("sockops") int tstamp_sockops(struct bpf_sock_ops *s)
{
	return bpf_sock_ops_enable_tx_tstamp(bpf_cast_to_kern_ctx(s), 0) & 1;
}
SEC("sockops") int tstamp_uapi_ctx(struct bpf_sock_ops *s)
{
	return bpf_sock_ops_enable_tx_tstamp((void *)s, 0) & 1;
}
SEC("tc") int tstamp_tc(void *s) { return bpf_sock_ops_enable_tx_tstamp(s, 0) & 1; }

/* bpf_cgroup_read_xattr: any program type, an RCU cgroup. */
SEC("tc") int xattr_tc(void *ctx)
{
	struct cgroup *c = bpf_cgroup_from_id(1);
	struct bpf_dynptr d;

	if (!c)
		return 0;
	LOCAL_DYNPTR(d);
	bpf_cgroup_read_xattr(c, xname, &d);
	bpf_cgroup_release(c);
	return 0;
}
SEC("socket") int xattr_null(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_cgroup_read_xattr(0, xname, &d) & 1;
}
SEC("tp_btf/task_newtask") int xattr_rcu(__u64 *ctx)
{
	struct task_struct *t = (void *)ctx[0];
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_cgroup_read_xattr(t->cgroups->dfl_cgrp, xname, &d) & 1;
}
/* The dentry xattr kfuncs: LSM programs only. */
SEC("syscall") int set_xattr_syscall(void *ctx)
{
	struct bpf_dynptr d;

	LOCAL_DYNPTR(d);
	return bpf_set_dentry_xattr(0, xname, &d, 0) & 1;
}
SEC("tp_btf/task_newtask") int remove_xattr_tp_btf(void *ctx)
{
	return bpf_remove_dentry_xattr(0, xname) & 1;
}

/* fmod_ret's test functions: no program type may call them. */
SEC("tc") int modify_return_tc(void *ctx)
{
	int b = 0;

	return bpf_modify_return_test(1, &b) & 1;
}
SEC("tp_btf/task_newtask") int fentry_test_tp_btf(void *ctx) { return bpf_fentry_test1(1) & 1; }

/* The skb metadata dynptr: tc programs; read, written, sliced read-only;
 * its slices die, as packet pointers do, when the packet may change,
 * and writing through it may change the packet. */
SEC("tc") int skb_meta_read(struct __sk_buff *ctx)
{
	struct bpf_dynptr d;
	char b[4];

	if (bpf_dynptr_from_skb_meta(ctx, 0, &d))
		return 0;
	bpf_dynptr_read(b, 4, &d, 0, 0);
	return b[0] & 1;
}
SEC("cgroup_skb/ingress") int skb_meta_cgroup_skb(struct __sk_buff *ctx)
{
	struct bpf_dynptr d;

	return bpf_dynptr_from_skb_meta(ctx, 0, &d) ? 1 : 0;
}
SEC("tc") int skb_meta_slice_rdwr(struct __sk_buff *ctx)
{
	struct bpf_dynptr d;
	char b[4], *p;

	if (bpf_dynptr_from_skb_meta(ctx, 0, &d))
		return 0;
	p = bpf_dynptr_slice_rdwr(&d, 0, b, 4);
	if (!p)
		return 0;
	p[0] = 1;
	return 0;
}
SEC("tc") int skb_meta_slice_pull(struct __sk_buff *ctx)
{
	struct bpf_dynptr d;
	char b[4], *p;

	if (bpf_dynptr_from_skb_meta(ctx, 0, &d))
		return 0;
	p = bpf_dynptr_slice(&d, 0, b, 4);
	if (!p)
		return 0;
	bpf_skb_pull_data(ctx, 0);
	return p[0] & 1;
}
SEC("tc") int skb_meta_write_pkt(struct __sk_buff *ctx)
{
	void *data = (void *)(long)ctx->data, *end = (void *)(long)ctx->data_end;
	struct bpf_dynptr d;
	char b[4] = {};

	if (bpf_dynptr_from_skb_meta(ctx, 0, &d))
		return 0;
	if (data + 1 > end)
		return 0;
	bpf_dynptr_write(&d, 0, b, 4, 0);
	return *(char *)data & 1;
}

/* Task works: a struct bpf_task_work field of a map value, the map it
 * is in, a trusted task, and a callback that runs later in the task's
 * context: an async callback that may sleep and returns any int, which
 * only a sleepable program may set. */
struct tw_elem {
	int x;
	struct bpf_task_work tw;
};
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tw_elem);
} tw_array SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, struct tw_elem);
} tw_hash SEC(".maps");
struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 2);
	__type(key, int);
	__type(value, long);
} tw_plain SEC(".maps");

static __always_inline void *tw_get(void *map)
{
	int key = 0;

	return bpf_map_lookup_elem(map, &key);
}
static int tw_cb(struct bpf_map *map, void *key, void *value) { return 0; }
static int tw_cb_key(struct bpf_map *map, void *key, void *value) { return *(int *)key + 2; }
static long tw_cb_big(struct bpf_map *map, void *key, void *value) { return 0x100000000L; }

SEC("syscall") int task_work_signal(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), &v->tw, &tw_array,
						  tw_cb, 0) & 1;
}
SEC("syscall") int task_work_resume_key(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_hash);

	if (!v)
		return 0;
	return bpf_task_work_schedule_resume_impl(bpf_get_current_task_btf(), &v->tw, &tw_hash,
						  tw_cb_key, 0) & 1;
}
SEC("syscall") int task_work_ret_big(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), &v->tw, &tw_array,
						  (void *)tw_cb_big, 0) & 1;
}
SEC("tp_btf/task_newtask") int task_work_tp_btf(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), &v->tw, &tw_array,
						  tw_cb, 0) & 1;
}
SEC("syscall") int task_work_other_map(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), &v->tw, &tw_plain,
						  tw_cb, 0) & 1;
}
SEC("syscall") int task_work_not_map(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);
	int k = 0;

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), &v->tw, &k,
						  tw_cb, 0) & 1;
}
SEC("syscall") int task_work_no_field(void *ctx)
{
	long *v = tw_get(&tw_plain);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), (void *)v,
						  &tw_plain, tw_cb, 0) & 1;
}
SEC("syscall") int task_work_off(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(bpf_get_current_task_btf(), (void *)v,
						  &tw_array, tw_cb, 0) & 1;
}
SEC("syscall") int task_work_null_task(void *ctx)
{
	struct tw_elem *v = tw_get(&tw_array);

	if (!v)
		return 0;
	return bpf_task_work_schedule_signal_impl(0, &v->tw, &tw_array, tw_cb, 0) & 1;
}

char _license[] SEC("license") = "GPL";
