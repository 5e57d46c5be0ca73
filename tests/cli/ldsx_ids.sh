# Sign-extending fills and scalar ids (src/verifier/mem.c,
# KVER_LDSX_UNLINK): bpfvet's level-2 instruction lines for
# tests/progs/ldsx_ids.c equal the live 6.18.44 kernel's
# (tests/fixtures/ldsx/kernel-6.18-level2.txt, from bpfvet kernel
# --kernel-only -l 2): s8/s16 of a value whose sign bit is clear keeps the
# spill's id, of one whose sign bit may be set drops it. On 6.12 (its
# source) the filled register keeps the id either way. Found by bpfvet
# selfcheck on the random branchy programs, where a branch on the filled
# register narrowed the spill below the run's value.
. tests/lib.sh
need_target ldsx_ids
OBJ=$PROGS/ldsx_ids.o
[ -s "$OBJ" ] || { fail ldsx_ids "no $OBJ: run make progs"; exit 0; }
level2_as_kernel ldsx_ids_as_kernel "$OBJ" tests/fixtures/ldsx/kernel-6.18-level2.txt
if [ -s build/target-6.12/btf ]; then
	"$BPFVET" "$OBJ" -p s8_of_8bit -l 2 --target build/target-6.12 2>/dev/null |
		grep '^3: ' >"$TMP/612"
	if grep -q 'R1=scalar(id=1,' "$TMP/612"; then
		pass ldsx_ids_6.12_keeps_id
	else
		fail ldsx_ids_6.12_keeps_id "$(cat "$TMP/612")"
	fi
else
	skip ldsx_ids_6.12_keeps_id "no build/target-6.12 (make target)"
fi
