#!/bin/sh
# Records what the running kernel says of each example (examples/*.bpf.c)
# into tests/fixtures/examples/: kernel.tsv (verdict, processed
# instructions and first error per program) and NAME.log (the last lines
# of the log of each program the kernel rejects, from its error on).
# tests/cli/examples.sh checks bpfvet against these without privileges.
# Usage (root, after `make all examples`): scripts/record-examples.sh
set -eu
cd "$(dirname "$0")/.."
out=tests/fixtures/examples
bpfvet=build/bpfvet
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	echo "# Recorded from the live kernel $(uname -r) by scripts/record-examples.sh."
	echo "# file	prog	kernel verdict	processed insns	first error"
	for o in build/examples/*.bpf.o; do
		"$bpfvet" kernel --kernel-only -o csv "$o" >"$tmp/k.csv"
		python3 -c '
import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["kernel_verdict"] not in ("success", "failure"):
        sys.exit("record-examples: %s: kernel %s: %s" % (r["prog_name"], r["kernel_verdict"], r["kernel_error"]))
    print("\t".join([r["file_name"], r["prog_name"], r["kernel_verdict"],
                     r["kernel_total_insns"], r["kernel_error"]]))
' "$tmp/k.csv"
	done
} >"$tmp/kernel.tsv"
mv "$tmp/kernel.tsv" "$out/kernel.tsv"

# The rejected programs' logs, from the instruction that failed on (the
# statistics lines, whose time varies, left out).
awk -F'\t' '!/^#/ && $3 == "failure" && $5 !~ /too large|too complex/ { print $1 }' \
	"$out/kernel.tsv" | sort -u | while read -r f; do
	name=${f%.bpf.o}
	"$bpfvet" kernel --kernel-only -l 1 "build/examples/$f" >"$tmp/log" || true
	sed -n '/^Kernel log for/,/^verification time/p' "$tmp/log" |
		grep -v '^Kernel log for\|^verification time' | tail -n 3 >"$out/$name.log"
done
