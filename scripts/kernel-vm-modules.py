#!/usr/bin/env python3
"""The modules a guest must load, in order, to mount a 9p share.

  scripts/kernel-vm-modules.py MODDIR OUTDIR NAME...

MODDIR is a kernel package's lib/modules/RELEASE. Debian's packages do
not carry modules.dep (depmod writes it at install time), so the order
comes from each module's own .modinfo "depends=" list. Each module NAME
and everything it depends on is written to OUTDIR as plain .ko (busybox
insmod reads no .ko.xz), and their file names are printed in load order.
A NAME that is not a module file is taken as built in and skipped, as
are dependencies built into the kernel (modules.builtin).
"""
import lzma
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_sections  # noqa: E402


def die(msg):
    sys.stderr.write('kernel-vm-modules: %s\n' % msg)
    sys.exit(1)


def norm(name):
    return name.replace('-', '_')


def index(moddir):
    found = {}
    for root, _, files in os.walk(os.path.join(moddir, 'kernel')):
        for f in files:
            for ext in ('.ko', '.ko.xz'):
                if f.endswith(ext):
                    found[norm(f[:-len(ext)])] = os.path.join(root, f)
    return found


def read_module(path):
    with open(path, 'rb') as f:
        data = f.read()
    return lzma.decompress(data) if path.endswith('.xz') else data


def modinfo_depends(elf):
    info = elf_sections.section(elf, '.modinfo')
    if info is None:
        die('a module without .modinfo')
    for field in info.split(b'\0'):
        if field.startswith(b'depends='):
            deps = field[len(b'depends='):].decode()
            return [norm(d) for d in deps.split(',') if d]
    return []


def main(argv):
    if len(argv) < 4:
        die('usage: kernel-vm-modules.py MODDIR OUTDIR NAME...')
    moddir, outdir = argv[1], argv[2]
    mods = index(moddir)
    order, seen = [], set()

    def visit(name, stack):
        if name in seen:
            return
        if name in stack:
            die('dependency cycle through %s' % name)
        if name not in mods:
            seen.add(name)      # built in
            return
        elf = read_module(mods[name])
        for dep in modinfo_depends(elf):
            visit(dep, stack + [name])
        seen.add(name)
        out = os.path.join(outdir, name + '.ko')
        with open(out, 'wb') as f:
            f.write(elf)
        order.append(name + '.ko')

    os.makedirs(outdir, exist_ok=True)
    for name in argv[3:]:
        visit(norm(name), [])
    print('\n'.join(order))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
