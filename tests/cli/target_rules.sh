# The version table's rules (src/rules/kver.c) against what the recorded
# kernels said: each line of the list below is a target and a corpus
# program; bpfvet --target TARGET must give the verdict (and, for a
# rejection, the first error, unless the line says "verdict") of that
# kernel's row in tests/conformance/kernel-TARGET.csv. Uses the real profiles (make
# profiles), whose BTF and symbols the rules read; a target without one is
# skipped.
. tests/lib.sh
need_corpus target_rules_corpus

# target object program [verdict]: why it is here
cat >"$TMP/cases" <<'LIST'
6.1 bpf_iter_bpf_hash_map.bpf.o dump_bpf_hash_map: iterator ctx and walked pointers plain before 6.2
6.1 bpf_iter_tasks.bpf.o dump_task_sleepable: no RCU rule for sleepable walks before 6.2
6.1 local_storage.bpf.o socket_post_create: LSM arguments plain before 6.2
6.1 test_sk_storage_tracing.bpf.o tcp_retransmit_synack: fentry walk stays plain
6.1 test_ringbuf_map_key.bpf.o test_ringbuf_mem_map_key verdict: map keys from the stack, packet or maps only before 6.2
6.1 bpf_iter_bpf_array_map.bpf.o dump_bpf_array_map: an iterator's buffer is no map key before 6.2
6.1 bpf_mod_race.bpf.o widen_race: no sleepable fmod_ret set before 6.2, no error injection list
6.1 modify_return.bpf.o fmod_ret_test: no fmod_ret set before 6.2
6.1 modify_return.bpf.o fexit_test: the check is fmod_ret's
6.1 test_probe_user.bpf.o handle_sys_connect: not locked down (config), bpf_probe_write_user offered
6.1 test_bpf_cookie.bpf.o handle_raw_tp verdict: no attach cookie for raw_tp before 6.10
6.1 test_bpf_cookie.bpf.o handle_tp_btf verdict: nor for tp_btf
6.1 test_ns_current_pid_tgid.bpf.o sk_msg verdict: ns_current_pid_tgid is tracing's before 6.10
6.1 test_ns_current_pid_tgid.bpf.o tp_handler: and tracing keeps it
6.12 test_bpf_cookie.bpf.o handle_raw_tp: attach cookie for raw_tp
6.12 test_ns_current_pid_tgid.bpf.o cgroup_bind4: ns_current_pid_tgid for every type
6.12 test_probe_user.bpf.o handle_sys_connect: not locked down (config)
6.1 verifier_lsm.bpf.o errno_zero_retval_test4: an LSM program returns any scalar before 6.12
6.1 verifier_lsm.bpf.o bool_retval_test3: whatever its hook's type
6.12 verifier_lsm.bpf.o errno_zero_retval_test4: 6.12 checks the hook's range
6.1 map_kptr_fail.bpf.o size_not_bpf_dw: __kptr_untrusted is no tag before 6.3: the value has no fields
6.1 map_kptr_fail.bpf.o reject_indirect_helper_access: nor any kptr a helper could touch
6.1 map_kptr_fail.bpf.o reject_kptr_xchg_on_unref verdict: so no kptr to exchange
6.12 map_kptr_fail.bpf.o size_not_bpf_dw: 6.12 knows the tag
6.12 biosnoop-1.bpf.o block_rq_complete: a map key read from the stack clobbers the spilled pointer before 6.13
6.1 biosnoop-1.bpf.o block_rq_complete: likewise
6.12 iters.bpf.o iter_err_too_permissive2: likewise, a helper read makes the spilled pointer misc
6.1 exceptions_fail.bpf.o reject_exception_cb_call_global_func: no exception callbacks before 6.7
6.1 struct_ops_forgotten_cb.bpf.o test_1_forgotten: a struct_ops program in no map, before 6.9
6.1 test_misc_tcp_hdr_options.bpf.o misc_estab verdict: sock_ops has no skb_hwtstamp before 6.2
6.1 for_each_multi_maps.bpf.o test_pkt_access: one bpf_for_each_map_elem call over two maps, before 6.9
6.12 for_each_multi_maps.bpf.o test_pkt_access: allowed since 6.9
6.1 get_func_ip_test.bpf.o test1: no function address by LD_IMM64 before 6.4
6.1 test_ptr_untrusted.bpf.o lsm_run: a union's member bounds the walk before 6.3
6.1 btf_type_tag_user.bpf.o test_sys_getsockname: a non-GPL program reads kernel structs before 6.2
6.12 btf_type_tag_user.bpf.o test_sys_getsockname: not since
6.1 verifier_sock.bpf.o invalidate_pkt_pointers_from_global_func: only helpers invalidate packet pointers on 6.1
6.1 verifier_sock.bpf.o invalidate_pkt_pointers_by_tail_call: a tail call neither
6.12 verifier_sock.bpf.o invalidate_pkt_pointers_by_tail_call: Debian's 6.12 has the fix
6.1 strobemeta_subprogs.bpf.o on_event: frames rounded to 32 and no private stack before 6.8 and 6.13
6.1 verifier_bpf_fastcall.bpf.o cumulative_stack_depth: likewise
6.12 strobemeta_subprogs.bpf.o on_event: frames rounded to 16 fit
6.12 bpf_mod_race.bpf.o widen_race: bpf_fentry_test1 is sleepable in the fmod_ret set
6.12 modify_return.bpf.o fmod_ret_test: bpf_modify_return_test is in the fmod_ret set
6.12 mptcpify.bpf.o mptcpify: update_socket_protocol is in an fmod_ret set
6.12 access_map_in_map.bpf.o sleepable_access_map_in_array: no error injection list
6.12 verifier_global_subprogs.bpf.o arg_tag_ctx_fmod_ret: a syscall is not modifiable
6.12 bpf_iter_bpf_sk_storage_helpers.bpf.o fill_socket_owner: walk from a helper's plain pointer stays plain
6.12 bpf_iter_task_vmas.bpf.o proc_maps: walk from an iterator's plain argument stays plain
6.12 cgrp_ls_attach_cgroup.bpf.o set_cookie: walk from a plain pointer stays plain
6.1 tcp_ca_write_sk_pacing.bpf.o write_sk_pacing_cong_control: tcp_congestion_ops may not write app_limited before 6.10
6.12 tcp_ca_write_sk_pacing.bpf.o write_sk_pacing_cong_control: it may since
6.1 dummy_st_ops_fail.bpf.o test_unsupported_field_sleepable: no sleepable struct_ops before 6.3
6.12 dummy_st_ops_fail.bpf.o test_unsupported_field_sleepable: since, bpf_dummy_ops' own rule
6.1 verifier_global_subprogs.bpf.o arg_tag_dynptr: a global function's struct bpf_dynptr is 16 bytes of memory before 6.3
6.12 verifier_global_subprogs.bpf.o arg_tag_dynptr: a constant dynptr since
LIST

profiles=${XDG_CACHE_HOME:-$HOME/.cache}/bpfvet/profiles
for v in $(cut -d' ' -f1 "$TMP/cases" | sort -u); do
	if [ ! -s "$profiles/$v/btf" ]; then
		skip "target_rules_$v" "no profile $profiles/$v (make profiles)"
		continue
	fi
	grep "^$v " "$TMP/cases" | cut -d: -f1 | while read -r _ obj prog mode; do
		f=build/corpus/progs/$obj
		[ -f "$f" ] || f=build/corpus/verifier/$obj
		[ -f "$f" ] || f=build/realworld/$obj
		"$BPFVET" "$f" --target "$v" -p "$prog" -o csv \
			-e file_name,prog_name,verdict,error 2>/dev/null | tail -n +2 |
			sed "s/\$/,$mode/"
	done >"$TMP/got-$v.csv"
	python3 - "tests/conformance/kernel-$v.csv" "$TMP/got-$v.csv" "$v" "$TMP/cases" <<'PY'
import csv, sys
want = {(r['file'], r['prog']): r for r in csv.DictReader(open(sys.argv[1]))}
got = list(csv.reader(open(sys.argv[2])))
seen = {(g[0], g[1]) for g in got}
for line in open(sys.argv[4]):
    f = line.split(':')[0].split()
    if f[0] == sys.argv[3] and (f[1], f[2]) not in seen:
        print('FAIL target_rules_%s %s/%s: no row from bpfvet' % (f[0], f[1], f[2]))
for g in got:
    k = want[(g[0], g[1])]
    name = 'target_rules_%s %s/%s' % (sys.argv[3], g[0], g[1])
    w = (k['verdict'], k['error'] if k['verdict'] == 'failure' else '')
    h = (g[2], g[3] if g[2] == 'failure' else '')
    if g[4] == 'verdict':
        w, h = w[:1], h[:1]
    print('PASS %s' % name if w == h else 'FAIL %s: got %s, kernel %s' % (name, h, w))
PY
done

# The attach check of sleepable and fmod_ret programs decides only where
# the config says the target has no error injection list; the recorded
# 6.18 config does not name it, so 6.18 verdicts stay as they were.
need_target target_rules_attach
M=build/corpus/progs/access_map_in_map.bpf.o
printf '# CONFIG_FUNCTION_ERROR_INJECTION is not set\n' >"$TMP/noeil.config"
"$BPFVET" "$M" --btf "$TARGET_BTF" --kconfig "$TMP/noeil.config" --kernel-version 6.18.0 \
	-p sleepable_access_map_in_array -o csv -e prog,verdict,error >"$TMP/out" 2>"$TMP/err"
[ "$(tail -n 1 "$TMP/out")" = "sleepable_access_map_in_array,failure,__x64_sys_getpgid is not sleepable" ] &&
	pass target_rules_attach_no_list || fail target_rules_attach_no_list "$(tail -n 1 "$TMP/out")"
"$BPFVET" "$M" $TARGET -p sleepable_access_map_in_array -o csv -e prog,verdict \
	>"$TMP/out" 2>"$TMP/err"
[ "$(tail -n 1 "$TMP/out")" = "sleepable_access_map_in_array,success" ] &&
	pass target_rules_attach_unknown || fail target_rules_attach_unknown "$(tail -n 1 "$TMP/out")"
# bpf_probe_write_user: the recorded 6.18 is locked down for integrity
# (its config forces it), and refuses the helper as that kernel did.
"$BPFVET" build/corpus/progs/test_probe_user.bpf.o $TARGET -p handle_sys_connect -o csv \
	-e prog,verdict >"$TMP/out" 2>"$TMP/err"
[ "$(tail -n 1 "$TMP/out")" = "handle_sys_connect,failure" ] &&
	pass target_rules_lockdown_6_18 || fail target_rules_lockdown_6_18 "$(tail -n 1 "$TMP/out")"
