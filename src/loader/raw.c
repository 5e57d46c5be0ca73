/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Programs given as an instruction array with a map table, for runtimes
 * that never had an ELF file. Everything is checked and copied: the
 * caller's arrays may be freed as soon as the call returns.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "steps.h"
#include "base/uapi.h"

#define MAX_INSNS 1000000	/* BPF_COMPLEXITY_LIMIT_INSNS */
#define OBJ_NAME_MAX 15

/* Reads one descriptor honouring its own sz. */
static int read_desc(const struct bpfvet_map_desc *in, struct bpfvet_map_desc *out)
{
	size_t n;

	if (!opts_valid(in, sizeof(*in)))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->inner_map_idx = -1;
	n = in->sz < sizeof(*out) ? in->sz : sizeof(*out);
	memcpy(out, in, n);
	return 0;
}

static bool is_map_in_map(uint32_t type)
{
	return type == BPF_MAP_TYPE_ARRAY_OF_MAPS || type == BPF_MAP_TYPE_HASH_OF_MAPS;
}

static int copy_map(struct errbuf *eb, const struct bpfvet_raw_opts *o, size_t i,
		    struct bpfvet_map *m)
{
	struct bpfvet_map_desc d;
	char gen[32];

	if (read_desc(&o->maps[i], &d))
		return errbuf_set(eb, -EINVAL, "map %zu: bad descriptor size", i);
	if (d.type == BPF_MAP_TYPE_UNSPEC || d.type >= BPF_MAP_TYPE_MAX_)
		return errbuf_set(eb, -EINVAL, "map %zu: unknown map type %u", i, d.type);
	if (d.inner_map_idx != -1 &&
	    (d.inner_map_idx < 0 || (size_t)d.inner_map_idx >= o->map_cnt ||
	     (size_t)d.inner_map_idx == i))
		return errbuf_set(eb, -EINVAL, "map %zu: inner map index %d out of range",
				  i, d.inner_map_idx);
	if (is_map_in_map(d.type) && d.inner_map_idx < 0)
		return errbuf_set(eb, -EINVAL, "map %zu: a map-in-map needs an inner map", i);
	if (!is_map_in_map(d.type) && d.inner_map_idx >= 0)
		return errbuf_set(eb, -EINVAL, "map %zu: only map-in-map types have inner maps", i);
	if (!d.name) {
		snprintf(gen, sizeof(gen), "map%zu", i);
		d.name = gen;
	}
	if (strlen(d.name) > OBJ_NAME_MAX)
		return errbuf_set(eb, -EINVAL, "map %zu: name longer than %d characters",
				  i, OBJ_NAME_MAX);
	m->name = strdup(d.name);
	m->real_name = strdup(d.name);
	if (!m->name || !m->real_name)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	m->origin = BPFVET_MAP_RAW;
	m->type = d.type;
	m->key_size = d.key_size;
	m->value_size = d.value_size;
	m->max_entries = d.max_entries;
	m->flags = d.flags;
	m->inner_idx = d.inner_map_idx;
	m->sec_idx = -1;
	return 0;
}

/* Map references must name a map of the table, and an LD_IMM64 must have
 * its second half. Everything else is the verifier's business. */
static int check_insns(struct errbuf *eb, const struct bpfvet_raw_opts *o)
{
	size_t i;

	for (i = 0; i < o->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &o->insns[i];

		if (!insn_is_ldimm64(insn))
			continue;
		if (i + 1 >= o->insn_cnt)
			return errbuf_set(eb, -EINVAL, "insn %zu: LD_IMM64 without its second half", i);
		if ((insn->src_reg == BPF_PSEUDO_MAP_FD || insn->src_reg == BPF_PSEUDO_MAP_VALUE) &&
		    (insn->imm < 0 || (size_t)insn->imm >= o->map_cnt))
			return errbuf_set(eb, -EINVAL, "insn %zu: map index %d out of range (%zu maps)",
					  i, insn->imm, o->map_cnt);
		i++;
	}
	return 0;
}

static int check_opts(struct errbuf *eb, const struct bpfvet_raw_opts *o)
{
	if (!o->insns || o->insn_cnt == 0)
		return errbuf_set(eb, -EINVAL, "no instructions");
	if (o->insn_cnt > MAX_INSNS)
		return errbuf_set(eb, -E2BIG, "%zu instructions, more than %d",
				  o->insn_cnt, MAX_INSNS);
	if (o->map_cnt && !o->maps)
		return errbuf_set(eb, -EINVAL, "map_cnt is %zu but maps is NULL", o->map_cnt);
	if (o->prog_type >= BPF_PROG_TYPE_MAX_)
		return errbuf_set(eb, -EINVAL, "unknown program type %u", o->prog_type);
	if (o->expected_attach_type >= BPF_ATTACH_TYPE_MAX_)
		return errbuf_set(eb, -EINVAL, "unknown attach type %u",
				  o->expected_attach_type);
	return check_insns(eb, o);
}

/* Subprograms start at every bpf-to-bpf call or callback target. */
static int find_subprogs(struct errbuf *eb, struct bpfvet_program *p)
{
	bool *start = calloc(p->insn_cnt, sizeof(*start));
	size_t i, n = 0, k = 0;

	if (!start)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	start[0] = true;
	for (i = 0; i < p->insn_cnt; i++) {
		const struct bpfvet_insn *insn = &p->insns[i];
		bool call = insn->code == (BPF_JMP | BPF_CALL) &&
			    insn->src_reg == BPF_PSEUDO_CALL;
		bool func = insn_is_ldimm64(insn) && insn->src_reg == BPF_PSEUDO_FUNC;
		long long t = (long long)i + insn->imm + 1;

		if ((call || func) && t >= 0 && (size_t)t < p->insn_cnt)
			start[t] = true;
	}
	for (i = 0; i < p->insn_cnt; i++)
		n += start[i];
	p->subprogs = calloc(n, sizeof(*p->subprogs));
	if (!p->subprogs) {
		free(start);
		return errbuf_set(eb, -ENOMEM, "out of memory");
	}
	for (i = 0; i < p->insn_cnt; i++) {
		char name[32];

		if (!start[i])
			continue;
		if (k)
			p->subprogs[k - 1].len = i - p->subprogs[k - 1].start;
		snprintf(name, sizeof(name), "sub_%zu", i);
		p->subprogs[k].name = strdup(i ? name : p->name);
		p->subprogs[k].start = i;
		p->subprogs[k].global = i == 0;
		p->subprog_cnt = ++k;
		if (!p->subprogs[k - 1].name) {
			free(start);
			return errbuf_set(eb, -ENOMEM, "out of memory");
		}
	}
	p->subprogs[k - 1].len = p->insn_cnt - p->subprogs[k - 1].start;
	free(start);
	return 0;
}

static int build(struct errbuf *eb, const struct bpfvet_raw_opts *o,
		 struct bpfvet_program *p)
{
	size_t i;
	int err;

	p->name = strdup(o->name ? o->name : "prog");
	p->sec_name = strdup("");
	p->raw_license = strdup(o->license ? o->license : "GPL");
	p->insns = malloc(o->insn_cnt * sizeof(*p->insns));
	if (!p->name || !p->sec_name || !p->raw_license || !p->insns)
		return errbuf_set(eb, -ENOMEM, "out of memory");
	memcpy(p->insns, o->insns, o->insn_cnt * sizeof(*p->insns));
	p->insn_cnt = o->insn_cnt;
	p->type = o->prog_type;
	p->expected_attach_type = o->expected_attach_type;
	p->type_known = true;
	p->autoload = true;
	p->sec_idx = -1;
	if (o->map_cnt) {
		p->raw_maps = calloc(o->map_cnt, sizeof(*p->raw_maps));
		if (!p->raw_maps)
			return errbuf_set(eb, -ENOMEM, "out of memory");
	}
	for (i = 0; i < o->map_cnt; i++) {
		p->raw_map_cnt = i + 1;
		err = copy_map(eb, o, i, &p->raw_maps[i]);
		if (err)
			return err;
	}
	maps_resolve_inner(p->raw_maps, p->raw_map_cnt);
	return find_subprogs(eb, p);
}

int bpfvet_program__from_insns(const struct bpfvet_raw_opts *opts,
			       struct bpfvet_program **progp)
{
	struct bpfvet_program *p;
	struct errbuf eb;
	int err;

	if (!progp)
		return -EINVAL;
	*progp = NULL;
	if (!opts || !opts_valid(opts, sizeof(*opts)) ||
	    opts->sz < offsetof(struct bpfvet_raw_opts, map_cnt) + sizeof(size_t))
		return -EINVAL;
	if (opts->sz >= offsetof(struct bpfvet_raw_opts, errbuf_sz) + sizeof(size_t))
		errbuf_init(&eb, opts->errbuf, opts->errbuf_sz);
	else
		errbuf_init(&eb, NULL, 0);
	err = check_opts(&eb, opts);
	if (err)
		return err;
	p = calloc(1, sizeof(*p));
	if (!p)
		return errbuf_set(&eb, -ENOMEM, "out of memory");
	p->st_ops_map = -1;
	err = build(&eb, opts, p);
	if (err) {
		prog_free_contents(p);
		free(p);
		return err;
	}
	*progp = p;
	return 0;
}

void bpfvet_program__free(struct bpfvet_program *prog)
{
	/* Programs of an object belong to it. */
	if (!prog || prog->obj)
		return;
	prog_free_contents(prog);
	free(prog);
}
