# bpfvet prints what the kernel prints. Three comparisons with the kernel's
# logs recorded in tests/fixtures/logs (scripts/disasm-fixture.py and
# scripts/level2-fixture.py say how, and regenerate them):
#  - disassembly: every instruction line of every corpus and real-world
#    program the kernel verifies, against `bpfvet dump`;
#  - level 2: the whole log of accepted programs without subprograms and
#    with no helper calls but map lookups, against `bpfvet -l 6`;
#  - pruning and precision: the "safe" and "mark_precise:" lines of the
#    pruning, precision, loop, spill and scalar-id selftests and of
#    tests/progs/logs_prune.c, with and without BPF_F_TEST_STATE_FREQ.
# Known differences (verifier logic, not printing) are listed with their
# first differing line in the exception files; a listed difference that
# changes or disappears fails too. bpfvet verifies for the recorded target
# (tests/lib.sh). Only the fixtures are compared here: `make kernel-check`
# compares a sample with the running kernel and reports what drifted.
. tests/lib.sh
FIX=tests/fixtures/logs
# The optimized build: the sanitized one runs over the corpus in
# dump_corpus.sh already, and these runs are about output.
export BPFVET=build/bpfvet

need_corpus kernel_logs_corpus
need_target kernel_logs_target
if [ ! -d build/realworld ] && ! scripts/collect-realworld.sh --quiet >/dev/null 2>"$TMP/rw.err"; then
	fail kernel_logs_realworld "realworld: $(tail -n 3 "$TMP/rw.err")"
	exit 0
fi

# check NAME CMD...: runs a comparison, passes when it exits 0 and prints
# its summary line.
check() {
	name=$1; shift
	"$@" >"$TMP/out" 2>"$TMP/err"
	rc=$?
	if [ $rc = 0 ]; then
		pass "$name ($(tail -n 1 "$TMP/out"))"
	else
		fail "$name" "exit $rc: $(grep -v '^PASS' "$TMP/out" | head -n 8) $(head -c 300 "$TMP/err")"
	fi
}

check kernel_logs_disasm python3 scripts/disasm-fixture.py check $FIX/disasm.txt.xz \
	$FIX/disasm-exceptions.txt
check kernel_logs_level2 python3 scripts/level2-fixture.py check full $FIX/level2.txt.xz \
	$FIX/exceptions.txt
check kernel_logs_prune python3 scripts/level2-fixture.py check prune $FIX/prune.txt.xz \
	$FIX/exceptions.txt

# The comparison itself must catch a difference: a fixture with one line
# changed fails. Only the programs up to the changed one are kept (the
# exceptions of the others then fail as stale, which the grep ignores).
python3 - "$FIX/level2.txt.xz" "$TMP/bad.txt.xz" <<'EOF'
import lzma, sys
text = lzma.decompress(open(sys.argv[1], 'rb').read()).decode().split('\n')
i = next(n for n, l in enumerate(text) if l.startswith('|processed '))
text[i] = text[i].replace('processed ', 'processed 1', 1)
end = next((n for n in range(i, len(text)) if text[n].startswith('L ')), len(text))
open(sys.argv[2], 'wb').write(lzma.compress('\n'.join(text[:end]).encode()))
EOF
if python3 scripts/level2-fixture.py check full "$TMP/bad.txt.xz" $FIX/exceptions.txt \
	>"$TMP/out" 2>&1; then
	fail kernel_logs_catches "a changed fixture line passed"
else
	grep -q "^FAIL .*processed 1" "$TMP/out" && pass kernel_logs_catches ||
		fail kernel_logs_catches "$(head -n 3 "$TMP/out")"
fi

