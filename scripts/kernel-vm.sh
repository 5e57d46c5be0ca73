#!/bin/bash
# Older kernels as reference verifiers: boots Debian's own 6.1 or 6.12
# kernel under qemu (TCG: these machines have no KVM) and loads every
# program of the corpus and of the real-world objects into it, as
# `bpfvet kernel --kernel-only` does into the running kernel.
#
# Usage: scripts/kernel-vm.sh VERSION [options] [OBJ...]
#   VERSION        6.1 (linux-image-6.1.0-N-amd64, bookworm) or 6.12
#                  (linux-image-6.12.N+deb12-amd64, bookworm-security)
#   --package NAME that package rather than the newest one apt knows
#   --out CSV      default tests/conformance/kernel-VERSION.csv
#   --logs FILE    the level-1 logs of rejected programs (the last 200
#                  lines of each, scripts/trim-logs.py), xz-compressed;
#                  default tests/conformance/kernel-VERSION-logs.txt.xz
#   --build FILE   what was booted: package, release, config and BTF
#                  digests; default tests/conformance/kernel-VERSION.build
#   --no-logs      verdicts only
#   --prepare      only fetch, unpack and build the VM; print its folder
#   --profile      only boot it to write the target profile (below)
#   --testloader   the annotated selftests instead, with the selftest
#                  loader's semantics (tests/conformance/README.md): the
#                  conformance runner records, in the guest, each test's
#                  privileged and unprivileged run (the guest's root lowers
#                  kernel.unprivileged_bpf_disabled to 0 for the run and
#                  puts it back); default --out
#                  tests/conformance/kernel-VERSION-testloader.csv, objects
#                  build/corpus/verifier/verifier_*.bpf.o
#   --timeout S    give the guest S seconds (default 3600)
#   --time-limit S a program the guest has not decided in S seconds gets
#                  the verdict "timeout" (default 120; TCG is slow)
#   --batch N      objects per loader process in the guest (default 25;
#                  the console shows the progress after each batch)
#   OBJ...         default: build/corpus/{verifier,progs}/*.o and the
#                  objects of build/realworld (make corpus realworld)
#
# The CSV has the columns of tests/conformance/kernel-6.18.csv:
#   file,prog,prog_type,verdict,stage,errno,insns,total_states,peak_states,error
# Each object is loaded by the conventions bpfvet chooses for it, and
# relocated against the guest kernel's own BTF.
#
# Every run also writes the kernel's target profile, which
# `bpfvet --target VERSION` reads, to ${XDG_CACHE_HOME:-~/.cache}/bpfvet/
# profiles/VERSION: btf (the guest's /sys/kernel/btf/vmlinux, as the
# package's vmlinuz carries it), config, release, kernel_version (what
# libbpf makes of the release), kallsyms (the guest's, as root) and
# syscall_wrapper (1 when kallsyms has __x64_sys_bpf).
#
# Everything downloaded and built is cached in
# ${XDG_CACHE_HOME:-~/.cache}/bpfvet/vm/, outside the tree. The VM:
#   - the package is taken with `apt-get download` and never installed;
#     only boot/ and the modules that 9p needs are unpacked;
#   - the kernel boots as the vmlinux ELF taken out of the bzImage
#     (scripts/vmlinux-extract.py: its PVH entry skips the decompressor,
#     3 s from boot to power-off), -smp 1 (2 is slower under TCG);
#   - the initramfs is busybox-static, a static bpfvet
#     (make build/bpfvet-static) and the modules in dependency order
#     (scripts/kernel-vm-modules.py: the package has no modules.dep);
#   - a host folder is shared over 9p: the objects and the job go in,
#     the CSV and the logs come out.
set -euo pipefail

die() { echo "kernel-vm: error: $*" >&2; exit 1; }
say() { echo "kernel-vm: $*" >&2; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
CACHE="${XDG_CACHE_HOME:-${HOME:-/root}/.cache}/bpfvet/vm"

[ $# -ge 1 ] || die "usage: $0 6.1|6.12 [--package NAME] [--out CSV] [--logs FILE] [--build FILE] [--no-logs] [--prepare] [--timeout S] [OBJ...]"
VERSION=$1
shift
case $VERSION in
6.1) PKG_RE='^linux-image-6\.1\.0-[0-9]+-amd64$' ;;
6.12) PKG_RE='^linux-image-6\.12\.[0-9]+\+deb12-amd64$' ;;
*) die "unknown version '$VERSION' (6.1 or 6.12)" ;;
esac
OUT="$ROOT/tests/conformance/kernel-$VERSION.csv"
LOGS="$ROOT/tests/conformance/kernel-$VERSION-logs.txt.xz"
BUILDINFO="$ROOT/tests/conformance/kernel-$VERSION.build"
PKG=""
want_logs=1
prepare=0
profile_only=0
testloader=0
timeout_s=3600
batch=25
time_limit=120
objs=()
while [ $# -gt 0 ]; do
	case $1 in
	--package) [ $# -ge 2 ] || die "--package needs a name"; PKG=$2; shift ;;
	--out) [ $# -ge 2 ] || die "--out needs a file"; OUT=$2; shift ;;
	--logs) [ $# -ge 2 ] || die "--logs needs a file"; LOGS=$2; shift ;;
	--build) [ $# -ge 2 ] || die "--build needs a file"; BUILDINFO=$2; shift ;;
	--no-logs) want_logs=0 ;;
	--prepare) prepare=1 ;;
	--profile) profile_only=1 ;;
	--testloader) testloader=1 ;;
	--timeout) [ $# -ge 2 ] || die "--timeout needs seconds"; timeout_s=$2; shift ;;
	--batch) [ $# -ge 2 ] || die "--batch needs a number"; batch=$2; shift ;;
	--time-limit) [ $# -ge 2 ] || die "--time-limit needs seconds"; time_limit=$2; shift ;;
	-*) die "unknown option '$1'" ;;
	*) objs+=("$1") ;;
	esac
	shift
done

for tool in qemu-system-x86_64 busybox python3 dpkg-deb apt-get xz sha256sum; do
	command -v "$tool" >/dev/null 2>&1 || die "$tool not found: run scripts/deps.sh"
done
busybox --list 2>/dev/null | grep -x cpio >/dev/null || die "busybox has no cpio: install busybox-static"
{ ldd "$(command -v busybox)" 2>&1 || true; } | grep 'not a dynamic executable' >/dev/null ||
	die "$(command -v busybox) is not static: install busybox-static"

# pick_package: the newest package of this version apt knows, unless named.
pick_package() {
	[ -n "$PKG" ] && return
	PKG=$(apt-cache search --names-only "$PKG_RE" | cut -d' ' -f1 | sort -V | tail -n 1)
	if [ -z "$PKG" ] && [ "$(id -u)" = 0 ]; then
		apt-get update -q >/dev/null
		PKG=$(apt-cache search --names-only "$PKG_RE" | cut -d' ' -f1 | sort -V | tail -n 1)
	fi
	[ -n "$PKG" ] || die "apt knows no package matching $PKG_RE (is bookworm-security in the sources?)"
}

# fetch: the .deb into the cache, once.
fetch() {
	DEB=$(ls "$CACHE/${PKG}_"*.deb 2>/dev/null | sort -V | tail -n 1 || true)
	[ -n "$DEB" ] && return
	mkdir -p "$CACHE"
	say "downloading $PKG"
	(cd "$CACHE" && apt-get download -q "$PKG" >/dev/null 2>&1) ||
		die "cannot download $PKG (apt-get download)"
	DEB=$(ls "$CACHE/${PKG}_"*.deb | sort -V | tail -n 1)
}

# unpack: boot/, the 9p and virtio modules, the vmlinux ELF and its BTF.
unpack() {
	VM="$CACHE/$(basename "$DEB" .deb)"
	[ -f "$VM/ready" ] && return
	rm -rf "$VM"
	mkdir -p "$VM/pkg"
	dpkg-deb --fsys-tarfile "$DEB" >"$VM/pkg.tar" || die "cannot read $DEB"
	tar -tf "$VM/pkg.tar" | grep -E '^\./boot/[^/]+$|/kernel/(fs/9p|net/9p|fs/netfs|fs/fscache|drivers/virtio)/[^/]+\.ko(\.xz)?$' \
		>"$VM/want" || die "$DEB has no boot/ or modules"
	tar -xf "$VM/pkg.tar" -C "$VM/pkg" -T "$VM/want" || die "cannot unpack $DEB"
	rm -f "$VM/pkg.tar"
	RELEASE=$(basename "$(ls -d "$VM"/pkg/lib/modules/*)")
	python3 "$ROOT/scripts/vmlinux-extract.py" "$VM/pkg/boot/vmlinuz-$RELEASE" \
		"$VM/vmlinux" "$VM/btf" || die "cannot take vmlinux out of vmlinuz-$RELEASE"
	cp "$VM/pkg/boot/config-$RELEASE" "$VM/config"
	mkdir -p "$VM/initrd.d/bin" "$VM/initrd.d/modules"
	python3 "$ROOT/scripts/kernel-vm-modules.py" "$VM/pkg/lib/modules/$RELEASE" \
		"$VM/initrd.d/modules" 9p 9pnet_virtio virtio_pci >"$VM/initrd.d/modules/order" ||
		die "cannot resolve the module order"
	echo "$RELEASE" >"$VM/release"
	touch "$VM/ready"
}

# The guest's /init: mount what the loader needs, load the modules, run
# the job from the share, power off. The job's output goes to the share.
write_init() {
	cat >"$VM/initrd.d/init" <<'EOF'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mkdir -p /proc /sys /dev /mnt /tmp
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
for m in $(cat /modules/order); do
	insmod "/modules/$m" || echo "kernel-vm: insmod $m failed"
done
if mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 share /mnt; then
	sh /mnt/job.sh >/mnt/job.out 2>&1
	echo "exit $?" >/mnt/job.status
	sync
else
	echo "kernel-vm: cannot mount the share"
fi
poweroff -f
EOF
	chmod +x "$VM/initrd.d/init"
}

build_initrd() {
	make -C "$ROOT" -s build/bpfvet-static >/dev/null || die "cannot build build/bpfvet-static"
	cp "$ROOT/build/bpfvet-static" "$VM/initrd.d/bin/bpfvet"
	rm -f "$VM/initrd.d/bin/conformance-runner"
	if [ $testloader = 1 ]; then
		make -C "$ROOT" -s build/conformance-runner-static >/dev/null ||
			die "cannot build build/conformance-runner-static"
		cp "$ROOT/build/conformance-runner-static" "$VM/initrd.d/bin/conformance-runner"
	fi
	cp "$(command -v busybox)" "$VM/initrd.d/bin/busybox"
	write_init
	(cd "$VM/initrd.d" && find . | busybox cpio -o -H newc >"$VM/initrd" 2>/dev/null) ||
		die "cannot write the initramfs"
}

pick_package
fetch
unpack
RELEASE=$(cat "$VM/release")
build_initrd
if [ $prepare = 1 ]; then
	echo "$VM"
	exit 0
fi

if [ $testloader = 1 ]; then
	[ "$OUT" != "$ROOT/tests/conformance/kernel-$VERSION.csv" ] ||
		OUT="$ROOT/tests/conformance/kernel-$VERSION-testloader.csv"
	[ ${#objs[@]} -gt 0 ] || objs=("$ROOT"/build/corpus/verifier/verifier_*.bpf.o)
	[ -e "${objs[0]}" ] || die "build/corpus/verifier is missing: make corpus"
fi
if [ $profile_only = 1 ]; then
	objs=()
elif [ ${#objs[@]} = 0 ]; then
	for d in build/corpus/verifier build/corpus/progs; do
		[ -d "$ROOT/$d" ] || die "$d is missing: make corpus"
	done
	[ -d "$ROOT/build/realworld/pcp" ] || die "build/realworld is missing: make realworld"
	objs=("$ROOT"/build/corpus/verifier/*.o "$ROOT"/build/corpus/progs/*.o
	      "$ROOT"/build/realworld/*.o "$ROOT"/build/realworld/pcp/*.o
	      "$ROOT"/build/realworld/cilium-ebpf/*.elf)
fi

# The guest's part, every object loaded alone: the verdicts, then the
# logs of the rejected programs.
record_programs() {
	cat >"$SHARE/job.sh" <<EOF
cd /mnt/objs || exit 1
uname -r >/mnt/uname-r
uname -v >/mnt/uname-v
cat /proc/kallsyms >/mnt/kallsyms
# Where libbpf (and bpfvet kernel) read the running kernel's config from.
mkdir -p /boot && cp /mnt/config "/boot/config-\$(uname -r)"
[ $profile_only = 0 ] || exit 0
# The verdicts at level 4 (a level-2 log of a big program overflows the
# buffer), $batch objects per process, the progress on the console; then each
# rejected program again at level 1, for its log.
n=0
total=\$(wc -l </mnt/list)
: >/mnt/verdicts.csv
run_batch() {
	/bin/bpfvet kernel --kernel-only -o csv --kconfig /mnt/config --time-limit $time_limit \$batch \\
		>/tmp/rows.csv 2>>/mnt/verdicts.err
	[ -s /mnt/verdicts.csv ] || head -n 1 /tmp/rows.csv >/mnt/verdicts.csv
	sed 1d /tmp/rows.csv >>/mnt/verdicts.csv
	echo "kernel-vm: \$n of \$total objects (\$(date +%s))\$batch" >/dev/console
	batch=""
}
batch=""
while read -r o; do
	batch="\$batch \$o"
	n=\$((n + 1))
	[ \$((n % $batch)) = 0 ] && run_batch
done </mnt/list
[ -z "\$batch" ] || run_batch
[ $want_logs = 1 ] || exit 0
sed 1d /mnt/verdicts.csv | while IFS=, read -r file prog sec type verdict rest; do
	[ "\$verdict" = failure ] || continue
	echo "== \$file/\$prog" >>/mnt/logs/all.txt
	/bin/bpfvet kernel --kernel-only -l 1 -q --kconfig /mnt/config -p "\$prog" "\$file" \\
		>>/mnt/logs/all.txt 2>&1
done
EOF
}

# The guest's part in --testloader mode: the conformance runner against
# the live kernel (both modes of every test), its record to the share.
record_testloader() {
	cat >"$SHARE/job.sh" <<EOF
cd /mnt || exit 1
uname -r >/mnt/uname-r
uname -v >/mnt/uname-v
cat /proc/kallsyms >/mnt/kallsyms
mkdir -p /boot && cp /mnt/config "/boot/config-\$(uname -r)"
mkdir -p /mnt/verifier
for o in \$(cat /mnt/list); do mv "/mnt/objs/\$o" /mnt/verifier/; done
/bin/conformance-runner -q --reference live --btf none --time-limit $time_limit \\
	--record /mnt/testloader.csv /mnt/verifier >/mnt/runner.out 2>/mnt/verdicts.err
echo "runner exit \$?" >>/mnt/verdicts.err
EOF
}

# The share: every object under its own name (bpfvet kernel names rows by
# base name, so two objects may not share one), the config, the job.
SHARE=$(mktemp -d "$CACHE/share.XXXXXX")
trap 'rm -rf "$SHARE"' EXIT
mkdir -p "$SHARE/objs" "$SHARE/logs"
for o in "${objs[@]}"; do
	b=$(basename "$o")
	[ -e "$SHARE/objs/$b" ] && die "two objects named $b"
	cp "$o" "$SHARE/objs/$b" || die "cannot copy $o"
	echo "$b"
done >"$SHARE/list"
cp "$VM/config" "$SHARE/config"
if [ $testloader = 1 ]; then
	# __btf_path names a file the runner looks for in ../progs.
	mkdir -p "$SHARE/progs"
	cp "$ROOT"/build/corpus/progs/btf__core_reloc_*.bpf.o "$SHARE/progs/" 2>/dev/null || true
	record_testloader
else
	record_programs
fi

say "booting $RELEASE ($PKG) over ${#objs[@]} objects"
start=$(date +%s)
timeout "$timeout_s" qemu-system-x86_64 -machine accel=tcg -cpu max -m 2048 -smp 1 \
	-nodefaults -display none -serial stdio -no-reboot \
	-kernel "$VM/vmlinux" -initrd "$VM/initrd" \
	-append 'console=ttyS0 panic=-1 quiet' \
	-virtfs "local,path=$SHARE,mount_tag=share,security_model=none,id=share" \
	>"$SHARE/serial.log" 2>&1 || die "qemu failed or timed out: $(tail -n 5 "$SHARE/serial.log")"
[ -f "$SHARE/job.status" ] || die "the job did not finish: $(tail -n 5 "$SHARE/serial.log")"
say "guest done in $(($(date +%s) - start)) s"

# write_profile: the target profile of this kernel, for --target.
write_profile() {
	local dir="$CACHE/../profiles/$VERSION" rel
	rel=$(cat "$SHARE/uname-r")
	[ -s "$SHARE/kallsyms" ] || die "the guest gave no kallsyms"
	rm -rf "$dir.tmp"
	mkdir -p "$dir.tmp"
	cp "$VM/btf" "$dir.tmp/btf"
	cp "$VM/config" "$dir.tmp/config"
	cp "$SHARE/kallsyms" "$dir.tmp/kallsyms"
	echo "$rel" >"$dir.tmp/release"
	# libbpf's LINUX_KERNEL_VERSION: the release's first three numbers.
	echo "$rel" | sed -E 's/^([0-9]+)\.([0-9]+)(\.([0-9]+))?.*/\1.\2.\4/; s/\.$/.0/' \
		>"$dir.tmp/kernel_version"
	if grep -q ' __x64_sys_bpf$' "$SHARE/kallsyms"; then echo 1; else echo 0; fi \
		>"$dir.tmp/syscall_wrapper"
	echo "$(basename "$DEB" .deb)" >"$dir.tmp/package"
	rm -rf "$dir"
	mv "$dir.tmp" "$dir"
	say "profile $VERSION in $(cd "$dir" && pwd)"
}
write_profile
[ $profile_only = 0 ] || exit 0
if [ $testloader = 1 ]; then
	grep -q '^runner exit 0$' "$SHARE/verdicts.err" && [ -s "$SHARE/testloader.csv" ] ||
		die "the runner failed in the guest: $(tail -n 5 "$SHARE/verdicts.err")"
	# The runner names the running kernel; say which package it was.
	sed "3a # Booted under qemu by scripts/kernel-vm.sh $VERSION --testloader: $(basename "$DEB" .deb)." \
		"$SHARE/testloader.csv" >"$OUT.tmp" && mv "$OUT.tmp" "$OUT"
	say "$(grep -vc "^#" "$OUT") rows in $OUT"
	exit 0
fi
[ -s "$SHARE/verdicts.csv" ] || die "no verdicts: $(head -c 500 "$SHARE/verdicts.err")"

python3 - "$SHARE/verdicts.csv" >"$OUT.tmp" <<'EOF'
import csv, sys
w = csv.writer(sys.stdout, lineterminator='\n')
w.writerow(['file', 'prog', 'prog_type', 'verdict', 'stage', 'errno', 'insns',
            'total_states', 'peak_states', 'error'])
for r in csv.DictReader(open(sys.argv[1])):
    w.writerow([r['file_name'], r['prog_name'], r['prog_type'], r['kernel_verdict'],
                r['kernel_stage'], r['kernel_errno'], r['kernel_total_insns'],
                r['kernel_total_states'], r['kernel_peak_states'], r['kernel_error']])
EOF
mv "$OUT.tmp" "$OUT"
if [ $want_logs = 1 ] && [ -f "$SHARE/logs/all.txt" ]; then
	# The end of each log explains the verdict; a program too complex
	# for the verifier leaves millions of lines before it.
	python3 "$ROOT/scripts/trim-logs.py" "$SHARE/logs/all.txt" "$SHARE/logs/trimmed.txt" &&
		xz -9 -c "$SHARE/logs/trimmed.txt" >"$LOGS.tmp" && mv "$LOGS.tmp" "$LOGS"
fi
{
	echo "# The kernel behind kernel-$VERSION.csv: Debian's own, booted under qemu"
	echo "# by scripts/kernel-vm.sh $VERSION, each object loaded by its own"
	echo "# loader's conventions and relocated against this kernel's BTF."
	echo "package: $(basename "$DEB" .deb)"
	echo "release: $(cat "$SHARE/uname-r")"
	echo "version: $(cat "$SHARE/uname-v")"
	echo "config_sha256: $(sha256sum <"$VM/config" | cut -d' ' -f1)"
	echo "btf_sha256: $(sha256sum <"$VM/btf" | cut -d' ' -f1)"
	echo "nr_cpus: 1"
	echo "kernel_version: $(cat "$CACHE/../profiles/$VERSION/kernel_version")"
	echo "syscall_wrapper: $(cat "$CACHE/../profiles/$VERSION/syscall_wrapper")"
} >"$BUILDINFO"
n=$(($(wc -l <"$OUT") - 1))
say "$n programs in $OUT"
