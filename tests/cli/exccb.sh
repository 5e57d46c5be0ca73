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

check_rows exccb "$EXPECT" "$TMP/got.tsv"

"$BPFVET" "$PROGS/exc_cb.o" -p cb_unreachable -l 2 >"$TMP/log" 2>&1
log_has exccb_validated_log "$TMP/log" \
	'Validating exc_cb_ok() func#1...' \
	"Func#1 ('exc_cb_ok') is safe for any args that match its prototype"
# At level 1 a pass that succeeds leaves nothing behind it (the kernel
# empties the log after each one): only the verdict line on the callback
# is left, as the live 6.18 kernel prints it.
"$BPFVET" "$PROGS/exc_cb.o" -p cb_unreachable -l 1 >"$TMP/log" 2>&1
log_has exccb_validated_log1 "$TMP/log" \
	"Func#1 ('exc_cb_ok') is safe for any args that match its prototype"
if grep -q 'Validating\|^0: ' "$TMP/log"; then
	fail exccb_level1_reset "the passes' lines stayed in the level-1 log: $(head -c 300 "$TMP/log")"
else
	pass exccb_level1_reset
fi

"$BPFVET" "$PROGS/exc_cb.o" -p throw_leaks_ref -l 1 >"$TMP/log" 2>&1
log_has exccb_leak_log "$TMP/log" \
	'Unreleased reference id=2 alloc_insn=12' \
	'bpf_throw would lead to reference leak'
