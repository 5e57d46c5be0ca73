# BTF tracing programs (tests/progs/btf_trace.c): the context typed by the
# attach target in the target BTF (tp_btf, iterators), loads through BTF
# pointers and map pointers, BTF-typed helper arguments and return values.
# Without a target BTF such programs are unsupported; for the recorded
# target (tests/lib.sh), verdicts and messages are checked, then compared
# with the kernel's recorded level-2 logs (tests/fixtures/logs/btf_trace.txt.xz,
# statistics included): of these programs, and of one program per argument
# of every tracepoint of the target. The real-world tp_btf programs are
# compared with tests/conformance/kernel-6.18.csv.
. tests/lib.sh

O=$PROGS/btf_trace.o
VMLINUX=$TARGET_BTF
FIX=tests/fixtures/logs

expect_row() {
	if grep -qxF -- "$2" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "no row '$2' in: $(tr '\n' '|' <"$TMP/out" | head -c 400)"
	fi
}

# No target BTF: the context and the CO-RE reads are unknown, never
# refused, except by the rule common to all arguments (no ctx writes).
expect_exit btf_trace_no_btf 1 "$BPFVET" "$O" -o csv -e prog,verdict,error
expect_row btf_trace_no_btf_ctx 'ctx_unaligned,unsupported,bpfvet: unsupported: BTF-typed context without target BTF (give one with --btf FILE)'
expect_row btf_trace_no_btf_core 'walk_rcu,unsupported,bpfvet: unsupported: CO-RE relocation without target BTF (give one with --btf FILE)'
expect_row btf_trace_no_btf_write 'ctx_write,failure,invalid bpf_context access off=0 size=8'
if grep -v '^ctx_write,' "$TMP/out" | grep -q ',failure,'; then
	fail btf_trace_no_btf_never_rejects "$(grep ',failure,' "$TMP/out" | head -n 3 | tr '\n' '|')"
else
	pass btf_trace_no_btf_never_rejects
fi

need_target btf_trace_target
# shellcheck disable=SC2086
expect_exit btf_trace_verify 1 "$BPFVET" "$O" $TARGET -o csv -e prog,verdict,error
for row in \
	'walk_rcu,success,' \
	'walk_untrusted,success,' \
	'walk_fields,success,' \
	'walk_skb,success,' \
	'helper_btf,success,' \
	'helper_wrong_struct,failure,R2 is of type css_set but task_struct is expected' \
	'prune_join,success,' \
	'ctx_unaligned,failure,invalid bpf_context access off=4 size=4' \
	'ctx_no_such_arg,failure,invalid bpf_context access off=32 size=8' \
	'ctx_ptr_narrow,failure,invalid bpf_context access off=8 size=4' \
	'ctx_write,failure,invalid bpf_context access off=0 size=8' \
	'ctx_const_void,success,' \
	'ctx_func_ptr,failure,invalid bpf_context access off=0 size=8' \
	'ptr_negative,failure,R2 is ptr_task_struct invalid negative access: off=-8' \
	'ptr_beyond,failure,access beyond struct task_struct at off 32760 size 8' \
	'ptr_write,failure,only read is supported' \
	'ptr_var_off,failure,"R2 is ptr_task_struct invalid variable offset: off=0, var_off=(0x0; 0x8)"' \
	"ptr_maybe_null,failure,R2 invalid mem access 'trusted_ptr_or_null_'" \
	'ptr_null_checked,success,' \
	'untrusted_mem,success,' \
	'untrusted_mem_write,failure,R1 cannot write into rdonly_untrusted_mem' \
	'map_struct,success,' \
	'ksym_exists,success,' \
	'iter_task,success,' \
	"iter_task_unchecked,failure,R1 invalid mem access 'trusted_ptr_or_null_'"; do
	expect_row "btf_trace_row_${row%%,*}" "$row"
done

# The kernel's explanations before the generic ctx message, and the
# register types in the trace.
# shellcheck disable=SC2086
"$BPFVET" "$O" $TARGET -l 2 >"$TMP/log" 2>&1
for msg in \
	"func 'sched_switch' offset 4 is not multiple of 8" \
	"func 'sched_switch' doesn't have 5-th argument" \
	"func 'sched_switch' size 4 must be 8" \
	"func 'initcall_start' arg0 type FUNC_PROTO is not a struct" \
	"R1=trusted_ptr_task_struct()" \
	"=rcu_ptr_task_struct()" \
	"=untrusted_ptr_mm_struct()" \
	"=untrusted_ptr_net_device()" \
	"=rcu_ptr_or_null_sock(id=" \
	"R2=trusted_ptr_or_null_task_struct(id=1)" \
	"=rdonly_untrusted_mem(sz=0)" \
	"R1=trusted_ptr_or_null_task_struct(id=1)"; do
	if grep -qF -- "$msg" "$TMP/log"; then pass "btf_trace_log: $msg"; else
		fail "btf_trace_log" "no '$msg' in the level-2 log"; fi
done
if grep -q "^[0-9]*: safe" "$TMP/log"; then pass btf_trace_pruned; else
	fail btf_trace_pruned "no state was pruned in prune_join"; fi

# The kernel's level-2 logs, recorded (scripts/level2-fixture.py record
# $FIX/btf_trace.list $FIX/btf_trace.txt.xz): every line, statistics
# included. The per-argument programs are generated from the target's BTF.
mkdir -p build/tp-args
n=$(python3 scripts/tp-btf-args.py "$VMLINUX" build/tp-args/args.c 2>"$TMP/err")
if [ -z "$n" ] || ! clang-19 -O2 --target=bpf -mcpu=v3 -idirafter /usr/include/"$(uname -m)"-linux-gnu \
	-c build/tp-args/args.c -o build/tp-args/args.o 2>>"$TMP/err"; then
	fail btf_trace_logs "cannot build the per-argument programs: $(head -c 300 "$TMP/err")"
	exit 0
fi
if BPFVET=build/bpfvet python3 scripts/level2-fixture.py check full "$FIX/btf_trace.txt.xz" \
	/dev/null >"$TMP/out" 2>&1; then
	pass "btf_trace_logs ($(tail -n 1 "$TMP/out"))"
else
	fail btf_trace_logs "$(grep -v '^PASS' "$TMP/out" | head -n 4)"
fi

# Real-world tp_btf programs (libbpf-tools, xdp-tools) against the
# recorded kernel: verdict, processed instructions and states.
set --
for o in biosnoop-1 cpufreq-1 drsnoop-1 hardirqs-1 softirqs-1 wakeuptime-1 xdp-bench-2 xdp-monitor-2; do
	[ -f "build/realworld/$o.bpf.o" ] && set -- "$@" "build/realworld/$o.bpf.o"
done
if [ $# = 0 ]; then
	fail btf_trace_realworld "no real-world objects: make realworld"
	exit 0
fi
# shellcheck disable=SC2086
"$BPFVET" "$@" $TARGET -o csv -e file_name,prog_name,verdict,total_insns,total_states \
	>"$TMP/rw.csv" 2>"$TMP/err"
bad=$(python3 - tests/conformance/kernel-6.18.csv "$TMP/rw.csv" <<'EOF'
import csv, sys
ref = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
rows = list(csv.DictReader(open(sys.argv[2])))
bad, n = [], 0
for r in rows:
    k = ref.get((r['file_name'], r['prog_name']))
    if not k or k['stage'] != 'verifier':
        continue
    n += 1
    if (r['verdict'], r['total_insns'], r['total_states']) != \
       (k['verdict'], k['insns'], k['total_states']):
        bad.append('%s/%s: %s/%s/%s, kernel %s/%s/%s' % (
            r['file_name'], r['prog_name'], r['verdict'], r['total_insns'],
            r['total_states'], k['verdict'], k['insns'], k['total_states']))
print(n, '; '.join(bad))
EOF
)
case $bad in
0*) fail btf_trace_realworld "no rows: $(head -c 300 "$TMP/err")" ;;
*" "?*) fail btf_trace_realworld "differ: ${bad#* }" ;;
*) pass "btf_trace_realworld (${bad% } programs)" ;;
esac
