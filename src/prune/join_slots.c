/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Dead stack slots at join sites (--explore=join). A site's summary is
 * walked before its continuation is, so the walk's own stack liveness
 * (stack_live.c, recorded along the paths walked) knows nothing yet of
 * what the continuation reads. This pass computes it beforehand, from
 * the program alone: for each instruction, the slots of its own frame
 * that some path from there may read before writing all 8 bytes of
 * them. A slot that no path reads is made invalid in every state that
 * arrives at a site, so that what it held (a pointer into the packet on
 * one path, into the stack on another, a header no longer needed)
 * neither splits nor widens the summary.
 *
 * Forgetting a slot is always sound: an invalid slot describes any
 * content, and a read of it is an unknown scalar (or, without
 * uninitialized stack reads, a rejection). The analysis only decides
 * where it costs nothing; it must not miss a read, or the joined walk
 * may reject a program it would have accepted (never the other way).
 *
 * Slots are read through pointers to them, so the pass first follows
 * where each subprogram's stack pointers go (forward, per register and
 * per slot): r10 plus a constant is an exact slot; a pointer whose
 * offset is not known, or that a store took somewhere this pass does
 * not follow (memory other than an exact slot of its own frame), may
 * point anywhere in the frame. Then, backward: a load through an exact
 * pointer reads its slots, through any other stack pointer every slot;
 * a helper or kfunc given a stack pointer reads every slot from it up
 * to the frame's top; a subprogram given one reads every slot (it may
 * load pointers out of them); a full 8-byte store to an exact slot
 * kills it.
 *
 * Only the frame of the site's own instruction is cleaned: the frames
 * of its callers are read after returns and through pointers this pass
 * does not see.
 */
#include <errno.h>
#include <string.h>

#include "prune.h"
#include "join_int.h"

#define NSLOTS (MAX_BPF_STACK / BPF_REG_SIZE)
#define ALL_SLOTS (~0ull)

/* What a register or slot may hold, as far as this frame's stack goes. */
enum { SP_NONE, SP_EXACT, SP_ANY };

struct spval {
	uint8_t other;	/* may hold something else than a pointer to this frame */
	uint8_t kind;	/* SP_NONE: no pointer to this frame; SP_EXACT: fp + off */
	int16_t off;
};

struct spstate {
	struct spval reg[MAX_BPF_REG];
	struct spval slot[NSLOTS];
};

struct slot_pass {
	struct vet_env *env;
	uint32_t start, end;		/* the subprogram's instructions */
	struct spstate **in;		/* at block heads, NULL: not reached */
	uint8_t *head;			/* a block starts here */
	uint8_t *queued;
	uint32_t *work;
	uint32_t nwork;
	bool escaped;			/* a stack pointer went where loads may find it */
	uint64_t *reads, *kills;	/* per insn, of this subprogram */
};

static const struct spval sp_other = { 1, SP_NONE, 0 };

static bool spval_eq(struct spval a, struct spval b)
{
	return a.other == b.other && a.kind == b.kind && (a.kind != SP_EXACT || a.off == b.off);
}

static struct spval spval_join(struct spval a, struct spval b)
{
	struct spval j = { (uint8_t)(a.other | b.other), SP_ANY, 0 };

	if (a.kind == SP_NONE || (b.kind == SP_EXACT && a.kind == SP_EXACT && a.off == b.off)) {
		j.kind = b.kind;
		j.off = b.off;
	} else if (b.kind == SP_NONE) {
		j.kind = a.kind;
		j.off = a.off;
	}
	return j;
}

static bool is_stack(struct spval v)
{
	return v.kind != SP_NONE;
}

/* Slots holding bytes [lo, hi) of the frame (offsets from fp, < 0). */
static uint64_t slots_of(int64_t lo, int64_t hi)
{
	uint64_t m = 0;

	if (lo < -MAX_BPF_STACK || hi > 0 || lo >= hi)
		return lo >= hi ? 0 : ALL_SLOTS;
	for (int64_t b = lo; b < hi; b += BPF_REG_SIZE)
		m |= 1ull << ((-b - 1) / BPF_REG_SIZE);
	return m | 1ull << ((-(hi - 1) - 1) / BPF_REG_SIZE);
}

/* Every slot a pointer may reach from its address to the frame's top. */
static uint64_t slots_above(struct spval p)
{
	if (p.kind == SP_EXACT)
		return p.off < 0 ? slots_of(p.off, 0) : 0;
	return p.kind == SP_ANY ? ALL_SLOTS : 0;
}

static uint64_t slots_accessed(struct spval p, int16_t off, uint32_t size)
{
	if (p.kind == SP_EXACT)
		return slots_of((int64_t)p.off + off, (int64_t)p.off + off + size);
	return p.kind == SP_ANY ? ALL_SLOTS : 0;
}

/* The spill slot of an 8-byte access at fp + off, if it is one. */
static int slot_at(struct spval p, int16_t off)
{
	int64_t a = (int64_t)p.off + off;

	if (p.kind != SP_EXACT || a < -MAX_BPF_STACK || a > -BPF_REG_SIZE || a % BPF_REG_SIZE)
		return -1;
	return (int)((-a - 1) / BPF_REG_SIZE);
}

/* The same, when p surely points into this frame: a store there
 * replaces the slot (and kills it). */
static int exact_slot(struct spval p, int16_t off)
{
	return p.other ? -1 : slot_at(p, off);
}

static struct spval load(const struct slot_pass *p, const struct spstate *s, struct spval base,
			 int16_t off, uint32_t size)
{
	struct spval v = sp_other;
	int spi = slot_at(base, off);

	/* Only a whole slot reads back as the pointer spilled there. */
	if (size != BPF_REG_SIZE)
		return sp_other;
	if (spi >= 0)
		v = spval_join(v, s->slot[spi]);
	if (base.kind == SP_ANY)
		for (int k = 0; k < NSLOTS; k++)
			v = spval_join(v, s->slot[k]);
	/* Memory elsewhere holds a pointer to this frame only if one was
	 * stored there. */
	if ((base.other || base.kind == SP_NONE) && p->escaped)
		v = spval_join(v, (struct spval){ 1, SP_ANY, 0 });
	return v;
}

static void store(struct slot_pass *p, struct spstate *s, struct spval base, int16_t off,
		  uint32_t size, struct spval val)
{
	int spi = exact_slot(base, off);
	uint64_t touched = slots_accessed(base, off, size);

	/* Part of a slot holds no pointer that a load can get back. */
	if (size != BPF_REG_SIZE)
		val = sp_other;
	if (spi >= 0) {
		s->slot[spi] = val;
		return;
	}
	for (int k = 0; k < NSLOTS; k++)
		if (touched & (1ull << k))
			s->slot[k] = spval_join(s->slot[k], val);
	/* Memory outside this frame (another frame's, a map's): a load
	 * this pass does not follow may find it there. */
	if (is_stack(val) && (base.other || base.kind == SP_NONE))
		p->escaped = true;
}

static struct spval alu64(const struct bpfvet_insn *insn, struct spval dst, struct spval src)
{
	uint8_t op = BPF_OP(insn->code);
	bool k = BPF_SRC(insn->code) == BPF_K;
	struct spval any = { (uint8_t)(dst.other | src.other), SP_ANY, 0 };

	if (op == BPF_MOV)
		return k || insn->off ? sp_other : src;
	if (k && (op == BPF_ADD || op == BPF_SUB) && dst.kind == SP_EXACT) {
		int64_t o = (int64_t)dst.off + (op == BPF_ADD ? insn->imm : -(int64_t)insn->imm);

		if (o >= -MAX_BPF_STACK && o <= 0) {
			dst.off = (int16_t)o;
			return dst;
		}
		return (struct spval){ dst.other, SP_ANY, 0 };
	}
	if (is_stack(dst) || (!k && is_stack(src)))
		return any;
	return sp_other;
}

/* A call: what it may read of this frame, and its clobbers. */
static uint64_t call_reads(const struct slot_pass *p, const struct bpfvet_insn *insn,
			   uint32_t idx, struct spstate *s)
{
	bool subprog = insn_is_pseudo_call(insn);
	/* The arguments a helper or kfunc reads are live before it (the
	 * register pass counts them from its prototype); a subprogram may
	 * read any. */
	uint16_t args = subprog ? 0x3e : p->env->aux[idx].live_regs_before;
	uint64_t m = 0;

	for (int r = BPF_REG_1; r <= BPF_REG_5; r++) {
		if (!(args & (1u << r)) || !is_stack(s->reg[r]))
			continue;
		m |= subprog ? ALL_SLOTS : slots_above(s->reg[r]);
	}
	/* A callee may load a pointer to this frame from where one
	 * escaped to. */
	if (subprog && p->escaped)
		m = ALL_SLOTS;
	for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
		s->reg[r] = sp_other;
	return m;
}

static void atomic_op(struct slot_pass *p, const struct bpfvet_insn *insn, struct spstate *s,
		      uint64_t *rd)
{
	struct spval base = s->reg[insn->dst_reg], old;
	uint32_t size = bpf_size_bytes(insn->code);

	if (insn->imm == BPF_LOAD_ACQ) {
		base = s->reg[insn->src_reg];
		*rd = slots_accessed(base, insn->off, size);
		s->reg[insn->dst_reg] = load(p, s, base, insn->off, size);
		return;
	}
	if (insn->imm == BPF_STORE_REL) {
		store(p, s, base, insn->off, size, s->reg[insn->src_reg]);
		return;
	}
	/* Read, modify, write: the old value may come back, and the new
	 * one (the source register's, for an exchange) stays. */
	old = load(p, s, base, insn->off, size);
	*rd = slots_accessed(base, insn->off, size);
	store(p, s, base, insn->off, size, spval_join(s->reg[insn->src_reg], sp_other));
	if (insn->imm == BPF_CMPXCHG)
		s->reg[BPF_REG_0] = old;
	else if (insn->imm & BPF_FETCH)
		s->reg[insn->src_reg] = old;
}

/* One instruction: its effect on s, the slots it reads and kills. */
static void step(struct slot_pass *p, uint32_t idx, struct spstate *s, uint64_t *rd,
		 uint64_t *kill)
{
	const struct bpfvet_insn *insn = &p->env->insns[idx];
	uint8_t cls = BPF_CLASS(insn->code), mode = BPF_MODE(insn->code);
	uint32_t size = bpf_size_bytes(insn->code);
	struct spval *dst, src;
	int spi;

	*rd = 0;
	*kill = 0;
	/* A register that does not exist: the walk rejects the program
	 * here; nothing goes on, and every slot counts as read. */
	if (insn->dst_reg >= MAX_BPF_REG || insn->src_reg >= MAX_BPF_REG) {
		*rd = ALL_SLOTS;
		return;
	}
	dst = &s->reg[insn->dst_reg];
	src = s->reg[insn->src_reg];
	switch (cls) {
	case BPF_LD:
		if (mode == BPF_IMM)
			*dst = sp_other;
		else
			for (int r = BPF_REG_0; r <= BPF_REG_5; r++)
				s->reg[r] = sp_other;
		break;
	case BPF_LDX:
		*rd = slots_accessed(src, insn->off, size);
		*dst = mode == BPF_MEMSX ? sp_other : load(p, s, src, insn->off, size);
		break;
	case BPF_ST:
	case BPF_STX:
		if (mode == BPF_ATOMIC) {
			atomic_op(p, insn, s, rd);
			break;
		}
		spi = exact_slot(*dst, insn->off);
		if (spi >= 0 && size == BPF_REG_SIZE)
			*kill = 1ull << spi;
		store(p, s, *dst, insn->off, size, cls == BPF_ST ? sp_other : src);
		break;
	case BPF_ALU64:
		*dst = alu64(insn, *dst, src);
		break;
	case BPF_ALU:
		*dst = sp_other;
		break;
	case BPF_JMP:
	case BPF_JMP32:
		if (BPF_OP(insn->code) == BPF_CALL)
			*rd = call_reads(p, insn, idx, s);
		break;
	}
}

/* ---- Forward: where the frame's pointers go ------------------------ */

static void queue(struct slot_pass *p, uint32_t at)
{
	if (p->queued[at - p->start])
		return;
	p->queued[at - p->start] = 1;
	p->work[p->nwork++] = at;
}

static int merge_into(struct slot_pass *p, uint32_t at, const struct spstate *s)
{
	struct spstate *h = p->in[at - p->start];
	bool changed = false;

	if (!h) {
		h = vet_calloc(p->env, 1, sizeof(*h));
		if (!h)
			return -ENOMEM;
		*h = *s;
		p->in[at - p->start] = h;
		queue(p, at);
		return 0;
	}
	for (int r = 0; r < MAX_BPF_REG; r++) {
		struct spval j = spval_join(h->reg[r], s->reg[r]);

		changed |= !spval_eq(j, h->reg[r]);
		h->reg[r] = j;
	}
	for (int k = 0; k < NSLOTS; k++) {
		struct spval j = spval_join(h->slot[k], s->slot[k]);

		changed |= !spval_eq(j, h->slot[k]);
		h->slot[k] = j;
	}
	if (changed)
		queue(p, at);
	return 0;
}

static bool in_subprog(const struct slot_pass *p, uint32_t i)
{
	return i >= p->start && i < p->end;
}

/* Walks the block that starts at head h from its entry state: merges
 * what leaves it into its successors, or (record) notes each
 * instruction's reads and kills. */
static int walk_block(struct slot_pass *p, uint32_t h, bool record)
{
	struct spstate s = *p->in[h - p->start];

	for (uint32_t i = h;;) {
		uint32_t succ[2];
		uint64_t rd, kill;
		int n;

		step(p, i, &s, &rd, &kill);
		if (record) {
			p->reads[i - p->start] = rd;
			p->kills[i - p->start] = kill;
		}
		n = insn_successors(p->env, i, succ);
		if (n == 1 && in_subprog(p, succ[0]) && !p->head[succ[0] - p->start]) {
			i = succ[0];
			continue;
		}
		for (int k = 0; k < n && !record; k++) {
			int err = in_subprog(p, succ[k]) ? merge_into(p, succ[k], &s) : 0;

			if (err)
				return err;
		}
		return 0;
	}
}

/* Block heads: the entry, and every instruction not reached by falling
 * (or jumping) from a single instruction with no other way on. */
static void find_heads(struct slot_pass *p, uint8_t *npred)
{
	for (uint32_t i = p->start; i < p->end; i++) {
		uint32_t succ[2];
		int n = insn_successors(p->env, i, succ);

		for (int k = 0; k < n; k++) {
			if (!in_subprog(p, succ[k]))
				continue;
			if (npred[succ[k] - p->start] < 2)
				npred[succ[k] - p->start]++;
			if (n > 1)
				p->head[succ[k] - p->start] = 1;
		}
		if (insn_is_ldimm64(&p->env->insns[i]))
			i++;
	}
	for (uint32_t i = p->start; i < p->end; i++)
		if (npred[i - p->start] != 1)
			p->head[i - p->start] = 1;
	p->head[0] = 1;
}

static int forward(struct slot_pass *p)
{
	struct spstate entry;
	bool escaped;
	int err;

	for (int r = 0; r < MAX_BPF_REG; r++)
		entry.reg[r] = sp_other;
	entry.reg[BPF_REG_FP] = (struct spval){ 0, SP_EXACT, 0 };
	for (int k = 0; k < NSLOTS; k++)
		entry.slot[k] = sp_other;
	err = merge_into(p, p->start, &entry);
	while (!err && p->nwork) {
		uint32_t h = p->work[--p->nwork];

		p->queued[h - p->start] = 0;
		escaped = p->escaped;
		err = walk_block(p, h, false);
		/* Loads found more: every block again. */
		for (uint32_t i = p->start; !err && !escaped && p->escaped && i < p->end; i++)
			if (p->in[i - p->start])
				queue(p, i);
	}
	return err;
}

/* ---- Backward: slots read before written ----------------------------- */

static void backward(struct slot_pass *p, uint64_t *live)
{
	bool changed = true;

	while (changed) {
		changed = false;
		for (uint32_t i = p->end; i-- > p->start;) {
			uint32_t succ[2];
			uint64_t out = 0, in;
			int n = insn_successors(p->env, i, succ);

			for (int k = 0; k < n; k++)
				if (in_subprog(p, succ[k]))
					out |= live[succ[k]];
			in = p->reads[i - p->start] | (out & ~p->kills[i - p->start]);
			if (in != live[i]) {
				live[i] = in;
				changed = true;
			}
		}
	}
}

static void pass_free(struct slot_pass *p)
{
	for (uint32_t i = 0; p->in && i < p->end - p->start; i++)
		vet_free(p->env, p->in[i]);
	vet_free(p->env, p->in);
	vet_free(p->env, p->head);
	vet_free(p->env, p->queued);
	vet_free(p->env, p->work);
	vet_free(p->env, p->reads);
	vet_free(p->env, p->kills);
}

static int analyze_subprog(struct vet_env *env, uint32_t start, uint32_t end, uint64_t *live)
{
	uint32_t n = end - start;
	struct slot_pass p = { .env = env, .start = start, .end = end };
	uint8_t *npred = vet_calloc(env, n, 1);
	int err = -ENOMEM;

	p.in = vet_calloc(env, n, sizeof(*p.in));
	p.head = vet_calloc(env, n, 1);
	p.queued = vet_calloc(env, n, 1);
	p.work = vet_calloc(env, n, sizeof(*p.work));
	p.reads = vet_calloc(env, n, sizeof(*p.reads));
	p.kills = vet_calloc(env, n, sizeof(*p.kills));
	if (npred && p.in && p.head && p.queued && p.work && p.reads && p.kills) {
		find_heads(&p, npred);
		err = forward(&p);
	}
	for (uint32_t i = start; !err && i < end; i++)
		if (p.head[i - start] && p.in[i - start])
			walk_block(&p, i, true);
	if (!err)
		backward(&p, live);
	vet_free(env, npred);
	pass_free(&p);
	return err;
}

int join_slots_init(struct vet_env *env, struct join_walk *w)
{
	if (env->opts_off & BPFVET_NO_STACK_LIVENESS)
		return 0;
	w->live_slots = vet_calloc(env, env->insn_cnt, sizeof(*w->live_slots));
	if (!w->live_slots)
		return -ENOMEM;
	for (uint32_t sp = 0; sp < env->subprog_cnt; sp++) {
		int err = analyze_subprog(env, env->subprogs[sp].start, env->subprogs[sp].end,
					  w->live_slots);

		if (err)
			return err;
	}
	return 0;
}

void join_slots_free(struct vet_env *env, struct join_walk *w)
{
	vet_free(env, w->live_slots);
	w->live_slots = NULL;
}

/* Makes invalid the slots of st's own frame that no path from insn
 * reads before writing them. */
int join_drop_dead_slots(struct vet_env *env, const struct join_walk *w, struct vstate *st,
			 uint32_t insn)
{
	struct func_state *f = st->frame[st->curframe];
	uint64_t live;

	if (!w->live_slots)
		return 0;
	live = w->live_slots[insn];
	for (int k = 0; k < f->allocated_stack / BPF_REG_SIZE && k < NSLOTS; k++) {
		struct stack_slot *sl = stack_slot_at(f, k);
		int err;

		/* Dynptrs, iterators and irq flags hold what later checks read
		 * as identity: they stay. */
		if ((live & (1ull << k)) || !join_slot_plain(sl) || join_slot_invalid(sl))
			continue;
		err = frame_own_slot(env, f, k);
		if (err)
			return err;
		join_slot_invalidate(stack_slot_at(f, k));
	}
	return 0;
}
