/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_kernel__verifier_rules(): which verifier rules (BPFVET_RULE_*)
 * the running kernel follows, told by its own verifier. Builds of one
 * release differ by them, so the version cannot say. Two tiny programs
 * of tests/progs/drift_v1272.c, held here as instructions (no compiler at
 * run time), are loaded at log level 2 with statistics:
 *
 *   cb_call_scc     one bpf_loop call and no other loop. A kernel with
 *                   the callback-SCC rule puts the call in an SCC and
 *                   logs "SCC enter (1)"; the callback's pruned return is
 *                   a back-edge, so peak_states is 2, else 1.
 *   loop_misc_zero  an iterator loop whose two paths back leave fp-16
 *                   misc, then zero. With the loop-slot-types rule the
 *                   second path is pruned at the loop's checkpoint:
 *                   33 instructions processed, else 35.
 *
 * A callback is a subprogram, which the kernel wants described by BTF
 * (func_info): the first probe loads a BTF of its own with the two
 * functions, int f(void) each. Figures neither rule set gives (a later
 * kernel) make the answer unknown, as does a refused load (EPERM
 * without privileges).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/btf.h>

#include "kernel_load.h"
#include "kernel_sys.h"
#include "base/uapi.h"

#define PROBE_LOG_SIZE	(256u << 10)	/* the probes' logs take a few KiB */
#define LOG_LEVEL2_STATS	(BPFVET_LOG_LEVEL2 | BPFVET_LOG_STATS)

#define INSN(c, d, s, o, i) \
	((struct bpfvet_insn){ .code = (c), .dst_reg = (d), .src_reg = (s), .off = (o), .imm = (i) })
#define MOV_IMM(d, i)	INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, i)
#define MOV_REG(d, s)	INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADD_IMM(d, i)	INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, i)
#define CALL(id)	INSN(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define KFUNC(id)	INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_KFUNC_CALL, 0, id)
#define EXIT()		INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define JA(o)		INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define JEQ_IMM(d, i, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, i)
#define JGT_IMM(d, i, o) INSN(BPF_JMP | BPF_JGT | BPF_K, d, 0, o, i)
#define STX_W(d, s, o)	INSN(BPF_STX | BPF_MEM | BPF_W, d, s, o, 0)
#define ST_DW(d, o, i)	INSN(BPF_ST | BPF_MEM | BPF_DW, d, 0, o, i)

#define FUNC_LOOP		181	/* bpf_loop */
#define FUNC_GET_PRANDOM_U32	7

/* A load's log and figures; log holds PROBE_LOG_SIZE bytes. func_info
 * (pairs of instruction and BTF FUNC id) describes the subprograms with
 * btf_fd's types, when btf_fd >= 0. */
struct probe_run {
	char *log;
	struct bpfvet_kernel_result res;
	int btf_fd;
	const uint32_t *func_info;
	uint32_t func_cnt;
};

#define PROBE_MAIN_ID		3	/* type ids in probe_btf_load() */
#define PROBE_CB_ID		4

/* The probe's BTF, written by libbpf: [1] int, [2] int(void), [3] global
 * func "probe" and [4] static func "cb", both of type [2]. Returns an fd. */
static int probe_btf_load(void)
{
	struct btf *btf = btf__new_empty();
	const void *raw;
	uint32_t size;
	int fd = -ENOMEM;

	if (!btf)
		return -ENOMEM;
	if (btf__add_int(btf, "int", 4, BTF_INT_SIGNED) == 1 &&
	    btf__add_func_proto(btf, 1) == 2 &&
	    btf__add_func(btf, "probe", BTF_FUNC_GLOBAL, 2) == PROBE_MAIN_ID &&
	    btf__add_func(btf, "cb", BTF_FUNC_STATIC, 2) == PROBE_CB_ID) {
		raw = btf__raw_data(btf, &size);
		fd = raw ? ksys_btf_load(raw, size, NULL, 0) : -ENOMEM;
	}
	btf__free(btf);
	return fd;
}

static int probe_load(uint32_t type, const struct bpfvet_insn *insns, size_t cnt,
		      struct probe_run *run)
{
	struct ksys_prog_load attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	if (run->btf_fd >= 0) {
		attr.prog_btf_fd = (uint32_t)run->btf_fd;
		attr.func_info_rec_size = 2 * sizeof(uint32_t);
		attr.func_info = ksys_ptr(run->func_info);
		attr.func_info_cnt = run->func_cnt;
	}
	attr.prog_type = type;
	attr.insn_cnt = (uint32_t)cnt;
	attr.insns = ksys_ptr(insns);
	attr.license = ksys_ptr("GPL");
	attr.log_level = LOG_LEVEL2_STATS;
	attr.log_buf = ksys_ptr(run->log);
	attr.log_size = PROBE_LOG_SIZE;
	strncpy(attr.prog_name, "bpfvet_probe", KSYS_OBJ_NAME_LEN - 1);
	run->log[0] = '\0';
	fd = ksys_prog_load(&attr);
	run->log[PROBE_LOG_SIZE - 1] = '\0';
	if (fd < 0)
		return fd;
	close(fd);
	memset(&run->res, 0, sizeof(run->res));
	run->res.sz = sizeof(run->res);
	return kstats_parse(run->log, &run->res) ? 0 : -EPROTO;
}

/* Rule 1: cb_call_scc of tests/progs/drift_v1272.c. */
static int probe_callback_scc(struct probe_run *run, uint32_t *rules)
{
	const struct bpfvet_insn insns[] = {
		MOV_IMM(1, 2),
		/* r2 = the callback, 6 instructions after this one's end. */
		INSN(BPF_LD | BPF_IMM | BPF_DW, 2, BPF_PSEUDO_FUNC, 0, 6),
		INSN(0, 0, 0, 0, 0),
		MOV_IMM(3, 0),
		MOV_IMM(4, 0),
		CALL(FUNC_LOOP),
		MOV_IMM(0, 0),
		EXIT(),
		MOV_IMM(0, 0),	/* the callback */
		EXIT(),
	};
	const uint32_t func_info[] = { 0, PROBE_MAIN_ID, 8, PROBE_CB_ID };
	bool scc;
	int err;

	run->btf_fd = probe_btf_load();
	if (run->btf_fd < 0)
		return run->btf_fd;
	run->func_info = func_info;
	run->func_cnt = 2;
	err = probe_load(BPF_PROG_TYPE_SOCKET_FILTER, insns, sizeof(insns) / sizeof(insns[0]),
			 run);
	close(run->btf_fd);
	run->btf_fd = -1;
	if (err)
		return err;
	scc = strstr(run->log, "\nSCC enter (1)\n") != NULL;
	if (run->res.insns_processed != 10 || run->res.peak_states != (scc ? 2 : 1))
		return -EPROTO;
	if (scc)
		*rules |= BPFVET_RULE_CALLBACK_SCC;
	return 0;
}

/* The BTF ids of the number iterator's kfuncs; -ENOENT when the kernel
 * has none (before 6.4). */
static int iter_num_ids(struct bpfvet_kernel *k, int32_t ids[3])
{
	static const char *const names[3] = {
		"bpf_iter_num_new", "bpf_iter_num_next", "bpf_iter_num_destroy",
	};
	const struct btf *vmlinux;
	int err = kfacts_vmlinux(k, &vmlinux);

	if (err)
		return err;
	for (int i = 0; i < 3; i++) {
		ids[i] = btf__find_by_name_kind(vmlinux, names[i], BTF_KIND_FUNC);
		if (ids[i] < 0)
			return -ENOENT;
	}
	return 0;
}

/* Rule 2: loop_misc_zero of tests/progs/drift_v1272.c. */
static int probe_loop_slot_types(struct bpfvet_kernel *k, struct probe_run *run,
				 uint32_t *rules)
{
	int32_t id[3];
	int err = iter_num_ids(k, id);

	/* No iterators: no loop checkpoint of the kind the rule is about. */
	if (err == -ENOENT)
		return 0;
	if (err)
		return err;
	const struct bpfvet_insn insns[] = {
		MOV_REG(1, 10), ADD_IMM(1, -8), MOV_IMM(2, 0), MOV_IMM(3, 10), KFUNC(id[0]),
		/* 5: the loop */
		MOV_REG(1, 10), ADD_IMM(1, -8), KFUNC(id[1]),
		JEQ_IMM(0, 0, 11),
		CALL(FUNC_GET_PRANDOM_U32),
		MOV_IMM(1, 0), MOV_IMM(1, 0),
		JGT_IMM(0, 7, 3),
		STX_W(10, 0, -16), STX_W(10, 0, -12),	/* fp-16 misc */
		JA(1),
		ST_DW(10, -16, 0),			/* fp-16 zero */
		MOV_IMM(0, 0), MOV_IMM(0, 0),
		JA(-15),
		/* 20: after it */
		MOV_REG(1, 10), ADD_IMM(1, -8), KFUNC(id[2]),
		MOV_IMM(0, 0),
		EXIT(),
	};

	err = probe_load(BPF_PROG_TYPE_RAW_TRACEPOINT, insns, sizeof(insns) / sizeof(insns[0]),
			 run);
	if (err)
		return err;
	if (run->res.insns_processed == 33)
		*rules |= BPFVET_RULE_LOOP_SLOT_TYPES;
	else if (run->res.insns_processed != 35)
		return -EPROTO;
	return 0;
}

static int probe_rules(struct bpfvet_kernel *k, uint32_t *rules)
{
	struct probe_run run = { .log = malloc(PROBE_LOG_SIZE), .btf_fd = -1 };
	int err;

	*rules = 0;
	if (!run.log)
		return -ENOMEM;
	err = probe_callback_scc(&run, rules);
	if (!err)
		err = probe_loop_slot_types(k, &run, rules);
	free(run.log);
	if (err)
		*rules = 0;
	return err;
}

int bpfvet_kernel__verifier_rules(struct bpfvet_kernel *k, uint32_t *rules)
{
	if (!k || !rules)
		return -EINVAL;
	if (!k->rules_err) {
		k->rules_err = probe_rules(k, &k->rules);
		if (!k->rules_err)
			k->rules_err = 1;
	}
	*rules = k->rules_err < 0 ? 0 : k->rules;
	return k->rules_err < 0 ? k->rules_err : 0;
}
