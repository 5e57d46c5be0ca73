"""Sections of a 64-bit little-endian ELF file, read with the struct
module alone: for the scripts that look into BPF objects, kernel images
and modules (kernel_logs.py, vmlinux-extract.py, kernel-vm-modules.py)."""
import struct


def section(data, want):
    """The bytes of section `want` (a str) of the ELF file in `data`, or
    None when it has none. Raises ValueError for what is not such a file,
    and struct.error for a truncated one."""
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise ValueError('not a 64-bit little-endian ELF file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)

    def header(i):
        return struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
    stroff = header(shstrndx)[4]
    name = want.encode()
    for i in range(shnum):
        name_off, _, _, _, off, size = header(i)
        end = data.index(b'\0', stroff + name_off)
        if data[stroff + name_off:end] == name:
            return data[off:off + size]
    return None
