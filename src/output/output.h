/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Output's contract: the verifier log buffer with the kernel's rotation
 * and level rules (log.h), and the disassembly of instructions in the
 * kernel's log format (disasm.h). It uses base/, loader/ (program
 * externs, CO-RE names) and rules/ (helper names); state printing, which
 * needs the verifier's state, is state/print.c.
 */
#ifndef BPFVET_OUTPUT_H
#define BPFVET_OUTPUT_H

#include "disasm.h"
#include "log.h"

#endif
