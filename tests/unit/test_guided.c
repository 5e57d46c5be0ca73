/* SPDX-License-Identifier: BSD-2-Clause */
/* The guided walk (src/state/guide.h, verify_guided): the verifier along
 * one concrete path, told where the run goes by a guide. Here the guide
 * replays a path written by hand; bpfvet selfcheck's guide is the
 * interpreter. */
#include <errno.h>
#include <string.h>

#include "verifier/verifier.h"
#include "test.h"

#define INSN(c, d, s, o, i) ((struct bpfvet_insn){ .code = (c), .dst_reg = (d), \
						   .src_reg = (s), .off = (o), .imm = (i) })
#define MOV(d, v) INSN(BPF_ALU64 | BPF_MOV | BPF_K, d, 0, 0, v)
#define ADD(d, v) INSN(BPF_ALU64 | BPF_ADD | BPF_K, d, 0, 0, v)
#define JGT(d, v, o) INSN(BPF_JMP | BPF_JGT | BPF_K, d, 0, o, v)
#define JLT(d, v, o) INSN(BPF_JMP | BPF_JLT | BPF_K, d, 0, o, v)
#define LDX64(d, s, o) INSN(BPF_LDX | BPF_MEM | BPF_DW, d, s, o, 0)
#define CALL(id) INSN(BPF_JMP | BPF_CALL, 0, 0, 0, id)
#define EXIT INSN(BPF_JMP | BPF_EXIT, 0, 0, 0, 0)
#define PRANDOM 7	/* bpf_get_prandom_u32 */

/* Replays path[]: records each visited instruction and one register's
 * unsigned bounds there, and stops at stop_at. */
struct replay {
	const int64_t *path;
	size_t len, pos;
	int reg;
	uint32_t seen[32];
	uint64_t umin[32], umax[32];
	size_t seen_cnt;
	int64_t stop_at;
};

static int replay_visit(void *ctx, struct vet_env *env)
{
	struct replay *r = ctx;
	const struct reg_state *reg = &cur_regs(env)[r->reg];

	if (r->seen_cnt < 32) {
		r->seen[r->seen_cnt] = env->insn_idx;
		r->umin[r->seen_cnt] = reg->b.umin;
		r->umax[r->seen_cnt] = reg->b.umax;
		r->seen_cnt++;
	}
	return (int64_t)env->insn_idx == r->stop_at ? 1 : 0;
}

static int64_t replay_next(void *ctx, struct vet_env *env)
{
	struct replay *r = ctx;

	(void)env;
	if (++r->pos >= r->len)
		return GUIDE_END;
	return r->path[r->pos];
}

static struct bpfvet_program *raw(const struct bpfvet_insn *insns, size_t n)
{
	struct bpfvet_raw_opts o = {
		.sz = sizeof(o), .name = "guided", .prog_type = BPF_PROG_TYPE_SOCKET_FILTER,
		.insns = insns, .insn_cnt = n,
	};
	struct bpfvet_program *p = NULL;

	return bpfvet_program__from_insns(&o, &p) ? NULL : p;
}

static int walk(struct bpfvet_program *p, struct replay *r, struct vet_guide *g,
		struct bpfvet_result *res)
{
	struct bpfvet_verify_opts vo = { .sz = sizeof(vo) };

	memset(g, 0, sizeof(*g));
	g->visit = replay_visit;
	g->next = replay_next;
	g->ctx = r;
	memset(res, 0, sizeof(*res));
	res->sz = sizeof(*res);
	return verify_guided(p, &vo, res, g);
}

/* 0: r0 = random; 1: if r0 > 10 goto 4; 2: r0 = 1; 3: exit; 4: r0 = 2;
 * 5: exit. Each path is walked alone, with the branch's refinement. */
static const struct bpfvet_insn branchy[] = {
	CALL(PRANDOM), JGT(0, 10, 2), MOV(0, 1), EXIT, MOV(0, 2), EXIT,
};

static void test_paths(struct test_ctx *t)
{
	static const int64_t taken[] = { 0, 1, 4, 5 }, fall[] = { 0, 1, 2, 3 };
	struct bpfvet_program *p = raw(branchy, 6);
	struct replay r = { .path = taken, .len = 4, .reg = 0, .stop_at = -1 };
	struct bpfvet_result res;
	struct vet_guide g;

	if (!p)
		return;
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_ACCEPTED);
	CHECK(t, !g.diverged && !g.stopped);
	CHECK_INT(t, g.steps, 4);
	CHECK_INT(t, r.seen_cnt, 4);
	CHECK(t, r.seen[2] == 4 && r.seen[3] == 5);
	/* Before insn 4, on the taken side: r0 > 10. */
	CHECK_INT(t, r.umin[2], 11);
	CHECK(t, r.umax[2] == UINT64_MAX);	/* the helper returns any u64 */
	/* The walk processed this path only. */
	CHECK_INT(t, res.insns_processed, 4);

	r = (struct replay){ .path = fall, .len = 4, .reg = 0, .stop_at = -1 };
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK(t, !g.diverged && r.seen_cnt == 4 && r.seen[2] == 2);
	CHECK_INT(t, r.umax[2], 10);
	bpfvet_program__free(p);
}

/* The verifier knows r0 = 5 never exceeds 10: a run said to jump left
 * its paths, and the walk says where. */
static void test_diverged(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = {
		MOV(0, 5), JGT(0, 10, 2), MOV(0, 1), EXIT, MOV(0, 2), EXIT,
	};
	static const int64_t path[] = { 0, 1, 4, 5 };
	struct bpfvet_program *p = raw(insns, 6);
	struct replay r = { .path = path, .len = 4, .reg = 0, .stop_at = -1 };
	struct bpfvet_result res;
	struct vet_guide g;

	if (!p)
		return;
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK(t, g.diverged);
	CHECK_INT(t, g.diverged_at, 1);
	CHECK_INT(t, g.diverged_to, 4);
	CHECK_INT(t, g.steps, 2);
	bpfvet_program__free(p);
}

/* A guide may stop the walk; and a run that ends where the verifier's
 * path goes on left it too. */
static void test_stop_and_end(struct test_ctx *t)
{
	static const int64_t taken[] = { 0, 1, 4, 5 }, short_run[] = { 0, 1 };
	struct bpfvet_program *p = raw(branchy, 6);
	struct replay r = { .path = taken, .len = 4, .reg = 0, .stop_at = 1 };
	struct bpfvet_result res;
	struct vet_guide g;

	if (!p)
		return;
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK(t, g.stopped && !g.diverged);
	CHECK_INT(t, g.steps, 2);
	r = (struct replay){ .path = short_run, .len = 2, .reg = 0, .stop_at = -1 };
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK(t, g.diverged);
	CHECK_INT(t, g.diverged_at, 1);
	CHECK_INT(t, g.diverged_to, GUIDE_END);
	bpfvet_program__free(p);
}

/* A bounded loop is walked iteration by iteration, as the run goes:
 * 0: r1 = 0; 1: r1 += 1; 2: if r1 < 3 goto 1; 3: r0 = 0; 4: exit. */
static void test_loop(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = {
		MOV(1, 0), ADD(1, 1), JLT(1, 3, -2), MOV(0, 0), EXIT,
	};
	static const int64_t path[] = { 0, 1, 2, 1, 2, 1, 2, 3, 4 };
	struct bpfvet_program *p = raw(insns, 5);
	struct replay r = { .path = path, .len = 9, .reg = 1, .stop_at = -1 };
	struct bpfvet_result res;
	struct vet_guide g;

	if (!p)
		return;
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_ACCEPTED);
	CHECK(t, !g.diverged);
	CHECK_INT(t, r.seen_cnt, 9);
	/* r1 before each "if r1 < 3": 1, 2, 3. */
	CHECK(t, r.umin[2] == 1 && r.umax[2] == 1);
	CHECK(t, r.umin[4] == 2 && r.umax[4] == 2);
	CHECK(t, r.umin[6] == 3 && r.umax[6] == 3);
	bpfvet_program__free(p);
}

/* One path is safe, the other reads a register never written: each walk
 * has the verdict of its own path. */
static void test_verdict_per_path(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = {
		CALL(PRANDOM), JGT(0, 10, 2), MOV(0, 1), EXIT, LDX64(0, 2, 0), EXIT,
	};
	static const int64_t bad[] = { 0, 1, 4, 5 }, good[] = { 0, 1, 2, 3 };
	struct bpfvet_program *p = raw(insns, 6);
	struct replay r = { .path = good, .len = 4, .reg = 0, .stop_at = -1 };
	struct bpfvet_result res;
	struct vet_guide g;

	if (!p)
		return;
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_ACCEPTED);
	r = (struct replay){ .path = bad, .len = 4, .reg = 0, .stop_at = -1 };
	CHECK_INT(t, walk(p, &r, &g, &res), 0);
	CHECK_INT(t, res.verdict, BPFVET_REJECTED);
	CHECK_STR(t, res.error, "R2 !read_ok");
	bpfvet_program__free(p);
}

/* Two paths join at 15 with r1 = 0 (the first walked) and r1 = 8, and
 * r1 is a stack offset there: fp-8 is fine, fp+0 is not.
 *  0: r0 = random; 1: r7 = r0; 2: if r7 > 10 goto 14; 3: r1 = 0;
 *  4..11: r3 = 1, r3 += 1 x7; 12: if r3 == 0 goto 19; 13: goto 15;
 * 14: r1 = 8; 15: r2 = r10; 16: r2 += -8; 17: r2 += r1;
 * 18: r0 = *(u64 *)(r2 + 0); 19: r0 = 0; 20: exit. */
#define JSET(d, v, o) INSN(BPF_JMP | BPF_JEQ | BPF_K, d, 0, o, v)
#define JA(o) INSN(BPF_JMP | BPF_JA, 0, 0, o, 0)
#define MOVX(d, s) INSN(BPF_ALU64 | BPF_MOV | BPF_X, d, s, 0, 0)
#define ADDX(d, s) INSN(BPF_ALU64 | BPF_ADD | BPF_X, d, s, 0, 0)
static const struct bpfvet_insn joined[] = {
	CALL(PRANDOM), MOVX(7, 0), JGT(7, 10, 11), MOV(1, 0), MOV(3, 1),
	ADD(3, 1), ADD(3, 1), ADD(3, 1), ADD(3, 1), ADD(3, 1), ADD(3, 1), ADD(3, 1),
	JSET(3, 0, 6), JA(1), MOV(1, 8), MOVX(2, 10), ADD(2, -8), ADDX(2, 1),
	LDX64(0, 2, 0), MOV(0, 0), EXIT,
};

/* At the join, asks whether the checkpoint of the r1 = 0 path subsumes
 * the walk's state. (A rejected program also keeps the checkpoint its
 * failing path stored there, with r1 = 8.) */
struct join_check {
	struct replay r;
	const struct vet_kept *kept;
	int kept_there, subsumed;
};

static int join_check_visit(void *ctx, struct vet_env *env)
{
	struct join_check *c = ctx;
	const struct vstate *const *ks;
	size_t n;

	if (env->insn_idx == 15) {
		ks = kept_at(c->kept, 15, &n);
		c->kept_there = (int)n;
		for (size_t i = 0; i < n; i++) {
			const struct reg_state *r1 = &ks[i]->frame[0]->regs[1];

			if (r1->type == SCALAR_VALUE && tnum_is_const(r1->b.var_off) &&
			    !r1->b.var_off.value)
				c->subsumed += states_equal(env, ks[i], env->cur, NOT_EXACT);
		}
	}
	return replay_visit(&c->r, env);
}

static int64_t join_check_next(void *ctx, struct vet_env *env)
{
	return replay_next(&((struct join_check *)ctx)->r, env);
}

/* Without faults the checkpoint at the join (r1 = 0, precise) does not
 * subsume r1 = 8, and the program is rejected; with regsafe-scalar it
 * does, the verification accepts, and the guided walk of the r1 = 8 run
 * still fails at the read: what bpfvet selfcheck reports. */
static void test_kept_checkpoints(struct test_ctx *t)
{
	static const int64_t path[] = { 0, 1, 2, 14, 15, 16, 17, 18, 19, 20 };
	struct bpfvet_program *p = raw(joined, sizeof(joined) / sizeof(joined[0]));

	if (!p)
		return;
	for (int faulty = 0; faulty < 2; faulty++) {
		struct bpfvet_verify_opts vo = {
			.sz = sizeof(vo), .prog_flags = BPF_F_TEST_STATE_FREQ,
			.fault = faulty ? "regsafe-scalar" : NULL,
		};
		struct bpfvet_result res = { .sz = sizeof(res) };
		struct join_check c = { .r = { .path = path, .len = 10, .stop_at = -1 } };
		struct vet_guide g = { .visit = join_check_visit, .next = join_check_next,
				       .ctx = &c };
		struct vet_kept *k = NULL;

		CHECK_INT(t, verify_keep(p, &vo, &res, &k), 0);
		if (!k)
			break;
		CHECK_INT(t, res.verdict, faulty ? BPFVET_ACCEPTED : BPFVET_REJECTED);
		c.kept = k;
		memset(&res, 0, sizeof(res));
		res.sz = sizeof(res);
		CHECK_INT(t, verify_guided(p, &vo, &res, &g), 0);
		CHECK_MSG(t, c.kept_there >= 1, "faulty %d: %d checkpoints at 15", faulty,
			  c.kept_there);
		CHECK_INT(t, c.subsumed > 0, faulty);
		CHECK_INT(t, res.verdict, BPFVET_REJECTED);
		CHECK_STR(t, res.error, "invalid read from stack R2 off=0 size=8");
		kept_free(k);
	}
	bpfvet_program__free(p);
}

static void test_needs_guide(struct test_ctx *t)
{
	struct bpfvet_program *p = raw(branchy, 6);
	struct bpfvet_result res = { .sz = sizeof(res) };
	struct vet_guide g = { 0 };

	if (!p)
		return;
	CHECK_INT(t, verify_guided(p, NULL, &res, NULL), -EINVAL);
	CHECK_INT(t, verify_guided(p, NULL, &res, &g), -EINVAL);
	bpfvet_program__free(p);
}

/* A global function's own walk (guide->subprog): from its prototype's
 * entry state, its instructions only; tests/progs/selfcheck_calls.c's
 * sc_add8, (x & 3) + 7, at insns 5-8 of sc_fault. With bounds-add the
 * walk holds the sum to the operand's 0..3, which selfcheck finds. */
static void test_global_walk(struct test_ctx *t)
{
	static const int64_t path[] = { 5, 6, 7, 8 };
	struct bpfvet_object *obj = NULL;
	struct bpfvet_program *p;
	char objpath[256];

	if (bpfvet_object__open(test_prog_path(objpath, sizeof(objpath), "selfcheck_calls"), NULL,
				&obj)) {
		CHECK_MSG(t, false, "cannot open selfcheck_calls.o");
		return;
	}
	p = bpfvet_object__prog(obj, 1);
	CHECK(t, p && !strcmp(bpfvet_program__name(p), "sc_fault"));
	for (int faulty = 0; p && faulty < 2; faulty++) {
		struct bpfvet_verify_opts vo = {
			.sz = sizeof(vo), .fault = faulty ? "bounds-add" : NULL,
		};
		struct replay r = { .path = path, .len = 4, .reg = 0, .stop_at = -1 };
		struct vet_guide g = { .visit = replay_visit, .next = replay_next, .ctx = &r,
				       .subprog = 1 };
		struct bpfvet_result res = { .sz = sizeof(res) };

		CHECK_INT(t, verify_guided(p, &vo, &res, &g), 0);
		CHECK_INT(t, res.verdict, BPFVET_ACCEPTED);
		CHECK(t, !g.diverged && !g.stopped);
		CHECK_INT(t, g.steps, 4);
		CHECK_INT(t, r.seen_cnt, 4);
		CHECK_INT(t, r.seen[0], 5);
		/* Before the exit: r0 = (x & 3) + 7. */
		CHECK_INT(t, r.umin[3], faulty ? 0 : 7);
		CHECK_INT(t, r.umax[3], faulty ? 3 : 10);
	}
	bpfvet_object__close(obj);
}

/* A static function has no walk of its own. */
static void test_static_walk(struct test_ctx *t)
{
	static const struct bpfvet_insn insns[] = {
		INSN(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 1), EXIT, MOV(0, 0), EXIT,
	};
	static const int64_t path[] = { 2, 3 };
	struct bpfvet_program *p = raw(insns, 4);
	struct replay r = { .path = path, .len = 2, .reg = 0, .stop_at = -1 };
	struct vet_guide g = { .visit = replay_visit, .next = replay_next, .ctx = &r, .subprog = 1 };
	struct bpfvet_result res = { .sz = sizeof(res) };

	if (!p)
		return;
	CHECK_INT(t, verify_guided(p, NULL, &res, &g), 0);
	CHECK_INT(t, res.verdict, BPFVET_UNSUPPORTED);
	CHECK_INT(t, g.steps, 0);
	g = (struct vet_guide){ .visit = replay_visit, .next = replay_next, .ctx = &r,
				.subprog = 7 };
	CHECK_INT(t, verify_guided(p, NULL, &res, &g), 0);
	CHECK_INT(t, res.verdict, BPFVET_UNSUPPORTED);
	bpfvet_program__free(p);
}

int main(void)
{
	struct test_ctx t = { 0 };

	RUN(&t, test_paths);
	RUN(&t, test_diverged);
	RUN(&t, test_stop_and_end);
	RUN(&t, test_loop);
	RUN(&t, test_verdict_per_path);
	RUN(&t, test_kept_checkpoints);
	RUN(&t, test_needs_guide);
	RUN(&t, test_global_walk);
	RUN(&t, test_static_walk);
	return test_finish(&t);
}
