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
expect_row core_no_btf_row 'read_fields,unsupported,bpfvet: unsupported: CO-RE relocation without target BTF'

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
