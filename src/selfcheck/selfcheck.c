/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * bpfvet_program__selfcheck(): one verification that keeps its
 * checkpoints, then runs on random packets, each followed by a walk of
 * the verifier guided by the run (selfcheck.h). What counts as a
 * violation: a run's state outside the walk's, or outside a checkpoint
 * that would subsume the walk's state; a branch the verifier found
 * impossible; a fault of the run; the walk along the run failing a check
 * (which the verification, pruning that path, never made).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "selfcheck.h"

#define DEFAULT_RUNS 100
/* Runs are followed this far (the walk along one processes as many
 * instructions; the verifier's limit is a million); the rest of a longer
 * run (a may_goto loop runs 8 million times) is left unchecked. */
#define MAX_STEPS 200000u
#define MAX_PACKET 256

/* One run and the walk along it. */
struct run {
	const struct bpfvet_program *prog;
	const struct vet_kept *kept;
	struct interp *it;
	const struct bpfvet_verify_opts *vo;
	struct bpfvet_selfcheck_result *res;
	struct contain_stats cs;
	uint64_t seed, idx;
	const uint8_t *pkt;
	uint32_t pkt_len;
	uint32_t at;		/* the instruction being run */
	/* The run's frame that is frame 0 of the walk now followed: 0 for
	 * the main program's, the callee's for a global function's. */
	int base;
	int err;		/* a walk of a global function failed to run */
	/* bpf_loop: the instruction visited is a callback's exit, which
	 * the walk follows back to the helper call (callback_at). */
	bool cb_exit;
	uint32_t callback_at;
	/* The walk is back at the helper call after a callback, where the
	 * run is not: it is already in the next call of the callback, or
	 * after the loop. */
	bool recall;
	bool violated;		/* res->violation says it (the first one) */
	bool left;		/* the run went where nothing is compared */
	bool unsupported;
};

static void describe(struct run *r, uint32_t insn, const char *fmt, const char *why)
{
	char text[160] = "?", hex[2 * 32 + 1] = "";
	size_t n;

	r->violated = true;
	if (r->res->violations++)
		return;
	bpfvet_program__disasm(r->prog, insn, text, sizeof(text));
	for (uint32_t i = 0; i < r->pkt_len && i < 32; i++)
		snprintf(hex + 2 * i, 3, "%02x", r->pkt[i]);
	n = (size_t)snprintf(r->res->violation, sizeof(r->res->violation),
			     "run %llu of seed %llu (packet of %u bytes: %s%s), insn %u: %s: ",
			     (unsigned long long)r->idx, (unsigned long long)r->seed, r->pkt_len,
			     hex, r->pkt_len > 32 ? "..." : "", insn, text);
	if (n < sizeof(r->res->violation))
		snprintf(r->res->violation + n, sizeof(r->res->violation) - n, fmt, why);
}

/* Checkpoints the verification kept here that would subsume the walk's
 * state must contain the run's too. */
static void check_checkpoints(struct run *r, struct vet_env *env, unsigned flags)
{
	size_t n;
	const struct vstate *const *ks = kept_at(r->kept, env->insn_idx, &n);
	char why[640], msg[700];

	for (size_t i = 0; i < n && !r->violated; i++) {
		if (!states_equal(env, ks[i], env->cur, NOT_EXACT))
			continue;
		r->res->prune_checks++;
		if (!contain_state(env, ks[i], r->it, r->base, CONTAIN_CHECKPOINT | flags, &r->cs, why,
				   sizeof(why)))
			continue;
		snprintf(msg, sizeof(msg), "a checkpoint here subsumes the walk's state "
			 "but not the run's: %s", why);
		describe(r, env->insn_idx, "%s", msg);
	}
}

/* A joined walk (--explore=join): its summaries here, for the walk's call
 * chain, must hold the run's state, whatever the walk's state is (they
 * are invariants, not checkpoints that prune some paths). */
static void check_summaries(struct run *r, struct vet_env *env)
{
	size_t n, candidates = 0;
	const struct vstate *const *ks = kept_at(r->kept, env->insn_idx, &n);
	char why[640] = "", msg[700];

	for (size_t i = 0; i < n; i++) {
		if (!state_same_callsites(ks[i], env->cur))
			continue;
		candidates++;
		r->res->prune_checks++;
		if (!contain_state(env, ks[i], r->it, r->base, CONTAIN_SUMMARY, &r->cs, why,
				   sizeof(why)))
			return;
	}
	if (!candidates)
		return;
	snprintf(msg, sizeof(msg), "none of the %zu states the joined walk merged here "
		 "holds the run's (the last: %s)", candidates, why);
	describe(r, env->insn_idx, "%s", msg);
}

/* The walk at bpf_loop's call again, after a callback returned (the
 * kernel walks the next call of the callback from there, and its
 * iterations converge there): the run is in the next call already, or
 * after the loop, with the caller's frame as the walk has it here but
 * for R0-R5, which the helper keeps as its own. */
static int revisit_call(struct run *r, struct vet_env *env)
{
	char why[640];

	r->res->steps++;
	if (contain_state(env, env->cur, r->it, r->base, CONTAIN_WALK | CONTAIN_AT_CALLBACK_CALL,
			  &r->cs, why, sizeof(why))) {
		describe(r, env->insn_idx, "%s", why);
		return 1;
	}
	if (env->aux[env->insn_idx].prune_point)
		check_checkpoints(r, env, CONTAIN_AT_CALLBACK_CALL);
	return r->violated ? 1 : 0;
}

static int run_visit(void *ctx, struct vet_env *env)
{
	struct run *r = ctx;
	const struct func_state *f = env->cur->frame[env->cur->curframe];
	char why[640];

	if (r->recall) {
		r->cb_exit = false;
		return revisit_call(r, env);
	}
	r->cb_exit = env->insns[env->insn_idx].code == (BPF_JMP | BPF_EXIT) &&
		     f->in_callback_fn;
	r->callback_at = (uint32_t)f->callsite;
	if (interp_pc(r->it) != env->insn_idx) {
		snprintf(why, sizeof(why), "the run is at insn %zu", interp_pc(r->it));
		describe(r, env->insn_idx, "%s", why);
		return 1;
	}
	r->at = env->insn_idx;
	r->res->steps++;
	if (contain_state(env, env->cur, r->it, r->base, CONTAIN_WALK, &r->cs, why,
			  sizeof(why))) {
		describe(r, env->insn_idx, "%s", why);
		return 1;
	}
	if (r->kept->joined)
		check_summaries(r, env);
	else if (env->aux[env->insn_idx].prune_point)
		check_checkpoints(r, env, 0);
	return r->violated ? 1 : 0;
}

/* Helpers that call back into the program. The interpreter runs
 * bpf_loop's callbacks, which the run is followed through; the others
 * it does not run, and the run is compared up to them. */
static bool calls_back(const struct bpfvet_insn *in)
{
	return in->code == (BPF_JMP | BPF_CALL) && !in->src_reg &&
	       (helper_is_sync_callback_calling(in->imm) ||
		helper_is_async_callback_calling(in->imm));
}

/* A call of a global function: its index, or 0. The verifier checked
 * the function on its own, by its prototype, and its walk steps over the
 * call. */
static uint32_t calls_global(const struct vet_env *env, uint32_t at)
{
	const struct bpfvet_insn *in = &env->insns[at];
	int sub;

	if (!insn_is_pseudo_call(in))
		return 0;
	sub = subprog_at(env, (uint32_t)((int64_t)at + in->imm + 1));
	return sub > 0 && env->subprogs[sub].is_global ? (uint32_t)sub : 0;
}

static void judge(struct run *r, const struct vet_guide *g, const struct bpfvet_result *gres);
static bool run_fits(void *ctx, struct vet_env *env, const struct vstate *st);
static int64_t run_next(void *ctx, struct vet_env *env);

/* The run calls global function sub at insn at: the callee's steps are
 * compared with the verifier's own walk of it (from its prototype),
 * which the run guides from the function's entry to its return, the
 * callee's frame being that walk's frame 0. The status after the return
 * (or where the run stopped being followed). */
static enum interp_status follow_global(struct run *r, uint32_t sub, uint32_t at)
{
	struct vet_guide g = {
		.visit = run_visit, .next = run_next, .fits = run_fits, .ctx = r, .subprog = sub,
	};
	struct bpfvet_result gres = { .sz = sizeof(gres) };
	int depth = interp_frame_depth(r->it), base = r->base;
	bool cb_exit = r->cb_exit;
	uint32_t callback_at = r->callback_at;
	enum interp_status st = interp_step(r->it);
	char why[96];
	int err;

	if (st != INTERP_RUNNING)
		return st;
	r->base = depth + 1;
	err = verify_guided(r->prog, r->vo, &gres, &g);
	if (err)
		r->err = err;
	else if (gres.verdict == BPFVET_UNSUPPORTED)
		r->unsupported = true;
	else
		judge(r, &g, &gres);
	r->base = base;
	r->at = at;
	r->cb_exit = cb_exit;
	r->callback_at = callback_at;
	if (err || r->violated || r->unsupported || r->left)
		return INTERP_EXITED;
	st = interp_status(r->it);
	if (st == INTERP_RUNNING &&
	    (interp_frame_depth(r->it) != depth || interp_pc(r->it) != at + 1)) {
		snprintf(why, sizeof(why), "the walk of the callee ended, the run is at insn %zu",
			 interp_pc(r->it));
		describe(r, at, "%s", why);
		return INTERP_EXITED;
	}
	return st;
}

static bool run_fits(void *ctx, struct vet_env *env, const struct vstate *st)
{
	struct run *r = ctx;
	struct contain_stats cs = { 0 };
	char why[64];

	return !contain_state(env, st, r->it, r->base, CONTAIN_WALK, &cs, why, sizeof(why));
}

static int64_t run_next(void *ctx, struct vet_env *env)
{
	struct run *r = ctx;
	uint32_t tails = interp_tail_calls(r->it);
	const struct bpfvet_insn *in = &env->insns[r->at];
	uint32_t sub = calls_global(env, r->at);
	enum interp_status st;

	/* The call walked again: the run went on from the callback's exit
	 * already. */
	if (r->recall) {
		r->recall = false;
		return (int64_t)interp_pc(r->it);
	}
	/* Before 6.7 the verifier walked a callback once, as if called
	 * once, on the caller's path: a run of several calls does not map
	 * onto that. */
	if (calls_back(in) &&
	    (in->imm != HELPER_LOOP || !env_has(env, KVER_CALLBACK_ITERATION))) {
		r->left = true;
		return GUIDE_END;
	}
	st = sub ? follow_global(r, sub, r->at) : interp_step(r->it);
	/* The callee's walk said what there was to say. */
	if (sub && (r->err || r->violated || r->unsupported || r->left))
		return GUIDE_END;
	switch (st) {
	case INTERP_EXITED:
		/* LD_ABS and LD_IND past the packet end the program with 0: a
		 * way out that the verifier's path does not take. */
		if (BPF_CLASS(in->code) == BPF_LD &&
		    (BPF_MODE(in->code) == BPF_ABS || BPF_MODE(in->code) == BPF_IND))
			r->left = true;
		return GUIDE_END;
	case INTERP_FAULT:
		if (interp_steps(r->it) > MAX_STEPS)
			;	/* the step limit: followed this far */
		else if (interp_unsupported(r->it))
			r->unsupported = true;
		else
			describe(r, r->at, "the run faulted: %s", interp_fault(r->it));
		r->left = true;
		return GUIDE_END;
	default:
		break;
	}
	if (interp_tail_calls(r->it) != tails) {
		r->left = true;		/* now in another program */
		return GUIDE_END;
	}
	/* A bpf_loop callback returned: the walk goes back to the call. */
	if (r->cb_exit) {
		r->recall = true;
		return r->callback_at;
	}
	/* A global function returned: its own walk ends here. */
	if (interp_frame_depth(r->it) < r->base)
		return GUIDE_END;
	return (int64_t)interp_pc(r->it);
}

/* After the walk: what it said about the run. */
static void judge(struct run *r, const struct vet_guide *g, const struct bpfvet_result *gres)
{
	char why[400];

	if (r->violated || r->unsupported)
		return;
	if (gres->verdict == BPFVET_REJECTED && !r->left) {
		if (!strncmp(gres->error, "BPF program is too large", 24)) {
			r->left = true;
			return;
		}
		snprintf(why, sizeof(why), "the walk along this run fails (%s), a failure the "
			 "verification never met: pruning hid it", gres->error);
		describe(r, (uint32_t)interp_pc(r->it), "%s", why);
		return;
	}
	if (!g->diverged || r->left)
		return;
	if (g->diverged_to == GUIDE_END)
		snprintf(why, sizeof(why), "the run ended here, the verifier's path goes on");
	else
		snprintf(why, sizeof(why), "the run went on to insn %lld, a way the verifier "
			 "found impossible", (long long)g->diverged_to);
	describe(r, g->diverged_at, "%s", why);
}

static void walk_opts(const struct bpfvet_verify_opts *in, struct bpfvet_verify_opts *out)
{
	memset(out, 0, sizeof(*out));
	out->sz = sizeof(*out);
	out->prog_flags = OPTS_GET(in, prog_flags, 0u);
	out->drop_caps = OPTS_GET(in, drop_caps, 0u);
	out->disable = OPTS_GET(in, disable, 0ull);
	out->enable = OPTS_GET(in, enable, 0ull);
	out->fault = OPTS_GET(in, fault, (const char *)NULL);
}

/* One run: 0, or a negative errno (the interpreter refused the input:
 * -EOPNOTSUPP for the program type). */
static int one_run(struct run *r, struct interp_maps *maps, const struct bpfvet_verify_opts *vo)
{
	uint8_t pkt[MAX_PACKET];
	struct interp_input in = { .data = pkt, .seed = r->seed ^ r->idx, .max_steps = MAX_STEPS };
	struct bpfvet_result gres = { .sz = sizeof(gres) };
	struct vet_guide g = { .visit = run_visit, .next = run_next, .fits = run_fits, .ctx = r };
	char eb[160];
	int err;

	selfcheck_input(r->seed, r->idx, pkt, &in.data_size);
	r->pkt = pkt;
	r->pkt_len = in.data_size;
	err = interp_new(r->prog, maps, &in, &r->it, eb, sizeof(eb));
	if (err)
		return err;
	r->res->runs++;
	r->vo = vo;
	err = verify_guided(r->prog, vo, &gres, &g);
	if (!err)
		err = r->err;
	if (!err)
		judge(r, &g, &gres);
	if (!err && r->unsupported)
		r->res->runs_unsupported++;
	else if (!err && !r->violated && !r->left)
		r->res->runs_checked++;
	interp_free(r->it);
	r->it = NULL;
	return err;
}

static int run_all(const struct bpfvet_program *prog, const struct bpfvet_selfcheck_opts *opts,
		   const struct vet_kept *kept, struct bpfvet_selfcheck_result *res)
{
	struct bpfvet_verify_opts vo;
	struct interp_maps *maps;
	uint32_t runs = OPTS_GET(opts, runs, 0u);
	int err;

	walk_opts(OPTS_GET(opts, verify, (const struct bpfvet_verify_opts *)NULL), &vo);
	err = interp_maps_for_program(prog, &maps);
	if (err)
		return err;
	for (uint64_t i = 0; i < (runs ? runs : DEFAULT_RUNS); i++) {
		struct run r = {
			.prog = prog, .kept = kept, .res = res,
			.seed = OPTS_GET(opts, seed, 0ull), .idx = i,
		};

		err = one_run(&r, maps, &vo);
		res->unchecked += r.cs.unchecked;
		/* TEST_RUN would refuse this packet too: try the next one. */
		if (err == -EINVAL)
			continue;
		if (err)
			break;
	}
	interp_maps_free(maps);
	return err == -EINVAL ? 0 : err;
}

int bpfvet_program__selfcheck(const struct bpfvet_program *prog,
			      const struct bpfvet_selfcheck_opts *opts,
			      struct bpfvet_selfcheck_result *res)
{
	struct bpfvet_result vres = { .sz = sizeof(vres) };
	struct vet_kept *kept = NULL;
	int err;

	if (!prog || !res || res->sz < sizeof(*res))
		return -EINVAL;
	memset(res, 0, sizeof(*res));
	res->sz = sizeof(*res);
	err = verify_keep(prog, OPTS_GET(opts, verify, (const struct bpfvet_verify_opts *)NULL),
			  &vres, &kept);
	res->verdict = vres.verdict;
	snprintf(res->error, sizeof(res->error), "%s", vres.error);
	if (!err && vres.verdict == BPFVET_ACCEPTED)
		err = run_all(prog, opts, kept, res);
	kept_free(kept);
	return err;
}
