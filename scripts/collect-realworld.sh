#!/bin/bash
# Gathers real-world BPF objects, written by other projects and built by
# Debian, into build/realworld/:
#   - the BPF objects that libxdp1 installs (its dispatcher, xdpdump, xdp-filter
#     and AF_XDP programs), under their own names;
#   - the BPF objects embedded as skeletons in the programs of xdp-tools and
#     libbpf-tools, extracted by scripts/extract-bpf-objects.py as
#     <program>-<n>.bpf.o;
#   - in pcp/: the objects embedded in pcp's BPF PMDA modules (pcp is
#     downloaded by scripts/deps.sh, not installed: its post-install
#     script needs systemd), as pcp-<module>-<n>.bpf.o;
#   - in cilium-ebpf/: the little-endian test objects of cilium/ebpf
#     (golang-github-cilium-ebpf-dev), loaded by cilium/ebpf's conventions.
# Objects whose bytes equal an earlier one (xdp-tools link libxdp statically,
# so they carry its dispatcher again) are listed but not kept twice.
# build/realworld/manifest.tsv lists every object found; docs/corpus.md
# describes it. The directory is rebuilt from scratch on each run.
#
# Usage: scripts/collect-realworld.sh [--quiet] [--out DIR]
#   (default DIR: build/realworld; tests collect elsewhere, so that the
#   tests running beside them keep reading build/realworld)
set -euo pipefail

die() { echo "collect-realworld: error: $*" >&2; exit 1; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
quiet=0
OUT="$ROOT/build/realworld"
while [ $# -gt 0 ]; do
	case $1 in
	--quiet) quiet=1 ;;
	--out) [ $# -ge 2 ] || die "--out needs a directory"; OUT=$2; shift ;;
	*) die "unknown argument '$1' (usage: $0 [--quiet] [--out DIR])" ;;
	esac
	shift
done
EXTRACT="$ROOT/scripts/extract-bpf-objects.py"
TMP="$OUT.tmp"

command -v python3 >/dev/null 2>&1 || die "python3 not found: run scripts/deps.sh"
command -v sha256sum >/dev/null 2>&1 || die "sha256sum not found"
for p in libxdp1 xdp-tools libbpf-tools golang-github-cilium-ebpf-dev; do
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

# pcp's PMDA modules, from the downloaded package.
CACHE_DEBS="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/bpfvet/debs"
pcp_deb=$(ls "$CACHE_DEBS"/pcp_*.deb 2>/dev/null | tail -n 1)
[ -n "$pcp_deb" ] || die "pcp was not downloaded to $CACHE_DEBS: run scripts/deps.sh"
mkdir -p "$TMP/pcp" "$TMP/pcp.deb" || die "cannot create $TMP/pcp"
dpkg-deb -x "$pcp_deb" "$TMP/pcp.deb" || die "cannot unpack $pcp_deb"
mods=("$TMP/pcp.deb"/usr/lib/pcp/pmdas/bpf/modules/*.so)
[ -f "${mods[0]}" ] || die "$pcp_deb has no BPF PMDA modules"
python3 "$EXTRACT" -o "$TMP/pcp" "${mods[@]}" >"$TMP/extract.out" ||
	die "extracting the objects of pcp failed"
while IFS=$'\t' read -r origin off size obj; do
	# module.so-1.bpf.o -> pcp-module-1.bpf.o: libbpf-tools has objects of
	# the same names (pcp built its own copies), which references key by name
	name=$(basename "$obj")
	mv "$obj" "$TMP/pcp/pcp-${name/.so-/-}" || die "cannot rename $obj"
	printf 'pcp\t%s\t%s\t%s\tpcp/%s\n' "${origin#"$TMP/pcp.deb"}" "$off" "$size" \
		"pcp-${name/.so-/-}" >>"$found"
done <"$TMP/extract.out"
rm -rf "$TMP/extract.out" "$TMP/pcp.deb"
npcp=${#mods[@]}

# cilium/ebpf's test objects: stand-alone files, little-endian ones only.
mkdir -p "$TMP/cilium-ebpf" || die "cannot create $TMP/cilium-ebpf"
ncil=0
while IFS= read -r f; do
	case $f in */testdata/*-el.elf) ;; *) continue ;; esac
	[ -f "$f" ] || continue
	cp "$f" "$TMP/cilium-ebpf/" || die "cannot copy $f"
	printf 'golang-github-cilium-ebpf-dev\t%s\t0\t%s\tcilium-ebpf/%s\n' "$f" \
		"$(stat -L -c %s "$f")" "$(basename "$f")" >>"$found"
	ncil=$((ncil + 1))
done < <(dpkg -L golang-github-cilium-ebpf-dev)
[ "$ncil" -gt 0 ] || die "golang-github-cilium-ebpf-dev installs no *-el.elf test objects"

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
	echo "collect-realworld: $total objects from $nxdp libxdp1 files, $nbin programs, $npcp pcp modules and $ncil cilium/ebpf test objects, $kept distinct, in $OUT"
