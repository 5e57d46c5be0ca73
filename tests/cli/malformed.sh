# bpfvet dump on broken files: exit 2 and one clear line on stderr.
. tests/lib.sh

expect_err() {
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qxF -- "$2" "$TMP/err"; then
		pass "$1"
	else
		fail "$1" "stderr is '$(head -c 300 "$TMP/err")', want '$2'"
	fi
}

# expect_prefix NAME: one line starting with "bpfvet: FILE: ".
expect_prefix() {
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q "^bpfvet: $2: ." "$TMP/err"; then
		pass "$1"
	else
		fail "$1" "stderr is '$(head -c 300 "$TMP/err")'"
	fi
}

GOOD=$PROGS/loader_maps.o

f=$TMP/empty.o
: >"$f"
expect_exit malformed_empty 2 "$BPFVET" dump "$f"
expect_err malformed_empty_msg "bpfvet: $f: empty file"

f=$TMP/text.o
echo "this is not an object" >"$f"
expect_exit malformed_text 2 "$BPFVET" dump "$f"
expect_err malformed_text_msg "bpfvet: $f: not an ELF file"

f=$TMP/x86.o
cp "$GOOD" "$f"
printf '\076\000' | dd of="$f" bs=1 seek=18 conv=notrunc 2>/dev/null
expect_exit malformed_machine 2 "$BPFVET" dump "$f"
expect_err malformed_machine_msg "bpfvet: $f: not a BPF object (e_machine 62, want 247)"

f=$TMP/cut16.o
head -c 16 "$GOOD" >"$f"
expect_exit malformed_cut_16 2 "$BPFVET" dump "$f"
expect_prefix malformed_cut_16_msg "$f"

for n in 64 200 1000 3000; do
	f=$TMP/cut$n.o
	head -c $n "$GOOD" >"$f"
	expect_exit malformed_cut_$n 2 "$BPFVET" dump "$f"
	expect_err malformed_cut_${n}_msg "bpfvet: $f: section headers lie outside the file (truncated?)"
done

# Section header table offset beyond the end of the file.
f=$TMP/shoff.o
cp "$GOOD" "$f"
printf '\377\377\377\000' | dd of="$f" bs=1 seek=40 conv=notrunc 2>/dev/null
expect_exit malformed_shoff 2 "$BPFVET" dump "$f"
expect_err malformed_shoff_msg "bpfvet: $f: section headers lie outside the file (truncated?)"

f=$TMP/missing.o
expect_exit malformed_missing 2 "$BPFVET" dump "$f"
expect_err malformed_missing_msg "bpfvet: $f: No such file or directory"

expect_exit malformed_dir 2 "$BPFVET" dump "$TMP"
expect_err malformed_dir_msg "bpfvet: $TMP: Is a directory"
