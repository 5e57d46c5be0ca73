/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpf_fib_lookup (helper 69, skb and XDP) in the interpreter's modelled
 * network: the one a fresh network namespace has, where TEST_RUN is run
 * by the recorders (tests/interp/model_env.c): only the loopback device,
 * ifindex 1, down, so without addresses, routes or neighbours, and with
 * forwarding enabled for IPv4 and IPv6. In that network no lookup can
 * find a route, and the helper's answer follows from its checks alone, in
 * the kernel's order (net/core/filter.c, checked case by case against the
 * live kernel: tests/fixtures/interp/fib.txt.gz):
 *
 *   plen below the struct, or an unknown flag        -EINVAL
 *   family other than AF_INET and AF_INET6            -EAFNOSUPPORT
 *   AF_INET6 with a multicast, link-local or loopback
 *     source or destination (never forwarded)         NOT_FWDED
 *   no device of that ifindex                         -ENODEV
 *   otherwise, no route                               NOT_FWDED
 *
 * The only field written is tbid, zeroed when DIRECT and TBID are both
 * set and the device exists. The MTU checks (tot_len, is_skb_forwardable)
 * come after a successful lookup, so they never apply here.
 */
#include <errno.h>
#include <string.h>

#include "interp_int.h"

#define FIB_PARAMS_SIZE 64
#define FIB_OFF_FAMILY 0
#define FIB_OFF_IFINDEX 8
#define FIB_OFF_SRC6 16
#define FIB_OFF_DST6 32
#define FIB_OFF_TBID 48

#define FIB_DIRECT (1u << 0)
#define FIB_TBID (1u << 3)
#define FIB_FLAGS_KNOWN 0x3fu		/* DIRECT OUTPUT SKIP_NEIGH TBID SRC MARK */
#define FIB_RET_NOT_FWDED 4		/* BPF_FIB_LKUP_RET_NOT_FWDED */

#define FAMILY_INET 2
#define FAMILY_INET6 10
#define LO_IFINDEX 1u

/* IPv6 addresses the kernel never forwards (rt6_need_strict): multicast
 * ff00::/8, link-local fe80::/10 and the loopback ::1. */
static bool strict_in6(const uint8_t *a)
{
	static const uint8_t loopback[16] = { [15] = 1 };

	if (a[0] == 0xff)
		return true;
	if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80)
		return true;
	return !memcmp(a, loopback, sizeof(loopback));
}

static bool set_r0(struct interp *it, int64_t v)
{
	struct interp_reg *r0 = &it->frames[it->depth].regs[0];

	r0->val = (uint64_t)v;
	r0->tag = interp_scalar_tag();
	return true;
}

/* The lookup past the device check: no route in the modelled network.
 * A table given by id is read, and its field zeroed, before the lookup. */
static int64_t lookup_no_route(struct interp *it, struct interp_reg p, uint8_t *params,
			       uint32_t flags)
{
	if ((flags & FIB_DIRECT) && (flags & FIB_TBID)) {
		memset(params + FIB_OFF_TBID, 0, 4);
		p.val += FIB_OFF_TBID;
		mem_clobber(it, p, 4);
	}
	return FIB_RET_NOT_FWDED;
}

bool helper_fib_lookup(struct interp *it)
{
	struct interp_reg *regs = it->frames[it->depth].regs;
	int32_t plen = (int32_t)regs[3].val;
	uint32_t flags = (uint32_t)regs[4].val, ifindex;
	uint8_t *params;

	if (regs[1].tag.kind != IK_CTX)
		return interp_faultf(it, "R1 is not the context");
	params = mem_span(it, regs[2], plen > 0 ? (uint64_t)plen : 0, true);
	if (!params)
		return false;
	if (plen < FIB_PARAMS_SIZE || (flags & ~FIB_FLAGS_KNOWN))
		return set_r0(it, -EINVAL);
	memcpy(&ifindex, params + FIB_OFF_IFINDEX, 4);
	switch (params[FIB_OFF_FAMILY]) {
	case FAMILY_INET:
		if (ifindex != LO_IFINDEX)
			return set_r0(it, -ENODEV);
		break;
	case FAMILY_INET6:
		if (strict_in6(params + FIB_OFF_DST6) || strict_in6(params + FIB_OFF_SRC6))
			return set_r0(it, FIB_RET_NOT_FWDED);
		if (ifindex != LO_IFINDEX)
			return set_r0(it, -ENODEV);
		break;
	default:
		return set_r0(it, -EAFNOSUPPORT);
	}
	return set_r0(it, lookup_no_route(it, regs[2], params, flags));
}
