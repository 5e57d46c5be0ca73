# Verdicts and statistics on the selftest corpus that must equal Linux 6.18's
# (tests/fixtures/verify/kernel-agree.tsv holds the kernel's own figures, from
# loading each program plainly as veristat does). A regression in any of
# them - verdict, processed instructions, total or peak states - fails.
# Objects are in build/corpus/verifier unless the name says otherwise
# (progs/iters*.bpf.o: open-coded iterators; progs/exceptions*.bpf.o:
# exception callbacks and bpf_throw).
. tests/lib.sh
EXPECT=tests/fixtures/verify/kernel-agree.tsv
# The figures come from this machine's kernel: its BTF is the CO-RE target.
BTF=
[ -r /sys/kernel/btf/vmlinux ] && BTF="--btf /sys/kernel/btf/vmlinux"

need_corpus verify_corpus_build
for obj in $(grep -v '^#' "$EXPECT" | cut -f1 | sort -u); do
	case "$obj" in
	*/*) path=build/corpus/$obj ;;
	*) path=build/corpus/verifier/$obj ;;
	esac
	"$BPFVET" "$path" $BTF -o csv \
		-e prog_name,verdict,total_insns,total_states,peak_states \
		>"$TMP/out.csv" 2>"$TMP/err"
	rc=$?
	if [ $rc -gt 1 ]; then
		fail "verify_corpus_$obj" "exit $rc: $(head -c 300 "$TMP/err")"
		continue
	fi
	tail -n +2 "$TMP/out.csv" | tr ',' '\t' | sed "s|^|$obj\t|" >>"$TMP/got.tsv"
done
grep -v '^#' "$EXPECT" | while IFS="$(printf '\t')" read -r obj prog verdict insns states peak; do
	got=$(awk -F'\t' -v o="$obj" -v p="$prog" '$1 == o && $2 == p { print $3 "/" $4 "/" $5 "/" $6 }' "$TMP/got.tsv")
	want="$verdict/$insns/$states/$peak"
	if [ "$got" = "$want" ]; then
		echo "PASS verify_corpus $obj/$prog"
	else
		echo "FAIL verify_corpus $obj/$prog: got $got, kernel $want"
	fi
done
