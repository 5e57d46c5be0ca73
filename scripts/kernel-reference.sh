#!/bin/sh
# Writes the reference verdicts of the running kernel for every program of
# the selftest corpus (build/corpus) and the real-world objects
# (build/realworld), as tests/conformance/kernel-6.18.csv holds them:
#
#   file,prog,prog_type,verdict,stage,errno,insns,total_states,peak_states,error
#
# verdict is success, failure or refused; stage is verifier or
# pre-verifier. Durations are left out: they change from run to run.
#
# usage: scripts/kernel-reference.sh [OUT.csv]   (default: stdout)
set -eu
cd "$(dirname "$0")/.."
BPFVET=${BPFVET:-build/bpfvet}
out=${1:-/dev/stdout}
for d in build/corpus build/realworld; do
	[ -d "$d" ] || { echo "kernel-reference: $d is missing (make corpus realworld)" >&2; exit 1; }
done
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
# Objects libbpf cannot open either make the command exit 2; their names
# go to stderr and they have no rows.
"$BPFVET" kernel --kernel-only -o csv build/corpus/verifier/*.o build/corpus/progs/*.o \
	build/realworld/*.o >"$tmp" || [ $? = 2 ]
python3 - "$tmp" >"$out" <<'EOF'
import csv, sys
rows = csv.DictReader(open(sys.argv[1]))
w = csv.writer(sys.stdout, lineterminator='\n')
w.writerow(['file', 'prog', 'prog_type', 'verdict', 'stage', 'errno', 'insns',
            'total_states', 'peak_states', 'error'])
for r in rows:
    w.writerow([r['file_name'], r['prog_name'], r['prog_type'], r['kernel_verdict'],
                r['kernel_stage'], r['kernel_errno'], r['kernel_total_insns'],
                r['kernel_total_states'], r['kernel_peak_states'], r['kernel_error']])
EOF
