# Workqueues and resilient spin locks (src/verifier/wq.c, res_lock.c):
# tests/progs/wq.c and res_lock.c verify on the 6.18 target as the running
# 6.18.44 kernel verified them (bpfvet kernel, on this machine; the level-2
# logs were identical too): the verdict, the instructions processed and
# the first error of each program. Linux 6.12's BTF has no resilient
# locks: libbpf refuses those programs there. wq_failures keeps the
# recorded verdicts on every target.
. tests/lib.sh
need_target wq_res_lock_target
# check NAME WANT_FILE OBJ... [--target DIR]: each row of WANT_FILE
# (prog,verdict,insns,error) is bpfvet's row for that program.
check() {
	name=$1 want=$2
	shift 2
	"$BPFVET" "$@" -o csv -e prog,verdict,total_insns,error 2>"$TMP/err" |
		tail -n +2 | sort >"$TMP/got"
	while IFS= read -r row; do
		prog=${row%%,*}
		if grep -qxF "$row" "$TMP/got"; then pass "${name}_$prog"; else
			fail "${name}_$prog" "want '$row', got '$(grep "^$prog," "$TMP/got")' $(head -c 200 "$TMP/err")"
		fi
	done <"$want"
}
cat >"$TMP/want618" <<'ROWS'
rl_errno,success,22,
rl_helper,failure,14,function calls are not allowed while holding a lock
rl_irq_class,failure,22,irq flag acquired by native kfuncs cannot be restored with lock kfuncs
rl_irq_nested,success,28,
rl_irq_no_flag,failure,16,bpf_res_spin_unlock of different lock
rl_irq_nocheck,failure,22,bpf_res_spin_unlock without taking a lock
rl_irq_ok,success,26,
rl_irq_plain_unlock,failure,16,bpf_res_spin_unlock of different lock
rl_irq_save_inside,failure,16,function calls are not allowed while holding a lock
rl_leak,failure,12,BPF_EXIT instruction in main prog cannot be used inside bpf_spin_lock-ed region
rl_nocheck,failure,17,bpf_res_spin_unlock without taking a lock
rl_nofield,failure,9,map 'noq' has no valid bpf_res_spin_lock
rl_off,failure,10,off 0 doesn't point to 'struct bpf_res_spin_lock' that is at 4
rl_ok,success,23,
rl_socket,failure,0,socket filter progs cannot use bpf_spin_lock yet
rl_stack,failure,5,arg#0 doesn't point to map value or allocated object
rl_twice,failure,14,"Acquiring the same lock again, AA deadlock detected"
rl_two,success,36,
rl_two_order,failure,24,bpf_res_spin_unlock cannot be out of order
rl_unlock_only,failure,10,bpf_res_spin_unlock without taking a lock
rl_varoff,failure,13,R1 doesn't have constant offset. bpf_res_spin_lock has to be at the constant offset
wq_cb_not_func,failure,13,arg1 expected pointer to func
wq_cb_ret2,failure,17,"At async callback return the register R0 has smin=2 smax=2 should have been in [0, 0]"
wq_cb_sleeps,success,31,
wq_cb_value,failure,18,"At async callback return the register R0 has smin=0 smax=1 should have been in [0, 0]"
wq_cb_write_key,failure,17,write to change key R2 not allowed
wq_init_other_map,failure,12,workqueue pointer in R1 map_uid=0 doesn't match map pointer in R2 map_uid=0
wq_init_plain_map,failure,12,workqueue pointer in R1 map_uid=0 doesn't match map pointer in R2 map_uid=0
wq_nofield,failure,10,map 'noq' has no valid bpf_wq
wq_off,failure,10,off 0 doesn't point to 'struct bpf_wq' that is at 8
wq_ok,success,29,
wq_raw_tp,failure,0,tracing progs cannot use bpf_wq yet
wq_socket_init,success,16,
wq_stack,failure,7,arg#0 doesn't point to a map value
wq_tc_callback,failure,13,kfunc bpf_wq_set_callback_impl#65542 failed callback verification
wq_varoff,failure,14,R1 doesn't have constant offset. bpf_wq has to be at the constant offset
wq_xdp_start,success,15,
ROWS
# shellcheck disable=SC2086
check wq_res_lock_618 "$TMP/want618" "$PROGS/wq.o" "$PROGS/res_lock.o" $TARGET
cat >"$TMP/want612" <<'ROWS'
rl_ok,refused,,extern (func ksym) 'bpf_res_spin_lock': not found in kernel or module BTFs
rl_irq_ok,refused,,extern (func ksym) 'bpf_res_spin_lock_irqsave': not found in kernel or module BTFs
rl_unlock_only,refused,,extern (func ksym) 'bpf_res_spin_unlock': not found in kernel or module BTFs
wq_cb_ret2,failure,17,"At async callback return the register R0 has smin=2 smax=2 should have been in [0, 0]"
ROWS
check wq_res_lock_612 "$TMP/want612" "$PROGS/wq.o" "$PROGS/res_lock.o" --target build/target-6.12
for v in 6.18 6.12 6.1; do like_record "$v" "wq_failures_$v" wq_failures.bpf.o; done
