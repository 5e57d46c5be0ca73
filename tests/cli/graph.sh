# Lists and red-black trees of allocated objects (src/verifier/graph.c).
# The selftest objects verify for the 6.18 and 6.12 targets as their
# kernels recorded (tests/conformance/kernel-VERSION.csv): every program
# of linked_list, linked_list_fail, rbtree, rbtree_fail,
# rbtree_btf_fail__*, test_spin_lock_fail (lock identities) and
# refcounted_kptr(_fail), and exceptions_fail's graph and leak programs. Then
# tests/progs/graph_618.c, with the kfuncs 6.12 lacks, as the running
# 6.18.44 kernel verified it (bpfvet kernel; the level-2 logs were
# identical too, but for the SCC column of the bpf_rbtree_add_impl calls:
# docs/kfuncs.md), and the recorded level-2 logs of the programs without
# that call.
. tests/lib.sh
need_corpus graph_corpus
[ -d build/target-6.12 ] || { fail graph_targets "build/target-6.12 missing: make target"; exit 0; }
for v in 6.18 6.12; do
	for obj in linked_list.bpf.o linked_list_fail.bpf.o rbtree.bpf.o rbtree_fail.bpf.o \
		rbtree_btf_fail__add_wrong_type.bpf.o rbtree_btf_fail__wrong_node_type.bpf.o \
		test_spin_lock_fail.bpf.o refcounted_kptr.bpf.o refcounted_kptr_fail.bpf.o; do
		like_record "$v" "graph_$v" "$obj"
	done
	like_record "$v" "graph_$v" exceptions_fail.bpf.o reject_with_rbtree_add_throw \
		reject_with_reference reject_with_cb_reference reject_with_subprog_reference
done

need_target graph_618_target
# shellcheck disable=SC2086
"$BPFVET" "$PROGS/graph_618.o" $TARGET -o csv -e prog,verdict,total_insns,error 2>"$TMP/err" |
	tail -n +2 | sort >"$TMP/got"
cat >"$TMP/want" <<'ROWS'
list_back_read,success,13,
list_front_after_unlock,failure,10,R6 invalid mem access 'scalar'
list_front_drop,failure,12,R1 must be referenced or trusted
list_front_nolock,failure,2,bpf_spin_lock at off=0 must be held for bpf_list_head
list_front_read,success,13,
list_move,success,15,
list_peek_paths,success,28,
list_pop_drop,success,16,
list_pop_leak,failure,12,BPF_EXIT instruction in main prog would lead to reference leak
list_push_maybe_null,failure,7,"R6 pointer arithmetic on ptr_or_null_ prohibited, null-check it first"
list_push_null0,failure,11,Possibly NULL pointer passed to trusted arg1
list_push_peeked,failure,10,arg#1 expected pointer to allocated object
list_push_write,success,20,
obj_tree,success,43,
obj_tree_wrong_lock,failure,20,bpf_spin_lock at off=0 must be held for bpf_rb_root
rb_add_drop,failure,19,R1 must be referenced or trusted
rb_add_first_remove,success,52,
rb_add_maybe_null,failure,7,"R6 pointer arithmetic on ptr_or_null_ prohibited, null-check it first"
rb_add_null0,failure,12,Possibly NULL pointer passed to trusted arg1
rb_cb_rcu,failure,19,function calls are not allowed while holding a lock
rb_cb_walk,failure,21,bpf_rbtree_left not allowed in rbtree cb
rb_left_after_unlock,failure,14,bpf_rbtree_left can only take non-owning or refcounted bpf_rb_node pointer
rb_left_null0,failure,7,Possibly NULL pointer passed to trusted arg1
rb_left_owning,success,24,
rb_root_nolock,failure,2,bpf_spin_lock at off=0 must be held for bpf_rb_root
rb_root_remove,success,25,
rb_walk,success,35,
ROWS
while IFS= read -r row; do
	name=${row%%,*}
	if grep -qxF "$row" "$TMP/got"; then pass "graph_618_$name"; else
		fail "graph_618_$name" "want '$row', got '$(grep "^$name," "$TMP/got")' $(head -c 200 "$TMP/err")"
	fi
done <"$TMP/want"

# The level-2 logs of some of them, line for line as the running kernel
# printed them (tests/fixtures/graph/graph_618-level2.txt).
FIX=tests/fixtures/graph/graph_618-level2.txt
sed -n 's|^Kernel log for graph_618.o/\(.*\):$|\1|p' "$FIX" | while IFS= read -r p; do
	# shellcheck disable=SC2086
	"$BPFVET" "$PROGS/graph_618.o" $TARGET -p "$p" -l 2 2>/dev/null |
		sed -n "/^Log for graph_618.o\/$p:/,/^processed/p" |
		sed -E 's/0xffff[0-9a-f]{12}/0xADDR/g; s/^Log for /Kernel log for /' >"$TMP/log"
	sed -n "/^Kernel log for graph_618.o\/$p:\$/,/^processed/p" "$FIX" >"$TMP/want"
	if [ -s "$TMP/want" ] && cmp -s "$TMP/log" "$TMP/want"; then pass "graph_618_log_$p"; else
		fail "graph_618_log_$p" "$(diff "$TMP/want" "$TMP/log" | head -n 4)"
	fi
done
