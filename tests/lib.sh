# Shared helpers for shell tests: source it, then call pass/fail/skip.
# Prints the same PASS/FAIL/SKIP lines as the C harness.
BPFVET=${BPFVET:-build/san/bpfvet}
PROGS=${BPFVET_PROGS:-build/progs}
# Tests say what they verify for: neither a BTF from the caller's
# environment nor the running kernel's (the CLI's default) may change
# their results.
export BPFVET_BTF=none
# The recorded Linux 6.18 target (tests/conformance/kernel-6.18.build),
# unpacked by `make target`. Tests verify for it, never for the running
# kernel, so that they give the same results on every machine.
TARGET_BTF=build/target-6.18/btf
TARGET_CONFIG=build/target-6.18/config
TARGET="--btf $TARGET_BTF --kconfig $TARGET_CONFIG --kernel-version 6.18.44 --nr-cpus 2 --no-syscall-wrapper"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS $1"; }
fail() { echo "FAIL $1: $2"; }
# skip NAME WHY: a precondition does not hold here; never counts as a pass.
skip() { echo "SKIP $1: $2"; }

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

# need_target NAME: the recorded target is unpacked (`make target`); if
# not, reports NAME as failed and ends the test.
need_target() {
	if [ ! -s "$TARGET_BTF" ] || [ ! -s "$TARGET_CONFIG" ]; then
		fail "$1" "no $TARGET_BTF or $TARGET_CONFIG: run make target"
		exit 0
	fi
}

# kernel_loads NAME: true when the running kernel loads a socket filter
# for us (root, bpf() allowed); otherwise prints "SKIP NAME: why" and is
# false. The precondition of every test that needs the live kernel; what
# else it needs (a map type, a recorded message) it checks itself.
kernel_loads() {
	build/bpfvet kernel --kernel-only -o csv -p rodata_known "$PROGS/kernel_data.o" \
		>"$TMP/kernel_loads" 2>&1
	if grep -q ',rodata_known,socket,socket_filter,success,' "$TMP/kernel_loads"; then
		return 0
	fi
	skip "$1" "the kernel does not load BPF programs here: $(tail -n 1 "$TMP/kernel_loads" |
		cut -c1-160)"
	return 1
}

# like_record VERSION NAME OBJECT [PROG...]: every program of OBJECT (or
# the PROGs named) verifies for the target as kernel-VERSION.csv says.
like_record() {
	v=$1 name=$2 obj=$3
	shift 3
	path=build/corpus/verifier/$obj
	[ -f "$path" ] || path=build/corpus/progs/$obj
	"$BPFVET" "$path" --target "build/target-$v" -o csv \
		-e file_name,prog_name,verdict,total_insns,error >"$TMP/got.csv" 2>/dev/null
	python3 - "tests/conformance/kernel-$v.csv" "$TMP/got.csv" "$name" "$obj" "$@" <<'PY'
import csv, sys
ref, got_csv, name, obj, progs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
got = {r['prog_name']: r for r in csv.DictReader(open(got_csv))}
rows = [k for k in csv.DictReader(open(ref)) if k['file'] == obj and (not progs or k['prog'] in progs)]
if not rows or (progs and len(rows) != len(progs)):
    print('FAIL %s: the record has %d of the programs asked for' % (name, len(rows)))
for k in rows:
    g = got.get(k['prog'], {})
    want = (k['verdict'], k['insns'], k['error'] if k['verdict'] == 'failure' else '')
    have = (g.get('verdict'), g.get('total_insns'),
            g.get('error') if g.get('verdict') == 'failure' else '')
    print(('PASS %s %s' % (name, k['prog'])) if want == have else
          'FAIL %s %s: got %s, kernel %s' % (name, k['prog'], have, want))
PY
}

# level2_as_kernel NAME OBJ FIXTURE [OPTIONS...]: bpfvet's level-2
# instruction lines for OBJ, per program, equal FIXTURE's, which holds the
# live kernel's (bpfvet kernel OBJ --kernel-only -l 2 | grep -E
# '^[0-9]+: |^Kernel log').
level2_as_kernel() {
	name=$1 obj=$2 fixture=$3
	shift 3
	# shellcheck disable=SC2086
	"$BPFVET" "$obj" -l 2 $TARGET "$@" 2>/dev/null | sed 's/^Log for /Kernel log for /' |
		grep -E '^[0-9]+: |^Kernel log' >"$TMP/level2"
	if diff "$fixture" "$TMP/level2" >"$TMP/level2.diff"; then
		pass "$name"
	else
		fail "$name" "$(head -6 "$TMP/level2.diff")"
	fi
}
