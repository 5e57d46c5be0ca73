# bpfvet ablate's rows for --explore=join (tools/cmd_ablate.c,
# tools/techniques.c), and verify's side of the same switches.
#
# Each join row runs --explore=join with one part switched off; the rows
# must agree with the full (kernel) row and with one another: with the
# fallback a program keeps full's verdict; without it (join-no-fallback)
# the joined walk alone may reject what full accepts, never the reverse;
# and where explore-join fell back, its exact walk is full's walk, so its
# instructions are join-no-fallback's plus full's. The programs: two
# loops (loop1, loop4), diamonds (test_verif_scale1), a loop the
# kernel finds infinite (conditional_loop) and a program the joined walk
# alone rejects (reg_pkt_end_in_subprog).
. tests/lib.sh
[ -s "$TARGET_BTF" ] || { fail ablate_join "no build/target-6.18: run make target"; exit 0; }
need_corpus ablate_join
C=build/corpus
JOIN_CONFIGS="full explore-join join-no-join-points join-no-loop-widen join-no-thresholds join-no-call-summaries join-no-call-widen join-no-stack-fold join-no-nested-deltas join-no-fallback"
KERNEL_CONFIGS="full no-prune no-liveness no-stack-liveness no-precision no-widen no-evict checkpoint-every useful-checkpoints evict-unreachable join-checkpoints eager-checkpoints prune-max"

# shellcheck disable=SC2086
"$BPFVET" ablate --explore=join -o csv $TARGET "$C/progs/loop1.bpf.o" "$C/progs/loop4.bpf.o" \
	"$C/progs/test_verif_scale1.bpf.o" "$C/verifier/verifier_cfg.bpf.o" \
	"$C/verifier/verifier_direct_packet_access.bpf.o" -p nested_loops -p combinations \
	-p balancer_ingress -p conditional_loop -p reg_pkt_end_in_subprog \
	>"$TMP/rows.csv" 2>"$TMP/err"
n=$(tail -n +2 "$TMP/rows.csv" | wc -l)
if [ "$n" -ne 50 ]; then
	fail ablate_join_rows "$n rows, want 5 programs x 10: $(head -c 300 "$TMP/err")"
	exit 0
fi
# The configurations of each program, in order.
got=$(tail -n +2 "$TMP/rows.csv" | awk -F, '{ c[$2] = c[$2] " " $3 } END { for (p in c) print c[p] }' |
	sort -u)
if [ "$got" = " $JOIN_CONFIGS" ]; then
	pass ablate_join_configs
else
	fail ablate_join_configs "got:$got"
fi

# csv: file,prog,config,verdict,insns,states,peak,us,xi,xp,xt,explore,fallback
bad=$(tail -n +2 "$TMP/rows.csv" | awk -F, '
	$3 == "full" { full[$2] = $4; fi[$2] = $5; if ($12 != "kernel" || $13 != "no") print $2 " full: " $12 "," $13; next }
	$12 != "join" { print $2 " " $3 ": explore " $12 }
	$3 == "join-no-fallback" {
		nf[$2] = $4; nfi[$2] = $5
		if ($13 != "no") print $2 " join-no-fallback fell back"
		if ($4 != full[$2] && !(full[$2] == "success" && $4 == "failure"))
			print $2 " join-no-fallback: " full[$2] " -> " $4
		next }
	$3 == "explore-join" { ej[$2] = $4; ejf[$2] = $13; eji[$2] = $5 }
	$4 != full[$2] { print $2 " " $3 ": " full[$2] " -> " $4 }
	END {
		for (p in ej) {
			if (ejf[p] == "no" && (ej[p] != nf[p] || eji[p] != nfi[p]))
				print p ": explore-join " ej[p] "/" eji[p] " without fallback, join-no-fallback " nf[p] "/" nfi[p]
			if (ejf[p] == "yes" && (nf[p] != "failure" || eji[p] != nfi[p] + fi[p]))
				print p ": explore-join fell back with " eji[p] " insns, join-no-fallback " nf[p] "/" nfi[p] ", full " fi[p]
		}
	}' | head -5)
if [ -z "$bad" ]; then
	pass ablate_join_verdicts
else
	fail ablate_join_verdicts "$bad"
fi
# The joined walk does on these what it is for: fewer instructions than
# the kernel's walk on the loops and the diamonds, and the fallback is
# seen at work (conditional_loop: the exact walk finds the infinite loop).
bad=$(tail -n +2 "$TMP/rows.csv" | awk -F, '
	$3 == "full" { fi[$2] = $5 }
	$3 == "explore-join" && $2 ~ /^(nested_loops|combinations|balancer_ingress)$/ && ($5 >= fi[$2] || $13 != "no") {
		print $2 ": " $5 " insns against " fi[$2] ", fallback " $13 }
	$3 == "explore-join" && $2 == "conditional_loop" && $13 != "yes" { print $2 ": no fallback" }')
if [ -z "$bad" ]; then
	pass ablate_join_fewer_insns
else
	fail ablate_join_fewer_insns "$bad"
fi

# The table's Walk column: kernel, join, or join+exact after a fallback.
# shellcheck disable=SC2086
"$BPFVET" ablate --explore=join $TARGET "$C/verifier/verifier_cfg.bpf.o" -p conditional_loop \
	>"$TMP/table" 2>&1
if grep -q '^verifier_cfg.bpf.o .* full  *failure  *kernel ' "$TMP/table" &&
	grep -q ' explore-join  *failure  *join+exact ' "$TMP/table" &&
	grep -q ' join-no-fallback  *failure  *join ' "$TMP/table" &&
	grep -q '^config .* fallbacks$' "$TMP/table"; then
	pass ablate_join_table
else
	fail ablate_join_table "$(head -c 400 "$TMP/table")"
fi

# --explore= chooses the rows; without it, both walks' rows. An
# unprivileged load is the kernel's walk in every row.
configs() {
	# shellcheck disable=SC2086
	"$BPFVET" ablate "$@" -o json $TARGET "$C/verifier/verifier_sdiv.bpf.o" \
		-p sdiv32_non_zero_imm_1 2>/dev/null |
		python3 -c 'import json, sys; print(" ".join(json.load(sys.stdin)["configs"]))'
}
want_all="$KERNEL_CONFIGS ${JOIN_CONFIGS#full }"
if [ "$(configs --explore=join)" = "$JOIN_CONFIGS" ] &&
	[ "$(configs --explore=kernel)" = "$KERNEL_CONFIGS" ] && [ "$(configs)" = "$want_all" ]; then
	pass ablate_join_select
else
	fail ablate_join_select "join: $(configs --explore=join); kernel: $(configs --explore=kernel)"
fi
# shellcheck disable=SC2086
got=$("$BPFVET" ablate --explore=join --unpriv -o csv $TARGET "$C/verifier/verifier_sdiv.bpf.o" \
	-p sdiv32_non_zero_imm_1 2>/dev/null | tail -n +2 | cut -d, -f4,12,13 | sort | uniq -c |
	awk '{ print $1, $2 }')
if [ "$got" = "10 success,kernel,no" ]; then
	pass ablate_join_unpriv
else
	fail ablate_join_unpriv "$got"
fi

# verify: each part of --explore=join needs the mode, in any order.
for sw in --no-join-points --no-loop-widen --no-thresholds --no-call-summaries --no-call-widen \
	--no-stack-fold --no-nested-deltas --no-fallback; do
	# shellcheck disable=SC2086
	"$BPFVET" $TARGET "$C/progs/loop4.bpf.o" "$sw" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	# shellcheck disable=SC2086
	"$BPFVET" $TARGET "$C/progs/loop4.bpf.o" "$sw" --explore=join -e explore >"$TMP/out2" 2>&1
	rc2=$?
	if [ $rc = 2 ] && grep -q -- "$sw needs --explore=join" "$TMP/err" && [ $rc2 = 0 ] &&
		grep -q 'join' "$TMP/out2"; then
		pass "ablate_join_verify $sw"
	else
		fail "ablate_join_verify $sw" "exit $rc/$rc2: $(head -c 200 "$TMP/err")"
	fi
done
# --help names the mode, its parts and its fields, and every field works.
"$BPFVET" verify --help >"$TMP/help" 2>&1
missing=
for w in --explore=kernel --explore=join --no-join-points --no-loop-widen --no-thresholds \
	--no-call-summaries --no-call-widen --no-stack-fold --no-nested-deltas --no-fallback \
	explore join_verdict join_insns \
	exact_insns join_sites join_arrivals join_call_reuses fallback; do
	grep -q -- "$w" "$TMP/help" || missing="$missing $w"
done
# shellcheck disable=SC2086
if [ -z "$missing" ] && "$BPFVET" $TARGET "$C/progs/loop4.bpf.o" --explore=join -o csv \
	-e explore,join_verdict,join_insns,exact_insns,join_sites,join_arrivals,fallback \
	>"$TMP/out" 2>&1 && grep -q '^join,success,[0-9]*,0,[0-9]*,[0-9]*,no$' "$TMP/out"; then
	pass ablate_join_help
else
	fail ablate_join_help "missing:$missing; $(head -c 200 "$TMP/out")"
fi
