/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The abstract domain's contract: tristate numbers (tnum.h) and scalar
 * bounds (scalar.h), the kernel's number domain as values with
 * operations: ALU results, branch refinement, printing. Pure functions of
 * their arguments; they use base/ only, and nothing of the verifier.
 * scalar_impl.h is internal.
 */
#ifndef BPFVET_DOMAIN_H
#define BPFVET_DOMAIN_H

#include "scalar.h"
#include "tnum.h"

#endif
