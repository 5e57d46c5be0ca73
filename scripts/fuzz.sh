#!/bin/sh
# Runs the loader fuzzer for SECONDS (default 60) on a corpus seeded with
# every compiled test program and example. Fails on any crash, sanitizer
# report, leak or timeout; prints libFuzzer's final figures.
# Usage: scripts/fuzz.sh [SECONDS]   (build first: make fuzz-build progs)
set -u
secs=${1:-60}
cd "$(dirname "$0")/.." || exit 2
bin=build/fuzz/fuzz_loader
if [ ! -x "$bin" ]; then
	echo "fuzz.sh: $bin is missing: run 'make fuzz-build progs'" >&2
	exit 2
fi
corpus=build/fuzz/corpus
seeds=build/fuzz/seeds
art=build/fuzz/artifacts
log=build/fuzz/last.log
mkdir -p "$corpus" "$seeds" "$art"
for o in build/progs/*.o build/examples/*.o; do
	[ -f "$o" ] && cp "$o" "$seeds/"
done
if [ -z "$(ls "$seeds")" ]; then
	echo "fuzz.sh: no seed objects: run 'make progs examples'" >&2
	exit 2
fi
before=$(ls "$art" | wc -l)
"$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
	-print_final_stats=1 -artifact_prefix="$art/" "$corpus" "$seeds" \
	>"$log" 2>&1
rc=$?
grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb)|^#[0-9]+ +DONE' "$log"
after=$(ls "$art" | wc -l)
if [ "$rc" -ne 0 ] || [ "$after" -ne "$before" ]; then
	echo "fuzz.sh: FAILED (exit $rc); see $log and $art/" >&2
	grep -E 'ERROR|SUMMARY|==[0-9]+==' "$log" | head -20 >&2
	exit 1
fi
echo "fuzz.sh: no crash in ${secs}s"
