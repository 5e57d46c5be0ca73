# bench/run in a quick mode on a small object (4 programs): the csv columns, one row
# per program, the summary and the report. Never asserts on timings; where
# the kernel refuses BPF its columns are empty and the run still succeeds.
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
        "distinct_insns,stats_stable,kernel_error,bpfvet_error").split(",")
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
PY
then pass bench_csv; else fail bench_csv "$(head -c 600 "$TMP/res/quick.csv")"; fi

if grep -q '^== all programs: [0-9]* programs, both accept [0-9]*' "$TMP/summary" &&
   grep -q "^kernel build: $(uname -r) " "$TMP/summary" &&
   grep -q '^  slower than the kernel: [0-9]* programs; insns or states differ' "$TMP/summary"
then pass bench_summary; else fail bench_summary "$(head -c 300 "$TMP/summary")"; fi
# A run on chosen objects leaves the per-build record alone.
if [ ! -e "$TMP/res/builds.csv" ]; then pass bench_builds_untouched; else
	fail bench_builds_untouched "$(cat "$TMP/res/builds.csv")"; fi

doc="$TMP/doc/benchmarks.md"
if grep -q '^## Acceptance figures' "$doc" && grep -q '^- machine: [0-9]* cores' "$doc" &&
   grep -q "^- kernel: Linux $(uname -r)" "$doc" && grep -q '^## How to run it' "$doc" &&
   grep -q 'pyperf600' "$doc" && grep -q '^## Where the time goes' "$doc" &&
   grep -q '^| programs whose insns or states differ from the kernel.s |' "$doc"
then pass bench_report; else fail bench_report "$(head -c 400 "$doc" 2>/dev/null)"; fi

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
