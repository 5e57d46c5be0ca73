/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Open-coded iterators (bpf_iter_<type>_new/next/destroy) and the kfuncs
 * bpfvet models (kfunc.c).
 */
#ifndef BPFVET_ITER_H
#define BPFVET_ITER_H

#include "env.h"

enum kfunc_kind { KFUNC_ITER_NEW, KFUNC_ITER_NEXT, KFUNC_ITER_DESTROY, KFUNC_THROW };

/* Iterator types, stored in the slot's iter.btf_id (iter.btf stays NULL:
 * no BTF is needed to tell them apart). */
enum iter_type { ITER_NUM = 1 };

enum iter_state { ITER_STATE_INVALID, ITER_STATE_ACTIVE, ITER_STATE_DRAINED };

struct kfunc_desc {
	const char *name;
	enum kfunc_kind kind;
	enum iter_type iter;
	int nargs;
};

/* Where the call's iterator lives, once R1 is checked. */
struct iter_arg {
	uint32_t frameno;
	int spi;
	uint32_t ref_obj_id;
};

const struct kfunc_desc *kfunc_lookup(const struct vet_env *env,
				      const struct bpfvet_insn *insn);
int iter_process_arg(struct vet_env *env, const struct kfunc_desc *k, uint32_t insn_idx,
		     struct iter_arg *it);
int iter_process_next(struct vet_env *env, uint32_t insn_idx, const struct iter_arg *it);
const char *iter_type_str(uint32_t btf_id);
const char *iter_state_str(int state);

#endif
