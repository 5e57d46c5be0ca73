#!/usr/bin/env python3
"""Writes a BPF C file with one tp_btf program per argument of every
tracepoint in a kernel BTF: each program reads that argument's context
slot and exits. `bpfvet kernel --log-diff` on the compiled object then
compares, for every argument, the register type bpfvet gives with the
kernel's (trusted, maybe-NULL, untrusted, scalar, or the refusal).

Usage: scripts/tp-btf-args.py VMLINUX_BTF OUT.c
(reads the BTF with `bpftool btf dump file VMLINUX_BTF -j`)
"""
import json
import subprocess
import sys

MAX_ARGS = 12  # MAX_BPF_FUNC_ARGS: slots beyond are refused by the generic rule


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    raw = subprocess.run(['bpftool', 'btf', 'dump', 'file', sys.argv[1], '-j'],
                         check=True, capture_output=True, text=True).stdout
    types = {t['id']: t for t in json.loads(raw)['types']}
    out = ['#include <linux/bpf.h>', '#include <bpf/bpf_helpers.h>', '']
    n = 0
    for t in types.values():
        if t['kind'] != 'TYPEDEF' or not t['name'].startswith('btf_trace_'):
            continue
        ptr = types.get(t['type_id'])
        proto = types.get(ptr['type_id']) if ptr and ptr['kind'] == 'PTR' else None
        if not proto or proto['kind'] != 'FUNC_PROTO':
            continue
        # The first parameter is the tracepoint's private data, hidden.
        for k in range(min(len(proto['params']) - 1, MAX_ARGS)):
            out.append('SEC("tp_btf/%s")\n__attribute__((naked)) int arg%d(void)\n{\n'
                       '\tasm volatile("r2 = *(u64 *)(r1 + %d); r0 = 0; exit;" ::: "memory");\n}\n'
                       % (t['name'][len('btf_trace_'):], n, 8 * k))
            n += 1
    out.append('char LICENSE[] SEC("license") = "GPL";')
    with open(sys.argv[2], 'w') as f:
        f.write('\n'.join(out) + '\n')
    print(n)


if __name__ == '__main__':
    main()
