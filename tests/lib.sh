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
