# Allocated objects (src/verifier/alloc_obj.c): tests/progs/alloc_obj.c
# verifies as the running 6.18.44 kernel verified it (bpfvet kernel
# --log-diff on this machine: the level-2 logs were identical), and the
# selftests' programs about bpf_obj_new, bpf_obj_drop and
# bpf_refcount_acquire as the recorded 6.18 and 6.12 kernels did.
. tests/lib.sh
need_target alloc_obj_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/alloc_obj.o" $TARGET -o csv -e prog,verdict,total_insns,error 2>"$TMP/err" |
	tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
drop_map_value,failure,10,R1 must be referenced or trusted
drop_null,failure,6,Possibly NULL pointer passed to trusted arg0
drop_under_lock,failure,11,function calls are not allowed while holding a lock
drop_wrong_kind,failure,7,arg#0 expected for bpf_obj_drop_impl()
lock_in_obj,success,20,
lock_no_field,failure,7,local 'kptr' has no valid bpf_spin_lock
lock_two_objs,failure,16,bpf_spin_unlock of different lock
lock_wrong_off,failure,9,off 12 doesn't point to 'struct bpf_spin_lock' that is at 8
locked_fields,success,15,
new_drop,success,20,
new_int,failure,3,bpf_obj_new/bpf_percpu_obj_new type ID argument must be of a struct
new_leak,failure,8,BPF_EXIT instruction in main prog would lead to reference leak
new_nocheck,failure,5,R0 invalid mem access 'ptr_or_null_'
new_not_const,failure,3,R1 must be a known constant
obj_to_helper,failure,13,"R3 type=ptr_ expected=fp, pkt, pkt_meta, map_key, map_value, mem, ringbuf_mem, buf, trusted_ptr_"
past_end,failure,6,access beyond struct plain at off 32 size 8
percpu_access,failure,6,R0 is ptr_val access percpu memory: off=0
percpu_big,failure,3,bpf_percpu_obj_new type size (640) is greater than 512
percpu_drop_wrong_kind,failure,7,arg#0 expected for bpf_percpu_obj_drop_impl()
percpu_new_drop,success,10,
percpu_ptr_member,failure,3,bpf_percpu_obj_new type ID argument must be of a struct of scalars
percpu_special,failure,3,bpf_percpu_obj_new type ID argument must not contain special fields
read_lock_field,failure,6,direct access to bpf_spin_lock is disallowed
refcount_map_value,failure,10,arg#0 is neither owning or non-owning ref
refcount_no_field,failure,8,verifier bug: Couldn't find btf_record
refcount_ok,success,19,
two_objects,success,38,
use_after_drop,failure,10,R6 invalid mem access 'scalar'
walk_next,failure,7,R1 invalid mem access 'scalar'
write_refcount,failure,6,direct access to bpf_refcount is disallowed
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "alloc_obj_$name"; else
		fail "alloc_obj_$name" "want '$row', got '$(grep "^$name," "$TMP/got")' $(head -c 200 "$TMP/err")"
	fi
done <"$TMP/want"

# 6.12 words the same inconsistency otherwise (KVER_MSG_VERIFIER_BUG).
# shellcheck disable=SC2086
got=$("$BPFVET" "$PROGS/alloc_obj.o" --target build/target-6.12 -p refcount_no_field -o csv \
	-e error 2>/dev/null | tail -n 1)
if [ "$got" = "verifier internal error: Couldn't find btf_record" ]; then
	pass alloc_obj_612_bug_words
else
	fail alloc_obj_612_bug_words "got '$got'"
fi

both() { like_record 6.18 "$@"; like_record 6.12 "$@"; }
both alloc_obj_linked_list_fail linked_list_fail.bpf.o obj_type_id_oor obj_new_no_composite \
	obj_new_no_struct obj_drop_non_zero_off new_null_ret obj_new_acq use_after_drop \
	ptr_walk_scalar direct_read_lock direct_write_lock direct_read_head direct_write_head \
	direct_read_node direct_write_node
both alloc_obj_exceptions_fail exceptions_fail.bpf.o reject_with_reference \
	reject_with_cb_reference reject_with_subprog_reference
both alloc_obj_stash_fail local_kptr_stash_fail.bpf.o drop_rb_node_off
both alloc_obj_refcounted_fail refcounted_kptr_fail.bpf.o refcount_acquire_maybe_null
both alloc_obj_spin_lock_fail test_spin_lock_fail.bpf.o lock_id_kptr_preserve \
	lock_id_mismatch_global_global lock_id_mismatch_global_mapval \
	lock_id_mismatch_global_innermapval lock_id_mismatch_mapval_global \
	lock_id_mismatch_mapval_innermapval lock_id_mismatch_innermapval_global \
	lock_id_mismatch_innermapval_mapval

# One type per object kfunc call (KVER_ALLOC_CALL_ONE_TYPE):
# tests/progs/alloc_obj_calls.c as the live 6.18.44 kernel verified it
# (logs identical); 6.12 had no such check.
nomerge="or mark the callee with __attribute__((nomerge))"
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/alloc_obj_calls.o" $TARGET -o csv -e prog,verdict,total_insns,error \
	2>/dev/null | tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<ROWS
acq_two,failure,20,$nomerge
meta_meta,failure,25,$nomerge
meta_plain,failure,25,$nomerge
new_same_size,success,25,
new_same_type,success,25,
new_two,failure,10,$nomerge
pdrop_two,success,30,
plain_meta,failure,25,$nomerge
plain_plain,success,30,
pnew_two,failure,10,$nomerge
same_same,success,30,
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "alloc_obj_calls_$name"; else
		fail "alloc_obj_calls_$name" "want '$row', got '$(grep "^$name," "$TMP/got")'"
	fi
done <"$TMP/want"
got=$("$BPFVET" "$PROGS/alloc_obj_calls.o" --target build/target-6.12 -o csv -e verdict \
	2>/dev/null | tail -n +2 | sort -u)
if [ "$got" = success ]; then pass alloc_obj_calls_612; else
	fail alloc_obj_calls_612 "got '$got'"
fi

# Local kptrs: tests/progs/alloc_obj_kptr.c as the live 6.18.44 kernel
# verified it (logs identical).
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/alloc_obj_kptr.o" $TARGET -o csv -e prog,verdict,total_insns,error \
	2>/dev/null | tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
holder_load,failure,12,"R1 type=rcu_ptr_ expected=map_value, ptr_"
kptr_in_obj,success,26,
kptr_in_obj_read,failure,6,direct access to kptr is disallowed
load_drop,failure,11,R1 must be referenced or trusted
load_no_check,failure,9,R1 invalid mem access 'rcu_ptr_or_null_'
load_rcu,success,16,
percpu_into_plain,failure,15,"invalid kptr access, R2 type=percpu_ptr_ expected=ptr_plain"
percpu_load,success,25,
percpu_owned_this_cpu,failure,7,"R1 type=percpu_ptr_ expected=percpu_ptr_, percpu_rcu_ptr_, percpu_trusted_ptr_"
percpu_stash,success,31,
stash,success,25,
stash_use_after,failure,21,R7 invalid mem access 'scalar'
stash_wrong_type,failure,15,"invalid kptr access, R2 type=ptr_other expected=ptr_plain"
store_direct,failure,13,store to referenced kptr disallowed
unstash,success,20,
unstash_leak,failure,14,BPF_EXIT instruction in main prog would lead to reference leak
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "alloc_obj_kptr_$name"; else
		fail "alloc_obj_kptr_$name" "want '$row', got '$(grep "^$name," "$TMP/got")'"
	fi
done <"$TMP/want"

# The selftests' stashes, per-CPU objects and allocator tests. 6.12's
# runner could load their tracing programs; the live 6.18 kernel refuses
# them (EPERM) before verifying, so they are checked against 6.12 only.
like_record 6.12 alloc_obj_percpu_array percpu_alloc_array.bpf.o
like_record 6.12 alloc_obj_percpu_cgrp percpu_alloc_cgrp_local_storage.bpf.o
like_record 6.12 alloc_obj_percpu_fail percpu_alloc_fail.bpf.o
like_record 6.12 alloc_obj_preempted_ma preempted_bpf_ma_op.bpf.o
like_record 6.12 alloc_obj_bpf_ma test_bpf_ma.bpf.o
# (stash_local_with_root waits for the graph kfuncs.)
both alloc_obj_stash local_kptr_stash.bpf.o stash_rb_nodes stash_plain unstash_rb_node \
	stash_test_ref_kfunc refcount_acquire_without_unstash stash_refcounted_node
both alloc_obj_stash_fail_all local_kptr_stash_fail.bpf.o
both alloc_obj_xchg_inline kptr_xchg_inline.bpf.o

# Objects in ordinary code: tests/progs/alloc_obj_uses.c as the live
# 6.18.44 kernel verified it (logs identical).
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/alloc_obj_uses.o" $TARGET -o csv -e prog,verdict,total_insns,error \
	2>/dev/null | tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
arith,success,12,
arith_drop,failure,8,R1 must have zero offset when passed to release func or trusted arg to kfunc
atomic_add,success,12,
cmp_ptrs,success,26,
leak_to_map,success,20,
narrow_read,success,16,
probe_read,success,21,
ptr_store,success,23,
spill,success,14,
to_kfunc,failure,6,kernel function bpf_task_release args#0 expected pointer to STRUCT task_struct but R1 has a pointer to STRUCT plain
to_global,failure,8,Caller passes invalid args into func#1 ('global_fn')
to_static,success,18,
var_off,failure,11,"R2 is ptr_plain invalid variable offset: off=0, var_off=(0x0; 0x8)"
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "alloc_obj_uses_$name"; else
		fail "alloc_obj_uses_$name" "want '$row', got '$(grep "^$name," "$TMP/got")'"
	fi
done <"$TMP/want"

# Local kptrs in a sleepable program: tests/progs/alloc_obj_rcu.c as the
# live 6.18.44 kernel verified it (logs identical); 6.12 refused the read
# of an object left untrusted (KVER_UNTRUSTED_OBJ_READ, from its sources).
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/alloc_obj_rcu.o" $TARGET -o csv -e prog,verdict,total_insns,error \
	2>/dev/null | tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
newp,success,10,
rcu_load_after,success,17,
rcu_write,success,19,
read_lock_after,success,17,
untrusted_load,success,14,
write_after,failure,14,only read is supported
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "alloc_obj_rcu_$name"; else
		fail "alloc_obj_rcu_$name" "want '$row', got '$(grep "^$name," "$TMP/got")'"
	fi
done <"$TMP/want"
got=$("$BPFVET" "$PROGS/alloc_obj_rcu.o" --target build/target-6.12 -p rcu_load_after -o csv \
	-e error 2>/dev/null | tail -n 1)
if [ "$got" = "verifier internal error: ref_obj_id for allocated object must be non-zero" ]; then
	pass alloc_obj_rcu_612
else
	fail alloc_obj_rcu_612 "got '$got'"
fi
