/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The target kernel's rules, as tables: helper prototypes (data/, generated
 * from the kernel's sources and checked against the kernel) and which
 * program types may call them (helpers.h, helpers_internal.h), and the
 * context of each program type: which offsets and sizes may be read or
 * written, and as what (ctx.h, ctx_rules.h, ctx_table.h); what changed
 * between kernel versions (kver.h). Queries take
 * plain values (program type, attach type, capabilities), not the
 * verifier's environment: state/ asks them for it. They use base/ only.
 */
#ifndef BPFVET_RULES_H
#define BPFVET_RULES_H

#include "ctx.h"
#include "ctx_rules.h"
#include "ctx_table.h"
#include "data/helper_protos.h"
#include "helpers.h"
#include "helpers_internal.h"
#include "kfunc_sets.h"
#include "kver.h"

#endif
