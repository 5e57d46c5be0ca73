/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Records bpf_fib_lookup's answers from the live kernel into
 * tests/fixtures/interp/fib.txt.gz (the format of docs/interp-fixtures.md),
 * inside the modelled network (model_env.h). Root only:
 * `make interp-fib-fixtures`.
 *
 *   record_fib [-o FILE] [-r RUNS] [-s SEED]
 *
 * Four programs, tc and XDP, with plen 64 (RUNS runs) and 60 (RUNS / 8,
 * always -EINVAL): each copies a struct
 * bpf_fib_lookup from the packet (bytes 14-77) and the flags (78-81) to
 * its stack, calls bpf_fib_lookup, and writes the struct back and the
 * helper's result (82-89) into the packet, so data_out shows every field
 * the kernel wrote and the return code. The packets choose the family,
 * ifindex, flags, tot_len, tbid and addresses among the cases the kernel
 * tells apart (see src/interp/fib.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>

#include <bpf/bpf.h>
#include <linux/bpf.h>

#include "model_env.h"
#include "rec_common.h"

#define PARAMS_AT 14
#define FLAGS_AT 78
#define RESULT_AT 82
#define PKT_LEN 96
#define MAX_INSNS 64

static struct bpf_insn ins(uint8_t code, uint8_t dst, uint8_t src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src, .off = off,
			      .imm = imm };
	return i;
}

/* Loads data and data_end into r2, r3 and checks that `need` bytes are
 * there, else jumps to the exit at `out`. */
static int bounds(struct bpf_insn *p, int n, int xdp, int need, int *fix)
{
	p[n++] = ins(BPF_LDX | BPF_MEM | BPF_W, 2, 6, xdp ? 0 : 76, 0);
	p[n++] = ins(BPF_LDX | BPF_MEM | BPF_W, 3, 6, xdp ? 4 : 80, 0);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 4, 2, 0, 0);
	p[n++] = ins(BPF_ALU64 | BPF_ADD | BPF_K, 4, 0, 0, need);
	*fix = n;
	p[n++] = ins(BPF_JMP | BPF_JGT | BPF_X, 4, 3, 0, 0);	/* to out */
	return n;
}

static int build(struct bpf_insn *p, int xdp, int plen)
{
	int n = 0, fix1, fix2;

	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 6, 1, 0, 0);
	n = bounds(p, n, xdp, RESULT_AT + 8, &fix1);
	for (int k = 0; k < 8; k++) {
		p[n++] = ins(BPF_LDX | BPF_MEM | BPF_DW, 5, 2, PARAMS_AT + 8 * k, 0);
		p[n++] = ins(BPF_STX | BPF_MEM | BPF_DW, 10, 5, -64 + 8 * k, 0);
	}
	p[n++] = ins(BPF_LDX | BPF_MEM | BPF_W, 7, 2, FLAGS_AT, 0);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 1, 6, 0, 0);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 2, 10, 0, 0);
	p[n++] = ins(BPF_ALU64 | BPF_ADD | BPF_K, 2, 0, 0, -64);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_K, 3, 0, 0, plen);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 4, 7, 0, 0);
	p[n++] = ins(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_fib_lookup);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_X, 8, 0, 0, 0);
	n = bounds(p, n, xdp, RESULT_AT + 8, &fix2);
	for (int k = 0; k < 8; k++) {
		p[n++] = ins(BPF_LDX | BPF_MEM | BPF_DW, 5, 10, -64 + 8 * k, 0);
		p[n++] = ins(BPF_STX | BPF_MEM | BPF_DW, 2, 5, PARAMS_AT + 8 * k, 0);
	}
	p[n++] = ins(BPF_STX | BPF_MEM | BPF_DW, 2, 8, RESULT_AT, 0);
	p[fix1].off = (int16_t)(n - fix1 - 1);
	p[fix2].off = (int16_t)(n - fix2 - 1);
	p[n++] = ins(BPF_ALU64 | BPF_MOV | BPF_K, 0, 0, 0, xdp ? 2 : 0);	/* out */
	p[n++] = ins(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

static void put_addr6(struct rng *r, uint8_t *a)
{
	static const uint8_t kinds[][3] = {
		{ 0x20, 0x01, 0 }, { 0xfe, 0x80, 0 }, { 0xfe, 0xc0, 0 }, { 0xff, 0x02, 0 },
		{ 0xfd, 0x00, 0 }, { 0x00, 0x00, 1 }, { 0x00, 0x00, 2 }, { 0x00, 0x00, 3 },
	};
	uint32_t k = rng_below(r, 10);

	for (int i = 0; i < 16; i++)
		a[i] = (uint8_t)rng_next(r);
	if (k >= 8)		/* random bytes */
		return;
	a[0] = kinds[k][0];
	a[1] = kinds[k][1];
	if (k == 1)
		a[1] |= (uint8_t)rng_below(r, 0x40);	/* fe80::/10 */
	if (kinds[k][2]) {
		memset(a, 0, 16);
		if (kinds[k][2] == 1)
			a[15] = 1;			/* ::1 */
		else if (kinds[k][2] == 2)
			a[10] = a[11] = 0xff, a[12] = 127, a[15] = 1;	/* ::ffff:127.0.0.1 */
	}					/* 3: :: */
}

static void random_params(struct rng *r, uint8_t *pkt)
{
	static const uint8_t families[] = { 2, 10, 2, 10, 0, 1, 7, 28 };
	static const uint32_t flag_sets[] = { 0, 1, 2, 4, 8, 9, 16, 32, 3, 0x3f, 0x40,
					      0x80000000u, 33, 12, 9, 11, 25, 13 };
	uint8_t *f = pkt + PARAMS_AT;
	uint32_t ifindex, flags;

	for (int i = 0; i < PKT_LEN; i++)
		pkt[i] = (uint8_t)rng_next(r);
	memset(pkt, 0, 12);
	pkt[12] = 0x88;
	pkt[13] = 0xb5;			/* a local EtherType: no IP header checks */
	f[0] = families[rng_below(r, 8)];
	ifindex = rng_below(r, 3) ? 1 : rng_below(r, 2) ? 0 : rng_below(r, 4) ? 2 : (uint32_t)rng_next(r);
	memcpy(f + 8, &ifindex, 4);
	if (rng_below(r, 2))
		memset(f + 6, 0, 2);		/* tot_len 0 */
	if (rng_below(r, 2)) {
		put_addr6(r, f + 16);
		put_addr6(r, f + 32);
	} else if (rng_below(r, 2)) {
		uint32_t lo = 0x0100007f;	/* 127.0.0.1 */

		memcpy(f + 16, &lo, 4);
		memcpy(f + 32, &lo, 4);
	}
	if (rng_below(r, 2))
		memset(f + 48, 0, 4);		/* tbid 0 */
	else if (rng_below(r, 2))
		f[48] = rng_below(r, 2) ? 254 : 255, memset(f + 49, 0, 3);	/* main, local */
	flags = flag_sets[rng_below(r, sizeof(flag_sets) / sizeof(flag_sets[0]))];
	memcpy(pkt + FLAGS_AT, &flags, 4);
}

static int record_prog(gzFile out, struct rng *r, int index, int xdp, int plen, int runs)
{
	struct bpf_insn prog[MAX_INSNS];
	uint8_t pkt[PKT_LEN], got[PKT_LEN + 64];
	int n = build(prog, xdp, plen), fd, recorded = 0;
	char log[4096] = "";
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_buf = log, .log_size = sizeof(log),
		    .log_level = 1);

	fd = bpf_prog_load(xdp ? BPF_PROG_TYPE_XDP : BPF_PROG_TYPE_SCHED_CLS, NULL, "GPL", prog,
			   (size_t)n, &lo);
	if (fd < 0) {
		fprintf(stderr, "record_fib: load: %s\n%s", strerror(errno), log);
		return -1;
	}
	gzprintf(out, "# fib_lookup %s plen %d\np %d %s\nc ", xdp ? "xdp" : "tc", plen, index,
		 xdp ? "xdp" : "sched_cls");
	rec_hex(out, prog, (size_t)n * sizeof(prog[0]));
	gzputs(out, "\n");
	for (int i = 0; i < runs; i++) {
		LIBBPF_OPTS(bpf_test_run_opts, o, .data_in = pkt, .data_size_in = PKT_LEN,
			    .data_out = got, .data_size_out = sizeof(got), .repeat = 1);

		random_params(r, pkt);
		if (bpf_prog_test_run_opts(fd, &o))
			continue;
		gzputs(out, "r ");
		rec_hex(out, pkt, PKT_LEN);
		gzprintf(out, " - %u ", o.retval);
		rec_hex(out, got, o.data_size_out);
		gzputs(out, " -\n");
		recorded++;
	}
	gzputs(out, ".\n");
	close(fd);
	return recorded;
}

int main(int argc, char **argv)
{
	const char *path = "tests/fixtures/interp/fib.txt.gz";
	struct rng r = { 0x2545f4914f6cdd1dull };
	int runs = 160, opt, total = 0, index = 0;
	char err[256];
	struct utsname u;
	gzFile out;

	while ((opt = getopt(argc, argv, "o:r:s:")) != -1) {
		if (opt == 'o')
			path = optarg;
		else if (opt == 'r')
			runs = atoi(optarg);
		else if (opt == 's')
			r.s = strtoull(optarg, NULL, 0) | 1;
		else
			return 2;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "record_fib: needs root (BPF_PROG_TEST_RUN, unshare)\n");
		return 2;
	}
	if (enter_model_env(err, sizeof(err))) {
		fprintf(stderr, "record_fib: %s\n", err);
		return 2;
	}
	out = gzopen(path, "wb9");
	if (!out) {
		fprintf(stderr, "record_fib: %s: %s\n", path, strerror(errno));
		return 2;
	}
	uname(&u);
	gzprintf(out, "# %s %s\n# bpf_fib_lookup cases, recorded by tests/interp/record_fib.c\n",
		 u.release, u.version);
	for (int xdp = 0; xdp <= 1; xdp++)
		for (int plen = 64; plen >= 60; plen -= 4) {
			int got = record_prog(out, &r, index++, xdp, plen,
					      plen == 64 ? runs : runs / 8);

			if (got < 0) {
				gzclose(out);
				return 1;
			}
			total += got;
		}
	gzclose(out);
	printf("record_fib: %d programs, %d runs recorded\n", index, total);
	return 0;
}
