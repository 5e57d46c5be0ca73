# Typed ksym variables need an address from the target's kallsyms, which
# lists data symbols only with CONFIG_KALLSYMS_ALL: without it the kernel
# refuses them before verifying ("ldimm64 failed to find the address for
# kernel symbol"), as the recorded Linux 6.18 does. Without a config bpfvet
# cannot know and goes on.
. tests/lib.sh
need_corpus ksym_kallsyms_build
need_target ksym_kallsyms_target
O=build/corpus/progs/read_bpf_task_storage_busy.bpf.o
printf 'CONFIG_KALLSYMS=y\n# CONFIG_KALLSYMS_ALL is not set\n' >"$TMP/no-all"
printf 'CONFIG_KALLSYMS=y\nCONFIG_KALLSYMS_ALL=y\n' >"$TMP/all"
run() {
	"$BPFVET" "$O" --btf "$TARGET_BTF" "$@" -o csv -e prog,verdict,error \
		2>"$TMP/err" | tail -n +2
}
expect() {
	if [ "$2" = "$3" ]; then pass "$1"; else fail "$1" "got '$2', want '$3' ($(head -c 200 "$TMP/err"))"; fi
}
expect ksym_kallsyms_no_data_syms "$(run --kconfig "$TMP/no-all")" \
	"read_bpf_task_storage_busy,failure,ldimm64 failed to find the address for kernel symbol 'bpf_task_storage_busy'."
expect ksym_kallsyms_all "$(run --kconfig "$TMP/all")" "read_bpf_task_storage_busy,success,"
# Without a config: no refusal (today the program is unsupported further
# on, for its per-CPU BTF pointer argument).
got=$(run)
case "$got" in
*"failed to find the address"*) fail ksym_kallsyms_unknown "$got" ;;
read_bpf_task_storage_busy,*) pass ksym_kallsyms_unknown ;;
*) fail ksym_kallsyms_unknown "no row: $got" ;;
esac
