# The callbacks of tests/progs/callbacks.c (bpf_find_vma, bpf_user_ringbuf_drain)
# for the recorded target: verdict, processed instructions, total states
# and first error as this machine's Linux 6.18.44 gave them (bpfvet kernel).
# Peak states are left out: this 6.18.y keeps a back-edge state at
# callback-calling calls that the recorded 6.18 did not (src/prune/loops.c),
# so its peak is one higher on the accepted programs.
. tests/lib.sh
need_target callbacks_progs_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/callbacks.o" $TARGET -o csv -e prog_name,verdict,total_insns,total_states,error \
	>"$TMP/out" 2>"$TMP/err"
while IFS= read -r row; do
	name=callbacks_progs_${row%%,*}
	if grep -qxF -- "$row" "$TMP/out"; then
		pass "$name"
	else
		fail "$name" "no row '$row' in: $(tr '\n' '|' <"$TMP/out" | head -c 400) $(head -c 200 "$TMP/err")"
	fi
done <<'ROWS'
find_vma_reads,success,41,2,
find_vma_bad_return,failure,11,1,"At callback return the register R0 has smin=2 smax=2 should have been in [0, 1]"
find_vma_null_ctx,failure,10,1,R3 invalid mem access 'scalar'
drain_marks,success,22,2,
drain_dynptr_read,failure,8,1,R1 invalid mem access 'dynptr_ptr'
ROWS
