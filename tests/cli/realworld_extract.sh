# scripts/extract-bpf-objects.py: finds BPF ELF objects embedded in a file,
# extracts exactly their bytes, and skips truncated or inconsistent headers.
. tests/lib.sh
EXTRACT=scripts/extract-bpf-objects.py
REAL=/usr/lib/x86_64-linux-gnu/bpf/xdp-dispatcher.o

if [ ! -f "$REAL" ]; then
	fail realworld_extract "$REAL missing: libxdp1 is not installed (scripts/deps.sh)"
	exit 0
fi

# Builds the pieces and a blob that embeds them between junk and bad headers:
#   le.o     minimal little-endian BPF ELF (null section + 8 bytes of code)
#   be.o     the same, big-endian
#   ext.o    little-endian with extended numbering (e_shnum 0, count in sh0)
#   blob     junk, x86-64 header, le.o, junk, real object, be.o, ext.o,
#            then headers that claim EM_BPF but must be skipped.
python3 - "$TMP" "$REAL" <<'EOF'
import struct, sys
tmp, real = sys.argv[1], sys.argv[2]

def elf(endian, machine=247, shnum=2, ext=False, shoff=72, sec_size=8,
        shentsize=64):
    ident = b"\x7fELF" + bytes([2, 1 if endian == "<" else 2, 1]) + bytes(9)
    hdr = ident + struct.pack(endian + "HHIQQQIHHHHHH", 1, machine, 1, 0, 0,
                              shoff, 0, 64, 0, 0, shentsize,
                              0 if ext else shnum, 0)
    code = bytes(range(1, 9))
    null = struct.pack(endian + "IIQQQQIIQQ", 0, 0, 0, 0, 0,
                       shnum if ext else 0, 0, 0, 0, 0)
    text = struct.pack(endian + "IIQQQQIIQQ", 0, 1, 6, 0, 64, sec_size,
                       0, 0, 8, 0)
    return hdr + code + null + text

le, be, ext = elf("<"), elf(">"), elf("<", ext=True)
host = elf("<", machine=62)
real_bytes = open(real, "rb").read()
for name, data in (("le.o", le), ("be.o", be), ("ext.o", ext)):
    open("%s/%s" % (tmp, name), "wb").write(data)
bad = [
    real_bytes[:1000],                     # truncated: tables past the end
    elf("<", shoff=1 << 40),               # section table far past the end
    elf("<", sec_size=1 << 63),            # section end overflows
    elf("<", shnum=0xffff),                # too many section headers
    elf("<", shentsize=40),                # wrong e_shentsize
    elf("<", shoff=0),                     # no section headers
]
blob = (b"junk" * 9 + b"\x7fELF" + host + le + b"\x7fEL" + real_bytes + be
        + ext + b"".join(bad) + b"\x7fELF\x02\x01")
open(tmp + "/blob", "wb").write(blob)
open(tmp + "/plain", "wb").write(b"no objects here, only \x7fELF")
EOF

mkdir "$TMP/objs"
python3 "$EXTRACT" -o "$TMP/objs" "$TMP/blob" >"$TMP/list" 2>"$TMP/err"
rc=$?
n=$(ls "$TMP/objs" | wc -l)
if [ $rc -eq 0 ] && [ "$n" = 4 ] && [ "$(wc -l <"$TMP/list")" = 4 ]; then
	pass extract_count
else
	fail extract_count "exit $rc, $n files: $(cat "$TMP/list" "$TMP/err" | head -c 400)"
fi

# Each extracted object is byte for byte the embedded one, in file order.
ok=1
i=1
for want in "$TMP/le.o" "$REAL" "$TMP/be.o" "$TMP/ext.o"; do
	cmp -s "$want" "$TMP/objs/blob-$i.bpf.o" || { ok=0; fail extract_bytes "blob-$i.bpf.o differs from $want"; }
	i=$((i + 1))
done
[ $ok = 1 ] && pass extract_bytes

# The offsets printed are where the objects start in the blob.
off=$(awk -F'\t' 'NR == 2 { print $2 }' "$TMP/list")
if [ "$(tail -c +$((off + 1)) "$TMP/blob" | head -c 4 | od -An -c | tr -d ' ')" = '177ELF' ] &&
	[ "$(awk -F'\t' 'NR == 2 { print $3 }' "$TMP/list")" = "$(stat -c %s "$REAL")" ]; then
	pass extract_offsets
else
	fail extract_offsets "$(cat "$TMP/list")"
fi

# Every bad header that claims EM_BPF is reported, none is extracted.
if [ "$(grep -c 'BPF ELF header skipped' "$TMP/err")" = 6 ] &&
	grep -q 'past the end' "$TMP/err" && grep -q 'e_shentsize 40' "$TMP/err"; then
	pass extract_skips_bad
else
	fail extract_skips_bad "stderr: $(head -c 600 "$TMP/err")"
fi

# A file without objects is not an error; unreadable files and bad
# arguments are.
expect_exit extract_none 0 python3 "$EXTRACT" --list "$TMP/plain"
[ -s "$TMP/out" ] && fail extract_none_silent "printed $(cat "$TMP/out")" || pass extract_none_silent
expect_exit extract_missing 1 python3 "$EXTRACT" --list "$TMP/does-not-exist"
grep -q 'cannot read' "$TMP/err" && pass extract_missing_msg || fail extract_missing_msg "$(cat "$TMP/err")"
expect_exit extract_name_many 1 python3 "$EXTRACT" --name x "$TMP/le.o" "$TMP/be.o"
expect_exit extract_outdir_missing 1 python3 "$EXTRACT" -o "$TMP/nodir" "$TMP/le.o"
