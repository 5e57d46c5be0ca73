// SPDX-License-Identifier: BSD-2-Clause
/*
 * Lists and red-black trees of allocated objects, with the graph kfuncs
 * that Linux 6.12 lacks (bpf_list_front/back, bpf_rbtree_root/left/right)
 * and the ownership rules around them: what a peek returns (a non-owning
 * reference, valid until the lock is released), which references the
 * walking kfuncs take, and what pushing and removing do to the node.
 * The verdicts, instruction counts and messages in tests/cli/graph.sh
 * are the running 6.18.44 kernel's (bpfvet kernel, on this machine).
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

/* The graph structs as the kernel's uapi header has them since 6.2. */
struct bpf_list_head {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_list_node {
	__u64 __opaque[3];
} __attribute__((aligned(8)));

struct bpf_rb_root {
	__u64 __opaque[2];
} __attribute__((aligned(8)));

struct bpf_rb_node {
	__u64 __opaque[4];
} __attribute__((aligned(8)));

extern void *bpf_obj_new_impl(__u64 local_type_id, void *meta) __ksym;
extern void bpf_obj_drop_impl(void *kptr, void *meta) __ksym;
extern int bpf_list_push_front_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				    void *meta, __u64 off) __ksym;
extern int bpf_list_push_back_impl(struct bpf_list_head *head, struct bpf_list_node *node,
				   void *meta, __u64 off) __ksym;
extern struct bpf_list_node *bpf_list_pop_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_pop_back(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_front(struct bpf_list_head *head) __ksym;
extern struct bpf_list_node *bpf_list_back(struct bpf_list_head *head) __ksym;
extern int bpf_rbtree_add_impl(struct bpf_rb_root *root, struct bpf_rb_node *node,
			       bool (less)(struct bpf_rb_node *a, const struct bpf_rb_node *b),
			       void *meta, __u64 off) __ksym;
extern struct bpf_rb_node *bpf_rbtree_remove(struct bpf_rb_root *root,
					     struct bpf_rb_node *node) __ksym;
extern struct bpf_rb_node *bpf_rbtree_first(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_root(struct bpf_rb_root *root) __ksym;
extern struct bpf_rb_node *bpf_rbtree_left(struct bpf_rb_root *root,
					   struct bpf_rb_node *node) __ksym;
extern struct bpf_rb_node *bpf_rbtree_right(struct bpf_rb_root *root,
					    struct bpf_rb_node *node) __ksym;

#define new_obj(type) ((type *)bpf_obj_new_impl(bpf_core_type_id_local(type), NULL))
#define drop_obj(p) bpf_obj_drop_impl(p, NULL)
#define push_front(h, n) bpf_list_push_front_impl(h, n, NULL, 0)
#define push_back(h, n) bpf_list_push_back_impl(h, n, NULL, 0)
#define rb_add(r, n, less) bpf_rbtree_add_impl(r, n, less, NULL, 0)
#define contains(name, node) __attribute__((btf_decl_tag("contains:" #name ":" #node)))
#define private(name) SEC(".data." #name) __attribute__((visibility("hidden"), aligned(8)))

struct item {
	long key;
	struct bpf_list_node link;	/* at 8 */
};

struct tnode {
	long key;
	long data;
	struct bpf_rb_node rb;		/* at 16 */
};

/* Nodes at offset 0, so that no arithmetic comes before a NULL check. */
struct item0 {
	struct bpf_list_node link;
	long key;
};

struct tnode0 {
	struct bpf_rb_node rb;
	long key;
};

private(L) struct bpf_spin_lock llock;
private(L) struct bpf_list_head lhead contains(item, link);
private(T) struct bpf_spin_lock tlock;
private(T) struct bpf_rb_root troot contains(tnode, rb);
private(Z) struct bpf_spin_lock zlock;
private(Z) struct bpf_list_head zhead contains(item0, link);
private(Z) struct bpf_rb_root zroot contains(tnode0, rb);

static bool less(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return container_of(a, struct tnode, rb)->key < container_of(b, struct tnode, rb)->key;
}

/* A peek returns a non-owning reference: readable under the lock. */
SEC("tc") int list_front_read(void *ctx)
{
	struct bpf_list_node *n;
	long key = 0;

	bpf_spin_lock(&llock);
	n = bpf_list_front(&lhead);
	if (n)
		key = container_of(n, struct item, link)->key;
	bpf_spin_unlock(&llock);
	return key & 1;
}

SEC("tc") int list_back_read(void *ctx)
{
	struct bpf_list_node *n;
	long key = 0;

	bpf_spin_lock(&llock);
	n = bpf_list_back(&lhead);
	if (n)
		key = container_of(n, struct item, link)->key;
	bpf_spin_unlock(&llock);
	return key & 1;
}

/* ... and not after it. */
SEC("tc") int list_front_after_unlock(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_front(&lhead);
	bpf_spin_unlock(&llock);
	if (!n)
		return 0;
	return container_of(n, struct item, link)->key & 1;
}

SEC("tc") int list_front_nolock(void *ctx)
{
	return bpf_list_front(&lhead) != NULL;
}

/* A peeked node may not be dropped: it is not the program's. */
SEC("tc") int list_front_drop(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_front(&lhead);
	bpf_spin_unlock(&llock);
	if (n)
		drop_obj(container_of(n, struct item, link));
	return 0;
}

/* Push, then write through the pushed node while the lock is held. */
SEC("tc") int list_push_write(void *ctx)
{
	struct item *it = new_obj(struct item);

	if (!it)
		return 0;
	bpf_spin_lock(&llock);
	push_back(&lhead, &it->link);
	it->key = 5;
	bpf_spin_unlock(&llock);
	return 0;
}

/* Pop returns an owning reference, maybe NULL, at the node's offset. */
SEC("tc") int list_pop_drop(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_pop_front(&lhead);
	bpf_spin_unlock(&llock);
	if (n)
		drop_obj(container_of(n, struct item, link));
	return 0;
}

SEC("tc") int list_pop_leak(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_pop_back(&lhead);
	bpf_spin_unlock(&llock);
	return n != NULL;
}

SEC("tc") int list_push_maybe_null(void *ctx)
{
	struct item *it = new_obj(struct item);

	bpf_spin_lock(&llock);
	push_front(&lhead, &it->link);
	bpf_spin_unlock(&llock);
	return 0;
}

/* The tree: root, left and right walk it with non-owning references. */
SEC("tc") int rb_walk(void *ctx)
{
	struct bpf_rb_node *n, *l = NULL, *r = NULL;
	long key = 0;

	bpf_spin_lock(&tlock);
	n = bpf_rbtree_root(&troot);
	if (n) {
		l = bpf_rbtree_left(&troot, n);
		r = bpf_rbtree_right(&troot, n);
		key = container_of(n, struct tnode, rb)->key;
	}
	if (l)
		key += container_of(l, struct tnode, rb)->key;
	if (r)
		key += container_of(r, struct tnode, rb)->data;
	bpf_spin_unlock(&tlock);
	return key & 1;
}

SEC("tc") int rb_root_nolock(void *ctx)
{
	return bpf_rbtree_root(&troot) != NULL;
}

/* left and right take what remove takes: non-owning or referenced. */
SEC("tc") int rb_left_owning(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);
	struct bpf_rb_node *l;

	if (!t)
		return 0;
	bpf_spin_lock(&tlock);
	l = bpf_rbtree_left(&troot, &t->rb);
	bpf_spin_unlock(&tlock);
	drop_obj(t);
	return l != NULL;
}

SEC("tc") int rb_left_after_unlock(void *ctx)
{
	struct bpf_rb_node *n, *l = NULL;

	bpf_spin_lock(&tlock);
	n = bpf_rbtree_root(&troot);
	bpf_spin_unlock(&tlock);
	if (!n)
		return 0;
	bpf_spin_lock(&tlock);
	l = bpf_rbtree_left(&troot, n);
	bpf_spin_unlock(&tlock);
	return l != NULL;
}

/* Remove what root found: an owning reference to drop. */
SEC("tc") int rb_root_remove(void *ctx)
{
	struct bpf_rb_node *n;

	bpf_spin_lock(&tlock);
	n = bpf_rbtree_root(&troot);
	if (!n) {
		bpf_spin_unlock(&tlock);
		return 0;
	}
	n = bpf_rbtree_remove(&troot, n);
	bpf_spin_unlock(&tlock);
	if (n)
		drop_obj(container_of(n, struct tnode, rb));
	return 0;
}

/* Add, then find the added node again and remove it. */
SEC("tc") int rb_add_first_remove(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);
	struct bpf_rb_node *n;

	if (!t)
		return 0;
	t->key = 3;
	bpf_spin_lock(&tlock);
	rb_add(&troot, &t->rb, less);
	n = bpf_rbtree_first(&troot);
	if (!n) {
		bpf_spin_unlock(&tlock);
		return 0;
	}
	n = bpf_rbtree_remove(&troot, n);
	bpf_spin_unlock(&tlock);
	if (!n)
		return 0;
	drop_obj(container_of(n, struct tnode, rb));
	return 1;
}

SEC("tc") int rb_add_maybe_null(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);

	bpf_spin_lock(&tlock);
	rb_add(&troot, &t->rb, less);
	bpf_spin_unlock(&tlock);
	return 0;
}

/* The added node is the tree's now: dropping it is refused. */
SEC("tc") int rb_add_drop(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);

	if (!t)
		return 0;
	bpf_spin_lock(&tlock);
	rb_add(&troot, &t->rb, less);
	bpf_spin_unlock(&tlock);
	drop_obj(t);
	return 0;
}

static bool less0(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return ((struct tnode0 *)a)->key < ((struct tnode0 *)b)->key;
}

/* A node that may be NULL: the graph kfuncs check it as trusted. */
SEC("tc") int list_push_null0(void *ctx)
{
	struct item0 *it = new_obj(struct item0);

	bpf_spin_lock(&zlock);
	push_front(&zhead, &it->link);
	bpf_spin_unlock(&zlock);
	return 0;
}

SEC("tc") int rb_add_null0(void *ctx)
{
	struct tnode0 *t = new_obj(struct tnode0);

	bpf_spin_lock(&zlock);
	rb_add(&zroot, &t->rb, less0);
	bpf_spin_unlock(&zlock);
	return 0;
}

SEC("tc") int rb_left_null0(void *ctx)
{
	struct bpf_rb_node *n, *l;

	bpf_spin_lock(&zlock);
	n = bpf_rbtree_first(&zroot);
	l = bpf_rbtree_left(&zroot, n);
	bpf_spin_unlock(&zlock);
	return l != NULL;
}

/* Two lists under one lock: pop from one, push onto the other. */
SEC("tc") int list_move(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_pop_front(&lhead);
	if (n)
		push_back(&lhead, n);
	bpf_spin_unlock(&llock);
	return 0;
}

/* The `less` callback runs under the lock: it may not walk the tree,
 * nor take RCU's lock. */
static bool less_walks(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	return bpf_rbtree_left(&troot, a) != NULL;
}

SEC("tc") int rb_cb_walk(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);

	if (!t)
		return 0;
	bpf_spin_lock(&tlock);
	rb_add(&troot, &t->rb, less_walks);
	bpf_spin_unlock(&tlock);
	return 0;
}

extern void bpf_rcu_read_lock(void) __ksym;
extern void bpf_rcu_read_unlock(void) __ksym;

static bool less_rcu(struct bpf_rb_node *a, const struct bpf_rb_node *b)
{
	bpf_rcu_read_lock();
	bpf_rcu_read_unlock();
	return false;
}

SEC("tc") int rb_cb_rcu(void *ctx)
{
	struct tnode *t = new_obj(struct tnode);

	if (!t)
		return 0;
	bpf_spin_lock(&tlock);
	rb_add(&troot, &t->rb, less_rcu);
	bpf_spin_unlock(&tlock);
	return 0;
}

/* A peeked node is the list's: it cannot be pushed again. */
SEC("tc") int list_push_peeked(void *ctx)
{
	struct bpf_list_node *n;

	bpf_spin_lock(&llock);
	n = bpf_list_back(&lhead);
	if (n)
		push_front(&lhead, n);
	bpf_spin_unlock(&llock);
	return 0;
}

/* A tree inside an object: the object's own lock guards it. */
struct forest {
	struct bpf_spin_lock lock;
	struct bpf_rb_root root contains(tnode, rb);
};

SEC("tc") int obj_tree(void *ctx)
{
	struct forest *f = new_obj(struct forest);
	struct tnode *t;

	if (!f)
		return 0;
	t = new_obj(struct tnode);
	if (!t) {
		drop_obj(f);
		return 0;
	}
	bpf_spin_lock(&f->lock);
	rb_add(&f->root, &t->rb, less);
	bpf_spin_unlock(&f->lock);
	drop_obj(f);
	return 0;
}

/* ... and no other lock does. */
SEC("tc") int obj_tree_wrong_lock(void *ctx)
{
	struct forest *f = new_obj(struct forest);
	struct tnode *t;

	if (!f)
		return 0;
	t = new_obj(struct tnode);
	if (!t) {
		drop_obj(f);
		return 0;
	}
	bpf_spin_lock(&tlock);
	rb_add(&f->root, &t->rb, less);
	bpf_spin_unlock(&tlock);
	drop_obj(f);
	return 0;
}

/* Non-owning references on two paths that meet: pruning compares them. */
SEC("tc") int list_peek_paths(void *ctx)
{
	__u32 coin = ((struct __sk_buff *)ctx)->len;
	struct bpf_list_node *n;
	long key = 0;

	asm volatile("" : "+r"(coin));
	bpf_spin_lock(&llock);
	if (coin & 1)
		n = bpf_list_front(&lhead);
	else
		n = bpf_list_back(&lhead);
	if (n)
		key = container_of(n, struct item, link)->key;
	bpf_spin_unlock(&llock);
	return key & 1;
}

char _license[] SEC("license") = "GPL";
