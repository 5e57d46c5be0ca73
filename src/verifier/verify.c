/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * The public verification entry point: builds the environment for one
 * program, runs the kernel's pipeline (static checks, the walk of the main
 * program and of each global function, stack depth), and reports the
 * verdict, the message and the statistics.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "verifier.h"

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static bool license_is_gpl(const char *lic)
{
	static const char *const ok[] = {
		"GPL", "GPL v2", "GPL and additional rights", "Dual BSD/GPL",
		"Dual MIT/GPL", "Dual MPL/GPL",
	};

	if (!lic)
		return false;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (!strcmp(lic, ok[i]))
			return true;
	return false;
}

static void set_caps(struct vet_env *env, uint32_t drop)
{
	env->caps.net_admin = !(drop & BPFVET_CAP_NET_ADMIN);
	env->caps.sys_admin = !(drop & BPFVET_CAP_SYS_ADMIN);
	env->caps.perfmon = !(drop & BPFVET_CAP_PERFMON) || env->caps.sys_admin;
	env->caps.bpf_capable = !(drop & BPFVET_CAP_BPF) || env->caps.sys_admin;
	env->bpf_capable = env->caps.bpf_capable;
	env->allow_ptr_leaks = env->caps.perfmon;
	env->allow_uninit_stack = env->caps.perfmon;
	env->bypass_spec_v1 = env->caps.perfmon;
	env->bypass_spec_v4 = env->caps.perfmon;
}

/* bpf_token_capable: CAP_SYS_ADMIN stands in for the others. */
static bool cap_or_admin(const struct vet_env *env, bool cap)
{
	return cap || env->caps.sys_admin;
}

/*
 * The capabilities BPF_PROG_LOAD asks before the verifier runs: without
 * CAP_BPF only socket filters and cgroup skb programs load, networking
 * types want CAP_NET_ADMIN and tracing types CAP_PERFMON. The kernel
 * says EPERM with an empty log.
 */
static int check_load_caps(struct vet_env *env)
{
	uint32_t t = env->prog_type;
	bool net, perf;

	net = t == BPF_PROG_TYPE_SCHED_CLS || t == BPF_PROG_TYPE_SCHED_ACT ||
	      t == BPF_PROG_TYPE_XDP || t == BPF_PROG_TYPE_LWT_IN ||
	      t == BPF_PROG_TYPE_LWT_OUT || t == BPF_PROG_TYPE_LWT_XMIT ||
	      t == BPF_PROG_TYPE_LWT_SEG6LOCAL || t == BPF_PROG_TYPE_SK_SKB ||
	      t == BPF_PROG_TYPE_SK_MSG || t == BPF_PROG_TYPE_FLOW_DISSECTOR ||
	      t == BPF_PROG_TYPE_CGROUP_DEVICE || t == BPF_PROG_TYPE_CGROUP_SOCK ||
	      t == BPF_PROG_TYPE_CGROUP_SOCK_ADDR || t == BPF_PROG_TYPE_CGROUP_SOCKOPT ||
	      t == BPF_PROG_TYPE_CGROUP_SYSCTL || t == BPF_PROG_TYPE_SOCK_OPS ||
	      t == BPF_PROG_TYPE_EXT || t == BPF_PROG_TYPE_NETFILTER;
	perf = t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT ||
	       t == BPF_PROG_TYPE_PERF_EVENT || t == BPF_PROG_TYPE_RAW_TRACEPOINT ||
	       t == BPF_PROG_TYPE_RAW_TRACEPOINT_WRITABLE || t == BPF_PROG_TYPE_TRACING ||
	       t == BPF_PROG_TYPE_LSM || t == BPF_PROG_TYPE_STRUCT_OPS ||
	       t == BPF_PROG_TYPE_EXT;
	if ((t != BPF_PROG_TYPE_SOCKET_FILTER && t != BPF_PROG_TYPE_CGROUP_SKB &&
	     !env->bpf_capable) ||
	    (net && !cap_or_admin(env, env->caps.net_admin)) ||
	    (perf && !cap_or_admin(env, env->caps.perfmon))) {
		env->refused = "Operation not permitted";
		return -EPERM;
	}
	return 0;
}

static int env_init(struct vet_env *env, const struct bpfvet_program *prog,
		    const struct bpfvet_verify_opts *opts)
{
	const char *lic;

	memset(env, 0, sizeof(*env));
	/* The environment is the verifier's too, though malloc()ed before
	 * the counters exist; the explain trace's pointer, last, is not
	 * (mem_peak stays what it is without a trace). */
	vet_mem_init(&env->mem, offsetof(struct vet_env, trace));
	env->prog = prog;
	env->insns = prog->insns;
	env->insn_cnt = (uint32_t)prog->insn_cnt;
	env->maps = prog_maps(prog, &env->map_cnt);
	env->prog_type = prog->type;
	env->expected_attach_type = prog->expected_attach_type;
	env->prog_flags = prog->prog_flags | OPTS_GET(opts, prog_flags, 0u);
	lic = prog->obj ? prog->obj->license : prog->raw_license;
	env->gpl = license_is_gpl(lic);
	set_caps(env, OPTS_GET(opts, drop_caps, 0u));
	env->strict_alignment = (env->prog_flags & BPF_F_STRICT_ALIGNMENT) &&
				!(env->prog_flags & BPF_F_ANY_ALIGNMENT);
	env->test_state_freq = env->prog_flags & BPF_F_TEST_STATE_FREQ;
	env->test_reg_invariants = env->prog_flags & BPF_F_TEST_REG_INVARIANTS;
	env->opts_off = OPTS_GET(opts, disable, 0ull);
	/* Older callers passed the checkpoint switch with the others. */
	env->opts_on = OPTS_GET(opts, enable, 0ull) | (env->opts_off & BPFVET_CHECKPOINT_EVERY);
	env->join_mode = OPTS_GET(opts, explore, BPFVET_EXPLORE_KERNEL) == BPFVET_EXPLORE_JOIN;
	env->nr_cpu_ids = 2;
	env->cur_hist_idx = -1;
	env->prev_linfo = -1;
	log_init(&env->log, OPTS_GET(opts, log_level, 0u), OPTS_GET(opts, log_fn, NULL),
		 OPTS_GET(opts, log_ctx, NULL));
	/* Unprivileged programs are held to the classic 4096 instructions;
	 * the kernel says E2BIG before its verifier runs. */
	if (!env->insn_cnt || env->insn_cnt > COMPLEXITY_LIMIT_INSNS ||
	    (!env->bpf_capable && env->insn_cnt > UNPRIV_MAX_INSNS)) {
		env->refused = "Argument list too long";
		return -E2BIG;
	}
	/* The special fields of map values come from BTF when the kernel
	 * creates the maps, before and outside its verification time. */
	return records_init(env);
}

/* The verifier's own tables, allocated on the clock as the kernel does. */
static int env_alloc(struct vet_env *env)
{
	env->aux = vet_calloc(env, env->insn_cnt, sizeof(*env->aux));
	if (!env->aux)
		return -ENOMEM;
	return stack_live_init(env);
}

static void end_pass(struct vet_env *env);

/* Frees the checkpoints a keeping verification moved aside (verify_keep),
 * after env_free(). */
static void drop_kept(struct vet_env *env)
{
	env->keep_states = false;
	while (env->kept) {
		struct state_list *sl = env->kept;

		env->kept = sl->next;
		state_clear(env, &sl->state);
		vet_free(env, sl);
	}
	frame_pool_drain(env);
}

static void env_free(struct vet_env *env)
{
	end_pass(env);
	frame_pool_drain(env);
	stack_live_free(env);
	vet_free(env, env->bounds_memo);
	env->bounds_memo = NULL;
	vet_free(env, env->kfunc_memo);
	env->kfunc_memo = NULL;
	vet_free(env, env->postorder);
	vet_free(env, env->aux);
	records_free(env);
	log_free(&env->log);
}

/* The env and the arena its blocks came from, once nothing is left in
 * either. */
static void env_release(struct vet_env *env)
{
	vet_mem_release(&env->mem);
	free(env);
}

/* env_free(), then the kept checkpoints and the env itself. */
static void env_discard(struct vet_env *env)
{
	env_free(env);
	drop_kept(env);
	env_release(env);
}

/* Entry state of a pass: the main program (R1 = ctx) or a global
 * function verified on its own (registers from its BTF prototype). */
static int init_entry_state(struct vet_env *env, uint32_t subprog)
{
	struct vstate *st = vet_calloc(env, 1, sizeof(*st));
	struct func_state *f;

	env->segment_gen++;
	if (!st)
		return -ENOMEM;
	env->cur = st;
	f = vet_calloc(env, 1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	st->frame[0] = f;
	st->branches = 1;
	st->in_sleepable = env->prog_flags & BPF_F_SLEEPABLE;
	st->first_insn_idx = env->subprogs[subprog].start;
	frame_init(env, f, -1, 0, subprog);
	scratch_all(env);
	if (!subprog) {
		check_main_prototype(env);
		reg_mark_ptr(&f->regs[BPF_REG_1], PTR_TO_CTX);
		return 0;
	}
	return init_global_entry(env, subprog, f);
}

static void end_pass(struct vet_env *env)
{
	free_pending_paths(env);
	join_free(env);
	free_explored_states(env);
	reach_free(env);
	if (env->cur) {
		state_clear(env, env->cur);
		vet_free(env, env->cur);
		env->cur = NULL;
	}
}

/* One walk from a subprogram's entry, with fresh explored states. */
static int run_pass(struct vet_env *env, uint32_t subprog)
{
	int err;

	env->insn_idx = env->subprogs[subprog].start;
	env->prev_linfo = -1;
	err = init_explored_states(env);
	/* Before reach_init(): a joined walk drops the depth-first placements. */
	if (!err)
		err = join_init(env);
	if (!err)
		err = reach_init(env);
	if (!err)
		err = init_entry_state(env, subprog);
	trace_pass_begin(env);
	if (!err) {
		err = do_check(env);
		if (err)
			trace_walk_failed(env);
	}
	/* Without level 2 the kernel keeps only a failing path: a pass that
	 * succeeds leaves an empty log behind it (do_check_common). */
	if (!err && !(env->log.level & LOG_LEVEL2))
		log_rewind(&env->log, 0);
	return err;
}

/* Global functions are verified once each, after the main program, as
 * long as some verified code calls them. */
static int check_global_subprogs(struct vet_env *env)
{
	uint32_t new_cnt;
	int err;

	/* Nothing calls the exception callback: it is always verified. */
	if (exccb_subprog(env))
		env->subprogs[exccb_subprog(env)].called = true;
	do {
		new_cnt = 0;
		for (uint32_t i = 1; i < env->subprog_cnt; i++) {
			struct subprog_info *sp = &env->subprogs[i];

			if (!sp->is_global || !sp->called || sp->verified)
				continue;
			end_pass(env);
			if (log_enabled(&env->log) && env_has(env, KVER_LAZY_GLOBALS))
				verbose(env, "Validating %s() func#%u...\n",
					sp->name ? sp->name : "?", i);
			err = run_pass(env, i);
			if (err)
				return err;
			if (log_enabled(&env->log) && !env_has(env, KVER_MSG_SUBPROG_NAMED))
				verbose(env, "Func#%u is safe for any args that match its prototype\n",
					i);
			else if (log_enabled(&env->log))
				verbose(env, "Func#%u ('%s') is safe for any args that match its prototype\n",
					i, sp->name ? sp->name : "?");
			sp->verified = true;
			new_cnt++;
		}
	} while (new_cnt);
	return 0;
}

static void print_subprog_starts(struct vet_env *env)
{
	if (!(env->log.level & LOG_LEVEL2))
		return;
	for (uint32_t i = 0; i < env->subprog_cnt; i++)
		verbose(env, "func#%u @%u\n", i, env->subprogs[i].start);
}

static int run_static_checks(struct vet_env *env)
{
	int err;

	err = cfg_find_subprogs(env);
	if (!err)
		err = cfg_check_subprogs(env);
	if (!err)
		print_subprog_starts(env);
	if (!err)
		err = check_btf_subprogs(env);
	/* The kernel checks the attach target after the BTF info. */
	if (!err && env->prog_type == BPF_PROG_TYPE_STRUCT_OPS)
		err = struct_ops_check_member(env);
	if (!err)
		err = check_insns(env);
	if (!err)
		err = cfg_walk(env);
	if (!err)
		err = cfg_postorder(env);
	if (!err)
		cfg_propagate_pkt_changes(env);
	if (!err)
		err = compute_scc(env);
	if (!err)
		err = compute_live_registers(env);
	return err;
}

/* Before 6.8 every global function is verified, before the main
 * program, whether anything calls it or not. */
static int check_all_globals_first(struct vet_env *env)
{
	for (uint32_t i = 1; i < env->subprog_cnt; i++)
		env->subprogs[i].called = env->subprogs[i].is_global;
	return check_global_subprogs(env);
}

/*
 * Where joining does not apply, the walk is the kernel's: a guided walk
 * follows one path; speculative paths (unprivileged loads) and their masking
 * are decided per path; and without pruning nothing is compared. (The
 * program's own reasons come later: join_init().)
 */
static void join_mode_check(struct vet_env *env)
{
	if (!env->join_mode)
		return;
	if (env->guide || !env->bpf_capable || !env->bypass_spec_v1 ||
	    (env->opts_off & BPFVET_NO_PRUNE))
		env->join_mode = false;
}

static int run_walk(struct vet_env *env)
{
	int err = 0;

	/* A guided walk follows one run of the main program, or of a
	 * global function from the call to its return. */
	if (env->guide) {
		uint32_t sub = env->guide->subprog;

		if (sub && (sub >= env->subprog_cnt || !env->subprogs[sub].is_global))
			return unsupported(env, "guided walk of a function that is not global");
		return run_pass(env, sub);
	}
	if (!env_has(env, KVER_LAZY_GLOBALS) && env->prog->func_info_cnt) {
		err = check_all_globals_first(env);
		if (!err)
			end_pass(env);
	}
	if (!err)
		err = run_pass(env, 0);
	if (!err && env->prog->func_info_cnt)
		err = check_global_subprogs(env);
	if (!err)
		err = check_max_stack_depth(env);
	if (!err)
		err = sock_check_conversions(env);
	if (!err)
		err = arena_check_conversions(env);
	if (!err)
		err = check_tail_call_maps(env);
	return err;
}

/* After a successful verification the kernel rewrites each may_goto into
 * a timed loop counter kept in 16 hidden bytes of its subprogram's stack
 * (x86-64 JIT), which the printed stack depth includes. */
static uint32_t stack_depth_extra(const struct vet_env *env, uint32_t sub, int err)
{
	const struct subprog_info *sp = &env->subprogs[sub];

	if (err)
		return 0;
	for (uint32_t i = sp->start; i < sp->end; i++)
		if (env->insns[i].code == (BPF_JMP | BPF_JCOND) &&
		    env->insns[i].src_reg == BPF_MAY_GOTO)
			return 16;
	return 0;
}

static void print_stats(struct vet_env *env, uint64_t ns, int err)
{
	const struct verifier_stats *s = &env->stats;

	if (!log_enabled(&env->log))
		return;
	if (env->log.level & LOG_STATS) {
		verbose(env, "verification time %llu usec\n", (unsigned long long)(ns / 1000));
		verbose(env, "stack depth ");
		for (uint32_t i = 0; i < env->subprog_cnt; i++)
			verbose(env, "%s%u", i ? "+" : "",
				env->subprogs[i].stack_depth + stack_depth_extra(env, i, err));
		if (!err && exccb_default_added(env))
			verbose(env, "+0");
		verbose(env, "\n");
	}
	verbose(env, "processed %llu insns (limit %d) max_states_per_insn %llu total_states %llu peak_states %llu mark_read 0\n",
		(unsigned long long)s->insn_processed, COMPLEXITY_LIMIT_INSNS,
		(unsigned long long)s->max_states_per_insn,
		(unsigned long long)s->total_states, (unsigned long long)s->peak_states);
}

static uint64_t count_seen(const struct vet_env *env)
{
	uint64_t n = 0;

	for (uint32_t i = 0; env->aux && i < env->insn_cnt; i++)
		n += env->aux[i].seen;
	return n;
}

static void fill_result(const struct vet_env *env, int err, uint64_t ns,
			const char *msg, struct bpfvet_result *res)
{
	size_t sz = res->sz;

	memset(res, 0, sz < sizeof(*res) ? sz : sizeof(*res));
	res->sz = sz;
	res->err = env->refused ? -ENOEXEC : err;
	res->verdict = !err ? BPFVET_ACCEPTED :
		       env->unsupported || env->refused ? BPFVET_UNSUPPORTED : BPFVET_REJECTED;
	if (err)
		snprintf(res->error, sizeof(res->error), "%s", env->refused ? env->refused : msg);
	res->insns_processed = env->stats.insn_processed;
	res->total_states = env->stats.total_states;
	res->peak_states = env->stats.peak_states;
	res->max_states_per_insn = env->stats.max_states_per_insn;
	res->duration_ns = ns;
	if (sz >= offsetof(struct bpfvet_result, mem_peak) + sizeof(res->mem_peak))
		res->mem_peak = env->mem.peak;
	if (sz >= offsetof(struct bpfvet_result, insns_distinct) + sizeof(res->insns_distinct))
		res->insns_distinct = count_seen(env);
	res->subprog_cnt = env->subprog_cnt;
	for (uint32_t i = 0; i < env->subprog_cnt && i < 256; i++)
		res->stack_depth[i] = env->subprogs[i].stack_depth;
	if (sz < offsetof(struct bpfvet_result, join_error) + sizeof(res->join_error) ||
	    !env->join_mode)
		return;
	res->explore = BPFVET_EXPLORE_JOIN;
	res->join_verdict = res->verdict;
	res->join_insns = res->insns_processed;
	res->join_sites = env->stats.join_sites;
	res->join_arrivals = env->stats.join_arrivals;
	res->join_resumes = env->stats.join_resumes;
	snprintf(res->join_error, sizeof(res->join_error), "%s", res->error);
	res->join_loop_merges = env->stats.join_loop_joins;
	if (sz < offsetof(struct bpfvet_result, join_call_widens) + sizeof(res->join_call_widens))
		return;
	res->join_call_reuses = env->stats.join_call_reuses;
	res->join_call_widens = env->stats.join_call_widens;
}

/*
 * --explore=join: the joined walk, and when it rejects, the kernel's
 * exact walk (each is sound alone, so the program is accepted when
 * either accepts; a rejection is the exact walk's, message included).
 * The figures add up both walks: a fallback is never free.
 */
/* Another walk after a rejected one: its figures add up. */
static void add_walk(struct bpfvet_result *res, const struct bpfvet_result *prev)
{
	res->insns_processed += prev->insns_processed;
	res->duration_ns += prev->duration_ns;
	res->join_loop_merges += prev->join_loop_merges;
	res->join_call_widens += prev->join_call_widens;
	res->join_rewalk_insns = prev->join_rewalk_insns;
}

static void log_note(const struct bpfvet_verify_opts *o, const char *text)
{
	if (o->log_fn && o->log_level)
		o->log_fn(o->log_ctx, text, strlen(text));
}

/* The joined walks rejected: the kernel's exact walk decides. */
static int fall_back_exact(const struct bpfvet_program *prog, struct bpfvet_verify_opts *o,
			   struct bpfvet_result *res)
{
	struct bpfvet_result joined;
	int err;

	memcpy(&joined, res, sizeof(joined));
	o->explore = BPFVET_EXPLORE_KERNEL;
	log_note(o, "--- exact walk ---\n");
	err = verify_traced(prog, o, res, NULL);
	if (err)
		return err;
	res->exact_insns = res->insns_processed;
	add_walk(res, &joined);
	res->explore = BPFVET_EXPLORE_JOIN;
	res->fallback = true;
	res->join_verdict = joined.join_verdict;
	res->join_insns = joined.join_insns;
	res->join_sites = joined.join_sites;
	res->join_arrivals = joined.join_arrivals;
	res->join_resumes = joined.join_resumes;
	memcpy(res->join_error, joined.join_error, sizeof(res->join_error));
	return 0;
}

/*
 * --explore=join: the joined walk. When it rejects a program whose loops
 * it merged, a second joined walk takes the loops trip by trip (a merged
 * loop loses what ties a pointer to its counter). When that rejects too,
 * the kernel's exact walk decides: each walk is sound alone, so the
 * program is accepted when either accepts, and a rejection is the exact
 * walk's, message included. The figures add up every walk: a fallback is
 * never free.
 */
static int verify_join(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		       struct bpfvet_result *res)
{
	struct bpfvet_verify_opts o;
	struct bpfvet_result prev;
	size_t osz = opts->sz < sizeof(o) ? opts->sz : sizeof(o);
	int err = verify_traced(prog, opts, res, NULL);
	uint64_t coarse;

	if (err || res->sz < offsetof(struct bpfvet_result, join_error) + sizeof(res->join_error) ||
	    res->explore != BPFVET_EXPLORE_JOIN || res->verdict != BPFVET_REJECTED)
		return err;
	memset(&o, 0, sizeof(o));
	memcpy(&o, opts, osz);
	o.sz = sizeof(o);
	/* What the walk merged that may have lost a relation the program
	 * needs: the second walk goes without those (and keeps the rest).
	 * A walk out of room gains nothing from another joined walk. */
	coarse = (res->join_loop_merges ? BPFVET_NO_LOOP_WIDEN : 0) |
		 (res->join_call_widens ? BPFVET_NO_CALL_WIDEN : 0);
	if ((coarse & ~o.disable) && res->err != -E2BIG) {
		memcpy(&prev, res, sizeof(prev));
		o.disable |= coarse;
		log_note(&o, "--- joined walk, loops trip by trip ---\n");
		err = verify_traced(prog, &o, res, NULL);
		if (err)
			return err;
		add_walk(res, &prev);
		res->join_rewalk_insns = prev.insns_processed;
		res->join_insns = res->insns_processed;
		if (res->verdict != BPFVET_REJECTED)
			return 0;
	}
	if (o.disable & BPFVET_NO_FALLBACK)
		return 0;
	return fall_back_exact(prog, &o, res);
}

int bpfvet_program__verify(const struct bpfvet_program *prog,
			   const struct bpfvet_verify_opts *opts,
			   struct bpfvet_result *res)
{
	if (OPTS_GET(opts, explore, BPFVET_EXPLORE_KERNEL) == BPFVET_EXPLORE_JOIN)
		return verify_join(prog, opts, res);
	return verify_traced(prog, opts, res, NULL);
}

static int verify_with(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		       struct bpfvet_result *res, struct vet_trace *trace,
		       struct vet_guide *guide, struct vet_kept *kept);

int verify_traced(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		  struct bpfvet_result *res, struct vet_trace *trace)
{
	return verify_with(prog, opts, res, trace, NULL, NULL);
}

int verify_guided(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		  struct bpfvet_result *res, struct vet_guide *guide)
{
	if (!guide || !guide->visit || !guide->next)
		return -EINVAL;
	return verify_with(prog, opts, res, NULL, guide, NULL);
}

/* The kept checkpoints by instruction: off[i]..off[i + 1] - 1 in by_insn. */
/* Whether a kept state goes in the index: a joined walk's summaries
 * alone when there are any (checkpoints it stored where a site overflowed
 * have no such guarantee). */
static bool kept_indexed(const struct vet_kept *k, const struct state_list *sl)
{
	return !k->joined || sl->summary;
}

static int kept_index(struct vet_kept *k)
{
	const struct vet_env *env = k->env;
	uint32_t n = 0, *fill;

	for (const struct state_list *sl = env->kept; sl; sl = sl->next) {
		n++;
		k->joined |= sl->summary;
	}
	k->off = calloc(env->insn_cnt + 1, sizeof(*k->off));
	k->by_insn = calloc(n ? n : 1, sizeof(*k->by_insn));
	fill = calloc(env->insn_cnt + 1, sizeof(*fill));
	if (!k->off || !k->by_insn || !fill) {
		free(fill);
		return -ENOMEM;
	}
	for (const struct state_list *sl = env->kept; sl; sl = sl->next)
		if (kept_indexed(k, sl))
			k->off[sl->state.insn_idx + 1]++;
	for (uint32_t i = 0; i < env->insn_cnt; i++)
		k->off[i + 1] += k->off[i];
	for (const struct state_list *sl = env->kept; sl; sl = sl->next) {
		uint32_t i = sl->state.insn_idx;

		if (kept_indexed(k, sl))
			k->by_insn[k->off[i] + fill[i]++] = &sl->state;
	}
	free(fill);
	return 0;
}

int verify_keep(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		struct bpfvet_result *res, struct vet_kept **keptp)
{
	struct vet_kept *k = calloc(1, sizeof(*k));
	int err;

	*keptp = NULL;
	if (!k)
		return -ENOMEM;
	err = verify_with(prog, opts, res, NULL, NULL, k);
	/* The joined walk's summaries could not all be kept (join_free). */
	if (!err && k->env && k->env->err == -ENOMEM)
		err = -ENOMEM;
	if (!err && k->env)
		err = kept_index(k);
	if (err && err != -ENOEXEC) {
		kept_free(k);
		return err;
	}
	*keptp = k;
	return err;
}

const struct vstate *const *kept_at(const struct vet_kept *k, uint32_t insn, size_t *cnt)
{
	if (!k->env || !k->off || insn >= k->env->insn_cnt) {
		*cnt = 0;
		return NULL;
	}
	*cnt = k->off[insn + 1] - k->off[insn];
	return k->by_insn + k->off[insn];
}

void kept_free(struct vet_kept *k)
{
	if (!k)
		return;
	if (k->env) {
		drop_kept(k->env);
		env_release(k->env);
	}
	free(k->off);
	free(k->by_insn);
	free(k);
}

static int verify_with(const struct bpfvet_program *prog, const struct bpfvet_verify_opts *opts,
		       struct bpfvet_result *res, struct vet_trace *trace,
		       struct vet_guide *guide, struct vet_kept *kept)
{
	struct vet_env *env;
	char msg[sizeof(((struct vet_log *)0)->last_line)];
	enum vet_fault fault;
	uint64_t t0, ns;
	int err;

	if (!prog || !res || res->sz < offsetof(struct bpfvet_result, error))
		return -EINVAL;
	if (fault_by_name(OPTS_GET(opts, fault, NULL), &fault))
		return -EINVAL;
	if (prog->problem) {
		size_t sz = res->sz;

		memset(res, 0, sz < sizeof(*res) ? sz : sizeof(*res));
		res->sz = sz;
		res->verdict = BPFVET_UNSUPPORTED;
		res->err = -ENOEXEC;
		snprintf(res->error, sizeof(res->error), "%s", prog->problem);
		return -ENOEXEC;
	}
	env = malloc(sizeof(*env));
	if (!env)
		return -ENOMEM;
	err = env_init(env, prog, opts);
	env->trace = trace;
	env->fault = fault;
	env->guide = guide;
	env->keep_states = kept != NULL;
	/* One concrete path: nothing to prune against. */
	if (guide)
		env->opts_off |= BPFVET_NO_PRUNE;
	join_mode_check(env);
	if (!err)
		err = check_load_caps(env);
	t0 = now_ns();
	if (!err)
		err = env_alloc(env);
	if (err == -ENOMEM) {
		env_discard(env);
		return err;
	}
	/* The compiler's offsets for another kernel's types mean nothing. */
	if (!err && prog->core_pending)
		err = unsupported(env, "CO-RE relocation without target BTF");
	if (!err)
		err = btf_ctx_init(env);
	if (!err)
		err = kfunc_memo_init(env);
	if (!err)
		err = run_static_checks(env);
	if (!err)
		err = run_walk(env);
	if (env->log.oom) {
		env_discard(env);
		return -ENOMEM;
	}
	if (err == -ENOMEM && !env->unsupported) {
		env_discard(env);
		return err;
	}
	snprintf(msg, sizeof(msg), "%s", env->log.last_line);
	ns = now_ns() - t0;
	/* A load refused before the verifier runs leaves an empty log. */
	if (!env->refused)
		print_stats(env, ns, err);
	log_finish(&env->log);
	fill_result(env, err, ns, msg, res);
	trace_render(env);
	env_free(env);
	/* The kept checkpoints live in the env's memory: it goes with them. */
	if (kept)
		kept->env = env;
	else
		env_release(env);
	return 0;
}
