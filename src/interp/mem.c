/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Memory regions and their access checks. A pointer names its region by
 * its tag; an access must fall inside that region, or the run faults:
 *  - a frame's stack, [0, 512) of a frame still live;
 *  - the packet, [data_meta, data_end) of the current buffer;
 *  - a map value, [0, value_size);
 *  - the context, field by field through ctx.c.
 * Pointers stored on the stack keep their tag per 8-byte slot (spills);
 * stored anywhere else (map values, the packet) they become numbers.
 * x86 never faults on misalignment, and neither does this.
 */
#include <string.h>

#include "interp_int.h"
#include "base/uapi.h"

static int64_t reg_off(struct interp_reg r)
{
	return (int64_t)(r.val - interp_base(r.tag));
}

/* Host memory for [off, off+len) of the region of `addr`, or NULL after a
 * fault. The context has no flat memory: callers handle IK_CTX first. */
static uint8_t *resolve(struct interp *it, struct interp_reg addr, int64_t off, uint64_t len,
			bool write)
{
	struct interp_tag t = addr.tag;
	int64_t o = reg_off(addr) + off;
	uint64_t lo, hi;
	uint8_t *mem;

	switch (t.kind) {
	case IK_STACK:
		if (t.frame > it->depth) {
			interp_faultf(it, "access to the stack of a returned frame %d", t.frame);
			return NULL;
		}
		mem = it->frames[t.frame].stack;
		lo = 0;
		hi = INTERP_STACK_SIZE;
		break;
	case IK_PKT:
	case IK_PKT_META:
		mem = it->pkt;
		lo = it->meta;
		hi = it->data_end;
		break;
	case IK_MAP_VALUE:
		mem = maps_value(it->maps, t.map, t.elem);
		if (!mem) {
			interp_faultf(it, "map %u has no element %u", t.map, t.elem);
			return NULL;
		}
		lo = 0;
		hi = maps_value_size(it->maps, t.map);
		break;
	case IK_SCALAR:
		interp_faultf(it, "%s through a scalar %#llx", write ? "write" : "read",
			      (unsigned long long)addr.val);
		return NULL;
	case IK_MAP:
		/* The verifier lets programs read the kernel's struct bpf_map
		 * (its BTF) through a map pointer; no such struct here. */
		interp_faultf(it, "%s of the kernel's struct bpf_map is not modelled",
			      write ? "write" : "read");
		return NULL;
	default:
		interp_faultf(it, "%s through a %s pointer", write ? "write" : "read",
			      interp_kind_name(t.kind));
		return NULL;
	}
	if (o < (int64_t)lo || (uint64_t)o > hi || len > hi - (uint64_t)o) {
		interp_faultf(it, "%s of %llu bytes at %s%+lld, outside [%llu, %llu)",
			      write ? "write" : "read", (unsigned long long)len,
			      interp_kind_name(t.kind), (long long)o,
			      (unsigned long long)lo, (unsigned long long)hi);
		return NULL;
	}
	return mem + o;
}

static uint64_t load_le(const uint8_t *p, int size)
{
	uint64_t v = 0;

	memcpy(&v, p, (size_t)size);	/* little-endian host */
	return v;
}

static void store_le(uint8_t *p, int size, uint64_t v)
{
	memcpy(p, &v, (size_t)size);
}

static uint64_t sext(uint64_t v, int size)
{
	int s = 64 - size * 8;

	return (uint64_t)((int64_t)(v << s) >> s);
}

/* Slots of frame f under [o, o+len) become scalars; an aligned 8-byte
 * store of a pointer then re-tags its slot. */
static void clobber_slots(struct interp *it, int f, int64_t o, uint64_t len)
{
	int64_t s;

	for (s = o / 8; s * 8 < o + (int64_t)len && s < STACK_SLOTS; s++)
		if (s >= 0)
			it->frames[f].slot_tag[s] = interp_scalar_tag();
}

bool mem_load(struct interp *it, struct interp_reg addr, int16_t off, int size, bool sx,
	      struct interp_reg *dst)
{
	struct interp_reg v = { 0, { IK_SCALAR, 0, 0, 0 } };
	uint8_t *p;

	if (addr.tag.kind == IK_CTX) {
		if (!ctx_load(it, reg_off(addr) + off, size, &v))
			return false;
		if (sx && v.tag.kind == IK_SCALAR)
			v.val = sext(v.val, size);
		*dst = v;
		return true;
	}
	p = resolve(it, addr, off, (uint64_t)size, false);
	if (!p)
		return false;
	v.val = load_le(p, size);
	if (sx)
		v.val = sext(v.val, size);
	if (addr.tag.kind == IK_STACK && size == 8) {
		int64_t o = reg_off(addr) + off;
		struct interp_tag t = it->frames[addr.tag.frame].slot_tag[o / 8];

		if (o % 8 == 0)
			v.tag = t;
	}
	*dst = v;
	return true;
}

bool mem_store(struct interp *it, struct interp_reg addr, int16_t off, int size,
	       struct interp_reg v)
{
	uint8_t *p;

	if (addr.tag.kind == IK_CTX)
		return ctx_store(it, reg_off(addr) + off, size, v.val);
	p = resolve(it, addr, off, (uint64_t)size, true);
	if (!p)
		return false;
	store_le(p, size, v.val);
	if (addr.tag.kind == IK_STACK) {
		int64_t o = reg_off(addr) + off;

		clobber_slots(it, addr.tag.frame, o, (uint64_t)size);
		if (size == 8 && o % 8 == 0)
			it->frames[addr.tag.frame].slot_tag[o / 8] = v.tag;
	}
	return true;
}

static uint64_t atomic_op(int32_t op, uint64_t old, uint64_t src)
{
	switch (op & ~BPF_FETCH) {
	case BPF_ADD: return old + src;
	case BPF_OR: return old | src;
	case BPF_AND: return old & src;
	case BPF_XOR: return old ^ src;
	default: return src;	/* xchg */
	}
}

static bool atomic_rmw(struct interp *it, const struct bpfvet_insn *insn, uint8_t *p, int size)
{
	struct interp_reg *src = &it->frames[it->depth].regs[insn->src_reg];
	struct interp_reg *r0 = &it->frames[it->depth].regs[BPF_REG_0];
	uint64_t mask = size == 8 ? ~0ull : 0xffffffffull;
	uint64_t old = load_le(p, size);

	switch (insn->imm) {
	case BPF_ADD: case BPF_OR: case BPF_AND: case BPF_XOR:
	case BPF_ADD | BPF_FETCH: case BPF_OR | BPF_FETCH:
	case BPF_AND | BPF_FETCH: case BPF_XOR | BPF_FETCH:
	case BPF_XCHG:
		store_le(p, size, atomic_op(insn->imm, old, src->val) & mask);
		if (insn->imm & BPF_FETCH) {
			src->val = old;
			src->tag = interp_scalar_tag();
		}
		return true;
	case BPF_CMPXCHG:
		if ((r0->val & mask) == old)
			store_le(p, size, src->val & mask);
		r0->val = old;
		r0->tag = interp_scalar_tag();
		return true;
	default:
		return interp_faultf(it, "unknown atomic op %#x", insn->imm);
	}
}

bool mem_atomic(struct interp *it, const struct bpfvet_insn *insn)
{
	struct interp_reg *regs = it->frames[it->depth].regs;
	int size;
	uint8_t *p;

	switch (BPF_SIZE(insn->code)) {
	case BPF_B: size = 1; break;
	case BPF_H: size = 2; break;
	case BPF_W: size = 4; break;
	default: size = 8; break;
	}
	if (insn->imm == BPF_LOAD_ACQ)
		return mem_load(it, regs[insn->src_reg], insn->off, size, false,
				&regs[insn->dst_reg]);
	if (insn->imm == BPF_STORE_REL)
		return mem_store(it, regs[insn->dst_reg], insn->off, size, regs[insn->src_reg]);
	if (size < 4)
		return interp_faultf(it, "atomic op of %d bytes", size);
	if (regs[insn->dst_reg].tag.kind == IK_CTX)
		return interp_faultf(it, "atomic op on the context");
	p = resolve(it, regs[insn->dst_reg], insn->off, (uint64_t)size, true);
	if (!p)
		return false;
	if (regs[insn->dst_reg].tag.kind == IK_STACK)
		clobber_slots(it, regs[insn->dst_reg].tag.frame,
			      reg_off(regs[insn->dst_reg]) + insn->off, (uint64_t)size);
	return atomic_rmw(it, insn, p, size);
}

uint8_t *mem_span(struct interp *it, struct interp_reg addr, uint64_t len, bool write)
{
	if (addr.tag.kind == IK_CTX) {
		interp_faultf(it, "helper memory in the context is not supported");
		return NULL;
	}
	if (len == 0 && addr.tag.kind == IK_SCALAR)
		return it->empty;	/* a zero-length span: never read or written */
	return resolve(it, addr, 0, len, write);
}

void mem_clobber(struct interp *it, struct interp_reg addr, uint64_t len)
{
	if (addr.tag.kind == IK_STACK && addr.tag.frame <= it->depth)
		clobber_slots(it, addr.tag.frame, reg_off(addr), len);
}
