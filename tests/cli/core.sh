# CO-RE on the command line: --btf and $BPFVET_BTF name the target kernel
# BTF; without one, programs with CO-RE relocations are unsupported.
. tests/lib.sh

K=$PROGS/core_kernel.o
# The recorded target's BTF (tests/lib.sh), not the running kernel's.
VMLINUX=$TARGET_BTF

expect_row() {
	if grep -qxF -- "$2" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "no row '$2' in: $(tr '\n' '|' <"$TMP/out" | head -c 300)"
	fi
}

expect_exit core_no_btf 1 "$BPFVET" "$K" -p read_fields -o csv -e prog,verdict,error
expect_row core_no_btf_row 'read_fields,unsupported,bpfvet: unsupported: CO-RE relocation without target BTF (give one with --btf FILE)'

need_target core_target
expect_exit core_btf 1 "$BPFVET" "$K" --btf "$VMLINUX" -o csv -e prog,verdict,insns,error
expect_row core_btf_fields 'read_fields,success,45,'
expect_row core_btf_info 'info,success,28,'
expect_row core_btf_guarded 'guarded,success,15,'
expect_row core_btf_unguarded 'unguarded,failure,2,invalid func unknown#195896080'

BPFVET_BTF=$VMLINUX expect_exit core_env 1 "$BPFVET" "$K" -o csv -e prog,verdict,insns,error
expect_row core_env_row 'unguarded,failure,2,invalid func unknown#195896080'
# --btf wins over the environment.
BPFVET_BTF=/nonexistent expect_exit core_env_overridden 0 "$BPFVET" "$K" --btf "$VMLINUX" -p info -q

expect_exit core_dump 0 "$BPFVET" dump --btf "$VMLINUX" -p unguarded "$K"
expect_row core_dump_poison '1: (85) call unknown#195896080'

expect_exit core_bad_btf 2 "$BPFVET" "$K" --btf /nonexistent -q
if grep -qF "cannot read target BTF /nonexistent: No such file or directory" "$TMP/err"; then
	pass core_bad_btf_msg
else
	fail core_bad_btf_msg "$(head -c 300 "$TMP/err")"
fi
expect_exit core_btf_no_value 2 "$BPFVET" "$K" --btf

# Without --btf the CLI takes $BPFVET_BTF ("none": no BTF), else the
# running kernel's /sys/kernel/btf/vmlinux when readable, as libbpf does;
# -v says which. --no-btf keeps the program unsupported.
env -u BPFVET_BTF "$BPFVET" "$K" -p read_fields -v -q >"$TMP/out" 2>"$TMP/err"
if [ -r /sys/kernel/btf/vmlinux ]; then
	want='bpfvet: target BTF /sys/kernel/btf/vmlinux (the running kernel'"'"'s, as libbpf uses it)'
else
	want='bpfvet: no target BTF: none given and /sys/kernel/btf/vmlinux is not readable'
fi
if grep -qxF "$want" "$TMP/err"; then pass core_default_btf; else
	fail core_default_btf "$(head -c 300 "$TMP/err")"; fi
env -u BPFVET_BTF "$BPFVET" "$K" -p read_fields --no-btf -v -o csv -e prog,verdict >"$TMP/out" 2>"$TMP/err"
if grep -qxF 'read_fields,unsupported' "$TMP/out" && grep -qxF 'bpfvet: no target BTF (--no-btf)' "$TMP/err"
then pass core_no_btf_option; else fail core_no_btf_option "$(cat "$TMP/out" "$TMP/err" | head -c 300)"; fi
"$BPFVET" "$K" -v -q --btf "$VMLINUX" -p info 2>"$TMP/err"
if grep -qxF "bpfvet: target BTF $VMLINUX (--btf)" "$TMP/err"; then pass core_verbose_btf; else
	fail core_verbose_btf "$(head -c 300 "$TMP/err")"; fi
expect_exit core_btf_contradiction 2 "$BPFVET" "$K" --btf "$VMLINUX" --no-btf -q
