# The objects people ship, as `make realworld` gathers them from Debian's
# packages (libbpf-tools, xdp-tools, libxdp, pcp's PMDA modules,
# cilium/ebpf's test objects), verified with default options (each object
# by the conventions auto chooses for it; the target BTF pinned to the
# recorded target's, which is the kernel that recorded the reference)
# against tests/conformance/kernel-6.18-realworld.csv, program by
# program: the verdict, and the processed instructions and states of what
# the verifier saw, or the loader's own refusal and its message.
#
# Not compared: what this machine's kernel refuses before verifying for
# reasons of its own (EPERM for BPF trampolines, maps sized at run time by
# the tool, freplace without its target program); they are counted.
. tests/lib.sh
REF=tests/conformance/kernel-6.18-realworld.csv
RW=build/realworld

need_target realworld_target
if [ ! -d "$RW/pcp" ] || [ ! -d "$RW/cilium-ebpf" ]; then
	fail realworld_objects "$RW is incomplete: make realworld"
	exit 0
fi
set --
for f in $(tail -n +2 "$REF" | cut -d, -f1 | sort -u); do
	set -- "$@" "$RW/$f"
done
# One object of cilium/ebpf's (fwd_decl) cannot be opened: exit 2.
# shellcheck disable=SC2086
"$BPFVET" "$@" "$RW/cilium-ebpf/fwd_decl-el.elf" $TARGET -o csv \
	-e file_name,prog_name,section,prog_type,verdict,total_insns,total_states,peak_states,error \
	>"$TMP/got.csv" 2>"$TMP/err"
rc=$?
if [ $rc = 2 ] && grep -qxF "bpfvet: $RW/cilium-ebpf/fwd_decl-el.elf: no BTF for extern fwd" "$TMP/err"; then
	pass realworld_run
else
	fail realworld_run "exit $rc: $(grep -v ': warning: ' "$TMP/err" | head -c 300)"
fi

python3 - "$REF" "$TMP/got.csv" <<'EOF'
import csv, os, sys

# The kernel's refusals that are this machine's, not the object's.
ENV = ('Operation not permitted', 'failed to create', 'freplace needs a target program')
# Figures in which the recording kernel (6.18.44-fc-v1252) departs from
# the build bpfvet follows (v1098, tests/conformance/kernel-6.18.build):
# v1252's verifier keeps the states of callbacks differently (`make
# kernel-check` lists the same drift on the selftests' callback and
# iterator programs). The verdict and the other figures are compared.
DRIFT = {
    ('cilium-ebpf/subprog_reloc-el.elf', 'fp_relocation'): 'peak_states',
}

ref = list(csv.DictReader(open(sys.argv[1])))
got = {}
for r in csv.DictReader(open(sys.argv[2])):
    got[(r['file_name'], r['prog_name'])] = r
agree = compared = 0
skipped = {}
for k in ref:
    name = 'realworld %s/%s' % (k['file'], k['prog'])
    if k['verdict'] == 'refused' and any(e in k['error'] for e in ENV):
        why = next(e for e in ENV if e in k['error'])
        skipped[why] = skipped.get(why, 0) + 1
        continue
    compared += 1
    g = got.get((os.path.basename(k['file']), k['prog']))
    if not g:
        print('FAIL %s: no row' % name)
        continue
    if k['stage'] == 'verifier':
        drift = DRIFT.get((k['file'], k['prog']))
        want = (k['verdict'], k['insns'], k['total_states'],
                k['peak_states'] if drift != 'peak_states' else '')
        have = (g['verdict'], g['total_insns'], g['total_states'],
                g['peak_states'] if drift != 'peak_states' else '')
        if k['verdict'] == 'failure':
            want += (k['error'],)
            have += (g['error'],)
    else:
        want = (k['verdict'], k['error'])
        have = (g['verdict'], g['error'])
    if want == have and g['section'] == k['section'] and g['prog_type'] == k['prog_type']:
        agree += 1
        print('PASS %s' % name)
    else:
        print('FAIL %s: got %s, kernel %s' % (name, have, want))
pct = 100.0 * agree / compared if compared else 0
note = '; '.join('%d %s' % (n, w) for w, n in sorted(skipped.items()))
line = 'realworld_agreement (%d of %d programs, %.1f%%; not compared: %s)' % (
    agree, compared, pct, note)
print(('PASS ' if compared and pct >= 97.0 else 'FAIL ') + line)
EOF
