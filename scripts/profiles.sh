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
	dir="$CACHE/6.18"
	build=tests/conformance/kernel-6.18.build
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	xz -dc tests/conformance/target-6.18/btf.xz >"$dir.tmp/btf"
	xz -dc tests/conformance/target-6.18/config.xz >"$dir.tmp/config"
	sed -n 's/^target\.release: *//p' "$build" >"$dir.tmp/release"
	sed -n 's/^target\.kernel_version: *//p' "$build" >"$dir.tmp/kernel_version"
	sed -n 's/^target\.syscall_wrapper: *\([01]\).*/\1/p' "$build" >"$dir.tmp/syscall_wrapper"
	[ -s "$dir.tmp/release" ] && [ -s "$dir.tmp/kernel_version" ] ||
		{ echo "profiles: $build names no target release" >&2; exit 1; }
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	echo "profiles: 6.18 in $dir" >&2
}

for name in "$@"; do
	case $name in
	6.1 | 6.12) scripts/kernel-vm.sh "$name" --profile ;;
	6.18) profile_618 ;;
	*) echo "profiles: unknown profile '$name' (6.1, 6.12, 6.18)" >&2; exit 1 ;;
	esac
done
