# The capability switches (tools/caps_args.c) mean the same user in every
# command that verifies: verify, explain, report and ablate give the
# verdicts and errors of one another under --unpriv, and again under
# --unpriv --privileged-maps. verifier_spin_lock tells the two apart: an
# unprivileged loader has no object BTF, so its map value has no lock and
# the helper call fails; maps made by root keep the lock, and the pointer
# arithmetic is what fails.
. tests/lib.sh
[ -s "$TARGET_BTF" ] || { fail caps_switches "no build/target-6.18: run make target"; exit 0; }
SPIN=build/corpus/verifier/verifier_spin_lock.bpf.o
[ -f "$SPIN" ] || { fail caps_switches "no $SPIN: make corpus"; exit 0; }

# rows MODE CMD...: "program,verdict,error" per program, sorted, from
# verify's csv or explain's json.
verify_rows() {
	# shellcheck disable=SC2086
	"$BPFVET" "$@" "$SPIN" -o csv -e prog_name,verdict,error $TARGET 2>/dev/null |
		tail -n +2 | sed 's/,failure,/,rejected,/; s/,success,/,accepted,/' | sort
}
explain_rows() {
	# shellcheck disable=SC2086
	"$BPFVET" explain "$@" -o json "$SPIN" $TARGET 2>/dev/null | python3 -c '
import csv, json, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for line in sys.stdin:
    d = json.loads(line)
    w.writerow([d["program"], d["verdict"], d["error"]["message"] if d["error"] else ""])
' | sort
}
ablate_rows() {
	# shellcheck disable=SC2086
	"$BPFVET" ablate "$@" -o csv "$SPIN" 2>/dev/null | awk -F, '$3 == "full" { print $2 "," $4 }' |
		sed 's/,failure$/,rejected/; s/,success$/,accepted/' | sort
}

for mode in unpriv privileged_maps; do
	if [ $mode = unpriv ]; then
		set -- --unpriv
		want='cannot use helper bpf_spin_lock'
	else
		set -- --unpriv --privileged-maps
		want='pointer arithmetic of map value goes out of range'
	fi
	verify_rows "$@" >"$TMP/v.$mode"
	explain_rows "$@" >"$TMP/e.$mode"
	if [ -s "$TMP/v.$mode" ] && cmp -s "$TMP/v.$mode" "$TMP/e.$mode" &&
	   grep -q "$want" "$TMP/v.$mode"; then
		pass "caps_explain_$mode"
	else
		fail "caps_explain_$mode" "$(diff "$TMP/v.$mode" "$TMP/e.$mode" | head -5)"
	fi
	# ablate's full configuration is verify's walk: the same verdicts
	# (refused programs are not verified there, so they are left out).
	grep -v ',refused,' "$TMP/v.$mode" | cut -d, -f1,2 >"$TMP/vv.$mode"
	ablate_rows "$@" | grep -v ',unsupported$' >"$TMP/a.$mode"
	if [ -s "$TMP/a.$mode" ] && cmp -s "$TMP/vv.$mode" "$TMP/a.$mode"; then
		pass "caps_ablate_$mode"
	else
		fail "caps_ablate_$mode" "$(diff "$TMP/vv.$mode" "$TMP/a.$mode" | head -5)"
	fi
	# report: every program's error, as explain gives it, is on the page.
	# shellcheck disable=SC2086
	"$BPFVET" report "$@" "$SPIN" -o "$TMP/r.$mode.html" $TARGET 2>/dev/null
	if grep -q "$want" "$TMP/r.$mode.html"; then
		pass "caps_report_$mode"
	else
		fail "caps_report_$mode" "the page does not say '$want'"
	fi
done
# The two modes differ, or the test above proves nothing.
if ! cmp -s "$TMP/v.unpriv" "$TMP/v.privileged_maps"; then
	pass caps_modes_differ
else
	fail caps_modes_differ "--privileged-maps changes no verdict or error"
fi
