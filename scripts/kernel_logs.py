# SPDX-License-Identifier: BSD-2-Clause
"""Shared pieces of the kernel-log differential tests (scripts/disasm-fixture.py,
scripts/level2-fixture.py and the tests/cli/ tests that use them).

The kernel's logs come from `bpfvet kernel --kernel-only -l LEVEL`, which loads
each program with bpfvet's own loader (the same instructions bpfvet verifies)
and prints "Kernel log for FILE/PROG:" before each log. Lines are masked as
tools/logdiff.c masks them for `bpfvet kernel --log-diff`: kernel addresses
(0xffff and 12 more hex digits), the number after '#' in a call (kfunc BTF
ids) and the verification time; the kernel's CO-RE notes are dropped.
"""
import hashlib
import lzma
import os
import re
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import elf_sections  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The running kernel's BTF: its digest says what a recording was made on.
BTF = '/sys/kernel/btf/vmlinux'
# The recorded target (tests/conformance/kernel-6.18.build), unpacked by
# `make target`: bpfvet's side always verifies and dumps for it, never for
# the running kernel, as tests/lib.sh's $TARGET.
TARGET_BTF = os.path.join(ROOT, 'build/target-6.18/btf')
TARGET = ['--btf', TARGET_BTF, '--kconfig', os.path.join(ROOT, 'build/target-6.18/config'),
          '--kernel-version', '6.18.44', '--nr-cpus', '2', '--no-syscall-wrapper']

_ADDR = re.compile(r'0xffff[0-9a-fA-F]{12}(?![0-9a-fA-F])')
_CALL_ID = re.compile(r'#[0-9]+')
_CORE_NOTES = ('CO-RE relocating ', "prog '': relo ", 'vmlinux_cand_cache:',
               'module_cand_cache:')
# "N: (xx) text", then at level 2 the state after the instruction, which the
# kernel pads to a column and starts with "; ".
INSN = re.compile(r'^([0-9]+): \(([0-9a-f]{2})\) (.*)$')
_STATE_TAIL = re.compile(r' +;( .*)?$')
_HEADER = re.compile(r'(Kernel log|bpfvet log|Log) for ([^/\n]+)/([^\n]*):\n')


def mask(line):
    """The --log-diff masks (tools/logdiff.c) of one line."""
    if line.startswith('verification time '):
        return 'verification time * usec'
    line = _ADDR.sub('0xADDR', line)
    pos = line.find('call ')
    if pos >= 0:
        line = line[:pos] + _CALL_ID.sub('#ID', line[pos:])
    return line


def is_core_note(line):
    return line.startswith(_CORE_NOTES)


def insn_text(line):
    """(index, masked "(xx) text") of an instruction line, or None."""
    m = INSN.match(line)
    if not m:
        return None
    text = _STATE_TAIL.sub('', m.group(3)).rstrip()
    return int(m.group(1)), mask('(%s) %s' % (m.group(2), text))


def btf_digest():
    try:
        with open(BTF, 'rb') as f:
            return hashlib.sha256(f.read()).hexdigest()[:16]
    except OSError:
        return 'none'


def release():
    return os.uname().release


def bpfvet():
    return os.environ.get('BPFVET', os.path.join(ROOT, 'build/bpfvet'))


def split_logs(stream):
    """Yields (side, file, prog, [lines]) for each log in the output of
    `bpfvet kernel -l N`, read as a stream. A log may miss its last newline
    (the kernel's message then runs into the next header), so headers are
    searched inside lines too. The table `bpfvet kernel` prints after the
    logs ends the last one."""
    cur = None
    lines = []
    for raw in stream:
        text = raw.decode('utf-8', 'replace')
        while True:
            m = _HEADER.search(text)
            if not m:
                break
            if m.start() > 0 and cur:
                lines.append(text[:m.start()])
            if cur:
                yield cur + (lines,)
            cur = (m.group(1), m.group(2), m.group(3))
            lines = []
            text = text[m.end():]
        if not text or not cur:
            continue
        if text.startswith('File ') and '  Program  ' in text:
            yield cur + (lines,)
            cur = None
            lines = []
            continue
        lines.append(text.rstrip('\n'))
    if cur:
        yield cur + (lines,)


def kernel_logs(objs, level, flags=None, progs=(), extra=()):
    """Runs the kernel side on objs (only the programs named in progs, when
    given); yields (file, prog, [lines])."""
    cmd = [bpfvet(), 'kernel', '--kernel-only', '-l', str(level)]
    if flags:
        cmd += ['-f', str(flags)]
    for prog in progs:
        cmd += ['-p', prog]
    cmd += list(extra) + list(objs)
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        for side, f, prog, lines in split_logs(p.stdout):
            if side == 'Kernel log':
                yield f, prog, [l for l in lines if not is_core_note(l)]
    finally:
        p.stdout.close()
        p.wait()


def has_core_relos(obj):
    """Whether the ELF object's .BTF.ext holds CO-RE relocation records
    (only those need the kernel's BTF, which takes time to read)."""
    try:
        with open(obj, 'rb') as f:
            ext = elf_sections.section(f.read(), '.BTF.ext')
    except (OSError, struct.error, ValueError):
        return True
    if ext is None or len(ext) < 32:
        return False
    hdr_len, = struct.unpack_from('<I', ext, 4)
    if hdr_len < 32:
        return False
    relo_len, = struct.unpack_from('<I', ext, 28)
    return relo_len > 0


def parse_dump(text):
    """{prog: {index: masked text}} of one object's `bpfvet dump`."""
    progs = {}
    cur = None
    for line in text.split('\n'):
        if not line:
            cur = None
            continue
        if cur is None and line.endswith(':') and ' ' not in line:
            cur = progs.setdefault(line[:-1], {})
            continue
        if cur is not None:
            t = insn_text(line)
            if t:
                cur[t[0]] = t[1]
    return progs


def dump_programs(obj, btf=True):
    """bpfvet dump OBJ: {prog: {index: masked text}}."""
    return dump_many([obj], btf)[obj]


def dump_many(objs, btf=True):
    """bpfvet dump of several objects: {obj: {prog: {index: masked text}}}.
    Two processes: the objects with CO-RE relocations, dumped for the
    target's BTF (read once), and the others, which need none."""
    out = {o: {} for o in objs}
    core = [o for o in objs if btf and has_core_relos(o)]
    plain = [o for o in objs if o not in core]
    for group, extra in ((core, ['--btf', TARGET_BTF]), (plain, ['--no-btf'])):
        if not group:
            continue
        text = subprocess.run([bpfvet(), 'dump'] + extra + group, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL).stdout.decode('utf-8', 'replace')
        if len(group) == 1:
            out[group[0]] = parse_dump(text)
            continue
        # "file: PATH" starts each object of a multi-object dump.
        for chunk in text.split('\nfile: ')[0:]:
            path, _, body = chunk.partition('\n')
            path = path[len('file: '):] if path.startswith('file: ') else path
            if path in out:
                out[path] = parse_dump(body)
    return out


def write_xz(path, text):
    data = lzma.compress(text.encode(), preset=9 | lzma.PRESET_EXTREME)
    tmp = path + '.tmp'
    with open(tmp, 'wb') as f:
        f.write(data)
    os.replace(tmp, path)


def read_xz(path):
    with open(path, 'rb') as f:
        return lzma.decompress(f.read()).decode()


def die(msg):
    print(msg, file=sys.stderr)
    sys.exit(2)
