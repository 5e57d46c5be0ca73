# Verifier rules (docs/verifier-rules.md): the two rules by which the
# kernel build 6.18.44-fc-v1272 differs from the recorded reference
# (v1098), as a property of the target. With them, bpfvet gives the
# recorded v1272 logs of tests/progs/drift_v1272.c's probes
# (tests/fixtures/logs/drift-v1272.txt) and the v1272 figures of the
# corpus programs that drifted (tests/conformance/kernel-6.18-v1272.csv);
# without them, the reference's. Where they come from: --verifier-rules,
# a profile's verifier_rules file, the running kernel's probe (checked
# against the live kernel only when it loads BPF here).
. tests/lib.sh
need_target verifier_rules_target
OBJ=$PROGS/drift_v1272.o
FIX=tests/fixtures/logs/drift-v1272.txt
ALL=callback-scc,loop-slot-types
PROBES="cb_call_scc loop_misc_zero loop_spill_misc loop_zero_misc loop_entry_misc_zero"

# figures PROG OPTION...: "insns/states/peak" bpfvet gives for PROG.
figures() {
	p=$1
	shift
	"$BPFVET" verify "$@" -o csv -p "$p" "$OBJ" 2>/dev/null |
		awk -F, 'NR > 1 { print $5 "/" $6 "/" $7 }'
}

# The v1272 kernel's figures, from the recorded logs.
recorded() {
	awk -v p="$1" '$0 == "Kernel log for drift_v1272.o/" p ":" { f = 1; next }
		/^Kernel log/ { f = 0 }
		f && /^processed / { print $2 "/" $9 "/" $11 }' "$FIX"
}

# What bpfvet gives by the reference's rules (the comment of
# tests/progs/drift_v1272.c: v1098 has neither rule).
reference() {
	case $1 in
	cb_call_scc) echo 10/1/1 ;;
	loop_entry_misc_zero) echo 35/3/4 ;;
	*) echo 35/3/5 ;;
	esac
}

# expect NAME WANT GOT
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$3', want '$2'"; fi
}

for p in $PROBES; do
	want=$(recorded "$p")
	[ -n "$want" ] || fail "verifier_rules_fixture $p" "no processed line in $FIX"
	expect "verifier_rules_v1272 $p" "$want" "$(figures "$p" $TARGET --verifier-rules $ALL)"
	expect "verifier_rules_reference $p" "$(reference "$p")" "$(figures "$p" $TARGET)"
	expect "verifier_rules_none $p" "$(reference "$p")" \
		"$(figures "$p" $TARGET --verifier-rules none)"
done

# Each rule alone: callback-scc changes cb_call_scc only, loop-slot-types
# loop_misc_zero only.
expect verifier_rules_only_scc "10/1/2 35/3/5" \
	"$(figures cb_call_scc $TARGET --verifier-rules callback-scc) $(figures loop_misc_zero \
		$TARGET --verifier-rules callback-scc)"
expect verifier_rules_only_slots "10/1/1 33/3/5" \
	"$(figures cb_call_scc $TARGET --verifier-rules loop-slot-types) $(figures loop_misc_zero \
		$TARGET --verifier-rules loop-slot-types)"

# The whole level-2 log of each probe equals the kernel's but for the
# timing and stack lines and the iterator kfuncs' BTF ids (the recorded
# target's BTF is another build's).
norm_ids() { sed 's/\(bpf_iter_num_[a-z]*\)#[0-9]*/\1#ID/g'; }
for p in $PROBES; do
	"$BPFVET" verify $TARGET --verifier-rules $ALL -l 2 -o csv -p "$p" "$OBJ" 2>&1 |
		grep -v '^Log for \|^file_name,\|^drift_v1272.o,' | norm_ids >"$TMP/got"
	awk -v p="$p" '$0 == "Kernel log for drift_v1272.o/" p ":" { f = 1; next }
		/^Kernel log/ { f = 0 }
		f && !/^(verification time|stack depth) /' "$FIX" | norm_ids >"$TMP/want"
	if diff "$TMP/want" "$TMP/got" >"$TMP/diff"; then
		pass "verifier_rules_log $p"
	else
		fail "verifier_rules_log $p" "$(head -n 6 "$TMP/diff" | tr '\n' '|')"
	fi
done
# Key lines of rule 1 in the kernel's words, and none by the reference.
"$BPFVET" verify $TARGET --verifier-rules $ALL -l 2 -p cb_call_scc "$OBJ" >"$TMP/scc" 2>&1
log_has verifier_rules_scc_lines "$TMP/scc" "SCC enter (1)" "SCC exit (1)" \
	"  1   5: .1234..... (85) call bpf_loop#181"
"$BPFVET" verify $TARGET -l 2 -p cb_call_scc "$OBJ" >"$TMP/noscc" 2>&1
if grep -q '^SCC \|^  1   5:' "$TMP/noscc"; then
	fail verifier_rules_no_scc_lines "$(grep '^SCC ' "$TMP/noscc" | head -n 2)"
else
	pass verifier_rules_no_scc_lines
fi

# Bad lists are usage errors, of bpfvet kernel too (its bpfvet side).
for bad in bogus "callback-scc,,loop-slot-types" "callback-scc,none" ","; do
	expect_exit "verifier_rules_bad '$bad'" 2 "$BPFVET" verify $TARGET --verifier-rules "$bad" \
		"$OBJ"
done

expect_exit verifier_rules_bad_kernel 2 "$BPFVET" kernel --verifier-rules bogus "$OBJ"

# A profile folder's verifier_rules file, one name a line; absent, none;
# the option wins over it.
mkdir -p "$TMP/prof"
for f in btf config kernel_version syscall_wrapper; do
	ln -s "$(pwd)/build/target-6.18/$f" "$TMP/prof/$f"
done
expect verifier_rules_profile_absent 10/1/1 "$(figures cb_call_scc --target "$TMP/prof")"
printf 'callback-scc\n# the v1272 build\nloop-slot-types\n' >"$TMP/prof/verifier_rules"
expect verifier_rules_profile "10/1/2 33/3/5" "$(figures cb_call_scc --target "$TMP/prof") $(
	figures loop_misc_zero --target "$TMP/prof")"
expect verifier_rules_profile_option 10/1/1 \
	"$(figures cb_call_scc --target "$TMP/prof" --verifier-rules none)"
echo 'callback_scc' >"$TMP/prof/verifier_rules"
expect_exit verifier_rules_profile_bad 2 "$BPFVET" verify --target "$TMP/prof" "$OBJ"

# The corpus programs whose figures the v1272 build changed, recorded on
# it: with the rules, bpfvet gives each row's verdict, figures and error.
# Programs the corpus lacks here are skipped by need_corpus.
need_corpus verifier_rules_corpus
cut -d, -f1 tests/conformance/kernel-6.18-v1272.csv | sed 1d | sort -u >"$TMP/objs"
while read -r o; do
	f=build/corpus/progs/$o
	[ -f "$f" ] || f=build/corpus/verifier/$o
	build/bpfvet verify $TARGET --verifier-rules $ALL -o csv \
		-e file_name,prog_name,verdict,total_insns,total_states,peak_states,error "$f" \
		2>/dev/null | sed 1d
done <"$TMP/objs" >"$TMP/corpus.csv"
python3 - tests/conformance/kernel-6.18-v1272.csv "$TMP/corpus.csv" <<'PY'
import csv, sys
got = {(r[0], r[1]): r[2:] for r in csv.reader(open(sys.argv[2]))}
for k in csv.DictReader(open(sys.argv[1])):
    want = [k['verdict'], k['insns'], k['total_states'], k['peak_states'],
            k['error'] if k['verdict'] == 'failure' else '']
    have = got.get((k['file'], k['prog']))
    if have and have[0] != 'failure':
        have[4] = ''
    name = 'verifier_rules_corpus %s/%s' % (k['file'], k['prog'])
    print(('PASS ' + name) if have == want else
          'FAIL %s: got %s, v1272 kernel %s' % (name, have, want))
PY

# The probe of the running kernel. Unprivileged it cannot tell: -v says
# so and no rule is assumed. With BPF, it names a rule set, and bpfvet
# kernel (which targets the running kernel, rules included) then agrees
# with the kernel on the figures of every probe program.
probe_line() { grep '^bpfvet: verifier rules ' "$1"; }
# Root drops to nobody where it can; in a user namespace that maps only
# root (unshare --map-root-user) it cannot, and loads nothing anyway.
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	d=$(mktemp -d)
	chmod 755 "$d"
	cp build/bpfvet "$OBJ" "$d/"
	chmod 755 "$d/bpfvet"
	setpriv --reuid=65534 --regid=65534 --clear-groups "$d/bpfvet" verify --running-kernel -v \
		-p cb_call_scc "$d/drift_v1272.o" >/dev/null 2>"$TMP/unpriv"
	rm -rf "$d"
	case $(probe_line "$TMP/unpriv") in
	*"unknown: its probe failed ("*"); none assumed") pass verifier_rules_probe_unpriv ;;
	*) fail verifier_rules_probe_unpriv "$(head -c 300 "$TMP/unpriv")" ;;
	esac
else
	"$BPFVET" verify --running-kernel -v -p cb_call_scc "$OBJ" >/dev/null 2>"$TMP/unpriv"
	case $(probe_line "$TMP/unpriv") in
	*"unknown: its probe failed ("*"); none assumed") pass verifier_rules_probe_unpriv ;;
	*"(the running kernel's, probed)") pass verifier_rules_probe_unpriv ;;
	*) fail verifier_rules_probe_unpriv "$(head -c 300 "$TMP/unpriv")" ;;
	esac
fi
if kernel_loads verifier_rules_probe_live; then
	"$BPFVET" verify --running-kernel -v -p cb_call_scc "$OBJ" >/dev/null 2>"$TMP/live"
	rules=$(probe_line "$TMP/live" | sed -n "s/^bpfvet: verifier rules \(.*\) (the running kernel's, probed)$/\1/p")
	case $rules in
	none | callback-scc | loop-slot-types | $ALL) pass "verifier_rules_probe_live ($rules)" ;;
	*) fail verifier_rules_probe_live "$(head -c 300 "$TMP/live")" ;;
	esac
	build/bpfvet kernel -o csv -p '!iter_btf_refs' "$OBJ" >"$TMP/k.csv" 2>"$TMP/k.err"
	# Both sides' insns, states and peak states (columns 8-10, 16-18).
	n=$(awk -F, 'NR > 1 && $8 == $16 && $9 == $17 && $10 == $18' "$TMP/k.csv" | wc -l)
	expect "verifier_rules_probe_agrees ($rules)" 5 "$n"
fi
