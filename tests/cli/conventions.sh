# Loader conventions (--loader): which ones auto takes for an object and
# why, what libbpf refuses that the other loaders load, the warnings that
# name the libbpf rule set aside, and the verdicts each program gets by its
# own loader's conventions, against what the kernel said when loaded by the
# same conventions (tests/fixtures/conventions/kernel.csv).
. tests/lib.sh
FIX=tests/fixtures/conventions/kernel.csv
# conv_cilium, conv_falco, conv_ovs, conv_samples and conv_suricata are
# built the way those projects build theirs, for their loaders.
OBJS="conv_static conv_bare conv_calls conv_cilium conv_falco conv_ovs conv_samples conv_suricata loader_iproute2 loader_legacy"

# loader_is NAME OBJ WANT [OPTION...]: dump's "loader:" line.
loader_is() {
	name=$1; obj=$2; want=$3; shift 3
	"$BPFVET" dump "$PROGS/$obj.o" "$@" >"$TMP/out" 2>"$TMP/err"
	got=$(grep '^loader: ' "$TMP/out")
	if [ "$got" = "loader: $want" ]; then
		pass "$name"
	else
		fail "$name" "got '$got', want 'loader: $want' $(head -c 200 "$TMP/err")"
	fi
}

loader_is conventions_auto_static_btf conv_static \
	"cilium (program tail_count in section tc is static, with BTF: cilium/ebpf loads it, libbpf does not)"
loader_is conventions_auto_static_bare conv_bare \
	"legacy (program count in section socket1 is static, without BTF)"
loader_is conventions_auto_cilium conv_cilium \
	"cilium (program tail_ct in section tc/tail is static, with BTF: cilium/ebpf loads it, libbpf does not)"
loader_is conventions_auto_falco conv_falco \
	"legacy (program bpf_terminate_filler in section raw_tracepoint/filler/terminate_filler is static, without BTF)"
# Static with BTF, but in sections cilium/ebpf would not type.
loader_is conventions_auto_ovs conv_ovs \
	"legacy (program to_stack in section ingress is static, in a section cilium/ebpf would not type)"
loader_is conventions_auto_samples conv_samples \
	"legacy (section maps holds legacy map definitions, which libbpf dropped in 1.0)"
loader_is conventions_auto_suricata conv_suricata \
	"legacy (section maps holds legacy map definitions, which libbpf dropped in 1.0)"
loader_is conventions_auto_cross_call conv_calls \
	"cilium (section xdp calls a function of section helpers: only cilium/ebpf links calls outside .text)"
loader_is conventions_auto_elf_map loader_iproute2 \
	"iproute2 (section maps holds 36-byte map definitions, iproute2's struct bpf_elf_map)"
loader_is conventions_auto_legacy_maps loader_legacy \
	"legacy (section maps holds legacy map definitions, which libbpf dropped in 1.0)"
# BTF and one section name libbpf does not know ("kprobe_but_not"): built
# for libbpf, which leaves that program without a type.
loader_is conventions_auto_libbpf loader_sections "libbpf (nothing in it needs another loader)"
loader_is conventions_asked conv_static "legacy (asked for)" --loader legacy

# refused NAME OBJ MESSAGE: --loader libbpf refuses the whole object, as
# libbpf 1.x does (the system's libbpf 1.1 refuses each of these too).
refused() {
	expect_exit "$1" 2 "$BPFVET" "$PROGS/$2.o" --loader libbpf
	if grep -qxF "bpfvet: $PROGS/$2.o: $3" "$TMP/err"; then
		pass "$1_msg"
	else
		fail "$1_msg" "$(head -c 300 "$TMP/err")"
	fi
}
refused conventions_libbpf_static conv_static \
	"section tc: program tail_count is static, which libbpf does not support"
refused conventions_libbpf_cross_call conv_calls \
	"section helpers: program clamp is static, which libbpf does not support"
refused conventions_libbpf_legacy_maps loader_legacy \
	"section maps: legacy map definitions are not supported by libbpf v1.0+"
refused conventions_libbpf_elf_map loader_iproute2 \
	"section maps: legacy map definitions are not supported by libbpf v1.0+"

expect_exit conventions_bad_name 2 "$BPFVET" "$PROGS/conv_static.o" --loader bogus
grep -qxF "bpfvet: unknown loader 'bogus' (libbpf, cilium, iproute2, legacy or auto)" "$TMP/err" &&
	pass conventions_bad_name_msg || fail conventions_bad_name_msg "$(head -c 300 "$TMP/err")"

# warn_has NAME OBJ WARNING: verify prints the object's warning on stderr.
warn_has() {
	"$BPFVET" "$PROGS/$2.o" -q >/dev/null 2>"$TMP/err"
	if grep -qxF "bpfvet: $PROGS/$2.o: warning: $3" "$TMP/err"; then
		pass "$1"
	else
		fail "$1" "no such warning in: $(head -c 400 "$TMP/err")"
	fi
}
warn_has conventions_warn_static conv_static \
	"section tc: program tail_count is static (cilium/ebpf loads it; libbpf refuses it)"
warn_has conventions_warn_type conv_bare \
	"program socket2: section socket2 names no type libbpf knows; its loader gives it socket_filter (a legacy loader loads it; libbpf refuses it)"
warn_has conventions_warn_tail conv_static \
	"section tc: insn 0 of calls_undefined calls not_linked, which nothing defines"
warn_has conventions_warn_cross_call conv_calls \
	"program xdp_calls: insn 3 calls a function of section helpers, not of .text (cilium/ebpf loads it; libbpf refuses it)"
warn_has conventions_warn_ctx_type conv_ovs \
	"program parse: section tail-32 names no type; its context, struct __sk_buff, makes it sched_cls (-t TYPE to say otherwise)"
warn_has conventions_warn_unsized conv_falco \
	"map frame_scratch: max_entries is 0, for its loader to set at run time: verified with 1, as veristat creates it"
warn_has conventions_warn_section conv_falco \
	"section kernel_version: data the loader does not read (a tool of its own may), ignored"
warn_has conventions_warn_iproute2_tail loader_iproute2 \
	"program tail_0: section 1/0 names no type libbpf knows; its loader gives it sched_cls (iproute2 loads it; libbpf refuses it)"

# Verdicts and figures against the kernel's, program by program. A
# program the loader refuses has no kernel verdict: both say "refused",
# with the same reason.
set --
for o in $OBJS; do set -- "$@" "$PROGS/$o.o"; done
"$BPFVET" "$@" -o csv -e file_name,prog_name,section,prog_type,verdict,total_insns,total_states,peak_states,error \
	>"$TMP/got.csv" 2>"$TMP/err"
rc=$?
[ $rc -le 1 ] && pass conventions_verify_run || fail conventions_verify_run "exit $rc: $(head -c 300 "$TMP/err")"
python3 - "$FIX" "$TMP/got.csv" <<'EOF'
import csv, sys
want = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith('#')))
got = {(r['file_name'], r['prog_name']): r for r in csv.DictReader(open(sys.argv[2]))}
for k in want:
    key = (k['file_name'], k['prog_name'])
    name = 'conventions_kernel %s/%s' % key
    g = got.get(key)
    if not g:
        print('FAIL %s: no row' % name)
        continue
    w = (k['section'], k['prog_type'], k['kernel_verdict'], k['kernel_total_insns'],
         k['kernel_total_states'], k['kernel_peak_states'],
         k['kernel_error'] if k['kernel_verdict'] != 'success' else '')
    h = (g['section'], g['prog_type'], g['verdict'], g['total_insns'], g['total_states'],
         g['peak_states'], g['error'] if g['verdict'] != 'success' else '')
    print(('PASS %s' % name) if w == h else 'FAIL %s: got %s, kernel %s' % (name, h, w))
EOF

# A refused program has no figures: "-" in the table, empty in csv, null
# in JSON.
"$BPFVET" "$PROGS/conv_static.o" -p calls_undefined 2>/dev/null >"$TMP/table"
grep -q '^conv_static.o  *calls_undefined  *refused  *-  *-  *-  *-  *$' "$TMP/table" &&
	pass conventions_refused_table || fail conventions_refused_table "$(tail -n 1 "$TMP/table")"
"$BPFVET" "$PROGS/conv_static.o" -p calls_undefined -o csv -e prog,verdict,insns,states 2>/dev/null >"$TMP/csv"
[ "$(tail -n 1 "$TMP/csv")" = "calls_undefined,refused,," ] &&
	pass conventions_refused_csv || fail conventions_refused_csv "$(tail -n 1 "$TMP/csv")"
"$BPFVET" "$PROGS/conv_static.o" -p calls_undefined -o json -e prog,verdict,insns 2>/dev/null >"$TMP/json"
grep -qF '{"prog_name": "calls_undefined", "verdict": "refused", "total_insns": null}' "$TMP/json" &&
	pass conventions_refused_json || fail conventions_refused_json "$(cat "$TMP/json")"
# Refused programs make verify exit 1, as rejected ones do.
expect_exit conventions_refused_exit 1 "$BPFVET" "$PROGS/conv_static.o" -p calls_undefined -q

# A program no loader gives a type: refused in the words of its loader
# (libbpf's here), as `bpfvet kernel` refuses it; never verified as unspec.
"$BPFVET" "$PROGS/loader_sections.o" -p p_unknown -o csv -e prog,verdict,error 2>/dev/null >"$TMP/csv"
[ "$(tail -n 1 "$TMP/csv")" = "p_unknown,refused,\"prog 'p_unknown': missing BPF prog type, check ELF section name 'my_custom_section'\"" ] &&
	pass conventions_untyped || fail conventions_untyped "$(tail -n 1 "$TMP/csv")"
"$BPFVET" "$PROGS/loader_sections.o" -p p_unknown -t socket_filter -o csv -e prog,verdict 2>/dev/null >"$TMP/csv"
[ "$(tail -n 1 "$TMP/csv")" = "p_unknown,success" ] &&
	pass conventions_untyped_given || fail conventions_untyped_given "$(tail -n 1 "$TMP/csv")"
