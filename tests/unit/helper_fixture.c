/* SPDX-License-Identifier: BSD-2-Clause */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helper_fixture.h"

const char *const hfx_probe_names[HFX_PROBES] = {
	"one", "zero", "neg", "unknown",
};

void hfx_query(const struct hfx_config *c, struct helper_query *q)
{
	memset(q, 0, sizeof(*q));
	q->prog_type = c->prog_type;
	q->expected_attach_type = c->attach;
	q->sleepable = c->flags & 16;
	/* Every configuration is loaded with CAP_BPF. */
	q->bpf_capable = true;
	q->perfmon = c->perfmon;
	if (c->prog_type == 27) {
		q->struct_ops_name = "tcp_congestion_ops";
		q->struct_ops_moff = c->moff;
	}
}

void hfx_format_ids(const bool *set, char *buf, size_t sz)
{
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < HFX_IDS; i++) {
		int j = i;

		if (!set[i])
			continue;
		while (j + 1 < HFX_IDS && set[j + 1])
			j++;
		if (j == i)
			len += snprintf(buf + len, sz - len, "%s%d",
					len ? "," : "", i);
		else
			len += snprintf(buf + len, sz - len, "%s%d-%d",
					len ? "," : "", i, j);
		if (len >= sz)
			return;
		i = j;
	}
}

int hfx_parse_ids(const char *s, bool *set)
{
	memset(set, 0, HFX_IDS * sizeof(*set));
	while (*s == ' ')
		s++;
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -1;
		if (*end == '-') {
			s = end + 1;
			b = strtol(s, &end, 10);
			if (end == s)
				return -1;
		}
		if (a < 0 || b >= HFX_IDS || a > b)
			return -1;
		for (long i = a; i <= b; i++)
			set[i] = true;
		s = end;
		if (*s == ',')
			s++;
	}
	return 0;
}

int hfx_parse_config(const char *line, struct hfx_config *c, bool *ids)
{
	char caps[16];
	const char *colon;
	int n;

	if (line[0] == '#' || line[0] == '\n' || !line[0])
		return -1;
	memset(c, 0, sizeof(*c));
	n = sscanf(line, "%63s %u %u %u %15s %u", c->name, &c->prog_type,
		   &c->attach, &c->flags, caps, &c->moff);
	colon = strchr(line, ':');
	if (n != 6 || !colon)
		return -1;
	c->perfmon = !strcmp(caps, "full");
	return hfx_parse_ids(colon + 1, ids);
}

void hfx_format_config(const struct hfx_config *c, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s %u %u %u %s %u", c->name, c->prog_type,
		 c->attach, c->flags, c->perfmon ? "full" : "noperfmon",
		 c->moff);
}

bool hfx_arg_constructible(const struct helper_proto *p, int argno)
{
	uint32_t t = p->arg_type[argno];

	switch (t & BASE_TYPE_MASK) {
	case ARG_DONTCARE:
	case ARG_ANYTHING:
	case ARG_CONST_MAP_PTR:
	case ARG_PTR_TO_MAP_KEY:
	case ARG_PTR_TO_MAP_VALUE:
	case ARG_PTR_TO_MEM:
	case ARG_PTR_TO_STACK:
	case ARG_CONST_SIZE:
	case ARG_CONST_SIZE_OR_ZERO:
	case ARG_CONST_ALLOC_SIZE_OR_ZERO:
	case ARG_PTR_TO_CTX:
	case ARG_PTR_TO_CONST_STR:
		return true;
	case ARG_PTR_TO_BTF_ID:
		/* Only a task_struct, from bpf_get_current_task_btf(). */
		return p->arg_btf[argno] &&
		       !strcmp(p->arg_btf[argno], "task_struct");
	default:
		return false;
	}
}

static bool is_size_arg(uint32_t base)
{
	return base == ARG_CONST_SIZE || base == ARG_CONST_SIZE_OR_ZERO;
}

void hfx_predict(const struct helper_proto *p, int argno, enum hfx_probe pr,
		 char *buf, size_t sz)
{
	uint32_t t = p->arg_type[argno], base = t & BASE_TYPE_MASK;
	const char *exp = helper_arg_expected(t);

	snprintf(buf, sz, "-");
	if (base == ARG_DONTCARE || base == ARG_ANYTHING)
		return;
	if (is_size_arg(base)) {
		if (pr == HFX_NEG)
			snprintf(buf, sz, "min value is negative, either use "
				 "unsigned or 'var &= const'");
		else if (pr == HFX_ZERO && base == ARG_CONST_SIZE)
			snprintf(buf, sz, "invalid zero-sized read: "
				 "u64=[0,0]");
		else if (pr == HFX_UNKNOWN)	/* a 64-bit unknown */
			snprintf(buf, sz, "min value is negative, either use "
				 "unsigned or 'var &= const'");
		return;
	}
	if (base == ARG_CONST_ALLOC_SIZE_OR_ZERO) {
		if (pr == HFX_UNKNOWN)
			snprintf(buf, sz, "is not a known constant'");
		return;
	}
	/* A pointer argument: NULL is accepted only when it may be null. */
	if (pr == HFX_ZERO && (t & PTR_MAYBE_NULL))
		return;
	snprintf(buf, sz, "type=scalar expected=%s", exp ? exp : "?");
}

static const struct {
	const char *code, *msg;
} abbrevs[] = {
	{ "MEM", "type=scalar expected=fp, pkt, pkt_meta, map_key, map_value, "
		 "mem, ringbuf_mem, buf, trusted_ptr_" },
	{ "NEG", "min value is negative, either use unsigned or 'var &= const'" },
	{ "ZERO", "invalid zero-sized read: u64=[0,0]" },
	{ "NOTCONST", "is not a known constant'" },
};

const char *hfx_abbrev(const char *msg)
{
	for (size_t i = 0; i < sizeof(abbrevs) / sizeof(abbrevs[0]); i++)
		if (!strcmp(msg, abbrevs[i].msg))
			return abbrevs[i].code;
	if (!strncmp(msg, "type=scalar expected=", 21))
		return msg + 21;
	return msg;
}
