# The generated helper prototypes (src/rules/data) are what
# scripts/gen-helper-protos.py writes from the kernel sources that the
# corpus build extracts from linux-source-6.12: a change by hand must go
# into the generator's OVERRIDES.
. tests/lib.sh
need_corpus helper_protos_corpus
ksrc=build/corpus/src
mkdir -p "$TMP/out"
if ! python3 scripts/gen-helper-protos.py "$ksrc" "$TMP/out" >"$TMP/log" 2>&1; then
	fail helper_protos_generate "$(tail -n 3 "$TMP/log")"
	exit 0
fi
for f in helper_protos.c helper_protos.h; do
	if cmp -s "$TMP/out/$f" "src/rules/data/$f"; then
		pass "helper_protos_reproduced $f"
	else
		fail "helper_protos_reproduced $f" "$(diff "$TMP/out/$f" "src/rules/data/$f" | head -n 6 | tr '\n' '|')"
	fi
done
