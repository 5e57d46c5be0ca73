# The layers of src/ (src/layers.txt, docs/architecture.md): no folder
# includes a higher one or another folder's internal headers, every
# folder has its contract header and is named in docs/architecture.md,
# hand-written files stay under 1,500 lines, and docs/architecture.dot is
# the graph the includes draw. The check must catch a violation.
. tests/lib.sh

if python3 scripts/check-layers.py >"$TMP/out" 2>&1; then
	pass "layers ($(tail -n 1 "$TMP/out"))"
else
	fail layers "$(head -n 5 "$TMP/out")"
fi

python3 scripts/check-layers.py --dot >"$TMP/dot" 2>&1
if cmp -s "$TMP/dot" docs/architecture.dot; then pass layers_dot_current; else
	fail layers_dot_current "docs/architecture.dot is not what the includes draw: make architecture"; fi
if grep -q '<svg' docs/architecture.svg; then pass layers_svg; else fail layers_svg "no docs/architecture.svg"; fi

missing=
for d in $(grep -v '^#' src/layers.txt); do
	grep -q "src/$d/" docs/architecture.md || missing="$missing $d"
done
if [ -z "$missing" ]; then pass layers_documented; else
	fail layers_documented "docs/architecture.md does not name:$missing"; fi

# A copy of src/ with three violations planted: each must be reported.
mkdir -p "$TMP/root"
cp -r src "$TMP/root/src"
printf '#include "verifier/verifier.h"\n' >>"$TMP/root/src/base/errbuf.c"
printf '#include "state/alloc.h"\n' >>"$TMP/root/src/analysis/cfg.c"
mkdir "$TMP/root/src/extra"
python3 scripts/check-layers.py --root "$TMP/root" >"$TMP/out" 2>&1
rc=$?
if [ $rc = 1 ] &&
	grep -q '^src/base/errbuf.c: includes "verifier/verifier.h" of verifier, a higher layer than base$' "$TMP/out" &&
	grep -q '^src/analysis/cfg.c: includes "state/alloc.h", not the contract state/state.h$' "$TMP/out" &&
	grep -q '^src/extra: a folder that src/layers.txt does not list$' "$TMP/out"; then
	pass layers_catches
else
	fail layers_catches "exit $rc: $(head -n 5 "$TMP/out")"
fi

# Every hand-written source file, in and out of src/, stays under 1,500
# lines (generated tables live in data/ folders).
long=$(find src tools tests scripts bench include -type f \( -name '*.c' -o -name '*.h' \
	-o -name '*.py' -o -name '*.sh' -o -name run \) ! -path '*/data/*' ! -path 'tests/fixtures/*' \
	-exec awk 'END { if (NR > 1500) print FILENAME ": " NR " lines" }' {} \;)
if [ -z "$long" ]; then pass layers_file_size; else fail layers_file_size "$long"; fi
