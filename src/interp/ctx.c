/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The contexts BPF_PROG_TEST_RUN builds (net/bpf/test_run.c of 6.12) and
 * the fields programs read through them:
 *  - socket filters and tc get an skb on the loopback device. The frame
 *    goes 64 bytes (NET_SKB_PAD, x86) into its buffer; eth_type_trans
 *    takes the Ethernet header off, which tc puts back: a socket filter's
 *    data starts at the network header, tc's at the link header. On the
 *    way out, a socket filter's 14 header bytes come back zeroed.
 *  - XDP gets a 4096-byte frame with 256 bytes of headroom; metadata, as
 *    xdp_md.data in ctx_in asks, is taken from the front of data_in.
 * The context is kept in its uapi layout; the packet pointers it holds
 * are made when a program loads them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"
#include "base/uapi.h"

#define ETH_HLEN 14
#define SKB_HEADROOM 64		/* NET_SKB_PAD + NET_IP_ALIGN on x86 */
#define SHINFO_SIZE 320		/* SKB_DATA_ALIGN(sizeof(struct skb_shared_info)) */
#define PAGE_SZ 4096
#define XDP_HEADROOM 256
#define XDP_FRAME_SIZE 40	/* sizeof(struct xdp_frame) */

/* struct __sk_buff offsets. */
enum {
	SKB_LEN = 0, SKB_PKT_TYPE = 4, SKB_MARK = 8, SKB_QUEUE_MAPPING = 12,
	SKB_PROTOCOL = 16, SKB_PRIORITY = 32, SKB_INGRESS_IFINDEX = 36,
	SKB_IFINDEX = 40, SKB_TC_INDEX = 44, SKB_CB = 48, SKB_CB_END = 68,
	SKB_TC_CLASSID = 72, SKB_DATA = 76, SKB_DATA_END = 80,
	SKB_DATA_META = 140, SKB_TSTAMP = 152, SKB_WIRE_LEN = 160,
	SKB_GSO_SEGS = 164, SKB_SK = 168, SKB_GSO_SIZE = 176, SKB_HWTSTAMP = 184,
};

/* struct xdp_md offsets. */
enum {
	XDP_DATA = 0, XDP_DATA_END = 4, XDP_DATA_META = 8,
	XDP_INGRESS_IFINDEX = 12, XDP_RX_QUEUE_INDEX = 16, XDP_EGRESS_IFINDEX = 20,
};

static uint32_t get32(const uint8_t *b, int off)
{
	uint32_t v;

	memcpy(&v, b + off, 4);
	return v;
}

static void put32(uint8_t *b, int off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static int fail(char *eb, size_t eb_sz, int err, const char *why)
{
	if (eb && eb_sz)
		snprintf(eb, eb_sz, "%s", why);
	return err;
}

static bool all_zero(const uint8_t *b, int from, int to)
{
	for (int i = from; i < to; i++)
		if (b[i])
			return false;
	return true;
}

/* ctx_in: at most `max` bytes, the rest must be zero (E2BIG otherwise). */
static int read_ctx_in(struct interp *it, const struct interp_input *in, uint32_t max,
		       char *eb, size_t eb_sz)
{
	const uint8_t *c = in->ctx;

	it->ctx_size = max;
	if (!in->ctx)
		return 0;
	for (uint32_t i = max; i < in->ctx_size; i++)
		if (c[i])
			return fail(eb, eb_sz, -E2BIG, "ctx_in has bytes past the context");
	memcpy(it->ctx_in, c, in->ctx_size < max ? in->ctx_size : max);
	it->ctx_given = true;
	return 0;
}

/* The __sk_buff fields TEST_RUN takes from ctx_in; anything else must be
 * zero (convert___skb_to_skb). */
static int skb_ctx_allowed(const uint8_t *c)
{
	static const int ranges[][2] = {
		{ 0, SKB_MARK }, { SKB_MARK + 4, SKB_PRIORITY },
		{ SKB_IFINDEX + 4, SKB_CB }, { SKB_CB_END, SKB_TSTAMP },
		{ SKB_GSO_SEGS + 4, SKB_GSO_SIZE }, { SKB_GSO_SIZE + 4, SKB_HWTSTAMP },
	};

	for (size_t i = 0; i < sizeof(ranges) / sizeof(ranges[0]); i++)
		if (!all_zero(c, ranges[i][0], ranges[i][1]))
			return -EINVAL;
	return 0;
}

/* eth_type_trans on the loopback device (address and broadcast address
 * all zero): the packet type and protocol. */
static void eth_type(const uint8_t *eth, uint32_t len, uint32_t *pkt_type, uint16_t *proto)
{
	static const uint8_t zero[6];
	uint16_t h_proto;

	if (memcmp(eth, zero, 6) == 0)
		*pkt_type = 0;			/* PACKET_HOST */
	else if (eth[0] & 1)
		*pkt_type = 2;			/* PACKET_MULTICAST */
	else
		*pkt_type = 3;			/* PACKET_OTHERHOST */
	memcpy(&h_proto, eth + 12, 2);	/* network order, as the field holds it */
	if (__builtin_bswap16(h_proto) >= 0x600)
		*proto = h_proto;
	else if (len >= ETH_HLEN + 2 && eth[14] == 0xff && eth[15] == 0xff)
		*proto = __builtin_bswap16(0x0001);	/* ETH_P_802_3 */
	else
		*proto = __builtin_bswap16(0x0004);	/* ETH_P_802_2 */
}

static int build_skb(struct interp *it, const struct interp_input *in, char *eb, size_t eb_sz)
{
	uint32_t size = in->data_size, pkt_type, wire, ifindex, skb_len;
	uint16_t proto;
	uint8_t *c = it->ctx;
	int err;

	if (size < ETH_HLEN)
		return fail(eb, eb_sz, -EINVAL, "data_in shorter than an Ethernet header");
	if (size > PAGE_SZ - SKB_HEADROOM - SHINFO_SIZE)
		return fail(eb, eb_sz, -EINVAL, "data_in larger than a page allows");
	err = read_ctx_in(it, in, CTX_SKB_SIZE, eb, eb_sz);
	if (err)
		return err;
	if (skb_ctx_allowed(it->ctx_in))
		return fail(eb, eb_sz, -EINVAL, "ctx_in sets a field TEST_RUN does not take");
	it->pkt_cap = SKB_HEADROOM + size + SHINFO_SIZE;
	it->pkt = calloc(1, it->pkt_cap);
	if (!it->pkt)
		return -ENOMEM;
	memcpy(it->pkt + SKB_HEADROOM, in->data, size);
	it->mac = SKB_HEADROOM;
	it->net = SKB_HEADROOM + ETH_HLEN;
	it->data = it->kind == INTERP_SKB_TC ? it->mac : it->net;
	it->meta = it->data;
	it->data_end = SKB_HEADROOM + size;
	eth_type(it->pkt + it->mac, size, &pkt_type, &proto);
	if (proto == __builtin_bswap16(0x0800) && size - ETH_HLEN < 20)
		return fail(eb, eb_sz, -EINVAL, "IPv4 packet shorter than its header");
	if (proto == __builtin_bswap16(0x86dd) && size - ETH_HLEN < 40)
		return fail(eb, eb_sz, -EINVAL, "IPv6 packet shorter than its header");
	skb_len = it->data_end - it->data;
	wire = get32(it->ctx_in, SKB_WIRE_LEN);
	if (wire && (wire < skb_len || wire > 65536))
		return fail(eb, eb_sz, -EINVAL, "ctx_in wire_len out of range");
	if (get32(it->ctx_in, SKB_GSO_SEGS) > 65535)
		return fail(eb, eb_sz, -EINVAL, "ctx_in gso_segs out of range");
	ifindex = get32(it->ctx_in, SKB_IFINDEX);
	memcpy(c, it->ctx_in, CTX_SKB_SIZE);
	put32(c, SKB_PKT_TYPE, pkt_type);
	put32(c, SKB_PROTOCOL, proto);
	put32(c, SKB_IFINDEX, ifindex > 1 ? ifindex : 1);	/* lo */
	/* convert___skb_to_skb sets the qdisc cb's pkt_len only when a
	 * ctx_in is given: without one, wire_len reads 0. */
	put32(c, SKB_WIRE_LEN, !it->ctx_given ? 0 : wire ? wire : skb_len);
	return 0;
}

static int xdp_ctx_check(struct interp *it, const struct interp_input *in, uint32_t *meta_sz,
			 uint32_t *linear, char *eb, size_t eb_sz)
{
	const uint8_t *c = it->ctx_in;
	uint32_t data = get32(c, XDP_DATA), end = get32(c, XDP_DATA_END);

	if (get32(c, XDP_DATA_META) || end > in->data_size || data > end)
		return fail(eb, eb_sz, -EINVAL, "xdp_md data, data_end or data_meta invalid");
	if ((data & 3) || data > 32 || data > XDP_HEADROOM - XDP_FRAME_SIZE)
		return fail(eb, eb_sz, -EINVAL, "xdp_md metadata size invalid");
	if (get32(c, XDP_EGRESS_IFINDEX))
		return fail(eb, eb_sz, -EINVAL, "xdp_md egress_ifindex set");
	if (!get32(c, XDP_INGRESS_IFINDEX) && get32(c, XDP_RX_QUEUE_INDEX))
		return fail(eb, eb_sz, -EINVAL, "rx_queue_index without ingress_ifindex");
	if (get32(c, XDP_INGRESS_IFINDEX) == 1 && get32(c, XDP_RX_QUEUE_INDEX))
		return fail(eb, eb_sz, -EINVAL, "lo has one rx queue");
	*meta_sz = data;
	*linear = end;
	return 0;
}

static int build_xdp(struct interp *it, const struct interp_input *in, char *eb, size_t eb_sz)
{
	uint32_t meta_sz = 0, linear = in->data_size, headroom, max_linear;
	int err;

	err = read_ctx_in(it, in, CTX_XDP_SIZE, eb, eb_sz);
	if (err)
		return err;
	if (it->ctx_given) {
		err = xdp_ctx_check(it, in, &meta_sz, &linear, eb, eb_sz);
		if (err)
			return err;
	}
	headroom = XDP_HEADROOM - meta_sz;
	max_linear = PAGE_SZ - headroom - SHINFO_SIZE;
	if (linear > max_linear)
		linear = max_linear;
	if (in->data_size - meta_sz < ETH_HLEN)
		return fail(eb, eb_sz, -EINVAL, "data_in shorter than an Ethernet header");
	if (in->data_size > linear)
		return fail(eb, eb_sz, -EOPNOTSUPP, "multi-buffer XDP frames are not modelled");
	it->pkt_cap = PAGE_SZ;
	it->pkt = calloc(1, it->pkt_cap);
	if (!it->pkt)
		return -ENOMEM;
	memcpy(it->pkt + headroom, in->data, linear);
	it->meta = headroom;
	it->data = headroom + meta_sz;
	it->data_end = headroom + linear;
	memcpy(it->ctx, it->ctx_in, CTX_XDP_SIZE);
	if (!get32(it->ctx, XDP_INGRESS_IFINDEX))
		put32(it->ctx, XDP_INGRESS_IFINDEX, 1);	/* lo's rx queue 0 */
	return 0;
}

int ctx_build(struct interp *it, const struct interp_input *in, char *eb, size_t eb_sz)
{
	if (!in->data && in->data_size)
		return fail(eb, eb_sz, -EINVAL, "data_size without data");
	if (!in->ctx && in->ctx_size)
		return fail(eb, eb_sz, -EINVAL, "ctx_size without ctx");
	return it->kind == INTERP_XDP ? build_xdp(it, in, eb, eb_sz)
				      : build_skb(it, in, eb, eb_sz);
}

uint32_t ctx_skb_len(const struct interp *it)
{
	return it->data_end - it->data;
}

static bool pkt_ptr(struct interp *it, enum interp_kind kind, uint32_t at, int size,
		    struct interp_reg *dst)
{
	struct interp_tag t = { (uint8_t)kind, 0, 0, 0 };

	if (size != 4)
		return interp_faultf(it, "narrow load of a packet pointer");
	*dst = interp_ptr(it, t, at);
	return true;
}

/* The size of the skb field behind a u32 __sk_buff field: the kernel's
 * conversion loads that much. A read at least that wide gets the whole
 * field whatever its offset inside the u32 (no shift, no mask: the
 * verifier narrows only reads smaller than the field behind). */
static int skb_target_size(int field)
{
	switch (field) {
	case SKB_PKT_TYPE:
		return 1;
	case SKB_QUEUE_MAPPING: case SKB_PROTOCOL: case 24 /* vlan_tci */:
	case 28 /* vlan_proto */: case SKB_TC_INDEX: case SKB_TC_CLASSID:
	case SKB_GSO_SEGS: case SKB_GSO_SIZE:
		return 2;
	default:
		return 4;
	}
}

static bool skb_load(struct interp *it, int off, int size, struct interp_reg *dst)
{
	int field = off & ~3;

	if (off == SKB_DATA)
		return pkt_ptr(it, IK_PKT, it->data, size, dst);
	if (off == SKB_DATA_END)
		return pkt_ptr(it, IK_PKT_END, it->data_end, size, dst);
	if (off == SKB_DATA_META)
		return pkt_ptr(it, IK_PKT_META, it->meta, size, dst);
	if (off >= SKB_SK && off < SKB_SK + 8)
		return interp_faultf(it, "__sk_buff->sk is not modelled");
	put32(it->ctx, SKB_LEN, ctx_skb_len(it));
	dst->val = 0;
	if (size < 4 && (off < SKB_CB || off >= SKB_CB_END) && field != SKB_TSTAMP &&
	    field != SKB_TSTAMP + 4 && field < SKB_HWTSTAMP &&
	    size >= skb_target_size(field)) {
		dst->val = get32(it->ctx, field);
		return true;
	}
	memcpy(&dst->val, it->ctx + off, (size_t)size);
	return true;
}

static bool xdp_load(struct interp *it, int off, int size, struct interp_reg *dst)
{
	if (off == XDP_DATA)
		return pkt_ptr(it, IK_PKT, it->data, size, dst);
	if (off == XDP_DATA_END)
		return pkt_ptr(it, IK_PKT_END, it->data_end, size, dst);
	if (off == XDP_DATA_META)
		return pkt_ptr(it, IK_PKT_META, it->meta, size, dst);
	if (off >= XDP_EGRESS_IFINDEX)
		return interp_faultf(it, "xdp_md->egress_ifindex (no device in TEST_RUN) "
				     "is not modelled");
	dst->val = 0;
	memcpy(&dst->val, it->ctx + off, (size_t)size);
	return true;
}

bool ctx_load(struct interp *it, int64_t off, int size, struct interp_reg *dst)
{
	dst->tag = interp_scalar_tag();
	if (off < 0 || off + size > it->ctx_size)
		return interp_faultf(it, "context read of %d bytes at %lld", size, (long long)off);
	return it->kind == INTERP_XDP ? xdp_load(it, (int)off, size, dst)
				      : skb_load(it, (int)off, size, dst);
}

bool ctx_store(struct interp *it, int64_t off, int size, uint64_t v)
{
	if (it->kind == INTERP_XDP || off < 0 || off + size > it->ctx_size)
		return interp_faultf(it, "context write of %d bytes at %lld", size, (long long)off);
	if (off >= SKB_CB && off + size <= SKB_CB_END) {
		memcpy(it->ctx + off, &v, (size_t)size);
		return true;
	}
	switch (off) {
	case SKB_MARK:
	case SKB_PRIORITY:
		put32(it->ctx, (int)off, (uint32_t)v);
		return true;
	case SKB_TC_INDEX:
	case SKB_TC_CLASSID:
		put32(it->ctx, (int)off, (uint16_t)v);	/* u16 in the skb */
		return true;
	case SKB_QUEUE_MAPPING:
		if ((uint32_t)v < 0xffff)	/* NO_QUEUE_MAPPING is never stored */
			put32(it->ctx, (int)off, (uint16_t)v);
		return true;
	case SKB_TSTAMP:
		if (size == 8) {
			memcpy(it->ctx + off, &v, 8);
			return true;
		}
		break;
	}
	return interp_faultf(it, "context write of %d bytes at %lld is not modelled", size,
			     (long long)off);
}

static void skb_output(const struct interp *it, struct interp_output *out)
{
	static const int back[] = { SKB_MARK, SKB_PRIORITY, SKB_INGRESS_IFINDEX, SKB_IFINDEX,
				    SKB_TSTAMP, SKB_TSTAMP + 4, SKB_WIRE_LEN, SKB_GSO_SEGS,
				    SKB_HWTSTAMP, SKB_HWTSTAMP + 4 };
	uint32_t len = it->data_end - it->data;
	uint32_t hdr = it->kind == INTERP_SKB_FILTER ? ETH_HLEN : 0;

	out->data_size = len + hdr;
	out->data = calloc(1, out->data_size ? out->data_size : 1);
	if (out->data)
		memcpy(out->data + hdr, it->pkt + it->data, len);
	if (!it->ctx_given)
		return;
	/* convert_skb_to___skb: ctx_in with these fields as the skb has them. */
	out->ctx_size = CTX_SKB_SIZE;
	memcpy(out->ctx, it->ctx_in, CTX_SKB_SIZE);
	for (size_t i = 0; i < sizeof(back) / sizeof(back[0]); i++)
		put32(out->ctx, back[i], get32(it->ctx, back[i]));
	memcpy(out->ctx + SKB_CB, it->ctx + SKB_CB, SKB_CB_END - SKB_CB);
}

static void xdp_output(const struct interp *it, struct interp_output *out)
{
	out->data_size = it->data_end - it->meta;
	out->data = calloc(1, out->data_size ? out->data_size : 1);
	if (out->data)
		memcpy(out->data, it->pkt + it->meta, out->data_size);
	if (!it->ctx_given)
		return;
	out->ctx_size = CTX_XDP_SIZE;
	memcpy(out->ctx, it->ctx_in, CTX_XDP_SIZE);
	put32(out->ctx, XDP_DATA, it->data - it->meta);
	put32(out->ctx, XDP_DATA_END, it->data_end - it->meta);
}

void ctx_output(const struct interp *it, struct interp_output *out)
{
	if (it->kind == INTERP_XDP)
		xdp_output(it, out);
	else
		skb_output(it, out);
}

/* LD_ABS / LD_IND: big-endian loads at an offset from skb->data, or, for
 * the negative SKF_NET_OFF / SKF_LL_OFF bases, from the network or link
 * header anywhere in the buffer up to the tail. */
bool ctx_ld_abs(struct interp *it, int64_t off, int size, uint64_t *val)
{
	const int64_t net_off = -0x100000, ll_off = -0x200000;
	int64_t at;
	uint64_t v = 0;

	if (off >= 0)
		at = it->data + off;
	else if (off >= net_off)
		at = (int64_t)it->net + off - net_off;
	else if (off >= ll_off)
		at = (int64_t)it->mac + off - ll_off;
	else
		return false;
	if (at < (off >= 0 ? (int64_t)it->data : 0) || at + size > (int64_t)it->data_end)
		return false;
	for (int i = 0; i < size; i++)
		v = v << 8 | it->pkt[at + i];
	*val = v;
	return true;
}
