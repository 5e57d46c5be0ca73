# The examples of `make demo` (examples/*.bpf.c) against what the live
# Linux 6.18 kernel said of them (tests/fixtures/examples, recorded by
# scripts/record-examples.sh): each program's verdict, processed
# instructions and first error, the error lines of each rejected
# program's log, and the demo itself.
. tests/lib.sh
need_target examples_target
FIX=tests/fixtures/examples
EX=${BPFVET_EXAMPLES:-build/examples}

# Every example is recorded: a new one needs its kernel verdict.
for o in "$EX"/*.bpf.o; do
	f=$(basename "$o")
	if grep -q "^$f	" "$FIX/kernel.tsv"; then pass "examples_recorded $f"
	else fail "examples_recorded $f" "no row in $FIX/kernel.tsv: run scripts/record-examples.sh"; fi
done

# bpfvet's rows, in the fixture's columns (JSON, so that an error with a
# comma stays one field).
for o in "$EX"/*.bpf.o; do
	# shellcheck disable=SC2086
	"$BPFVET" verify "$o" $TARGET -o json -e file,prog,verdict,insns,error 2>>"$TMP/err"
done >"$TMP/rows.json"
python3 -c '
import json, sys
text = sys.stdin.read()
dec = json.JSONDecoder()
i = 0
while i < len(text):
    if text[i].isspace():
        i += 1
        continue
    doc, i = dec.raw_decode(text, i)
    for r in doc["programs"]:
        print("\t".join([r["file_name"], r["prog_name"], r["verdict"],
                         str(r["total_insns"]), r["error"]]))
' <"$TMP/rows.json" >"$TMP/rows.tsv" || fail examples_rows "unreadable output: $(head -c 300 "$TMP/rows.json")"
check_rows examples_kernel "$FIX/kernel.tsv" "$TMP/rows.tsv"

# A rejected program's log ends as the kernel's did.
for want in "$FIX"/*.log; do
	name=$(basename "$want" .log)
	# shellcheck disable=SC2086
	"$BPFVET" verify "$EX/$name.bpf.o" $TARGET -l 1 -q >"$TMP/$name.vlog" 2>&1
	missing=$(grep -vxF -f "$TMP/$name.vlog" "$want")
	if [ -z "$missing" ] && [ -s "$want" ]; then pass "examples_log $name"
	else fail "examples_log $name" "kernel lines not in bpfvet's log: $missing"; fi
done

# The demo: for the recorded target, each example's verdict as the
# kernel's, and the rejected program's error lines shown.
NEX=$(ls "$EX"/*.bpf.o | wc -l)
NACC=$(grep -c '^[^#]*	success	' "$FIX/kernel.tsv")
printf '#!/bin/sh\nexec %s "$@" %s\n' "$BPFVET" "$TARGET" >"$TMP/bpfvet"
chmod +x "$TMP/bpfvet"
if BPFVET="$TMP/bpfvet" scripts/demo.sh "$EX"/*.bpf.o >"$TMP/demo" 2>&1 &&
	grep -qxF '     invalid access to packet, off=16 size=2, R1(id=1,off=16,r=0)' "$TMP/demo" &&
	grep -q '^   xdp_too_complex  failure  1000001  BPF program is too large' "$TMP/demo" &&
	! grep -q MISMATCH "$TMP/demo" &&
	grep -qx "== $NEX examples: $NACC accepted, $((NEX - NACC)) rejected; $NEX as the kernel decided" "$TMP/demo"
then pass examples_demo; else fail examples_demo "$(tail -n 12 "$TMP/demo")"; fi

# ... and it says so when a verdict is not the kernel's (false: every
# program "rejected").
if BPFVET=false scripts/demo.sh "$EX/xdp_pass.bpf.o" >"$TMP/demo" 2>&1; then
	fail examples_demo_mismatch "exit 0: $(cat "$TMP/demo")"
elif grep -q "MISMATCH: bpfvet says failure" "$TMP/demo"; then
	pass examples_demo_mismatch
else fail examples_demo_mismatch "$(cat "$TMP/demo")"; fi
