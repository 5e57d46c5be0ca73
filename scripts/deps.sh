#!/bin/sh
# Installs the Debian 12 packages that building, testing and benchmarking
# bpfvet need. As root it runs apt-get; otherwise it prints the command.
# Usage: scripts/deps.sh [--check]   (--check: only report, exit 1 if missing)
set -eu

# libxdp1, xdp-tools, libbpf-tools and golang-github-cilium-ebpf-dev ship
# the real-world BPF objects that scripts/collect-realworld.sh gathers;
# graphviz draws the layer diagram of docs/architecture.md (make
# architecture); qemu-system-x86, busybox-static and zstd boot Debian's
# 6.1 and 6.12 kernels as reference verifiers (scripts/kernel-vm.sh).
# python3-jsonschema validates the JSON output against docs/schema
# (tests/cli/json_schema.sh); chromium renders the HTML report headless
# in its tests.
PKGS="make libc6-dev pkg-config libelf-dev libbpf-dev zlib1g-dev
clang-19 llvm-19 lld-19 libclang-rt-19-dev bpftool linux-source-6.12
xz-utils valgrind gnuplot-nox graphviz python3 libxdp1 xdp-tools libbpf-tools
golang-github-cilium-ebpf-dev qemu-system-x86 busybox-static zstd
python3-jsonschema chromium"
# Downloaded, not installed, into the cache: pcp's post-install script
# needs systemd, and only its BPF PMDA modules are wanted.
DOWNLOAD="pcp"
CACHE_DEBS="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/bpfvet/debs"

# download_debs: fetches each package of $DOWNLOAD into $CACHE_DEBS once.
download_debs() {
	for p in $DOWNLOAD; do
		ls "$CACHE_DEBS/${p}_"*.deb >/dev/null 2>&1 && continue
		[ "${1:-}" = "--check" ] && { echo "missing download: $p" >&2; return 1; }
		mkdir -p "$CACHE_DEBS"
		echo "downloading: $p" >&2
		if ! (cd "$CACHE_DEBS" && apt-get download -q "$p" >/dev/null 2>&1); then
			if [ "$(id -u)" = 0 ]; then
				apt-get update -q >/dev/null
				(cd "$CACHE_DEBS" && apt-get download -q "$p" >/dev/null) ||
					{ echo "deps: cannot download $p" >&2; return 1; }
			else
				echo "deps: cannot download $p (apt-get download)" >&2
				return 1
			fi
		fi
	done
}

missing=""
for p in $PKGS; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"install ok installed"*) ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	download_debs "${1:-}"
	exit $?
fi

if [ "${1:-}" = "--check" ]; then
	echo "missing packages:$missing" >&2
	exit 1
fi

if [ "$(id -u)" != 0 ]; then
	echo "bpfvet needs these Debian packages:$missing" >&2
	echo "run as root:  apt-get install -y$missing" >&2
	exit 1
fi

echo "installing:$missing" >&2
export DEBIAN_FRONTEND=noninteractive
# A fresh machine may have empty or stale package lists: retry after update.
if ! apt-get install -y -q --no-install-recommends $missing >/dev/null; then
	apt-get update -q >/dev/null
	apt-get install -y -q --no-install-recommends $missing >/dev/null
fi
download_debs
