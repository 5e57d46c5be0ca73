/* SPDX-License-Identifier: BSD-2-Clause */
/* Maps shared by the explain_*.c programs (tests/cli/explain.sh): each
 * program is rejected for one reason, and the source line that causes it
 * carries a ROOT:name comment; CLASS:name:class names the class. */
#ifndef EXPLAIN_COMMON_H
#define EXPLAIN_COMMON_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 16);
	__type(key, __u32);
	__type(value, __u64);
} hmap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 4);
	__type(key, __u32);
	__type(value, __u64[8]);
} amap SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 4096);
} rb SEC(".maps");

#endif
