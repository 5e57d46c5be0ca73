# The conformance ratchet: bpfvet must agree with the kernel on at least as
# many selftests as tests/conformance/floor says. Uses the recorded kernel
# verdicts, so it needs no BPF privileges; whether the running kernel still
# says what was recorded is `make kernel-check`'s question.
. tests/lib.sh
RUNNER=build/conformance-runner
FLOOR_FILE=tests/conformance/floor
RECORDED=tests/conformance/kernel-6.18-testloader.csv
CORPUS=build/corpus

expect_exit conformance_bad_option 2 $RUNNER --bogus $CORPUS/verifier
expect_exit conformance_no_recording 2 $RUNNER --reference recorded \
	--recorded /nonexistent.csv $CORPUS/verifier
grep -q 'recorded verdicts /nonexistent.csv' "$TMP/err" &&
	pass conformance_no_recording_msg || fail conformance_no_recording_msg "$(cat "$TMP/err")"

if ! scripts/build-corpus.sh >/dev/null 2>"$TMP/corpus.err"; then
	fail conformance_floor "no corpus: $(tail -n 3 "$TMP/corpus.err")"
	exit 0
fi

# Both recorded formats, on verifier_and (3 programs bpfvet gets right): ours
# with one verdict flipped must count it as failed; the csv of `bpfvet
# kernel` (per-program loads, no modes) is read as priv runs.
AND=$CORPUS/verifier/verifier_and.bpf.o
cat >"$TMP/ours.csv" <<'EOF'
# crafted
object,program,mode,verdict,errno,stage,msg_match,error
verifier_and.bpf.o,invalid_and_of_negative_number,priv,failure,-13,verifier,yes,R0 max value is outside of the allowed memory range
verifier_and.bpf.o,invalid_range_check,priv,failure,-13,verifier,yes,"R0 max value is outside of the allowed memory range"
verifier_and.bpf.o,known_subreg_with_unknown_reg,priv,failure,-13,verifier,,"made up, for the test"
EOF
cat >"$TMP/kcmd.csv" <<'EOF'
file_name,prog_name,prog_type,kernel_verdict,kernel_stage,kernel_errno,kernel_total_insns,kernel_error,bpfvet_verdict,match
verifier_and.bpf.o,invalid_and_of_negative_number,socket_filter,failure,verifier,-13,13,R0 max value is outside of the allowed memory range,failure,yes
verifier_and.bpf.o,invalid_range_check,socket_filter,failure,verifier,-13,19,"R0 max value is outside of the allowed memory range",failure,yes
verifier_and.bpf.o,known_subreg_with_unknown_reg,socket_filter,success,verifier,0,7,,success,yes
EOF
$RUNNER --reference recorded --recorded "$TMP/ours.csv" $AND >"$TMP/ours.out" 2>&1
if [ "$(tail -n 1 "$TMP/ours.out")" = "2 passed, 1 failed" ] &&
	grep -q '^verifier_and/known_subreg_with_unknown_reg  *priv  *success  *failure  *success  *no ' "$TMP/ours.out"; then
	pass conformance_recorded_format
else
	fail conformance_recorded_format "$(tail -n 3 "$TMP/ours.out" | tr '\n' ' ')"
fi
$RUNNER --reference recorded --recorded "$TMP/kcmd.csv" $AND >"$TMP/kcmd.out" 2>&1
if [ "$(tail -n 1 "$TMP/kcmd.out")" = "3 passed, 0 failed" ] &&
	grep -q 'no kernel verdict: 3' "$TMP/kcmd.out"; then
	pass conformance_kernel_cmd_format
else
	fail conformance_kernel_cmd_format "$(tail -n 3 "$TMP/kcmd.out" | tr '\n' ' ')"
fi

$RUNNER --reference recorded --recorded $RECORDED --markdown "$TMP/conformance.md" \
	$CORPUS/verifier >"$TMP/table" 2>"$TMP/runner.err"
rc=$?
if [ $rc -ne 0 ]; then
	fail conformance_floor "runner exit $rc: $(tail -n 3 "$TMP/runner.err")"
	exit 0
fi

# Every program of the corpus was read, and the annotations parsed.
if grep -q '^objects 95, programs 1369 (14 auxiliary, 0 with annotations' "$TMP/table"; then
	pass conformance_coverage
else
	fail conformance_coverage "$(grep '^objects' "$TMP/table")"
fi

line=$(tail -n 1 "$TMP/table")
passed=$(echo "$line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
floor=$(tr -dc '0-9' <$FLOOR_FILE)
if [ -z "$passed" ] || [ -z "$floor" ]; then
	fail conformance_floor "cannot read '$line' or the floor '$floor'"
elif [ "$passed" -lt "$floor" ]; then
	fail conformance_floor "$passed programs agree with the kernel, the floor is $floor: a regression (see $RUNNER output)"
elif [ "$passed" -gt "$floor" ]; then
	pass "conformance_floor ($passed agree, above the floor $floor: raise tests/conformance/floor)"
else
	pass "conformance_floor ($passed agree)"
fi

# The unprivileged runs have their own floor (recorded with the sysctl
# lowered for the run, tests/cli/unpriv_sysctl.sh): it only rises.
uline=$(grep '^unprivileged runs: [0-9]* passed' "$TMP/table")
upassed=$(echo "$uline" | sed -n 's/^unprivileged runs: \([0-9]*\) passed, [0-9]* failed$/\1/p')
ufloor=$(sed -n 's/^verdicts \([0-9]*\)$/\1/p' tests/conformance/floor-unpriv)
if [ -z "$upassed" ] || [ -z "$ufloor" ]; then
	fail conformance_floor_unpriv "cannot read '$uline' or the floor '$ufloor'"
elif [ "$upassed" -lt "$ufloor" ]; then
	fail conformance_floor_unpriv "$upassed unprivileged runs agree with the kernel, the floor is $ufloor: a regression"
elif [ "$upassed" -gt "$ufloor" ]; then
	pass "conformance_floor_unpriv ($upassed agree, above the floor $ufloor: raise tests/conformance/floor-unpriv)"
else
	pass "conformance_floor_unpriv ($upassed agree)"
fi

# at_least NAME KEY SED_EXPR LINE_RE: the "A of B" the summary line gives
# (SED_EXPR prints "A B") reaches the floor-unpriv line KEY.
at_least() {
	floor=$(sed -n "s/^$2 \\([0-9]*\\)\$/\\1/p" tests/conformance/floor-unpriv)
	set -- "$1" "$2" "$4" $(sed -n "$3" "$TMP/table")
	if [ -n "$4" ] && [ -n "$floor" ] && [ "$4" -ge "$floor" ]; then
		pass "$1 ($4 of $5, floor $floor)"
	else
		fail "$1" "'$(grep "$3" "$TMP/table")', floor '$floor'"
	fi
}

# The record's instruction counts are read: on the unprivileged runs that
# agree, bpfvet processes as many instructions as the kernel for at least
# the floor's `insns`. The first message of the unprivileged rejections
# both sides make: at least the floor's `messages` are one of the
# kernel's error lines.
at_least conformance_unpriv_insns insns \
	's/^instruction count .*unprivileged \([0-9]*\) of \([0-9]*\)$/\1 \2/p' '^instruction count'
at_least conformance_unpriv_messages messages \
	's/^  same first message: .*unprivileged \([0-9]*\) of \([0-9]*\) .*/\1 \2/p' 'same first message:'

# The report is deterministic: a second run writes the same one.
$RUNNER -q --reference recorded --recorded $RECORDED --markdown "$TMP/again.md" \
	$CORPUS/verifier >/dev/null 2>&1
body() { sed -n '/^## Summary/,$p' "$1"; }
body "$TMP/conformance.md" >"$TMP/a.md"
body "$TMP/again.md" >"$TMP/b.md"
if [ -s "$TMP/a.md" ] && cmp -s "$TMP/a.md" "$TMP/b.md"; then
	pass conformance_report_stable
else
	fail conformance_report_stable "two runs wrote different reports (or none)"
fi
