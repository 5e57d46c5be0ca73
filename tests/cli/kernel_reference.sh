# The kernel loader against its own reference data: a sample of corpus and
# real-world objects must load exactly as tests/conformance/kernel-6.18.csv
# records (verdict, stage, errno, insns, states, peak states, message).
# Skips when the corpora are missing, the kernel is not 6.18 or it refuses
# BPF here.
. tests/lib.sh
REF=tests/conformance/kernel-6.18.csv

case "$(uname -r)" in
6.18.*) ;;
*) skip kernel_reference "the reference is for Linux 6.18, this is $(uname -r)"; exit 0 ;;
esac
if [ ! -d build/corpus/progs ] || [ ! -d build/realworld ]; then
	skip kernel_reference "make corpus realworld first"
	exit 0
fi
"$BPFVET" kernel --kernel-only -o csv -p rodata_known "$PROGS/kernel_data.o" >"$TMP/probe" 2>&1
if ! grep -q ',rodata_known,socket_filter,success,' "$TMP/probe"; then
	skip kernel_reference "the kernel refuses BPF here"
	exit 0
fi

# Maps of every kind, global data, CO-RE, kfuncs, ksyms, kconfig, struct_ops,
# tp_btf, iterators, fentry, map-in-map, tail calls, arena, scale programs.
set -- verifier/verifier_and verifier/verifier_map_ret_val verifier/verifier_cgroup_storage \
	verifier/verifier_arena progs/test_core_reloc_kernel progs/bpf_dctcp progs/test_ksyms_btf \
	progs/test_ksyms_weak progs/test_core_extern progs/test_rdonly_maps progs/test_btf_map_in_map \
	progs/tailcall1 progs/rbtree progs/cgrp_ls_tp_btf progs/bpf_iter_bpf_hash_map \
	progs/fentry_test progs/arena_htab progs/kprobe_multi progs/exceptions_fail \
	progs/test_global_data progs/loop1 progs/bpf_syscall_macro
objs=""
for o in "$@"; do objs="$objs build/corpus/$o.bpf.o"; done
for o in bindsnoop-1.bpf.o capable-1.bpf.o execsnoop-1.bpf.o xdp-dispatcher.o fsdist-1.bpf.o; do
	objs="$objs build/realworld/$o"
done
# shellcheck disable=SC2086
"$BPFVET" kernel --kernel-only -o csv $objs >"$TMP/live.csv" 2>"$TMP/err"
rc=$?
if [ "$rc" != 0 ]; then
	fail kernel_reference_run "exit $rc: $(head -c 300 "$TMP/err")"
	exit 0
fi
python3 - "$REF" "$TMP/live.csv" >"$TMP/out" 2>&1 <<'EOF'
import csv, sys
ref = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
live = list(csv.DictReader(open(sys.argv[2])))
cols = [('verdict', 'kernel_verdict'), ('stage', 'kernel_stage'), ('errno', 'kernel_errno'),
        ('insns', 'kernel_total_insns'), ('total_states', 'kernel_total_states'),
        ('peak_states', 'kernel_peak_states'), ('error', 'kernel_error')]
bad = 0
for r in live:
    want = ref.get((r['file_name'], r['prog_name']))
    if not want:
        print(f"{r['file_name']}/{r['prog_name']}: not in the reference")
        bad += 1
        continue
    for a, b in cols:
        if want[a] != r[b]:
            print(f"{r['file_name']}/{r['prog_name']}: {a} {r[b]!r}, reference {want[a]!r}")
            bad += 1
print(f"{len(live)} programs, {bad} differences")
sys.exit(1 if bad or len(live) < 100 else 0)
EOF
if [ $? = 0 ]; then pass "kernel_reference ($(tail -n 1 "$TMP/out"))"; else
	fail kernel_reference "$(head -c 600 "$TMP/out")"; fi
