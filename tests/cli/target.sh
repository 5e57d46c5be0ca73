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

# The verifier's rules follow the target's version (rules/kver.c). Each
# behaviour is checked on the programs that show it, against what the
# recorded kernel said: the verdict, the instructions processed and the
# first error. build/target-VERSION is the recorded kernel's profile.
need_corpus target_record_corpus
for v in 6.1 6.12; do
	[ -s "build/target-$v/btf" ] || { fail "target_$v" "no build/target-$v: run make target"; exit 0; }
done
# ISA v4 (6.6): 6.1 refuses it with its message where it stops.
for o in sdiv movsx bswap gotol ldsx; do like_record 6.1 target_6_1_isa_v4 "verifier_$o.bpf.o"; done
# may_goto (6.9): an opcode 6.1's table lacks, refused before the walk.
like_record 6.1 target_6_1_may_goto verifier_iterating_callbacks.bpf.o cond_break1 \
	may_goto_neg_off gotol_and_may_goto
like_record 6.12 target_6_12_may_goto verifier_iterating_callbacks.bpf.o cond_break1 \
	may_goto_neg_off
# Open-coded iterators (6.4): 6.1's BTF has no bpf_iter_num_*, so libbpf
# turns each call of the weak kfunc into helper 2002000000 + its extern
# index, which the kernel refuses where the walk reaches it.
like_record 6.1 target_6_1_poisoned_kfunc iters_num.bpf.o
like_record 6.1 target_6_1_poisoned_kfunc iters.bpf.o iter_while_loop triple_continue
like_record 6.12 target_6_12_iters iters_num.bpf.o
# A strong kfunc the target lacks: libbpf refuses the program.
like_record 6.1 target_6_1_strong_kfunc exceptions_fail.bpf.o reject_with_rbtree_add_throw \
	reject_with_reference reject_with_cb_reference
# Before 6.8 a branch is decided only against a constant, and equality
# only between constants: 6.1 walks into r0 == 2 although r0 >= 3.
like_record 6.1 target_6_1_branch_const verifier_bounds_deduction_non_const.bpf.o \
	deducing_bounds_from_non_const_1 deducing_bounds_from_non_const_2 \
	deducing_bounds_from_non_const_3 deducing_bounds_from_non_const_4 \
	deducing_bounds_from_non_const_5 deducing_bounds_from_non_const_6
# ... and r != 0 leaves r's range as it was; a 32-bit copy is not linked.
like_record 6.1 target_6_1_branch_const verifier_bounds.bpf.o reg_not_equal_const reg_equal_const
like_record 6.1 target_6_1_mov32 verifier_reg_equal.bpf.o
# Before 6.2 a pointer that may be NULL, found equal to one that is not,
# stays possibly NULL.
like_record 6.1 target_6_1_jeq_not_null verifier_jeq_infer_not_null.bpf.o
like_record 6.12 target_6_12_jeq_not_null verifier_jeq_infer_not_null.bpf.o
# Before 6.8 global functions' "arg:..." tags mean nothing, and every
# global function is verified first, called or not: a void * context
# argument has no size.
like_record 6.1 target_6_1_arg_tags verifier_global_subprogs.bpf.o arg_tag_ctx_kprobe \
	arg_tag_ctx_tp arg_tag_nonnull_ptr_good
like_record 6.1 target_6_1_arg_tags verifier_global_ptr_args.bpf.o trusted_task_arg_nonnull
# Before 6.9 no call but bpf_spin_unlock is allowed under a lock, and any
# exit holding one is "bpf_spin_unlock is missing", which 6.12 still says
# at the main program's exit.
like_record 6.1 target_6_1_lock test_spin_lock.bpf.o lock_static_subprog_call \
	lock_static_subprog_lock lock_static_subprog_unlock
like_record 6.1 target_6_1_lock verifier_spin_lock.bpf.o lock_in_subprog_without_unlock \
	call_within_a_locked_region spin_lock_test6_missing_unlock
like_record 6.12 target_6_12_lock test_spin_lock.bpf.o lock_static_subprog_call
like_record 6.12 target_6_12_lock verifier_spin_lock.bpf.o lock_in_subprog_without_unlock \
	spin_lock_test6_missing_unlock
# Before 6.7 a callback is walked once, inline, and its effects are what
# the code after the helper call sees.
like_record 6.1 target_6_1_callbacks verifier_iterating_callbacks.bpf.o unsafe_on_zero_iter \
	unsafe_for_each_map_elem bpf_loop_iter_limit_overflow
# In 6.1 only a jump's edges, or a callback reference, may close a loop:
# a plain fall-through into one is a back-edge.
like_record 6.1 target_6_1_back_edge verifier_loops1.bpf.o loop_start_in_the_middle
like_record 6.1 target_6_1_back_edge verifier_cfg.bpf.o conditional_loop2
like_record 6.1 target_6_1_back_edge timer_mim.bpf.o test1
# Before 6.13 (6.12.y) neither a tail call nor a global function that
# changes the packet invalidates packet pointers.
like_record 6.1 target_6_1_pkt_calls verifier_sock.bpf.o invalidate_pkt_pointers_from_global_func \
	invalidate_pkt_pointers_by_tail_call
like_record 6.12 target_6_12_pkt_calls verifier_sock.bpf.o invalidate_pkt_pointers_from_global_func \
	invalidate_pkt_pointers_by_tail_call
# Before 6.7 a loop is infinite by the pruning comparison, and the log
# ends at the message.
like_record 6.1 target_6_1_infinite_loop verifier_loops1.bpf.o not_an_inifinite_loop \
	infinite_loop_in_two_jumps
# Before 6.4 pruning took a register identical to the old one without
# mapping its ids: two packet pointers then pass for one.
like_record 6.1 target_6_1_regsafe_ids verifier_direct_packet_access.bpf.o id_in_regsafe_bad_access
like_record 6.12 target_6_12_regsafe_ids verifier_direct_packet_access.bpf.o id_in_regsafe_bad_access
# Before 6.11 r1 = r0 + 4 is not linked to r0: a branch on one leaves the
# other unbounded.
like_record 6.1 target_6_1_linked_add_const verifier_iterating_callbacks.bpf.o check_add_const_3regs \
	check_add_const_3regs_2if check_add_const_regsafe_off
# Before 6.13 r0 = -r0 is an unknown scalar, even of 0.
like_record 6.1 target_6_1_neg verifier_bounds_deduction.bpf.o deducing_bounds_from_const_10
like_record 6.12 target_6_12_neg verifier_bounds_deduction.bpf.o deducing_bounds_from_const_10
# Before 6.8 a spill shares no id with its register, zeros and unbounded
# scalars do not spill, only a fill of the spill's size keeps it, and a
# branch narrows no spilled copy. (with_invalid_reg_offset_0 differs in
# a type's name: 6.1 calls ringbuf memory alloc_mem.)
like_record 6.1 target_6_1_spill verifier_spill_fill.bpf.o $(awk -F, '$1 == "verifier_spill_fill.bpf.o" && $2 != "with_invalid_reg_offset_0" { print $2 }' tests/conformance/kernel-6.1.csv)
"$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o --btf "$TARGET_BTF" --kernel-version 6.18.44 \
	-p sdiv32_non_zero_imm_1 -o csv -e prog,verdict >"$TMP/out" 2>"$TMP/err"
row_is target_6_18_isa_v4 'sdiv32_non_zero_imm_1,success'

# --target A,B,...: one verdict column per target, in each format, and
# the exit status of the worst verdict.
M="build/target-6.1,build/target-6.18"
expect_exit target_matrix_csv 1 "$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o --target "$M" \
	-p sdiv32_non_zero_imm_1 -p sdiv32_non_zero_imm_2 -o csv -e error
printf '%s\n' "file_name,prog_name,build/target-6.1,build/target-6.18,error_build/target-6.1,error_build/target-6.18" \
	"verifier_sdiv.bpf.o,sdiv32_non_zero_imm_1,failure,success,BPF_ALU uses reserved fields," \
	"verifier_sdiv.bpf.o,sdiv32_non_zero_imm_2,failure,success,BPF_ALU uses reserved fields," >"$TMP/want"
cmp -s "$TMP/out" "$TMP/want" && pass target_matrix_csv_rows ||
	fail target_matrix_csv_rows "$(head -c 400 "$TMP/out")"
expect_exit target_matrix_json 1 "$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o --target "$M" \
	-p sdiv32_non_zero_imm_1 -o json
python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); sys.exit(d != {"schema": "bpfvet-verify-matrix/1", "targets": ["build/target-6.1", "build/target-6.18"], "programs": [{"file_name": "verifier_sdiv.bpf.o", "prog_name": "sdiv32_non_zero_imm_1", "verdicts": {"build/target-6.1": "failure", "build/target-6.18": "success"}}]})' \
	"$TMP/out" && pass target_matrix_json_rows || fail target_matrix_json_rows "$(head -c 400 "$TMP/out")"
expect_exit target_matrix_table 1 "$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o --target "$M" \
	-p sdiv32_non_zero_imm_1
awk 'NR == 2 { exit !($3 == "failure" && $4 == "success") }' "$TMP/out" &&
	pass target_matrix_table_row || fail target_matrix_table_row "$(head -c 400 "$TMP/out")"
expect_exit target_matrix_accepted 0 "$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o \
	--target build/target-6.12,build/target-6.18 -p sdiv32_non_zero_imm_1 -q
expect_exit target_matrix_twice 2 "$BPFVET" build/corpus/verifier/verifier_sdiv.bpf.o \
	--target build/target-6.1 --target "$M"
grep -qxF "bpfvet: --target with several targets: give them in one --target" "$TMP/err" &&
	pass target_matrix_twice_msg || fail target_matrix_twice_msg "$(cat "$TMP/err")"

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
# KVER_EXACT_LOOP_CHECK: 6.1 prints no states after an infinite loop.
target_messages target_msg_6.1_loop 6.1 \
	verifier_loops1.bpf.o/infinite_loop_in_two_jumps \
	verifier_cfg.bpf.o/conditional_loop
# KVER_ZERO_SIZE_MSG: 6.1 checks the memory for zero bytes.
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
# KVER_LOCKED_SUBPROG_CALLS: 6.1 allows no call under a spin lock, and
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
# KVER_LAZY_GLOBALS: 6.1 verifies every global function first.
target_messages target_msg_6.1_globals_first 6.1 \
	test_global_func7.bpf.o/global_func7 \
	test_global_func14.bpf.o/global_func14
target_messages target_msg_6.12_globals_first 6.12 \
	test_global_func7.bpf.o/global_func7 \
	test_global_func14.bpf.o/global_func14
# KVER_ANY_BACK_EDGE: 6.1's CFG check refuses recursion.
target_messages target_msg_6.1_call_cycle 6.1 verifier_loops1.bpf.o/bounded_recursion
target_messages target_msg_6.12_call_cycle 6.12 verifier_loops1.bpf.o/bounded_recursion
