#!/bin/sh
# How far bpfvet --target VERSION is from what that kernel said: verifies
# the objects of tests/conformance/kernel-VERSION.csv (recorded by
# scripts/kernel-vm.sh) for the target the tree records (make target:
# build/target-VERSION; PROFILE=NAME|DIR picks another, e.g. the cached
# profile of make profiles, which has kallsyms too), and prints the verdict agreement over the programs the kernel verified, and
# how many shared rejections have the same first error.
# Usage: scripts/target-agreement.sh VERSION [--list|--messages]
#        (--list: every program whose verdict differs; --messages: every
#        shared rejection whose first error differs)
set -eu
cd "$(dirname "$0")/.."
V=${1:?usage: scripts/target-agreement.sh VERSION [--list|--messages]}
REF=tests/conformance/kernel-$V.csv
BPFVET=${BPFVET:-build/bpfvet}
[ -f "$REF" ] || { echo "target-agreement: no $REF (scripts/kernel-vm.sh $V)" >&2; exit 1; }
[ -n "${PROFILE:-}" ] || [ -f "build/target-$V/btf" ] ||
	{ echo "target-agreement: no build/target-$V (make target)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for f in $(tail -n +2 "$REF" | cut -d, -f1 | sort -u); do
	for d in build/corpus/verifier build/corpus/progs build/realworld build/realworld/pcp \
		 build/realworld/cilium-ebpf; do
		[ -f "$d/$f" ] && { echo "$d/$f"; break; }
	done
done >"$tmp/objs"
# shellcheck disable=SC2046
"$BPFVET" $(cat "$tmp/objs") --target "${PROFILE:-build/target-$V}" -o csv \
	-e file_name,prog_name,verdict,total_insns,error >"$tmp/got.csv" 2>"$tmp/err" || true
python3 - "$REF" "$tmp/got.csv" "${2:-}" "$tmp/objs" <<'EOF'
import csv, os, sys
ref = list(csv.DictReader(open(sys.argv[1])))
realworld = {os.path.basename(p) for p in open(sys.argv[4]).read().split()
             if p.startswith('build/realworld')}
got = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[2]))}
listing = sys.argv[3] == '--list'
messages = sys.argv[3] == '--messages'
n = agree = rej = same_msg = missing = unsupported = same_insns = 0
rw_n = rw_agree = rw_unsupported = 0
for k in ref:
    if k['stage'] != 'verifier' or k['verdict'] not in ('success', 'failure'):
        continue
    g = got.get((k['file'], k['prog']))
    n += 1
    if not g:
        missing += 1
        continue
    if g['verdict'] == 'unsupported':
        unsupported += 1
    if k['file'] in realworld:
        rw_n += 1
        rw_agree += g['verdict'] == k['verdict']
        rw_unsupported += g['verdict'] == 'unsupported'
    if g['verdict'] == k['verdict']:
        agree += 1
        same_insns += g['total_insns'] == k['insns']
        if k['verdict'] == 'failure':
            rej += 1
            same_msg += g['error'] == k['error']
            if messages and g['error'] != k['error']:
                print('%s/%s:\n  kernel: %s\n  bpfvet: %s' % (k['file'], k['prog'],
                                                          k['error'], g['error']))
    elif listing:
        print('%s/%s: kernel %s, bpfvet %s %s' % (k['file'], k['prog'], k['verdict'],
                                                g['verdict'], g['error'][:80]))
print('verdicts: %d of %d programs the kernel verified agree (%.1f%%); %d without a row'
      % (agree, n, 100.0 * agree / max(n, 1), missing))
d = n - missing - unsupported
print('where bpfvet decides (%d unsupported left out): %d of %d (%.1f%%)'
      % (unsupported, agree, d, 100.0 * agree / max(d, 1)))
print('of them real-world objects: %d of %d (%.1f%%; %d unsupported left out)'
      % (rw_agree, rw_n - rw_unsupported, 100.0 * rw_agree / max(rw_n - rw_unsupported, 1),
         rw_unsupported))
print('first error: %d of %d shared rejections (%.1f%%)' % (same_msg, rej,
      100.0 * same_msg / max(rej, 1)))
print('instructions processed: the same for %d of the %d agreeing programs (%.1f%%)'
      % (same_insns, agree, 100.0 * same_insns / max(agree, 1)))
# The loader's side: programs the kernel's loader refused (an extern or
# attach target the kernel lacks, a map it cannot create).
refused = [k for k in ref if k['verdict'] == 'refused']
both = sum(1 for k in refused if got.get((k['file'], k['prog']), {}).get('verdict') == 'refused')
extra = sum(1 for k in ref if k['verdict'] != 'refused' and
            got.get((k['file'], k['prog']), {}).get('verdict') == 'refused')
print('refused: %d of the %d programs the loader refused (%.1f%%); %d more'
      % (both, len(refused), 100.0 * both / max(len(refused), 1), extra))
EOF
