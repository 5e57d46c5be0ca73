// SPDX-License-Identifier: BSD-2-Clause
/*
 * Too complex: 192,000 loop iterations exceed the verifier's budget.
 *
 * A Bloom filter of packet payloads with 128 hash functions, each hashing
 * the first 1500 bytes. The program is 36 instructions, but the verifier
 * walks bounded loops iteration by iteration: the inner counter takes part
 * in a packet pointer's offset, so it is precise and no iteration's state
 * can prune the next. The 128 * 1500 iterations of about 8 instructions
 * each are over the budget of a million processed instructions, and the
 * verifier gives up:
 *
 *   BPF program is too large. Processed 1000001 insn
 *
 * Such a scan belongs in bpf_loop() (one callback verified once) or needs
 * far smaller bounds.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define HASHES 128
#define SCAN_LEN 1500
#define BLOOM_BITS 4096

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, BLOOM_BITS / 64);
	__type(key, __u32);
	__type(value, __u64);
} bloom SEC(".maps");

SEC("xdp")
int xdp_too_complex(struct xdp_md *ctx)
{
	__u8 *data = (void *)(long)ctx->data;
	void *end = (void *)(long)ctx->data_end;

	if ((void *)(data + SCAN_LEN) > end)
		return XDP_PASS;
	for (__u32 k = 0; k < HASHES; k++) {
		__u32 h = k, word;
		__u64 *bits;

		for (__u32 i = 0; i < SCAN_LEN; i++)
			h = h * 31 + data[i];
		word = (h % BLOOM_BITS) / 64;
		bits = bpf_map_lookup_elem(&bloom, &word);
		if (bits)
			__sync_fetch_and_or(bits, 1ULL << (h % 64));
	}
	return XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
