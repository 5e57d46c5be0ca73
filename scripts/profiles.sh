#!/bin/sh
# make profiles: the target profiles that `bpfvet --target NAME` reads,
# in ${XDG_CACHE_HOME:-~/.cache}/bpfvet/profiles/NAME:
#   6.1, 6.12  Debian's kernels, booted once under qemu by
#              scripts/kernel-vm.sh VERSION --profile (their BTF, config,
#              release, kallsyms, syscall wrapper);
#   6.18       the recorded target (tests/conformance/target-6.18 and
#              kernel-6.18.build): BTF and config; no kallsyms was kept.
# Usage: scripts/profiles.sh [NAME...]   (default: all three)
set -eu
cd "$(dirname "$0")/.."
CACHE="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/bpfvet/profiles"
[ $# -gt 0 ] || set -- 6.1 6.12 6.18

profile_618() {
	scripts/target-record.sh 6.18 "$CACHE/6.18"
	echo "profiles: 6.18 in $CACHE/6.18" >&2
}

for name in "$@"; do
	case $name in
	6.1 | 6.12) scripts/kernel-vm.sh "$name" --profile ;;
	6.18) profile_618 ;;
	*) echo "profiles: unknown profile '$name' (6.1, 6.12, 6.18)" >&2; exit 1 ;;
	esac
done
