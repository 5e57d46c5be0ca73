# kernel.unprivileged_bpf_disabled: `bpfvet kernel --unpriv` and the
# conformance runner's live reference lower 2 to 0 for their run and put 2
# back after it, whether the run ends normally, with an error, or by
# SIGTERM, SIGINT or SIGHUP. The unprivileged load is really unprivileged:
# the kernel rejects a pointer leak that it accepts with CAP_PERFMON.
# Meaningful only as root of the initial user namespace, with BPF
# privileges and the sysctl at 2; elsewhere every check is a SKIP. Never
# leaves the sysctl changed (the EXIT trap puts 2 back).
. tests/lib.sh
SYSCTL=/proc/sys/kernel/unprivileged_bpf_disabled
RUNNER=build/conformance-runner
LEAK=$PROGS/unpriv_leak.o
NAMES="unpriv_leak_rejected unpriv_leak_priv_accepted unpriv_restored_normal
unpriv_restored_error unpriv_restored_runner_error unpriv_restored_sigterm
unpriv_restored_sigint unpriv_restored_sighup"

value() { cat $SYSCTL 2>/dev/null; }

why=
if [ "$(id -u)" != 0 ]; then
	why="needs root"
elif [ "$(value)" != 2 ]; then
	why="kernel.unprivileged_bpf_disabled is '$(value)', not 2"
elif [ ! -f "$LEAK" ] || [ ! -x "$RUNNER" ]; then
	why="build $LEAK and $RUNNER first (make progs build/conformance-runner)"
elif ! (printf 2 >$SYSCTL) 2>/dev/null; then
	# uid 0 of a user namespace: root by id, yet /proc/sys is not its own.
	why="cannot write $SYSCTL (not root of the initial user namespace)"
elif ! $BPFVET kernel -o csv $LEAK 2>/dev/null |
	grep -q '^unpriv_leak.o,plain_ret,socket,socket_filter,success,'; then
	why="no BPF privileges: a privileged load of $LEAK did not succeed"
fi
if [ -n "$why" ]; then
	for n in $NAMES; do skip "$n" "$why"; done
	exit 0
fi
trap 'rm -rf "$TMP"; [ "$(value)" = 2 ] || echo 2 >$SYSCTL' EXIT

# restored NAME DETAIL: the sysctl is 2 again.
restored() {
	if [ "$(value)" = 2 ]; then
		pass "$1"
	else
		fail "$1" "kernel.unprivileged_bpf_disabled is '$(value)' after $2"
		echo 2 >$SYSCTL
	fi
}

# A normal run: the leak is rejected without capabilities (the sysctl was
# lowered, or the kernel would have refused the load with EPERM) and
# accepted with them.
$BPFVET kernel --unpriv -o csv $LEAK >"$TMP/unpriv.csv" 2>"$TMP/err"
if grep -q '^unpriv_leak.o,leak_ctx_ret,socket,socket_filter,failure,verifier,-13,.*,R0 leaks addr as return value,failure,' "$TMP/unpriv.csv" &&
	grep -q '^unpriv_leak.o,plain_ret,socket,socket_filter,success,' "$TMP/unpriv.csv"; then
	pass unpriv_leak_rejected
else
	fail unpriv_leak_rejected "$(cat "$TMP/unpriv.csv" "$TMP/err" | tail -n 3)"
fi
restored unpriv_restored_normal "a normal run"
$BPFVET kernel -o csv $LEAK >"$TMP/priv.csv" 2>&1
if grep -q '^unpriv_leak.o,leak_ctx_ret,socket,socket_filter,success,' "$TMP/priv.csv"; then
	pass unpriv_leak_priv_accepted
else
	fail unpriv_leak_priv_accepted "$(tail -n 2 "$TMP/priv.csv")"
fi

# Runs that fail after lowering it: an object that does not exist.
$BPFVET kernel --unpriv /nonexistent.o >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || fail unpriv_restored_error "exit $rc, want 2"
[ $rc = 2 ] && restored unpriv_restored_error "a failed bpfvet kernel"
$RUNNER -q --reference live /nonexistent.bpf.o >/dev/null 2>&1
rc=$?
[ $rc = 2 ] || fail unpriv_restored_runner_error "exit $rc, want 2"
[ $rc = 2 ] && restored unpriv_restored_runner_error "a failed conformance run"

# killed NAME SIGNAL NUMBER CMD...: starts CMD with SIGNAL's default action, waits
# until it has lowered the sysctl, sends SIGNAL; CMD must die of it and 2
# must be back.
killed() {
	name=$1 sig=$2 num=$3
	shift 3
	env --default-signal=$sig "$@" >/dev/null 2>&1 &
	pid=$!
	i=0
	while [ "$(value)" != 0 ] && [ $i -lt 100 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
	if [ "$(value)" != 0 ]; then
		kill $pid 2>/dev/null
		wait $pid
		fail "$name" "the run never lowered the sysctl"
		return
	fi
	kill -$sig $pid
	wait $pid
	rc=$?
	want=$((128 + num))
	if [ $rc != $want ]; then
		fail "$name" "exit $rc, want $want (killed by SIG$sig)"
		[ "$(value)" = 2 ] || echo 2 >$SYSCTL
		return
	fi
	restored "$name" "SIG$sig"
}

need_corpus unpriv_restored_sigterm
killed unpriv_restored_sigterm TERM 15 $RUNNER -q --reference live build/corpus/verifier
killed unpriv_restored_sigint INT 2 $BPFVET kernel --unpriv -q build/corpus/verifier/verifier_[a-m]*.bpf.o
killed unpriv_restored_sighup HUP 1 $RUNNER -q --reference live build/corpus/verifier
