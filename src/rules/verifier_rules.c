/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The names of the verifier rules (BPFVET_RULE_*), by which builds of one
 * kernel release differ: the command line, target profiles and the
 * running kernel's probe (kernel/kernel_rules.c) speak of them by these
 * names. docs/verifier-rules.md describes each with its evidence.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bpfvet.h"
#include "kver.h"

static const struct {
	uint32_t bit;
	const char *name;
} rule_names[] = {
	{ KRULE_CALLBACK_SCC, "callback-scc" },
	{ KRULE_LOOP_SLOT_TYPES, "loop-slot-types" },
};

_Static_assert(KRULE_CALLBACK_SCC == BPFVET_RULE_CALLBACK_SCC &&
	       KRULE_LOOP_SLOT_TYPES == BPFVET_RULE_LOOP_SLOT_TYPES,
	       "the verifier's rule bits are the API's");

#define RULE_CNT (sizeof(rule_names) / sizeof(rule_names[0]))

const char *bpfvet_verifier_rule_name(uint32_t rule)
{
	for (size_t i = 0; i < RULE_CNT; i++)
		if (rule_names[i].bit == rule)
			return rule_names[i].name;
	return NULL;
}

/* The bit of the name in s[0..len), 0 when none has it. */
static uint32_t rule_by_name(const char *s, size_t len)
{
	for (size_t i = 0; i < RULE_CNT; i++)
		if (strlen(rule_names[i].name) == len && !strncmp(rule_names[i].name, s, len))
			return rule_names[i].bit;
	return 0;
}

int bpfvet_verifier_rules_parse(const char *list, uint32_t *rules)
{
	uint32_t bits = 0;

	if (!list || !list[0])
		return -EINVAL;
	if (!strcmp(list, "none")) {
		*rules = 0;
		return 0;
	}
	for (const char *s = list;; s++) {
		size_t len = strcspn(s, ",");
		uint32_t bit = rule_by_name(s, len);

		if (!bit)
			return -EINVAL;
		bits |= bit;
		s += len;
		if (!*s)
			break;
	}
	*rules = bits;
	return 0;
}

int bpfvet_verifier_rules_format(uint32_t rules, char *buf, size_t sz)
{
	size_t n = 0;
	int w;

	if (sz)
		buf[0] = '\0';
	if (!rules)
		return snprintf(buf, sz, "none");
	for (size_t i = 0; i < RULE_CNT; i++) {
		if (!(rules & rule_names[i].bit))
			continue;
		w = snprintf(n < sz ? buf + n : NULL, n < sz ? sz - n : 0, "%s%s", n ? "," : "",
			     rule_names[i].name);
		if (w < 0)
			return w;
		n += (size_t)w;
	}
	return (int)n;
}
