/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Test support for the map rules: the test objects built from
 * tests/progs/maps_*.c and the fixture tests/fixtures/maps/expect.tsv
 * that records what Linux 6.18 says about each of their programs.
 *
 * Fixture format: '#' starts a comment line; every other line is
 *   OBJECT <TAB> PROGRAM <TAB> VERDICT <TAB> INSNS <TAB> STATES <TAB> PEAK <TAB> MESSAGE
 * with VERDICT "success" or "failure" and MESSAGE the last line the
 * verifier printed before its statistics (empty on success).
 */
#ifndef BPFVET_TEST_MAPS_FIXTURE_H
#define BPFVET_TEST_MAPS_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MAPSFIX_PATH "tests/fixtures/maps/expect.tsv"

/* Objects (tests/progs/NAME.c) whose every program the fixture covers. */
extern const char *const mapsfix_objects[];
extern const size_t mapsfix_nobjects;

struct mapsfix_row {
	char object[64];
	char program[64];
	bool success;
	uint64_t insns;
	uint64_t states;
	uint64_t peak;
	char message[256];
};

/* Reads the fixture; *rows is malloc'ed. Returns the row count or a
 * negative errno. */
int mapsfix_read(const char *path, struct mapsfix_row **rows);
const struct mapsfix_row *mapsfix_find(const struct mapsfix_row *rows, size_t n,
				       const char *object, const char *program);
/* `release`: the kernel's (uname -r), for the header. */
int mapsfix_write(const char *path, const struct mapsfix_row *rows, size_t n,
		  const char *release);

#endif
