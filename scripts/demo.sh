#!/bin/sh
# `make demo`: verifies each example (examples/*.bpf.c) with bpfvet and
# says what the Linux kernel said of it (tests/fixtures/examples/
# kernel.tsv, recorded from a live 6.18 kernel). A rejected program shows
# the end of its verifier log, the kernel's error lines.
# Usage: scripts/demo.sh [OBJ...]   (default: build/examples/*.bpf.o)
# BPFVET: the bpfvet binary (default build/bpfvet). Exits non-zero when
# bpfvet fails to run or its verdict is not the recorded kernel's.
set -u
cd "$(dirname "$0")/.."
BPFVET=${BPFVET:-build/bpfvet}
record=tests/fixtures/examples/kernel.tsv
[ $# -gt 0 ] || set -- build/examples/*.bpf.o
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0
n=0 accepted=0 agree=0

# field FILE COLUMN: that column of the recorded row of FILE, or "".
field() {
	awk -F'\t' -v f="$1" -v c="$2" '!/^#/ && $1 == f { print $c; exit }' "$record"
}

# `bpfvet explain` is coming (issue 20): until it exists, "explain" would
# be taken for an object name, so its usage line is the test.
have_explain() {
	"$BPFVET" explain --help 2>/dev/null | grep -q '^usage: bpfvet explain'
}

for obj; do
	file=$(basename "$obj")
	src=examples/${file%.o}.c
	echo "== $src"
	# The first line of the source's comment says what the example is.
	sed -n '3s/^ \* /   /p' "$src"
	"$BPFVET" verify "$obj" -e prog,verdict,insns,error >"$tmp/out" 2>"$tmp/err"
	rc=$?
	sed 's/^/   /' "$tmp/out"
	if [ "$rc" -gt 1 ]; then
		echo "   bpfvet failed (exit $rc): $(cat "$tmp/err")"
		status=1
		continue
	fi
	n=$((n + 1))
	got=$([ "$rc" = 0 ] && echo success || echo failure)
	[ "$rc" = 0 ] && accepted=$((accepted + 1))
	want=$(field "$file" 3)
	if [ -n "$want" ]; then
		echo "   The Linux 6.18 kernel: $want, $(field "$file" 4) insns processed"
		if [ "$got" = "$want" ]; then
			agree=$((agree + 1))
		else
			echo "   MISMATCH: bpfvet says $got"
			status=1
		fi
	fi
	[ "$rc" = 0 ] && continue
	if grep -q 'too large\|too complex' "$tmp/out"; then
		# EXPLAIN HOOK (too complex): where the processed instructions went.
		if have_explain; then "$BPFVET" explain --why-slow "$obj"; fi
		continue
	fi
	# From the last source line of the log (the statement that failed) to
	# the error, the statistics left out.
	echo "   The verifier log ends with:"
	"$BPFVET" verify "$obj" -l 1 -q 2>/dev/null |
		grep -v '^verification time\|^stack depth\|^processed [0-9]* insns' |
		awk '/^; / { tail = "" } { tail = tail "     " $0 "\n" } END { printf "%s", tail }'
	# EXPLAIN HOOK (rejected): why the program was rejected.
	if have_explain; then "$BPFVET" explain "$obj"; fi
done
echo "== $n examples: $accepted accepted, $((n - accepted)) rejected; $agree as the kernel decided"
exit $status
