# Corpus programs against what the recorded kernels said: for each line
# below, bpfvet --target build/target-VERSION (make target) must give the
# verdict, the processed-instruction count and, for a rejection, the first
# error of that program's row in tests/conformance/kernel-VERSION.csv.
. tests/lib.sh
need_corpus recorded_cases_corpus

# version object program ('#' lines say what the group below shows)
grep -v '^#' >"$TMP/cases" <<'LIST'
# The callbacks of bpf_find_vma (task, vma, ctx) and bpf_user_ringbuf_drain
# (a read-only local dynptr, ctx), and the dynptr release checks they lead to.
6.18 find_vma_fail1.bpf.o handle_getpid
6.18 find_vma_fail2.bpf.o handle_getpid
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_bad_access1
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_bad_access2
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_write_forbidden
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_null_context_write
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_null_context_read
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_discard_dynptr
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_submit_dynptr
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_invalid_return
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_const_ptr_to_dynptr_reg_off
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_reinit_dynptr_mem
6.18 user_ringbuf_fail.bpf.o user_ringbuf_callback_reinit_dynptr_ringbuf
6.18 verifier_iterating_callbacks.bpf.o unsafe_ringbuf_drain
6.18 verifier_iterating_callbacks.bpf.o unsafe_find_vma
6.18 dynptr_fail.bpf.o ringbuf_release_uninit_dynptr
6.12 find_vma_fail1.bpf.o handle_getpid
6.12 user_ringbuf_fail.bpf.o user_ringbuf_callback_bad_access1
6.12 user_ringbuf_fail.bpf.o user_ringbuf_callback_discard_dynptr
6.12 user_ringbuf_fail.bpf.o user_ringbuf_callback_invalid_return
6.12 user_ringbuf_fail.bpf.o user_ringbuf_callback_reinit_dynptr_mem
6.12 user_ringbuf_success.bpf.o test_user_ringbuf_epoll
6.12 verifier_iterating_callbacks.bpf.o unsafe_find_vma
6.1 find_vma_fail1.bpf.o handle_getpid
6.1 user_ringbuf_fail.bpf.o user_ringbuf_callback_bad_access1
6.1 user_ringbuf_fail.bpf.o user_ringbuf_callback_write_forbidden
6.1 user_ringbuf_fail.bpf.o user_ringbuf_callback_discard_dynptr
6.1 user_ringbuf_fail.bpf.o user_ringbuf_callback_invalid_return
6.1 user_ringbuf_fail.bpf.o user_ringbuf_callback_const_ptr_to_dynptr_reg_off
6.1 verifier_iterating_callbacks.bpf.o unsafe_ringbuf_drain
6.1 verifier_iterating_callbacks.bpf.o unsafe_find_vma
6.1 dynptr_fail.bpf.o ringbuf_release_uninit_dynptr
# bpf_ima_inode_hash and bpf_ima_file_hash on sleepable LSM hooks (the
# record of 6.18 has no LSM verdicts: BPF LSM was off).
6.12 ima.bpf.o bprm_committed_creds
6.12 ima.bpf.o bprm_creds_for_exec
6.12 ima.bpf.o kernel_read_file
6.1 ima.bpf.o bprm_committed_creds
6.1 ima.bpf.o kernel_read_file
# bpf_per_cpu_ptr and bpf_this_cpu_ptr of typed per-CPU ksyms (6.18's
# record fails them at the load: its kernel has no CONFIG_KALLSYMS_ALL).
6.12 read_bpf_task_storage_busy.bpf.o read_bpf_task_storage_busy
6.12 test_d_path_check_rdonly_mem.bpf.o d_path_check_rdonly_mem
6.12 test_d_path_check_types.bpf.o d_path_check_rdonly_mem
6.12 test_ksyms_btf.bpf.o handler
6.12 test_ksyms_btf_null_check.bpf.o handler
6.12 test_ksyms_btf_write_check.bpf.o handler1
6.12 test_ksyms_btf_write_check.bpf.o handler2
6.12 test_ksyms_weak.bpf.o pass_handler
6.1 test_d_path_check_types.bpf.o d_path_check_rdonly_mem
6.1 test_ksyms_btf.bpf.o handler
6.1 test_ksyms_btf_write_check.bpf.o handler2
6.1 test_ksyms_weak.bpf.o pass_handler
6.18 test_ksyms_btf.bpf.o handler
LIST

for v in $(cut -d' ' -f1 "$TMP/cases" | sort -u); do
	if [ ! -s "build/target-$v/btf" ]; then
		fail "recorded_cases_$v" "no build/target-$v: run make target"
		continue
	fi
	grep "^$v " "$TMP/cases" | while read -r _ obj prog; do
		f=build/corpus/progs/$obj
		[ -f "$f" ] || f=build/corpus/verifier/$obj
		"$BPFVET" "$f" --target "build/target-$v" -p "$prog" -o csv \
			-e file_name,prog_name,verdict,total_insns,error 2>/dev/null | tail -n +2
	done >"$TMP/got-$v.csv"
	python3 - "tests/conformance/kernel-$v.csv" "$TMP/got-$v.csv" "$v" "$TMP/cases" <<'PY'
import csv, sys
ref = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
got = {(r[0], r[1]): r for r in csv.reader(open(sys.argv[2]))}
v = sys.argv[3]
for line in open(sys.argv[4]):
    t, obj, prog = line.split()
    if t != v:
        continue
    name = 'recorded_cases_%s %s/%s' % (v, obj, prog)
    k, g = ref.get((obj, prog)), got.get((obj, prog))
    if not k or not g:
        print('FAIL %s: no %s row' % (name, 'recorded' if not k else 'bpfvet'))
        continue
    want = (k['verdict'], k['insns'], k['error'] if k['verdict'] == 'failure' else '')
    have = (g[2], g[3], g[4] if g[2] == 'failure' else '')
    if want == have:
        print('PASS ' + name)
    else:
        print('FAIL %s: got %s, kernel %s' % (name, have, want))
PY
done
