# Basic CLI behaviour: usage errors exit 2, help exits 0.
. tests/lib.sh
expect_exit cli_no_args 2 "$BPFVET"
expect_exit cli_help 0 "$BPFVET" --help
expect_exit cli_version 0 "$BPFVET" --version
