# bpfvet kernel: the differential command, on tests/progs/kernel_*.c.
# Usage errors always run; the rest skips when the kernel does not load
# BPF programs here (no root, or bpf() not allowed).
. tests/lib.sh

expect_exit kernel_no_args 2 "$BPFVET" kernel
expect_exit kernel_help 0 "$BPFVET" kernel --help
expect_exit kernel_bad_option 2 "$BPFVET" kernel --bogus "$PROGS/kernel_data.o"
expect_exit kernel_bad_format 2 "$BPFVET" kernel -o xml "$PROGS/kernel_data.o"
expect_exit kernel_bad_level 2 "$BPFVET" kernel -l nine "$PROGS/kernel_data.o"
expect_exit kernel_diff_needs_both 2 "$BPFVET" kernel --log-diff --kernel-only "$PROGS/kernel_data.o"
expect_exit kernel_missing_file 2 "$BPFVET" kernel --kernel-only "$TMP/none.o"
printf 'not an ELF file' >"$TMP/junk.o"
expect_exit kernel_junk_file 2 "$BPFVET" kernel --kernel-only "$TMP/junk.o"
if grep -q "junk.o" "$TMP/err"; then pass kernel_junk_file_message; else
	fail kernel_junk_file_message "no message naming the file: $(cat "$TMP/err")"; fi

# The rest loads programs into the running kernel: only where it lets us.
# What it checks are facts every 6.18 build shares (a socket filter that
# reads through a scalar is rejected, a program without a type is refused).
kernel_loads kernel_cli || exit 0

# An object that cannot be opened is reported, and the objects after it
# still get their rows; the exit status says 2.
"$BPFVET" kernel --kernel-only -o csv "$TMP/junk.o" "$PROGS/kernel_data.o" >"$TMP/k.csv" 2>"$TMP/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "junk.o" "$TMP/err" && grep -q '^kernel_data.o,' "$TMP/k.csv"; then
	pass kernel_goes_on_after_bad_object
else
	fail kernel_goes_on_after_bad_object "exit $rc, rows: $(tail -n +2 "$TMP/k.csv" | head -2)"
fi

# csv: documented header, one row per program, verdicts and messages.
"$BPFVET" kernel --kernel-only -o csv "$PROGS/kernel_data.o" "$PROGS/kernel_multi.o" \
	>"$TMP/k.csv" 2>"$TMP/err"
rc=$?
hdr='file_name,prog_name,section,prog_type,kernel_verdict,kernel_stage,kernel_errno,kernel_total_insns,kernel_total_states,kernel_peak_states,kernel_max_states_per_insn,kernel_mark_read,kernel_duration,kernel_error'
if [ "$rc" = 0 ] && [ "$(head -n 1 "$TMP/k.csv")" = "$hdr" ]; then pass kernel_csv_header; else
	fail kernel_csv_header "exit $rc, header: $(head -n 1 "$TMP/k.csv")"; fi
rows=$(($(wc -l <"$TMP/k.csv") - 1))
if [ "$rows" = 10 ]; then pass kernel_csv_rows; else fail kernel_csv_rows "$rows rows, want 10"; fi
if grep -q "^kernel_data.o,data_unknown,socket,socket_filter,failure,verifier,-13,[0-9]*,[0-9]*,[0-9]*,[0-9]*,0,[0-9]*,R1 invalid mem access 'scalar'$" "$TMP/k.csv"
then pass kernel_csv_rejection; else fail kernel_csv_rejection "$(grep data_unknown "$TMP/k.csv")"; fi
if grep -q '^kernel_multi.o,no_type,[^,]*,unspec,refused,pre-verifier,-22,,,,,,,' "$TMP/k.csv"
then pass kernel_csv_refusal; else fail kernel_csv_refusal "$(grep no_type "$TMP/k.csv")"; fi
# fentry: refused before verifying here, or accepted; never a rejection.
if grep -Eq '^kernel_multi.o,on_entry,[^,]*,tracing,(refused,pre-verifier|success,verifier),' "$TMP/k.csv"
then pass kernel_csv_fentry; else fail kernel_csv_fentry "$(grep on_entry "$TMP/k.csv")"; fi

# json: valid, same rows, nulls for missing statistics.
"$BPFVET" kernel --kernel-only -o json "$PROGS/kernel_data.o" "$PROGS/kernel_multi.o" >"$TMP/k.json"
if python3 -c '
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["schema"] == "bpfvet-kernel/1", doc["schema"]
rows = doc["programs"]
assert len(rows) == 10, len(rows)
r = {x["prog_name"]: x for x in rows}
assert r["rodata_known"]["kernel_verdict"] == "success"
assert isinstance(r["rodata_known"]["kernel_total_insns"], int)
assert r["no_type"]["kernel_total_insns"] is None
assert r["no_type"]["kernel_errno"] == -22
' "$TMP/k.json"; then pass kernel_json; else fail kernel_json "$(head -c 300 "$TMP/k.json")"; fi

# Both sides: the exit status says whether some verdict differs.
"$BPFVET" kernel -o csv "$PROGS/kernel_data.o" "$PROGS/kernel_maps.o" >"$TMP/both.csv" 2>"$TMP/err"
rc=$?
want=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["match"] in ("yes", "no", "unsupported", "n/a") for r in rows)
print(1 if any(r["match"] in ("no", "unsupported") for r in rows) else 0)
' "$TMP/both.csv")
if [ "$rc" = "$want" ]; then pass kernel_exit_status; else
	fail kernel_exit_status "exit $rc, want $want; $(head -c 300 "$TMP/err")"; fi
if head -n 1 "$TMP/both.csv" | grep -q ',bpfvet_verdict,bpfvet_total_insns,bpfvet_total_states,bpfvet_peak_states,bpfvet_max_states_per_insn,bpfvet_mark_read,bpfvet_duration,bpfvet_mem_peak,bpfvet_error,match$'
then pass kernel_both_header; else fail kernel_both_header "$(head -n 1 "$TMP/both.csv")"; fi

# The table names who refused and why.
"$BPFVET" kernel --kernel-only -p no_type "$PROGS/kernel_multi.o" >"$TMP/t" 2>&1
if grep -q "refused (EINVAL) .*not loadable (EINVAL): prog 'no_type': missing BPF prog type" "$TMP/t"
then pass kernel_table_refusal; else fail kernel_table_refusal "$(cat "$TMP/t")"; fi

# -p selects, -l prints the kernel's log.
"$BPFVET" kernel --kernel-only -l 1 -p data_unknown "$PROGS/kernel_data.o" >"$TMP/l" 2>&1
if grep -q '^Kernel log for kernel_data.o/data_unknown:$' "$TMP/l" &&
   grep -q "^R1 invalid mem access 'scalar'$" "$TMP/l" && ! grep -q rodata_known "$TMP/l"
then pass kernel_log_and_glob; else fail kernel_log_and_glob "$(head -c 400 "$TMP/l")"; fi

# --log-diff: one line per program, in the table and in csv.
"$BPFVET" kernel --log-diff -p rodata_known "$PROGS/kernel_data.o" >"$TMP/d" 2>&1
if grep -Eq '^Log diff for kernel_data.o/rodata_known: (identical \([0-9]+ lines\)|line [0-9]+: kernel .* vs bpfvet )' "$TMP/d"
then pass kernel_log_diff; else fail kernel_log_diff "$(head -c 400 "$TMP/d")"; fi
"$BPFVET" kernel --log-diff -o csv -p rodata_known "$PROGS/kernel_data.o" >"$TMP/d.csv" 2>&1
if head -n 1 "$TMP/d.csv" | grep -q ',match,log_diff$'; then pass kernel_log_diff_csv; else
	fail kernel_log_diff_csv "$(head -n 2 "$TMP/d.csv")"; fi

# Extra load flags reach the kernel: an unknown one is refused, not a rejection.
"$BPFVET" kernel --kernel-only -o csv --flags 0x40000000 -p rodata_known "$PROGS/kernel_data.o" >"$TMP/f" 2>&1
if grep -q '^kernel_data.o,rodata_known,socket,socket_filter,refused,pre-verifier,-22,' "$TMP/f"
then pass kernel_flags; else fail kernel_flags "$(cat "$TMP/f")"; fi
