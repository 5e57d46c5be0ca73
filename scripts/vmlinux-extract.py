#!/usr/bin/env python3
"""The vmlinux ELF inside a kernel package's bzImage, and its .BTF.

  scripts/vmlinux-extract.py VMLINUZ VMLINUX [BTF]

A bzImage carries the kernel compressed (Debian: xz for 6.1, zstd for
6.12). Every place where a compressed stream may start is tried, and the
first one that decompresses into an ELF file is the kernel: the magic
numbers also occur by chance in the setup code. The ELF boots faster
under qemu than the bzImage (its PVH entry skips the decompressor), and
its .BTF section is byte for byte the guest's /sys/kernel/btf/vmlinux.
"""
import lzma
import os
import struct
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_sections  # noqa: E402

XZ = b'\xfd7zXZ\x00'
ZSTD = b'\x28\xb5\x2f\xfd'
GZIP = b'\x1f\x8b\x08'


def die(msg):
    sys.stderr.write('vmlinux-extract: %s\n' % msg)
    sys.exit(1)


def offsets(data, magic):
    i = data.find(magic)
    while i >= 0:
        yield i
        i = data.find(magic, i + 1)


def unxz(data):
    d = lzma.LZMADecompressor(format=lzma.FORMAT_XZ)
    return d.decompress(data)


def unzstd(data):
    # zstd refuses what follows the frame, but writes the frame first.
    p = subprocess.run(['zstd', '-dc', '-q'], input=data, stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL)
    return p.stdout


def ungzip(data):
    return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)


def find_elf(data):
    for magic, fn in ((XZ, unxz), (ZSTD, unzstd), (GZIP, ungzip)):
        for off in offsets(data, magic):
            try:
                out = fn(data[off:])
            except (lzma.LZMAError, zlib.error, OSError):
                continue
            if out[:4] == b'\x7fELF':
                return out
    return None


def main(argv):
    if len(argv) not in (3, 4):
        die('usage: vmlinux-extract.py VMLINUZ VMLINUX [BTF]')
    try:
        with open(argv[1], 'rb') as f:
            data = f.read()
    except OSError as e:
        die('cannot read %s: %s' % (argv[1], e.strerror))
    elf = find_elf(data)
    if elf is None:
        die('%s holds no compressed ELF kernel (xz, zstd or gzip)' % argv[1])
    tmp = argv[2] + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(elf)
    os.replace(tmp, argv[2])
    if len(argv) == 4:
        try:
            btf = elf_sections.section(elf, '.BTF')
        except (ValueError, struct.error) as e:
            die('%s: %s' % (argv[1], e))
        if btf is None:
            die('%s has no .BTF section' % argv[1])
        with open(argv[3], 'wb') as f:
            f.write(btf)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
