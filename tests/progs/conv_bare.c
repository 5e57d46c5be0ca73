// SPDX-License-Identifier: BSD-2-Clause
/* A legacy object as custom loaders load it (compiled without BTF, see the
 * Makefile): a samples/bpf-style map definition, a program in a section
 * without function symbols whose map reference is relocated all the same,
 * a static program (Falco's fillers are), and a section named the
 * samples/bpf way ("socketN"). libbpf refuses the object; the legacy
 * conventions load every program. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "legacy_maps.h"

struct legacy_map_def_ext SEC("maps") hits = {
	.type = BPF_MAP_TYPE_ARRAY,
	.key_size = 4,
	.value_size = 8,
	.max_entries = 1,
};

/* No .type directive, hence no FUNC symbol: the whole section is one
 * program. The lookup's map comes from the relocation against "hits". */
asm(".pushsection \"socket2\",\"ax\",@progbits\n"
    "\tr1 = 0\n"
    "\t*(u32 *)(r10 - 4) = r1\n"
    "\tr2 = r10\n"
    "\tr2 += -4\n"
    "\tr1 = hits ll\n"
    "\tcall 1\n"
    "\tif r0 == 0 goto +2\n"
    "\tr1 = *(u64 *)(r0 + 0)\n"
    "\t*(u64 *)(r0 + 0) = r1\n"
    "\tr0 = 0\n"
    "\texit\n"
    ".popsection\n");

/* Static, as Falco's tail-call fillers: libbpf refuses it. */
static __attribute__((used)) int SEC("socket1") count(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &key);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

/* Reads past the map value: rejected under every convention. */
SEC("socket3") int overrun(struct __sk_buff *skb)
{
	__u32 key = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &key);

	return v ? (int)v[1] : 0;
}

char _license[] SEC("license") = "GPL";
