# bpfvet selfcheck (src/selfcheck/, docs/selfcheck.md): the verifier's
# states against concrete runs in the interpreter. Every injected fault
# (src/state/fault.h) is caught on its program of tests/progs/fault.c; the
# same programs are rejected without faults (exit 2); runs are followed
# into global functions and bpf_loop callbacks, where a fault is caught
# too; accepted programs
# of the test set, the examples and part of the corpus give no violation;
# the same seed gives the same report.
. tests/lib.sh
need_target selfcheck
OBJ=$PROGS/fault.o
[ -s "$OBJ" ] || { fail selfcheck "no $OBJ: run make progs"; exit 0; }

# shellcheck disable=SC2086
"$BPFVET" selfcheck "$OBJ" -n 5 $TARGET >"$TMP/plain" 2>&1
st=$?
if [ $st = 2 ] && [ "$(grep -c ': rejected: ' "$TMP/plain")" = 13 ]; then
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
	mode=
	case $f in join-*) mode=--explore=join ;; esac
	# shellcheck disable=SC2086
	BPFVET_FAULT=$f "$BPFVET" selfcheck "$OBJ" -p "$p" -n 300 $mode $TARGET >"$TMP/out" 2>/dev/null
	st=$?
	if [ $st = 1 ] && grep -q "VIOLATIONS" "$TMP/out" && grep -q 'first: run [0-9]* of seed 0 .*insn [0-9]*:' "$TMP/out"; then
		pass "selfcheck_catches $f"
	else
		fail "selfcheck_catches $f" "exit $st: $(head -c 300 "$TMP/out")"
	fi
done <"$TMP/names"

# Global functions (tests/progs/selfcheck_calls.c): a run is followed
# into each callee, against the verifier's own walk of it. sc_global's
# five runs (seed 0): 10 instructions of its own each, 7 of sc_outer with
# sc_shift, 2 of sc_len, and twice sc_low, 9 instructions on three runs
# and 6 on two: 95 + 54 + 24 = 173 (50 when the callees went unchecked);
# sc_fault: 5 + 4 each. sc_loop: through bpf_loop's callback, each call
# of it, and the walk back at the call after each (499; 70 when the run
# was compared up to the call only).
CALLS=$PROGS/selfcheck_calls.o
# shellcheck disable=SC2086
"$BPFVET" selfcheck "$CALLS" -n 5 $TARGET >"$TMP/calls" 2>&1
st=$?
if [ $st = 0 ] && grep -q '^selfcheck_calls.o/sc_global: 5 runs (5 followed to the end, .*), 173 instructions and 20 checkpoints compared: ok$' "$TMP/calls" &&
	grep -q '^selfcheck_calls.o/sc_fault: 5 runs (5 followed to the end, .*), 45 instructions and 0 checkpoints compared: ok$' "$TMP/calls" &&
	grep -q '^selfcheck_calls.o/sc_loop: 5 runs (5 followed to the end, .*), 499 instructions and 111 checkpoints compared: ok$' "$TMP/calls"; then
	pass selfcheck_global_followed
else
	fail selfcheck_global_followed "exit $st: $(head -c 400 "$TMP/calls")"
fi
# caught NAME PROG REGEX: bounds-add makes selfcheck report PROG of
# selfcheck_calls.o with a first violation matching REGEX (exit 1).
caught() {
	# shellcheck disable=SC2086
	BPFVET_FAULT=bounds-add "$BPFVET" selfcheck "$CALLS" -p "$2" -n 5 $TARGET >"$TMP/calls" 2>/dev/null
	st=$?
	if [ $st = 1 ] && grep -q "first: run 0 of seed 0 .*$3\$" "$TMP/calls"; then
		pass "$1"
	else
		fail "$1" "exit $st: $(head -c 400 "$TMP/calls")"
	fi
}
# bounds-add inside sc_add8 (insns 5-8; sc_fault itself adds nothing):
# caught in the callee, at its exit, on the callee's frame.
caught selfcheck_catches_in_global sc_fault \
	'insn 8: (95) exit: frame 0 R0: the run has [0-9]* (0x[0-9a-f]*), the verifier scalar(.*umax=.*=3,.*(value outside its bounds)'
# bounds-add in sc_loop's callback (its calls counted by an addition,
# insn 33; sc_loop adds nothing before the call): caught in the callback,
# frame 1.
caught selfcheck_catches_in_callback sc_loop \
	'insn 34: (7b) \*(u64 \*)(r6 +8) = r2: frame 1 R2: the run has 1 (0x1), the verifier 0 (value outside its bounds)'

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

# The joined walk (--explore=join): every run lies in one of the states
# merged where paths met, on the same programs; and the check reaches
# those states (some comparisons made).
# shellcheck disable=SC2086
"$FAST" selfcheck "$@" -n 20 --explore=join $TARGET >"$TMP/joined" 2>&1
cmp_n=$(sed -n 's/^selfcheck: .*; \([0-9]*\) checkpoints compared; .*/\1/p' "$TMP/joined")
if ! grep -q VIOLATION "$TMP/joined" && [ "${cmp_n:-0}" -gt 1000 ]; then
	pass "selfcheck_joined_clean ($cmp_n merged states compared)"
else
	fail selfcheck_joined_clean "$(grep -A1 VIOLATION "$TMP/joined" | head -4; tail -n 1 "$TMP/joined")"
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
