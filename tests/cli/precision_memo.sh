# Precision walks stop where an earlier walk of the same segment started
# needing no less (src/prune/precision.c, the memo). The memo is off when
# each step is logged, so the figures of a run at log level 2 are those
# of the walk without it: they must equal the default run's, on programs
# whose loops make the walks repeat.
. tests/lib.sh
BPFVET=build/bpfvet
need_corpus precision_memo_build
need_target precision_memo_target
FIELDS=file_name,prog_name,verdict,total_insns,total_states,peak_states,max_states_per_insn
for obj in loop2 loop4 loop6 pyperf50 pyperf_subprogs test_sysctl_loop1 bpf_flow; do
	path=build/corpus/progs/$obj.bpf.o
	# shellcheck disable=SC2086
	"$BPFVET" verify "$path" $TARGET -o csv -e $FIELDS >"$TMP/plain" 2>/dev/null
	# The log comes first; the table starts at its header.
	# shellcheck disable=SC2086
	"$BPFVET" verify "$path" $TARGET -l 2 -o csv -e $FIELDS 2>/dev/null |
		sed -n "/^$FIELDS\$/,\$p" >"$TMP/logged"
	if [ "$(wc -l <"$TMP/plain")" -lt 2 ]; then
		fail "precision_memo_$obj" "no figures"
	elif cmp -s "$TMP/plain" "$TMP/logged"; then
		pass "precision_memo_$obj ($(tail -n +2 "$TMP/plain" | cut -d, -f2,4 | tr '\n' ' '))"
	else
		fail "precision_memo_$obj" "$(diff "$TMP/logged" "$TMP/plain" | head -4 | tr '\n' ' ')"
	fi
done
