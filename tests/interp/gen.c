/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * Interpreter fixture generator (issue 21; test tooling, not part of the
 * library). Builds random programs of one family (gen_prog.c), loads each
 * into the running kernel, runs the accepted ones with BPF_PROG_TEST_RUN
 * on several random packets and contexts, and writes programs, maps and
 * runs in the format of docs/interp-fixtures.md, which
 * tests/unit/test_interp_kernel.c replays through the interpreter. The
 * runs happen in the interpreter's modelled network (model_env.h).
 *
 * Usage: interp-gen -f scalar|mem|branchy [-s seed] [-n count] [-r runs]
 *                   [-o out.txt.gz] [-v]         (needs root / CAP_BPF)
 */
#include <bpf/bpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include <zlib.h>
#include <linux/bpf.h>

#include "gen.h"
#include "model_env.h"

#define LOG_SIZE (1u << 20)
#define MAX_PKT 256
#define OUT_SIZE 4096

static const char *const family_names[] = { "scalar", "mem", "branchy" };

struct opts {
	enum gen_family fam;
	uint64_t seed;
	int count;
	int runs;
	const char *path;
	bool verbose;
};

struct stats {
	int generated, overflow, rejected, accepted, runs, run_errors;
	int by_type_gen[8], by_type_ok[8];
};

/* One run's input and output. */
struct run {
	uint8_t data[MAX_PKT];
	uint32_t data_len;
	uint8_t ctx[sizeof(struct __sk_buff)];
	uint32_t ctx_len;	/* 0: no ctx_in */
	uint8_t out[OUT_SIZE];
	uint32_t out_len;
	uint8_t ctx_out[sizeof(struct __sk_buff)];
	uint32_t retval;
};

static const char *ptype_name(enum gen_ptype t)
{
	return t == GEN_SOCKET_FILTER ? "socket_filter" :
		t == GEN_SCHED_CLS ? "sched_cls" : "xdp";
}

/* ---- Inputs -------------------------------------------------------------- */

static void fill_random(struct rng *r, uint8_t *b, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		b[i] = (uint8_t)rnd(r);
}

static void put16be(uint8_t *b, uint32_t v)
{
	b[0] = (uint8_t)(v >> 8);
	b[1] = (uint8_t)v;
}

/* An Ethernet + IPv4 + TCP or UDP header at b (len >= 34). */
static void plausible_ipv4(struct rng *r, uint8_t *b, uint32_t len)
{
	uint32_t ip_len = len - 14, l4 = pick(r, 2) ? 6 : 17;

	put16be(b + 12, 0x0800);
	b[14] = 0x45;
	b[15] = 0;
	put16be(b + 16, ip_len);
	b[22] = (uint8_t)(1 + pick(r, 128));	/* ttl */
	b[23] = (uint8_t)(pick(r, 8) ? l4 : (uint32_t)pick(r, 256));
	if (len >= 38) {	/* ports */
		put16be(b + 34, (uint32_t)(pick(r, 2) ? 1024 + pick(r, 60000) : 80));
		put16be(b + 36, (uint32_t)(pick(r, 2) ? 443 : pick(r, 65536)));
	}
}

static void gen_packet(struct rng *r, struct run *run, uint32_t min_len)
{
	uint32_t len = 14 + (uint32_t)pick(r, MAX_PKT - 14 + 1);
	uint16_t et;

	if (len < min_len)
		len = min_len;
	run->data_len = len;
	fill_random(r, run->data, len);
	if (pick(r, 4) == 0)
		memset(run->data, 0xff, 6);	/* broadcast */
	else if (pick(r, 3) == 0)
		run->data[0] &= 0xfe;		/* unicast */
	if (len >= 34 + min_len && pick(r, 2)) {
		plausible_ipv4(r, run->data + (min_len > 14 ? min_len - 14 : 0),
			       len - (min_len > 14 ? min_len - 14 : 0));
		return;
	}
	/* No IP: the kernel wants a whole IP header behind 0x0800 and
	 * 0x86dd, and random bytes rarely are one. */
	et = (uint16_t)(run->data[12] << 8 | run->data[13]);
	if (et == 0x0800 || et == 0x86dd)
		run->data[13] ^= 1;
}

static void put32(uint8_t *b, size_t off, uint32_t v)
{
	memcpy(b + off, &v, 4);
}

static void put64(uint8_t *b, size_t off, uint64_t v)
{
	memcpy(b + off, &v, 8);
}

/* A struct __sk_buff with only the fields test_run accepts in ctx_in. */
static void gen_skb_ctx(struct rng *r, struct run *run)
{
	uint8_t *c = run->ctx;
	int i;

	memset(c, 0, sizeof(run->ctx));
	run->ctx_len = sizeof(struct __sk_buff);
	if (pick(r, 2))
		put32(c, offsetof(struct __sk_buff, mark), (uint32_t)rnd(r));
	if (pick(r, 2))
		put32(c, offsetof(struct __sk_buff, priority), (uint32_t)rnd(r));
	if (pick(r, 3) == 0)
		put32(c, offsetof(struct __sk_buff, ingress_ifindex),
		      (uint32_t)pick(r, 100));
	if (pick(r, 3) == 0)
		put32(c, offsetof(struct __sk_buff, ifindex), 1);
	for (i = 0; i < 5; i++)
		if (pick(r, 2))
			put32(c, offsetof(struct __sk_buff, cb[i]), (uint32_t)rnd(r));
	if (pick(r, 3) == 0)
		put64(c, offsetof(struct __sk_buff, tstamp), rnd(r) >> pick(r, 64));
	if (pick(r, 3) == 0)
		put32(c, offsetof(struct __sk_buff, wire_len),
		      run->data_len + (uint32_t)pick(r, 1000));
	if (pick(r, 3) == 0)
		put32(c, offsetof(struct __sk_buff, gso_segs), (uint32_t)pick(r, 65536));
	if (pick(r, 3) == 0)
		put32(c, offsetof(struct __sk_buff, gso_size), (uint32_t)pick(r, 65536));
	if (pick(r, 3) == 0)
		put64(c, offsetof(struct __sk_buff, hwtstamp), rnd(r));
}

static void gen_input(struct rng *r, enum gen_ptype type, struct run *run)
{
	uint32_t meta = 0;

	run->ctx_len = 0;
	if (type == GEN_XDP) {
		bool with_ctx = pick(r, 2);

		if (with_ctx && pick(r, 2))
			meta = 4 * (uint32_t)(1 + pick(r, 8));
		gen_packet(r, run, 14 + meta);
		if (with_ctx) {
			memset(run->ctx, 0, sizeof(struct xdp_md));
			run->ctx_len = sizeof(struct xdp_md);
			put32(run->ctx, offsetof(struct xdp_md, data), meta);
			put32(run->ctx, offsetof(struct xdp_md, data_end),
			      run->data_len);
		}
		return;
	}
	gen_packet(r, run, 14);
	if (pick(r, 5))
		gen_skb_ctx(r, run);
}

/* ---- Kernel ---------------------------------------------------------------- */

static int create_maps(const struct gen_prog *p, int *fds)
{
	int i;

	for (i = 0; i < p->nmaps; i++) {
		fds[i] = bpf_map_create(p->map[i].type, NULL, p->map[i].key_size,
					p->map[i].value_size,
					p->map[i].max_entries, NULL);
		if (fds[i] < 0) {
			int err = -errno;

			while (i-- > 0)
				close(fds[i]);
			return err;
		}
	}
	return 0;
}

/* The verifier's reason: the last line of its log before the
 * "processed N insns" statistics. */
static const char *last_line(char *log)
{
	char *s = strstr(log, "\nprocessed ");

	if (s)
		*s = '\0';
	s = strrchr(log, '\n');
	return s ? s + 1 : log;
}

/* Loads p with the map fds patched in; returns the fd or -errno. */
static int load(const struct gen_prog *p, const int *fds, char *log,
		bool verbose)
{
	struct gen_insn insn[GEN_MAX_INSNS];
	LIBBPF_OPTS(bpf_prog_load_opts, lo, .log_buf = log,
		    .log_size = LOG_SIZE, .log_level = 1);
	int i, fd;

	memcpy(insn, p->insn, sizeof(insn[0]) * (size_t)p->len);
	for (i = 0; i < p->len; i++)
		if (insn[i].code == (BPF_LD | BPF_IMM | BPF_DW) &&
		    (insn[i].regs >> 4) == BPF_PSEUDO_MAP_FD)
			insn[i].imm = fds[insn[i].imm];
	log[0] = '\0';
	fd = bpf_prog_load((enum bpf_prog_type)p->type, NULL, "GPL",
			   (const struct bpf_insn *)insn, (size_t)p->len, &lo);
	if (fd < 0) {
		fd = -errno;
		if (verbose)
			fprintf(stderr, "gen: rejected (%d): %s\n", fd, last_line(log));
	}
	return fd;
}

static int test_run(int fd, struct run *run)
{
	LIBBPF_OPTS(bpf_test_run_opts, o, .repeat = 1);
	int err;

	o.data_in = run->data;
	o.data_size_in = run->data_len;
	o.data_out = run->out;
	o.data_size_out = sizeof(run->out);
	if (run->ctx_len) {
		o.ctx_in = run->ctx;
		o.ctx_size_in = run->ctx_len;
		o.ctx_out = run->ctx_out;
		o.ctx_size_out = run->ctx_len;
	}
	err = bpf_prog_test_run_opts(fd, &o);
	if (err)
		return -errno;
	run->out_len = o.data_size_out;
	run->retval = o.retval;
	return 0;
}

/* ---- Records ---------------------------------------------------------------- */

static void put_hex(gzFile out, const uint8_t *b, uint32_t n)
{
	static const char digits[] = "0123456789abcdef";
	char buf[2 * OUT_SIZE + 1];
	uint32_t i;

	if (!n) {
		gzputs(out, "-");
		return;
	}
	for (i = 0; i < n; i++) {
		buf[2 * i] = digits[b[i] >> 4];
		buf[2 * i + 1] = digits[b[i] & 15];
	}
	buf[2 * n] = '\0';
	gzputs(out, buf);
}

static void write_prog(gzFile out, int idx, const struct gen_prog *p)
{
	int i;

	gzprintf(out, "p %d %s\n", idx, ptype_name(p->type));
	for (i = 0; i < p->nmaps; i++)
		gzprintf(out, "m %u %u %u %u\n", p->map[i].type,
			 p->map[i].key_size, p->map[i].value_size,
			 p->map[i].max_entries);
	gzputs(out, "c ");
	put_hex(out, (const uint8_t *)p->insn, (uint32_t)(8 * p->len));
	gzputs(out, "\n");
}

static void write_run(gzFile out, const struct run *run)
{
	gzputs(out, "r ");
	put_hex(out, run->data, run->data_len);
	gzputs(out, " ");
	put_hex(out, run->ctx, run->ctx_len);
	gzprintf(out, " %u ", run->retval);
	put_hex(out, run->out, run->out_len);
	gzputs(out, " ");
	put_hex(out, run->ctx_out, run->ctx_len);
	gzputs(out, "\n");
}

/* ---- Main ---------------------------------------------------------------------- */

/* Loads and runs program idx; writes it when the kernel accepted it.
 * Returns 0, or -errno when the kernel cannot be used at all. */
static int do_program(const struct opts *o, int idx, gzFile out, char *log,
		      struct stats *st)
{
	struct rng r = { o->seed * 0x100000001b3ULL + (uint64_t)idx +
			 ((uint64_t)o->fam << 40) };
	struct gen_prog *p = malloc(sizeof(*p));
	int fds[GEN_MAX_MAPS], fd, i, err, nruns;
	struct run run;

	if (!p)
		return -ENOMEM;
	gen_program(&r, o->fam, p);
	st->generated++;
	st->by_type_gen[p->type]++;
	if (p->overflow) {
		st->overflow++;
		free(p);
		return 0;
	}
	err = create_maps(p, fds);
	if (err) {
		free(p);
		return err;
	}
	fd = load(p, fds, log, o->verbose);
	if (fd == -EPERM) {
		err = fd;
		goto out_maps;
	}
	if (fd < 0) {
		st->rejected++;
		goto out_maps;
	}
	st->accepted++;
	st->by_type_ok[p->type]++;
	write_prog(out, idx, p);
	nruns = o->runs;
	for (i = 0; i < nruns; i++) {
		memset(&run, 0, sizeof(run));
		gen_input(&r, p->type, &run);
		err = test_run(fd, &run);
		if (err) {
			st->run_errors++;
			if (o->verbose)
				fprintf(stderr, "gen: program %d run %d: test_run %d\n",
					idx, i, err);
			continue;
		}
		st->runs++;
		write_run(out, &run);
	}
	gzputs(out, ".\n");
	err = 0;
	close(fd);
out_maps:
	for (i = 0; i < p->nmaps; i++)
		close(fds[i]);
	free(p);
	return err;
}

static int parse_args(int argc, char **argv, struct opts *o)
{
	int opt, i;

	*o = (struct opts){ .fam = FAM_SCALAR, .seed = 1, .count = 100,
			    .runs = 4, .path = NULL };
	while ((opt = getopt(argc, argv, "f:s:n:r:o:v")) != -1) {
		switch (opt) {
		case 'f':
			for (i = 0; i < 3 && strcmp(optarg, family_names[i]); i++)
				;
			if (i == 3)
				return -1;
			o->fam = (enum gen_family)i;
			break;
		case 's':
			o->seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			o->count = atoi(optarg);
			break;
		case 'r':
			o->runs = atoi(optarg);
			break;
		case 'o':
			o->path = optarg;
			break;
		case 'v':
			o->verbose = true;
			break;
		default:
			return -1;
		}
	}
	return o->path && o->count > 0 && o->runs > 0 ? 0 : -1;
}

static void report(const struct opts *o, const struct stats *st)
{
	static const enum gen_ptype types[] = {
		GEN_SOCKET_FILTER, GEN_SCHED_CLS, GEN_XDP,
	};
	int i;

	fprintf(stderr, "gen: %s seed %llu: %d generated, %d too long, %d rejected, "
		"%d accepted (%.1f%%), %d runs, %d run errors -> %s\n",
		family_names[o->fam], (unsigned long long)o->seed,
		st->generated, st->overflow, st->rejected, st->accepted,
		st->generated ? 100.0 * st->accepted / st->generated : 0.0,
		st->runs, st->run_errors, o->path);
	for (i = 0; i < 3; i++)
		fprintf(stderr, "gen:   %s %d/%d accepted\n", ptype_name(types[i]),
			st->by_type_ok[types[i]], st->by_type_gen[types[i]]);
}

int main(int argc, char **argv)
{
	struct stats st = { 0 };
	struct utsname u;
	struct opts o;
	gzFile out;
	char *log, why[256];
	int i, err = 0;

	if (parse_args(argc, argv, &o)) {
		fprintf(stderr, "usage: %s -f scalar|mem|branchy -o out.txt.gz "
			"[-s seed] [-n count] [-r runs] [-v]\n", argv[0]);
		return 2;
	}
	if (enter_model_env(why, sizeof(why))) {
		fprintf(stderr, "gen: %s\n", why);
		return 2;
	}
	log = malloc(LOG_SIZE);
	out = gzopen(o.path, "wb9");
	if (!log || !out) {
		fprintf(stderr, "gen: cannot open %s\n", o.path);
		free(log);
		return 1;
	}
	uname(&u);
	gzprintf(out, "# %s %s\n", u.release, u.version);
	gzprintf(out, "# tests/interp/gen.c -f %s -s %llu -n %d -r %d\n",
		 family_names[o.fam], (unsigned long long)o.seed, o.count, o.runs);
	for (i = 0; i < o.count && !err; i++)
		err = do_program(&o, i, out, log, &st);
	gzclose(out);
	free(log);
	if (err) {
		fprintf(stderr, "gen: %s\n", strerror(-err));
		return 1;
	}
	report(&o, &st);
	return st.accepted ? 0 : 1;
}
