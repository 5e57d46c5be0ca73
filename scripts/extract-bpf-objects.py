#!/usr/bin/env python3
"""Finds BPF ELF objects embedded in other files and writes each one out.

Programs built with libbpf skeletons carry their BPF object as a byte array.
This scans a file for ELF headers whose e_machine is EM_BPF (247), sizes each
candidate from its own headers (the section header table and the furthest
section end) and extracts it as OUTDIR/<file name>-<n>.bpf.o, n counting from 1.

Every offset and size read from the file is checked against the bytes that
are really there: a truncated or inconsistent candidate is reported on stderr
and skipped, never extracted in part.

Usage: extract-bpf-objects.py [-o OUTDIR] [--name NAME] [--list] FILE...
  -o OUTDIR  where to write the objects (default: the current directory)
  --name     base name for the output files (default: the input's file name;
             only with a single FILE)
  --list     only print what would be extracted
Prints one line per object: input, offset, size, output path (tab separated).
Exit status: 0 on success (also when nothing is found), 1 on an I/O error or
bad arguments.
"""

import argparse
import os
import struct
import sys

EM_BPF = 247
ELF_MAGIC = b"\x7fELF"
ELFCLASS64 = 2
ELFDATA2LSB = 1
ELFDATA2MSB = 2
EV_CURRENT = 1
EHDR_SIZE = 64   # sizeof(Elf64_Ehdr)
SHDR_SIZE = 64   # sizeof(Elf64_Shdr)
PHDR_SIZE = 56   # sizeof(Elf64_Phdr)
SHT_NOBITS = 8

# Elf64_Ehdr after e_ident: type, machine, version, entry, phoff, shoff,
# flags, ehsize, phentsize, phnum, shentsize, shnum, shstrndx.
EHDR_FMT = "HHIQQQIHHHHHH"
# Elf64_Shdr: name, type, flags, addr, offset, size, link, info, align, entsize.
SHDR_FMT = "IIQQQQIIQQ"


class Skip(Exception):
    """A BPF ELF header that does not describe a whole object."""


class NotBpf(Skip):
    """ELF magic that does not start a BPF header: the host binary's own
    header or stray bytes. Expected, so never reported."""


def parse_header(data, off):
    """Returns the decoded ELF header at off, or raises Skip."""
    if len(data) - off < EHDR_SIZE:
        raise NotBpf("header runs past the end of the file")
    ident = data[off:off + 16]
    if ident[4] != ELFCLASS64:
        raise NotBpf("not ELFCLASS64")
    if ident[5] == ELFDATA2LSB:
        endian = "<"
    elif ident[5] == ELFDATA2MSB:
        endian = ">"
    else:
        raise NotBpf("unknown data encoding %d" % ident[5])
    if ident[6] != EV_CURRENT:
        raise NotBpf("unknown ELF version %d" % ident[6])
    fields = struct.unpack_from(endian + EHDR_FMT, data, off + 16)
    names = ("type", "machine", "version", "entry", "phoff", "shoff", "flags",
             "ehsize", "phentsize", "phnum", "shentsize", "shnum", "shstrndx")
    hdr = dict(zip(names, fields))
    hdr["endian"] = endian
    return hdr


def section_headers(data, off, hdr, avail):
    """Returns [(type, offset, size)] of the sections, all bounds checked.
    Includes section 0, the null section."""
    shoff, shnum = hdr["shoff"], hdr["shnum"]
    if shoff == 0:
        return []
    if hdr["shentsize"] != SHDR_SIZE:
        raise Skip("e_shentsize %d is not %d" % (hdr["shentsize"], SHDR_SIZE))
    if shoff + SHDR_SIZE > avail:
        raise Skip("section header table past the end of the file")
    fmt = hdr["endian"] + SHDR_FMT
    if shnum == 0:
        # Extended numbering: the real count is section 0's sh_size.
        shnum = struct.unpack_from(fmt, data, off + shoff)[5]
    if shnum > (avail - shoff) // SHDR_SIZE:
        raise Skip("%d section headers do not fit in the file" % shnum)
    table = []
    for i in range(shnum):
        sh = struct.unpack_from(fmt, data, off + shoff + i * SHDR_SIZE)
        table.append((sh[1], sh[4], sh[5]))
    return table


def object_size(data, off):
    """Size of the BPF object whose ELF header starts at off, or Skip."""
    hdr = parse_header(data, off)
    if hdr["machine"] != EM_BPF:
        raise NotBpf("e_machine %d" % hdr["machine"])
    if hdr["ehsize"] != EHDR_SIZE:
        raise Skip("e_ehsize %d is not %d" % (hdr["ehsize"], EHDR_SIZE))
    avail = len(data) - off
    sections = section_headers(data, off, hdr, avail)
    if len(sections) < 2:
        raise Skip("no sections besides the null one")
    end = max(EHDR_SIZE, hdr["shoff"] + len(sections) * SHDR_SIZE)
    if hdr["phnum"]:
        if hdr["phentsize"] != PHDR_SIZE:
            raise Skip("e_phentsize %d is not %d" % (hdr["phentsize"], PHDR_SIZE))
        end = max(end, hdr["phoff"] + hdr["phnum"] * PHDR_SIZE)
    for sh_type, sh_off, sh_size in sections:
        if sh_type == SHT_NOBITS or sh_size == 0:
            continue
        if sh_off > avail or sh_size > avail - sh_off:
            raise Skip("a section runs past the end of the file")
        end = max(end, sh_off + sh_size)
    if end > avail:
        raise Skip("object runs past the end of the file")
    return end


def find_objects(data, warn):
    """Returns [(offset, size)] of the BPF objects embedded in data."""
    found = []
    pos = 0
    while True:
        off = data.find(ELF_MAGIC, pos)
        if off < 0:
            return found
        try:
            size = object_size(data, off)
        except NotBpf:
            pos = off + 1
            continue
        except Skip as why:
            warn("offset %d: BPF ELF header skipped: %s" % (off, why))
            pos = off + 1
            continue
        found.append((off, size))
        pos = off + size


def main(argv):
    ap = argparse.ArgumentParser(
        description="Extract BPF ELF objects embedded in files.")
    ap.add_argument("-o", dest="outdir", default=".")
    ap.add_argument("--name")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("files", nargs="+")
    args = ap.parse_args(argv)
    if args.name is not None and len(args.files) != 1:
        print("extract-bpf-objects: --name needs exactly one FILE",
              file=sys.stderr)
        return 1
    status = 0
    for path in args.files:
        def warn(msg, path=path):
            print("extract-bpf-objects: %s: %s" % (path, msg), file=sys.stderr)
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            warn("cannot read: %s" % e.strerror)
            status = 1
            continue
        base = args.name or os.path.basename(path)
        for n, (off, size) in enumerate(find_objects(data, warn), 1):
            out = os.path.join(args.outdir, "%s-%d.bpf.o" % (base, n))
            if not args.list:
                try:
                    with open(out, "wb") as f:
                        f.write(data[off:off + size])
                except OSError as e:
                    print("extract-bpf-objects: cannot write %s: %s"
                          % (out, e.strerror), file=sys.stderr)
                    return 1
            print("%s\t%d\t%d\t%s" % (path, off, size, out))
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
