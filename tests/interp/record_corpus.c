/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records BPF_PROG_TEST_RUN results of the corpus's socket filters, tc
 * and XDP programs into tests/fixtures/interp/corpus.txt.gz, in the format
 * of the interpreter's differential test (tests/unit/test_interp_kernel.c;
 * the format is described there). Root only: `make interp-corpus-fixtures`.
 *
 *   record_corpus [-o FILE] [-r RUNS] [-s SEED] OBJ.o...
 *
 * A program is recorded when the raw format can say all it needs: its
 * maps are arrays, hashes (per-CPU, LRU) or program arrays without
 * initial contents (global data that is all zero counts), it has no
 * externs, kfuncs or BTF-typed loads, is no XDP program for a devmap or
 * cpumap entry (TEST_RUN refuses those), and the kernel loads its relocated
 * instructions with created maps, without BTF (so no global functions),
 * as a privileged user. Each gets RUNS packets: random bytes, IPv4 and
 * IPv6 with TCP, UDP or ICMP headers; half of the runs also pass a
 * context (__sk_buff or xdp_md) with random allowed fields. Only runs
 * TEST_RUN accepts are recorded. The runs happen in the interpreter's
 * modelled environment (model_env.h).
 *
 * The clock and prandom helpers answer differently on every run, so what
 * they answered is recorded with the run (a 'k' line) and the interpreter
 * replays it. To learn it, a program that calls them is run in a variant
 * (instrument()) that appends R0 to a log map after each such call; the
 * fixture carries the program as it is.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include <bpf/bpf.h>

#include "loader/object.h"
#include "model_env.h"
#include "rec_common.h"

#define MAX_MAPS 64
#define BUF_MAX 8192
#define LOG_SLOTS 32			/* answers logged per run */
#define LOG_VALUE_SIZE (8 + 8 * LOG_SLOTS)	/* a count, then the answers */
#define LOG_BLOCK 10			/* instructions of the logging block */

static bool map_expressible(const struct bpfvet_map *m)
{
	switch (m->type) {
	case BPF_MAP_TYPE_ARRAY:
	case BPF_MAP_TYPE_PERCPU_ARRAY:
	case BPF_MAP_TYPE_HASH:
	case BPF_MAP_TYPE_PERCPU_HASH:
	case BPF_MAP_TYPE_LRU_HASH:
	case BPF_MAP_TYPE_LRU_PERCPU_HASH:
		break;
	case BPF_MAP_TYPE_PROG_ARRAY:
		if (m->init_cnt)
			return false;
		break;
	default:
		return false;
	}
	if (m->init_data)
		for (size_t i = 0; i < m->init_size; i++)
			if (((const uint8_t *)m->init_data)[i])
				return false;
	return m->inner_idx < 0 && !m->problem;
}

/* The program's maps in the order it first names them: used[k] is the
 * object's index of the program's map k. -1 when one cannot be said. */
static int collect_maps(const struct bpfvet_program *p, const struct bpfvet_object *obj,
			int *used, struct bpfvet_insn *insns)
{
	int cnt = 0;

	for (size_t i = 0; i < p->insn_cnt; i++) {
		struct bpfvet_insn *in = &insns[i];
		int k;

		if (in->code == (BPF_LD | BPF_IMM | BPF_DW)) {
			if (in->src_reg == BPF_PSEUDO_MAP_FD || in->src_reg == BPF_PSEUDO_MAP_VALUE) {
				if (p->insn_flags && p->insn_flags[i])
					return -1;
				if ((size_t)in->imm >= obj->map_cnt ||
				    !map_expressible(&obj->maps[in->imm]))
					return -1;
				for (k = 0; k < cnt && used[k] != in->imm; k++)
					;
				if (k == cnt) {
					if (cnt == MAX_MAPS)
						return -1;
					used[cnt++] = in->imm;
				}
				in->imm = k;
			} else if (in->src_reg && in->src_reg != BPF_PSEUDO_FUNC) {
				return -1;
			}
			i++;
		} else if (in->code == (BPF_JMP | BPF_CALL) &&
			   in->src_reg == BPF_PSEUDO_KFUNC_CALL) {
			return -1;
		}
	}
	return cnt;
}

/* ktime_get_ns, get_prandom_u32, ktime_get_boot_ns, ktime_get_coarse_ns,
 * ktime_get_tai_ns: the helpers whose answers the interpreter replays. */
static bool varying_call(const struct bpfvet_insn *in)
{
	return in->code == (BPF_JMP | BPF_CALL) && in->src_reg == 0 &&
	       (in->imm == 5 || in->imm == 7 || in->imm == 125 || in->imm == 160 ||
		in->imm == 208);
}

/* After a call R1-R5 hold nothing the program may read, so the block uses
 * R1-R3: log[0] counts, log[1 + count] = R0 while count < LOG_SLOTS. */
static void log_block(struct bpfvet_insn *b, int log_fd)
{
	const struct bpfvet_insn block[LOG_BLOCK] = {
		{ BPF_LD | BPF_IMM | BPF_DW, 1, BPF_PSEUDO_MAP_VALUE, 0, log_fd },
		{ 0, 0, 0, 0, 0 },
		{ BPF_LDX | BPF_MEM | BPF_DW, 2, 1, 0, 0 },
		{ BPF_JMP | BPF_JGE | BPF_K, 2, 0, 6, LOG_SLOTS },
		{ BPF_ALU64 | BPF_MOV | BPF_X, 3, 2, 0, 0 },
		{ BPF_ALU64 | BPF_LSH | BPF_K, 3, 0, 0, 3 },
		{ BPF_ALU64 | BPF_ADD | BPF_X, 3, 1, 0, 0 },
		{ BPF_STX | BPF_MEM | BPF_DW, 3, 0, 8, 0 },
		{ BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, 1 },
		{ BPF_STX | BPF_MEM | BPF_DW, 1, 2, 0, 0 },
	};

	memcpy(b, block, sizeof(block));
}

/* Moves a relative jump, call or function reference of the instruction
 * at old index i (now at ni) to its target's new place; false if the new
 * offset does not fit. */
static bool retarget(struct bpfvet_insn *o, size_t i, size_t ni, const size_t *new_idx,
		     size_t cnt)
{
	uint8_t cls = o->code & 0x07, op = o->code & 0xf0;
	bool by_imm, by_off;
	int64_t target, moved;

	by_imm = (o->code == (BPF_LD | BPF_IMM | BPF_DW) && o->src_reg == BPF_PSEUDO_FUNC) ||
		 (cls == BPF_JMP && op == BPF_CALL && o->src_reg == BPF_PSEUDO_CALL) ||
		 (cls == BPF_JMP32 && op == BPF_JA);
	by_off = (cls == BPF_JMP || cls == BPF_JMP32) && !by_imm && op != BPF_CALL &&
		 op != BPF_EXIT;
	if (!by_imm && !by_off)
		return true;
	target = (int64_t)i + 1 + (by_imm ? o->imm : o->off);
	if (target < 0 || target > (int64_t)cnt)
		return false;
	moved = (int64_t)new_idx[target] - (int64_t)ni - 1;
	if (by_imm) {
		o->imm = (int32_t)moved;
		return true;
	}
	if (moved < INT16_MIN || moved > INT16_MAX)
		return false;
	o->off = (int16_t)moved;
	return true;
}

/* The program with a logging block after each varying call, or NULL when
 * it has none (or cannot be rewritten). */
static struct bpfvet_insn *instrument(const struct bpfvet_insn *in, size_t cnt, int log_fd,
				      size_t *out_cnt)
{
	size_t *new_idx = malloc((cnt + 1) * sizeof(*new_idx)), calls = 0;
	struct bpfvet_insn *out = NULL;

	if (!new_idx)
		return NULL;
	for (size_t i = 0; i < cnt; i++) {
		new_idx[i] = i + LOG_BLOCK * calls;
		calls += varying_call(&in[i]);
	}
	new_idx[cnt] = cnt + LOG_BLOCK * calls;
	if (calls)
		out = calloc(new_idx[cnt], sizeof(*out));
	for (size_t i = 0; out && i < cnt; i++) {
		size_t ni = new_idx[i];

		out[ni] = in[i];
		if (!retarget(&out[ni], i, ni, new_idx, cnt)) {
			free(out);
			out = NULL;
		} else if (varying_call(&in[i])) {
			log_block(&out[ni + 1], log_fd);
		} else if (in[i].code == (BPF_LD | BPF_IMM | BPF_DW) && i + 1 < cnt) {
			out[ni + 1] = in[i + 1];
			i++;
		}
	}
	*out_cnt = out ? new_idx[cnt] : 0;
	free(new_idx);
	return out;
}

static void random_packet(struct rng *r, uint8_t *p, uint32_t *len)
{
	uint32_t kind = rng_below(r, 4), n, l4;

	n = 14 + rng_below(r, 120);
	for (uint32_t i = 0; i < sizeof(uint8_t) * 256; i++)
		p[i] = (uint8_t)rng_next(r);
	if (rng_below(r, 3) == 0)
		memset(p, 0, 6);		/* to this host */
	if (kind == 0) {			/* random bytes */
		*len = n;
		return;
	}
	l4 = rng_below(r, 3) == 0 ? 1 : rng_below(r, 2) ? 6 : 17;
	if (kind <= 2) {			/* IPv4 */
		p[12] = 0x08; p[13] = 0x00;
		p[14] = 0x45; p[16] = 0; p[17] = 20 + 20 + (uint8_t)rng_below(r, 40);
		p[20] = 0; p[21] = rng_below(r, 4) ? 0 : 0x20;
		p[23] = (uint8_t)l4;
		*len = 14 + 20 + 20 + rng_below(r, 60);
	} else {				/* IPv6 */
		p[12] = 0x86; p[13] = 0xdd;
		p[14] = 0x60; p[18] = 0; p[19] = 40;
		p[20] = (uint8_t)l4;
		*len = 14 + 40 + 20 + rng_below(r, 60);
	}
}

static void random_ctx(struct rng *r, uint32_t type, uint8_t *ctx, uint32_t *sz,
		       uint32_t pkt_len)
{
	memset(ctx, 0, 192);
	if (type == BPF_PROG_TYPE_XDP) {
		uint32_t meta = rng_below(r, 3) == 0 ? 4 * rng_below(r, 5) : 0;

		if (pkt_len < meta + 14)
			meta = 0;
		memcpy(ctx + 0, &meta, 4);		/* data: metadata size */
		memcpy(ctx + 4, &pkt_len, 4);		/* data_end */
		*sz = 24;
		return;
	}
	for (int off = 8; off < 12; off++)		/* mark */
		ctx[off] = (uint8_t)rng_next(r);
	for (int off = 32; off < 36; off++)		/* priority */
		ctx[off] = (uint8_t)rng_next(r);
	for (int off = 48; off < 68; off++)		/* cb[] */
		ctx[off] = (uint8_t)rng_next(r);
	*sz = 192;
}

static int create_maps(const struct bpfvet_object *obj, const int *used, int cnt, int *fds)
{
	for (int k = 0; k < cnt; k++) {
		const struct bpfvet_map *m = &obj->maps[used[k]];

		fds[k] = bpf_map_create(m->type, NULL, m->key_size, m->value_size,
					m->max_entries, NULL);
		if (fds[k] < 0) {
			while (k--)
				close(fds[k]);
			return -1;
		}
	}
	return 0;
}

struct recorder {
	gzFile out;
	struct rng rng;
	int runs;
	int index;
	int progs, skipped, records, replayed;
	int log_fd;		/* the instrumented programs' log: one array element */
};

/* Empties the log before a run (log_fd < 0: no log). */
static int log_reset(int log_fd)
{
	static const uint8_t zero[LOG_VALUE_SIZE];
	uint32_t key = 0;

	return log_fd < 0 ? 0 : bpf_map_update_elem(log_fd, &key, zero, BPF_ANY);
}

/* The run's logged answers as a 'k' line, if there are any. */
static void write_log(struct recorder *rc, int log_fd)
{
	uint64_t v[1 + LOG_SLOTS];
	uint32_t key = 0;

	if (log_fd < 0 || bpf_map_lookup_elem(log_fd, &key, v) || !v[0])
		return;
	gzputs(rc->out, "k");
	for (uint64_t i = 0; i < v[0] && i < LOG_SLOTS; i++)
		gzprintf(rc->out, " %llx", (unsigned long long)v[1 + i]);
	gzputs(rc->out, "\n");
	rc->replayed++;
}

/* fd runs the program; log_fd is the log it writes, or -1. */
static void record_runs(struct recorder *rc, const struct bpfvet_program *p, int fd, int log_fd)
{
	static uint8_t pkt[BUF_MAX], out[BUF_MAX], ctx[192], ctx_out[192];

	for (int i = 0; i < rc->runs; i++) {
		uint32_t len, csz = 0;
		bool with_ctx = i % 2 == 1;
		LIBBPF_OPTS(bpf_test_run_opts, o);

		random_packet(&rc->rng, pkt, &len);
		if (with_ctx)
			random_ctx(&rc->rng, p->type, ctx, &csz, len);
		o.data_in = pkt;
		o.data_size_in = len;
		o.data_out = out;
		o.data_size_out = sizeof(out);
		o.repeat = 1;
		if (with_ctx) {
			memset(ctx_out, 0, sizeof(ctx_out));
			o.ctx_in = ctx;
			o.ctx_size_in = csz;
			o.ctx_out = ctx_out;
			o.ctx_size_out = csz;
		}
		if (log_reset(log_fd) || bpf_prog_test_run_opts(fd, &o))
			continue;
		write_log(rc, log_fd);
		gzputs(rc->out, "r ");
		rec_hex(rc->out, pkt, len);
		gzputs(rc->out, " ");
		rec_hex(rc->out, with_ctx ? ctx : NULL, csz);
		gzprintf(rc->out, " %u ", o.retval);
		rec_hex(rc->out, out, o.data_size_out);
		gzputs(rc->out, " ");
		rec_hex(rc->out, with_ctx ? ctx_out : NULL, o.ctx_size_out);
		gzputs(rc->out, "\n");
		rc->records++;
	}
}

static const char *type_name(uint32_t t)
{
	return t == BPF_PROG_TYPE_XDP ? "xdp" : t == BPF_PROG_TYPE_SCHED_CLS ? "sched_cls"
										 : "socket_filter";
}

static void record_prog(struct recorder *rc, const struct bpfvet_object *obj,
			const struct bpfvet_program *p)
{
	int used[MAX_MAPS], fds[MAX_MAPS], cnt, fd, run_fd = -1;
	struct bpfvet_insn *insns, *loaded, *logged = NULL;
	size_t logged_cnt = 0;
	LIBBPF_OPTS(bpf_prog_load_opts, lo);

	if (p->type != BPF_PROG_TYPE_SOCKET_FILTER && p->type != BPF_PROG_TYPE_SCHED_CLS &&
	    p->type != BPF_PROG_TYPE_XDP)
		return;
	/* TEST_RUN refuses XDP programs for devmap and cpumap entries. */
	if (p->problem || p->extern_cnt || p->ksym_ref_cnt || p->core_pending ||
	    p->expected_attach_type == BPF_XDP_DEVMAP ||
	    p->expected_attach_type == BPF_XDP_CPUMAP || !p->insn_cnt) {
		if (getenv("RECORD_VERBOSE"))
			fprintf(stderr, "skip %s %s: needs the loader (%s)\n", obj->name, p->name,
				p->problem ? "a load problem" : p->extern_cnt ? "externs" :
				p->ksym_ref_cnt ? "ksyms" : p->core_pending ? "CO-RE" :
				p->insn_cnt ? "devmap/cpumap" : "no code");
		rc->skipped++;
		return;
	}
	insns = malloc(p->insn_cnt * sizeof(*insns));
	loaded = malloc(p->insn_cnt * sizeof(*loaded));
	if (!insns || !loaded)
		goto out;
	memcpy(insns, p->insns, p->insn_cnt * sizeof(*insns));
	cnt = collect_maps(p, obj, used, insns);
	if (cnt < 0 || create_maps(obj, used, cnt, fds)) {
		if (getenv("RECORD_VERBOSE"))
			fprintf(stderr, "skip %s %s: maps\n", obj->name, p->name);
		rc->skipped++;
		goto out;
	}
	memcpy(loaded, insns, p->insn_cnt * sizeof(*insns));
	for (size_t i = 0; i < p->insn_cnt; i++)
		if (loaded[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (loaded[i].src_reg == BPF_PSEUDO_MAP_FD ||
		     loaded[i].src_reg == BPF_PSEUDO_MAP_VALUE))
			loaded[i].imm = fds[loaded[i].imm];
	lo.prog_flags = p->prog_flags & BPF_F_XDP_HAS_FRAGS;
	lo.expected_attach_type = p->expected_attach_type;
	fd = bpf_prog_load(p->type, NULL, "GPL", (const struct bpf_insn *)loaded,
			   p->insn_cnt, &lo);
	if (fd >= 0 && rc->log_fd >= 0)
		logged = instrument(loaded, p->insn_cnt, rc->log_fd, &logged_cnt);
	if (logged) {
		run_fd = bpf_prog_load(p->type, NULL, "GPL", (const struct bpf_insn *)logged,
				       logged_cnt, &lo);
		if (run_fd < 0)
			fprintf(stderr, "record_corpus: %s %s: the logging variant does not "
				"load (%d); its clock and prandom answers are not recorded\n",
				obj->name, p->name, run_fd);
	}
	if (fd < 0) {
		if (getenv("RECORD_VERBOSE"))
			fprintf(stderr, "skip %s %s: load %d\n", obj->name, p->name, fd);
		rc->skipped++;
	} else {
		gzprintf(rc->out, "# %s %s\np %d %s\n", obj->name, p->name, rc->index++,
			 type_name(p->type));
		for (int k = 0; k < cnt; k++) {
			const struct bpfvet_map *m = &obj->maps[used[k]];

			gzprintf(rc->out, "m %u %u %u %u\n", m->type, m->key_size,
				 m->value_size, m->max_entries);
		}
		gzputs(rc->out, "c ");
		rec_hex(rc->out, insns, p->insn_cnt * sizeof(*insns));
		gzputs(rc->out, "\n");
		record_runs(rc, p, run_fd >= 0 ? run_fd : fd, run_fd >= 0 ? rc->log_fd : -1);
		gzputs(rc->out, ".\n");
		rc->progs++;
		close(fd);
	}
	if (run_fd >= 0)
		close(run_fd);
	for (int k = 0; k < cnt; k++)
		close(fds[k]);
out:
	free(insns);
	free(loaded);
	free(logged);
}

int main(int argc, char **argv)
{
	struct recorder rc = { .runs = 8, .rng = { 0x9e3779b97f4a7c15ull }, .log_fd = -1 };
	const char *path = "tests/fixtures/interp/corpus.txt.gz";
	struct utsname u;
	char why[256];
	int opt;

	while ((opt = getopt(argc, argv, "o:r:s:")) != -1) {
		if (opt == 'o')
			path = optarg;
		else if (opt == 'r')
			rc.runs = atoi(optarg);
		else if (opt == 's')
			rc.rng.s = strtoull(optarg, NULL, 0) | 1;
		else
			return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "record_corpus: needs root (BPF_PROG_TEST_RUN)\n");
		return 2;
	}
	if (enter_model_env(why, sizeof(why))) {
		fprintf(stderr, "record_corpus: %s\n", why);
		return 2;
	}
	rc.log_fd = bpf_map_create(BPF_MAP_TYPE_ARRAY, NULL, 4, LOG_VALUE_SIZE, 1, NULL);
	if (rc.log_fd < 0) {
		fprintf(stderr, "record_corpus: the log map: %s\n", strerror(-rc.log_fd));
		return 2;
	}
	rc.out = gzopen(path, "wb9");
	if (!rc.out) {
		fprintf(stderr, "record_corpus: %s: %s\n", path, strerror(errno));
		return 2;
	}
	uname(&u);
	gzprintf(rc.out, "# %s %s\n# corpus programs, recorded by tests/interp/record_corpus.c\n",
		 u.release, u.version);
	for (int i = optind; i < argc; i++) {
		struct bpfvet_open_opts oo = { .sz = sizeof(oo), .btf_custom_path =
					       "/sys/kernel/btf/vmlinux" };
		struct bpfvet_object *obj;

		if (bpfvet_object__open(argv[i], &oo, &obj))
			continue;
		for (size_t k = 0; k < obj->prog_cnt; k++)
			record_prog(&rc, obj, &obj->progs[k]);
		bpfvet_object__close(obj);
	}
	gzclose(rc.out);
	close(rc.log_fd);
	printf("record_corpus: %d programs, %d runs recorded (%d with the clock and prandom "
	       "answers), %d programs left out\n", rc.progs, rc.records, rc.replayed, rc.skipped);
	return 0;
}
