# Target-kernel options for externs: --kconfig, --kernel-version,
# --kallsyms and --nr-cpus, on verify and dump.
. tests/lib.sh

E=$PROGS/extern_values.o
cat >"$TMP/config" <<'CFG'
CONFIG_HZ=250
CONFIG_BPF_SYSCALL=y
# CONFIG_BPFVET_ABSENT is not set
CFG
printf 'ffffffff82400000 D __start_rodata\n' >"$TMP/kallsyms"

expect_row() {
	if grep -qxF -- "$2" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "no row '$2' in: $(tr '\n' '|' <"$TMP/out" | head -c 300)"
	fi
}

expect_exit externs_unknown 1 "$BPFVET" "$E" -p hz_is_250 -o csv -e prog,verdict
expect_row externs_unknown_row 'hz_is_250,failure'
expect_exit externs_kconfig 0 "$BPFVET" "$E" --kconfig "$TMP/config" \
	--kernel-version 6.18.44 --kallsyms "$TMP/kallsyms" -o csv -e prog,verdict,insns
expect_row externs_hz 'hz_is_250,success,5'
expect_row externs_version 'version_at_least_6_18,success,6'
expect_row externs_ksym 'ksym_present,success,8'
expect_exit externs_old_kernel 1 "$BPFVET" "$E" --kernel-version 6.12 \
	-p version_at_least_6_18 -o csv -e prog,verdict
expect_row externs_old_kernel_row 'version_at_least_6_18,failure'

expect_exit externs_syscall_wrapper 0 "$BPFVET" "$E" -p needs_syscall_wrapper -o csv -e prog,verdict
expect_row externs_syscall_wrapper_row 'needs_syscall_wrapper,success'
expect_exit externs_no_syscall_wrapper 1 "$BPFVET" "$E" -p needs_syscall_wrapper \
	--no-syscall-wrapper -o csv -e prog,verdict
expect_row externs_no_syscall_wrapper_row 'needs_syscall_wrapper,failure'
# --running-kernel takes what this machine's libbpf would probe: the
# verdict follows whether the kernel has kprobes and the wrapper symbol.
"$BPFVET" "$E" -p needs_syscall_wrapper --running-kernel -o csv -e prog,verdict \
	>"$TMP/out" 2>"$TMP/err"
if [ -e /sys/bus/event_source/devices/kprobe/type ] || [ -e /sys/kernel/tracing/kprobe_events ] ||
   [ -e /sys/kernel/debug/tracing/kprobe_events ]; then
	want=success
	# Without privileges kallsyms shows every address as 0, and bpfvet
	# then finds no wrapper either.
	awk '$3 ~ /^__[a-z0-9]*_sys_bpf$/ && $1 !~ /^0+$/ { f = 1 } END { exit !f }' \
		/proc/kallsyms 2>/dev/null || want=failure
else
	want=failure
fi
expect_row externs_running_kernel_wrapper "needs_syscall_wrapper,$want"

expect_exit externs_dump_cpus 0 "$BPFVET" dump "$E" --nr-cpus 5
expect_row externs_dump_cpus_map 'map 0: name=events type=perf_event_array key=4 value=4 max_entries=5 flags=0x0'
expect_exit externs_dump_ksym 0 "$BPFVET" dump "$E" -p ksym_present --kallsyms "$TMP/kallsyms"
expect_row externs_dump_ksym_insn '2: (18) r2 = 0xffffffff82400000'

expect_exit externs_bad_version 2 "$BPFVET" "$E" --kernel-version 6.x
grep -qxF "bpfvet: bad kernel version '6.x' (want X.Y.Z)" "$TMP/err" &&
	pass externs_bad_version_msg || fail externs_bad_version_msg "$(cat "$TMP/err")"
expect_exit externs_bad_cpus 2 "$BPFVET" dump "$E" --nr-cpus 0
expect_exit externs_missing_config 2 "$BPFVET" "$E" --kconfig "$TMP/nope"
grep -qF "cannot read kernel config $TMP/nope" "$TMP/err" &&
	pass externs_missing_config_msg || fail externs_missing_config_msg "$(cat "$TMP/err")"
# dump is lenient: a config libbpf would refuse becomes a warning.
printf 'CONFIG_HZ=fast\n' >"$TMP/badconfig"
expect_exit externs_dump_bad_config 0 "$BPFVET" dump "$E" --kconfig "$TMP/badconfig"
grep -qF "warning 0: extern (kcfg) 'CONFIG_HZ': value 'fast' isn't a valid integer" "$TMP/out" &&
	pass externs_dump_bad_config_warning || fail externs_dump_bad_config_warning "$(head -3 "$TMP/out")"
