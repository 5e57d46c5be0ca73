# The conformance runner against the selftest-loader records of Debian's
# 6.1 and 6.12 (tests/conformance/kernel-VERSION-testloader.csv, recorded
# in their VMs by scripts/kernel-vm.sh VERSION --testloader), bpfvet
# verifying for that target (--target build/target-VERSION): a ratchet per
# target and per mode, as conformance_floor.sh is for 6.18. Each count of
# tests/conformance/testloader-floor may only grow.
. tests/lib.sh
need_corpus conformance_targets_corpus
RUNNER=build/conformance-runner
FLOOR=tests/conformance/testloader-floor

# field TEXT WHAT N: the Nth number of the summary line that starts WHAT.
field() {
	grep "^$2" "$1" | head -n 1 | tr -c '0-9\n' ' ' | awk -v n="$3" '{ print $n }'
}

while read -r v priv unpriv uinsns msg_priv msg_unpriv; do
	case $v in '#'* | '') continue ;; esac
	if [ ! -s "build/target-$v/btf" ]; then
		fail "conformance_target_$v" "no build/target-$v: run make target"
		continue
	fi
	out=$TMP/runner-$v
	if ! $RUNNER -q --target "build/target-$v" \
		--recorded "tests/conformance/kernel-$v-testloader.csv" build/corpus/verifier \
		>"$out" 2>"$TMP/err-$v"; then
		fail "conformance_target_$v" "runner: $(tail -n 3 "$TMP/err-$v")"
		continue
	fi
	# "  privileged runs: agree A of B (P%); unprivileged runs: agree C of D (Q%)"
	got_priv=$(field "$out" '  privileged runs: agree' 1)
	got_unpriv=$(field "$out" '  privileged runs: agree' 5)
	# "instruction count ...: privileged A of B, unprivileged C of D"
	got_uinsns=$(field "$out" 'instruction count' 3)
	# "  same first message: privileged A of B (P%), unprivileged C of D (Q%)"
	got_mp=$(field "$out" '  same first message' 1)
	got_mu=$(field "$out" '  same first message' 5)
	for what in priv:$got_priv:$priv unpriv:$got_unpriv:$unpriv unpriv_insns:$got_uinsns:$uinsns \
		    msg_priv:$got_mp:$msg_priv msg_unpriv:$got_mu:$msg_unpriv; do
		name=${what%%:*} rest=${what#*:}
		got=${rest%%:*} floor=${rest#*:}
		if [ -z "$got" ]; then
			fail "conformance_target_${v}_$name" "cannot read the runner's summary"
		elif [ "$got" -lt "$floor" ]; then
			fail "conformance_target_${v}_$name" "$got, the floor is $floor: a regression"
		elif [ "$got" -gt "$floor" ]; then
			pass "conformance_target_${v}_$name ($got, above the floor $floor: raise $FLOOR)"
		else
			pass "conformance_target_${v}_$name ($got)"
		fi
	done
done <$FLOOR
