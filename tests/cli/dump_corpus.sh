# bpfvet dump succeeds on every object of the selftest corpus and of the
# real-world collection, including inputs of static linking and objects
# libbpf refuses (their problems are shown as warnings).
. tests/lib.sh

need_corpus dump_corpus_build
n=0
bad=0
for f in build/corpus/progs/*.o build/corpus/verifier/*.o build/realworld/*.o; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	if ! "$BPFVET" dump "$f" >/dev/null 2>"$TMP/err"; then
		bad=$((bad + 1))
		fail "dump_corpus $f" "$(head -c 300 "$TMP/err")"
	fi
done
if [ "$bad" -eq 0 ]; then
	pass "dump_corpus ($n objects)"
fi
# The static-linking inputs carry warnings, the linked result too.
expect_exit dump_corpus_linked 0 "$BPFVET" dump build/corpus/progs/linked_funcs1.bpf.o
if grep -q '^warning 0: no BTF section for extern set_output_val2$' "$TMP/out"; then
	pass dump_corpus_linked_warning
else
	fail dump_corpus_linked_warning "$(grep '^warning' "$TMP/out" | head -3)"
fi
