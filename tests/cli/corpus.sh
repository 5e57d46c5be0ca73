# The selftest corpus (scripts/build-corpus.sh) and the real-world objects
# (scripts/collect-realworld.sh). Builds the corpus when the cache does not
# hold it yet (about 2 minutes on 2 cores); later runs only find it.
# Without the packages this FAILS: make test installs the packages, so a
# missing corpus is a real problem. The BTF is the recorded target's, in
# the tree.
. tests/lib.sh
CORPUS=build/corpus
MANIFEST=$CORPUS/manifest.tsv
SCALE_LIST=scripts/corpus-scale.txt
# Counts measured on Debian 12 (linux-source-6.12 6.12.118-1~deb12u1,
# libxdp1/xdp-tools 1.3.1-1, libbpf-tools 0.26.0+ds-1, pcp 6.0.3-1.1,
# golang-github-cilium-ebpf-dev 0.9.1-1) and Linux 6.18; see
# docs/corpus.md.
WANT_VERIFIER=95
WANT_LINKED=7
MIN_OK=780
MAX_OK=830
WANT_RW_FOUND=130
WANT_RW_KEPT=106
WANT_RW_PCP=14
WANT_RW_CILIUM=17

# Clear errors for missing inputs, before anything is built.
expect_exit corpus_no_btf 1 env VMLINUX_BTF=/nonexistent/vmlinux scripts/build-corpus.sh
grep -q 'no kernel BTF at /nonexistent/vmlinux' "$TMP/err" &&
	pass corpus_no_btf_msg || fail corpus_no_btf_msg "stderr: $(cat "$TMP/err")"
expect_exit corpus_no_source 1 env LINUX_SOURCE_TARBALL=/nonexistent.tar.xz scripts/build-corpus.sh
grep -q 'no kernel source at /nonexistent.tar.xz' "$TMP/err" &&
	pass corpus_no_source_msg || fail corpus_no_source_msg "stderr: $(cat "$TMP/err")"
expect_exit corpus_bad_arg 1 scripts/build-corpus.sh --bogus

if ! scripts/build-corpus.sh 2>"$TMP/build.err"; then
	fail corpus_build "scripts/build-corpus.sh failed: $(tail -n 5 "$TMP/build.err")"
	exit 0
fi
pass corpus_build

# A second run finds the cache and does nothing else: the same directory,
# the same files (a rebuild writes them anew), nothing on stderr.
before=$(ls -i --full-time "$CORPUS/" "$MANIFEST" "$CORPUS/BUILDINFO" 2>&1)
scripts/build-corpus.sh 2>"$TMP/warm.err"
rc=$?
after=$(ls -i --full-time "$CORPUS/" "$MANIFEST" "$CORPUS/BUILDINFO" 2>&1)
if [ $rc -eq 0 ] && [ ! -s "$TMP/warm.err" ] && [ "$before" = "$after" ]; then
	pass corpus_warm
else
	fail corpus_warm "exit $rc; changed: $([ "$before" = "$after" ] && echo no || echo yes); stderr: $(head -c 300 "$TMP/warm.err")"
fi

target=$(readlink "$CORPUS")
case $target in
"${XDG_CACHE_HOME:-$HOME/.cache}"/bpfvet/corpus-*) pass corpus_in_cache ;;
*) fail corpus_in_cache "build/corpus points to '$target'" ;;
esac

# Manifest format: a header, five fields, known groups and statuses, a
# reason for every failure.
if [ "$(head -n1 "$MANIFEST")" = "$(printf 'object\tsource\tgroup\tstatus\treason')" ]; then
	pass manifest_header
else
	fail manifest_header "$(head -n1 "$MANIFEST")"
fi
bad=$(awk -F'\t' 'NR > 1 && (NF != 5 || $3 !~ /^(verifier|scale|other)$/ ||
	$4 !~ /^(ok|failed)$/ || ($4 == "failed" && $5 == "") ||
	$1 !~ /^(verifier|progs)\/[A-Za-z0-9_.-]+\.bpf\.o$/) { print NR": "$0 }' "$MANIFEST")
[ -z "$bad" ] && pass manifest_rows || fail manifest_rows "$(echo "$bad" | head -n 3)"

# One entry per progs/*.c plus the linked skeleton objects.
nsrc=$(ls "$CORPUS"/src/tools/testing/selftests/bpf/progs/*.c | wc -l)
nrows=$(($(wc -l <"$MANIFEST") - 1))
nlinked=$(grep -c '^progs/[^	]*\.linked\.bpf\.o	' "$MANIFEST")
if [ "$nlinked" = $WANT_LINKED ] && [ "$nrows" = $((nsrc + WANT_LINKED)) ]; then
	pass manifest_complete
else
	fail manifest_complete "$nrows rows for $nsrc sources and $nlinked linked objects"
fi

nver=$(ls "$CORPUS"/verifier/verifier_*.bpf.o 2>/dev/null | wc -l)
[ "$nver" = $WANT_VERIFIER ] && pass corpus_verifier_count ||
	fail corpus_verifier_count "$nver verifier_* objects, want $WANT_VERIFIER"

nok=$(awk -F'\t' 'NR > 1 && $4 == "ok"' "$MANIFEST" | wc -l)
if [ "$nok" -ge $MIN_OK ] && [ "$nok" -le $MAX_OK ]; then
	pass corpus_total_count
else
	fail corpus_total_count "$nok objects built, want $MIN_OK..$MAX_OK"
fi

# Objects listed as ok exist and are BPF ELF files (e_machine 247); failed
# ones do not exist; no object is missing from the manifest.
python3 - "$CORPUS" <<'EOF' >"$TMP/elfcheck" 2>&1
import os, struct, sys
root = sys.argv[1]
listed, problems = set(), []
with open(os.path.join(root, "manifest.tsv")) as f:
    next(f)
    for line in f:
        obj, _, _, status, _ = line.rstrip("\n").split("\t")
        listed.add(obj)
        path = os.path.join(root, obj)
        if status == "failed":
            if os.path.exists(path):
                problems.append("%s failed but exists" % obj)
            continue
        try:
            with open(path, "rb") as o:
                head = o.read(20)
        except OSError as e:
            problems.append("%s: %s" % (obj, e.strerror))
            continue
        if len(head) < 20 or head[:4] != b"\x7fELF" or \
                struct.unpack_from("<H", head, 18)[0] != 247:
            problems.append("%s is not a BPF ELF object" % obj)
for d in ("verifier", "progs"):
    for name in os.listdir(os.path.join(root, d)):
        if "%s/%s" % (d, name) not in listed:
            problems.append("%s/%s is not in the manifest" % (d, name))
print("\n".join(problems[:5]))
sys.exit(1 if problems else 0)
EOF
[ $? -eq 0 ] && pass corpus_objects_bpf_elf || fail corpus_objects_bpf_elf "$(cat "$TMP/elfcheck")"

# Every scale object is built and tagged as such.
missing=$(awk -F'\t' 'NR == FNR { if ($0 != "" && $0 !~ /^#/) want[$0] = 1; next }
	FNR > 1 && $3 == "scale" && $4 == "ok" { sub(/^[a-z]+\//, "", $1); delete want[$1] }
	END { for (w in want) printf " %s", w }' "$SCALE_LIST" "$MANIFEST")
nscale=$(awk -F'\t' '$3 == "scale"' "$MANIFEST" | wc -l)
nlist=$(grep -vc '^#' "$SCALE_LIST")
if [ -z "$missing" ] && [ "$nscale" = "$nlist" ]; then
	pass corpus_scale
else
	fail corpus_scale "missing:$missing; $nscale rows in group scale, $nlist listed"
fi

# Real-world objects: every one found is listed, distinct ones are kept and
# are BPF ELF files. Collected into a directory of this test's own: the
# tests running beside it read build/realworld.
RW=$TMP/realworld
if ! scripts/collect-realworld.sh --quiet --out "$RW" 2>"$TMP/rw.err"; then
	fail realworld_collect "$(tail -n 3 "$TMP/rw.err")"
	exit 0
fi
pass realworld_collect
found=$(($(wc -l <"$RW/manifest.tsv") - 1))
kept=$(awk -F'\t' 'NR > 1 && $6 == "kept"' "$RW/manifest.tsv" | wc -l)
files=$(ls "$RW"/*.o "$RW"/pcp/*.o "$RW"/cilium-ebpf/*.elf | wc -l)
if [ "$found" = $WANT_RW_FOUND ] && [ "$kept" = $WANT_RW_KEPT ] && [ "$files" = $WANT_RW_KEPT ]; then
	pass realworld_count
else
	fail realworld_count "found $found (want $WANT_RW_FOUND), kept $kept and $files files (want $WANT_RW_KEPT)"
fi
for set in pcp cilium-ebpf; do
	n=$(awk -F'\t' -v s="$set/" 'NR > 1 && $6 == "kept" && index($1, s) == 1' "$RW/manifest.tsv" | wc -l)
	case $set in pcp) want=$WANT_RW_PCP ;; *) want=$WANT_RW_CILIUM ;; esac
	if [ "$n" = "$want" ]; then pass "realworld_set $set"; else
		fail "realworld_set $set" "$n objects, want $want"; fi
done
notbpf=""
for o in "$RW"/*.o "$RW"/pcp/*.o "$RW"/cilium-ebpf/*.elf; do
	[ "$(od -An -tx1 -j18 -N2 "$o" | tr -d ' ')" = f700 ] || notbpf="$notbpf $o"
done
[ -z "$notbpf" ] && pass realworld_bpf_elf || fail realworld_bpf_elf "not BPF:$notbpf"
