# Socket pointers (tests/progs/sock_*.c): verdict, processed instructions,
# states and the rejection message of every program must be Linux 6.18's
# (tests/fixtures/sock/expect.tsv), and a leaked reference is reported
# with the kernel's two lines.
. tests/lib.sh
EXPECT=tests/fixtures/sock/expect.tsv

for obj in $(grep -v '^#' "$EXPECT" | cut -f1 | sort -u); do
	if ! "$BPFVET" "$PROGS/$obj" -o csv \
		-e prog_name,verdict,total_insns,total_states,peak_states,error \
		>"$TMP/out.csv" 2>"$TMP/err"; then
		if [ $? -gt 1 ]; then
			fail "sock_$obj" "$(head -c 300 "$TMP/err")"
			continue
		fi
	fi
	# CSV to TSV: only the error column may hold quotes and commas.
	tail -n +2 "$TMP/out.csv" | python3 -c '
import csv, sys
for row in csv.reader(sys.stdin):
    print(sys.argv[1] + "\t" + "\t".join(row))' "$obj" >>"$TMP/got.tsv"
done

check_rows sock "$EXPECT" "$TMP/got.tsv"

"$BPFVET" "$PROGS/sock_refs.o" -p lookup_leak_non_null -l 1 >"$TMP/log" 2>&1
log_has sock_leak_log "$TMP/log" \
	'Unreleased reference id=2 alloc_insn=12' \
	'BPF_EXIT instruction in main prog would lead to reference leak'

"$BPFVET" "$PROGS/sock_maps.o" -p sock_ops_sockmap_update -l 1 >"$TMP/log" 2>&1
log_has sock_sockmap_update_log "$TMP/log" \
	'cannot update sockmap in this context'
