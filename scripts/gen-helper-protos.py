#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""
One-shot generator for src/rules/data/helper_protos.{h,c}: reads the `struct
bpf_func_proto` initialisers of a Linux source tree (6.12 is what we have)
and writes them as bpfvet `struct helper_proto` entries.

The output was then checked against the running 6.18 kernel by
tests/unit/test_helpers_kernel.c; 6.18 differences are applied by the
OVERRIDES table below, so re-running the script reproduces the checked-in
files.

usage: scripts/gen-helper-protos.py KSRC OUTDIR   (OUTDIR: src/rules/data)
       scripts/gen-helper-protos.py --files      (what it reads of KSRC)
"""
import os
import re
import sys

FILES = """kernel/bpf/helpers.c kernel/trace/bpf_trace.c net/core/filter.c
kernel/bpf/ringbuf.c kernel/bpf/stackmap.c kernel/bpf/bpf_lsm.c kernel/bpf/cgroup.c
kernel/bpf/bpf_inode_storage.c kernel/bpf/bpf_task_storage.c
kernel/bpf/bpf_cgrp_storage.c net/core/bpf_sk_storage.c net/core/sock_map.c
net/ipv4/bpf_tcp_ca.c kernel/bpf/bpf_iter.c kernel/bpf/task_iter.c
kernel/bpf/syscall.c kernel/bpf/btf.c drivers/media/rc/bpf-lirc.c
kernel/bpf/core.c""".split()

# Struct names behind the kernel's BTF id lists.
SOCK_IDS = {
    "INET": "inet_sock", "INET_CONN": "inet_connection_sock",
    "INET_REQ": "inet_request_sock", "INET_TW": "inet_timewait_sock",
    "REQ": "request_sock", "SOCK": "sock", "SOCK_COMMON": "sock_common",
    "TCP": "tcp_sock", "TCP_REQ": "tcp_request_sock",
    "TCP_TW": "tcp_timewait_sock", "TCP6": "tcp6_sock", "UDP": "udp_sock",
    "UDP6": "udp6_sock", "UNIX": "unix_sock", "MPTCP": "mptcp_sock",
    "SOCKET": "socket",
}
TRACING_IDS = {"TASK": "task_struct", "FILE": "file", "VMA": "vm_area_struct"}
# BTF_ID_LIST arrays of a single struct, by array name.
LIST_IDS = {
    "bpf_skb_output_btf_ids": "sk_buff",
    "bpf_xdp_output_btf_ids": "xdp_buff",
    "bpf_d_path_btf_ids": "path",
    "bpf_seq_file_btf_ids": "seq_file",
    "bpf_ima_inode_hash_btf_ids": "inode",
    "bpf_ima_file_hash_btf_ids": "file",
    "bpf_inode_storage_btf_ids": "inode",
    "bpf_bprm_opts_set_btf_ids": "linux_binprm",
    "bpf_sock_from_file_btf_ids": "socket",
    "bpf_sock_from_file_btf_ids[1]": "file",
    "bpf_xdp_get_buff_len_bpf_ids": "xdp_buff",
    "btf_seq_file_ids": "seq_file",
    "tcp_sock_id": "tcp_sock",
    "bpf_get_task_stack_btf_ids": "task_struct",
    "bpf_task_pt_regs_ids": "pt_regs",
    "bpf_cgroup_btf_id": "cgroup",
    "bpf_get_current_task_btf_ids": "task_struct",
}
# sizeof() of the fixed-size memory arguments (x86-64).
SIZES = {
    "sizeof(struct bpf_pidns_info)": 8,
    "sizeof(struct iphdr)": 20,
    "sizeof(struct ipv6hdr)": 40,
    "sizeof(struct tcphdr)": 20,
    "sizeof(u64)": 8,
    "sizeof(s64)": 8,
    "sizeof(u32)": 4,
    "sizeof(struct bpf_dynptr)": 16,
    "sizeof(struct bpf_tcp_req_attrs)": 0,
}

FLAG_NAMES = ["PTR_MAYBE_NULL", "MEM_RDONLY", "MEM_RINGBUF", "MEM_USER",
              "MEM_PERCPU", "OBJ_RELEASE", "PTR_UNTRUSTED", "MEM_UNINIT",
              "DYNPTR_TYPE_LOCAL", "DYNPTR_TYPE_RINGBUF", "MEM_FIXED_SIZE",
              "MEM_ALLOC", "PTR_TRUSTED", "MEM_RCU", "NON_OWN_REF",
              "DYNPTR_TYPE_SKB", "DYNPTR_TYPE_XDP", "MEM_ALIGNED", "MEM_WRITE"]

# Composite kernel names -> base | flags.
ALIASES = {
    "ARG_PTR_TO_MAP_VALUE_OR_NULL": "ARG_PTR_TO_MAP_VALUE | PTR_MAYBE_NULL",
    "ARG_PTR_TO_MEM_OR_NULL": "ARG_PTR_TO_MEM | PTR_MAYBE_NULL",
    "ARG_PTR_TO_CTX_OR_NULL": "ARG_PTR_TO_CTX | PTR_MAYBE_NULL",
    "ARG_PTR_TO_SOCKET_OR_NULL": "ARG_PTR_TO_SOCKET | PTR_MAYBE_NULL",
    "ARG_PTR_TO_STACK_OR_NULL": "ARG_PTR_TO_STACK | PTR_MAYBE_NULL",
    "ARG_PTR_TO_BTF_ID_OR_NULL": "ARG_PTR_TO_BTF_ID | PTR_MAYBE_NULL",
    "ARG_PTR_TO_UNINIT_MEM": "ARG_PTR_TO_MEM | MEM_UNINIT | MEM_WRITE",
    "ARG_PTR_TO_FIXED_SIZE_MEM": "ARG_PTR_TO_MEM | MEM_FIXED_SIZE",
    "ARG_SCALAR": "ARG_ANYTHING",
    "RET_PTR_TO_MAP_VALUE_OR_NULL": "RET_PTR_TO_MAP_VALUE | PTR_MAYBE_NULL",
    "RET_PTR_TO_SOCKET_OR_NULL": "RET_PTR_TO_SOCKET | PTR_MAYBE_NULL",
    "RET_PTR_TO_TCP_SOCK_OR_NULL": "RET_PTR_TO_TCP_SOCK | PTR_MAYBE_NULL",
    "RET_PTR_TO_SOCK_COMMON_OR_NULL": "RET_PTR_TO_SOCK_COMMON | PTR_MAYBE_NULL",
    "RET_PTR_TO_RINGBUF_MEM_OR_NULL": "RET_PTR_TO_MEM | PTR_MAYBE_NULL | MEM_RINGBUF",
    "RET_PTR_TO_DYNPTR_MEM_OR_NULL": "RET_PTR_TO_MEM | PTR_MAYBE_NULL",
    "RET_PTR_TO_BTF_ID_OR_NULL": "RET_PTR_TO_BTF_ID | PTR_MAYBE_NULL",
    "RET_PTR_TO_BTF_ID_TRUSTED": "RET_PTR_TO_BTF_ID | PTR_TRUSTED",
}

# Protos whose id cannot be read from a `case BPF_FUNC_x: return &p;`
# (they are handed out through a function or only by the verifier).
EXTRA_IDS = {
    "bpf_trace_printk_proto": "trace_printk",
    "bpf_trace_vprintk_proto": "trace_vprintk",
    "bpf_probe_write_user_proto": "probe_write_user",
    "bpf_get_raw_smp_processor_id_proto": "get_smp_processor_id",
    "bpf_get_retval_proto": "get_retval",
    "bpf_set_retval_proto": "set_retval",
}

# Verifier facts kept outside the prototypes (check_helper_call).
ACQUIRE = {"sk_lookup_tcp", "sk_lookup_udp", "skc_lookup_tcp",
           "ringbuf_reserve", "kptr_xchg"}
CHANGES_PKT_DATA = """clone_redirect l3_csum_replace l4_csum_replace lwt_push_encap
lwt_seg6_action lwt_seg6_adjust_srh lwt_seg6_store_bytes msg_pop_data
msg_pull_data msg_push_data skb_adjust_room skb_change_head skb_change_proto
skb_change_tail skb_pull_data skb_store_bytes skb_vlan_pop skb_vlan_push
store_hdr_opt xdp_adjust_head xdp_adjust_meta xdp_adjust_tail
tail_call""".split()
NEG_SIZE_RET = {"get_stack", "get_task_stack", "probe_read_str",
                "probe_read_kernel_str", "probe_read_user_str"}
CPU_RET = {"get_smp_processor_id"}

# 6.18 facts that differ from the source tree read (found by the live
# comparison in tests/unit/test_helpers_kernel.c). proto -> {field: value}
OVERRIDES = {
    # Linux 6.18 marks these buffers MEM_WRITE: after the call the kernel
    # treats the stack bytes as written (observed: test_tc_neigh_fib and
    # test_sysctl_* verify only so, with the kernel's figures).
    "bpf_skb_fib_lookup_proto": {"arg2_type": "ARG_PTR_TO_MEM | MEM_WRITE"},
    "bpf_xdp_fib_lookup_proto": {"arg2_type": "ARG_PTR_TO_MEM | MEM_WRITE"},
    "bpf_sysctl_get_name_proto": {"arg2_type": "ARG_PTR_TO_MEM | MEM_WRITE"},
}

# Prototypes 6.18 has and the source tree read does not (observed: the
# helper is offered, and the argument probes match these types).
EXTRA_PROTOS = {
    # skb flavour for socket filters, tc and cgroup_skb (new after 6.12)
    "bpf_get_netns_cookie_proto": ("get_netns_cookie", {
        "gpl_only": "false", "ret_type": "RET_INTEGER",
        "arg1_type": "ARG_PTR_TO_CTX_OR_NULL"}),
}


def norm_type(expr):
    parts = [p.strip() for p in expr.replace("(", " ").replace(")", " ").split("|")]
    out = []
    for p in parts:
        p = ALIASES.get(p, p)
        out.extend(q.strip() for q in p.split("|"))
    base = [p for p in out if not p in FLAG_NAMES]
    flags = [p for p in out if p in FLAG_NAMES]
    assert len(base) == 1, (expr, base)
    flags.sort(key=FLAG_NAMES.index)
    return " | ".join(base + flags)


def btf_name(expr):
    if expr == "BPF_PTR_POISON":
        return None     # kptr_xchg: the type comes from the map field
    m = re.match(r"&?btf_sock_ids\[BTF_SOCK_TYPE_(\w+)\]", expr)
    if m:
        return SOCK_IDS[m.group(1)]
    m = re.match(r"&?btf_tracing_ids\[BTF_TRACING_TYPE_(\w+)\]", expr)
    if m:
        return TRACING_IDS[m.group(1)]
    m = re.match(r"&?(\w+)(\[0\])?$", expr)
    if m and m.group(1) in LIST_IDS:
        return LIST_IDS[m.group(1)]
    if expr.lstrip("&") in LIST_IDS:
        return LIST_IDS[expr.lstrip("&")]
    raise SystemExit("unknown btf id expression: " + expr)


def parse_protos(src):
    pat = re.compile(r"^(?:static\s+)?(?:const\s+)?struct\s+bpf_func_proto\s+"
                     r"(\w+)(?:\s+__\w+)*\s*=\s*\{(.*?)^\};", re.S | re.M)
    for m in pat.finditer(src):
        fields = {}
        for fm in re.finditer(r"\.(\w+)\s*=\s*([^,]+?)\s*,\s*(?:/\*.*?\*/)?\s*$",
                              m.group(2), re.M):
            fields[fm.group(1)] = " ".join(fm.group(2).split())
        yield m.group(1), fields


def parse_cases(src, ids):
    """proto name -> set of helper ids returned for it."""
    out = {}
    # a run of case labels followed by the statement(s) up to `return ...;`
    pat = re.compile(r"((?:case\s+BPF_FUNC_\w+\s*:\s*)+)(.*?)"
                     r"(?=case\s+BPF_FUNC_|default\s*:|^}|#ifdef|#endif)",
                     re.S | re.M)
    for m in pat.finditer(src):
        labels = re.findall(r"BPF_FUNC_(\w+)", m.group(1))
        for name in re.findall(r"&(\w+)", m.group(2)):
            for l in labels:
                out.setdefault(name, set()).add(ids[l])
    return out


def main():
    if sys.argv[1:] == ["--files"]:
        # What to extract from linux-source-6.12 (scripts/build-corpus.sh).
        print(" ".join(["include/uapi/linux/bpf.h"] + FILES))
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ksrc, outdir = sys.argv[1], sys.argv[2]
    uapi = open(os.path.join(ksrc, "include/uapi/linux/bpf.h")).read()
    names = re.findall(r"FN\((\w+),\s*(\d+),\s*##ctx\)", uapi)
    ids = {n: int(i) for n, i in names}
    protos, cases = {}, {}
    for f in FILES:
        src = open(os.path.join(ksrc, f)).read()
        for name, fields in parse_protos(src):
            protos[name] = (f, fields)
        for k, v in parse_cases(src, ids).items():
            cases.setdefault(k, set()).update(v)
    for name, (fn, fields) in EXTRA_PROTOS.items():
        protos[name] = ("(6.18)", fields)
        cases.setdefault(name, set()).add(ids[fn])
    for k, v in EXTRA_IDS.items():
        cases.setdefault(k, set()).add(ids[v])
    rows = []
    for name, (f, fields) in sorted(protos.items()):
        if name not in cases:
            print("skip (no helper id): %s (%s)" % (name, f), file=sys.stderr)
            continue
        if len(cases[name]) != 1:
            raise SystemExit("%s used for ids %s" % (name, cases[name]))
        fields.update(OVERRIDES.get(name, {}))
        rows.append((next(iter(cases[name])), name, f, fields))
    rows.sort(key=lambda r: (r[0], r[1]))
    emit(outdir, rows, {i: n for n, i in ids.items()})


def short(name):
    s = re.sub(r"^bpf_", "", name)
    return re.sub(r"_proto(_[a-z0-9_]+)?$", lambda m: m.group(1) or "", s)


def emit(outdir, rows, names):
    h = []
    h.append("/* SPDX-License-Identifier: BSD-2-Clause */")
    h.append("/* Generated by scripts/gen-helper-protos.py; see there. */")
    h.append("#ifndef BPFVET_HELPER_PROTOS_H")
    h.append("#define BPFVET_HELPER_PROTOS_H")
    h.append("")
    h.append("#include \"rules/helpers.h\"")
    h.append("")
    h.append("/* Helper ids by their kernel name (BPF_FUNC_x == FN_x). */")
    h.append("enum helper_func_id {")
    for i in range(len(names)):
        h.append("\tFN_%s = %d," % (names[i], i))
    h.append("};")
    h.append("")
    h.append("/* One entry per prototype variant the kernel defines. */")
    h.append("enum helper_proto_idx {")
    for hid, name, f, fields in rows:
        h.append("\tHP_%s," % short(name))
    h.append("\tHP__COUNT,")
    h.append("};")
    h.append("")
    h.append("extern const struct helper_proto helper_protos[HP__COUNT];")
    h.append("/* Kernel names by id (bpf_map_lookup_elem, ...). */")
    h.append("extern const char *const helper_name_table[HELPER_ID_MAX];")
    h.append("/* Each id's generic prototype: the variant named like the helper, else")
    h.append(" * the first; HP__COUNT for an id without one. */")
    h.append("extern const uint16_t helper_generic_table[HELPER_ID_MAX];")
    h.append("")
    h.append("#endif")
    c = []
    c.append("/* SPDX-License-Identifier: BSD-2-Clause */")
    c.append("/*")
    c.append(" * Helper prototypes of Linux 6.18, one per variant (several program")
    c.append(" * types use their own variant of the same helper id). Generated by")
    c.append(" * scripts/gen-helper-protos.py and checked against the live kernel")
    c.append(" * by tests/unit/test_helpers_kernel.c.")
    c.append(" */")
    c.append("#include \"helper_protos.h\"")
    c.append("#include \"rules/helpers_internal.h\"")
    c.append("")
    c.append("const struct helper_proto helper_protos[HP__COUNT] = {")
    for hid, name, f, fields in rows:
        c.append("\t[HP_%s] = {" % short(name))
        c.append("\t\t.id = %d, .name = \"bpf_%s\", .variant = \"%s\"," %
                 (hid, names[hid], short(name)))
        flags = []
        for k, ok in (("acquire", names[hid] in ACQUIRE),
                      ("changes_pkt_data", names[hid] in CHANGES_PKT_DATA),
                      ("ret_may_be_negative_size", names[hid] in NEG_SIZE_RET),
                      ("ret_cpu_id", names[hid] in CPU_RET)):
            if ok:
                flags.append(".%s = true" % k)
        for k in ("gpl_only", "pkt_access", "might_sleep"):
            if fields.get(k) == "true":
                flags.append(".%s = true" % k)
        if flags:
            c.append("\t\t%s," % ", ".join(flags))
        c.append("\t\t.ret_type = %s," % norm_type(fields.get("ret_type", "RET_INTEGER")))
        if "ret_btf_id" in fields:
            c.append("\t\t.ret_btf = \"%s\"," % btf_name(fields["ret_btf_id"]))
        for i in range(1, 6):
            t = fields.get("arg%d_type" % i)
            if not t:
                continue
            c.append("\t\t.arg_type[%d] = %s," % (i - 1, norm_type(t)))
            if fields.get("arg%d_btf_id" % i, "BPF_PTR_POISON") != "BPF_PTR_POISON":
                c.append("\t\t.arg_btf[%d] = \"%s\"," %
                         (i - 1, btf_name(fields["arg%d_btf_id" % i])))
            if "arg%d_size" % i in fields:
                c.append("\t\t.arg_size[%d] = %d," %
                         (i - 1, SIZES[fields["arg%d_size" % i]]))
        if "allowed" in fields:
            c.append("\t\t.has_allowed_hook = true,")
        c.append("\t},")
    c.append("};")
    c.append("")
    c.append("const char *const helper_name_table[HELPER_ID_MAX] = {")
    for i in range(len(names)):
        c.append("\t\"bpf_%s\"," % names[i])
    c.append("};")
    c.append("")
    c.append("const uint16_t helper_generic_table[HELPER_ID_MAX] = {")
    for i in range(len(names)):
        mine = [short(name) for hid, name, f, fields in rows if hid == i]
        best = names[i] if names[i] in mine else (mine[0] if mine else None)
        c.append("\t[FN_%s] = %s," % (names[i], "HP_" + best if best else "HP__COUNT"))
    c.append("};")
    open(os.path.join(outdir, "helper_protos.h"), "w").write("\n".join(h) + "\n")
    open(os.path.join(outdir, "helper_protos.c"), "w").write("\n".join(c) + "\n")


if __name__ == "__main__":
    main()
