# --target NAME|DIR: a target profile fills what no option sets (BTF,
# config, kallsyms, LINUX_KERNEL_VERSION, the syscall wrapper); options
# given win. Profiles are folders; `make profiles` writes 6.1, 6.12 and
# 6.18 into the cache, and these tests make their own.
. tests/lib.sh
E=$PROGS/extern_values.o
need_target target_profile_files

P=$TMP/prof
mkdir -p "$P"
cp "$TARGET_BTF" "$P/btf"
printf 'CONFIG_HZ=250\nCONFIG_BPF_SYSCALL=y\n' >"$P/config"
printf '6.12.0\n' >"$P/kernel_version"
printf '0\n' >"$P/syscall_wrapper"
printf 'ffffffff82400000 D __start_rodata\n' >"$P/kallsyms"

row_is() {
	if [ "$(tail -n 1 "$TMP/out")" = "$2" ]; then pass "$1"; else
		fail "$1" "got '$(tail -n 1 "$TMP/out")', want '$2' $(head -c 200 "$TMP/err")"; fi
}
expect_exit target_dir_version 1 "$BPFVET" "$E" --target "$P" -p version_at_least_6_18 \
	-o csv -e prog,verdict
row_is target_dir_version_row 'version_at_least_6_18,failure'
expect_exit target_dir_config 0 "$BPFVET" "$E" --target "$P" -p hz_is_250 -o csv -e prog,verdict
row_is target_dir_config_row 'hz_is_250,success'
expect_exit target_dir_kallsyms 0 "$BPFVET" dump "$E" --target "$P" -p ksym_present
grep -qxF '2: (18) r2 = 0xffffffff82400000' "$TMP/out" && pass target_dir_kallsyms_insn ||
	fail target_dir_kallsyms_insn "$(grep '^2:' "$TMP/out")"
expect_exit target_dir_wrapper 1 "$BPFVET" "$E" --target "$P" -p needs_syscall_wrapper \
	-o csv -e prog,verdict
row_is target_dir_wrapper_row 'needs_syscall_wrapper,failure'
# An option beats the profile.
expect_exit target_option_wins 0 "$BPFVET" "$E" --target "$P" --kernel-version 6.18.44 \
	-p version_at_least_6_18 -o csv -e prog,verdict
row_is target_option_wins_row 'version_at_least_6_18,success'
"$BPFVET" "$E" --target "$P" -v -q >/dev/null 2>"$TMP/err"
grep -qxF "bpfvet: target BTF $P/btf (--target's profile)" "$TMP/err" &&
	pass target_verbose || fail target_verbose "$(head -c 200 "$TMP/err")"

# Profiles by name come from the cache: a made-up one, for these commands
# alone (the corpus cache, which need_corpus reads, stays the real one).
C="env XDG_CACHE_HOME=$TMP/cache"
expect_exit target_name_missing 2 $C "$BPFVET" "$E" --target 6.1
grep -qxF "bpfvet: no profile for target '6.1' in $TMP/cache/bpfvet/profiles/6.1: make profiles makes 6.1, 6.12 and 6.18" \
	"$TMP/err" && pass target_name_missing_msg || fail target_name_missing_msg "$(cat "$TMP/err")"
mkdir -p "$TMP/cache/bpfvet/profiles"
cp -r "$P" "$TMP/cache/bpfvet/profiles/6.12"
expect_exit target_name 1 $C "$BPFVET" "$E" --target 6.12 -p version_at_least_6_18 -o csv -e prog,verdict
row_is target_name_row 'version_at_least_6_18,failure'
rm "$TMP/cache/bpfvet/profiles/6.12/btf"
expect_exit target_no_btf 2 $C "$BPFVET" "$E" --target 6.12
grep -qF "profile 6.12 ($TMP/cache/bpfvet/profiles/6.12) has no btf file" "$TMP/err" &&
	pass target_no_btf_msg || fail target_no_btf_msg "$(cat "$TMP/err")"
expect_exit target_not_dir 2 "$BPFVET" "$E" --target "$TMP/nope/"
grep -qxF "bpfvet: target $TMP/nope/ is not a profile folder" "$TMP/err" &&
	pass target_not_dir_msg || fail target_not_dir_msg "$(cat "$TMP/err")"

# The verifier's rules follow the target's version (rules/kver.c): ISA v4
# (6.6) is refused by 6.1 as the recorded 6.1 kernel refuses it, with its
# message, at the instruction where it stops; 6.18 accepts it.
need_corpus target_isa_v4_corpus
set --
for o in sdiv movsx bswap gotol ldsx; do set -- "$@" "build/corpus/verifier/verifier_$o.bpf.o"; done
"$BPFVET" "$@" --btf "$TARGET_BTF" --kernel-version 6.1.0 -o csv \
	-e file_name,prog_name,verdict,total_insns,error >"$TMP/got.csv" 2>/dev/null
python3 - tests/conformance/kernel-6.1.csv "$TMP/got.csv" <<'PY'
import csv, sys
got = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[2]))}
objs = {'verifier_%s.bpf.o' % o for o in ('sdiv', 'movsx', 'bswap', 'gotol', 'ldsx')}
for k in csv.DictReader(open(sys.argv[1])):
    if k['file'] not in objs:
        continue
    g = got.get((k['file'], k['prog']), {})
    want = (k['verdict'], k['insns'], k['error'] if k['verdict'] == 'failure' else '')
    have = (g.get('verdict'), g.get('total_insns'), g.get('error') if g.get('verdict') == 'failure' else '')
    name = 'target_6_1 %s/%s' % (k['file'], k['prog'])
    print(('PASS %s' % name) if want == have else 'FAIL %s: got %s, 6.1 %s' % (name, have, want))
PY
"$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o --btf "$TARGET_BTF" --kernel-version 6.18.44 \
	-p sdiv32_non_zero_imm_1 -o csv -e prog,verdict >"$TMP/out" 2>"$TMP/err"
row_is target_6_18_isa_v4 'sdiv32_non_zero_imm_1,success'

# Messages follow the target's version as well (rules/kver.c, the
# "Messages" entries): with the recorded kernel's profile, bpfvet's first
# error for each FILE/PROG is the one kernel-VERSION.csv recorded.
# target_messages NAME VERSION FILE/PROG...
target_messages() {
	name=$1 v=$2
	shift 2
	rc=0
	"$BPFVET" "$E" --target "$v" -q >/dev/null 2>"$TMP/err" || rc=$?
	if [ "$rc" = 2 ]; then
		skip "$name" "no profile $v in the cache (make profiles): $(head -c 200 "$TMP/err")"
		return 0
	fi
	for p in "$@"; do
		for d in build/corpus/verifier build/corpus/progs; do
			[ -f "$d/${p%%/*}" ] && { echo "$d/${p%%/*}"; break; }
		done
	done | sort -u >"$TMP/objs"
	# shellcheck disable=SC2046
	"$BPFVET" $(cat "$TMP/objs") --target "$v" -o csv -e file_name,prog_name,verdict,error \
		>"$TMP/got.csv" 2>/dev/null
	python3 - "tests/conformance/kernel-$v.csv" "$TMP/got.csv" "$name" "$@" <<'PY'
import csv, sys
ref = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
got = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[2]))}
for p in sys.argv[4:]:
    key = tuple(p.split('/', 1))
    want = ref.get(key, {}).get('error', '(not recorded)')
    have = got.get(key, {}).get('error', '(no row)')
    name = '%s %s' % (sys.argv[3], p)
    print(('PASS %s' % name) if want == have else 'FAIL %s: got %r, kernel %r' % (name, have, want))
PY
}
need_corpus target_messages_corpus
# KVER_MSG_RESOURCE_LEAK: each exit point's own words before 6.13.
for v in 6.1 6.12; do
	target_messages "target_msg_${v}_resource_leak" "$v" \
		verifier_ref_tracking.bpf.o/reference_tracking_leak_potential_reference \
		verifier_ref_tracking.bpf.o/ld_abs_while_holding_reference \
		verifier_spin_lock.bpf.o/spin_lock_test6_missing_unlock
done
# KVER_MSG_RETVAL_BOUNDS: return values as tnums before 6.8.
target_messages target_msg_6.1_retval 6.1 \
	verifier_cgroup_inv_retcode.bpf.o/with_invalid_return_code_test3 \
	verifier_cgroup_inv_retcode.bpf.o/with_invalid_return_code_test7 \
	verifier_sock_addr.bpf.o/recvmsg4_bad_return_code \
	timer_failure.bpf.o/test_bad_ret
target_messages target_msg_6.12_retval 6.12 \
	verifier_cgroup_inv_retcode.bpf.o/with_invalid_return_code_test3 \
	timer_failure.bpf.o/test_bad_ret
# KVER_MSG_HELPER_NOT_OFFERED: 'unknown func NAME#ID' in 6.1.
target_messages target_msg_6.1_helper 6.1 \
	cgroup_getset_retval_hooks.bpf.o/ingress \
	verifier_helper_restricted.bpf.o/in_bpf_prog_type_kprobe_1
target_messages target_msg_6.12_helper 6.12 \
	verifier_helper_restricted.bpf.o/in_bpf_prog_type_kprobe_1
# KVER_MSG_HELPER_ACCESS_KIND, KVER_MSG_VAR_OFF_STACK_OFF: a helper's
# stack access out of bounds was an indirect one; 6.1 has no off=.
for v in 6.1 6.12; do
	target_messages "target_msg_${v}_helper_stack" "$v" \
		verifier_const_or.bpf.o/not_bypass_stack_boundary_checks_1 \
		verifier_var_off.bpf.o/access_max_out_of_bound \
		verifier_var_off.bpf.o/variable_offset_stack_access_unbounded
done
# KVER_MSG_CONST_TNUM_NUMBER, KVER_MSG_SUBPROG_NAMED (6.1).
for v in 6.1 6.12; do
	target_messages "target_msg_${v}_misaligned_subprog" "$v" \
		verifier_basic_stack.bpf.o/misaligned_read_from_stack \
		verifier_xadd.bpf.o/xadd_w_check_unaligned_map \
		test_global_func10.bpf.o/global_func10
done
# KVER_MSG_LOOP_STATES: 6.1 prints no states after an infinite loop.
target_messages target_msg_6.1_loop 6.1 \
	verifier_loops1.bpf.o/infinite_loop_in_two_jumps \
	verifier_cfg.bpf.o/conditional_loop
# KVER_MSG_ZERO_SIZE_BOUNDS: 6.1 checks the memory for zero bytes.
target_messages target_msg_6.1_zero_size 6.1 \
	verifier_helper_value_access.bpf.o/access_to_map_empty_range \
	verifier_raw_stack.bpf.o/skb_load_bytes_zero_len \
	verifier_const.bpf.o/bprm
target_messages target_msg_6.12_zero_size 6.12 \
	verifier_helper_value_access.bpf.o/access_to_map_empty_range
# KVER_MSG_ARG_TYPE_LISTS: 6.1's shorter "expected=" lists.
target_messages target_msg_6.1_arg_types 6.1 \
	verifier_ref_tracking.bpf.o/tracking_release_reference_without_check \
	verifier_helper_access_var_len.bpf.o/ptr_to_mem_or_null_8 \
	verifier_sock.bpf.o/sk_1_1_value_1 \
	test_spin_lock_fail.bpf.o/lock_id_global_zero \
	test_sk_storage_tracing.bpf.o/inet_csk_accept
target_messages target_msg_6.12_arg_types 6.12 \
	verifier_ref_tracking.bpf.o/tracking_release_reference_without_check \
	verifier_helper_access_var_len.bpf.o/ptr_to_mem_or_null_8
# KVER_STACK_ROUND_16: 6.1 rounds each frame to 32 bytes.
for v in 6.1 6.12; do
	target_messages "target_msg_${v}_stack_round" "$v" \
		async_stack_depth.bpf.o/pseudo_call_check \
		test_global_func1.bpf.o/global_func1
done
# KVER_LOCK_SUBPROG_CALLS: 6.1 allows no call under a spin lock, and
# checks the lock at every frame's exit.
target_messages target_msg_6.1_lock_calls 6.1 \
	test_spin_lock_fail.bpf.o/lock_global_subprog_call1 \
	test_spin_lock.bpf.o/lock_static_subprog_call \
	verifier_spin_lock.bpf.o/lock_in_subprog_without_unlock
target_messages target_msg_6.12_lock_calls 6.12 \
	test_spin_lock_fail.bpf.o/lock_global_subprog_call1
# KVER_ST_INTO_CTX: 6.1 refuses BPF_ST into the context.
target_messages target_msg_6.1_st_ctx 6.1 verifier_unpriv.bpf.o/fill_of_different_pointers_st
target_messages target_msg_6.12_st_ctx 6.12 verifier_unpriv.bpf.o/fill_of_different_pointers_st
# KVER_MSG_RINGBUF_NAME, KVER_MSG_RELEASE_OFF: 6.1's alloc_mem.
target_messages target_msg_6.1_ringbuf 6.1 \
	verifier_ringbuf.bpf.o/ringbuf_invalid_reservation_offset_1 \
	verifier_spill_fill.bpf.o/with_invalid_reg_offset_0
target_messages target_msg_6.12_ringbuf 6.12 \
	verifier_ringbuf.bpf.o/ringbuf_invalid_reservation_offset_1 \
	verifier_spill_fill.bpf.o/with_invalid_reg_offset_0
# KVER_LAZY_GLOBAL_SUBPROGS: 6.1 verifies every global function first.
target_messages target_msg_6.1_globals_first 6.1 \
	test_global_func7.bpf.o/global_func7 \
	test_global_func14.bpf.o/global_func14
target_messages target_msg_6.12_globals_first 6.12 \
	test_global_func7.bpf.o/global_func7 \
	test_global_func14.bpf.o/global_func14
# KVER_CALL_CYCLES_IN_CFG: 6.1's CFG check refuses recursion.
target_messages target_msg_6.1_call_cycle 6.1 verifier_loops1.bpf.o/bounded_recursion
target_messages target_msg_6.12_call_cycle 6.12 verifier_loops1.bpf.o/bounded_recursion
