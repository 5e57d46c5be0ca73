/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The helpers socket filters, tc and XDP programs call most, with the
 * kernel's checks and return codes (net/core/filter.c, kernel/bpf/).
 * What cannot be reproduced is made deterministic from the run's seed:
 * ktime_get_*_ns (monotonic), get_prandom_u32. probe_read_* copy from a
 * pointer the interpreter knows and otherwise fail with -EFAULT and a
 * zeroed buffer, as the kernel does on a bad address; the modelled current
 * task (get_current_task) is the exception: its memory reads as zeros.
 * Any other helper ends the run with "unsupported helper N": never silently.
 */
#include <errno.h>
#include <string.h>

#include "interp_int.h"
#include "base/uapi.h"

#define INT_MAX_ 0x7fffffffull
#define ETH_HLEN 14
#define XDP_FRAME_SIZE 40
#define XDP_HARD_END (4096 - 320)	/* frame_sz - SKB_DATA_ALIGN(shinfo) */

#define F_RECOMPUTE_CSUM (1ull << 0)
#define F_INVALIDATE_HASH (1ull << 1)
#define F_HDR_FIELD_MASK 0xfull
#define F_PSEUDO_HDR (1ull << 4)
#define F_MARK_MANGLED_0 (1ull << 5)
#define F_MARK_ENFORCE (1ull << 6)
#define F_IPV6 (1ull << 7)

/* get_current_task in TEST_RUN answers the address of the calling
 * process's task_struct: a kernel address the verifier types as a scalar.
 * The interpreter answers this fixed one, and probe_read_kernel(_str) of
 * the TASK_SPAN bytes from it succeed and read zeros: the real task's
 * fields (pid, comm, ...) belong to whichever process recorded the run. */
#define CURRENT_TASK 0xffff888004000000ull
#define TASK_SPAN 0x4000ull

static struct interp_reg *R(struct interp *it, int n)
{
	return &it->frames[it->depth].regs[n];
}

static void ret(struct interp *it, uint64_t v)
{
	R(it, 0)->val = v;
	R(it, 0)->tag = interp_scalar_tag();
}

static bool ret_err(struct interp *it, int err)
{
	ret(it, (uint64_t)(int64_t)err);
	return true;
}

static bool map_arg(struct interp *it, uint32_t *idx)
{
	struct interp_reg *r = R(it, 1);

	if (r->tag.kind != IK_MAP || r->val != interp_base(r->tag))
		return interp_faultf(it, "R1 is not a map");
	*idx = r->tag.map;
	return true;
}

static bool h_map_lookup(struct interp *it)
{
	struct interp_tag t = { IK_MAP_VALUE, 0, 0, 0 };
	uint32_t idx, elem;
	uint8_t *key;
	int err;

	if (!map_arg(it, &idx))
		return false;
	if (maps_type(it->maps, idx) == BPF_MAP_TYPE_PROG_ARRAY)
		return interp_faultf(it, "lookup in a program array");
	key = mem_span(it, *R(it, 2), maps_key_size(it->maps, idx), false);
	if (!key)
		return false;
	err = maps_lookup(it->maps, idx, key, &elem);
	if (err == -EOPNOTSUPP)
		return interp_faultf(it, "lookup in map type %u is not modelled",
				     maps_type(it->maps, idx));
	if (err) {
		ret(it, 0);
		return true;
	}
	t.map = (uint16_t)idx;
	t.elem = elem;
	*R(it, 0) = interp_ptr(it, t, 0);
	return true;
}

static bool h_map_update(struct interp *it)
{
	uint32_t idx;
	uint8_t *key, *val;
	int err;

	if (!map_arg(it, &idx))
		return false;
	key = mem_span(it, *R(it, 2), maps_key_size(it->maps, idx), false);
	val = key ? mem_span(it, *R(it, 3), maps_value_size(it->maps, idx), false) : NULL;
	if (!val)
		return false;
	err = maps_update(it->maps, idx, key, val, R(it, 4)->val);
	if (err == -EOPNOTSUPP)
		return interp_faultf(it, "update of map type %u is not modelled",
				     maps_type(it->maps, idx));
	return ret_err(it, err);
}

static bool h_map_delete(struct interp *it)
{
	uint32_t idx;
	uint8_t *key;
	int err;

	if (!map_arg(it, &idx))
		return false;
	key = mem_span(it, *R(it, 2), maps_key_size(it->maps, idx), false);
	if (!key)
		return false;
	err = maps_delete(it->maps, idx, key);
	if (err == -EOPNOTSUPP)
		return interp_faultf(it, "delete in map type %u is not modelled",
				     maps_type(it->maps, idx));
	return ret_err(it, err);
}

/* The next recorded answer of a varying helper, if the run has one. */
static bool replayed(struct interp *it, uint64_t *v)
{
	if (it->replay_at >= it->replay_cnt)
		return false;
	*v = it->replay[it->replay_at++];
	return true;
}

static bool h_ktime(struct interp *it)
{
	uint64_t v;

	if (replayed(it, &v))
		it->ktime = v;
	else
		it->ktime += 1000 + interp_rand(it) % 1000;
	ret(it, it->ktime);
	return true;
}

static bool h_prandom(struct interp *it)
{
	uint64_t v;

	ret(it, replayed(it, &v) ? (uint32_t)v : (uint32_t)interp_rand(it));
	return true;
}

static bool h_trace_printk(struct interp *it)
{
	uint64_t n = R(it, 2)->val;
	uint8_t *fmt = mem_span(it, *R(it, 1), n, false);

	if (!fmt)
		return false;
	ret(it, n ? strnlen((const char *)fmt, n) : 0);
	return true;
}

static bool skb_only(struct interp *it)
{
	if (it->kind == INTERP_XDP || R(it, 1)->tag.kind != IK_CTX)
		return interp_faultf(it, "R1 is not an skb");
	return true;
}

static bool h_skb_load_bytes(struct interp *it)
{
	uint64_t off = (uint32_t)R(it, 2)->val, len = (uint32_t)R(it, 4)->val;
	uint8_t *to;

	if (!skb_only(it))
		return false;
	to = mem_span(it, *R(it, 3), len, true);
	if (!to)
		return false;
	mem_clobber(it, *R(it, 3), len);
	if (off > INT_MAX_ || off + len > ctx_skb_len(it)) {
		memset(to, 0, len);
		return ret_err(it, -EFAULT);
	}
	memmove(to, it->pkt + it->data + off, len);
	ret(it, 0);
	return true;
}

static bool h_skb_load_bytes_rel(struct interp *it)
{
	uint64_t off = (uint32_t)R(it, 2)->val, len = (uint32_t)R(it, 4)->val;
	uint64_t hdr = R(it, 5)->val, at;
	uint8_t *to;

	if (!skb_only(it))
		return false;
	to = mem_span(it, *R(it, 3), len, true);
	if (!to)
		return false;
	mem_clobber(it, *R(it, 3), len);
	at = (hdr == 0 ? it->mac : it->net) + off;
	if (off > 0xffff || hdr > 1 || at + len > it->data_end) {
		memset(to, 0, len);
		return ret_err(it, -EFAULT);
	}
	memmove(to, it->pkt + at, len);
	ret(it, 0);
	return true;
}

static bool h_skb_store_bytes(struct interp *it)
{
	uint64_t off = (uint32_t)R(it, 2)->val, len = (uint32_t)R(it, 4)->val;
	uint64_t flags = R(it, 5)->val;
	uint8_t *from;

	if (!skb_only(it))
		return false;
	from = mem_span(it, *R(it, 3), len, false);
	if (!from)
		return false;
	if (flags & ~(F_RECOMPUTE_CSUM | F_INVALIDATE_HASH))
		return ret_err(it, -EINVAL);
	if (off > INT_MAX_ || off + len > ctx_skb_len(it))
		return ret_err(it, -EFAULT);
	memmove(it->pkt + it->data + off, from, len);
	ret(it, 0);
	return true;
}

/* One's-complement arithmetic of the Internet checksum. */
static uint32_t csum_add(uint32_t a, uint32_t b)
{
	uint32_t r = a + b;

	return r + (r < b);
}

static uint16_t csum_fold(uint32_t s)
{
	s = (s & 0xffff) + (s >> 16);
	s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

static uint16_t csum16_add(uint16_t a, uint16_t b)
{
	uint16_t r = (uint16_t)(a + b);

	return (uint16_t)(r + (r < b));
}

static uint16_t replace4(uint16_t sum, uint32_t from, uint32_t to)
{
	return csum_fold(csum_add(csum_add(~(uint32_t)sum, ~from), to));
}

static uint16_t replace2(uint16_t sum, uint16_t from, uint16_t to)
{
	return (uint16_t)~csum16_add(csum16_add((uint16_t)~sum, (uint16_t)~from), to);
}

static uint16_t replace_diff(uint16_t sum, uint32_t diff)
{
	return csum_fold(csum_add(diff, ~(uint32_t)sum));
}

/* l3 (l4 = false) and l4 checksum replacement; the test skb's checksum is
 * CHECKSUM_NONE, so only the field in the packet changes. */
static bool h_csum_replace(struct interp *it, bool l4)
{
	uint64_t off = (uint32_t)R(it, 2)->val, from = R(it, 3)->val, to = R(it, 4)->val;
	uint64_t flags = R(it, 5)->val, allowed = F_HDR_FIELD_MASK;
	bool mmzero = l4 && (flags & F_MARK_MANGLED_0);
	uint16_t sum;
	uint8_t *p;

	if (!skb_only(it))
		return false;
	if (l4)
		allowed |= F_PSEUDO_HDR | F_MARK_MANGLED_0 | F_MARK_ENFORCE | F_IPV6;
	if (flags & ~allowed)
		return ret_err(it, -EINVAL);
	if (off > 0xffff || (off & 1) || off + 2 > ctx_skb_len(it))
		return ret_err(it, -EFAULT);
	p = it->pkt + it->data + off;
	memcpy(&sum, p, 2);
	if (mmzero && !(flags & F_MARK_ENFORCE) && !sum)
		return ret_err(it, 0);
	switch (flags & F_HDR_FIELD_MASK) {
	case 0:
		if (from)
			return ret_err(it, -EINVAL);
		sum = replace_diff(sum, (uint32_t)to);
		break;
	case 2:
		sum = l4 ? replace4(sum, (uint16_t)from, (uint16_t)to)
			 : replace2(sum, (uint16_t)from, (uint16_t)to);
		break;
	case 4:
		sum = replace4(sum, (uint32_t)from, (uint32_t)to);
		break;
	default:
		return ret_err(it, -EINVAL);
	}
	if (mmzero && !sum)
		sum = 0xffff;	/* CSUM_MANGLED_0 */
	memcpy(p, &sum, 2);
	return ret_err(it, 0);
}

static bool h_csum_diff(struct interp *it)
{
	uint64_t fsz = (uint32_t)R(it, 2)->val, tsz = (uint32_t)R(it, 4)->val;
	uint32_t seed = (uint32_t)R(it, 5)->val, w;
	uint64_t sum = seed;
	uint8_t *from = NULL, *to = NULL;

	if ((fsz | tsz) & 3 || fsz + tsz > 512)	/* words, at most 128 of them */
		return ret_err(it, -EINVAL);
	if (fsz && !(from = mem_span(it, *R(it, 1), fsz, false)))
		return false;
	if (tsz && !(to = mem_span(it, *R(it, 3), tsz, false)))
		return false;
	for (uint64_t i = 0; i < fsz; i += 4) {
		memcpy(&w, from + i, 4);
		sum += (uint32_t)~w;
	}
	for (uint64_t i = 0; i < tsz; i += 4) {
		memcpy(&w, to + i, 4);
		sum += w;
	}
	while (sum >> 32)
		sum = (sum & 0xffffffffull) + (sum >> 32);
	ret(it, sum);
	return true;
}

static bool xdp_only(struct interp *it)
{
	if (it->kind != INTERP_XDP || R(it, 1)->tag.kind != IK_CTX)
		return interp_faultf(it, "R1 is not an xdp_md");
	return true;
}

static bool h_xdp_adjust_head(struct interp *it)
{
	int64_t delta = (int32_t)R(it, 2)->val;
	int64_t metalen = it->data - it->meta, data = (int64_t)it->data + delta;

	if (!xdp_only(it))
		return false;
	if (data < XDP_FRAME_SIZE + metalen || data > (int64_t)it->data_end - ETH_HLEN)
		return ret_err(it, -EINVAL);
	if (metalen)
		memmove(it->pkt + it->meta + delta, it->pkt + it->meta, (size_t)metalen);
	it->meta = (uint32_t)((int64_t)it->meta + delta);
	it->data = (uint32_t)data;
	return ret_err(it, 0);
}

static bool h_xdp_adjust_meta(struct interp *it)
{
	int64_t delta = (int32_t)R(it, 2)->val;
	int64_t meta = (int64_t)it->meta + delta, metalen = (int64_t)it->data - meta;

	if (!xdp_only(it))
		return false;
	if (meta < XDP_FRAME_SIZE || meta > (int64_t)it->data)
		return ret_err(it, -EINVAL);
	if ((metalen & 3) || metalen > 32)
		return ret_err(it, -EACCES);
	it->meta = (uint32_t)meta;
	return ret_err(it, 0);
}

static bool h_xdp_adjust_tail(struct interp *it)
{
	int64_t delta = (int32_t)R(it, 2)->val;
	int64_t end = (int64_t)it->data_end + delta;

	if (!xdp_only(it))
		return false;
	if (end > XDP_HARD_END || end < (int64_t)it->data + ETH_HLEN)
		return ret_err(it, -EINVAL);
	if (delta > 0)
		memset(it->pkt + it->data_end, 0, (size_t)delta);
	it->data_end = (uint32_t)end;
	return ret_err(it, 0);
}

/* probe_read_{kernel,user}[_str]: a pointer the interpreter knows is
 * read; anything else is a bad address. */
static bool in_current_task(struct interp_reg s, uint64_t n)
{
	return s.tag.kind == IK_SCALAR && s.val >= CURRENT_TASK && n <= TASK_SPAN &&
	       s.val - CURRENT_TASK <= TASK_SPAN - n;
}

static bool h_probe_read(struct interp *it, bool str, bool kernel)
{
	uint64_t n = (uint32_t)R(it, 2)->val;
	uint8_t *dst = mem_span(it, *R(it, 1), n, true), *src;
	struct interp_reg s = *R(it, 3);

	if (!dst)
		return false;
	mem_clobber(it, *R(it, 1), n);
	src = s.tag.kind != IK_SCALAR && s.tag.kind != IK_CTX ? mem_span(it, s, n, false) : NULL;
	if (it->status == INTERP_FAULT)
		return false;
	if (kernel && n && in_current_task(s, n)) {
		memset(dst, 0, n);
		ret(it, str ? 1 : 0);		/* "" and its NUL */
		return true;
	}
	if (!src || !n) {
		memset(dst, 0, n);
		return ret_err(it, n ? -EFAULT : 0);
	}
	memmove(dst, src, n);
	if (str) {
		size_t len = strnlen((const char *)dst, n);

		if (len == n)
			dst[n - 1] = 0;
		ret(it, len == n ? n : len + 1);
		return true;
	}
	return ret_err(it, 0);
}

static bool h_skb_pull_data(struct interp *it)
{
	uint64_t len = (uint32_t)R(it, 2)->val;

	if (!skb_only(it))
		return false;
	/* The test skb is linear and not cloned: pulling up to its length
	 * succeeds, beyond it pskb_may_pull fails. */
	return ret_err(it, len > ctx_skb_len(it) ? -ENOMEM : 0);
}

/* No test skb has a security path: the buffer is cleared. */
static bool h_skb_get_xfrm_state(struct interp *it)
{
	uint64_t size = (uint32_t)R(it, 4)->val;
	uint8_t *to;

	if (!skb_only(it))
		return false;
	to = mem_span(it, *R(it, 3), size, true);
	if (!to)
		return false;
	mem_clobber(it, *R(it, 3), size);
	memset(to, 0, size);
	return ret_err(it, -EINVAL);
}

/* check_mtu against the loopback device (ifindex 0: the skb's, or 1):
 * MTU 65536 and a 14-byte link header. Other devices are the host's. */
static bool h_check_mtu(struct interp *it)
{
	uint64_t ifindex = (uint32_t)R(it, 2)->val, flags = R(it, 5)->val;
	int64_t diff = (int32_t)R(it, 4)->val, len;
	const int64_t mtu = 65536, hlen = ETH_HLEN;
	bool xdp = it->kind == INTERP_XDP, gso;
	uint32_t in;
	uint8_t *p;

	if (R(it, 1)->tag.kind != IK_CTX)
		return interp_faultf(it, "R1 is not the context");
	p = mem_span(it, *R(it, 3), 4, true);
	if (!p)
		return false;
	memcpy(&in, p, 4);
	if (flags & ~(uint64_t)(xdp ? 0 : 1))
		return ret_err(it, -EINVAL);
	if ((flags & 1) && (diff || in))
		return ret_err(it, -EINVAL);
	if (ifindex > 1)
		return interp_faultf(it, "check_mtu of ifindex %llu is not modelled",
				     (unsigned long long)ifindex);
	len = in ? in + hlen : (int64_t)(it->data_end - it->data);
	len += diff;
	memcpy(&in, it->ctx + 176, 4);	/* __sk_buff gso_size */
	gso = !xdp && in;
	in = (uint32_t)mtu;
	memcpy(p, &in, 4);
	mem_clobber(it, *R(it, 3), 4);
	return ret_err(it, len <= mtu + hlen || gso ? 0 : 1);	/* BPF_MTU_CHK_RET_* */
}

/* VLAN tags kept out of the packet (hardware-accelerated), as a first
 * push makes them; a second push or a pop of an in-packet tag moves
 * bytes and is not modelled. */
static bool h_skb_vlan_push(struct interp *it)
{
	uint16_t proto = (uint16_t)R(it, 2)->val, tci = (uint16_t)R(it, 3)->val;
	uint32_t present;

	if (!skb_only(it))
		return false;
	memcpy(&present, it->ctx + 20, 4);
	if (present)
		return interp_faultf(it, "a second vlan push is not modelled");
	if (proto != __builtin_bswap16(0x8100) && proto != __builtin_bswap16(0x88a8))
		proto = __builtin_bswap16(0x8100);
	present = 1;
	memcpy(it->ctx + 20, &present, 4);
	present = tci;
	memcpy(it->ctx + 24, &present, 4);
	present = proto;
	memcpy(it->ctx + 28, &present, 4);
	return ret_err(it, 0);
}

static bool h_skb_vlan_pop(struct interp *it)
{
	uint32_t present, proto;

	if (!skb_only(it))
		return false;
	memcpy(&present, it->ctx + 20, 4);
	memcpy(&proto, it->ctx + 16, 4);
	if (present) {
		memset(it->ctx + 20, 0, 12);
		return ret_err(it, 0);
	}
	if (proto == __builtin_bswap16(0x8100) || proto == __builtin_bswap16(0x88a8))
		return interp_faultf(it, "popping a vlan tag from the packet is not modelled");
	return ret_err(it, 0);
}

/* Socket lookups: the interpreter knows no sockets, so none is found. */
static bool h_sk_lookup(struct interp *it)
{
	ret(it, 0);
	return true;
}

/* xdp_load_bytes / xdp_store_bytes on a linear frame: offsets from
 * data; on an error the buffer is left as it was. */
static bool h_xdp_bytes(struct interp *it, bool store)
{
	uint64_t off = (uint32_t)R(it, 2)->val, len = (uint32_t)R(it, 4)->val;
	uint8_t *buf;

	if (!xdp_only(it))
		return false;
	buf = mem_span(it, *R(it, 3), len, !store);
	if (!buf)
		return false;
	if (off > 0xffff || len > 0xffff)
		return ret_err(it, -EFAULT);
	if (off + len > it->data_end - it->data)
		return ret_err(it, -EINVAL);
	if (store) {
		memmove(it->pkt + it->data + off, buf, len);
	} else {
		mem_clobber(it, *R(it, 3), len);
		memmove(buf, it->pkt + it->data + off, len);
	}
	return ret_err(it, 0);
}

/* clone_redirect: the checks before a device is used. No device has
 * ifindex 0; a real one would take a clone of the packet out of this
 * run, which is not modelled. */
static bool h_clone_redirect(struct interp *it)
{
	uint64_t ifindex = (uint32_t)R(it, 2)->val, flags = R(it, 3)->val;
	uint32_t gso_size;

	if (!skb_only(it))
		return false;
	if (flags & ~1ull)		/* BPF_F_INGRESS only */
		return ret_err(it, -EINVAL);
	memcpy(&gso_size, it->ctx + 176, 4);
	if (gso_size)			/* type-less GSO from ctx_in */
		return ret_err(it, -EBADMSG);
	if (ifindex == 0)
		return ret_err(it, -EINVAL);
	return interp_faultf(it, "clone_redirect to ifindex %llu is not modelled",
			     (unsigned long long)ifindex);
}

/* skb_change_proto: only IPv4 <-> IPv6 translates (not modelled);
 * anything else is -ENOTSUPP (524). */
static bool h_skb_change_proto(struct interp *it)
{
	uint16_t to = (uint16_t)R(it, 2)->val;
	uint32_t from;

	if (!skb_only(it))
		return false;
	if (R(it, 3)->val)
		return ret_err(it, -EINVAL);
	memcpy(&from, it->ctx + 16, 4);
	if ((from == __builtin_bswap16(0x0800) && to == __builtin_bswap16(0x86dd)) ||
	    (from == __builtin_bswap16(0x86dd) && to == __builtin_bswap16(0x0800)))
		return interp_faultf(it, "skb_change_proto between IPv4 and IPv6 is not modelled");
	return ret_err(it, -524);
}

/* The program in slot `idx` of program array `map`: only an object's
 * initial slots (`.values = { ... }`) can fill one, naming programs of
 * the same object. NULL: an empty slot. */
static const struct bpfvet_program *prog_slot(const struct interp *it, uint32_t map,
					      uint64_t idx)
{
	const struct bpfvet_object *obj = it->prog->obj;
	const struct bpfvet_map *m;

	if (!obj || map >= obj->map_cnt)
		return NULL;
	m = &obj->maps[map];
	if (idx >= m->max_entries || idx >= m->init_cnt || !m->init_slots[idx])
		return NULL;
	for (size_t i = 0; i < obj->prog_cnt; i++)
		if (!strcmp(obj->progs[i].name, m->init_slots[idx]))
			return &obj->progs[i];
	return NULL;
}

/* tail_call(ctx, prog_array, index): into the slot's program, with the
 * same context and frame, at most 33 times (MAX_TAIL_CALL_CNT); an empty
 * slot or the limit makes the call fail and the program go on. */
static bool h_tail_call(struct interp *it)
{
	struct interp_reg *m = R(it, 2);
	const struct bpfvet_program *target;

	if (m->tag.kind != IK_MAP || maps_type(it->maps, m->tag.map) != BPF_MAP_TYPE_PROG_ARRAY)
		return interp_faultf(it, "R2 is not a program array");
	target = prog_slot(it, m->tag.map, (uint32_t)R(it, 3)->val);
	if (!target || it->tail_calls >= 33)
		return true;
	if (it->depth)
		return interp_faultf(it, "a tail call from a subprogram is not supported");
	if (target->type != it->prog->type)
		return interp_faultf(it, "a tail call into another program type");
	it->tail_calls++;
	it->prog = target;
	it->insns = target->insns;
	it->insn_cnt = target->insn_cnt;
	it->pc = 0;
	it->jumped = true;
	return true;
}

/* bpf_loop(nr, callback, ctx, flags): callback(i, ctx) for i = 0, 1, ...
 * until it returns non-zero or nr calls were made; R0 is the number of
 * calls. The callback runs in frames of its own (interp.c: loop_next). */
static bool h_loop(struct interp *it)
{
	uint64_t nr = (uint32_t)R(it, 1)->val;
	struct interp_reg fn = *R(it, 2), ctx = *R(it, 3);
	struct interp_frame *f;
	size_t back = it->pc + 1;

	if (fn.tag.kind != IK_FUNC)
		return interp_faultf(it, "R2 is not a function");
	if (R(it, 4)->val)
		return ret_err(it, -EINVAL);
	if (nr > (1u << 23))			/* BPF_MAX_LOOPS */
		return ret_err(it, -E2BIG);
	if (!nr)
		return ret_err(it, 0);
	R(it, 1)->val = 0;
	R(it, 1)->tag = interp_scalar_tag();
	*R(it, 2) = ctx;
	if (!interp_push_frame(it, (size_t)(fn.val - interp_base(fn.tag)), back))
		return false;
	f = &it->frames[it->depth];
	f->loop_cb = true;
	f->loop_nr = nr;
	f->loop_i = 0;
	f->loop_fn = (size_t)(fn.val - interp_base(fn.tag));
	f->loop_ctx = ctx;
	it->jumped = true;
	return true;
}

bool helper_call(struct interp *it, int32_t id)
{
	switch (id) {
	case 1: return h_map_lookup(it);
	case 2: return h_map_update(it);
	case 3: return h_map_delete(it);
	case 4: case 113: return h_probe_read(it, false, true);
	case 112: return h_probe_read(it, false, false);
	case 45: case 115: return h_probe_read(it, true, true);
	case 114: return h_probe_read(it, true, false);
	case 35: ret(it, CURRENT_TASK); return true;	/* get_current_task */
	case 5: case 125: case 160: case 208: return h_ktime(it);
	case 6: return h_trace_printk(it);
	case 7: return h_prandom(it);
	case 8: ret(it, 0); return true;		/* get_smp_processor_id */
	case 9: return h_skb_store_bytes(it);
	case 10: return h_csum_replace(it, false);
	case 11: return h_csum_replace(it, true);
	case 12: return h_tail_call(it);
	case 26: return h_skb_load_bytes(it);
	case 28: return h_csum_diff(it);
	case 44: return h_xdp_adjust_head(it);
	case 54: return h_xdp_adjust_meta(it);
	case 65: return h_xdp_adjust_tail(it);
	case 68: return h_skb_load_bytes_rel(it);
	case 69: return helper_fib_lookup(it);
	case 13: return h_clone_redirect(it);
	case 18: return h_skb_vlan_push(it);
	case 31: return h_skb_change_proto(it);
	case 19: return h_skb_vlan_pop(it);
	case 39: return h_skb_pull_data(it);
	case 66: return h_skb_get_xfrm_state(it);
	case 84: case 85: case 99: return h_sk_lookup(it);
	case 163: return h_check_mtu(it);
	case 181: return h_loop(it);
	case 188:
		if (!xdp_only(it))
			return false;
		ret(it, it->data_end - it->data);	/* no fragments */
		return true;
	case 189: return h_xdp_bytes(it, false);
	case 190: return h_xdp_bytes(it, true);
	default:
		return interp_faultf(it, "unsupported helper %d", id);
	}
}
