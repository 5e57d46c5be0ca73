# bpfvet explain (src/explain/, docs/explain.md) on the crafted programs
# tests/progs/explain_*.c: each marks the line of its root cause
# (ROOT:prog) and some their class (CLASS:prog:class); explain -o json
# must name the marked line for at least 90% of them. The error
# instruction must be the one the live 6.18.44 kernel's log names
# (tests/cli/explain-kernel-6.18.tsv, recorded with bpfvet kernel), and a
# traced verification must give the verdict and figures of an untraced
# one. The corpus measure (scripts/explain-corpus.py) ratchets on the
# kernel's side recorded in tests/conformance/explain-6.18.tsv.
. tests/lib.sh
[ -s "$TARGET_BTF" ] || { fail explain "no build/target-6.18: run make target"; exit 0; }
for f in null bounds misc compiler limits loss loss2; do
	[ -s "$PROGS/explain_$f.o" ] || { fail explain "no $PROGS/explain_$f.o: run make progs"; exit 0; }
done
OBJS="$PROGS/explain_null.o $PROGS/explain_bounds.o $PROGS/explain_misc.o $PROGS/explain_compiler.o $PROGS/explain_limits.o $PROGS/explain_loss.o $PROGS/explain_loss2.o"

# The root lines, and the figure.
# shellcheck disable=SC2086
python3 scripts/explain-check.py "$BPFVET" tests/progs $OBJS -- $TARGET >"$TMP/check" 2>&1
st=$?
grep -v '^explain root lines named' "$TMP/check"
figure=$(grep '^explain root lines named' "$TMP/check")
echo "$figure"
if [ $st = 0 ] && [ -n "$figure" ]; then
	pass "explain_root_figure"
else
	fail "explain_root_figure" "below 90%: $figure"
fi

# One JSON document per program; the fields the tests and docs promise.
for o in $OBJS; do
	# shellcheck disable=SC2086
	"$BPFVET" explain "$o" -o json $TARGET >>"$TMP/all.json" 2>"$TMP/err"
done
python3 - "$TMP/all.json" tests/cli/explain-kernel-6.18.tsv <<'EOF' >"$TMP/json"
import json, sys
docs = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    docs[(d['file'], d['program'])] = d
bad = []
for d in docs.values():
    name = d['program']
    if d['schema'] != 'bpfvet-explain/1':
        bad.append('%s: schema %s' % (name, d['schema']))
    st = d['insn_stats']
    if sum(s[0] for s in st) != d['insns_processed']:
        bad.append('%s: visits sum %d, processed %d' % (name, sum(s[0] for s in st), d['insns_processed']))
    if sum(s[1] for s in st) != d['total_states']:
        bad.append('%s: states sum %d, total_states %d' % (name, sum(s[1] for s in st), d['total_states']))
    steps = d['path']['steps']
    if d['error'] and d['error']['insn'] >= 0 and steps and not d['path']['truncated'] \
            and steps[-1]['insn'] != d['error']['insn']:
        bad.append('%s: path ends at %d, error at %d' % (name, steps[-1]['insn'], d['error']['insn']))
    if d['verdict'] == 'rejected' and not d['hint']:
        bad.append('%s: no hint' % name)
print('PASS explain_json_fields' if not bad else 'FAIL explain_json_fields: ' + '; '.join(bad[:5]))
for line in open(sys.argv[2]):
    if line.startswith('#'):
        continue
    obj, prog, insn, msg = line.rstrip('\n').split('\t')
    d = docs.get((obj, prog))
    got = d and d['error'] and d['error']['insn']
    if got == int(insn):
        print('PASS explain_kernel_insn %s' % prog)
    else:
        print('FAIL explain_kernel_insn %s: explain says insn %s, the kernel %s (%s)' % (prog, got, insn, msg))
EOF
cat "$TMP/json"

# Tracing changes nothing: the verdicts and figures of verify.
# shellcheck disable=SC2086
"$BPFVET" $OBJS -o csv -e prog_name,verdict,total_insns,total_states $TARGET 2>/dev/null |
	tail -n +2 | sed 's/,failure,/,rejected,/; s/,success,/,accepted,/' | sort >"$TMP/verify"
python3 -c '
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    print("%s,%s,%d,%d" % (d["program"], d["verdict"], d["insns_processed"], d["total_states"]))
' "$TMP/all.json" | sort >"$TMP/explained"
if cmp -s "$TMP/verify" "$TMP/explained"; then
	pass explain_same_figures
else
	fail explain_same_figures "$(diff "$TMP/verify" "$TMP/explained" | head -5)"
fi

# --unpriv explains what verify --unpriv decides: the same unprivileged
# loader (no object BTF without CAP_BPF, so verifier_spin_lock's map value
# has no lock and the helper call is what fails).
SPIN=build/corpus/verifier/verifier_spin_lock.bpf.o
if [ -f "$SPIN" ]; then
	# shellcheck disable=SC2086
	"$BPFVET" --unpriv $SPIN -o csv -e prog_name,verdict,total_insns,error $TARGET 2>/dev/null |
		tail -n +2 | sed 's/,failure,/,rejected,/; s/,success,/,accepted,/' | sort >"$TMP/uverify"
	# shellcheck disable=SC2086
	"$BPFVET" explain --unpriv -o json $SPIN $TARGET 2>/dev/null | python3 -c '
import csv, json, sys
w = csv.writer(sys.stdout, lineterminator="\n")
for line in sys.stdin:
    d = json.loads(line)
    # verify leaves the counts of a refused program empty
    w.writerow([d["program"], d["verdict"],
                "" if d["verdict"] == "refused" else d["insns_processed"],
                d["error"]["message"] if d["error"] else ""])
' | sort >"$TMP/uexplained"
	if [ -s "$TMP/uverify" ] && cmp -s "$TMP/uverify" "$TMP/uexplained" &&
		grep -q 'cannot use helper bpf_spin_lock' "$TMP/uexplained"; then
		pass explain_unpriv_as_verify
	else
		fail explain_unpriv_as_verify "$(diff "$TMP/uverify" "$TMP/uexplained" | head -5)"
	fi
else
	fail explain_unpriv_as_verify "no $SPIN: make corpus"
fi

# Text: the error's line, the class, the hint, where knowledge was lost.
# shellcheck disable=SC2086
"$BPFVET" explain "$PROGS/explain_compiler.o" -p link_mul $TARGET >"$TMP/text"
st=$?
if [ $st = 1 ] && grep -q '^class: compiler$' "$TMP/text" &&
   grep -q '^knowledge lost (link-broken) at insn 10, explain_compiler.c:16:' "$TMP/text" &&
   grep -q '^  at insn 14, explain_compiler.c:19: return v\[j\];' "$TMP/text"; then
	pass explain_text
else
	fail explain_text "exit $st: $(head -c 400 "$TMP/text")"
fi

# --why-slow: the loop's lines lead, by visits.
# shellcheck disable=SC2086
"$BPFVET" explain "$PROGS/explain_limits.o" -p too_many_insns --why-slow --top 2 $TARGET >"$TMP/slow"
if grep -q '^work: 1000001 insns processed' "$TMP/slow" &&
   grep -A1 '  *visits  *states' "$TMP/slow" | grep -q 'acc += i ^ skb->len;' &&
   grep -A2 '  *visits  *states' "$TMP/slow" | grep -q 'for (__u32 i = 0; i < 300000; i++)'; then
	pass explain_why_slow
else
	fail explain_why_slow "$(head -c 400 "$TMP/slow")"
fi

# The corpus: explain names the kernel's error instruction and its source
# line for at least the recorded share of the kernel-rejected programs.
# The optimised build when there is one: a thousand objects' worth.
FAST=$BPFVET
[ -x build/bpfvet ] && FAST=build/bpfvet
if [ -s tests/conformance/explain-6.18.tsv ] && [ -d build/corpus/verifier ]; then
	# shellcheck disable=SC2086
	python3 scripts/explain-corpus.py "$FAST" tests/conformance/kernel-6.18.csv \
		build/corpus/verifier build/corpus/progs --recorded tests/conformance/explain-6.18.tsv \
		-- $TARGET >"$TMP/corpus" 2>&1
	tail -n 3 "$TMP/corpus"
	floor=$(sed -n 's/^# floor: //p' tests/conformance/explain-6.18.tsv)
	got=$(sed -n 's/.*and its source line: \([0-9]*\) of.*/\1/p' "$TMP/corpus")
	# Every program, not a share: a miss fails even above the floor.
	# (Programs where this kernel drifted from the reference are left
	# out by the script, and listed as DRIFT.)
	if [ -n "$got" ] && [ "$got" -ge "${floor:-0}" ] && ! grep -q '^MISS ' "$TMP/corpus"; then
		pass "explain_corpus_lines ($got, floor $floor)"
	else
		fail explain_corpus_lines "$got (floor $floor): $(grep '^MISS ' "$TMP/corpus" | head -3)"
	fi
else
	skip explain_corpus_lines "no corpus or no tests/conformance/explain-6.18.tsv"
fi
