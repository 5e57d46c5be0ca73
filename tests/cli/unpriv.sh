# Unprivileged verification against the live Linux 6.18.44 kernel, for the
# two loaders an unprivileged program can have (docs/kernel.md):
#  - unprivileged (bpfvet --unpriv): libbpf run by a user without
#    capabilities; the kernel refuses the object's BTF, so maps have no
#    special fields and programs no func_info, maps are hardened against
#    Spectre v1, and only some map types can be created;
#  - privileged-maps (--unpriv --privileged-maps): the object's BTF and
#    maps made by a privileged process, only BPF_PROG_LOAD without
#    CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN and CAP_SYS_ADMIN.
# bpfvet on the recorded 6.18 target must give what the kernel gave to
# `bpfvet kernel OBJ --unpriv [--privileged-maps] --kernel-only` with
# kernel.unprivileged_bpf_disabled=0: the same verdict, processed
# instructions, total and peak states and, for a rejection or a refusal,
# the same first error.
. tests/lib.sh
[ -f "$TARGET_BTF" ] || { fail unpriv "no $TARGET_BTF (make target)"; exit 0; }

# compare NAME FIXTURE MIN_ROWS GOT.csv: FIXTURE rows (file, prog, verdict,
# insns, total_states, peak_states, error) against bpfvet's csv.
compare() {
	python3 - "$@" <<'PY'
import csv, os, sys
name, fix, min_rows, got_path = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
# Differences known and not about privileges: the live kernel names the
# result of a map-in-map lookup map_ptr_or_null, where the recorded
# privileged runs (tests/conformance/kernel-6.18.csv) and bpfvet say
# map_value_or_null (another build of 6.18.44, docs/kernel.md). Only the
# verdict and counts are compared for these.
known = {('verifier_map_in_map.bpf.o', 'on_the_inner_map_pointer')}
got = {(os.path.basename(r['file_name']), r['prog_name']): r
       for r in csv.DictReader(open(got_path))}
fails = n = 0
by_verdict = {}
for k in csv.DictReader(line for line in open(fix) if not line.startswith('#')):
    key = (k['file'], k['prog'])
    g = got.get(key)
    n += 1
    want = [k['verdict'], k['insns'], k['total_states'], k['peak_states'], k['error']]
    have = None
    if g:
        have = [g['verdict'], g['total_insns'], g['total_states'], g['peak_states'],
                g['error'] if g['verdict'] != 'success' else '']
        if g['verdict'] == 'refused':
            have[1:4] = ['0', '0', '0']
    if key in known and have:
        want, have = want[:4], have[:4]
    if have != want:
        fails += 1
        print('FAIL %s %s/%s: got %s, kernel %s' % (name, key[0], key[1], have, want))
    else:
        by_verdict[k['verdict']] = by_verdict.get(k['verdict'], 0) + 1
summary = ', '.join('%d %s' % (c, v) for v, c in sorted(by_verdict.items()))
if n < min_rows:
    print('FAIL %s fixture: only %d rows' % (name, n))
elif not fails:
    print('PASS %s: %d programs as the live kernel decided them (%s)' % (name, n, summary))
PY
}

# bpfvet_csv OUT FLAGS... -- OBJ...: bpfvet's rows for the objects.
bpfvet_csv() {
	out=$1; shift
	"$BPFVET" "$@" --target build/target-6.18 -o csv \
		-e file_name,prog_name,verdict,total_insns,total_states,peak_states,error \
		>"$out" 2>"$TMP/err"
}

# The loaders side by side on programs made for them (tests/progs/unpriv_loader.c).
LOADER_FIX=tests/fixtures/unpriv/loader-6.18.csv
for loader in unprivileged privileged-maps; do
	flags=--unpriv
	[ "$loader" = privileged-maps ] && flags="--unpriv --privileged-maps"
	grep -v '^#' "$LOADER_FIX" | awk -F, -v l="$loader" 'NR == 1 || $1 == l' |
		cut -d, -f2- >"$TMP/fix-$loader.csv"
	# shellcheck disable=SC2086
	bpfvet_csv "$TMP/got-$loader.csv" "$PROGS/unpriv_loader.o" "$PROGS/struct_ops.o" $flags
	compare "unpriv_loader_$loader" "$TMP/fix-$loader.csv" 6 "$TMP/got-$loader.csv"
done

need_corpus unpriv_corpus
# The corpus programs the kernel decided unprivileged (pointer sanitation,
# speculative paths, leaks) and, of the refusals, one per program type:
# kernel-6.18.csv with privileged maps, kernel-6.18-loader.csv fully
# unprivileged (the same programs).
FIX=tests/fixtures/unpriv/kernel-6.18.csv
tail -n +2 "$FIX" | cut -d, -f1,2 | sort -u | tr ',' '/' |
	sed 's|^|build/corpus/|' >"$TMP/objs"
# shellcheck disable=SC2046
bpfvet_csv "$TMP/got.csv" $(cat "$TMP/objs") --unpriv --privileged-maps
compare unpriv_privileged_maps "$FIX" 600 "$TMP/got.csv"
# shellcheck disable=SC2046
bpfvet_csv "$TMP/got.csv" $(cat "$TMP/objs") --unpriv
compare unpriv "tests/fixtures/unpriv/kernel-6.18-loader.csv" 600 "$TMP/got.csv"
