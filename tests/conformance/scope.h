/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The subsets of the conformance tests on which two issues state their
 * acceptance, decided from each program's instructions and type:
 *  - SCOPE_PLAIN (issue 5): no helper call other than bpf_map_lookup_elem,
 *    no kfunc, no subprogram (no bpf-to-bpf call, no callback reference);
 *  - SCOPE_NO_BTF_OBJ (issue 6): nothing that needs BTF-typed kernel
 *    objects: no kfunc call, no typed ksym (ld_imm64 BTF_ID), no arena map,
 *    no helper that takes or returns a BTF-typed pointer or a dynptr, and
 *    a program type whose context is not BTF-typed (not tracing, LSM,
 *    struct_ops, freplace or netfilter).
 * docs/conformance.md explains the rule next to the figures.
 */
#ifndef CONF_SCOPE_H
#define CONF_SCOPE_H

#include "bpfvet.h"

#define SCOPE_PLAIN	 1u
#define SCOPE_NO_BTF_OBJ 2u
#define SCOPE_CNT	 2

/* The SCOPE_* bits of one program. */
unsigned int scope_classify(const struct bpfvet_object *obj, const struct bpfvet_program *prog);

#endif
