#!/bin/sh
# Runs every unit test binary and shell test, then prints
# "N passed, N failed". Exits non-zero when anything failed.
cd "$(dirname "$0")/.." || exit 2
out=$(mktemp)
trap 'rm -f "$out"' EXIT
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

run_one() {
	name=$1; shift
	"$@" >"$out.one" 2>&1
	rc=$?
	cat "$out.one"
	cat "$out.one" >>"$out"
	if [ $rc -ne 0 ] && ! grep -q '^FAIL ' "$out.one"; then
		# A crash or sanitizer report without a FAIL line still fails.
		echo "FAIL $name: exited with status $rc"
		echo "FAIL $name: exited with status $rc" >>"$out"
	fi
	rm -f "$out.one"
}

for t in build/san/tests/test_*; do
	[ -x "$t" ] || continue
	run_one "$(basename "$t")" "$t"
done
for t in tests/cli/*.sh; do
	[ -f "$t" ] || continue
	run_one "$(basename "$t" .sh)" sh "$t"
done

passed=$(grep -c '^PASS ' "$out")
failed=$(grep -c '^FAIL ' "$out")
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
