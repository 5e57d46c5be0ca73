/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The public face of the interpreter: bpfvet_program__test_run() and the
 * runner, which owns a program's maps across runs as the kernel keeps
 * them between BPF_PROG_TEST_RUN calls (include/bpfvet.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp_int.h"
#include "base/base.h"

struct bpfvet_runner {
	const struct bpfvet_program *prog;
	struct interp_maps *maps;
};

static void set_err(char *eb, size_t eb_sz, const char *msg)
{
	if (eb && eb_sz)
		snprintf(eb, eb_sz, "%s", msg);
}

int bpfvet_runner__new(const struct bpfvet_program *prog, struct bpfvet_runner **out)
{
	struct bpfvet_runner *r;
	int err;

	if (!out)
		return -EINVAL;
	*out = NULL;
	if (!prog)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	err = interp_maps_for_program(prog, &r->maps);
	if (err) {
		free(r);
		return err;
	}
	r->prog = prog;
	*out = r;
	return 0;
}

void bpfvet_runner__free(struct bpfvet_runner *r)
{
	if (!r)
		return;
	interp_maps_free(r->maps);
	free(r);
}

/* Copies out as bpf_test_finish does: at most the caller's size, -ENOSPC
 * when that cut the data; the full size is reported either way. */
static int copy_out(void *dst, uint32_t *dst_sz, const void *src, uint32_t n)
{
	int err = 0;
	uint32_t cap = *dst_sz, copy = n;

	if (cap && copy > cap) {
		copy = cap;
		err = -ENOSPC;
	}
	if (dst && copy)
		memcpy(dst, src, copy);
	*dst_sz = n;
	return err;
}

static int finish(const struct interp *it, struct bpfvet_test_run_opts *o)
{
	struct interp_output out;
	int err, err2 = 0;

	err = interp_output(it, &out);
	if (err)
		return err;
	o->retval = out.retval;
	err = copy_out(o->data_out, &o->data_size_out, out.data, out.data_size);
	if (o->ctx_out && out.ctx_size) {
		uint32_t cap = o->ctx_size_out;

		if (cap >= out.ctx_size || !cap) {
			memcpy(o->ctx_out, out.ctx, out.ctx_size);
		} else {
			memcpy(o->ctx_out, out.ctx, cap);
			err2 = -ENOSPC;
		}
		o->ctx_size_out = out.ctx_size;
	}
	free(out.data);
	return err ? err : err2;
}

int bpfvet_runner__run(struct bpfvet_runner *r, struct bpfvet_test_run_opts *o)
{
	struct interp_input in = { 0 };
	struct interp *it;
	int err;

	if (!r || !o || o->sz < offsetof(struct bpfvet_test_run_opts, errbuf_sz) + sizeof(size_t))
		return -EINVAL;
	in.data = o->data_in;
	in.data_size = o->data_size_in;
	in.ctx = o->ctx_in;
	in.ctx_size = o->ctx_size_in;
	in.seed = o->seed;
	in.max_steps = o->max_steps;
	in.replay = OPTS_GET(o, replay, (const uint64_t *)NULL);
	in.replay_cnt = in.replay ? OPTS_GET(o, replay_cnt, 0u) : 0;
	o->steps = 0;
	o->fault_pc = -1;
	err = interp_new(r->prog, r->maps, &in, &it, o->errbuf, o->errbuf_sz);
	if (err)
		return err;
	interp_run(it);
	o->steps = interp_steps(it);
	if (interp_status(it) == INTERP_FAULT) {
		set_err(o->errbuf, o->errbuf_sz, interp_fault(it));
		o->fault_pc = (int64_t)interp_pc(it);
		err = interp_unsupported(it) ? -EOPNOTSUPP : -EFAULT;
	} else {
		err = finish(it, o);
	}
	interp_free(it);
	return err;
}

int bpfvet_program__test_run(const struct bpfvet_program *prog,
			     struct bpfvet_test_run_opts *opts)
{
	struct bpfvet_runner *r;
	int err;

	err = bpfvet_runner__new(prog, &r);
	if (err)
		return err;
	err = bpfvet_runner__run(r, opts);
	bpfvet_runner__free(r);
	return err;
}
