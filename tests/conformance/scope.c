/* SPDX-License-Identifier: BSD-2-Clause */
/* Which in-scope subsets a program belongs to: see scope.h. */
#include <stdbool.h>
#include <stdint.h>

#include "scope.h"

/* Instruction encodings and ids from the kernel's UAPI (facts). */
#define OP_CALL		0x85	/* BPF_JMP | BPF_CALL */
#define OP_CALLX	0x8d	/* BPF_JMP | BPF_CALL | BPF_X */
#define OP_LD_IMM64	0x18	/* BPF_LD | BPF_IMM | BPF_DW */
#define PSEUDO_MAP_FD	1
#define PSEUDO_MAP_VALUE 2
#define PSEUDO_BTF_ID	3
#define PSEUDO_FUNC	4
#define PSEUDO_MAP_IDX	5
#define PSEUDO_MAP_IDX_VALUE 6
#define PSEUDO_CALL	1
#define PSEUDO_KFUNC_CALL 2
#define HELPER_MAP_LOOKUP_ELEM 1
#define MAP_TYPE_ARENA	33
#define PROG_TYPE_TRACING 26
#define PROG_TYPE_STRUCT_OPS 27
#define PROG_TYPE_EXT	28
#define PROG_TYPE_LSM	29
#define PROG_TYPE_NETFILTER 32

/* Helpers whose arguments or return value are BTF-typed kernel objects
 * (PTR_TO_BTF_ID, per-cpu kernel variables, BTF ids) or dynptrs. */
static bool helper_needs_btf(int32_t id)
{
	switch (id) {
	case 136: case 137: case 138: case 139: case 140:	/* bpf_skc_to_*  */
	case 178: case 196:		/* bpf_skc_to_unix_sock, _mptcp_sock */
	case 145: case 146:		/* bpf_inode_storage_get, _delete */
	case 147:			/* bpf_d_path */
	case 149: case 150:		/* bpf_snprintf_btf, bpf_seq_printf_btf */
	case 153: case 154:		/* bpf_per_cpu_ptr, bpf_this_cpu_ptr */
	case 156: case 157:		/* bpf_task_storage_get, _delete */
	case 158:			/* bpf_get_current_task_btf */
	case 161: case 193:		/* bpf_ima_inode_hash, bpf_ima_file_hash */
	case 162:			/* bpf_sock_from_file */
	case 167:			/* bpf_btf_find_by_name_kind */
	case 175:			/* bpf_task_pt_regs */
	case 180:			/* bpf_find_vma */
	case 194:			/* bpf_kptr_xchg */
	case 197: case 198: case 199: case 200: case 201: case 202: case 203:
					/* dynptr helpers */
	case 209:			/* bpf_user_ringbuf_drain */
	case 210: case 211:		/* bpf_cgrp_storage_get, _delete */
		return true;
	default:
		return false;
	}
}

static bool type_has_btf_ctx(uint32_t type)
{
	return type == PROG_TYPE_TRACING || type == PROG_TYPE_STRUCT_OPS ||
	       type == PROG_TYPE_EXT || type == PROG_TYPE_LSM || type == PROG_TYPE_NETFILTER;
}

static bool refs_arena(const struct bpfvet_object *obj, const struct bpfvet_insn *in)
{
	const struct bpfvet_map *m;

	if (in->src_reg != PSEUDO_MAP_FD && in->src_reg != PSEUDO_MAP_VALUE &&
	    in->src_reg != PSEUDO_MAP_IDX && in->src_reg != PSEUDO_MAP_IDX_VALUE)
		return false;
	m = in->imm >= 0 ? bpfvet_object__map(obj, (size_t)in->imm) : NULL;
	return m && bpfvet_map__type(m) == MAP_TYPE_ARENA;
}

unsigned int scope_classify(const struct bpfvet_object *obj, const struct bpfvet_program *prog)
{
	size_t cnt = 0;
	const struct bpfvet_insn *insns = bpfvet_program__insns(prog, &cnt);
	bool plain = true, no_btf = !type_has_btf_ctx(bpfvet_program__type(prog));

	for (size_t i = 0; insns && i < cnt; i++) {
		const struct bpfvet_insn *in = &insns[i];

		if (in->code == OP_CALLX) {
			plain = false;
		} else if (in->code == OP_CALL) {
			if (in->src_reg == PSEUDO_KFUNC_CALL)
				no_btf = false;
			if (in->src_reg == 0 && helper_needs_btf(in->imm))
				no_btf = false;
			if (in->src_reg != 0 || in->imm != HELPER_MAP_LOOKUP_ELEM)
				plain = false;
		} else if (in->code == OP_LD_IMM64) {
			if (in->src_reg == PSEUDO_BTF_ID || refs_arena(obj, in))
				no_btf = false;
			if (in->src_reg == PSEUDO_FUNC)
				plain = false;
			i++;	/* the second half of the instruction */
		}
	}
	/* A program the loader could not take has no instructions to judge:
	 * it is in no subset. */
	if (!insns || !cnt)
		return 0;
	return (plain && no_btf ? SCOPE_PLAIN : 0) | (no_btf ? SCOPE_NO_BTF_OBJ : 0);
}
