# BPF arena (src/verifier/arena.c, the arena kfuncs, the loader's map
# refusal): the arena selftests verify as the recorded kernels said, and
# tests/progs/arena.c as the running kernel said where it could load them.
. tests/lib.sh
need_corpus arena_corpus
need_target arena_target

# The selftests, as recorded. 6.12 processed other counts than bpfvet for
# arena_htab*, arena_list (its may_goto loops, as for iters.bpf.o): only
# the verdicts agree there, so only 6.18 checks them.
for v in 6.18 6.12; do
	like_record $v arena_verifier_$v verifier_arena.bpf.o
	like_record $v arena_large_$v verifier_arena_large.bpf.o
	like_record $v arena_atomics_$v arena_atomics.bpf.o
done
like_record 6.18 arena_htab_6.18 arena_htab.bpf.o
like_record 6.18 arena_htab_asm_6.18 arena_htab_asm.bpf.o
like_record 6.18 arena_list_6.18 arena_list.bpf.o
# 6.1 has no arena: the programs that name the map are refused before the
# verifier (the kernel cannot create it), the others fail on the weak
# kfunc libbpf poisons.
for obj in verifier_arena.bpf.o verifier_arena_large.bpf.o arena_atomics.bpf.o \
	   arena_htab.bpf.o arena_list.bpf.o; do
	like_record 6.1 "arena_6.1_${obj%.bpf.o}" "$obj"
done

# tests/progs/arena.c. The three casts without an arena are the running
# 6.18.44 kernel's verdicts and messages (its level-2 logs below); the
# others, which need an arena map that kernel refuses to create (EPERM),
# follow the 6.12 source: each would fail if bpfvet changed its mind.
rows() {
	# shellcheck disable=SC2086
	"$BPFVET" "$PROGS/arena.o" --target "build/target-$1" -o csv \
		-e prog,verdict,total_insns,error 2>"$TMP/err" | tail -n +2 | sort >"$TMP/got-$1"
	while IFS= read -r row; do
		name=${row%%,*}
		if grep -qxF "$row" "$TMP/got-$1"; then pass "arena_progs_$1_$name"; else
			fail "arena_progs_$1_$name" "want '$row', got '$(grep "^$name," "$TMP/got-$1")' $(head -c 200 "$TMP/err")"
		fi
	done
}
rows 6.18 <<'ROWS'
alloc_ctx_map,failure,6,pointer in R1 isn't map pointer
arena_arg,failure,12,R1 invalid mem access 'scalar'
alloc_free,success,25,
alloc_not_sleepable,failure,7,program must be sleepable to call sleepable kfunc bpf_arena_alloc_pages
cast_32bit,failure,1,BPF_MOV uses reserved fields
cast_and_access,success,9,
cast_bad_space,failure,1,addr_space_cast insn can only convert between address space 1 and 0
cast_no_arena,failure,1,addr_space_cast insn can only be used in a program that has an associated arena
cast_user,failure,3,R1 invalid mem access 'scalar'
load_sx,success,5,
scalar_plus_arena,success,10,
ROWS
rows 6.12 <<'ROWS'
arena_arg,failure,12,R1 invalid mem access 'scalar'
atomic_fetch_or,failure,5,BPF_ATOMIC stores into R1 arena is not allowed
load_sx,failure,5,sign extending loads from arena are not supported yet
cast_no_arena,failure,1,addr_space_cast insn can only be used in a program that has an associated arena
scalar_plus_arena,success,10,
ROWS
rows 6.1 <<'ROWS'
alloc_free,refused,,extern (func ksym) 'bpf_arena_alloc_pages': not found in kernel or module BTFs
cast_and_access,refused,,map 'arena': failed to create: Invalid argument (-22)
cast_no_arena,failure,1,BPF_MOV uses reserved fields
ROWS

# The running kernel's level-2 logs of the three casts, line for line
# (the verification time masked).
for p in cast_no_arena cast_bad_space cast_32bit; do
	"$BPFVET" "$PROGS/arena.o" -p "$p" --target build/target-6.18 -l 6 -q 2>&1 | tail -n +2 |
		sed -E 's/^verification time [0-9]+ usec$/verification time N usec/' >"$TMP/log-$p"
	sed -n "/^Kernel log for arena.o\/$p:/,/^processed/p" tests/fixtures/logs/arena-live.txt |
		tail -n +2 >"$TMP/want-$p"
	if [ -s "$TMP/want-$p" ] && diff "$TMP/want-$p" "$TMP/log-$p" >"$TMP/diff-$p"; then
		pass "arena_live_log_$p"
	else
		fail "arena_live_log_$p" "$(head -c 400 "$TMP/diff-$p")"
	fi
done
