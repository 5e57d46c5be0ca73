# kfuncs that Linux 6.12 lacks, for the 6.18 target (src/rules/kfunc_rules.c
# rows_618, src/verifier/irq_flag.c): tests/progs/kfuncs_618.c verifies as
# the running 6.18.44 kernel verified it (bpfvet kernel, on this machine;
# the level-2 logs were identical too): the verdict, the instructions
# processed and the first error of each program.
. tests/lib.sh
need_target kfuncs_618_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/kfuncs_618.o" $TARGET -o csv -e prog,verdict,total_insns,error 2>"$TMP/err" |
	tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
irq_nested,success,14,
irq_no_restore,failure,5,BPF_EXIT instruction in main prog cannot be used inside bpf_local_irq_save-ed region
irq_not_stack,failure,1,arg#0 doesn't point to an irq flag on stack
irq_out_of_order,failure,10,"cannot restore irq state out of order, expected id=2 acquired at insn_idx=7"
irq_overwritten,failure,8,expected an initialized irq flag as arg#0
irq_restore_uninit,failure,5,expected an initialized irq flag as arg#0
irq_save_twice,failure,6,expected uninitialized irq flag as arg#0
irq_sleepable_helper,failure,9,sleepable helper bpf_copy_from_user#148 in IRQ-disabled region
irq_sleepable_kfunc,failure,10,kernel func bpf_copy_from_user_str is sleepable within IRQ-disabled region
kmem_get_nocheck,success,4,
kmem_iter_syscall,success,35,
kmem_iter_tc,failure,4,program must be sleepable to call sleepable kfunc bpf_iter_kmem_cache_new
sig_rcu,failure,6,R1 must be referenced or trusted
sig_socket,failure,5,calling kernel function bpf_send_signal_task is not allowed
sig_trusted,success,6,
strcmp_raw_tp,success,5,
strlen_socket,success,4,
ustr_null_task,failure,7,Possibly NULL pointer passed to trusted arg3
ustr_socket,failure,7,program must be sleepable to call sleepable kfunc bpf_copy_from_user_task_str
vpid_leak,failure,9,BPF_EXIT instruction in main prog would lead to reference leak
vpid_nocheck,failure,3,R0 invalid mem access 'ptr_or_null_'
vpid_raw_tp,failure,2,calling kernel function bpf_task_from_vpid is not allowed
vpid_sysctl,success,9,
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "kfuncs_618_$name"; else
		fail "kfuncs_618_$name" "want '$row', got '$(grep "^$name," "$TMP/got")' $(head -c 200 "$TMP/err")"
	fi
done <"$TMP/want"
