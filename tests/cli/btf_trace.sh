# BTF tracing programs (tests/progs/btf_trace.c): the context typed by the
# attach target in the target BTF (tp_btf, iterators), loads through BTF
# pointers and map pointers, BTF-typed helper arguments and return values. Without a target BTF such programs
# are unsupported; with the running kernel's BTF, verdicts and messages are
# checked, then compared with the kernel itself (verdict, processed
# instructions, states and the level-2 log), also on the real-world tp_btf
# programs. Skips what needs /sys/kernel/btf/vmlinux or a kernel that
# loads BPF.
. tests/lib.sh

O=$PROGS/btf_trace.o
VMLINUX=/sys/kernel/btf/vmlinux

expect_row() {
	if grep -qxF -- "$2" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "no row '$2' in: $(tr '\n' '|' <"$TMP/out" | head -c 400)"
	fi
}

# No target BTF: the context and the CO-RE reads are unknown, never
# refused, except by the rule common to all arguments (no ctx writes).
BPFVET_BTF='' expect_exit btf_trace_no_btf 1 "$BPFVET" "$O" -o csv -e prog,verdict,error
expect_row btf_trace_no_btf_ctx 'ctx_unaligned,unsupported,bpfvet: unsupported: BTF-typed context without target BTF'
expect_row btf_trace_no_btf_core 'walk_rcu,unsupported,bpfvet: unsupported: CO-RE relocation without target BTF'
expect_row btf_trace_no_btf_write 'ctx_write,failure,invalid bpf_context access off=0 size=8'
if grep -v '^ctx_write,' "$TMP/out" | grep -q ',failure,'; then
	fail btf_trace_no_btf_never_rejects "$(grep ',failure,' "$TMP/out" | head -n 3 | tr '\n' '|')"
else
	pass btf_trace_no_btf_never_rejects
fi

if [ ! -r "$VMLINUX" ] || ! bpftool btf dump file "$VMLINUX" 2>/dev/null |
	grep -q "TYPEDEF 'btf_trace_sched_switch'"; then
	skip btf_trace_vmlinux "no $VMLINUX with the sched_switch tracepoint"
	exit 0
fi

expect_exit btf_trace_verify 1 "$BPFVET" "$O" --btf "$VMLINUX" -o csv -e prog,verdict,error
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
"$BPFVET" "$O" --btf "$VMLINUX" -l 2 >"$TMP/log" 2>&1
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

# The running kernel, when it loads BPF here.
"$BPFVET" kernel --kernel-only -o csv -p ptr_null_checked "$O" >"$TMP/probe" 2>&1
if ! grep -q ',ptr_null_checked,tracing,success,' "$TMP/probe"; then
	skip btf_trace_kernel "the kernel refuses BPF here: $(tail -n 1 "$TMP/probe" | cut -c1-120)"
	exit 0
fi

# Verdicts, instructions and states agree on every row (match yes, or n/a
# for the ones the kernel refuses to load).
check_agree() {
	name=$1
	shift
	"$BPFVET" kernel -o csv "$@" >"$TMP/k.csv" 2>"$TMP/err"
	bad=$(python3 -c '
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
bad = [r["file_name"] + "/" + r["prog_name"] for r in rows
       if r["kernel_stage"] == "verifier" and (r["match"] != "yes" or
          r["kernel_total_insns"] != r["bpfvet_total_insns"] or
          r["kernel_total_states"] != r["bpfvet_total_states"])]
print(len(rows), " ".join(bad))
' "$TMP/k.csv")
	case $bad in
	0*) fail "$name" "no rows: $(head -c 300 "$TMP/err")" ;;
	*" "?*) fail "$name" "differ: ${bad#* }" ;;
	*) pass "$name" ;;
	esac
}
check_agree btf_trace_kernel_agree "$O"

"$BPFVET" kernel --log-diff "$O" >"$TMP/diff" 2>&1
ndiff=$(grep '^Log diff' "$TMP/diff" | grep -vc ': identical (')
if [ "$ndiff" = 0 ]; then pass btf_trace_kernel_logs; else
	fail btf_trace_kernel_logs "$(grep '^Log diff' "$TMP/diff" | grep -v ': identical (' | head -n 2)"; fi

# Real-world tp_btf programs (libbpf-tools, xdp-tools), when collected.
set --
for o in biosnoop-1 cpufreq-1 drsnoop-1 hardirqs-1 softirqs-1 wakeuptime-1 xdp-bench-2 xdp-monitor-2; do
	[ -f "build/realworld/$o.bpf.o" ] && set -- "$@" "build/realworld/$o.bpf.o"
done
if [ $# = 0 ]; then
	skip btf_trace_realworld "make realworld first"
else
	check_agree btf_trace_realworld "$@"
fi

# Every argument of every tracepoint of the running kernel: the register
# type of a context read (trusted, maybe-NULL, untrusted, scalar, refused)
# and the log around it must be the kernel's.
if ! command -v bpftool >/dev/null 2>&1; then
	skip btf_trace_all_args "no bpftool"
	exit 0
fi
n=$(python3 scripts/tp-btf-args.py "$VMLINUX" "$TMP/args.c" 2>"$TMP/err")
if [ -z "$n" ] || ! clang-19 -O2 --target=bpf -mcpu=v3 -idirafter /usr/include/"$(uname -m)"-linux-gnu \
	-c "$TMP/args.c" -o "$TMP/args.o" 2>>"$TMP/err"; then
	fail btf_trace_all_args "cannot build the programs: $(head -c 300 "$TMP/err")"
	exit 0
fi
"$BPFVET" kernel --log-diff "$TMP/args.o" >"$TMP/diff" 2>&1
same=$(grep -c '^Log diff.*: identical (' "$TMP/diff")
if [ "$same" = "$n" ]; then pass "btf_trace_all_args ($n tracepoint arguments)"; else
	fail btf_trace_all_args "$same of $n logs identical: $(grep '^Log diff' "$TMP/diff" |
		grep -v ': identical (' | head -n 2)"; fi
