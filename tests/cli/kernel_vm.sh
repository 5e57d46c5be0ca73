# The pieces of scripts/kernel-vm.sh that need no VM: the kernel ELF and
# its BTF taken out of a compressed image, the module load order from
# .modinfo, and the script's refusals. (Booting Debian's kernels is for
# `make profiles` and the references, never for make test.)
. tests/lib.sh
O=$PROGS/conv_static.o

llvm-objcopy-19 --dump-section .BTF="$TMP/want.btf" "$O" "$TMP/junk.o" 2>"$TMP/err" ||
	fail kernel_vm_setup "$(cat "$TMP/err")"
for z in xz zstd gzip; do
	# A made-up bzImage: setup bytes holding a stray xz magic, the
	# compressed kernel, trailing bytes.
	{ head -c 600 /dev/urandom; printf '\375\067zXZ\000junk'; "$z" -c "$O"; head -c 300 /dev/urandom; } \
		>"$TMP/vmlinuz.$z"
	if python3 scripts/vmlinux-extract.py "$TMP/vmlinuz.$z" "$TMP/vmlinux.$z" "$TMP/btf.$z" 2>"$TMP/err" &&
	   cmp -s "$TMP/vmlinux.$z" "$O" && cmp -s "$TMP/btf.$z" "$TMP/want.btf"; then
		pass "kernel_vm_extract_$z"
	else
		fail "kernel_vm_extract_$z" "$(cat "$TMP/err")"
	fi
done
head -c 4096 /dev/urandom >"$TMP/noise"
python3 scripts/vmlinux-extract.py "$TMP/noise" "$TMP/v" 2>"$TMP/err" && fail kernel_vm_extract_noise "accepted noise" ||
	{ grep -qF 'holds no compressed ELF kernel' "$TMP/err" && pass kernel_vm_extract_noise ||
		fail kernel_vm_extract_noise "$(cat "$TMP/err")"; }

# Modules: a depends on b (xz-compressed, as 6.12 ships them), b on c
# and on a built-in module; c on nothing.
M=$TMP/lib/modules/6.12.0/kernel
mkdir -p "$M/fs/a" "$M/net/b" "$M/drivers/c"
mod() {
	printf 'license=GPL\000depends=%s\000name=%s\000' "$2" "$1" >"$TMP/modinfo"
	llvm-objcopy-19 --add-section .modinfo="$TMP/modinfo" "$O" "$3"
}
mod a b "$M/fs/a/a.ko"
mod b c,builtin_thing "$TMP/b.ko" && xz -c "$TMP/b.ko" >"$M/net/b/b.ko.xz"
mod c "" "$M/drivers/c/c.ko"
got=$(python3 scripts/kernel-vm-modules.py "$TMP/lib/modules/6.12.0" "$TMP/mods" a 2>"$TMP/err" | tr '\n' ' ')
if [ "$got" = "c.ko b.ko a.ko " ] && cmp -s "$TMP/mods/b.ko" "$TMP/b.ko"; then
	pass kernel_vm_modules_order
else
	fail kernel_vm_modules_order "got '$got' $(cat "$TMP/err")"
fi

expect_exit kernel_vm_bad_version 1 scripts/kernel-vm.sh 5.4
grep -qF "unknown version '5.4' (6.1 or 6.12)" "$TMP/err" && pass kernel_vm_bad_version_msg ||
	fail kernel_vm_bad_version_msg "$(cat "$TMP/err")"
expect_exit kernel_vm_bad_option 1 scripts/kernel-vm.sh 6.1 --bogus
grep -qF "unknown option '--bogus'" "$TMP/err" && pass kernel_vm_bad_option_msg ||
	fail kernel_vm_bad_option_msg "$(cat "$TMP/err")"

# Rejection logs keep their first 3 and last 200 lines.
{ echo '== a.o/long'; seq 1 500; echo '== b.o/short'; seq 1 5; } >"$TMP/logs"
python3 scripts/trim-logs.py "$TMP/logs" "$TMP/trimmed"
if [ "$(sed -n 5p "$TMP/trimmed")" = '... 297 lines left out ...' ] &&
   [ "$(sed -n 6p "$TMP/trimmed")" = 301 ] && [ "$(wc -l <"$TMP/trimmed")" = 211 ]; then
	pass kernel_vm_trim_logs
else
	fail kernel_vm_trim_logs "$(head -n 7 "$TMP/trimmed" | tr '\n' '|')"
fi
