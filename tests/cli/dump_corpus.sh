# bpfvet dump succeeds on every object of the selftest corpus and of the
# real-world collection, including inputs of static linking and objects
# libbpf refuses (their problems are shown as warnings).
. tests/lib.sh

need_corpus dump_corpus_build
# One process for all of them: under ASan most of the time of a small
# dump is starting the process and the leak check at its exit, and one
# leak check at the end sees every object's leaks just as well.
set -- build/corpus/progs/*.o build/corpus/verifier/*.o build/realworld/*.o \
	build/realworld/pcp/*.o build/realworld/cilium-ebpf/*.elf
"$BPFVET" dump "$@" >"$TMP/all" 2>"$TMP/err"
rc=$?
n=$(grep -c '^object: ' "$TMP/all")
if [ "$rc" = 0 ] && [ "$n" = $# ] && [ ! -s "$TMP/err" ]; then
	pass "dump_corpus ($n objects)"
else
	fail dump_corpus "exit $rc, $n of $# objects dumped: $(head -c 300 "$TMP/err")"
fi
# The static-linking inputs carry warnings, the linked result too.
expect_exit dump_corpus_linked 0 "$BPFVET" dump build/corpus/progs/linked_funcs1.bpf.o
if grep -q '^warning 0: no BTF section for extern set_output_val2$' "$TMP/out"; then
	pass dump_corpus_linked_warning
else
	fail dump_corpus_linked_warning "$(grep '^warning' "$TMP/out" | head -3)"
fi
