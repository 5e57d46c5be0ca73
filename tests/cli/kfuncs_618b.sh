# More kfuncs that Linux 6.12 lacks, for the 6.18 target (src/rules/kfunc_rules.c
# rows_618 and rows_fmodret, __bpf_trap in src/verifier/kfunc.c, task works
# in src/verifier/wq.c, the skb metadata dynptr):
# tests/progs/kfuncs_618b.c verifies as the running 6.18.44 kernel verified
# it (bpfvet kernel, on this machine; the level-2 logs were identical too):
# the verdict, the instructions processed and the first error of each
# program.
. tests/lib.sh
need_target kfuncs_618b_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/kfuncs_618b.o" $TARGET -o csv -e prog,verdict,total_insns,error 2>"$TMP/err" |
	tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
copy_xdp,success,15,
dmabuf_leak,failure,5,BPF_EXIT instruction in main prog would lead to reference leak
dmabuf_syscall,success,33,
dmabuf_tc,failure,4,program must be sleepable to call sleepable kfunc bpf_iter_dmabuf_new
fentry_test_tp_btf,failure,2,calling kernel function bpf_fentry_test1 is not allowed
memset_socket,success,14,
modify_return_tc,failure,6,calling kernel function bpf_modify_return_test is not allowed
populate_null,failure,4,Possibly NULL pointer passed to trusted arg0
populate_tc,failure,4,calling kernel function bpf_cpumask_populate is not allowed
populate_tp_btf,success,13,
populate_untrusted,failure,8,R1 must be a rcu pointer
probe_kernel_tc,success,14,
probe_user_str_kprobe,success,14,
pull_not_ctx,failure,3,"arg#0 expected pointer to ctx, but got map_value"
pull_tc,failure,2,calling kernel function bpf_xdp_pull_data is not allowed
pull_xdp,success,4,
remove_xattr_tp_btf,failure,3,calling kernel function bpf_remove_dentry_xattr is not allowed
rstat_flush_syscall,failure,8,calling kernel function css_rstat_flush is not allowed
rstat_flush_tp_btf,failure,8,program must be sleepable to call sleepable kfunc css_rstat_flush
rstat_rcu,failure,7,R1 must be referenced or trusted
rstat_updated,success,15,
set_xattr_syscall,failure,12,calling kernel function bpf_set_dentry_xattr is not allowed
skb_meta_cgroup_skb,failure,4,calling kernel function bpf_dynptr_from_skb_meta is not allowed
skb_meta_read,success,19,
skb_meta_slice_pull,failure,20,R8 invalid mem access 'scalar'
skb_meta_slice_rdwr,failure,12,bpf_dynptr_slice_rdwr() is not allowed
skb_meta_write_pkt,failure,21,R7 invalid mem access 'scalar'
stream_null,failure,6,Possibly NULL pointer passed to trusted arg2
stream_tc,success,8,
task_work_no_field,failure,15,map 'tw_plain' has no valid bpf_task_work
task_work_not_map,failure,19,pointer in R3 isn't map pointer
task_work_null_task,failure,14,Possibly NULL pointer passed to trusted arg0
task_work_off,failure,15,off 0 doesn't point to 'struct bpf_task_work' that is at 8
task_work_other_map,failure,16,bpf_task_work pointer in R2 map_uid=0 doesn't match map pointer in R3 map_uid=0
task_work_resume_key,failure,23,"At async callback return the register R0 has smin=0 smax=4294967295 should have been in [-2147483648, 2147483647]"
task_work_ret_big,failure,22,"At async callback return the register R0 has smin=4294967296 smax=4294967296 should have been in [-2147483648, 2147483647]"
task_work_signal,success,22,
task_work_tp_btf,failure,16,kfunc bpf_task_work_schedule_signal_impl#65362 failed callback verification
trap_socket,failure,1,unexpected __bpf_trap() due to uninitialized variable?
tstamp_sockops,success,6,
tstamp_tc,failure,2,calling kernel function bpf_sock_ops_enable_tx_tstamp is not allowed
tstamp_uapi_ctx,failure,2,"arg#0 pointer type STRUCT bpf_sock_ops_kern must point to scalar, or struct with scalar"
user_str_syscall,success,14,
user_task_str_null,failure,13,Possibly NULL pointer passed to trusted arg4
user_task_syscall,success,16,
user_tc,failure,12,program must be sleepable to call sleepable kfunc bpf_copy_from_user_dynptr
xattr_null,failure,11,Possibly NULL pointer passed to trusted arg0
xattr_rcu,success,15,
xattr_tc,success,21,
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "kfuncs_618b_$name"; else
		fail "kfuncs_618b_$name" "want '$row', got '$(grep "^$name," "$TMP/got")' $(head -c 200 "$TMP/err")"
	fi
done <"$TMP/want"
