# bpfvet selfcheck (src/selfcheck/, docs/selfcheck.md): the verifier's
# states against concrete runs in the interpreter. Every injected fault
# (src/state/fault.h) is caught on its program of tests/progs/fault.c; the
# same programs are rejected without faults (exit 2); accepted programs
# of the test set, the examples and part of the corpus give no violation;
# the same seed gives the same report.
. tests/lib.sh
need_target selfcheck
OBJ=$PROGS/fault.o
[ -s "$OBJ" ] || { fail selfcheck "no $OBJ: run make progs"; exit 0; }

# shellcheck disable=SC2086
"$BPFVET" selfcheck "$OBJ" -n 5 $TARGET >"$TMP/plain" 2>&1
st=$?
if [ $st = 2 ] && [ "$(grep -c ': rejected: ' "$TMP/plain")" = 12 ]; then
	pass selfcheck_rejected_exit_2
else
	fail selfcheck_rejected_exit_2 "exit $st: $(head -c 300 "$TMP/plain")"
fi

# Each fault, caught: exit 1 and a violation that names an instruction.
BPFVET_FAULT=no-such "$BPFVET" "$OBJ" $TARGET 2>"$TMP/list" >/dev/null
sed -n 's/^  \([a-z0-9-]*\) .*/\1/p' "$TMP/list" >"$TMP/names"
[ "$(wc -l <"$TMP/names")" -ge 10 ] || fail selfcheck_faults "fewer than 10 faults listed"
while read -r f; do
	p=$(echo "$f" | tr '-' '_')
	# shellcheck disable=SC2086
	BPFVET_FAULT=$f "$BPFVET" selfcheck "$OBJ" -p "$p" -n 300 $TARGET >"$TMP/out" 2>/dev/null
	st=$?
	if [ $st = 1 ] && grep -q "VIOLATIONS" "$TMP/out" && grep -q 'first: run [0-9]* of seed 0 .*insn [0-9]*:' "$TMP/out"; then
		pass "selfcheck_catches $f"
	else
		fail "selfcheck_catches $f" "exit $st: $(head -c 300 "$TMP/out")"
	fi
done <"$TMP/names"

# No violation where nothing is wrong. The optimised build when there is
# one: a few thousand runs.
FAST=$BPFVET
[ -x build/bpfvet ] && FAST=build/bpfvet
set -- "$PROGS"/sock_*.o "$PROGS"/report_loop.o "$PROGS"/explain_*.o
for o in build/examples/*.bpf.o; do [ -f "$o" ] && set -- "$@" "$o"; done
for o in verifier_bounds verifier_scalar_ids verifier_spill_fill verifier_direct_packet_access \
	verifier_ld_ind verifier_xdp verifier_iterating_callbacks verifier_movsx verifier_ldsx \
	verifier_sdiv verifier_bswap verifier_subreg verifier_var_off exceptions; do
	[ -f "build/corpus/verifier/$o.bpf.o" ] && set -- "$@" "build/corpus/verifier/$o.bpf.o"
	[ -f "build/corpus/progs/$o.bpf.o" ] && set -- "$@" "build/corpus/progs/$o.bpf.o"
done
# shellcheck disable=SC2086
"$FAST" selfcheck "$@" -n 20 $TARGET >"$TMP/clean" 2>&1
runs=$(sed -n 's/^selfcheck: [0-9]* programs, \([0-9]*\) runs.*/\1/p' "$TMP/clean")
if ! grep -q VIOLATION "$TMP/clean" && [ "${runs:-0}" -gt 1000 ]; then
	pass "selfcheck_clean ($runs runs)"
else
	fail selfcheck_clean "$(grep -A1 VIOLATION "$TMP/clean" | head -4; tail -n 1 "$TMP/clean")"
fi

# Reproducible: the same seed, the same figures and report.
# shellcheck disable=SC2086
BPFVET_FAULT=branch-jgt "$BPFVET" selfcheck "$OBJ" -p branch_jgt -n 400 --seed 7 $TARGET >"$TMP/a" 2>/dev/null
# shellcheck disable=SC2086
BPFVET_FAULT=branch-jgt "$BPFVET" selfcheck "$OBJ" -p branch_jgt -n 400 --seed 7 $TARGET >"$TMP/b" 2>/dev/null
if [ -s "$TMP/a" ] && cmp -s "$TMP/a" "$TMP/b" && grep -q "of seed 7" "$TMP/a"; then
	pass selfcheck_reproducible
else
	fail selfcheck_reproducible "$(diff "$TMP/a" "$TMP/b" | head -3)"
fi
expect_exit selfcheck_bad_runs 2 "$BPFVET" selfcheck "$OBJ" -n 0
