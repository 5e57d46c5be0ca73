# Basic CLI behaviour: usage errors exit 2, help exits 0.
. tests/lib.sh
expect_exit cli_no_args 2 "$BPFVET"
expect_exit cli_help 0 "$BPFVET" --help
expect_exit cli_version 0 "$BPFVET" --version
# A bad target option is a usage error of the whole run: exit 2, the
# reason on stderr, and no table on stdout.
"$BPFVET" "$PROGS/explain_compiler.o" --kernel-version 6.x >"$TMP/out" 2>"$TMP/err"
st=$?
if [ $st = 2 ] && [ ! -s "$TMP/out" ] && grep -q "bad kernel version '6.x'" "$TMP/err"; then
	pass cli_bad_target_option
else
	fail cli_bad_target_option "exit $st; stdout: $(head -c 200 "$TMP/out")"
fi
