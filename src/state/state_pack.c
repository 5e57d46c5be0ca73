/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Compact copies of pending paths. A path waiting on the stack of pending
 * paths is only read again when it is resumed, while the walk may queue
 * thousands of them (8192 before "too complex"): most of their bytes are
 * zero words (unused stack slots, unbound registers). Once the instruction
 * that queued a path is over, its frames are packed into one block that
 * keeps a bitmap of the non-zero 8-byte words and those words only; the
 * frames are rebuilt byte for byte when the path resumes. Their stacks
 * are pages shared with checkpoints (state.h): the block keeps pointing
 * at them. References and jump history stay as they are (they are small).
 */
#include <errno.h>
#include <string.h>

#include "state.h"

#define WORD sizeof(uint64_t)

static size_t bitmap_words(size_t nwords)
{
	return (nwords + 63) / 64;
}

/* Bitmap then the non-zero words, 64 words at a time: find the non-zero
 * ones first, then copy only those. */
static uint64_t *pack_words(uint64_t *out, const void *src, size_t nwords)
{
	size_t nb = bitmap_words(nwords);
	uint64_t *next = out + nb, chunk[64];

	for (size_t b = 0; b < nb; b++) {
		size_t cnt = nwords - b * 64 < 64 ? nwords - b * 64 : 64;
		uint64_t bits = 0;

		memcpy(chunk, (const char *)src + b * 64 * WORD, cnt * WORD);
		for (size_t i = 0; i < cnt; i++)
			bits |= (uint64_t)(chunk[i] != 0) << i;
		out[b] = bits;
		for (; bits; bits &= bits - 1)
			*next++ = chunk[__builtin_ctzll(bits)];
	}
	return next;
}

static const uint64_t *unpack_words(const uint64_t *in, void *dst, size_t nwords)
{
	size_t nb = bitmap_words(nwords);
	const uint64_t *next = in + nb;
	char *d = dst;

	memset(d, 0, nwords * WORD);
	for (size_t b = 0; b < nb; b++) {
		for (uint64_t bits = in[b]; bits; bits &= bits - 1) {
			size_t i = b * 64 + (size_t)__builtin_ctzll(bits);

			memcpy(d + i * WORD, next++, WORD);
		}
	}
	return next;
}

_Static_assert(sizeof(struct func_state) % sizeof(uint64_t) == 0, "func_state in words");

#define FRAME_WORDS (sizeof(struct func_state) / WORD)

/* The frames' words go into the block, stack page pointers included: the
 * block holds those pages until it is unpacked or released. */
int state_pack(struct vet_env *env, struct vstate *st, uint64_t **packed)
{
	size_t n = 0;
	uint64_t *blob, *out, *shrunk;

	state_share_pages(env, st);
	for (uint32_t i = 0; i <= st->curframe; i++)
		n += bitmap_words(FRAME_WORDS) + FRAME_WORDS;
	blob = vet_malloc(env, n * WORD);
	if (!blob)
		return -ENOMEM;
	out = blob;
	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = st->frame[i];

		out = pack_words(out, f, FRAME_WORDS);
		memset(f->pages, 0, sizeof(f->pages));
		frame_free(env, f);
		st->frame[i] = NULL;
	}
	/* Shrinking in place is cheap; keeping the worst case would not be. */
	shrunk = vet_realloc(env, blob, (size_t)(out - blob) * WORD);
	*packed = shrunk ? shrunk : blob;
	return 0;
}

int state_unpack(struct vet_env *env, struct vstate *st, const uint64_t *packed)
{
	const uint64_t *in = packed;

	for (uint32_t i = 0; i <= st->curframe; i++) {
		struct func_state *f = frame_take(env);

		if (!f)
			f = vet_malloc(env, sizeof(*f));
		if (!f) {
			state_packed_release(env, st, packed, i);
			return -ENOMEM;
		}
		in = unpack_words(in, f, FRAME_WORDS);
		st->frame[i] = f;
	}
	return 0;
}

void state_packed_release(struct vet_env *env, const struct vstate *st, const uint64_t *packed,
			  uint32_t from)
{
	const uint64_t *in = packed;
	struct func_state f;

	for (uint32_t i = 0; i <= st->curframe; i++) {
		memset(&f, 0, sizeof(f));
		in = unpack_words(in, &f, FRAME_WORDS);
		if (i < from)
			continue;
		for (int k = 0; k < STACK_PAGES; k++)
			stack_page_put(env, f.pages[k]);
	}
}
