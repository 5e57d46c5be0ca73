#!/bin/bash
# Gathers real-world BPF objects, written by other projects and built by
# Debian, into build/realworld/:
#   - the BPF objects that libxdp1 installs (its dispatcher, xdpdump, xdp-filter
#     and AF_XDP programs), under their own names;
#   - the BPF objects embedded as skeletons in the programs of xdp-tools and
#     libbpf-tools, extracted by scripts/extract-bpf-objects.py as
#     <program>-<n>.bpf.o.
# Objects whose bytes equal an earlier one (xdp-tools link libxdp statically,
# so they carry its dispatcher again) are listed but not kept twice.
# build/realworld/manifest.tsv lists every object found; docs/corpus.md
# describes it. The directory is rebuilt from scratch on each run.
#
# Usage: scripts/collect-realworld.sh [--quiet]
set -euo pipefail

die() { echo "collect-realworld: error: $*" >&2; exit 1; }

quiet=0
case ${1:-} in
'') ;;
--quiet) quiet=1 ;;
*) die "unknown argument '$1' (usage: $0 [--quiet])" ;;
esac

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EXTRACT="$ROOT/scripts/extract-bpf-objects.py"
OUT="$ROOT/build/realworld"
TMP="$OUT.tmp"

command -v python3 >/dev/null 2>&1 || die "python3 not found: run scripts/deps.sh"
command -v sha256sum >/dev/null 2>&1 || die "sha256sum not found"
for p in libxdp1 xdp-tools libbpf-tools; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case $st in
	*"install ok installed"*) ;;
	*) die "the Debian package $p is not installed: run scripts/deps.sh (as root)" ;;
	esac
done

rm -rf "$TMP" || die "cannot remove $TMP"
mkdir -p "$TMP" || die "cannot create $TMP"

# package<TAB>origin<TAB>offset<TAB>size<TAB>object, in collection order.
found="$TMP/found.tsv"
: >"$found"

xdp_objs=()
while IFS= read -r f; do
	case $f in */bpf/*.o) [ -f "$f" ] && xdp_objs+=("$f") ;; esac
done < <(dpkg -L libxdp1)
nxdp=${#xdp_objs[@]}
[ "$nxdp" -gt 0 ] || die "libxdp1 installs no BPF objects (*/bpf/*.o)"
# A stand-alone object is one BPF ELF at offset 0 spanning its whole file.
python3 "$EXTRACT" --list "${xdp_objs[@]}" >"$TMP/list.out" ||
	die "cannot scan the libxdp1 objects"
for f in "${xdp_objs[@]}"; do
	size=$(stat -c %s "$f")
	[ "$(awk -F'\t' -v f="$f" '$1 == f { print $2 "+" $3 }' "$TMP/list.out")" = "0+$size" ] ||
		die "$f is not a single BPF ELF object"
	cp "$f" "$TMP/" || die "cannot copy $f"
	printf 'libxdp1\t%s\t0\t%s\t%s\n' "$f" "$size" "$(basename "$f")" >>"$found"
done
rm -f "$TMP/list.out"

nbin=0
for pkg in xdp-tools libbpf-tools; do
	bins=()
	while IFS= read -r f; do
		case $f in */bin/* | */sbin/*) ;; *) continue ;; esac
		# Symlinks (ext4dist -> fsdist) would only repeat their target.
		[ -f "$f" ] && [ ! -L "$f" ] && bins+=("$f")
	done < <(dpkg -L "$pkg")
	[ ${#bins[@]} -gt 0 ] || die "$pkg installs no programs"
	nbin=$((nbin + ${#bins[@]}))
	python3 "$EXTRACT" -o "$TMP" "${bins[@]}" >"$TMP/extract.out" ||
		die "extracting the objects of $pkg failed"
	while IFS=$'\t' read -r origin off size obj; do
		printf '%s\t%s\t%s\t%s\t%s\n' "$pkg" "$origin" "$off" "$size" \
			"$(basename "$obj")" >>"$found"
	done <"$TMP/extract.out"
	rm -f "$TMP/extract.out"
done

# Hash everything at once, in collection order; the first copy is kept.
declare -A first_with
cut -f5 "$found" | (cd "$TMP" && xargs -d '\n' sha256sum) >"$TMP/sums" ||
	die "cannot hash the objects"
{
	printf 'object\tpackage\torigin\toffset\tsize\tstatus\n'
	while IFS=$'\t' read -r pkg origin off size obj && read -r sum _ <&3; do
		if [ -n "${first_with[$sum]:-}" ]; then
			rm -f "$TMP/$obj"
			status="duplicate of ${first_with[$sum]}"
		else
			first_with[$sum]=$obj
			status=kept
		fi
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$obj" "$pkg" "$origin" "$off" "$size" "$status"
	done <"$found" 3<"$TMP/sums"
} >"$TMP/manifest.tsv"
rm -f "$TMP/sums"
rm -f "$found"

rm -rf "$OUT" || die "cannot replace $OUT"
mv "$TMP" "$OUT" || die "cannot move $TMP to $OUT"
total=$(($(wc -l <"$OUT/manifest.tsv") - 1))
kept=$(grep -c '	kept$' "$OUT/manifest.tsv" || true)
[ $quiet -eq 1 ] ||
	echo "collect-realworld: $total objects from $nxdp libxdp1 files and $nbin programs, $kept distinct, in $OUT"
