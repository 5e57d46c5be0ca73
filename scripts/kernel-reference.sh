#!/bin/sh
# The Linux 6.18 reference: what the running kernel says about every
# program of the selftest corpus (build/corpus) and the real-world objects
# (build/realworld), as tests/conformance/kernel-6.18.csv holds it:
#
#   file,prog,prog_type,verdict,stage,errno,insns,total_states,peak_states,error
#
# verdict is success, failure or refused; stage is verifier or
# pre-verifier. Durations are left out: they change from run to run.
#
# usage: scripts/kernel-reference.sh [OUT.csv]   (default: stdout)
#        scripts/kernel-reference.sh --realworld [OUT.csv]
#        scripts/kernel-reference.sh --describe  (this kernel's lines for
#                                     tests/conformance/kernel-6.18.build)
#
# --realworld records every object `make realworld` gathers (libbpf-tools,
# xdp-tools, libxdp, pcp/, cilium-ebpf/), each loaded by the conventions
# of its own loader as bpfvet chooses them (--loader auto) and relocated
# for this kernel's BTF, into tests/conformance/kernel-6.18-realworld.csv:
# the same columns, file as its path under build/realworld, and a section
# column after prog. tests/cli/realworld.sh compares bpfvet with it.
#
# The reference is one kernel build's record, never today's kernel: tests
# compare bpfvet with it, and `make kernel-check` reports how the running
# kernel differs from it. Refreshing it makes another build the reference,
# so do it deliberately, all in one commit, on the build you mean:
#   1. the target, from this kernel (the corpus is compiled against it):
#        xz -9e -c /sys/kernel/btf/vmlinux >tests/conformance/target-6.18/btf.xz
#        zcat /proc/config.gz | xz -9e -c >tests/conformance/target-6.18/config.xz
#      then `make target corpus realworld` (a new corpus: the BTF changed);
#   2. the verdicts:  scripts/kernel-reference.sh tests/conformance/kernel-6.18.csv
#      and the test loader's: build/conformance-runner -q --reference live \
#        --record tests/conformance/kernel-6.18-testloader.csv build/corpus/verifier
#   3. the fixtures: make helper-fixtures disasm-fixtures; CTX_FIXTURE_WRITE=1 and
#      MAPS_FIXTURE_WRITE=1 build/san/tests/test_{ctx,maps}_kernel;
#      make scalar-fixtures; scripts/disasm-fixture.py record and
#      scripts/level2-fixture.py record for tests/fixtures/logs (level2,
#      prune and btf_trace lists);
#      tests/fixtures/verify/kernel-agree.tsv from the new csv;
#   4. the names: scripts/kernel-reference.sh --describe, into the
#      verdicts.* and target.* lines of tests/conformance/kernel-6.18.build;
#   5. make test, and explain every change of bpfvet's agreement.
set -eu
cd "$(dirname "$0")/.."
BPFVET=${BPFVET:-build/bpfvet}

describe() {
	cfg=$(mktemp)
	if [ -r /proc/config.gz ]; then
		zcat /proc/config.gz >"$cfg"
	elif [ -r "/boot/config-$(uname -r)" ]; then
		cat "/boot/config-$(uname -r)" >"$cfg"
	fi
	for who in verdicts target; do
		echo "$who.release: $(uname -r)"
		echo "$who.version: $(uname -v)"
		if [ -s "$cfg" ]; then
			echo "$who.config_sha256: $(sha256sum <"$cfg" | cut -d' ' -f1)"
		else
			echo "$who.config_sha256: not recorded (no /proc/config.gz or /boot/config-*)"
		fi
		if [ -r /sys/kernel/btf/vmlinux ]; then
			echo "$who.btf_sha256: $(sha256sum </sys/kernel/btf/vmlinux | cut -d' ' -f1)"
		else
			echo "$who.btf_sha256: not recorded (no /sys/kernel/btf/vmlinux)"
		fi
		echo "$who.nr_cpus: $(grep -c '^processor' /proc/cpuinfo)"
	done
	rm -f "$cfg"
}

if [ "${1:-}" = "--describe" ]; then
	describe
	exit 0
fi

realworld() {
	out=$1
	case $BPFVET in /*) ;; *) BPFVET=$PWD/$BPFVET ;; esac
	[ -d build/realworld ] || { echo "kernel-reference: build/realworld is missing (make realworld)" >&2; exit 1; }
	tmp=$(mktemp)
	trap 'rm -f "$tmp"' EXIT
	# shellcheck disable=SC2046
	set -- $(cd build/realworld && ls ./*.o pcp/*.o cilium-ebpf/*.elf | sed 's|^\./||')
	# Objects their loader refuses as a whole make the command exit 2;
	# they have no rows.
	(cd build/realworld && "$BPFVET" kernel --kernel-only -o csv "$@") >"$tmp" || [ $? = 2 ]
	python3 - "$tmp" "$@" >"$out" <<'EOF'
import csv, os, sys
paths = {}
for p in sys.argv[2:]:
    b = os.path.basename(p)
    if b in paths:
        sys.exit('kernel-reference: two real-world objects named %s' % b)
    paths[b] = p
w = csv.writer(sys.stdout, lineterminator='\n')
w.writerow(['file', 'prog', 'section', 'prog_type', 'verdict', 'stage', 'errno', 'insns',
            'total_states', 'peak_states', 'error'])
for r in csv.DictReader(open(sys.argv[1])):
    w.writerow([paths[r['file_name']], r['prog_name'], r['section'], r['prog_type'],
                r['kernel_verdict'], r['kernel_stage'], r['kernel_errno'],
                r['kernel_total_insns'], r['kernel_total_states'], r['kernel_peak_states'],
                r['kernel_error']])
EOF
}

if [ "${1:-}" = "--realworld" ]; then
	realworld "${2:-/dev/stdout}"
	exit 0
fi
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
