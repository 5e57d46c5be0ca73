/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Lifetime of path states: allocation, deep copies, stack growth and the
 * reference table. A vstate owns its frames, each frame holds the pages
 * of its stack (shared between states, state.h), and the state owns its
 * references and jump history.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "state.h"

static size_t pages_of(int allocated_stack)
{
	size_t slots = (size_t)allocated_stack / BPF_REG_SIZE;

	return (slots + STACK_PAGE_SLOTS - 1) / STACK_PAGE_SLOTS;
}

void stack_page_put(struct vet_env *env, struct stack_page *pg)
{
	if (pg && !--pg->holders)
		vet_free(env, pg);
}

static struct stack_page *page_dup(struct vet_env *env, const struct stack_page *src)
{
	struct stack_page *pg = vet_malloc(env, sizeof(*pg));

	if (!pg)
		return NULL;
	memcpy(pg->slot, src->slot, sizeof(pg->slot));
	pg->holders = 1;
	return pg;
}

/* A frame's pages are contiguous from the first: the rest are NULL. */
static void frame_put_pages(struct vet_env *env, struct func_state *f)
{
	for (int k = 0; k < STACK_PAGES && f->pages[k]; k++) {
		stack_page_put(env, f->pages[k]);
		f->pages[k] = NULL;
	}
}

void frame_free(struct vet_env *env, struct func_state *f)
{
	if (!f)
		return;
	frame_put_pages(env, f);
	if (env->frame_pool_cnt < FRAME_POOL_MAX) {
		env->frame_pool[env->frame_pool_cnt++] = f;
		return;
	}
	vet_free(env, f);
}

/* A frame from the pool, its contents stale but for its pages (none).
 * NULL when the pool is empty. */
struct func_state *frame_take(struct vet_env *env)
{
	return env->frame_pool_cnt ? env->frame_pool[--env->frame_pool_cnt] : NULL;
}

void frame_pool_drain(struct vet_env *env)
{
	while (env->frame_pool_cnt)
		vet_free(env, env->frame_pool[--env->frame_pool_cnt]);
}

static int frame_copy(struct vet_env *env, struct func_state *dst, const struct func_state *src)
{
	size_t n = pages_of(src->allocated_stack);

	frame_put_pages(env, dst);
	memcpy(dst, src, offsetof(struct func_state, pages));
	for (size_t k = 0; k < n; k++) {
		dst->pages[k] = page_dup(env, src->pages[k]);
		if (!dst->pages[k]) {
			/* allocated_stack must not promise what is not there. */
			frame_put_pages(env, dst);
			dst->allocated_stack = 0;
			return -ENOMEM;
		}
	}
	return 0;
}

/* Takes ref's page wherever f's holds the same slots. */
static void frame_share_pages(struct vet_env *env, struct func_state *f,
			      const struct func_state *ref)
{
	size_t n = pages_of(f->allocated_stack), rn = pages_of(ref->allocated_stack);

	for (size_t k = 0; k < n && k < rn; k++) {
		struct stack_page *rp = ref->pages[k];

		if (f->pages[k] == rp || memcmp(f->pages[k]->slot, rp->slot, sizeof(rp->slot)))
			continue;
		stack_page_put(env, f->pages[k]);
		rp->holders++;
		f->pages[k] = rp;
	}
}

void state_share_pages(struct vet_env *env, struct vstate *st)
{
	const struct vstate *ref = st->parent;

	for (uint32_t i = 0; ref && i <= st->curframe && i <= ref->curframe; i++)
		frame_share_pages(env, st->frame[i], ref->frame[i]);
}

int frame_own_slot(struct vet_env *env, struct func_state *f, int spi)
{
	struct stack_page **pg = &f->pages[spi / STACK_PAGE_SLOTS];
	struct stack_page *own;

	if ((*pg)->holders == 1)
		return 0;
	own = page_dup(env, *pg);
	if (!own)
		return -ENOMEM;
	(*pg)->holders--;
	*pg = own;
	return 0;
}

int state_own_stacks(struct vet_env *env, struct vstate *st)
{
	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = st->frame[i];
		size_t n = pages_of(f->allocated_stack);

		for (size_t k = 0; k < n; k++) {
			int err = frame_own_slot(env, f, (int)(k * STACK_PAGE_SLOTS));

			if (err)
				return err;
		}
	}
	return 0;
}

/* The instruction frame fr is at: the state's own for the top frame; a
 * caller waits at the call site its callee's frame records. */
uint32_t state_frame_ip(const struct vstate *st, uint32_t fr)
{
	return fr == st->curframe ? st->insn_idx : (uint32_t)st->frame[fr + 1]->callsite;
}

bool state_same_callsites(const struct vstate *a, const struct vstate *b)
{
	if (a->curframe != b->curframe)
		return false;
	for (uint32_t i = 0; i <= a->curframe; i++)
		if (a->frame[i]->callsite != b->frame[i]->callsite)
			return false;
	return true;
}

void state_clear(struct vet_env *env, struct vstate *st)
{
	for (int i = 0; i < MAX_CALL_FRAMES; i++) {
		frame_free(env, st->frame[i]);
		st->frame[i] = NULL;
	}
	vet_free(env, st->refs);
	vet_free(env, st->jmp_history);
	memset(st, 0, sizeof(*st));
}

int state_copy(struct vet_env *env, struct vstate *dst, const struct vstate *src)
{
	struct func_state *frames[MAX_CALL_FRAMES];
	struct ref_state *refs = dst->refs;
	struct jmp_history_entry *hist = dst->jmp_history;
	uint32_t i;

	for (i = src->curframe + 1; i < MAX_CALL_FRAMES; i++) {
		frame_free(env, dst->frame[i]);
		dst->frame[i] = NULL;
	}
	if (src->acquired_refs) {
		refs = vet_reallocarray(env, refs, src->acquired_refs, sizeof(*refs));
		if (!refs)
			return -ENOMEM;
		dst->refs = refs;
	}
	if (src->jmp_history_cnt) {
		hist = vet_reallocarray(env, hist, src->jmp_history_cnt, sizeof(*hist));
		if (!hist)
			return -ENOMEM;
		dst->jmp_history = hist;
	}
	for (i = 0; i <= src->curframe; i++) {
		frames[i] = dst->frame[i];
		if (!frames[i])
			frames[i] = frame_take(env);
		if (!frames[i]) {
			frames[i] = vet_calloc(env, 1, sizeof(*frames[i]));
			if (!frames[i])
				return -ENOMEM;
			dst->frame[i] = frames[i];
		}
		if (frame_copy(env, frames[i], src->frame[i]))
			return -ENOMEM;
	}
	memcpy(dst, src, sizeof(*dst));
	for (i = 0; i < MAX_CALL_FRAMES; i++)
		dst->frame[i] = i <= src->curframe ? frames[i] : NULL;
	dst->refs = refs;
	if (src->acquired_refs)
		memcpy(refs, src->refs, src->acquired_refs * sizeof(*refs));
	dst->jmp_history = hist;
	if (src->jmp_history_cnt)
		memcpy(hist, src->jmp_history, src->jmp_history_cnt * sizeof(*hist));
	return 0;
}

int frame_grow_stack(struct vet_env *env, struct func_state *f, int size)
{
	size_t old_n = (size_t)f->allocated_stack / BPF_REG_SIZE;
	size_t n = ((size_t)size + BPF_REG_SIZE - 1) / BPF_REG_SIZE;

	if (n <= old_n)
		return 0;
	if (n > STACK_PAGES * STACK_PAGE_SLOTS)
		return -E2BIG;
	/* The rest of the last page is zero already. */
	for (size_t k = pages_of(f->allocated_stack); k < pages_of((int)(n * BPF_REG_SIZE)); k++) {
		f->pages[k] = vet_calloc(env, 1, sizeof(*f->pages[k]));
		if (!f->pages[k])
			return -ENOMEM;
		f->pages[k]->holders = 1;
	}
	f->allocated_stack = (int)(n * BPF_REG_SIZE);
	return 0;
}

int state_push_history(struct vet_env *env, struct vstate *st, uint32_t idx, uint32_t prev_idx,
		       uint32_t flags, uint64_t linked_regs)
{
	struct jmp_history_entry *h;

	h = vet_reallocarray(env, st->jmp_history, st->jmp_history_cnt + 1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	st->jmp_history = h;
	h += st->jmp_history_cnt++;
	h->idx = idx;
	h->prev_idx = prev_idx;
	h->flags = flags;
	h->linked_regs = linked_regs;
	return 0;
}

int ref_acquire(struct vet_env *env, int kind, uint32_t id, const void *ptr)
{
	struct vstate *st = env->cur;
	struct ref_state *r;

	r = vet_reallocarray(env, st->refs, st->acquired_refs + 1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	st->refs = r;
	r += st->acquired_refs++;
	r->kind = kind;
	r->id = id;
	r->insn_idx = (int)env->insn_idx;
	r->ptr = ptr;
	return 0;
}

void ref_remove(struct vstate *st, uint32_t idx)
{
	memmove(&st->refs[idx], &st->refs[idx + 1],
		(st->acquired_refs - idx - 1) * sizeof(st->refs[0]));
	st->acquired_refs--;
}

struct ref_state *ref_find(struct vstate *st, uint32_t id)
{
	for (uint32_t i = 0; i < st->acquired_refs; i++)
		if (st->refs[i].id == id)
			return &st->refs[i];
	return NULL;
}

uint64_t pack_linked_regs(const struct linked_regs *set)
{
	uint64_t v = 0;

	for (int i = set->cnt - 1; i >= 0; i--) {
		const struct linked_reg *e = &set->e[i];

		v = (v << 10) | ((uint64_t)e->is_reg << 9) |
		    ((uint64_t)(e->regno & 0x3f) << 3) | (e->frameno & 7);
	}
	return (v << 3) | (uint64_t)set->cnt;
}

void unpack_linked_regs(uint64_t v, struct linked_regs *set)
{
	set->cnt = (int)(v & 7);
	if (set->cnt > MAX_LINKED_REGS)
		set->cnt = MAX_LINKED_REGS;
	v >>= 3;
	for (int i = 0; i < set->cnt; i++) {
		set->e[i].frameno = v & 7;
		set->e[i].regno = (v >> 3) & 0x3f;
		set->e[i].is_reg = (v >> 9) & 1;
		v >>= 10;
	}
}
