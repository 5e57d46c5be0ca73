/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The base's contract: what every layer may use, depending on nothing of
 * bpfvet's own (only libc and libbpf's BTF API):
 *  - the register type flags (type_flags.h);
 *  - one-line error messages of fallible calls (errbuf.h);
 *  - reading opts structs sized by their first field (opts.h);
 *  - reading BTF: a name index (btf_index.h) and walking types, sizes and
 *    members as the kernel does (btf_kern.h).
 * Apart from this header, base/uapi.h is public too: the BPF ABI of Linux
 * 6.18, which Debian's <linux/bpf.h> (6.1) lacks. It replaces that header,
 * so the few files that include libbpf's <bpf/bpf.h> or <bpf/libbpf.h>
 * (which pull in <linux/bpf.h>) cannot have it, and base.h leaves it out.
 */
#ifndef BPFVET_BASE_H
#define BPFVET_BASE_H

#include "btf_index.h"
#include "btf_kern.h"
#include "errbuf.h"
#include "opts.h"
#include "type_flags.h"

#endif
