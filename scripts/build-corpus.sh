#!/bin/bash
# Builds the conformance and scale corpus: every BPF selftest program of
# Debian's linux-source-6.12, compiled with clang-19 the way the selftests
# Makefile compiles it, against a vmlinux.h made from the recorded Linux 6.18
# target's BTF (tests/conformance/target-6.18/btf.xz), not the running
# kernel's: the same corpus on every machine, with or without kernel BTF.
#
# The corpus lives in a cache outside the tree, one directory per input set:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/bpfvet/corpus-<pkgver>-<hash>/
# where <hash> covers this script, scripts/corpus-scale.txt, the BTF, the
# helper generator (whose kernel sources are extracted too) and the
# compiler and bpftool versions. build/corpus is a symlink to it. A second
# run with the same inputs only refreshes the symlink.
#
# Usage: scripts/build-corpus.sh [--force] [--print-dir] [-j N]
#   --force      rebuild even when the cache holds a finished corpus
#   --print-dir  print the corpus directory on stdout when done
#   -j N         parallel compiles (default 2: the machines have 2 cores)
# Environment (for tests and unusual set-ups):
#   LINUX_SOURCE_TARBALL  default /usr/src/linux-source-6.12.tar.xz
#   VMLINUX_BTF           default tests/conformance/target-6.18/btf.xz (a
#                         raw BTF file, an ELF with .BTF, or either xz-packed)
#
# Layout of a corpus directory: verifier/ (verifier_*.bpf.o), progs/ (all
# other objects, including NAME.linked.bpf.o made by libbpf's static linker),
# manifest.tsv, logs/ (compiler output of objects that failed or warned),
# include/ (vmlinux.h and the BPF-side libbpf headers), src/ (the extracted
# sources), BUILDINFO. docs/corpus.md describes the manifest.
set -euo pipefail

PKG=linux-source-6.12
CLANG=clang-19
BPFTOOL=bpftool
SELFTESTS=tools/testing/selftests/bpf
# Job lines separate their fields with the ASCII unit separator: a tab, being
# white space for read, would merge empty fields.
US=$'\x1f'

die() { echo "build-corpus: error: $*" >&2; exit 1; }
note() { echo "build-corpus: $*" >&2; }

# Flags that the 6.18 vmlinux.h forces on top of the Makefile's, by source
# file. Printed as flags and reason, so the manifest can say why.
quirk_for() {
	case $1 in
	profiler1.c | profiler2.c | profiler3.c)
		# Linux 6.15 renamed kernfs_node.parent to __parent.
		printf '%s' "-Dparent=__parent${US}kernfs_node.parent renamed in 6.15" ;;
	verifier_vfs_accept.c | verifier_vfs_reject.c | bpf_iter_task_vmas.c | test_d_path.c)
		# struct file.f_path became const: passing &file->f_path on
		# drops the qualifier, a warning that -Werror turns fatal.
		printf '%s' "-Wno-error${US}struct file.f_path is const in the 6.18 vmlinux.h" ;;
	esac
}

# One compile, run in parallel by xargs. $1 is a job line: object, source,
# group, per-file flags, quirk flags, quirk reason.
compile_one() {
	local obj src group flags qflags qwhy log status reason
	IFS=$US read -r obj src group flags qflags qwhy <<<"$1"
	cd "$CORPUS_WORK/src/$SELFTESTS"
	log="$CORPUS_WORK/logs/$(basename "$obj" .bpf.o).log"
	# Word splitting of $flags and $qflags is intended: they hold simple
	# options from the Makefile and from quirk_for.
	# shellcheck disable=SC2086
	if "$CLANG" "@$CORPUS_WORK/cflags.rsp" $flags $qflags \
		-c "$src" -o "$CORPUS_WORK/$obj" >"$log" 2>&1; then
		status=ok
		reason=${qflags:+quirk $qflags: $qwhy}
		[ -s "$log" ] || rm -f "$log"
	else
		status=failed
		reason=$(grep -m1 'error:' "$log" || true)
		[ -n "$reason" ] || reason="$CLANG failed: $(head -n1 "$log")"
		rm -f "$CORPUS_WORK/$obj"
	fi
	printf '%s\t%s\t%s\t%s\t%s\n' "$obj" "$src" "$group" "$status" \
		"${reason//$'\t'/ }" >"$CORPUS_WORK/status/$(basename "$obj").tsv"
}

if [ "${1:-}" = "--compile-one" ]; then
	[ $# -eq 2 ] && [ -n "${CORPUS_WORK:-}" ] || die "bad internal call"
	compile_one "$2"
	exit 0
fi

force=0
print_dir=0
jobs=2
while [ $# -gt 0 ]; do
	case $1 in
	--force) force=1 ;;
	--print-dir) print_dir=1 ;;
	-j) [ $# -ge 2 ] || die "-j needs a number"; jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	-h | --help) sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; exit 0 ;;
	*) die "unknown argument '$1' (try --help)" ;;
	esac
	shift
done
case $jobs in '' | *[!0-9]* | 0) die "-j wants a positive number, got '$jobs'" ;; esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
SELF="$ROOT/scripts/build-corpus.sh"
SCALE_LIST="$ROOT/scripts/corpus-scale.txt"
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/$PKG.tar.xz}
BTF=${VMLINUX_BTF:-$ROOT/tests/conformance/target-6.18/btf.xz}

for cmd in "$CLANG" "$BPFTOOL" python3 make tar xz sha256sum flock dpkg-query; do
	command -v "$cmd" >/dev/null 2>&1 ||
		die "'$cmd' not found: run scripts/deps.sh (as root) first"
done
[ -r "$SCALE_LIST" ] || die "missing $SCALE_LIST"
[ -r "$TARBALL" ] ||
	die "no kernel source at $TARBALL: install the $PKG package (scripts/deps.sh)"
[ -e "$BTF" ] || die "no kernel BTF at $BTF: vmlinux.h is generated from it"
[ -r "$BTF" ] || die "cannot read the kernel BTF at $BTF"
pkgver=$(dpkg-query -W -f='${Version}' "$PKG" 2>/dev/null) ||
	die "the $PKG package is not installed: run scripts/deps.sh"
[ -n "$pkgver" ] || die "the $PKG package is not installed: run scripts/deps.sh"

if [ -n "${XDG_CACHE_HOME:-}" ]; then
	CACHE="$XDG_CACHE_HOME/bpfvet"
elif [ -n "${HOME:-}" ]; then
	CACHE="$HOME/.cache/bpfvet"
else
	die "neither XDG_CACHE_HOME nor HOME is set: no place for the corpus cache"
fi

# Whole outputs, not "| head": with pipefail an early-closing reader can
# turn the writer's SIGPIPE into a failure.
clang_ver=$("$CLANG" --version) || die "'$CLANG --version' failed"
bpftool_ver=$("$BPFTOOL" version 2>/dev/null) || die "'$BPFTOOL version' failed"
clang_ver=${clang_ver%%$'\n'*}
bpftool_ver=${bpftool_ver%%$'\n'*}
hash=$({ cat "$SELF" "$SCALE_LIST" "$BTF" "$ROOT/scripts/gen-helper-protos.py"; echo "$clang_ver"; echo "$bpftool_ver"; } |
	sha256sum | cut -c1-16)
DIR="$CACHE/corpus-${pkgver//[^A-Za-z0-9.+~-]/_}-$hash"
LINK="$ROOT/build/corpus"

link_corpus() {
	mkdir -p "$ROOT/build" || die "cannot create $ROOT/build"
	if [ -e "$LINK" ] && [ ! -L "$LINK" ]; then
		die "$LINK exists and is not a symlink: move it away"
	fi
	ln -sfn "$DIR" "$LINK" || die "cannot create the symlink $LINK"
	[ $print_dir -eq 0 ] || echo "$DIR"
}

if [ $force -eq 0 ] && [ -f "$DIR/manifest.tsv" ]; then
	link_corpus
	exit 0
fi

mkdir -p "$CACHE" || die "cannot create the cache directory $CACHE"
exec 9>"$CACHE/corpus.lock" || die "cannot open $CACHE/corpus.lock"
if ! flock -n 9; then
	note "another corpus build is running; waiting for it"
	flock 9 || die "cannot lock $CACHE/corpus.lock"
fi
# The build we waited for may have produced exactly this corpus.
if [ $force -eq 0 ] && [ -f "$DIR/manifest.tsv" ]; then
	link_corpus
	exit 0
fi

start=$(date +%s)
WORK="$DIR.tmp"
rm -rf "$WORK" || die "cannot remove the stale $WORK"
mkdir -p "$WORK"/{src,include,libbpf,logs,status,verifier,progs} ||
	die "cannot create $WORK"

note "extracting $SELFTESTS, tools/lib/bpf and friends from $TARBALL"
top=${PKG}
# The kernel sources of the helper prototypes come along (same pass over
# the tarball), for tests/cli/helper_protos.sh: scripts/gen-helper-protos.py
# must reproduce src/rules/data from them.
helper_srcs=$(python3 "$ROOT/scripts/gen-helper-protos.py" --files) ||
	die "scripts/gen-helper-protos.py --files failed"
# Word splitting of $helper_srcs is intended: plain relative paths.
# shellcheck disable=SC2206
members=("$SELFTESTS" tools/lib/bpf tools/include tools/scripts tools/build
	tools/arch/x86/include scripts/bpf_doc.py $helper_srcs)
if ! tar -xJf "$TARBALL" -C "$WORK/src" --strip-components=1 \
	"${members[@]/#/$top/}" 2>"$WORK/logs/extract.log"; then
	die "extracting $TARBALL failed: $(head -n3 "$WORK/logs/extract.log")"
fi

note "installing the BPF-side libbpf headers (bpf_helper_defs.h via bpf_doc.py)"
if ! make -s -C "$WORK/src/tools/lib/bpf" OUTPUT="$WORK/libbpf/" \
	DESTDIR="$WORK" prefix= install_headers >"$WORK/logs/headers.log" 2>&1; then
	die "installing the libbpf headers failed: $(tail -n3 "$WORK/logs/headers.log")"
fi
[ -s "$WORK/include/bpf/bpf_helper_defs.h" ] ||
	die "bpf_helper_defs.h was not generated (see $WORK/logs/headers.log)"

note "generating vmlinux.h from $BTF"
btf_file=$BTF
if [[ $BTF == *.xz ]]; then
	btf_file=$WORK/vmlinux.btf
	xz -dc "$BTF" >"$btf_file" || die "cannot decompress $BTF"
fi
"$BPFTOOL" btf dump file "$btf_file" format c >"$WORK/include/vmlinux.h" \
	2>"$WORK/logs/vmlinux.log" ||
	die "bpftool could not dump $BTF: $(head -n3 "$WORK/logs/vmlinux.log")"
rm -f "$WORK/vmlinux.btf"

# The Makefile's BPF_CFLAGS + CLANG_CFLAGS + -DENABLE_ATOMICS_TESTS and the
# CLANG_BPF_BUILD_RULE options, one argument a line, quoted for clang.
# Compiles run in src/$SELFTESTS, so relative paths keep this file valid
# after the corpus directory is renamed: ../../../../.. is the corpus root.
rsp_arg() {
	local a=${1//\\/\\\\}
	printf '"%s"\n' "${a//\"/\\\"}"
}
sys_includes=$("$CLANG" -v -E - </dev/null 2>&1 |
	sed -n '/<...> search starts here:/,/End of search list./s|^ \(/.*\)|\1|p')
[ -n "$sys_includes" ] || die "cannot find $CLANG's system include directories"
{
	for a in -g -Wall -Werror -D__TARGET_ARCH_x86 -mlittle-endian \
		-I../../../../../include -I. -I../../../include/uapi \
		-Wno-compare-distinct-pointer-types; do
		rsp_arg "$a"
	done
	while IFS= read -r d; do rsp_arg -idirafter; rsp_arg "$d"; done <<<"$sys_includes"
	for a in -DENABLE_ATOMICS_TESTS -O2 --target=bpf -mcpu=v3; do rsp_arg "$a"; done
} >"$WORK/cflags.rsp"

# The selftests Makefile with its continuation lines joined.
makefile_joined() {
	awk '{ while (/\\$/ && (getline nxt) > 0) { sub(/\\$/, ""); $0 = $0 " " nxt } print }' \
		"$WORK/src/$SELFTESTS/Makefile"
}
# "progs/NAME.c-CFLAGS := flags" lines: NAME.c<TAB>flags.
makefile_joined | sed -n 's|^progs/\([^ ]*\.c\)-CFLAGS[ \t]*:\{0,1\}=[ \t]*\(.*\)$|\1\t\2|p' \
	>"$WORK/percfile.tsv"
percflags() { awk -F'\t' -v f="$1" '$1 == f { print $2 }' "$WORK/percfile.tsv"; }

is_scale() { grep -qxF "$1" "$SCALE_LIST"; }

jobfile="$WORK/jobs.txt"
: >"$jobfile"
nsrc=0
for path in "$WORK/src/$SELFTESTS"/progs/*.c; do
	c=$(basename "$path")
	name=${c%.c}
	if [[ $name == verifier_* ]]; then dir=verifier; group=verifier; else dir=progs; group=other; fi
	is_scale "$name.bpf.o" && group=scale
	quirk=$(quirk_for "$c")
	printf '%s\n' "$dir/$name.bpf.o${US}progs/$c${US}$group${US}$(percflags "$c")${US}${quirk:-$US}" \
		>>"$jobfile"
	nsrc=$((nsrc + 1))
done
[ $nsrc -gt 0 ] || die "no progs/*.c in the extracted selftests"

note "compiling $nsrc programs with $CLANG, $jobs at a time (about 2 minutes on 2 cores)"
export CORPUS_WORK="$WORK"
xargs -d '\n' -n 1 -P "$jobs" "$SELF" --compile-one <"$jobfile" ||
	die "the parallel compile step failed (see above)"

# Multi-file skeleton objects: LINKED_SKELS and their NAME.skel.h-deps.
linked=$(makefile_joined | sed -n 's/^LINKED_SKELS[ \t]*:\{0,1\}=//p')
[ -n "$linked" ] || die "no LINKED_SKELS in the selftests Makefile"
for skel in $linked; do
	name=${skel%.skel.h}
	deps=$(makefile_joined | sed -n "s/^${name//./\\.}\\.skel\\.h-deps[ \t]*:\\{0,1\\}=//p")
	[ -n "$deps" ] || die "no $skel-deps in the selftests Makefile"
	obj="progs/$name.linked.bpf.o"
	srcs="" inputs=() reason=""
	for d in $deps; do
		srcs="$srcs${srcs:+,}progs/${d%.bpf.o}.c"
		inputs+=("$WORK/progs/$d")
		[ -f "$WORK/progs/$d" ] || reason="${reason:-input $d failed to compile}"
	done
	log="$WORK/logs/$name.linked.log"
	if [ -z "$reason" ] &&
		"$BPFTOOL" gen object "$WORK/$obj" "${inputs[@]}" >"$log" 2>&1; then
		status=ok
		[ -s "$log" ] || rm -f "$log"
	else
		status=failed
		if [ -z "$reason" ]; then
			reason=$(grep -m1 -i 'error' "$log" || head -n1 "$log")
			reason="bpftool gen object: $reason"
		fi
		rm -f "$WORK/$obj"
	fi
	group=other
	is_scale "$name.linked.bpf.o" && group=scale
	printf '%s\t%s\t%s\t%s\t%s\n' "$obj" "$srcs" "$group" "$status" "$reason" \
		>"$WORK/status/$name.linked.bpf.o.tsv"
done

{
	printf 'object\tsource\tgroup\tstatus\treason\n'
	cat "$WORK"/status/*.tsv | LC_ALL=C sort
} >"$WORK/manifest.tmp"
rm -rf "$WORK/status" "$WORK/libbpf" "$WORK/jobs.txt" "$WORK/percfile.tsv"
find "$WORK/logs" -type f -empty -delete

# Every object of the scale list must be in the manifest: a name that no
# longer matches a source is a bug here, not a compile failure.
missing=$(awk -F'\t' 'NR == FNR { if ($0 != "" && $0 !~ /^#/) want[$0] = 1; next }
	{ sub(/^(verifier|progs)\//, "", $1); delete want[$1] }
	END { for (w in want) printf " %s", w }' "$SCALE_LIST" "$WORK/manifest.tmp")
[ -z "$missing" ] || die "scale objects without a source in $PKG:$missing"

end=$(date +%s)
ok=$(awk -F'\t' 'NR > 1 && $4 == "ok"' "$WORK/manifest.tmp" | wc -l)
failed=$(awk -F'\t' 'NR > 1 && $4 == "failed"' "$WORK/manifest.tmp" | wc -l)
{
	echo "package: $PKG $pkgver"
	echo "tarball: $TARBALL"
	echo "btf: $BTF (sha256 $(sha256sum <"$BTF" | cut -c1-16))"
	echo "clang: $clang_ver"
	echo "bpftool: $bpftool_ver"
	echo "jobs: $jobs"
	echo "objects: $ok ok, $failed failed"
	echo "build_seconds: $((end - start))"
	echo "built: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
} >"$WORK/BUILDINFO"
mv "$WORK/manifest.tmp" "$WORK/manifest.tsv"

rm -rf "$DIR" || die "cannot replace $DIR"
mv "$WORK" "$DIR" || die "cannot move $WORK to $DIR"
note "corpus: $ok objects built, $failed failed, in $((end - start)) s: $DIR"
link_corpus
