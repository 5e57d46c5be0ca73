#!/bin/bash
# The corpus measure of issue 21: `bpfvet selfcheck` on every object of the
# selftest corpus with RUNS random runs per program, split over JOBS
# processes (objects dealt out in turn), then the shards' last lines added
# up into one. Prints the total, writes every program's line and the total
# to OUT (default build/selfcheck/corpus.txt), and fails when a run
# violates its abstract states (exit 1) or a shard could not run (exit 2).
#
# Usage: scripts/selfcheck-corpus.sh [-n RUNS] [-j JOBS] [--seed S] [-o OUT]
#            [-- bpfvet options...]
# Environment: BPFVET (default build/bpfvet), CORPUS (default build/corpus).
# With no bpfvet options, the recorded 6.18 target of tests/lib.sh is used,
# so that the figure does not depend on this machine's kernel.
set -uo pipefail

runs=1200 jobs=2 seed=0 out=build/selfcheck/corpus.txt
BPFVET=${BPFVET:-build/bpfvet}
CORPUS=${CORPUS:-build/corpus}
while [ $# -gt 0 ]; do
	case $1 in
	-n) runs=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	-o) out=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "selfcheck-corpus: unknown argument '$1'" >&2; exit 2 ;;
	esac
done
if [ $# -eq 0 ]; then
	# shellcheck source=../tests/lib.sh
	. tests/lib.sh
	read -r -a extra <<<"$TARGET"
else
	extra=("$@")
fi

mapfile -t objs < <(ls "$CORPUS"/verifier/*.o "$CORPUS"/progs/*.o 2>/dev/null)
if [ ${#objs[@]} -eq 0 ]; then
	echo "selfcheck-corpus: no objects under $CORPUS (make corpus)" >&2
	exit 2
fi
dir=$(dirname "$out")
mkdir -p "$dir"
tmp=$(mktemp -d "$dir/shards.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

start=$(date +%s)
pids=()
for ((j = 0; j < jobs; j++)); do
	shard=()
	for ((i = j; i < ${#objs[@]}; i += jobs)); do
		shard+=("${objs[i]}")
	done
	"$BPFVET" selfcheck "${extra[@]}" -n "$runs" --seed "$seed" "${shard[@]}" \
		>"$tmp/$j.out" 2>"$tmp/$j.err" &
	pids+=($!)
done
worst=0
for ((j = 0; j < jobs; j++)); do
	wait "${pids[j]}"
	rc=$?
	# Exit 2 only says some program was rejected or not run: expected on
	# the corpus, which holds programs the kernel rejects.
	[ $rc -gt $worst ] && [ $rc -ne 2 ] && worst=$rc
	if ! tail -n 1 "$tmp/$j.out" | grep -q '^selfcheck: '; then
		echo "selfcheck-corpus: shard $j ended without its totals (exit $rc):" >&2
		tail -n 5 "$tmp/$j.err" >&2
		worst=2
	fi
done
secs=$(($(date +%s) - start))

{
	echo "# bpfvet selfcheck -n $runs --seed $seed over $CORPUS, $jobs shards, ${secs} s"
	echo "# $(uname -r -v)"
	for ((j = 0; j < jobs; j++)); do
		grep -v '^selfcheck: ' "$tmp/$j.out"
	done | sort
	# Every number of the shards' last lines, added up in place.
	for ((j = 0; j < jobs; j++)); do
		tail -n 1 "$tmp/$j.out"
	done | python3 -c '
import re, sys
lines = sys.stdin.read().splitlines()
sums = [sum(v) for v in zip(*(map(int, re.findall(r"\d+", l)) for l in lines))]
it = iter(sums)
print(re.sub(r"\d+", lambda m: str(next(it)), lines[0]))'
} >"$out"
tail -n 1 "$out"
echo "selfcheck-corpus: ${secs} s; every program's line in $out"
if grep -q ' VIOLATIONS$' "$out"; then
	grep -A1 ' VIOLATIONS$' "$out" | head -n 20 >&2
	exit 1
fi
exit $worst
