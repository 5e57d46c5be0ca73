# struct_ops members the kernel refuses before verifying (Linux 6.18
# facts, src/verifier/struct_ops_rules.c): a member with no stub in its struct_ops
# type, and a sleepable program where bpf_dummy_ops allows none. Verdicts
# and messages as the kernel gives them (bpfvet kernel, on this machine).
. tests/lib.sh
need_corpus struct_ops_build
check() {
	name=$1 obj=$2 prog=$3 want=$4
	"$BPFVET" "build/corpus/progs/$obj" -p "$prog" -o csv -e prog,verdict,error \
		>"$TMP/out" 2>"$TMP/err"
	got=$(tail -n +2 "$TMP/out")
	if [ "$got" = "$want" ]; then
		pass "$name"
	else
		fail "$name" "got '$got', want '$want' ($(head -c 200 "$TMP/err"))"
	fi
}
check struct_ops_no_stub tcp_ca_unsupp_cong_op.bpf.o unsupp_cong_op_get_info \
	'unsupp_cong_op_get_info,failure,attach to unsupported member get_info of struct tcp_congestion_ops'
check struct_ops_sleepable_member dummy_st_ops_fail.bpf.o test_unsupported_field_sleepable \
	'test_unsupported_field_sleepable,failure,attach to unsupported member test_2 of struct bpf_dummy_ops'
check struct_ops_sleepable_ok dummy_st_ops_success.bpf.o test_sleepable \
	'test_sleepable,success,'

# The context, writes, helpers and return values of struct_ops members
# (tests/progs/struct_ops.c) for the recorded 6.18 target: verdict,
# processed instructions and first error as the 6.18 kernel gave them
# (bpfvet kernel on 6.18.y; level-2 logs identical too).
need_target struct_ops_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/struct_ops.o" $TARGET -o csv -e prog,verdict,total_insns,error \
	>"$TMP/so" 2>"$TMP/err"
for row in \
	'ca_write_cwnd,success,7,' \
	'ca_write_mss,failure,3,no write support to tcp_sock at off 1440' \
	'ca_write_wide,failure,5,write access at off 1492 with size 8 beyond the member of tcp_sock ended at 1496' \
	'ca_void_exit,success,1,' \
	'ca_u32_unset,failure,1,R0 !read_ok' \
	'ca_helper_ok,success,5,' \
	'ca_helper_no,failure,2,program of this type cannot use helper bpf_override_return#58' \
	'ca_ctx_past_args,failure,1,invalid bpf_context access off=8 size=8' \
	"dummy_no_null_check,failure,2,R1 invalid mem access 'trusted_ptr_or_null_'" \
	'dummy_write_state,success,5,' \
	'dummy_write_beyond,failure,2,write access at off 4 with size 4' \
	'dummy_helper,failure,1,program of this type cannot use helper bpf_get_prandom_u32#7'; do
	if grep -qxF -- "$row" "$TMP/so"; then
		pass "struct_ops_prog ${row%%,*}"
	else
		fail "struct_ops_prog ${row%%,*}" "want '$row'; got: $(grep "^${row%%,*}," "$TMP/so")"
	fi
done

# 6.1 had neither the 6.10 writable fields nor sleepable struct_ops.
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/struct_ops.o" build/corpus/progs/tcp_ca_write_sk_pacing.bpf.o \
	build/corpus/progs/dummy_st_ops_fail.bpf.o --target build/target-6.1 \
	-o csv -e prog,verdict,total_insns,error >"$TMP/so61" 2>"$TMP/err"
for row in \
	'write_sk_pacing_cong_control,failure,26,no write support to tcp_sock at off 1820' \
	'test_unsupported_field_sleepable,failure,0,"Only fentry/fexit/fmod_ret, lsm, and kprobe/uprobe programs can be sleepable"'; do
	if grep -qxF -- "$row" "$TMP/so61"; then
		pass "struct_ops_6.1 ${row%%,*}"
	else
		fail "struct_ops_6.1 ${row%%,*}" "want '$row'; got: $(grep "^${row%%,*}," "$TMP/so61")"
	fi
done

# The corpus's struct_ops programs against the 6.18 record: where bpfvet
# decides, the same verdict, first error and processed instructions; the
# programs whose struct the target lacks (the selftests' bpf_testmod_ops)
# refused by the loader in the same words. Programs that call kfuncs may
# still be unsupported; at least the 30 decided today must stay decided.
# shellcheck disable=SC2086
"$BPFVET" build/corpus/progs/*.o build/corpus/verifier/verifier_global_subprogs.bpf.o \
	$TARGET -o csv -e file_name,prog_name,verdict,total_insns,error >"$TMP/corpus" 2>/dev/null
python3 - tests/conformance/kernel-6.18.csv "$TMP/corpus" >"$TMP/cmp" <<'PY'
import csv, sys
got = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[2]))}
decided = 0
for k in csv.DictReader(open(sys.argv[1])):
    if k['prog_type'] != 'struct_ops':
        continue
    g = got.get((k['file'], k['prog']))
    name = '%s/%s' % (k['file'], k['prog'])
    if g is None or g['verdict'] == 'unsupported':
        continue
    if k['verdict'] == 'refused':
        if 'init_kern' in k['error']:
            # The loader's struct_ops step: refused in the same words.
            ok = (g['verdict'], g['error']) == ('refused', k['error'])
        elif g['verdict'] == 'refused':
            ok = True
        else:
            continue    # the kernel's own refusal (ENOTSUPP): no verdict
    else:
        decided += 1
        ok = (g['verdict'], g['total_insns'], g['error']) == (k['verdict'], k['insns'], k['error'])
    print('%s %s %s' % ('PASS' if ok else 'FAIL', name,
                        '' if ok else 'kernel %s %s %s, bpfvet %s %s %s' % (
                            k['verdict'], k['insns'], k['error'], g['verdict'],
                            g['total_insns'], g['error'])))
print('DECIDED %d' % decided)
PY
grep '^FAIL' "$TMP/cmp" | head -n 20 | while read -r _ name why; do
	fail "struct_ops_corpus $name" "$why"
done
n_ok=$(grep -c '^PASS' "$TMP/cmp")
n_bad=$(grep -c '^FAIL' "$TMP/cmp")
decided=$(sed -n 's/^DECIDED //p' "$TMP/cmp")
if [ "$n_bad" -eq 0 ] && [ "$n_ok" -ge 99 ] && [ "${decided:-0}" -ge 30 ]; then
	pass "struct_ops_corpus ($n_ok agree, $decided verified)"
else
	fail "struct_ops_corpus" "$n_ok agree, $n_bad differ, $decided verified (want >= 99, 0, >= 30)"
fi
