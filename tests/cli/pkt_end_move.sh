# A packet pointer at or beyond the packet's end, moved by a constant, has
# range 0 from 6.18 (src/verifier/alu.c, KVER_PKT_END_MOVE_RANGE): bpfvet's
# level-2 instruction lines for tests/progs/pkt_end_move.c equal the live
# 6.18.44 kernel's (tests/fixtures/pkt/kernel-6.18-level2.txt, bpfvet
# kernel --kernel-only -l 2). Without the rule test_cls_redirect walked
# 61,221 instructions where the kernel walks 64,426.
. tests/lib.sh
need_target pkt_end_move
OBJ=$PROGS/pkt_end_move.o
[ -s "$OBJ" ] || { fail pkt_end_move "no $OBJ: run make progs"; exit 0; }
level2_as_kernel pkt_end_move_as_kernel "$OBJ" tests/fixtures/pkt/kernel-6.18-level2.txt
