# Exception callbacks and bpf_throw (tests/progs/exc_cb.c): verdict,
# processed instructions, states and the rejection message of every
# program must be Linux 6.18's (tests/fixtures/exccb/expect.tsv); the
# callback nothing calls is verified on its own.
. tests/lib.sh
EXPECT=tests/fixtures/exccb/expect.tsv

"$BPFVET" "$PROGS/exc_cb.o" -o csv \
	-e prog_name,verdict,total_insns,total_states,peak_states,error \
	>"$TMP/out.csv" 2>"$TMP/err"
[ $? -gt 1 ] && fail exccb_run "$(head -c 300 "$TMP/err")"
# CSV to TSV: only the error column may hold quotes and commas.
tail -n +2 "$TMP/out.csv" | python3 -c '
import csv, sys
for row in csv.reader(sys.stdin):
    print("exc_cb.o\t" + "\t".join(row))' >"$TMP/got.tsv"

grep -v '^#' "$EXPECT" | while IFS= read -r line; do
	prog=$(printf '%s' "$line" | cut -f2)
	got=$(awk -F'\t' -v l="$line" 'BEGIN { split(l, w, "\t") }
		$1 == w[1] && $2 == w[2]' "$TMP/got.tsv")
	if [ "$got" = "$line" ]; then
		pass "exccb $prog"
	else
		fail "exccb $prog" "got '$got', want '$line'"
	fi
done

"$BPFVET" "$PROGS/exc_cb.o" -p cb_unreachable -l 1 >"$TMP/log" 2>&1
if grep -q '^Validating exc_cb_ok() func#1\.\.\.$' "$TMP/log" &&
   grep -q "^Func#1 ('exc_cb_ok') is safe for any args that match its prototype$" "$TMP/log"; then
	pass exccb_validated_log
else
	fail exccb_validated_log "$(tail -n 5 "$TMP/log")"
fi

"$BPFVET" "$PROGS/exc_cb.o" -p throw_leaks_ref -l 1 >"$TMP/log" 2>&1
if grep -q '^Unreleased reference id=2 alloc_insn=12$' "$TMP/log" &&
   grep -q '^bpf_throw would lead to reference leak$' "$TMP/log"; then
	pass exccb_leak_log
else
	fail exccb_leak_log "$(tail -n 5 "$TMP/log")"
fi
