# Shared helpers for shell tests: source it, then call pass/fail.
# Prints the same PASS/FAIL lines as the C harness.
BPFVET=${BPFVET:-build/san/bpfvet}
PROGS=${BPFVET_PROGS:-build/progs}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }

# expect_exit NAME WANT CMD...: runs CMD, checks its exit status.
expect_exit() {
	name=$1; want=$2; shift 2
	"$@" >"$TMP/out" 2>"$TMP/err"
	got=$?
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "exit $got, want $want; stderr: $(head -c 300 "$TMP/err")"
	fi
}

# need_corpus NAME: builds the selftest corpus (cached); if that fails,
# reports NAME as failed and ends the test.
need_corpus() {
	if ! scripts/build-corpus.sh >/dev/null 2>"$TMP/build.err"; then
		fail "$1" "corpus: $(tail -n 3 "$TMP/build.err")"
		exit 0
	fi
}

# check_rows PREFIX EXPECT GOT: every line of EXPECT (tab-separated, object
# and program first; '#' lines skipped) must be the line GOT has for that
# object and program. One PASS/FAIL per program.
check_rows() {
	grep -v '^#' "$2" | while IFS= read -r line; do
		prog=$(printf '%s' "$line" | cut -f2)
		got=$(awk -F'\t' -v l="$line" 'BEGIN { split(l, w, "\t") }
			$1 == w[1] && $2 == w[2]' "$3")
		if [ "$got" = "$line" ]; then
			pass "$1 $prog"
		else
			fail "$1 $prog" "got '$got', want '$line'"
		fi
	done
}

# log_has NAME LOG LINE...: LOG holds each LINE as a whole line.
log_has() {
	name=$1 log=$2
	shift 2
	for l in "$@"; do
		if ! grep -qxF -- "$l" "$log"; then
			fail "$name" "no line '$l' in: $(tail -n 5 "$log")"
			return
		fi
	done
	pass "$name"
}
