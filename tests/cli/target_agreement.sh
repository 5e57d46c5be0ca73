# bpfvet --target VERSION against what Debian's 6.1 and 6.12 kernels and
# the recorded 6.18 said (tests/conformance/kernel-VERSION.csv), over the
# selftest corpus and the real-world objects: a ratchet. Each count of
# tests/conformance/target-floor (verdicts that agree, shared rejections
# with the same first error, agreeing programs with the kernel's count of
# processed instructions, programs that both loaders refuse) may only
# grow, and the programs only bpfvet refuses only shrink; scripts/target-agreement.sh
# VERSION --list and --messages show what differs.
. tests/lib.sh
need_corpus target_agreement_corpus
FLOOR=tests/conformance/target-floor
while read -r v verdicts messages insns refused extra; do
	case $v in '#'* | '') continue ;; esac
	if [ ! -s "build/target-$v/btf" ]; then
		fail "target_agreement_$v" "no build/target-$v: run make target"
		continue
	fi
	BPFVET=build/bpfvet scripts/target-agreement.sh "$v" >"$TMP/agree-$v" 2>"$TMP/err-$v" || {
		fail "target_agreement_$v" "$(tail -n 3 "$TMP/err-$v")"
		continue
	}
	# "where bpfvet decides (...): A of B", "first error: A of B",
	# "instructions processed: the same for A of the B"
	got_v=$(sed -n 's/^where bpfvet decides .*: \([0-9]*\) of .*/\1/p' "$TMP/agree-$v")
	got_m=$(sed -n 's/^first error: \([0-9]*\) of .*/\1/p' "$TMP/agree-$v")
	got_i=$(sed -n 's/^instructions processed: the same for \([0-9]*\) of .*/\1/p' "$TMP/agree-$v")
	got_r=$(sed -n 's/^refused: \([0-9]*\) of .*/\1/p' "$TMP/agree-$v")
	got_x=$(sed -n 's/^refused: .*; \([0-9]*\) more$/\1/p' "$TMP/agree-$v")
	# Refusing what the kernel's loader took is a mistake: at most as many.
	if [ -n "$got_x" ] && [ "$got_x" -le "$extra" ]; then
		pass "target_agreement_${v}_refused_more"
	else
		fail "target_agreement_${v}_refused_more" "$got_x > $extra"
	fi
	for what in verdicts:$got_v:$verdicts messages:$got_m:$messages insns:$got_i:$insns \
		    refused:$got_r:$refused; do
		name=${what%%:*} rest=${what#*:}
		got=${rest%%:*} floor=${rest#*:}
		if [ -n "$got" ] && [ "$got" -ge "$floor" ]; then
			pass "target_agreement_${v}_$name"
		else
			fail "target_agreement_${v}_$name" "$got < $floor: $(tr '\n' ' ' <"$TMP/agree-$v")"
		fi
	done
	sed "s/^/# $v: /" "$TMP/agree-$v"
done <"$FLOOR"
