# The reference names its kernel: tests/conformance/kernel-6.18.build
# against the files it describes. The target's BTF and config are the
# ones in the tree, the options the tests verify for (tests/lib.sh,
# tests/unit/target.h) are the target's, the verdicts' BTF digest is the
# one the log fixtures were recorded with, and the corpus is compiled
# against the target's BTF. No kernel needed.
. tests/lib.sh
B=tests/conformance/kernel-6.18.build
need_target reference_target
val() { sed -n "s/^$1: *//p" "$B" | cut -d' ' -f1; }

# check NAME GOT WANT
check() {
	if [ -n "$3" ] && [ "$2" = "$3" ]; then pass "$1"; else
		fail "$1" "got '$2', $B says '$3'"; fi
}
check reference_target_btf "$(sha256sum <"$TARGET_BTF" | cut -d' ' -f1)" "$(val target.btf_sha256)"
check reference_target_config "$(sha256sum <"$TARGET_CONFIG" | cut -d' ' -f1)" \
	"$(val target.config_sha256)"
for f in release version; do
	if [ -n "$(val target.$f)" ] && [ -n "$(val verdicts.$f)" ]; then pass "reference_names_$f"; else
		fail "reference_names_$f" "no target.$f or verdicts.$f line"; fi
done

# The real-world record is the target's kernel's: its BTF relocated them.
check reference_realworld_kernel "$(val realworld.release)" "$(val target.release)"
[ "$(head -n 1 tests/conformance/kernel-6.18-realworld.csv)" = \
	"file,prog,section,prog_type,verdict,stage,errno,insns,total_states,peak_states,error" ] &&
	pass reference_realworld_columns || fail reference_realworld_columns "$(head -n 1 tests/conformance/kernel-6.18-realworld.csv)"

# The v1272 build's record of its drifted programs has the same columns.
[ "$(head -n 1 tests/conformance/kernel-6.18-v1272.csv)" = "$(head -n 1 tests/conformance/kernel-6.18.csv)" ] &&
	[ "$(val v1272.release)" = 6.18.44-fc-v1272 ] &&
	pass reference_v1272 || fail reference_v1272 "$(head -n 1 tests/conformance/kernel-6.18-v1272.csv)"

# The options of the shell and C tests are the target's.
opt() { echo "$TARGET" | sed -n "s/.*--$1 \([^ ]*\).*/\1/p"; }
check reference_lib_version "$(opt kernel-version)" "$(val target.kernel_version)"
check reference_lib_cpus "$(opt nr-cpus)" "$(val target.nr_cpus)"
case "$TARGET" in
*--no-syscall-wrapper*) w=0 ;;
*) w=1 ;;
esac
check reference_lib_syscall_wrapper "$w" "$(val target.syscall_wrapper)"
check reference_unit_btf "$(sed -n 's/^#define TARGET_BTF "\(.*\)"$/\1/p' tests/unit/target.h)" "$TARGET_BTF"
check reference_unit_cpus "$(sed -n 's/^#define TARGET_NR_CPUS \([0-9]*\)u$/\1/p' tests/unit/target.h)" \
	"$(val target.nr_cpus)"

# The log fixtures were recorded on the verdicts' kernel.
meta=$(python3 scripts/disasm-fixture.py meta tests/fixtures/logs/disasm.txt.xz)
check reference_fixture_kernel "$(echo "$meta" | sed -n 's/^kernel //p')" "$(val verdicts.release)"
check reference_fixture_btf "$(echo "$meta" | sed -n 's/^btf //p')" "$(val verdicts.btf_sha256)"

# The corpus is compiled against the target's BTF.
need_corpus reference_corpus
# (By digest: the cache is shared by checkouts, the path is the one that
# built it.)
btf=$(sed -n 's/^btf: .* (sha256 \([0-9a-f]*\))$/\1/p' build/corpus/BUILDINFO)
check reference_corpus_btf "$btf" "$(sha256sum <tests/conformance/target-6.18/btf.xz | cut -c1-16)"

# --describe prints the lines of the file for the running kernel.
scripts/kernel-reference.sh --describe >"$TMP/d" 2>"$TMP/err"
if grep -q "^verdicts.release: $(uname -r)$" "$TMP/d" && grep -q '^target.config_sha256: ' "$TMP/d" &&
	[ "$(wc -l <"$TMP/d")" = 10 ]; then
	pass reference_describe
else
	fail reference_describe "$(head -c 300 "$TMP/d") $(head -c 200 "$TMP/err")"
fi

# The records of Debian's 6.1 and 6.12 (scripts/kernel-vm.sh) name their
# kernels and have kernel-6.18.csv's columns.
for v in 6.1 6.12; do
	b=tests/conformance/kernel-$v.build
	c=tests/conformance/kernel-$v.csv
	if [ ! -f "$b" ]; then
		fail "reference_$v" "no $b: scripts/kernel-vm.sh $v"
		continue
	fi
	rel=$(sed -n 's/^release: *//p' "$b")
	case $rel in
	"$v".*) pass "reference_${v}_release" ;;
	*) fail "reference_${v}_release" "$b names release '$rel'" ;;
	esac
	grep -q '^package: linux-image-' "$b" && grep -q '^btf_sha256: [0-9a-f]\{64\}$' "$b" &&
		pass "reference_${v}_build" || fail "reference_${v}_build" "$(cat "$b")"
	[ "$(head -n 1 "$c")" = "$(head -n 1 tests/conformance/kernel-6.18.csv)" ] &&
		pass "reference_${v}_columns" || fail "reference_${v}_columns" "$(head -n 1 "$c")"
done
