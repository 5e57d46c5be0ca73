# Linked scalars of different widths (src/verifier/branch.c,
# sync_linked_regs): bpfvet's level-2 instruction lines for
# tests/progs/link_widths.c equal the live 6.18.44 kernel's
# (tests/fixtures/links/kernel-6.18-level2.txt, bpfvet kernel --kernel-only
# -l 2). A branch on a 32-bit "+const" link leaves a 64-bit one of the
# same base as it was; links of one width narrow each other.
. tests/lib.sh
need_target link_widths
OBJ=$PROGS/link_widths.o
[ -s "$OBJ" ] || { fail link_widths "no $OBJ: run make progs"; exit 0; }
level2_as_kernel link_widths_as_kernel "$OBJ" tests/fixtures/links/kernel-6.18-level2.txt
