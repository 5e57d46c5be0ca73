/* SPDX-License-Identifier: BSD-2-Clause */
/* The names of the injectable faults (fault.h), as the API and
 * BPFVET_FAULT spell them. */
#include <errno.h>
#include <string.h>

#include "state.h"

static const struct {
	const char *name;
	const char *about;
} faults[FAULT_CNT] = {
	[FAULT_NONE] = { "none", "no fault" },
	[FAULT_BOUNDS_ADD] = { "bounds-add", "scalar addition keeps the first operand's bounds" },
	[FAULT_BOUNDS_SUB] = { "bounds-sub", "scalar subtraction keeps the first operand's bounds" },
	[FAULT_BOUNDS_MUL] = { "bounds-mul", "scalar multiplication keeps the first operand's bounds" },
	[FAULT_BOUNDS_AND] = { "bounds-and", "scalar AND keeps the first operand's bounds" },
	[FAULT_BRANCH_JGT] = { "branch-jgt", "the taken branch of r > K learns r > K + 1" },
	[FAULT_BRANCH_JEQ] = { "branch-jeq", "r == K refines its two branches swapped" },
	[FAULT_REGSAFE_SCALAR] = { "regsafe-scalar", "equivalence: any scalar is within any old scalar" },
	[FAULT_STACKSAFE_SPILL] = { "stacksafe-spill", "equivalence: spilled scalars are not compared" },
	[FAULT_REGSAFE_PKT_RANGE] = { "regsafe-pkt-range",
				      "equivalence: a packet pointer's checked range is not compared" },
	[FAULT_LIVE_JMP] = { "live-jmp", "liveness: conditional jumps read no register" },
	[FAULT_PRECISE_NONE] = { "precise-none", "precision: no scalar is ever marked precise" },
	[FAULT_PRECISE_ALU] = { "precise-alu",
				"precision: backtracking an ALU operation skips its source register" },
	[FAULT_JOIN_HULL] = { "join-hull",
			      "joining (--explore=join): a site keeps its first path's scalar bounds" },
};

int fault_by_name(const char *name, enum vet_fault *fault)
{
	*fault = FAULT_NONE;
	if (!name || !name[0])
		return 0;
	for (int i = 0; i < FAULT_CNT; i++) {
		if (!strcmp(name, faults[i].name)) {
			*fault = (enum vet_fault)i;
			return 0;
		}
	}
	return -EINVAL;
}

const char *fault_name(enum vet_fault fault)
{
	return fault < FAULT_CNT ? faults[fault].name : NULL;
}

const char *fault_about(enum vet_fault fault)
{
	return fault < FAULT_CNT ? faults[fault].about : NULL;
}

const char *bpfvet_fault_name(size_t idx)
{
	return idx + 1 < FAULT_CNT ? faults[idx + 1].name : NULL;
}

const char *bpfvet_fault_about(size_t idx)
{
	return idx + 1 < FAULT_CNT ? faults[idx + 1].about : NULL;
}
