# --prune=max against the kernel's own figures, as recorded by the last
# `make bench` (bench/results/latest.csv: Linux 6.18 on this machine's
# kind, targeting its BTF). Every verdict on which bpfvet agrees with the
# kernel stays the kernel's under --prune=max (one the kernel gives only
# for complexity may turn into an acceptance), and over the programs both
# accept the geometric means of bpfvet/kernel are held to the measured
# figures (docs/benchmarks.md): peak_states at most 0.70, processed
# instructions at most 1.00. Peak states are compared where the kernel
# has states, ours counted as at least 1: dropping to none earns nothing.
# bpfvet verifies for the recorded target (tests/lib.sh), with the
# optimized build: these are full passes over the corpus, about figures.
. tests/lib.sh
REF=bench/results/latest.csv
BPFVET=build/bpfvet
need_corpus prune_max_build
need_target prune_max_target
OPTS="$TARGET"
set --
for obj in $(tail -n +2 "$REF" | cut -d, -f2 | sort -u); do
	path=build/corpus/verifier/$obj
	[ -e "$path" ] || path=build/corpus/progs/$obj
	set -- "$@" "$path"
done
# shellcheck disable=SC2086
"$BPFVET" "$@" $OPTS --prune=max -o csv \
	-e file_name,prog_name,verdict,total_insns,peak_states,error 2>/dev/null |
	tail -n +2 | cut -d, -f1-5 >"$TMP/got.csv"
# ref: 2 file, 3 prog, 5 kernel_verdict, 7 match, 8 kernel_insns,
# 12 kernel_peak_states, 24 kernel_error
awk -F, '
	NR == FNR { got[$1 "," $2] = $3 "," $4 "," $5; next }
	FNR == 1 || $7 != "yes" { next }
	{
		key = $2 "," $3; total++
		if (!(key in got)) { printf "missing %s\n", key; bad++; next }
		split(got[key], g, ",")
		# A program bpfvet no longer decides (a feature it reports as
		# unsupported after the run was recorded) says nothing of pruning.
		if (g[1] == "unsupported") next
		if (g[1] != $5 && !($24 ~ /too large|too complex/ && g[1] == "success")) {
			printf "verdict %s: %s, kernel %s\n", key, g[1], $5; bad++; next
		}
		if ($5 != "success" || g[1] != "success") next
		n++; li += log(g[2] / $8)
		if ($12 > 0) { m++; lp += log((g[3] > 0 ? g[3] : 1) / $12) }
	}
	END {
		printf "programs %d both_accept %d insns %.4f peak %.4f %d bad %d\n",
		       total, n, n ? exp(li / n) : 9, m ? exp(lp / m) : 9, m, bad + 0
	}' "$TMP/got.csv" "$REF" >"$TMP/sum"
grep -v '^programs' "$TMP/sum" | head -5 >"$TMP/bad"
set -- $(grep '^programs' "$TMP/sum")
total=$2 n=$4 insns=$6 peak=$8 nbad=${11}
echo "prune_max: $*"
if [ -s "$TMP/bad" ] || [ "$nbad" != 0 ] || [ "$total" -lt 2000 ]; then
	fail prune_max_verdicts "$(cat "$TMP/bad") ($total programs)"
else
	pass "prune_max_verdicts ($total programs)"
fi
if [ "$n" -gt 1500 ] && awk -v p="$peak" 'BEGIN { exit !(p <= 0.70) }'; then
	pass "prune_max_peak_states (geomean $peak over $n)"
else
	fail prune_max_peak_states "geomean $peak over $n programs, want <= 0.70"
fi
if awk -v i="$insns" 'BEGIN { exit !(i <= 1.00) }'; then
	pass "prune_max_insns (geomean $insns)"
else
	fail prune_max_insns "geomean $insns, want <= 1.00"
fi
# distinct_insns, the floor of processed instructions, is the same under
# any pruning (a cut path's instructions are all walked by the path that
# subsumes it) and never above the processed count. Columns: object,
# program, verdict, total_insns, distinct_insns.
for obj in bpf_flow.bpf.o loop6.bpf.o test_cls_redirect_subprogs.bpf.o pyperf50.bpf.o; do
	for p in kernel max no-prune eager; do
		case $p in
		kernel) sw= ;; max) sw=--prune=max ;; no-prune) sw=--no-prune ;;
		eager) sw=--eager-checkpoints ;;
		esac
		"$BPFVET" "build/corpus/progs/$obj" $OPTS $sw -o csv \
			-e prog_name,verdict,distinct_insns,total_insns 2>/dev/null |
			tail -n +2 | sed "s|^|$obj,|" >"$TMP/d.$p.csv"
		cut -d, -f1-3,5 "$TMP/d.$p.csv" >"$TMP/k.$p"
	done
	# Without pruning some hit the limit; those that pass must agree.
	grep ',success,' "$TMP/k.no-prune" >"$TMP/k.np"
	if [ -s "$TMP/k.kernel" ] && cmp -s "$TMP/k.kernel" "$TMP/k.max" &&
	   cmp -s "$TMP/k.kernel" "$TMP/k.eager" &&
	   { [ ! -s "$TMP/k.np" ] || grep -Fqxf "$TMP/k.np" "$TMP/k.kernel"; } &&
	   awk -F, '$5 > $4 || $5 == 0 { bad = 1 } END { exit bad }' "$TMP"/d.*.csv; then
		pass "prune_max_distinct $obj"
	else
		fail "prune_max_distinct $obj" "$(head -2 "$TMP/k.kernel") / $(head -2 "$TMP/k.max")"
	fi
done
