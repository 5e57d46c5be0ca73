# Dynamic pointers (src/verifier/dynptr.c): local, ring buffer, skb and
# xdp dynptrs on the stack, constant ones in callbacks and global
# functions, their slices, clones and releases. Each program verifies as
# the recorded kernel said, with the same instructions processed and the
# same first error. build/target-VERSION is the recorded kernel's profile.
. tests/lib.sh
need_corpus dynptr_corpus
for v in 6.12 6.18; do
	[ -s "build/target-$v/btf" ] || { fail "dynptr_$v" "no build/target-$v: run make target"; exit 0; }
done
both() { like_record 6.18 "$@"; like_record 6.12 "$@"; }

both dynptr_success dynptr_success.bpf.o
# 6.18 refused the two fentry/fexit programs before verifying them (the
# record says EPERM). In 6.12 ringbuf_missing_release_callback processed
# 16 instructions where bpfvet, like 6.18, processes 19 (the bpf_loop
# callback's walk; not understood yet); the verdicts agree.
dynptr_fail_progs() {
	awk -F, -v skip="$1" '$1 == "dynptr_fail.bpf.o" && index(skip, " " $2 " ") == 0 { print $2 }' \
		tests/conformance/kernel-6.18.csv
}
like_record 6.18 dynptr_fail dynptr_fail.bpf.o \
	$(dynptr_fail_progs " skb_invalid_ctx_fentry skb_invalid_ctx_fexit ")
like_record 6.12 dynptr_fail dynptr_fail.bpf.o \
	$(dynptr_fail_progs " ringbuf_missing_release_callback ")
# kfuncs that take dynptrs: xattrs, signatures, crypto.
like_record 6.12 dynptr_kfunc test_get_xattr.bpf.o
like_record 6.12 dynptr_kfunc test_kfunc_dynptr_param.bpf.o
like_record 6.12 dynptr_kfunc test_verify_pkcs7_sig.bpf.o
both dynptr_kfunc crypto_bench.bpf.o
both dynptr_kfunc crypto_sanity.bpf.o
# The dynptr a bpf_user_ringbuf_drain callback receives.
like_record 6.12 dynptr_user_ringbuf user_ringbuf_success.bpf.o
both dynptr_user_ringbuf user_ringbuf_fail.bpf.o
# Packet parsers through skb and xdp dynptrs.
both dynptr_pkt ip_check_defrag.bpf.o
both dynptr_pkt test_l4lb_noinline_dynptr.bpf.o
both dynptr_pkt test_parse_tcp_hdr_opt_dynptr.bpf.o
both dynptr_pkt test_xdp_dynptr.bpf.o
both dynptr_pkt test_tunnel_kern.bpf.o
# 6.12 processed 2801 instructions where bpfvet processes 2861, as 6.18
# does; test_cls_redirect.bpf.o, without dynptrs, differs on 6.12 too.
like_record 6.18 dynptr_pkt test_cls_redirect_dynptr.bpf.o
# A global function's dynptr argument.
like_record 6.12 dynptr_global verifier_global_subprogs.bpf.o
like_record 6.18 dynptr_global verifier_global_subprogs.bpf.o arg_tag_dynptr
