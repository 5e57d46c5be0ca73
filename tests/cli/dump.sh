# bpfvet dump: maps, programs and disassembly of compiled test objects.
. tests/lib.sh

# expect_out NAME PATTERN: the last command's stdout has a line matching
# the fixed string PATTERN exactly.
expect_line() {
	if grep -qxF -- "$2" "$TMP/out"; then
		pass "$1"
	else
		fail "$1" "no line '$2' in output"
	fi
}

expect_no_line() {
	if grep -qF -- "$2" "$TMP/out"; then
		fail "$1" "unexpected '$2' in output"
	else
		pass "$1"
	fi
}

expect_err() {
	if [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -qxF -- "$2" "$TMP/err"; then
		pass "$1"
	else
		fail "$1" "stderr is '$(head -c 300 "$TMP/err")', want '$2'"
	fi
}

R=$PROGS/loader_relocs.o
expect_exit dump_relocs 0 "$BPFVET" dump "$R"
expect_line dump_object 'object: name=loader_relocs license="GPL" kversion=0x60c00 maps=4 progs=4'
expect_line dump_map_kconfig 'map 3: name=loader_.kconfig type=array key=4 value=13 max_entries=1 flags=0x480'
expect_line dump_map_str 'map 2: name=.rodata.str1.1 type=array key=4 value=4 max_entries=1 flags=0x80'
expect_line dump_prog 'prog 0: name=relocs section=tc type=sched_cls flags=0x0 insns=48 subprogs=5'
expect_line dump_subprog '  subprog 1: name=loop_cb start=31 len=6 static'
expect_line dump_disasm_first '0: (bf) r6 = r1'
expect_line dump_disasm_call '25: (85) call pc+11'
expect_line dump_disasm_helper '9: (85) call bpf_map_lookup_elem#1'
expect_line dump_disasm_exit '47: (95) exit'
expect_line dump_disasm_header 'relocs:'

# One line per instruction; LD_IMM64 takes two slots and one line.
M=$PROGS/loader_maps.o
expect_exit dump_maps 0 "$BPFVET" dump "$M"
n=$(grep -c '^[0-9][0-9]*: (' "$TMP/out")
if [ "$n" -eq 72 ]; then pass dump_line_count; else fail dump_line_count "$n lines, want 72"; fi
expect_line dump_map_inner 'map 2: name=outer type=array_of_maps key=4 value=4 max_entries=4 flags=0x0 inner=outer.inner init=0:inner_a,2:inner_b'
expect_line dump_map_template 'map 13: name=outer.inner type=array key=4 value=8 max_entries=8 flags=0x0 (inner map template)'
expect_line dump_prog_array 'map 3: name=jmp type=prog_array key=4 value=4 max_entries=3 flags=0x0 init=1:tail_target'

# -p matches program names and section names (fnmatch).
expect_exit dump_glob_name 0 "$BPFVET" dump "$R" -p 'calls_*'
expect_line dump_glob_kept 'prog 1: name=calls_only section=tc type=sched_cls flags=0x0 insns=8 subprogs=2'
expect_no_line dump_glob_dropped 'name=relocs'
expect_no_line dump_glob_no_disasm 'relocs:'
expect_exit dump_glob_section 0 "$BPFVET" dump -p 'cgroup/*' "$PROGS/loader_sections.o"
n=$(grep -c '^prog ' "$TMP/out")
if [ "$n" -eq 9 ]; then pass dump_glob_section_count; else fail dump_glob_section_count "$n programs, want 9"; fi
expect_exit dump_glob_none 2 "$BPFVET" dump -p 'nothing*' "$R"
expect_err dump_glob_none_msg "bpfvet: $R: no program matches 'nothing*'"

# -t overrides the type of every program.
S=$PROGS/loader_sections.o
expect_exit dump_type 0 "$BPFVET" dump -t sched_cls -p p_socket "$S"
expect_line dump_type_line 'prog 0: name=p_socket section=socket type=sched_cls flags=0x0 insns=2 subprogs=1'
expect_exit dump_type_unknown_sec 0 "$BPFVET" dump -p p_unknown "$S"
expect_line dump_unknown 'prog 56: name=p_unknown section=my_custom_section type=unknown flags=0x0 insns=2 subprogs=1 (warning 0)'
expect_line dump_unknown_warning "warning 0: prog 'p_unknown': missing BPF prog type, check ELF section name 'my_custom_section'"
expect_exit dump_type_bad 2 "$BPFVET" dump -t bogus "$S"
expect_err dump_type_bad_msg "bpfvet: $S: unknown program type 'bogus'"

# Legacy and iproute2 maps.
expect_exit dump_iproute2 0 "$BPFVET" dump "$PROGS/loader_iproute2.o"
expect_line dump_iproute2_outer 'map 0: name=map_outer type=array_of_maps key=4 value=4 max_entries=8 flags=0x0 inner=map_inner init=3:map_inner'
expect_line dump_iproute2_tail 'map 1: name=jmp_tc type=prog_array key=4 value=4 max_entries=2 flags=0x0 init=0:tail_0,1:tail_1'

# Usage errors.
expect_exit dump_usage_none 2 "$BPFVET" dump
expect_exit dump_usage_help 0 "$BPFVET" dump --help
expect_exit dump_usage_option 2 "$BPFVET" dump -x "$R"
expect_exit dump_usage_missing_arg 2 "$BPFVET" dump "$R" -p

# Inputs of static linking: libbpf refuses them, dump shows them with
# warnings; verify stays strict.
U=$PROGS/loader_unlinked.o
expect_exit dump_unlinked 0 "$BPFVET" dump "$U"
expect_line dump_unlinked_warning 'warning 0: no BTF section for extern other_func'
expect_line dump_unlinked_map 'map 0: name=badpin type=array key=4 value=4 max_entries=1 flags=0x0 (warning 4)'
expect_line dump_unlinked_prog 'prog 2: name=uses_map section=xdp type=xdp attach=xdp flags=0x0 insns=11 subprogs=1 (warning 2)'
expect_line dump_unlinked_clean 'prog 4: name=clean section=xdp type=xdp attach=xdp flags=0x0 insns=2 subprogs=1'
expect_exit verify_unlinked 2 "$BPFVET" verify "$U"
expect_err verify_unlinked_msg "bpfvet: $U: no BTF section for extern other_func"
# Several objects: each from a "file:" line, in order; one that cannot be
# opened is reported, the others are still shown.
expect_exit dump_several 2 "$BPFVET" dump "$PROGS/kernel_data.o" "$TMP/none.o" "$PROGS/kernel_multi.o"
if [ "$(grep '^object: ' "$TMP/out" | cut -d' ' -f2)" = "$(printf 'name=kernel_data\nname=kernel_multi')" ] &&
	[ "$(grep -c '^file: ' "$TMP/out")" = 3 ] &&
	grep -q "none.o: No such file or directory" "$TMP/err"; then
	pass dump_several_objects
else
	fail dump_several_objects "$(grep '^object: ' "$TMP/out") / $(cat "$TMP/err")"
fi
# -p repeats; '!GLOB' leaves out what it matches (as veristat's filters).
"$BPFVET" dump "$PROGS/kernel_data.o" -p '*' -p '!rodata_*' -p '!data_unknown' >"$TMP/out" 2>&1
"$BPFVET" dump "$PROGS/kernel_data.o" >"$TMP/all" 2>&1
want=$(grep '^prog ' "$TMP/all" | grep -v 'name=rodata_\|name=data_unknown ' | cut -d' ' -f3)
got=$(grep '^prog ' "$TMP/out" | cut -d' ' -f3)
if [ -n "$got" ] && [ "$got" = "$want" ]; then pass dump_filter_exclude; else
	fail dump_filter_exclude "got '$got', want '$want'"; fi
"$BPFVET" "$PROGS/kernel_data.o" -p 'rodata_*' -p data_unknown -o csv -e prog >"$TMP/out" 2>&1
if [ "$(tail -n +2 "$TMP/out" | sort | tr '\n' ' ')" = "$(grep '^prog ' "$TMP/all" | cut -d' ' -f3 |
	sed -n 's/^name=\(rodata_.*\|data_unknown\)$/\1/p' | sort | tr '\n' ' ')" ]; then
	pass verify_filter_union
else
	fail verify_filter_union "$(cat "$TMP/out")"
fi
# -e section: the program's ELF section, in csv and json.
"$BPFVET" "$PROGS/kernel_data.o" -p rodata_known -o csv -e prog,section,verdict >"$TMP/out" 2>&1
if [ "$(tail -n 1 "$TMP/out")" = "rodata_known,socket,success" ]; then pass verify_section_csv; else
	fail verify_section_csv "$(cat "$TMP/out")"; fi
"$BPFVET" "$PROGS/kernel_data.o" -p rodata_known -o json -e prog,section >"$TMP/out" 2>&1
if python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["programs"]; assert r[0]["section"] == "socket", r' "$TMP/out"
then pass verify_section_json; else fail verify_section_json "$(cat "$TMP/out")"; fi
