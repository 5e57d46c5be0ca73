# Injected faults (src/state/fault.h, BPFVET_FAULT): every fault bpfvet
# offers has a program in tests/progs/fault.c named after it, which the
# live 6.18.44 kernel rejected as recorded below (bpfvet kernel
# build/progs/fault.o), bpfvet without faults rejects alike, and bpfvet
# with that fault accepts: the fault makes the verifier unsound there.
# A checker of the verifier (issue 21: bpfvet selfcheck) must catch each.
. tests/lib.sh
need_target faults
OBJ=$PROGS/fault.o
[ -s "$OBJ" ] || { fail faults "no $OBJ: run make progs"; exit 0; }

# program, verdict, processed instructions, error: the kernel's.
cat >"$TMP/kernel" <<'REC'
bounds_add,failure,15,R6 min value is outside of the allowed memory range
bounds_sub,failure,15,R6 min value is outside of the allowed memory range
bounds_mul,failure,15,R6 min value is outside of the allowed memory range
bounds_and,failure,16,R6 min value is outside of the allowed memory range
branch_jgt,failure,17,R6 min value is outside of the allowed memory range
branch_jeq,failure,14,R6 min value is outside of the allowed memory range
regsafe_scalar,failure,29,R6 min value is outside of the allowed memory range
join_hull,failure,29,R6 min value is outside of the allowed memory range
stacksafe_spill,failure,33,R6 min value is outside of the allowed memory range
live_jmp,failure,28,R6 min value is outside of the allowed memory range
precise_none,failure,29,R6 min value is outside of the allowed memory range
precise_alu,failure,33,R6 min value is outside of the allowed memory range
regsafe_pkt_range,failure,30,R2 offset is outside of the packet
REC

# shellcheck disable=SC2086
"$BPFVET" "$OBJ" -o csv -e prog_name,verdict,total_insns,error $TARGET 2>/dev/null |
	tail -n +2 >"$TMP/plain"
if cmp -s "$TMP/kernel" "$TMP/plain"; then
	pass faults_none_as_kernel
else
	fail faults_none_as_kernel "$(diff "$TMP/kernel" "$TMP/plain" | head -4)"
fi

# The names bpfvet lists (an unknown name prints them and exits 2).
BPFVET_FAULT=no-such-fault "$BPFVET" "$OBJ" $TARGET >"$TMP/out" 2>"$TMP/list"
st=$?
sed -n 's/^  \([a-z0-9-]*\) .*/\1/p' "$TMP/list" >"$TMP/names"
if [ $st = 2 ] && [ ! -s "$TMP/out" ] && [ "$(wc -l <"$TMP/names")" -ge 10 ]; then
	pass faults_unknown_name
else
	fail faults_unknown_name "exit $st, $(wc -l <"$TMP/names") names listed"
fi
progs=$(cut -d, -f1 "$TMP/kernel" | sort | tr '\n' ' ')
names=$(tr '-' '_' <"$TMP/names" | sort | tr '\n' ' ')
if [ "$progs" = "$names" ]; then
	pass faults_one_program_each
else
	fail faults_one_program_each "faults: $names; programs: $progs"
fi

while read -r f; do
	p=$(echo "$f" | tr '-' '_')
	# shellcheck disable=SC2086
	# A fault of the joined walk shows in that walk (join-*).
	mode=
	case $f in join-*) mode=--explore=join ;; esac
	# shellcheck disable=SC2086
	got=$(BPFVET_FAULT=$f "$BPFVET" "$OBJ" -p "$p" $mode -o csv -e verdict $TARGET 2>"$TMP/err" | tail -n 1)
	if [ "$got" = success ] && grep -q "BPFVET_FAULT=$f: " "$TMP/err"; then
		pass "fault_unsound $f"
	else
		fail "fault_unsound $f" "verdict '$got' with the fault (want success): $(head -c 200 "$TMP/err")"
	fi
done <"$TMP/names"
