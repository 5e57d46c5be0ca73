# Byte swaps (BPF_END: le, be, bswap) and scalar ids. bpfvet -l 2 for the
# recorded target prints, line for line, the level-2 logs the running
# Linux 6.18.44 kernel printed for tests/progs/byteswap_ids.c
# (tests/fixtures/byteswap/kernel-6.18-level2.txt): le64 keeps the
# register's id and a branch then narrows its copy, no other swap does.
# For 6.12 and 6.1 every swap of a scalar gives an unknown scalar without
# id (KVER_END_TRACKING), as the recorded 6.12 log shows for be16 of a u16
# in bindsnoop (tests/conformance/kernel-6.12-logs.txt.xz).
. tests/lib.sh
need_target byteswap_target
FIX=tests/fixtures/byteswap/kernel-6.18-level2.txt
OBJ=$PROGS/byteswap_ids.o

# The fixture holds a log for every program of the object.
# shellcheck disable=SC2086
"$BPFVET" "$OBJ" $TARGET -o csv -e prog_name 2>"$TMP/err" | tail -n +2 | sort >"$TMP/progs"
sed -n 's|^Kernel log for byteswap_ids.o/\(.*\):$|\1|p' "$FIX" | sort >"$TMP/recorded"
if [ -s "$TMP/progs" ] && cmp -s "$TMP/progs" "$TMP/recorded"; then
	pass "byteswap_programs ($(wc -l <"$TMP/progs") recorded)"
else
	fail byteswap_programs "$(diff "$TMP/recorded" "$TMP/progs" | head -n 4) $(head -c 200 "$TMP/err")"
fi

while IFS= read -r p; do
	# shellcheck disable=SC2086
	"$BPFVET" "$OBJ" $TARGET -p "$p" -l 2 2>/dev/null |
		sed -n "/^Log for byteswap_ids.o\/$p:\$/,/^processed /p" |
		sed 's/^Log for /Kernel log for /' >"$TMP/log"
	sed -n "/^Kernel log for byteswap_ids.o\/$p:\$/,/^processed /p" "$FIX" >"$TMP/want"
	if [ -s "$TMP/want" ] && cmp -s "$TMP/log" "$TMP/want"; then
		pass "byteswap_log_$p"
	else
		fail "byteswap_log_$p" "$(diff "$TMP/want" "$TMP/log" | head -n 4)"
	fi
done <"$TMP/recorded"

# 6.12 and 6.1: the swapped register is an unknown scalar, whatever the
# swap (the swap is at insn 7 of every NAME_noid program). 6.1 has no
# bswap (ISA v4).
for v in 6.12 6.1; do
	if [ ! -s "build/target-$v/btf" ]; then
		fail "byteswap_$v" "no build/target-$v: run make target"
		continue
	fi
	swaps="le16 le32 le64 be16 be32 be64"
	[ "$v" = 6.1 ] || swaps="$swaps bswap16 bswap32 bswap64"
	bad=
	for p in $swaps; do
		line=$("$BPFVET" "$OBJ" --target "build/target-$v" -p "${p}_noid" -l 2 2>/dev/null |
			grep "^7: (d[47c]) r0 = $p r0 ")
		printf '%s\n' "$line" | grep -qE '; R0(_w)?=scalar\(\)$' || bad="$bad $p: '$line'"
	done
	if [ -z "$bad" ]; then pass "byteswap_$v"; else fail "byteswap_$v" "$bad"; fi
done

# The recorded 6.12 line itself, liveness marks aside (bpfvet prints
# none for 6.12).
RW=build/realworld/bindsnoop-1.bpf.o
if [ ! -f "$RW" ]; then
	skip byteswap_6.12_record "no $RW (make realworld)"
else
	want=$(xz -dc tests/conformance/kernel-6.12-logs.txt.xz |
		sed -n '/^== bindsnoop-1.bpf.o\/ipv4_bind_exit$/,/^== /p' |
		grep -m 1 '^62: (dc) r1 = be16 r1 ' | sed -E 's/(R[0-9]+)_w=/\1=/g')
	got=$("$BPFVET" "$RW" --target build/target-6.12 -p ipv4_bind_exit -l 2 2>/dev/null |
		grep -m 1 '^62: (dc) r1 = be16 r1 ')
	if [ -n "$want" ] && [ "$got" = "$want" ]; then
		pass byteswap_6.12_record
	else
		fail byteswap_6.12_record "got '$got', recorded '$want'"
	fi
fi
