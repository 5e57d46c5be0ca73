/* SPDX-License-Identifier: BSD-2-Clause */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "maps_fixture.h"

const char *const mapsfix_objects[] = {
	"maps_spin_lock", "maps_btf_refused", "maps_kptr", "maps_timer",
	"maps_compat", "maps_str", "maps_fields",
};
const size_t mapsfix_nobjects = sizeof(mapsfix_objects) / sizeof(mapsfix_objects[0]);

/* Splits `line` at tabs into at most `max` fields; returns the count. */
static int split_tabs(char *line, char **field, int max)
{
	int n = 0;

	field[n++] = line;
	for (char *p = line; *p && n < max; p++) {
		if (*p == '\t') {
			*p = '\0';
			field[n++] = p + 1;
		}
	}
	return n;
}

static int parse_row(char *line, struct mapsfix_row *r)
{
	char *f[7];

	if (split_tabs(line, f, 7) != 7)
		return -EINVAL;
	memset(r, 0, sizeof(*r));
	snprintf(r->object, sizeof(r->object), "%s", f[0]);
	snprintf(r->program, sizeof(r->program), "%s", f[1]);
	if (strcmp(f[2], "success") && strcmp(f[2], "failure"))
		return -EINVAL;
	r->success = !strcmp(f[2], "success");
	r->insns = strtoull(f[3], NULL, 10);
	r->states = strtoull(f[4], NULL, 10);
	r->peak = strtoull(f[5], NULL, 10);
	snprintf(r->message, sizeof(r->message), "%s", f[6]);
	return 0;
}

int mapsfix_read(const char *path, struct mapsfix_row **rows)
{
	FILE *f = fopen(path, "r");
	struct mapsfix_row *out = NULL;
	char line[512];
	size_t n = 0;

	*rows = NULL;
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		struct mapsfix_row *grown;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		grown = realloc(out, (n + 1) * sizeof(*out));
		if (!grown) {
			free(out);
			fclose(f);
			return -ENOMEM;
		}
		out = grown;
		if (parse_row(line, &out[n])) {
			free(out);
			fclose(f);
			return -EINVAL;
		}
		n++;
	}
	fclose(f);
	*rows = out;
	return (int)n;
}

const struct mapsfix_row *mapsfix_find(const struct mapsfix_row *rows, size_t n,
				       const char *object, const char *program)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(rows[i].object, object) && !strcmp(rows[i].program, program))
			return &rows[i];
	return NULL;
}

int mapsfix_write(const char *path, const struct mapsfix_row *rows, size_t n,
		  const char *release)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -errno;
	fprintf(f, "# What Linux %s says about the programs of tests/progs/maps_*.c, loaded\n"
		   "# one at a time with libbpf (written by test_maps_kernel, MAPS_FIXTURE_WRITE=1).\n"
		   "# object\tprogram\tverdict\tinsns\ttotal_states\tpeak_states\tlast message\n",
		release);
	for (size_t i = 0; i < n; i++)
		fprintf(f, "%s\t%s\t%s\t%llu\t%llu\t%llu\t%s\n", rows[i].object, rows[i].program,
			rows[i].success ? "success" : "failure",
			(unsigned long long)rows[i].insns, (unsigned long long)rows[i].states,
			(unsigned long long)rows[i].peak, rows[i].message);
	return fclose(f) ? -errno : 0;
}
