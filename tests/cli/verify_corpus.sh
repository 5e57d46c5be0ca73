# Verdicts and statistics on the selftest corpus that must equal Linux 6.18's
# (tests/fixtures/verify/kernel-agree.tsv holds the recorded kernel's own
# figures, from loading each program plainly as veristat does). A regression in any of
# them - verdict, processed instructions, total or peak states - fails.
# Objects are in build/corpus/verifier unless the name says otherwise
# (progs/iters*.bpf.o: open-coded iterators; progs/exceptions*.bpf.o:
# exception callbacks and bpf_throw).
. tests/lib.sh
EXPECT=tests/fixtures/verify/kernel-agree.tsv

need_corpus verify_corpus_build
need_target verify_corpus_target
set --
for obj in $(grep -v '^#' "$EXPECT" | cut -f1 | sort -u); do
	case "$obj" in
	*/*) set -- "$@" "build/corpus/$obj" ;;
	*) set -- "$@" "build/corpus/verifier/$obj" ;;
	esac
done
# All objects in one process, for the recorded target (tests/lib.sh). An
# object that cannot be opened has no rows: its programs fail below.
# shellcheck disable=SC2086
"$BPFVET" "$@" $TARGET -o csv \
	-e file_name,prog_name,verdict,total_insns,total_states,peak_states \
	>"$TMP/out.csv" 2>"$TMP/err"
rc=$?
if [ $rc -gt 1 ]; then
	fail verify_corpus_run "exit $rc: $(head -c 300 "$TMP/err")"
fi
# file_name is the base name; the fixture says verifier objects by base
# name and the others by corpus path.
tail -n +2 "$TMP/out.csv" | tr ',' '\t' | awk -F'\t' -v OFS='\t' '
	NR == FNR { if ($1 ~ /\//) { n = split($1, p, "/"); full[p[n]] = $1 }; next }
	{ if ($1 in full) $1 = full[$1]; print }' "$EXPECT" - >"$TMP/got.tsv"
awk -F'\t' '
	NR == FNR { got[$1 "\t" $2] = $3 "/" $4 "/" $5 "/" $6; next }
	/^#/ { next }
	{
		key = $1 "\t" $2; want = $3 "/" $4 "/" $5 "/" $6
		have = (key in got) ? got[key] : ""
		if (have == want) print "PASS verify_corpus " $1 "/" $2
		else print "FAIL verify_corpus " $1 "/" $2 ": got " have ", kernel " want
	}' "$TMP/got.tsv" "$EXPECT"
