# The corpus gate of --explore=join (issue 23): every program of
# tests/conformance/kernel-6.18.csv that the recorded kernel verified,
# verified for its target with --explore=join (the objects as
# scripts/target-agreement.sh finds them):
#  (a) nothing the kernel accepts is rejected;
#  (b) what it rejects for another reason than complexity ("BPF program is
#      too large", "The sequence of ... jumps is too complex", "too many
#      states") is rejected with the same message: the kernel's, or where
#      bpfvet's default walk already words it otherwise (the first-error
#      figure of tests/conformance/target-floor), the default walk's;
#  (c) printed, not asserted: the complexity rejections' fate, how many
#      programs fell back to the exact walk, how many the join did not
#      apply to, and the geometric mean of join_insns / the kernel's
#      processed instructions over the scale programs both accept
#      (bench/scale-programs.txt: the kernel's own scale lists).
# Like target_agreement, it runs the optimised build/bpfvet: about 3,400
# programs, twice (join and default walk), some seconds each time.
. tests/lib.sh
BPFVET=build/bpfvet
REF=tests/conformance/kernel-6.18.csv
need_corpus explore_join_corpus_build
need_target explore_join_corpus_target
[ -x "$BPFVET" ] || { fail explore_join_corpus "no $BPFVET: run make"; exit 0; }

for f in $(tail -n +2 "$REF" | cut -d, -f1 | sort -u); do
	for d in build/corpus/verifier build/corpus/progs build/realworld build/realworld/pcp \
		 build/realworld/cilium-ebpf; do
		[ -f "$d/$f" ] && { echo "$d/$f"; break; }
	done
done >"$TMP/objs"
run() {
	out=$1
	shift
	# shellcheck disable=SC2046
	"$BPFVET" $(cat "$TMP/objs") --target build/target-6.18 -o csv "$@" >"$out" 2>"$TMP/err"
	rc=$?
	[ $rc -le 1 ] || fail explore_join_corpus_run "exit $rc with $*: $(head -c 300 "$TMP/err")"
}
run "$TMP/join.csv" --explore=join \
	-e file_name,prog_name,verdict,total_insns,error,explore,join_verdict,join_insns,exact_insns,fallback
run "$TMP/default.csv" -e file_name,prog_name,verdict,total_insns,error

python3 - "$REF" "$TMP/join.csv" "$TMP/default.csv" bench/scale-programs.txt <<'EOF'
import csv, math, sys
ref_csv, join_csv, default_csv, scale_txt = sys.argv[1:5]
join = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(join_csv))}
default = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(default_csv))}
scale = {tuple(l.split()[:2]) for l in open(scale_txt) if l.strip() and not l.startswith('#')}
complexity = ('BPF program is too large', 'jumps is too complex', 'too many states')

accepted = rejected = as_default = verified = fallbacks = fallbacks_ok = kernel_mode = 0
fails = []
fate = []
ratios, totals = [], []
scale_fallbacks = 0
for k in csv.DictReader(open(ref_csv)):
    if k['stage'] != 'verifier' or k['verdict'] not in ('success', 'failure'):
        continue
    key = (k['file'], k['prog'])
    name = '%s/%s' % key
    g = join.get(key)
    if not g:
        fails.append('FAIL explore_join_corpus %s: no row' % name)
        continue
    verified += 1
    fallbacks += g['fallback'] == 'yes'
    kernel_mode += g['explore'] != 'join'
    if k['verdict'] == 'success':
        accepted += 1
        fallbacks_ok += g['fallback'] == 'yes'
        if g['verdict'] != 'success':
            fails.append('FAIL explore_join_corpus_accepted %s: %s %s' %
                         (name, g['verdict'], g['error'][:100]))
        elif (k['file'], k['prog']) in scale and g['explore'] == 'join':
            kernel_insns = max(int(k['insns']), 1)
            ratios.append(int(g['join_insns']) / kernel_insns)
            totals.append(int(g['total_insns']) / kernel_insns)
            scale_fallbacks += g['fallback'] == 'yes'
        continue
    if any(c in k['error'] for c in complexity):
        fate.append('#   %s: kernel "%s"; join %s, %s insns (joined %s, exact %s)' %
                    (name, k['error'], g['verdict'], g['total_insns'], g['join_insns'],
                     g['exact_insns']))
        continue
    rejected += 1
    d = default.get(key, {})
    if g['verdict'] == 'failure' and g['error'] == k['error']:
        continue
    if g['verdict'] == 'failure' and g['error'] == d.get('error') != k['error']:
        as_default += 1
        continue
    fails.append('FAIL explore_join_corpus_rejected %s: %s "%s", kernel "%s", default walk "%s"'
                 % (name, g['verdict'], g['error'][:80], k['error'][:80], d.get('error', '')[:80]))

if fails:
    print('\n'.join(fails))
if not any('_accepted ' in f for f in fails):
    print('PASS explore_join_corpus_accepted (%d programs the kernel accepts)' % accepted)
if not any('_rejected ' in f for f in fails):
    print('PASS explore_join_corpus_rejected (%d rejections; %d worded as the default walk, '
          'not the kernel)' % (rejected, as_default))

def geomean(v):
    return math.exp(sum(math.log(max(x, 1e-9)) for x in v) / len(v)) if v else float('nan')

print('# the kernel\'s complexity rejections:')
print('\n'.join(fate))
print('# %d programs verified: %d fell back to the exact walk (%d of them accepted by the '
      'kernel), %d walked as the kernel does (the join does not apply)'
      % (verified, fallbacks, fallbacks_ok, kernel_mode))
print('# scale programs both accept, joined: %d (%d fell back); geomean of join_insns / '
      'kernel insns %.3f, of all walks\' insns / kernel insns %.3f'
      % (len(ratios), scale_fallbacks, geomean(ratios), geomean(totals)))
EOF
