# Switching off any single pruning technique, or switching on one of the
# beyond-kernel ones (tests/cli/prune_max.sh checks --prune=max), must not
# change a verdict,
# except by hitting the complexity limit (1M instructions, 8192 pending
# jumps). One documented exception below. --explore=join, whole or
# without one of its parts, must not change a verdict or a rejection's
# message either (a rejection is the exact walk's); without its fallback,
# the joined walk may reject what the kernel accepts, never the reverse
# (the configurations of bpfvet ablate). Checked on every program of the
# verifier selftest corpus. Uses the optimized CLI: this is 17 full passes
# over the corpus.
. tests/lib.sh
BIN=build/bpfvet
need_corpus ablation_corpus
LIMIT='BPF program is too large|jumps is too complex'
# A program that hits the complexity limit in the full configuration is
# not run again: whatever a switch does to it, the difference is allowed.
# Some of them never leave their loop (verifier_search_pruning/short_loop1):
# without eviction, tens of thousands of checkpoints at one instruction
# all stay on the current path, and the infinite-loop check compares each
# new state with each of them, 10^9 comparisons (as the kernel would).
run_one() {
	"$BIN" "$@" -o csv -e file_name,prog_name,verdict,error 2>/dev/null |
		tail -n +2 | tr '\t' ' '
}
# Every program once, sorted by object and program, with the switches
# given. The programs at the
# limit keep their full-configuration row; the rest is verified in two
# processes (starting one per object would take most of the time): the
# objects with a program at the limit, which -p '!NAME' leaves out, and
# all the others.
run() {
	if [ $# -eq 0 ]; then
		run_one build/corpus/verifier/*.bpf.o | sort
		return
	fi
	grep -E "$LIMIT" "$TMP/full.csv" >"$TMP/limit.rows"
	{
		cat "$TMP/limit.rows"
		# shellcheck disable=SC2046
		run_one $(cut -d, -f1 "$TMP/limit.rows" | sort -u |
			sed 's|^|build/corpus/verifier/|') "$@" \
			$(cut -d, -f2 "$TMP/limit.rows" | sed 's/^/-p !/')
		# shellcheck disable=SC2046
		run_one $(for obj in build/corpus/verifier/*.bpf.o; do
			grep -q "^$(basename "$obj")," "$TMP/limit.rows" || echo "$obj"; done) "$@"
	} | sort
}
run >"$TMP/full.csv"
n=$(wc -l <"$TMP/full.csv")
if [ "$n" -lt 1300 ]; then
	fail ablation_full "only $n programs verified"
	exit 0
fi
for sw in --no-prune --no-liveness --no-stack-liveness --no-precision --no-widen \
	  --no-evict --checkpoint=every --useful-checkpoints --evict-unreachable \
	  --join-checkpoints --eager-checkpoints; do
	run "$sw" >"$TMP/sw.csv"
	bad=$(paste "$TMP/full.csv" "$TMP/sw.csv" | awk -F'\t' -v sw="$sw" '
		{ split($1, a, ","); split($2, b, ",");
		  if (a[1] != b[1] || a[2] != b[2]) { print "misaligned " $0; next }
		  if (a[3] == b[3]) next
		  if ($0 ~ /BPF program is too large|jumps is too complex/) next
		  # Unrolled without pruning, this may_goto loop outgrows what
		  # linked scalars can express (a second "+const" breaks the link):
		  # the kernel converges before that only thanks to pruning.
		  if (sw == "--no-prune" && a[2] == "check_add_const") next
		  print a[1] "/" a[2] ": " a[3] " -> " b[3] }' | head -5)
	if [ -z "$bad" ]; then
		pass "ablation_verdicts $sw"
	else
		fail "ablation_verdicts $sw" "$bad"
	fi
done

# --explore=join and its parts (word-split on purpose). With the fallback,
# a program keeps its verdict and, when rejected, its message: the exact
# walk decides every rejection. A limit hit of the full run is not run
# again (above); so a program too complex for the kernel that the joined
# walk accepts is not seen here.
for sw in "--explore=join" "--explore=join --no-join-points" \
	  "--explore=join --no-loop-widen" "--explore=join --no-thresholds"; do
	# shellcheck disable=SC2086
	run $sw >"$TMP/sw.csv"
	bad=$(paste "$TMP/full.csv" "$TMP/sw.csv" | awk -F'\t' '
		{ split($1, a, ","); split($2, b, ",");
		  if (a[1] != b[1] || a[2] != b[2]) { print "misaligned " $0; next }
		  if ($1 != $2) print $1 " -> " $2 }' | head -5)
	if [ -z "$bad" ]; then
		pass "ablation_verdicts $sw"
	else
		fail "ablation_verdicts $sw" "$bad"
	fi
done
# The joined walk must apply to most programs, or the rows above say
# nothing: -e explore says which walk ran.
# shellcheck disable=SC2046
n=$("$BIN" --explore=join build/corpus/verifier/*.bpf.o -o csv -e explore \
	$(cut -d, -f2 "$TMP/limit.rows" | sed 's/^/-p !/') 2>/dev/null | grep -c '^join$')
if [ "$n" -ge 1000 ]; then
	pass ablation_verdicts_join_applies
else
	fail ablation_verdicts_join_applies "the joined walk ran on $n programs"
fi
# Without the fallback, the joined walk alone: it may reject a program
# the kernel accepts (a join loses what ties two values), never accept
# one the kernel rejects other than for complexity.
run --explore=join --no-fallback >"$TMP/sw.csv"
bad=$(paste "$TMP/full.csv" "$TMP/sw.csv" | awk -F'\t' '
	{ split($1, a, ","); split($2, b, ",");
	  if (a[1] != b[1] || a[2] != b[2]) { print "misaligned " $0; next }
	  if (a[3] == b[3] || (a[3] == "success" && b[3] == "failure")) next
	  if ($1 ~ /BPF program is too large|jumps is too complex/) next
	  print a[1] "/" a[2] ": " a[3] " -> " b[3] }' | head -5)
if [ -z "$bad" ]; then
	pass "ablation_verdicts --explore=join --no-fallback"
else
	fail "ablation_verdicts --explore=join --no-fallback" "$bad"
fi
