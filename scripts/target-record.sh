#!/bin/sh
# A target profile folder (the files `bpfvet --target DIR` reads) made
# from what the tree records of a kernel: tests/conformance/target-NAME/
# (BTF and config, xz) and kernel-NAME.build (release, LINUX_KERNEL_VERSION,
# syscall wrapper). No kallsyms is kept in the tree.
# Usage: scripts/target-record.sh NAME DIR   (NAME: 6.1, 6.12 or 6.18)
set -eu
cd "$(dirname "$0")/.."
name=${1:?usage: scripts/target-record.sh NAME DIR}
dir=${2:?usage: scripts/target-record.sh NAME DIR}
src=tests/conformance/target-$name
build=tests/conformance/kernel-$name.build
[ -f "$src/btf.xz" ] && [ -f "$build" ] ||
	{ echo "target-record: no $src/btf.xz or $build" >&2; exit 1; }
# The 6.18 record describes two builds, the reference and the target
# ("target." keys); the others are one kernel.
key() { sed -n "s/^\(target\.\)\{0,1\}$1: *//p" "$build" | tail -n 1; }
rm -rf "$dir.tmp"
mkdir -p "$dir.tmp"
xz -dc "$src/btf.xz" >"$dir.tmp/btf"
xz -dc "$src/config.xz" >"$dir.tmp/config"
key release >"$dir.tmp/release"
key kernel_version >"$dir.tmp/kernel_version"
key syscall_wrapper | cut -c1 >"$dir.tmp/syscall_wrapper"
[ -s "$dir.tmp/release" ] && [ -s "$dir.tmp/kernel_version" ] && [ -s "$dir.tmp/syscall_wrapper" ] ||
	{ rm -rf "$dir.tmp"; echo "target-record: $build names no release, kernel_version or syscall_wrapper" >&2; exit 1; }
rm -rf "$dir"
mv "$dir.tmp" "$dir"
