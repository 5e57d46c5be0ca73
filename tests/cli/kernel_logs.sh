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
# changes or disappears fails too. The fixtures are compared always; a
# sample is also compared with the live kernel when it is Linux 6.18 and
# lets us load programs.
. tests/lib.sh
FIX=tests/fixtures/logs
# The optimized build: the sanitized one runs over the corpus in
# dump_corpus.sh already, and these runs are about output.
export BPFVET=build/bpfvet

need_corpus kernel_logs_corpus
if [ ! -d build/realworld ] && ! scripts/collect-realworld.sh --quiet >/dev/null 2>"$TMP/rw.err"; then
	fail kernel_logs_realworld "realworld: $(tail -n 3 "$TMP/rw.err")"
	exit 0
fi

# The corpus is compiled against the kernel's BTF (its cache directory
# names a digest of it): another kernel gives other instructions.
python3 scripts/disasm-fixture.py meta $FIX/disasm.txt.xz >"$TMP/meta"
want=$(awk '$1 == "corpus" { print $2 }' "$TMP/meta")
have=$(awk '$1 == "current-corpus" { print $2 }' "$TMP/meta")
if [ "$want" != "$have" ]; then
	skip kernel_logs "the fixtures are for corpus $want, this one is $have"
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
# changed fails.
python3 - "$FIX/level2.txt.xz" "$TMP/bad.txt.xz" <<'EOF'
import lzma, sys
text = lzma.decompress(open(sys.argv[1], 'rb').read()).decode().split('\n')
i = next(n for n, l in enumerate(text) if l.startswith('|processed '))
text[i] = text[i].replace('processed ', 'processed 1', 1)
open(sys.argv[2], 'wb').write(lzma.compress('\n'.join(text).encode()))
EOF
if python3 scripts/level2-fixture.py check full "$TMP/bad.txt.xz" $FIX/exceptions.txt \
	>"$TMP/out" 2>&1; then
	fail kernel_logs_catches "a changed fixture line passed"
else
	grep -q "^FAIL .*processed 1" "$TMP/out" && pass kernel_logs_catches ||
		fail kernel_logs_catches "$(head -n 3 "$TMP/out")"
fi

case "$(uname -r)" in
6.18.*) ;;
*) skip kernel_logs_live "the fixtures are for Linux 6.18, this is $(uname -r)"; exit 0 ;;
esac
build/bpfvet kernel --kernel-only -o csv -p rodata_known "$PROGS/kernel_data.o" >"$TMP/probe" 2>&1
if ! grep -q ',rodata_known,socket_filter,success,' "$TMP/probe"; then
	skip kernel_logs_live "the kernel refuses BPF here"
	exit 0
fi
check kernel_logs_disasm_live python3 scripts/disasm-fixture.py live $FIX/disasm.txt.xz \
	$FIX/disasm-exceptions.txt build/corpus/verifier/verifier_and.bpf.o \
	build/corpus/verifier/verifier_sdiv.bpf.o build/corpus/progs/task_kfunc_success.bpf.o \
	build/corpus/progs/test_xdp_noinline.bpf.o build/realworld/xdp-dispatcher.o \
	build/realworld/xdpfilt_alw_all.o
check kernel_logs_level2_live python3 scripts/level2-fixture.py live full $FIX/level2.list \
	$FIX/exceptions.txt 12
check kernel_logs_prune_live python3 scripts/level2-fixture.py live prune $FIX/prune.list \
	$FIX/exceptions.txt 12
