# bench/run in a quick mode on a small object (4 programs): the csv columns, one row
# per program, the summary and the report. Never asserts on timings; where
# the kernel refuses BPF its columns are empty and the run still succeeds.
# Then --summarize, which measures nothing, on recorded results: an old
# run's (before --prune=max's distinct_insns and --explore=join) and
# tests/fixtures/bench/join-scale-v1272.csv, nine rows of `bench/run
# --scale-only --runs 1` at b2e2a4e against 6.18.44-fc-v1272.
. tests/lib.sh

OBJS="$PROGS/kernel_data.o"
want_progs=$("$BPFVET" verify -o csv -e prog_name $OBJS 2>/dev/null | tail -n +2 | wc -l)

# shellcheck disable=SC2086
python3 bench/run --runs 2 --bpfvet "$BPFVET" --out-dir "$TMP/res" --name quick \
	--docs "$TMP/doc/benchmarks.md" $OBJS >"$TMP/summary" 2>"$TMP/log"
rc=$?
if [ "$rc" = 0 ]; then pass bench_quick_run; else
	fail bench_quick_run "exit $rc: $(tail -n 3 "$TMP/log")"; fi

if python3 - "$TMP/res/quick.csv" "$want_progs" <<'PY'
import csv, sys
want = ("set,file,prog,prog_type,kernel_verdict,bpfvet_verdict,match,kernel_insns,"
        "bpfvet_insns,kernel_total_states,bpfvet_total_states,kernel_peak_states,"
        "bpfvet_peak_states,kernel_time_us,bpfvet_time_us,runs,kernel_times_us,"
        "bpfvet_times_us,bpfvet_mem_peak_kib,bpfvet_rss_kib,max_insns,max_peak_states,"
        "distinct_insns,stats_stable,kernel_error,bpfvet_error,join_insns,join_time_us,"
        "join_times_us,join_verdict,join_fallback,join_explore,join_error").split(",")
with open(sys.argv[1], newline="") as f:
    r = csv.reader(f)
    head = next(r)
    assert head == want, head
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert len(rows) == int(sys.argv[2]), (len(rows), sys.argv[2])
for x in rows:
    assert x["set"] == "corpus", x
    assert x["bpfvet_verdict"] in ("success", "failure"), x
    assert x["kernel_verdict"] in ("success", "failure", "refused"), x
    assert x["runs"] == "2" and len(x["bpfvet_times_us"].split(";")) == 2, x
    assert int(x["bpfvet_insns"]) > 0 and int(x["bpfvet_mem_peak_kib"]) > 0, x
    assert int(x["bpfvet_rss_kib"]) > 0, x
    if x["bpfvet_verdict"] == "success":
        # --prune=max never processes fewer instructions than there are
        # distinct ones, nor a program's accepted path fewer than one.
        assert 0 < int(x["distinct_insns"]) <= int(x["max_insns"]), x
    if x["kernel_verdict"] != "refused":
        assert x["match"] in ("yes", "no"), x
        assert int(x["kernel_insns"]) > 0 and x["kernel_time_us"] != "", x
    # --explore=join, as many timed runs as the default mode. A rejection
    # is the exact walk's, whose instructions count in join_insns.
    assert x["join_verdict"] == x["bpfvet_verdict"], x
    assert int(x["join_insns"]) > 0 and x["join_time_us"] != "", x
    assert len(x["join_times_us"].split(";")) == 2, x
    assert x["join_explore"] == "join", x
    assert x["join_fallback"] == ("yes" if x["join_verdict"] == "failure" else "no"), x
    if x["join_fallback"] == "yes":
        assert int(x["join_insns"]) > int(x["bpfvet_insns"]), x
PY
then pass bench_csv; else fail bench_csv "$(head -c 600 "$TMP/res/quick.csv")"; fi

if grep -q '^== all programs: [0-9]* programs, both accept [0-9]*' "$TMP/summary" &&
   grep -q "^kernel build: $(uname -r) " "$TMP/summary" &&
   grep -q '^  slower than the kernel: [0-9]* programs; insns or states differ' "$TMP/summary" &&
   grep -q '^== --explore=join, all programs: [0-9]* programs ([0-9]* walked joined)' "$TMP/summary" &&
   grep -q '^  kernel accepts, join mode rejects (want 0): [0-9]*' "$TMP/summary"
then pass bench_summary; else fail bench_summary "$(head -c 300 "$TMP/summary")"; fi
# A run on chosen objects leaves the per-build record alone.
if [ ! -e "$TMP/res/builds.csv" ]; then pass bench_builds_untouched; else
	fail bench_builds_untouched "$(cat "$TMP/res/builds.csv")"; fi

doc="$TMP/doc/benchmarks.md"
if grep -q '^## Acceptance figures' "$doc" && grep -q '^- machine: [0-9]* cores' "$doc" &&
   grep -q "^- kernel: Linux $(uname -r)" "$doc" && grep -q '^## How to run it' "$doc" &&
   grep -q 'pyperf600' "$doc" && grep -q '^## Where the time goes' "$doc" &&
   grep -q '^| programs whose insns or states differ from the kernel.s |' "$doc" &&
   grep -q '^## --explore=join' "$doc" &&
   grep -q '^| programs the kernel accepts that join mode rejects |' "$doc"
then pass bench_report; else fail bench_report "$(head -c 400 "$doc" 2>/dev/null)"; fi

# The run's own results summarized again: the same summary.
python3 bench/run --summarize "$TMP/res/quick.csv" >"$TMP/again" 2>"$TMP/log"
if grep -v '^kernel build: ' "$TMP/summary" >"$TMP/summary.1" &&
   grep -v '^results: ' "$TMP/again" | cmp -s - "$TMP/summary.1"; then
	pass bench_summarize_same
else
	fail bench_summarize_same "$(diff "$TMP/summary.1" "$TMP/again" | head -5)"
fi

# --no-join leaves the join columns empty: not measured.
# shellcheck disable=SC2086
python3 bench/run --runs 1 --no-rss --no-join --bpfvet "$BPFVET" --out-dir "$TMP/res" \
	--name nojoin --docs '' $OBJS >"$TMP/nojoin" 2>"$TMP/log"
if grep -qx '== --explore=join, all programs: not measured' "$TMP/nojoin" &&
   python3 - "$TMP/res/nojoin.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
assert rows and all(r[c] == "" for r in rows for c in r if c.startswith("join_")), rows
PY
then pass bench_no_join; else fail bench_no_join "$(tail -n 3 "$TMP/nojoin" "$TMP/log")"; fi

if ! command -v gnuplot >/dev/null; then
	skip bench_plots "gnuplot is missing"
elif ! grep -q ',success,success,' "$TMP/res/quick.csv"; then
	skip bench_plots "no program accepted on both sides"
elif grep -q '<svg' "$TMP/doc/benchmarks/insns.svg" && grep -q '<svg' "$TMP/doc/benchmarks/time.svg" &&
     grep -q '(benchmarks/insns.svg)' "$doc"; then
	pass bench_plots
else
	fail bench_plots "$(ls "$TMP/doc" "$TMP/doc/benchmarks" 2>&1)"
fi

expect_exit bench_bad_option 2 python3 bench/run --bogus
expect_exit bench_bad_runs 2 python3 bench/run --runs 0
expect_exit bench_missing_bpfvet 1 python3 bench/run --bpfvet "$TMP/none" "$PROGS/kernel_data.o"

# An old run's results: columns it predates are not measured; its
# figures are those recorded for it (bench/README: 0.343, max 3.09).
old=bench/results/20261203-0750-3f0809f.csv
if python3 bench/run --summarize "$old" --docs "$TMP/old/benchmarks.md" >"$TMP/old.txt" 2>"$TMP/log" &&
   grep -q '^  time             geomean 0.343  max 3.090  (1432 programs)' "$TMP/old.txt" &&
   grep -qx '== --explore=join, all programs: not measured' "$TMP/old.txt" &&
   grep -q '^Not measured: this run.s bpfvet has no .--explore=join.' "$TMP/old/benchmarks.md" &&
   grep -q "^- results: \`$old\`" "$TMP/old/benchmarks.md" &&
   grep -q '^| geomean insns ratio, --prune=max | - | <= 0.7 | not measured' "$TMP/old/benchmarks.md"
then pass bench_summarize_old; else
	fail bench_summarize_old "$(tail -n 3 "$TMP/log" "$TMP/old.txt")"; fi

# Join mode's figures from recorded results: geomeans over the six that
# the kernel and join mode accept (loop5's joined walks ran to the limit
# before the exact walk accepted it), pyperf600 accepted, a program the
# live build rejects for its type accepted by both modes of bpfvet.
fx=tests/fixtures/bench/join-scale-v1272.csv
if python3 bench/run --summarize "$fx" --docs "$TMP/fx/benchmarks.md" >"$TMP/fx.txt" 2>"$TMP/log"; then
	log_has bench_summarize_join "$TMP/fx.txt" \
		'== --explore=join, scale programs: 9 programs (8 walked joined), kernel and join mode accept 6' \
		'  insns  join / kernel geomean 0.886  max 11913.893  (6 programs; scale target <= 0.3)' \
		'  time   join / kernel geomean 0.318  max 692.971  (6 programs; scale target <= 0.2)' \
		'  pyperf600: success in 409212 insns; kernel: failure (The sequence of 8193 jumps is too complex.)' \
		'  fallbacks (joined walks reject, exact walk decides): 3' \
		'  fallbacks the exact walk accepts: 2: loop5.bpf.o/while_true, pyperf600_iter.bpf.o/on_event' \
		'  kernel accepts, join mode rejects (want 0): 0' \
		'  kernel rejects not for complexity, join mode accepts (want 0): 1 (1 of them bpfvet'"'"'s default verdict too): test_seg6_loop.bpf.o/__add_egr_x' \
		'  kernel rejects for complexity, join mode accepts: 1: pyperf600.bpf.o/on_event' \
		'       692.971  loop5.bpf.o/while_true  (94937 us, kernel 137 us)'
	log_has bench_report_join "$TMP/fx/benchmarks.md" \
		'| scale programs: geomean processed instructions, join mode / kernel | 0.886 (6 programs) | <= 0.3 | **no** |' \
		'| scale programs: geomean verification time, join mode / kernel | 0.318 (6 programs) | <= 0.2 | **no** |' \
		'| pyperf600 (the kernel: too complex) | success in 409212 insns; kernel: failure (The sequence of 8193 jumps is too complex.) | accepted | yes |' \
		'| programs the kernel accepts that join mode rejects | 0 | 0 | yes |' \
		'| loop5.bpf.o/while_true | 692.971 | 94937 | 137 | 1000767 | 84 | join | yes |'
else
	fail bench_summarize_join "$(tail -n 3 "$TMP/log")"
fi
expect_exit bench_summarize_missing 1 python3 bench/run --summarize "$TMP/none.csv"
expect_exit bench_summarize_objects 2 python3 bench/run --summarize "$fx" "$PROGS/kernel_data.o"
