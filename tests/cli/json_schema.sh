# The JSON of verify, verify --target A,B, kernel and ablate against its
# documented schema (docs/schema/*.json, docs/json.md), on the examples,
# tests/progs and corpus objects; and documents that break the schema are
# rejected. Needs python3's jsonschema (Debian's python3-jsonschema, which
# scripts/deps.sh installs): without it, SKIP.
. tests/lib.sh
need_target json_schema_target
EX=${BPFVET_EXAMPLES:-build/examples}
SCHEMAS=docs/schema

PY=
# Debian's python first: the one deps.sh gives jsonschema to.
for p in /usr/bin/python3 python3; do
	if "$p" -c 'import jsonschema' 2>/dev/null; then PY=$p; break; fi
done
if [ -z "$PY" ]; then
	skip json_schema "no python3 with jsonschema (Debian: python3-jsonschema; scripts/deps.sh installs it)"
	exit 0
fi
validate() { "$PY" scripts/json-validate.py "$@"; }

# valid NAME FILE [WANT_SCHEMA]: FILE is one document of its schema (and
# that schema is WANT_SCHEMA).
valid() {
	if ! out=$(validate "$2" 2>&1); then
		fail "$1" "$out"
	elif [ -n "${3:-}" ] && ! grep -q "^{\"schema\": \"$3\"" "$2"; then
		fail "$1" "not a $3 document: $(head -c 200 "$2")"
	else
		pass "$1"
	fi
}

# rejected NAME SCHEMA_FILE JSON: the validator refuses JSON.
rejected() {
	printf '%s\n' "$3" >"$TMP/bad.json"
	if out=$(validate --schema "$SCHEMAS/$2" "$TMP/bad.json" 2>&1); then
		fail "$1" "accepted: $3"
	elif echo "$out" | grep -q ': invalid: '; then
		pass "$1"
	else
		fail "$1" "validator failed: $out"
	fi
}

for s in "$SCHEMAS"/*.json; do
	if "$PY" -c 'import json, sys, jsonschema
jsonschema.Draft202012Validator.check_schema(json.load(open(sys.argv[1])))' "$s" 2>"$TMP/err"
	then pass "json_schema_wellformed $(basename "$s")"
	else fail "json_schema_wellformed $(basename "$s")" "$(tail -n 1 "$TMP/err")"; fi
done

# Every -e field of verify (tools/cmd_verify.c's table) is in the schema,
# and every schema field (of every schema) is documented in docs/json.md.
fields=$(sed -n 's/^\t\[F_[A-Z_]*\] = { "\([a-z_]*\)".*/\1/p' tools/cmd_verify.c | paste -sd, -)
if [ -n "$fields" ] && "$PY" -c 'import json, sys
props = json.load(open(sys.argv[1]))["$defs"]["program"]["properties"]
missing = [f for f in sys.argv[2].split(",") if f not in props]
sys.exit("not in the schema: %s" % missing if missing else 0)' "$SCHEMAS/bpfvet-verify-1.json" "$fields" 2>"$TMP/err"
then pass json_schema_verify_fields; else fail json_schema_verify_fields "${fields:-no fields found}: $(cat "$TMP/err")"; fi
if "$PY" -c 'import json, sys
doc = open("docs/json.md").read()
def names(node, out):
    if isinstance(node, dict):
        for k, v in node.get("properties", {}).items():
            out.add(k)
        for v in node.values():
            names(v, out)
    elif isinstance(node, list):
        for v in node:
            names(v, out)
    return out
missing = []
for path in sys.argv[1:]:
    s = json.load(open(path))
    if "explain" in path:
        continue
    missing += ["%s: %s" % (path, n) for n in sorted(names(s, set())) if "`%s`" % n not in doc]
sys.exit("\n".join(missing) if missing else 0)' "$SCHEMAS"/*.json 2>"$TMP/err"
then pass json_schema_documented; else fail json_schema_documented "undocumented in docs/json.md: $(cat "$TMP/err")"; fi

ALL=file_name,prog_name,section,prog_type,verdict,duration,total_insns,total_states,peak_states,max_states_per_insn,mark_read,mem_peak,distinct_insns,error
CORPUS="build/corpus/verifier/verifier_sdiv.bpf.o build/corpus/verifier/verifier_loops1.bpf.o build/corpus/progs/pyperf600.bpf.o"
for o in $CORPUS; do
	[ -f "$o" ] || { fail json_schema_corpus "no $o: run make corpus"; CORPUS=; break; }
done

# verify: default fields, every field (accepted, rejected, refused
# programs), and the logs of -l on stderr, not in the document.
# shellcheck disable=SC2086
"$BPFVET" verify $TARGET -o json "$EX"/*.bpf.o "$PROGS"/*.o >"$TMP/v1.json" 2>/dev/null
valid json_schema_verify_default "$TMP/v1.json" bpfvet-verify/1
# shellcheck disable=SC2086
"$BPFVET" verify $TARGET -o json -e "$ALL" "$EX"/*.bpf.o "$PROGS"/*.o $CORPUS >"$TMP/v2.json" 2>/dev/null
valid json_schema_verify_all "$TMP/v2.json" bpfvet-verify/1
verdicts=$(grep -o '"verdict": "[a-z]*"' "$TMP/v2.json" | sort -u | paste -sd' ' -)
case "$verdicts" in
*failure*refused*success*) pass json_schema_verify_verdicts ;;
*) fail json_schema_verify_verdicts "want success, failure and refused rows: $verdicts" ;;
esac
# shellcheck disable=SC2086
"$BPFVET" verify $TARGET -o json -l 2 -e "$ALL" "$EX/xdp_missing_check.bpf.o" >"$TMP/v3.json" 2>"$TMP/v3.log"
if grep -q '^R1 offset is outside of the packet$' "$TMP/v3.log"; then
	valid json_schema_verify_log "$TMP/v3.json" bpfvet-verify/1
else fail json_schema_verify_log "no log on stderr: $(head -c 200 "$TMP/v3.log")"; fi
# shellcheck disable=SC2086
"$BPFVET" verify $TARGET -o json "$TMP/none.o" >"$TMP/v4.json" 2>/dev/null
valid json_schema_verify_empty "$TMP/v4.json" bpfvet-verify/1

# verify --target A,B: verdicts and errors per target.
"$BPFVET" verify --target build/target-6.1,build/target-6.18 -o json -e error \
	"$EX"/*.bpf.o build/corpus/verifier/verifier_sdiv.bpf.o >"$TMP/m.json" 2>/dev/null
valid json_schema_matrix "$TMP/m.json" bpfvet-verify-matrix/1

# ablate, without the too-complex example (a million instructions per
# configuration).
# shellcheck disable=SC2086
"$BPFVET" ablate -o json -p '!xdp_too_complex' "$EX"/*.bpf.o \
	build/corpus/verifier/verifier_sdiv.bpf.o >"$TMP/a.json" 2>/dev/null
valid json_schema_ablate "$TMP/a.json" bpfvet-ablate/1
# A program its loader refuses has no runs, and the others still do.
expect_exit json_schema_ablate_refused 0 "$BPFVET" ablate -o json "$PROGS/conv_static.o"
if grep -q 'calls_undefined: refused: ' "$TMP/err" && ! grep -q '"calls_undefined"' "$TMP/out" &&
	grep -q '"config": "prune-max"' "$TMP/out"
then valid json_schema_ablate_refused_rows "$TMP/out" bpfvet-ablate/1
else fail json_schema_ablate_refused_rows "$(head -c 300 "$TMP/err")"; fi

# kernel: both sides, the kernel side alone, and with the log diff.
if kernel_loads json_schema_kernel; then
	"$BPFVET" kernel -o json "$EX"/*.bpf.o "$PROGS"/kernel_*.o "$PROGS/conv_static.o" \
		>"$TMP/k1.json" 2>/dev/null
	valid json_schema_kernel "$TMP/k1.json" bpfvet-kernel/1
	"$BPFVET" kernel -o json --kernel-only "$PROGS"/kernel_*.o >"$TMP/k2.json" 2>/dev/null
	valid json_schema_kernel_only "$TMP/k2.json" bpfvet-kernel/1
	"$BPFVET" kernel -o json --log-diff -l 1 "$EX/xdp_port_filter.bpf.o" "$EX/xdp_missing_check.bpf.o" \
		>"$TMP/k3.json" 2>/dev/null
	valid json_schema_kernel_log_diff "$TMP/k3.json" bpfvet-kernel/1
fi

# explain prints one bpfvet-explain/1 document per program and line
# (JSON Lines): each line is validated on its own. The examples (accepted,
# rejected, too complex, with --why-slow), the crafted explain programs
# and a few corpus rejections with loops, subprograms and stack slots.
# valid_lines NAME FILE: every line of FILE is a valid bpfvet-explain/1.
valid_lines() {
	n=0 bad=""
	while IFS= read -r line; do
		n=$((n + 1))
		printf '%s\n' "$line" >"$TMP/line.json"
		case $line in '{"schema":"bpfvet-explain/1",'*) ;; *) bad="line $n: not a bpfvet-explain/1 document"; break ;; esac
		if ! out=$(validate "$TMP/line.json" 2>&1); then bad="line $n: $out"; break; fi
	done <"$2"
	if [ "$n" = 0 ]; then
		fail "$1" "no documents"
	elif [ -n "$bad" ]; then
		fail "$1" "$bad"
	else
		pass "$1 ($n documents)"
	fi
}
"$BPFVET" explain -o json "$EX"/*.bpf.o >"$TMP/e1.jsonl" 2>/dev/null
valid_lines json_schema_explain_examples "$TMP/e1.jsonl"
"$BPFVET" explain -o json --why-slow "$EX/xdp_port_filter.bpf.o" >"$TMP/e2.jsonl" 2>/dev/null
valid_lines json_schema_explain_why_slow "$TMP/e2.jsonl"
grep -q '"hot_lines":\[{' "$TMP/e2.jsonl" && pass json_schema_explain_hot_lines ||
	fail json_schema_explain_hot_lines "--why-slow gave no hot_lines"
"$BPFVET" explain -o json "$PROGS"/explain_*.o >"$TMP/e3.jsonl" 2>/dev/null
valid_lines json_schema_explain_crafted "$TMP/e3.jsonl"
"$BPFVET" explain -o json -p 'deducing_bounds_from_const_*' -p 'loop*' \
	build/corpus/verifier/verifier_bounds_deduction.bpf.o build/corpus/verifier/verifier_loops1.bpf.o \
	build/corpus/verifier/verifier_spill_fill.bpf.o >"$TMP/e4.jsonl" 2>/dev/null
valid_lines json_schema_explain_corpus "$TMP/e4.jsonl"

# Documents that break the schemas are refused.
R='"file_name": "a.o", "prog_name": "p"'
rejected json_schema_bad_no_schema bpfvet-verify-1.json '{"programs": []}'
rejected json_schema_bad_array bpfvet-verify-1.json "[{$R}]"
rejected json_schema_bad_version bpfvet-verify-1.json '{"schema": "bpfvet-verify/2", "programs": []}'
rejected json_schema_bad_verdict bpfvet-verify-1.json "{\"schema\": \"bpfvet-verify/1\", \"programs\": [{$R, \"verdict\": \"accepted\"}]}"
rejected json_schema_bad_field bpfvet-verify-1.json "{\"schema\": \"bpfvet-verify/1\", \"programs\": [{$R, \"insns\": 3}]}"
rejected json_schema_bad_refused bpfvet-verify-1.json "{\"schema\": \"bpfvet-verify/1\", \"programs\": [{$R, \"verdict\": \"refused\", \"total_insns\": 3, \"error\": \"x\"}]}"
rejected json_schema_bad_null bpfvet-verify-1.json "{\"schema\": \"bpfvet-verify/1\", \"programs\": [{$R, \"verdict\": \"failure\", \"total_insns\": null, \"error\": \"x\"}]}"
rejected json_schema_bad_no_error bpfvet-verify-1.json "{\"schema\": \"bpfvet-verify/1\", \"programs\": [{$R, \"verdict\": \"unsupported\", \"error\": \"\"}]}"
rejected json_schema_bad_kernel_row bpfvet-kernel-1.json "{\"schema\": \"bpfvet-kernel/1\", \"programs\": [{$R, \"kernel_verdict\": \"success\"}]}"
sed 's/"bpfvet_mem_peak": [0-9]*, //' "$TMP/k1.json" >"$TMP/k1bad.json" 2>/dev/null
if [ -s "$TMP/k1bad.json" ]; then
	rejected json_schema_bad_kernel_side bpfvet-kernel-1.json "$(cat "$TMP/k1bad.json")"
fi
rejected json_schema_bad_matrix bpfvet-verify-matrix-1.json "{\"schema\": \"bpfvet-verify-matrix/1\", \"targets\": [\"6.1\", \"6.18\"], \"programs\": [{$R, \"verdicts\": {\"6.1\": \"ok\"}}]}"
rejected json_schema_bad_ablate bpfvet-ablate-1.json "{\"schema\": \"bpfvet-ablate/1\", \"configs\": [\"no-prune\"], \"runs\": []}"
rejected json_schema_bad_explain bpfvet-explain-1.json '{"schema": "bpfvet-explain/1", "error": {"insn": -1}}'
if [ -s "$TMP/e1.jsonl" ]; then
	# An accepted program with an error, a rejection with no error object,
	# a branch that is neither taken nor not taken.
	head -n 1 "$TMP/e1.jsonl" | sed 's/"error":null/"error":{"message":"x","insn":0,"line":null}/' >"$TMP/eb1.json"
	grep -q '"verdict":"accepted"' "$TMP/eb1.json" &&
		rejected json_schema_bad_explain_accepted_error bpfvet-explain-1.json "$(cat "$TMP/eb1.json")"
	grep '"verdict":"rejected"' "$TMP/e1.jsonl" | head -n 1 | sed 's/"error":{[^}]*}}/"error":null/' >"$TMP/eb2.json"
	rejected json_schema_bad_explain_no_error bpfvet-explain-1.json "$(cat "$TMP/eb2.json")"
	grep '"branch":"taken"' "$TMP/e1.jsonl" | head -n 1 | sed 's/"branch":"taken"/"branch":"maybe"/' >"$TMP/eb3.json"
	rejected json_schema_bad_explain_branch bpfvet-explain-1.json "$(cat "$TMP/eb3.json")"
fi
# ... and a document of one kind is not one of another.
rejected json_schema_bad_kind bpfvet-kernel-1.json "$(cat "$TMP/v1.json")"
