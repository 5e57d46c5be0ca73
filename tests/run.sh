#!/bin/sh
# Runs every unit test binary and shell test, several at a time, then
# prints "N passed, N failed, N skipped". Exits non-zero when anything
# failed or nothing passed.
#
# A test prints one line per case: "PASS name", "FAIL name: why" or
# "SKIP name: why". A skip is never a pass: it says that a precondition
# (a kernel that loads BPF, a map type, a recorded message) does not hold
# here. A test that exits non-zero without a FAIL line, or prints no
# result at all, fails.
#
# Usage: tests/run.sh [NAME...]   (default: every test; NAME as in the
#        output, e.g. test_maps or verify_corpus)
# Environment: TEST_JOBS (default: the number of CPUs).
# Each test's output is kept in build/test-out/NAME.log; the time each
# took in build/test-out/times, which orders the next run longest first.
cd "$(dirname "$0")/.." || exit 2
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
OUT=build/test-out

# run_one NAME CMD...: one test, its output to $OUT/NAME.log, then the
# whole log to stdout at once (under a lock, so logs do not interleave).
run_one() {
	name=$1; shift
	log=$OUT/$name.log
	start=$(date +%s)
	"$@" >"$log" 2>&1 </dev/null
	rc=$?
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$log"; then
		echo "FAIL $name: exited with status $rc" >>"$log"
	elif ! grep -q '^\(PASS\|FAIL\|SKIP\) ' "$log"; then
		echo "FAIL $name: printed no PASS, FAIL or SKIP line" >>"$log"
	fi
	echo "$name $(($(date +%s) - start))" >"$OUT/$name.time"
	flock "$OUT/.lock" cat "$log"
}

# The list of tests, "NAME CMD...", longest first by the last run's
# times; tests with no time yet (a fresh tree) go first, shell tests
# (the corpus-wide ones) before unit tests.
list_tests() {
	for t in build/san/tests/test_*; do
		[ -x "$t" ] && echo "$(basename "$t") $t"
	done
	for t in tests/cli/*.sh; do
		[ -f "$t" ] && echo "$(basename "$t" .sh) sh $t"
	done
}
order_tests() {
	awk 'FILENAME != "-" { secs[$1] = $2; next }
	     { w = ($1 in secs) ? secs[$1] : ($2 == "sh" ? 100000 : 10000)
	       print w "\t" $0 }' "$OUT/times" - 2>/dev/null |
		sort -t "$(printf '\t')" -k1,1nr -k2 | cut -f2-
}

if [ "${1:-}" = "--one" ]; then
	shift
	run_one "$@"
	exit 0
fi

mkdir -p "$OUT" || exit 2
: >"$OUT/.lock"
[ -f "$OUT/times" ] || : >"$OUT/times"
rm -f "$OUT"/*.log "$OUT"/*.time
jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 2)}

list_tests >"$OUT/all"
if [ $# -gt 0 ]; then
	for n in "$@"; do
		grep "^$n " "$OUT/all" || { echo "no test named $n" >&2; exit 2; }
	done >"$OUT/selected"
else
	cp "$OUT/all" "$OUT/selected"
fi
order_tests <"$OUT/selected" >"$OUT/queue"
# xargs splits each line into NAME CMD ARGS: names and paths have no
# blanks.
xargs -P "$jobs" -L 1 sh tests/run.sh --one <"$OUT/queue"

# The new times replace the old ones of the same tests.
cat "$OUT"/*.time 2>/dev/null | awk 'FILENAME == "-" { t[$1] = $2; next }
	!($1 in t) { t[$1] = $2 } END { for (n in t) print n, t[n] }' - "$OUT/times" |
	sort >"$OUT/times.new" && mv "$OUT/times.new" "$OUT/times"
cat "$OUT"/*.log >"$OUT/all.log"
passed=$(grep -c '^PASS ' "$OUT/all.log")
failed=$(grep -c '^FAIL ' "$OUT/all.log")
skipped=$(grep -c '^SKIP ' "$OUT/all.log")
if [ "$failed" -gt 0 ]; then
	echo
	echo "Failures:"
	grep '^FAIL ' "$OUT/all.log"
fi
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
