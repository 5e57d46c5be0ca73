/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * BPFVET_FAULT=NAME: one part of the verifier made unsound on purpose
 * (bpfvet_verify_opts.fault), for the tests of a checker. An environment
 * variable rather than an option, so that no user meets it in --help.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int fault_env_get(const char **fault)
{
	const char *v = getenv("BPFVET_FAULT");

	*fault = NULL;
	if (!v || !v[0] || !strcmp(v, "none"))
		return 0;
	for (size_t i = 0; bpfvet_fault_name(i); i++) {
		if (!strcmp(v, bpfvet_fault_name(i))) {
			*fault = v;
			fprintf(stderr, "bpfvet: BPFVET_FAULT=%s: %s (the verifier is unsound on purpose)\n",
				v, bpfvet_fault_about(i));
			return 0;
		}
	}
	fprintf(stderr, "bpfvet: BPFVET_FAULT=%s: no such fault; there are:\n", v);
	for (size_t i = 0; bpfvet_fault_name(i); i++)
		fprintf(stderr, "  %-18s %s\n", bpfvet_fault_name(i), bpfvet_fault_about(i));
	return -1;
}
