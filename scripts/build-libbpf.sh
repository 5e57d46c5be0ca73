#!/bin/bash
# Builds the libbpf of Linux 6.12's tools/lib/bpf (libbpf 1.5) as a static
# library, for the conformance runner's live kernel loads.
#
# Why not Debian's libbpf 1.1.2: the selftest loader loads the corpus with
# the libbpf of its own kernel tree, and 1.1.2 does not know several section
# names of the 6.12 selftests (tc/ingress, tcx/ingress, netfilter,
# cgroup/*_unix) nor arena maps, so it would refuse programs that the
# selftests load. The library itself (src/) keeps using Debian's libbpf.
#
# The sources are those the corpus extracted (scripts/build-corpus.sh, run
# first when needed); nothing is written there.
#
# Usage: scripts/build-libbpf.sh OUTDIR     -> OUTDIR/libbpf.a
set -euo pipefail

die() { echo "build-libbpf: error: $*" >&2; exit 1; }

[ $# -eq 1 ] || die "usage: $0 OUTDIR"
out=$1
case $out in /*) ;; *) out=$PWD/$out ;; esac

corpus=$(scripts/build-corpus.sh --print-dir) || die "the corpus could not be built"
src=$corpus/src/tools/lib/bpf
[ -f "$src/libbpf.c" ] || die "no libbpf sources in $src"

tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
make -s -C "$src" OUTPUT="$tmp/" BUILD_STATIC_ONLY=1 -j2 "$tmp/libbpf.a" >"$tmp.log" 2>&1 ||
	die "make failed; see $tmp.log"
rm -rf "$out"
mkdir -p "$out"
mv "$tmp/libbpf.a" "$out/libbpf.a"
rm -rf "$tmp" "$tmp.log"
