# scripts/selfcheck-corpus.sh, the corpus measure behind `make selfcheck`:
# its total line is the sum of its shards' lines, so it must equal one
# bpfvet selfcheck over the same objects; it fails on a violation (exit 1)
# and not on the corpus's rejected programs; it lists every program.
. tests/lib.sh
need_target selfcheck_corpus
for o in fault sock_maps report_loop explain_bounds; do
	[ -s "$PROGS/$o.o" ] || { fail selfcheck_corpus "no $PROGS/$o.o: run make progs"; exit 0; }
done
mkdir -p "$TMP/corpus/verifier" "$TMP/corpus/progs"
ln -s "$(realpath "$PROGS/fault.o")" "$TMP/corpus/verifier/fault.o"
for o in sock_maps report_loop explain_bounds; do
	ln -s "$(realpath "$PROGS/$o.o")" "$TMP/corpus/progs/$o.o"
done

# shellcheck disable=SC2086
BPFVET=$BPFVET CORPUS=$TMP/corpus scripts/selfcheck-corpus.sh -n 4 -j 3 -o "$TMP/sum.txt" \
	-- $TARGET >"$TMP/out" 2>&1
st=$?
# shellcheck disable=SC2086
"$BPFVET" selfcheck "$TMP"/corpus/verifier/*.o "$TMP"/corpus/progs/*.o -n 4 $TARGET \
	>"$TMP/one" 2>&1
want=$(tail -n 1 "$TMP/one")
got=$(tail -n 1 "$TMP/sum.txt")
if [ $st = 0 ] && [ "$got" = "$want" ] && echo "$got" | grep -q ' [1-9][0-9]* runs, .* 0 violations$'; then
	pass "selfcheck_corpus_sum ($got)"
else
	fail selfcheck_corpus_sum "exit $st; got '$got', one run says '$want'"
fi
if [ "$(grep -c -v -e '^#' -e '^selfcheck: ' "$TMP/sum.txt")" = "$(grep -c -v '^selfcheck: ' "$TMP/one")" ]; then
	pass selfcheck_corpus_lists_programs
else
	fail selfcheck_corpus_lists_programs "$(head -c 300 "$TMP/sum.txt")"
fi

# A violation in one shard fails the whole measure.
# shellcheck disable=SC2086
BPFVET_FAULT=bounds-add BPFVET=$BPFVET CORPUS=$TMP/corpus scripts/selfcheck-corpus.sh -n 300 \
	-j 2 -o "$TMP/bad.txt" -- $TARGET -p bounds_add >"$TMP/bad" 2>&1
st=$?
if [ $st = 1 ] && grep -q ' [1-9][0-9]* violations$' "$TMP/bad.txt"; then
	pass selfcheck_corpus_violation
else
	fail selfcheck_corpus_violation "exit $st: $(tail -n 3 "$TMP/bad")"
fi
