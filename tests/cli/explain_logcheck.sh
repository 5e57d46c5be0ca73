# bpfvet explain names the error instruction that the verifier's own
# level-1 log names, on objects nobody recorded a kernel log for: the
# real-world objects (libbpf-tools, xdp-tools, pcp, cilium/ebpf's
# testdata) and the test programs (scripts/explain-logcheck.py). The log
# reproduces the kernel's, so this is the held-out acceptance of issue 20
# on what we have: explain must name the kernel's error instruction.
. tests/lib.sh
need_target explain_logcheck
FAST=$BPFVET
[ -x build/bpfvet ] && FAST=build/bpfvet
set -- "$PROGS"/*.o
[ -d build/realworld ] && set -- "$@" build/realworld/*.o
# shellcheck disable=SC2086
python3 scripts/explain-logcheck.py "$FAST" "$@" -- $TARGET >"$TMP/out" 2>&1
st=$?
tail -n 1 "$TMP/out"
n=$(sed -n "s/.*error insn: \([0-9]*\) of.*/\1/p" "$TMP/out")
if [ $st = 0 ] && [ "${n:-0}" -gt 100 ]; then
	pass "explain_logcheck ($n rejected programs)"
else
	fail explain_logcheck "$(grep '^MISS' "$TMP/out" | head -3; tail -n 1 "$TMP/out")"
fi
