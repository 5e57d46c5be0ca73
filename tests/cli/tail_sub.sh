# Tail calls from subprograms, as Linux 6.18 verifies them: the current
# path leaves the subprogram with an unknown R0 (the called program's),
# the fall-through is queued ("from 18 to 19"), and precision asked for in
# the caller is traced back into the subprogram's frame through the tail
# call. Figures and lines recorded from the kernel (tests/progs/tail_sub.c).
. tests/lib.sh
EXPECT=tests/fixtures/tail_sub/expect.tsv
"$BPFVET" "$PROGS/tail_sub.o" -o csv -e prog,verdict,insns,states,peak,error 2>/dev/null |
	tail -n +2 | tr ',' '\t' | sed 's/^/tail_sub.o\t/' >"$TMP/got.tsv"
check_rows tail_sub "$EXPECT" "$TMP/got.tsv"

"$BPFVET" "$PROGS/tail_sub.o" -p precise_across_tail_exit -l 2 >"$TMP/log" 2>&1
log_has tail_sub_precision_log "$TMP/log" \
	'mark_precise: frame1: regs= stack= before 17: (b7) r3 = 1' \
	'mark_precise: frame1: last_idx 8 first_idx 0 subseq_idx 15 ' \
	'from 18 to 19: frame1: R10=fp0'
