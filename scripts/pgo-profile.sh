#!/bin/sh
# make pgo-profile: the block counts the optimised build is guided by.
# An instrumented CLI (in BUILD_DIR) verifies every object of the selftest
# corpus for the recorded 6.18 target, once with the kernel's walk and
# once with --explore=join (whose code the kernel's walk never runs), and
# the counts of all runs are merged and written as text (diffable, and
# readable by any llvm-profdata of the same major version) to OUT.
# Usage: scripts/pgo-profile.sh BUILD_DIR OUT.proftext
set -eu
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 BUILD_DIR OUT.proftext" >&2; exit 2; }
B=$1
OUT=$2
CORPUS=build/corpus
TARGET="--btf build/target-6.18/btf --kconfig build/target-6.18/config --kernel-version 6.18.44 --nr-cpus 2 --no-syscall-wrapper"

[ -d "$CORPUS/progs" ] || { echo "pgo-profile: no corpus in $CORPUS (scripts/build-corpus.sh)" >&2; exit 1; }
[ -f build/target-6.18/btf ] || { echo "pgo-profile: no build/target-6.18 (make target)" >&2; exit 1; }
make --no-print-directory -j2 B="$B" PGO= LTO= CFLAGS="-O2 -g -fprofile-instr-generate" "$B/bpfvet"
rm -rf "$B/prof"
mkdir -p "$B/prof"
n=0
for obj in "$CORPUS"/progs/*.o "$CORPUS"/verifier/*.o; do
	[ -e "$obj" ] || continue
	# Rejections and unsupported programs are part of the training.
	for explore in kernel join; do
		# shellcheck disable=SC2086
		LLVM_PROFILE_FILE="$B/prof/%m.profraw" "$B/bpfvet" verify $TARGET -q \
			--explore=$explore "$obj" >/dev/null 2>&1 || true
	done
	n=$((n + 1))
done
llvm-profdata-19 merge -o "$B/prof/merged.profdata" "$B"/prof/*.profraw
llvm-profdata-19 merge --text -o "$OUT" "$B/prof/merged.profdata"
echo "pgo-profile: $n objects, $(grep -c '^# Func Hash' "$OUT") functions in $OUT" >&2
