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
