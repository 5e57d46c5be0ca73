# --explore=join (issue 23) on tests/progs/explore_join.c and on the
# corpus's loop and scale programs:
#  - the verdict, and a rejection's message, are the kernel's: the live
#    kernel's for explore_join.o (tests/fixtures/explore/kernel.tsv), the
#    recorded 6.18's for the corpus (tests/conformance/kernel-6.18.csv);
#    pyperf600, loop3 and count_up_forever are accepted although the
#    kernel gives up on them ("The sequence of 8193 jumps is too
#    complex.", "BPF program is too large");
#  - with --no-fallback, what the kernel accepts is still accepted and the
#    loops that never end are still rejected;
#  - the -e fields agree with each other (fallback=yes iff the exact walk
#    ran; insns = join_insns + exact_insns);
#  - the instructions each walk processed equal
#    tests/fixtures/explore/insns.tsv (they are deterministic: a change
#    shows; `sh tests/cli/explore_join.sh --record` rewrites the file);
#  - --explore=kernel is the default walk, figure for figure;
#  - where the join does not apply (unprivileged loads, --no-prune,
#    programs with iterators, callbacks or may_goto) --explore=join walks
#    as the kernel does: explore=kernel and the default walk's figures.
# Without the corpus its part is skipped.
RECORD=
[ "${1:-}" = --record ] && RECORD=1
. tests/lib.sh
OBJ=$PROGS/explore_join.o
KERNEL=tests/fixtures/explore/kernel.tsv
INSNS=tests/fixtures/explore/insns.tsv
REF=tests/conformance/kernel-6.18.csv
CORPUS_OBJS="loop1 loop3 loop4 loop6 test_verif_scale1 test_verif_scale2 test_verif_scale3
pyperf50 pyperf600 strobemeta"
FIELDS=file_name,prog_name,verdict,total_insns,error,explore,join_verdict,join_insns,exact_insns,fallback

need_target explore_join_target
[ -s "$OBJ" ] || { fail explore_join "no $OBJ: run make progs"; exit 0; }
set -- "$OBJ"
if [ -f build/corpus/progs/loop1.bpf.o ]; then
	for o in $CORPUS_OBJS; do
		set -- "$@" "build/corpus/progs/$o.bpf.o"
	done
else
	skip explore_join_corpus "no build/corpus/progs (make corpus): explore_join.o only"
fi

# run OUT BPFVET OPTIONS...: every object, for the recorded target. The
# joined walks run in the sanitized build; the default walk, whose figures
# are only compared, in the optimised one when there is one (the scale
# programs take it over 2 million instructions).
FAST=$BPFVET
[ -x build/bpfvet ] && FAST=build/bpfvet
run() {
	out=$1 bin=$2
	shift 2
	# shellcheck disable=SC2086
	"$bin" "$@" $TARGET -o csv >"$out" 2>"$TMP/err"
	rc=$?
	[ $rc -le 1 ] || fail "explore_join_run" "exit $rc for $*: $(head -c 300 "$TMP/err")"
}
run "$TMP/join.csv" "$BPFVET" "$@" --explore=join -e $FIELDS
run "$TMP/nofb.csv" "$BPFVET" "$@" --explore=join --no-fallback -e $FIELDS
run "$TMP/default.csv" "$FAST" "$@" \
	-e file_name,prog_name,verdict,total_insns,total_states,peak_states,error,explore
run "$TMP/kernel.csv" "$FAST" "$@" --explore=kernel \
	-e file_name,prog_name,verdict,total_insns,total_states,peak_states,error,explore

python3 - "$TMP" "$KERNEL" "$REF" "$INSNS" "$CORPUS_OBJS" "$RECORD" <<'EOF'
import csv, sys
tmp, kernel_tsv, ref_csv, insns_tsv, corpus, record = sys.argv[1:7]
corpus = {o + '.bpf.o' for o in corpus.split()}

def rows(path):
    return {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(path))}

join, nofb = rows(tmp + '/join.csv'), rows(tmp + '/nofb.csv')
default, explore_kernel = rows(tmp + '/default.csv'), rows(tmp + '/kernel.csv')
out = []
def check(ok, name, why):
    out.append(('PASS %s' % name) if ok else 'FAIL %s: %s' % (name, why))

# What the kernel said: (verdict, insns, error) per program.
kernel = {}
for line in open(kernel_tsv):
    if line.startswith('#'):
        continue
    obj, prog, verdict, insns, error = line.rstrip('\n').split('\t')
    kernel[(obj, prog)] = (verdict, insns, error)
for r in csv.DictReader(open(ref_csv)):
    if r['file'] in corpus and (r['file'], r['prog']) in join:
        kernel[(r['file'], r['prog'])] = (r['verdict'], r['insns'], r['error'])
# The kernel gives up on pyperf600's 8193 jumps, and on loops whose 2^32
# or 2^64 trips pass its million instructions; the joined walk does not
# (their counters bound the trips: src/prune/join_deltas.c).
ACCEPTED_HERE = {('pyperf600.bpf.o', 'on_event'): 'jumps is too complex',
                 ('loop3.bpf.o', 'while_true'): 'BPF program is too large',
                 ('explore_join.o', 'count_up_forever'): 'BPF program is too large'}
# Loops that never end: rejected with or without the exact walk.
ENDLESS = {('explore_join.o', p) for p in ('spin_forever', 'counter_reset')}
complexity = ('BPF program is too large', 'jumps is too complex', 'too many states')

for key in sorted(kernel):
    name = '%s/%s' % key
    kv, _, kerr = kernel[key]
    want = 'success' if key in ACCEPTED_HERE else kv
    if key in ACCEPTED_HERE:
        check(kv == 'failure' and ACCEPTED_HERE[key] in kerr,
              'explore_join_record ' + name, 'the record says %s %s' % (kv, kerr))
    g = join.get(key)
    if not g:
        check(False, 'explore_join_verdict ' + name, 'no row')
        continue
    have = (g['verdict'], g['error'] if g['verdict'] == 'failure' else '')
    check(have == (want, kerr if want == 'failure' else ''),
          'explore_join_verdict ' + name, 'got %s, kernel %s' % (have, (kv, kerr)))
    n = nofb.get(key, {})
    if want == 'success':
        check(n.get('verdict') == 'success', 'explore_join_no_fallback ' + name,
              'got %s %s' % (n.get('verdict'), n.get('error')))
    elif key in ENDLESS or not any(c in kerr for c in complexity):
        check(n.get('verdict') == 'failure', 'explore_join_no_fallback ' + name,
              'got %s' % n.get('verdict'))

# The fields: one walk or two, and their counts add up.
for label, table, fallback_allowed in (('join', join, True), ('no_fallback', nofb, False)):
    bad = []
    for key, g in sorted(table.items()):
        ji, ei, ti = int(g['join_insns']), int(g['exact_insns']), int(g['total_insns'])
        why = []
        if g['explore'] != 'join':
            why.append('explore=%s' % g['explore'])
        if (g['fallback'] == 'yes') != (ei > 0):
            why.append('fallback=%s exact_insns=%d' % (g['fallback'], ei))
        if ti != ji + ei:
            why.append('insns %d != %d + %d' % (ti, ji, ei))
        if g['fallback'] == 'no' and g['verdict'] != g['join_verdict']:
            why.append('verdict %s, join_verdict %s' % (g['verdict'], g['join_verdict']))
        if g['fallback'] == 'yes' and g['join_verdict'] != 'failure':
            why.append('fell back after join_verdict %s' % g['join_verdict'])
        if not fallback_allowed and g['fallback'] != 'no':
            why.append('fell back under --no-fallback')
        if why:
            bad.append('%s/%s: %s' % (key[0], key[1], ', '.join(why)))
    check(not bad and table, 'explore_join_fields_' + label, '; '.join(bad[:4]) or 'no rows')

# --explore=kernel is the default walk; explore_join.o's default walk is
# the live kernel's, count for count.
bad = [k for k in default if default[k] != explore_kernel.get(k)]
check(not bad and default, 'explore_join_kernel_mode',
      'differs: %s' % ', '.join('%s/%s' % k for k in bad[:4]))
check(all(r['explore'] == 'kernel' for r in default.values()), 'explore_join_default_explore',
      'explore is not kernel by default')
for key, (kv, ki, _) in sorted(kernel.items()):
    if key[0] == 'explore_join.o':
        d = default.get(key, {})
        check((d.get('verdict'), d.get('total_insns')) == (kv, ki),
              'explore_join_default_insns %s' % key[1],
              'got %s %s, kernel %s %s' % (d.get('verdict'), d.get('total_insns'), kv, ki))

# Processed instructions, walk by walk.
got = []
for mode, table in (('join', join), ('no-fallback', nofb)):
    for key, g in sorted(table.items()):
        got.append('\t'.join([key[0], key[1], mode, g['verdict'], g['total_insns'],
                              g['join_insns'], g['exact_insns'], g['fallback']]))
if record:
    with open(insns_tsv, 'w') as f:
        f.write('# Instructions --explore=join processed, for the recorded 6.18 target\n'
                '# (tests/cli/explore_join.sh; sh tests/cli/explore_join.sh --record\n'
                '# rewrites it): per program and mode (with the exact walk as fallback,\n'
                '# or --no-fallback), the verdict, every walk\'s total, the joined\n'
                '# walks\', the exact walk\'s and whether it ran.\n'
                '# object\tprogram\tmode\tverdict\tinsns\tjoin_insns\texact_insns\tfallback\n')
        f.write('\n'.join(got) + '\n')
    print('explore_join: wrote %s' % insns_tsv)
want = {}
for line in open(insns_tsv):
    if not line.startswith('#'):
        w = line.rstrip('\n').split('\t')
        want[tuple(w[:3])] = line.rstrip('\n')
have = {tuple(l.split('\t')[:3]): l for l in got}
for key in sorted(set(want) | set(have)):
    if key[0] != 'explore_join.o' and key[0] not in corpus:
        continue
    if key not in have and key[0] in corpus and not any(k[0] in corpus for k in have):
        continue    # no corpus here: skipped above
    check(want.get(key) == have.get(key), 'explore_join_insns %s/%s %s' % key,
          'got %s, recorded %s' % (have.get(key), want.get(key)))
print('\n'.join(out))
EOF

# not_applied NAME OBJ OPTIONS...: --explore=join gives explore=kernel
# and the default walk's verdict, count and message, program by program.
not_applied() {
	name=$1 obj=$2
	shift 2
	[ -f "$obj" ] || { skip "$name" "no $obj"; return; }
	for mode in join kernel; do
		# shellcheck disable=SC2086
		"$BPFVET" "$obj" $TARGET --explore=$mode "$@" -o csv \
			-e file_name,prog_name,verdict,total_insns,error,explore >"$TMP/na-$mode.csv" 2>/dev/null
	done
	python3 - "$name" "$TMP/na-join.csv" "$TMP/na-kernel.csv" <<'PY'
import csv, sys
name, j, k = sys.argv[1:4]
j = list(csv.DictReader(open(j)))
k = list(csv.DictReader(open(k)))
show = lambda r: '%s %s %s %s' % (r['explore'], r['verdict'], r['total_insns'], r['error'][:60])
bad = ['%s: join mode gives %s, kernel mode %s' % (a['prog_name'], show(a), show(b))
       for a, b in zip(j, k) if a != b]
if not j or len(j) != len(k) or bad:
    print('FAIL %s: %s' % (name, '; '.join(bad[:3]) or 'rows differ'))
else:
    print('PASS %s (%d programs)' % (name, len(j)))
PY
}
not_applied explore_join_unpriv "$OBJ" --unpriv
not_applied explore_join_no_prune "$OBJ" --no-prune -p diamond_chain -p nested_loops -p map_walk
C=build/corpus/progs
if [ -f "$C/iters.bpf.o" ]; then
	not_applied explore_join_iterators "$C/iters.bpf.o" -p triple_continue -p iter_while_loop
	not_applied explore_join_iterators_pyperf "$C/pyperf600_iter.bpf.o"
	not_applied explore_join_callbacks "$C/pyperf600_bpf_loop.bpf.o"
	not_applied explore_join_may_goto build/corpus/verifier/verifier_iterating_callbacks.bpf.o \
		-p cond_break1 -p cond_break2
fi

# Call summaries: call_summary_hash calls one static function eight
# times; joined, later calls take an earlier walk's summary (fewer
# instructions than the exact walk), and --no-call-summaries walks every
# call (the exact walk's count: nothing else merges in it).
# shellcheck disable=SC2086
"$BPFVET" "$OBJ" $TARGET -p call_summary_hash -o csv -e total_insns --explore=kernel \
	>"$TMP/cs-kernel.csv" 2>/dev/null
for sw in "" --no-call-summaries; do
	# shellcheck disable=SC2086
	"$BPFVET" "$OBJ" $TARGET -p call_summary_hash -o csv --explore=join $sw \
		-e verdict,total_insns,join_call_reuses >"$TMP/cs$sw.csv" 2>/dev/null
done
k=$(tail -1 "$TMP/cs-kernel.csv")
set -- $(tail -1 "$TMP/cs.csv" | tr , ' ')
set -- "$@" $(tail -1 "$TMP/cs--no-call-summaries.csv" | tr , ' ')
if [ "$1" = success ] && [ "$3" -gt 0 ] && [ "$2" -lt "$k" ] && [ "$4" = success ] &&
	[ "$6" = 0 ] && [ "$5" = "$k" ]; then
	pass "explore_join_call_summaries ($3 calls summarized, $2 insns, exact $k)"
else
	fail explore_join_call_summaries "join: $1 $2 $3; no-call-summaries: $4 $5 $6; exact $k"
fi

# A stack pointer that a loop moves (stack_walk) and an offset that only
# an inner loop's sum bounds (nested_offset): joined, each is accepted
# with fewer instructions than with its part switched off, which walks
# the loop trip by trip (and the kernel's count is more again).
for spec in stack_walk:--no-stack-fold nested_offset:--no-nested-deltas; do
	prog=${spec%%:*} sw=${spec#*:}
	# shellcheck disable=SC2086
	on=$("$BPFVET" "$OBJ" $TARGET -p "$prog" -o csv --explore=join -e verdict,total_insns \
		2>/dev/null | tail -1)
	# shellcheck disable=SC2086
	off=$("$BPFVET" "$OBJ" $TARGET -p "$prog" -o csv --explore=join "$sw" -e verdict,total_insns \
		2>/dev/null | tail -1)
	if [ "${on%%,*}" = success ] && [ "${off%%,*}" = success ] && [ "${on#*,}" -lt "${off#*,}" ]; then
		pass "explore_join_part $sw ($prog: ${on#*,} insns, ${off#*,} without)"
	else
		fail "explore_join_part $sw" "$prog: with $on, without $off"
	fi
done

# Instructions with register numbers past r10 (verifier_uninit's) reach
# the joined walk's static passes before the walk rejects them: under
# the sanitizers ($BPFVET is build/san/bpfvet), no error report.
f=build/corpus/verifier/verifier_uninit.bpf.o
if [ -f "$f" ]; then
	# shellcheck disable=SC2086
	"$BPFVET" "$f" $TARGET --explore=join -q >/dev/null 2>"$TMP/uninit.err"
	if grep -q "runtime error\|ERROR: AddressSanitizer\|LeakSanitizer" "$TMP/uninit.err"; then
		fail explore_join_bad_regs "$(grep -m1 "runtime error\|ERROR:" "$TMP/uninit.err")"
	else
		pass explore_join_bad_regs
	fi
else
	skip explore_join_bad_regs "no $f (make corpus)"
fi

# Every instruction the kernel's walk reaches, each joined walk reaches
# too, with every part of the mode switched off in turn (distinct_insns):
# a walk that accepts without visiting one has pruned a path whose
# continuation nobody walked (--no-join-points once lost a loop's later
# trips this way, at checkpoints of a merge the loop had abandoned).
if [ -f build/corpus/progs/strobemeta_nounroll1.bpf.o ]; then
	objs=
	for o in loop1 loop2 loop4 loop6 strobemeta_nounroll1 test_cls_redirect test_sysctl_loop1; do
		objs="$objs build/corpus/progs/$o.bpf.o"
	done
	# shellcheck disable=SC2086
	"$BPFVET" $objs $TARGET -o csv -e file_name,prog_name,verdict,distinct_insns \
		>"$TMP/reach-kernel.csv" 2>/dev/null
	for sw in "" --no-join-points --no-loop-widen --no-thresholds --no-call-summaries \
		--no-call-widen --no-stack-fold --no-nested-deltas --no-fallback; do
		# shellcheck disable=SC2086
		"$BPFVET" $objs $TARGET --explore=join $sw -o csv \
			-e file_name,prog_name,verdict,distinct_insns >"$TMP/reach-join.csv" 2>/dev/null
		bad=$(python3 - "$TMP/reach-kernel.csv" "$TMP/reach-join.csv" <<'PY'
import csv, sys
k = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[1]))}
j = list(csv.DictReader(open(sys.argv[2])))
bad = ['%s/%s %s of %s' % (r['file_name'], r['prog_name'], r['distinct_insns'],
                           k[(r['file_name'], r['prog_name'])]['distinct_insns'])
       for r in j if r['verdict'] == 'success' and (r['file_name'], r['prog_name']) in k and
       int(r['distinct_insns']) < int(k[(r['file_name'], r['prog_name'])]['distinct_insns'])]
print('; '.join(bad) if bad or len(j) != len(k) else '')
PY
)
		if [ -z "$bad" ]; then
			pass "explore_join_reach ${sw:-all parts}"
		else
			fail "explore_join_reach ${sw:-all parts}" "accepted, fewer instructions reached: $bad"
		fi
	done
else
	skip explore_join_reach "no build/corpus/progs (make corpus)"
fi
